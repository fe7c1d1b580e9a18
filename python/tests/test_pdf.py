"""The PDF writer's own options: the standard to meet, hyphenation, and fonts registered."""

from __future__ import annotations

import shutil

import pytest

import sdconv
from conftest import REPO

# The bundled faces, as font files a caller could have.
FONTS = REPO / "templates" / "pdf" / "fonts"


def test_pdf_ua_1_is_identified_and_tagged(markdown_text):
    result = sdconv.convert(markdown_text.encode(), "pdf", from_="markdown", pdf_standard="ua1")
    pdf = result.data
    assert pdf.startswith(b"%PDF-")
    # The XMP metadata (written uncompressed) claims PDF/UA-1 and no PDF/A part.
    assert b"pdfuaid:part" in pdf
    assert b"pdfaid:part" not in pdf
    # A structure tree, the document marked as tagged.
    assert b"/StructTreeRoot" in pdf
    assert b"/Marked true" in pdf


def test_every_standard_by_its_command_line_name(markdown_text):
    source = markdown_text.encode()
    for name, ua, a in [
        ("none", False, False),
        ("ua1", True, False),
        ("a2b", False, True),
        ("a2u", False, True),
        ("a3b", False, True),
        ("A2B+UA1", True, True),
    ]:
        pdf = sdconv.convert(source, "pdf", from_="markdown", pdf_standard=name).data
        assert (b"pdfuaid:part" in pdf, b"pdfaid:part" in pdf) == (ua, a), name
    # The default claims no standard; the tree is there all the same.
    pdf = sdconv.convert(source, "pdf", from_="markdown").data
    assert b"pdfuaid:part" not in pdf and b"pdfaid:part" not in pdf
    assert b"/StructTreeRoot" in pdf


def test_a_read_document_exports_with_a_standard(docx_path):
    doc = sdconv.read(docx_path)
    pdf = doc.export("pdf", pdf_standard="a2b", paper="letter").data
    assert b"pdfaid:part" in pdf


@pytest.mark.parametrize("value", ["pdf/a-1b", "ua2", ""])
def test_an_unknown_standard_is_an_invalid_option_naming_the_known_ones(markdown_text, value):
    with pytest.raises(sdconv.InvalidOption) as raised:
        sdconv.convert(markdown_text.encode(), "pdf", from_="markdown", pdf_standard=value)
    message = str(raised.value)
    assert "pdf_standard" in message and f'"{value}"' in message, message
    for known in ("none", "ua1", "a2b", "a2u", "a3b", "a2b+ua1"):
        assert known in message, message


def test_a_document_that_cannot_conform_names_every_reason():
    # No title, no heading, no file name: PDF/UA-1 needs a title to display.
    with pytest.raises(sdconv.InvalidInput, match="PDF/UA-1.*title"):
        sdconv.convert(b"Just a paragraph.\n", "pdf", from_="markdown", pdf_standard="ua1")
    # A character no font has cannot be archived.
    source = "# Title\n\nA \U0010fffd B\n".encode()
    with pytest.raises(sdconv.InvalidInput, match="PDF/A-2b.*U\\+10FFFD"):
        sdconv.convert(source, "pdf", from_="markdown", pdf_standard="a2b")
    # Without a standard both are written, the missing glyph a warning.
    assert sdconv.convert(b"Just a paragraph.\n", "pdf", from_="markdown").data
    result = sdconv.convert(source, "pdf", from_="markdown")
    assert any("U+10FFFD" in w.message for w in result.warnings), result.warnings


def test_hyphenate_is_accepted():
    # The patterns are the paragraph's language's: here the document's, from the front matter.
    words = " ".join(["Donaudampfschifffahrtsgesellschaftskapitän"] * 40)
    source = f"---\nlang: de\ntitle: Titel\n---\n\n{words}\n".encode()
    plain = sdconv.convert(source, "pdf", from_="markdown")
    hyphenated = sdconv.convert(source, "pdf", from_="markdown", hyphenate=True)
    assert hyphenated.data.startswith(b"%PDF-")
    # The same options give the same bytes; hyphenation changes the lines.
    assert sdconv.convert(source, "pdf", from_="markdown").data == plain.data
    assert hyphenated.data != plain.data
    assert sdconv.convert(source, "pdf", from_="markdown", hyphenate=False).data.startswith(b"%PDF-")
    many = sdconv.convert_many([source, source], "pdf", from_="markdown", hyphenate=True)
    assert all(isinstance(r, sdconv.Result) for r in many), many


def test_register_fonts_takes_a_folder_a_file_or_bytes(tmp_path):
    folder = tmp_path / "fonts"
    folder.mkdir()
    shutil.copy(FONTS / "DejaVuSansMono.ttf", folder)
    (folder / "README.txt").write_text("not a font, and not named like one")
    assert sdconv.register_fonts(folder) == 1
    assert sdconv.register_fonts(str(FONTS / "DejaVuSerif.ttf")) == 1
    assert sdconv.register_fonts((FONTS / "DejaVuSerif-Bold.ttf").read_bytes()) == 1
    # Conversions go on as before.
    assert sdconv.convert(b"# Fonts\n\ntext\n", "pdf", from_="markdown").data.startswith(b"%PDF-")


def test_register_fonts_refuses_what_is_no_font(tmp_path):
    with pytest.raises(sdconv.InvalidInput, match="not a font"):
        sdconv.register_fonts(b"no font at all")
    fake = tmp_path / "fake.ttf"
    fake.write_bytes(b"\x00\x01\x00\x00 truncated")
    with pytest.raises(sdconv.InvalidInput, match="fake.ttf"):
        sdconv.register_fonts(fake)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(sdconv.InvalidInput, match="no .ttf"):
        sdconv.register_fonts(empty)
    with pytest.raises(FileNotFoundError):
        sdconv.register_fonts(tmp_path / "missing")
    with pytest.raises(TypeError):
        sdconv.register_fonts(42)
