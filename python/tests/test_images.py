"""Pictures: as files, inline, omitted, and described by a callback."""

from __future__ import annotations

import base64

import pytest

import sdconv


def test_images_as_files(docx_path):
    result = sdconv.convert(docx_path, images="files")
    assert result.images
    for name, data in result.images.items():
        assert data.startswith(b"\x89PNG")
        assert f"]({name}" in result.text


def test_images_inline_are_whole_data_uris(docx_path):
    files = sdconv.convert(docx_path).images
    result = sdconv.convert(docx_path, images="inline")
    assert result.files == {}
    assert "](images/" not in result.text
    for data in files.values():
        assert f"](data:image/png;base64,{base64.b64encode(data).decode()}" in result.text


def test_images_omitted(docx_path):
    for to in ("markdown", "html"):
        result = sdconv.convert(docx_path, to, images="omit")
        assert result.images == {}
        assert "images/" not in result.text
    assert sdconv.read(docx_path).counts["images"] > 0


def test_describe_image_supplies_alt_text(docx_path):
    seen = []

    def describe(image: sdconv.Image):
        seen.append(image)
        assert image.data.startswith(b"\x89PNG")
        assert image.mime == "image/png"
        return f"a picture called {image.name}"

    result = sdconv.convert(docx_path, describe_image=describe)
    assert seen
    assert len({i.name for i in seen}) == len(seen), "each picture is described once"
    for image in seen:
        assert f"![a picture called {image.name}]" in result.text
    html = sdconv.convert(docx_path, "html", describe_image=describe).text
    assert f'alt="a picture called {seen[0].name}"' in html


def test_describe_image_none_keeps_the_documents_alt(docx_path):
    plain = sdconv.to_markdown(docx_path)
    assert sdconv.to_markdown(docx_path, describe_image=lambda image: None) == plain


def test_describe_image_on_a_document(docx_path):
    doc = sdconv.read(docx_path)
    assert [i.name for i in doc.images]
    text = doc.export("markdown", describe_image=lambda i: "DESCRIBED").text
    assert "![DESCRIBED]" in text
    # The tree read once keeps its own alt texts.
    assert "![DESCRIBED]" not in doc.export("markdown").text


def test_describe_image_errors_propagate(docx_path):
    def broken(image):
        raise RuntimeError("model unavailable")

    with pytest.raises(RuntimeError, match="model unavailable"):
        sdconv.convert(docx_path, describe_image=broken)
    with pytest.raises(TypeError):
        sdconv.convert(docx_path, describe_image=lambda image: 42)
