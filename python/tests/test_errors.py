"""Bad input ends in a typed exception carrying the engine's message, and nothing else."""

from __future__ import annotations

import io
import zipfile

import pytest

import sdconv


def test_the_hierarchy():
    for cls in (
        sdconv.InvalidInput,
        sdconv.InvalidOption,
        sdconv.LimitExceeded,
        sdconv.UnsupportedFormat,
        sdconv.ConversionFailed,
    ):
        assert issubclass(cls, sdconv.Error)
    assert issubclass(sdconv.Error, Exception)


def test_not_a_zip():
    with pytest.raises(sdconv.InvalidInput, match="docx|zip"):
        sdconv.convert(b"this is not a zip at all", from_="docx")


def test_binary_garbage_without_a_name():
    with pytest.raises(sdconv.InvalidInput):
        sdconv.convert(bytes(range(256)) * 4)


def test_not_a_docx_named_docx(tmp_path):
    path = tmp_path / "fake.docx"
    path.write_bytes(b"\x00\x01 nothing like Word")
    with pytest.raises(sdconv.InvalidInput):
        sdconv.convert(path)


def test_a_zip_that_is_not_word():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(sdconv.InvalidInput):
        sdconv.convert(buf.getvalue(), from_="docx")
    with pytest.raises(sdconv.InvalidInput):
        sdconv.convert(buf.getvalue(), from_="sdxml")


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, 0.99])
def test_truncated_file(docx_bytes, cut):
    with pytest.raises(sdconv.InvalidInput):
        sdconv.convert(docx_bytes[: int(len(docx_bytes) * cut)], from_="docx")


def _zip_bomb(size: int) -> bytes:
    """A Word-looking zip whose document part inflates to `size` zero bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
            'package/2006/content-types"/>',
        )
        with z.open("word/document.xml", "w", force_zip64=True) as entry:
            chunk = bytes(1 << 20)
            for _ in range(size >> 20):
                entry.write(chunk)
    return buf.getvalue()


def test_zip_bomb_is_a_limit():
    bomb = _zip_bomb(300 << 20)
    assert len(bomb) < 1 << 20
    with pytest.raises(sdconv.LimitExceeded, match="limit"):
        sdconv.convert(bomb, from_="docx")


def test_max_size_option_is_a_limit(docx_bytes):
    with pytest.raises(sdconv.LimitExceeded):
        sdconv.convert(docx_bytes, max_size=1000)


def test_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        sdconv.convert(tmp_path / "nope.docx")


def test_undetectable_input_says_what_to_do():
    with pytest.raises(sdconv.InvalidInput, match="from_"):
        sdconv.convert(b"\xff\xfe\x00garbage")
