"""Word to Markdown, in-process: sdconv beside markitdown, mammoth and pypandoc when installed.

Not a test: a comparison to rerun by hand (issue 28), printing one Markdown table of time
(median of paired runs) and content kept per converter and input.

    python python/bench/compare.py [--runs 5] [FILE_OR_FOLDER ...]

Without arguments it takes ../shared/bench/large.docx, medium.docx and the docx corpus of
../shared/corpus/docx, beside the repository.
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import time
from datetime import date
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def converters() -> dict[str, Callable[[Path], str]]:
    """Name → (path → Markdown) for every converter importable here."""
    found: dict[str, Callable[[Path], str]] = {}
    import sdconv

    found["sdconv"] = lambda p: sdconv.to_markdown(p)
    try:
        from markitdown import MarkItDown

        md = MarkItDown()
        found["markitdown"] = lambda p: md.convert(str(p)).text_content
    except ImportError:
        pass
    try:
        import mammoth

        def run_mammoth(p: Path) -> str:
            with open(p, "rb") as f:
                return mammoth.convert_to_markdown(f).value

        found["mammoth"] = run_mammoth
    except ImportError:
        pass
    try:
        import pypandoc

        found["pypandoc"] = lambda p: pypandoc.convert_file(str(p), "gfm")
    except (ImportError, OSError):
        pass
    return found


def measures(text: str) -> dict[str, int]:
    """What a Markdown text kept: words, tables (GFM or HTML), merged cells (HTML spans),
    pictures referenced, equations ($…$), headings, `&#32;` noise and blockquote lines."""
    return {
        "words": len(re.findall(r"\w+", text)),
        "tables": len(re.findall(r"^\|?\s*:?-{3,}", text, re.M)) + text.count("<table"),
        "merged": len(re.findall(r"(?:col|row)span=", text)),
        "images": len(re.findall(r"!\[[^\]]*\]\((?!data:image/x-emf)[^)]+\)", text)),
        "equations": len(re.findall(r"\$\$?[^$\n]+\$\$?", text)),
        "headings": len(re.findall(r"^#{1,6} ", text, re.M)),
        "noise": text.count("&#32;"),
        "quotes": len(re.findall(r"^> ", text, re.M)),
    }


def timed(run: Callable[[Path], str], path: Path) -> tuple[float, Optional[str]]:
    start = time.perf_counter()
    try:
        text = run(path)
    except Exception:  # a peer failing on a file is a result, not the end of the comparison
        return time.perf_counter() - start, None
    return time.perf_counter() - start, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5, help="paired runs per large input")
    args = parser.parse_args()
    inputs = args.inputs or [
        SHARED / "bench" / "large.docx",
        SHARED / "bench" / "medium.docx",
        SHARED / "corpus" / "docx",
    ]
    runs = converters()
    print(f"{date.today()} · {platform.machine()} · {platform.processor() or platform.system()}"
          f" · Python {platform.python_version()} · converters: {', '.join(runs)}\n")
    print("| input | converter | median s | " + " | ".join(measures("").keys()) + " |")
    print("|---|---|---|" + "---|" * len(measures("")))
    for item in inputs:
        if not item.exists():
            print(f"| {item.name} | (missing) |")
            continue
        files = sorted(item.rglob("*.docx")) if item.is_dir() else [item]
        rounds = 1 if item.is_dir() else args.runs
        for name, run in runs.items():
            times: list[float] = []
            totals: dict[str, int] = dict.fromkeys(measures(""), 0)
            for _ in range(rounds):
                elapsed = 0.0
                for path in files:
                    seconds, text = timed(run, path)
                    elapsed += seconds
                    if text is not None and len(times) == 0:
                        for k, v in measures(text).items():
                            totals[k] += v
                times.append(elapsed)
            cells = " | ".join(str(v) for v in totals.values())
            print(f"| {item.name} | {name} | {statistics.median(times):.3f} | {cells} |")


if __name__ == "__main__":
    main()
