"""Every format both ways where the engine has it, the result's fields and the options."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

import sdconv

WRITABLE = ["sdxml", "parsx", "html", "html_all_in_one", "word", "pdf", "markdown", "json"]


def test_formats_lists_directions():
    formats = sdconv.formats()
    assert formats["word"] == (True, True)
    assert formats["markdown"] == (True, True)
    assert formats["pdf"] == (False, True)
    assert formats["parsx"] == (False, True)


@pytest.mark.parametrize("to", WRITABLE)
def test_word_to_every_format(docx_path, to):
    result = sdconv.convert(docx_path, to)
    assert result.format == to
    assert len(result.data) > 100
    if to in ("markdown", "html", "html_all_in_one", "json"):
        assert isinstance(result.text, str)
    else:
        with pytest.raises(TypeError):
            result.text
    if to in ("word", "sdxml", "parsx"):
        zipfile.ZipFile(io.BytesIO(result.data)).testzip()
    if to == "pdf":
        assert result.data.startswith(b"%PDF")


@pytest.mark.parametrize(
    "source,from_",
    [("docx", None), ("sdxml", None), ("markdown", "markdown"), ("json", "json")],
)
def test_every_readable_format_reads(docx_path, sdxml_path, markdown_text, source, from_):
    if source == "docx":
        data = docx_path.read_bytes()
    elif source == "sdxml":
        data = sdxml_path.read_bytes()
    elif source == "markdown":
        data = markdown_text.encode()
    else:
        data = sdconv.convert(docx_path, "json").data
    # Round trip through the format: the text survives.
    md = sdconv.to_markdown(data, from_=from_)
    assert md.strip()
    back = sdconv.convert(data, "word", from_=from_)
    assert sdconv.to_markdown(back.data, from_="word").strip()


def test_formats_are_detected_from_bytes(docx_bytes, sdxml_path, markdown_text):
    assert sdconv.to_markdown(docx_bytes) == sdconv.to_markdown(docx_bytes, from_="docx")
    assert sdconv.to_markdown(sdxml_path.read_bytes()).strip()
    assert "Report" in sdconv.to_markdown(markdown_text.encode())
    dump = sdconv.convert(docx_bytes, "json").data
    assert sdconv.read(dump).counts == sdconv.read(docx_bytes).counts


def test_sources_bytes_path_str_and_file_object(docx_path, docx_bytes):
    expected = sdconv.to_markdown(docx_bytes)
    assert sdconv.to_markdown(str(docx_path)) == expected
    assert sdconv.to_markdown(docx_path) == expected
    assert sdconv.to_markdown(bytearray(docx_bytes)) == expected
    assert sdconv.to_markdown(memoryview(docx_bytes)) == expected
    with open(docx_path, "rb") as f:
        assert sdconv.to_markdown(f) == expected
    assert sdconv.to_markdown(io.BytesIO(docx_bytes)) == expected
    with open(docx_path, "r", encoding="latin-1") as f, pytest.raises(TypeError):
        sdconv.convert(f)
    with pytest.raises(TypeError):
        sdconv.convert(42)


def test_result_fields_and_aliases(docx_path):
    result = sdconv.convert(docx_path)
    assert result.markdown == result.text == result.text_content == result.value
    assert result.data == result.text.encode()
    assert result.messages is result.warnings
    assert set(result.images) == set(result.files)
    assert all(name.startswith("images/") for name in result.images)
    assert result.images, "the sample has two pictures"
    for name in result.images:
        assert f"({name}" in result.text
    for w in result.warnings:
        assert isinstance(w.kind, str) and isinstance(w.message, str)
        assert isinstance(w.location, sdconv.Location)
    assert "sdconv.Result markdown" in repr(result)


def test_title_is_reported(markdown_text):
    md = "---\ntitle: The Title\n---\n\n" + markdown_text
    result = sdconv.convert(md.encode(), "html", from_="md")
    doc = sdconv.read(md.encode(), from_="md")
    assert result.title == doc.title


def test_html_page_with_files(docx_path):
    result = sdconv.convert(docx_path, "html")
    assert result.text.lstrip().lower().startswith("<!doctype html")
    assert "style.css" in result.files
    assert result.images and all(k.startswith("images/") for k in result.images)
    assert "style.css" not in result.images


def test_to_html_is_one_page_with_data_uris(docx_path):
    page = sdconv.to_html(docx_path)
    assert "data:image/png;base64," in page
    assert 'href="style.css"' not in page


def test_write_lays_files_out_like_the_cli(tmp_path: Path, docx_path):
    out = sdconv.convert(docx_path, "html").write(tmp_path / "out" / "page.html")
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert (tmp_path / "out" / "style.css").is_file()
    pictures = list((tmp_path / "out" / "images").iterdir())
    assert pictures
    md = sdconv.convert(docx_path).write(tmp_path / "md" / "doc.md")
    text = md.read_text(encoding="utf-8")
    for name in sdconv.convert(docx_path).images:
        assert (tmp_path / "md" / name).is_file()
        assert name in text
    word = sdconv.convert(docx_path, "docx").write(tmp_path / "x.docx")
    assert zipfile.is_zipfile(word)


def test_write_refuses_names_outside_the_folder(tmp_path, docx_path):
    result = sdconv.convert(docx_path)
    result.files["../evil.png"] = b"x"
    with pytest.raises(sdconv.Error):
        result.write(tmp_path / "a" / "doc.md")
    assert not (tmp_path / "evil.png").exists()


# ---- options ----------------------------------------------------------------------------------


def test_style_mapping_dict_changes_the_tree(docx_path):
    plain = sdconv.read(docx_path).counts
    mapped = sdconv.read(docx_path, style_mapping={"Normal": {"textType": "heading"}}).counts
    assert mapped["headings"] > plain["headings"]
    # JSON text is taken as well.
    assert sdconv.read(docx_path, style_mapping='{"Normal": {"textType": "heading"}}').counts == mapped


def test_bad_style_mapping_is_an_invalid_option(docx_path):
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert(docx_path, style_mapping={"Normal": {"textType": "nope"}})
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert(docx_path, style_mapping=["not", "a", "dict"])


def test_magic_and_routines(docx_path):
    assert sdconv.to_markdown(docx_path, magic="numbered-headers").strip()
    assert sdconv.to_markdown(docx_path, routines=["remove-page-breaks"]).strip()
    assert sdconv.to_markdown(docx_path, routines="remove-page-breaks").strip()
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert(docx_path, magic="no-such-set")
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert(docx_path, routines=["no-such-routine"])


def test_word_settings_dict_and_language(docx_path):
    settings = {"language": "de_DE", "imageCaption": True, "textToc": True}
    result = sdconv.convert(docx_path, "word", word_settings=settings)
    with zipfile.ZipFile(io.BytesIO(result.data)) as z:
        body = z.read("word/document.xml").decode()
    assert "Abbildung" in body or "TOC" in body
    assert sdconv.convert(docx_path, "pdf", settings=settings, paper="letter").data.startswith(b"%PDF")
    assert sdconv.convert(docx_path, "html", language="fr_CA").text


@pytest.mark.parametrize(
    "options",
    [
        {"word_settings": {"imageCation": True}},
        {"word_settings": {"imageToc": True}},
        {"word_settings": {"language": "xx_XX"}},
        {"language": "klingon"},
        {"track_changes": "maybe"},
        {"images": "sideways"},
        {"paper": "a3"},
        {"template": "no-such-template"},
        {"no_such_option": 1},
        {"settings": {}, "word_settings": {}},
    ],
)
def test_bad_export_options_are_invalid_options(docx_path, options):
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert(docx_path, "word", **options)


def test_template_by_id(docx_path):
    assert sdconv.convert(docx_path, "word", template="report").data


def test_track_changes_and_comments(markdown_text):
    md = markdown_text.encode()
    for mode in ("all", "accept", "reject"):
        assert sdconv.to_markdown(md, from_="md", track_changes=mode)
    assert sdconv.to_markdown(md, from_="md", comments=False)


def test_unknown_and_unreadable_formats():
    with pytest.raises(sdconv.UnsupportedFormat):
        sdconv.convert(b"x", "odt")
    with pytest.raises(sdconv.UnsupportedFormat):
        sdconv.convert(b"%PDF-1.4", "markdown", from_="pdf")
    with pytest.raises(sdconv.UnsupportedFormat):
        sdconv.convert(b"x", "markdown", from_="nope")


def test_json_dump_is_json(docx_path):
    assert json.loads(sdconv.convert(docx_path, "json").text)["blocks"]


def _with_page_break() -> bytes:
    """A tree with a page break between two paragraphs, as the JSON dump spells it (read from
    the Markdown reader's tree, so the paragraph form is the engine's own)."""
    tree = json.loads(sdconv.convert(b"First page.\n\nSecond page.\n", "json", from_="markdown").text)
    tree["blocks"].insert(1, {"type": "page_break"})
    return json.dumps(tree).encode()


def test_markdown_options_reach_the_writer(markdown_text):
    source = markdown_text.encode()
    html_tables = sdconv.to_markdown(source, from_="markdown", tables="html")
    assert "<table>" in html_tables and "| a | b |" not in html_tables
    pipes = sdconv.to_markdown(source, from_="markdown", tables="gfm")
    assert "<table>" not in pipes and "| a | b |" in pipes
    with pytest.raises(sdconv.InvalidOption, match="tables"):
        sdconv.to_markdown(source, from_="markdown", tables="latex")

    marked = sdconv.to_markdown(_with_page_break(), from_="json", page_breaks="<!-- pagebreak -->")
    assert marked.index("First page.") < marked.index("<!-- pagebreak -->") < marked.index("Second page.")
    assert "<!-- pagebreak -->" not in sdconv.to_markdown(_with_page_break(), from_="json")
    with pytest.raises(sdconv.InvalidOption, match="page_breaks"):
        sdconv.to_markdown(source, from_="markdown", page_breaks="two\nlines")
