"""Shared inputs: the repository's samples and the corpus beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
# `../shared` from the repository root: the corpus and the benchmark files, kept outside git.
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def docx_path() -> Path:
    """A small Word file with a table, lists and two pictures."""
    return SAMPLES / "sample.docx"


@pytest.fixture(scope="session")
def docx_bytes(docx_path: Path) -> bytes:
    return docx_path.read_bytes()


@pytest.fixture(scope="session")
def sdxml_path() -> Path:
    """The same document as the service's sd.xml zip."""
    return SAMPLES / "sample.sdxml.zip"


MARKDOWN = """\
# Report

Some *emphasis*, **strong** text and a [link](https://example.com).

- one
- two

| a | b |
|---|---|
| 1 | 2 |
"""


@pytest.fixture(scope="session")
def markdown_text() -> str:
    return MARKDOWN
