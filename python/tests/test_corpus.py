"""The real Word files of ../shared/corpus/docx: every one converts or fails typed."""

from __future__ import annotations


import pytest

import sdconv

from conftest import SHARED

CORPUS = SHARED / "corpus" / "docx"
FILES = sorted(CORPUS.rglob("*.docx")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not FILES, reason=f"no Word corpus at {CORPUS}")
def test_corpus_to_markdown_and_html():
    results = sdconv.convert_many(FILES, "markdown")
    failures = {}
    for path, result in zip(FILES, results):
        if isinstance(result, BaseException):
            # Damaged corpus files must fail typed, never otherwise.
            assert isinstance(result, sdconv.Error), (path, result)
            failures[path.name] = result
            continue
        assert isinstance(result.text, str)
    # The corpus is real documents: nearly all read.
    assert len(failures) <= len(FILES) // 10, failures
    ok = [p for p, r in zip(FILES, results) if not isinstance(r, BaseException)]
    for path in ok[:20]:
        doc = sdconv.read(path)
        assert doc.export("html").text
        assert doc.export("markdown").text == sdconv.to_markdown(path)


@pytest.mark.skipif(not FILES, reason=f"no Word corpus at {CORPUS}")
def test_corpus_threads_agree_with_one_thread():
    subset = FILES[:30]
    many = sdconv.convert_many(subset, "markdown", workers=4)
    for path, result in zip(subset, many):
        try:
            one = sdconv.to_markdown(path)
        except sdconv.Error as e:
            assert type(result) is type(e)
            continue
        assert result.text == one
