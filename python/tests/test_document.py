"""`sdconv.read`: a tree read once, written many ways."""

from __future__ import annotations

import json

import sdconv


def test_read_once_export_three_ways(docx_path):
    doc = sdconv.read(docx_path)
    md = doc.export("markdown")
    html = doc.export("html")
    word = doc.export("word")
    assert md.text == sdconv.to_markdown(docx_path)
    assert html.text.lstrip().lower().startswith("<!doctype html")
    assert word.data.startswith(b"PK")
    # The tree is not consumed by an export.
    assert doc.export("markdown").text == md.text


def test_to_dict_metadata_and_counts(docx_path):
    doc = sdconv.read(docx_path)
    tree = doc.to_dict()
    assert tree["blocks"] and "meta" in tree
    assert json.loads(doc.to_json()) == tree
    assert doc.metadata == tree["meta"]
    counts = doc.counts
    assert counts["blocks"] == len(tree["blocks"])
    assert counts["tables"] >= 1
    assert counts["images"] >= 1 and counts["media"] >= 1
    assert set(counts) >= {"paragraphs", "headings", "list_items", "comments"}
    assert "sdconv.Document" in repr(doc)


def test_metadata_title_from_markdown_front_matter():
    doc = sdconv.read(b"---\ntitle: Hello\n---\n\ntext\n", from_="md")
    assert doc.title == doc.metadata.get("title")


def test_read_options_and_warnings(docx_path):
    doc = sdconv.read(docx_path, routines=["remove-page-breaks"])
    assert isinstance(doc.warnings, list)
    result = doc.export("markdown", track_changes="accept", comments=False)
    # The reader's warnings come with every export.
    assert result.warnings[: len(doc.warnings)] == doc.warnings
