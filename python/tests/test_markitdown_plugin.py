"""The markitdown plugin (python/markitdown-sdconv): markitdown with plugins enabled converts
Word files with sdconv, and leaves everything else, and plugin-less use, to markitdown.

Needs markitdown and the plugin installed in the environment
(`pip install ./python ./python/markitdown-sdconv 'markitdown[docx]'`); skipped without
markitdown, failing if markitdown is there but the plugin is not.
"""

from __future__ import annotations

import io
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import sdconv

markitdown = pytest.importorskip(
    "markitdown",
    reason="markitdown is not installed: pip install 'markitdown[docx]' ./python/markitdown-sdconv",
)
from markitdown import MarkItDown, StreamInfo  # noqa: E402

WORD_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _plugin_module():
    """The plugin, found the way markitdown finds it: through its entry point."""
    found = [ep for ep in entry_points(group="markitdown.plugin") if ep.name == "sdconv"]
    assert found, (
        "markitdown is installed but the sdconv plugin is not: "
        "pip install ./python/markitdown-sdconv"
    )
    return found[0].load()


plugin = _plugin_module()


def _as_markitdown_normalizes(text: str) -> str:
    """markitdown strips trailing spaces and collapses blank-line runs in every converter's
    output; sdconv's Markdown compared with markitdown's must get the same treatment."""
    text = "\n".join(line.rstrip() for line in re.split(r"\r?\n", text))
    return re.sub(r"\n{3,}", "\n\n", text)


@pytest.fixture(scope="module")
def with_plugins() -> MarkItDown:
    return MarkItDown(enable_plugins=True)


@pytest.fixture(scope="module")
def without_plugins() -> MarkItDown:
    return MarkItDown()


@pytest.fixture
def calls(monkeypatch) -> list[StreamInfo]:
    """Records each file the plugin's converter is asked to convert (and still converts it)."""
    seen: list[StreamInfo] = []
    original = plugin.SdconvDocxConverter.convert

    def spy(self, file_stream, stream_info, **kwargs):
        seen.append(stream_info)
        return original(self, file_stream, stream_info, **kwargs)

    monkeypatch.setattr(plugin.SdconvDocxConverter, "convert", spy)
    return seen


def test_plugin_interface():
    assert plugin.__plugin_interface_version__ == 1
    assert callable(plugin.register_converters)
    # Below markitdown's own PRIORITY_SPECIFIC_FILE_FORMAT, where its DocxConverter is.
    assert plugin.PRIORITY < markitdown.PRIORITY_SPECIFIC_FILE_FORMAT


def test_docx_is_converted_by_sdconv(with_plugins, docx_path, calls):
    result = with_plugins.convert(str(docx_path))
    expected = sdconv.convert(docx_path, "markdown")

    assert len(calls) == 1
    assert isinstance(result, plugin.SdconvResult)
    assert result.markdown == _as_markitdown_normalizes(expected.text)
    assert result.text_content == result.markdown
    assert result.title == expected.title == "Sample document"
    # The pictures the Markdown refers to come along, as sdconv wrote them.
    assert result.images == expected.images
    assert len(result.images) == 2
    for name in result.images:
        assert re.search(rf"\]\({re.escape(name)}[ )]", result.markdown), name


def test_without_plugins_markitdown_converts(without_plugins, with_plugins, docx_path, calls):
    own = without_plugins.convert(str(docx_path))
    ours = with_plugins.convert(str(docx_path))

    assert len(calls) == 1  # only the plugin-enabled instance reached the plugin
    assert not isinstance(own, plugin.SdconvResult)
    assert own.markdown.strip()
    assert own.markdown != ours.markdown


def test_docx_by_mime_type_alone(with_plugins, docx_bytes, calls):
    converter = plugin.SdconvDocxConverter()
    assert converter.accepts(io.BytesIO(), StreamInfo(mimetype=WORD_MIME))
    assert converter.accepts(io.BytesIO(), StreamInfo(extension=".DOCX"))
    assert not converter.accepts(io.BytesIO(), StreamInfo(extension=".html", mimetype="text/html"))
    assert not converter.accepts(io.BytesIO(), StreamInfo())

    result = with_plugins.convert_stream(
        io.BytesIO(docx_bytes), stream_info=StreamInfo(mimetype=WORD_MIME)
    )
    assert len(calls) == 1
    assert result.markdown == _as_markitdown_normalizes(sdconv.to_markdown(docx_bytes))


@pytest.mark.parametrize(
    "name, content",
    [
        ("page.html", "<html><head><title>T</title></head><body><h1>Hello</h1><p>x</p></body></html>"),
        ("notes.txt", "Plain text, not Word.\n"),
    ],
)
def test_other_formats_are_left_to_markitdown(with_plugins, without_plugins, tmp_path, calls,
                                              name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")

    ours = with_plugins.convert(str(path))
    own = without_plugins.convert(str(path))

    assert calls == []
    assert not isinstance(ours, plugin.SdconvResult)
    assert ours.markdown == own.markdown


def test_wins_whatever_the_registration_order(docx_path, calls):
    # Built-ins registered after the plugin come first among equal priorities: only the
    # plugin's lower priority value keeps it ahead of markitdown's DocxConverter here.
    md = MarkItDown(enable_builtins=False, enable_plugins=True)
    md.enable_builtins()
    result = md.convert(str(docx_path))
    assert len(calls) == 1
    assert isinstance(result, plugin.SdconvResult)


def test_image_options(with_plugins, docx_path):
    inline = with_plugins.convert(str(docx_path), keep_data_uris=True)
    assert inline.markdown.count("](data:image/png;base64,") == 2
    assert inline.images == {}

    omitted = with_plugins.convert(str(docx_path), sdconv_options={"images": "omit"})
    assert "![" not in omitted.markdown
    assert omitted.images == {}

    configured = MarkItDown(enable_plugins=True, sdconv_options={"images": "omit"})
    assert configured.convert(str(docx_path)).markdown == omitted.markdown


def test_sdconv_failure_falls_back_to_markitdown(with_plugins, without_plugins, docx_path,
                                                 monkeypatch):
    def refuse(*args, **kwargs):
        raise sdconv.InvalidInput("refused by the test")

    monkeypatch.setattr(sdconv, "convert", refuse)
    result = with_plugins.convert(str(docx_path))
    assert not isinstance(result, plugin.SdconvResult)
    assert result.markdown == without_plugins.convert(str(docx_path)).markdown
