"""Word to Markdown, in-process: sdconv beside markitdown, mammoth and pypandoc when installed.

Not a test: a comparison to rerun by hand (issue 28), printing one Markdown table of time and
content kept per converter and input.

    python python/bench/compare.py [--runs 5] [FILE_OR_FOLDER ...]
    python python/bench/compare.py --memory [FILE]

Without arguments it takes ../shared/bench/large.docx, medium.docx and the docx corpus of
../shared/corpus/docx, beside the repository. A file is converted ``--runs`` times, each round
running every converter once in turn (paired runs, so that a busy machine slows them alike);
``median s`` is the median of a converter's rounds and ``× sdconv`` the median of its per-round
ratios to sdconv's time. A folder is converted once, every file by every converter in turn.

Each converter is used the way that keeps the most: markitdown with ``keep_data_uris=True``
(its default truncates pictures to ``data:image/png;base64...``), mammoth's default (pictures
inline), pandoc with ``--extract-media`` (pictures as files), sdconv's default (pictures as
``images/…`` files returned with the text).

``--memory`` measures, for each converter in a fresh interpreter, the peak resident memory of
one conversion of FILE (default large.docx) above that interpreter's peak after the imports.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Callable, NamedTuple, Optional

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
# Converted once by each converter before timing so that lazy set-up (markitdown's file type
# model, pandoc's first start) is not billed to the first input.
WARM_UP = REPO / "samples" / "sample.docx"


class Output(NamedTuple):
    """One conversion: the Markdown, the title the converter reported, and the picture files
    it produced beside the text (names as the Markdown refers to them)."""

    text: str
    title: Optional[str]
    files: frozenset[str]


def converters(scratch: Path, only: Optional[str] = None) -> dict[str, Callable[[Path], Output]]:
    """Name → (path → Output) for every converter importable here, or for ``only`` that one
    (nothing else imported, for a memory baseline of its own). ``scratch`` is where pandoc may
    extract pictures."""
    found: dict[str, Callable[[Path], Output]] = {}

    def wanted(name: str) -> bool:
        return only is None or only == name

    if wanted("sdconv"):
        import sdconv

        def run_sdconv(p: Path) -> Output:
            result = sdconv.convert(p, "markdown")
            return Output(result.text, result.title, frozenset(result.images))

        found["sdconv"] = run_sdconv
    if wanted("markitdown"):
        try:
            from markitdown import MarkItDown

            # Plugins stay off: this is markitdown's own DOCX converter, even with the sdconv
            # plugin installed.
            md = MarkItDown(enable_plugins=False)

            def run_markitdown(p: Path) -> Output:
                result = md.convert(str(p), keep_data_uris=True)
                return Output(result.markdown, result.title, frozenset())

            found["markitdown"] = run_markitdown
        except ImportError:
            pass
    if wanted("mammoth"):
        try:
            import mammoth

            def run_mammoth(p: Path) -> Output:
                with open(p, "rb") as f:
                    return Output(mammoth.convert_to_markdown(f).value, None, frozenset())

            found["mammoth"] = run_mammoth
        except ImportError:
            pass
    if wanted("pypandoc"):
        try:
            import pypandoc

            pypandoc.get_pandoc_path()  # raises OSError when there is no pandoc binary
            runs = iter(range(sys.maxsize))

            def run_pandoc(p: Path) -> Output:
                # A folder per run: the pictures of one run must not count for another.
                media = scratch / f"pandoc-{next(runs)}"
                text = pypandoc.convert_file(
                    str(p), "gfm", extra_args=[f"--extract-media={media}"]
                )
                files = frozenset(str(f) for f in media.rglob("*") if f.is_file())
                return Output(text, None, files)

            found["pypandoc"] = run_pandoc
        except (ImportError, OSError):
            pass
    return found


# Formats a browser shows; EMF/WMF pictures left as they are do not count as kept.
_SHOWN = r"(?:png|jpe?g|gif|webp|svg\+xml|bmp)"
_TARGET = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)|<img\b[^>]*\bsrc=[\"']([^\"']+)")
# A GFM table's delimiter row (`|---|:--:|`): only pipes, dashes, colons and blanks, with at
# least one pipe, so that a thematic break or a front matter fence (`---`) is no table.
_DELIMITER_ROW = re.compile(r"^[ \t]*(?=[^\n]*\|)(?=[^\n]*-)[|:\- \t]+$", re.M)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def _usable(target: str, files: frozenset[str]) -> bool:
    """A picture reference a reader of the Markdown can follow: a whole data URI of a shown
    format, a web address, or a file the converter produced."""
    # Markdown undoes backslash escapes in link targets (mammoth escapes its data URIs' `+`).
    target = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", target)
    if target.startswith("data:"):
        m = re.match(rf"data:image/{_SHOWN};base64,([A-Za-z0-9+/=]+)$", target)
        return m is not None and len(m.group(1)) > 16
    if target.startswith(("http://", "https://")):
        return True
    return target in files


def measures(out: Optional[Output] = None) -> dict[str, int]:
    """What a conversion kept: words of text (not of markup, link targets or picture data),
    tables (GFM or HTML), merged cells (HTML spans), usable pictures, equations ($…$), headings,
    a reported title, `&#32;` noise and blockquote lines."""
    text = out.text if out else ""
    files = out.files if out else frozenset()
    # The words of the body only: sdconv's YAML front matter repeats the title and adds the
    # document properties, which the others do not write. Link and picture targets (a data URI
    # is thousands of "words") and HTML tags go; alt texts and titles (`"caption"`) stay, as
    # text a reader gets. Underscores do not join words: `snake\_case` escaped by one converter
    # and `snake_case` written by another are the same two words.
    body = _FRONT_MATTER.sub("", text, count=1)
    prose = re.sub(r"<[^>]*>", " ", re.sub(r"\]\(\s*<?[^)\s>]+>?", "](", body))
    return {
        "words": len(re.findall(r"[^\W_]+", prose.replace("&#32;", " "))),
        "tables": len(_DELIMITER_ROW.findall(text)) + text.count("<table"),
        "merged": len(re.findall(r"(?:col|row)span=", text)),
        "images": sum(
            _usable(m.group(1) or m.group(2), files) for m in _TARGET.finditer(text)
        ),
        "equations": len(re.findall(r"\$\$?[^$\n]+\$\$?", text)),
        "headings": len(re.findall(r"^#{1,6} ", text, re.M)),
        "titles": 1 if out and out.title and out.title.strip() else 0,
        "noise": text.count("&#32;"),
        "quotes": len(re.findall(r"^> ", text, re.M)),
    }


def timed(run: Callable[[Path], Output], path: Path) -> tuple[float, Optional[Output]]:
    """Seconds one conversion took and its output, or ``None`` if the converter raised."""
    start = time.perf_counter()
    try:
        out = run(path)
    except Exception:  # a peer failing on a file is a result, not the end of the comparison
        return time.perf_counter() - start, None
    return time.perf_counter() - start, out


def compare(inputs: list[Path], rounds_per_file: int) -> None:
    """Prints the table of time and content kept."""
    with tempfile.TemporaryDirectory(prefix="sdconv-compare-") as scratch:
        runs = converters(Path(scratch))
        for run in runs.values():
            run(WARM_UP)
        print(f"{date.today()} · {platform.machine()} · {os.cpu_count()} cores"
              f" · Python {platform.python_version()} · converters: {', '.join(runs)}\n")
        keys = list(measures())
        print("| input | converter | median s | × sdconv | failed | " + " | ".join(keys) + " |")
        print("|---|---|---:|---:|---:|" + "---:|" * len(keys))
        for item in inputs:
            if not item.exists():
                print(f"| {item.name} | (missing) |")
                continue
            files = sorted(item.rglob("*.docx")) if item.is_dir() else [item]
            rounds = 1 if item.is_dir() else rounds_per_file
            times = {name: [0.0] * rounds for name in runs}
            failed = dict.fromkeys(runs, 0)
            totals = {name: dict.fromkeys(keys, 0) for name in runs}
            for r in range(rounds):
                for path in files:
                    for name, run in runs.items():
                        seconds, out = timed(run, path)
                        times[name][r] += seconds
                        if r == 0:
                            failed[name] += out is None
                            for k, v in measures(out).items():
                                totals[name][k] += v
            for name in runs:
                ratio = statistics.median(
                    t / s for t, s in zip(times[name], times["sdconv"])
                )
                cells = " | ".join(str(v) for v in totals[name].values())
                print(f"| {item.name} | {name} | {statistics.median(times[name]):.3f} |"
                      f" {ratio:.1f} | {failed[name]} | {cells} |")


def _peak_kib(who: int) -> int:
    """The peak resident memory so far of this process (``RUSAGE_SELF``) or of its largest
    waited-for child (``RUSAGE_CHILDREN``), in KiB (Linux's unit; macOS reports bytes)."""
    return resource.getrusage(who).ru_maxrss // (1024 if sys.platform == "darwin" else 1)


def peak_one(name: str, path: Path) -> None:
    """Run in a fresh interpreter by :func:`memory`: converts ``path`` once with ``name`` and
    prints this process's peak after the imports and after the conversion, and the peak of
    the largest child process (pandoc's), in KiB; prints nothing if ``name`` is not usable."""
    with tempfile.TemporaryDirectory(prefix="sdconv-compare-") as scratch:
        run = converters(Path(scratch), only=name).get(name)
        if run is None:
            return
        before = _peak_kib(resource.RUSAGE_SELF)
        # pypandoc may have run `pandoc --version` already: only a higher child peak is the
        # conversion's.
        child_before = _peak_kib(resource.RUSAGE_CHILDREN)
        run(path)
        after = _peak_kib(resource.RUSAGE_SELF)
        child = _peak_kib(resource.RUSAGE_CHILDREN)
        print(before, after, child if child > child_before else 0)


def memory(path: Path, repeats: int) -> None:
    """Prints, per converter, the peak memory of one conversion of ``path`` above a fresh
    interpreter's peak after importing that converter alone (median of ``repeats`` fresh
    interpreters); a converter that runs a program (pypandoc) adds that program's whole peak.

    This process imports none of the converters: Linux keeps a process's peak across fork and
    exec, so a child started from a parent that had loaded them all would start from that
    parent's peak."""
    print(f"{path.name} → Markdown, one conversion per fresh interpreter (ru_maxrss),"
          f" median of {repeats}\n")
    print("| converter | interpreter after imports MiB | after conversion MiB"
          " | child process MiB | conversion adds MiB |")
    print("|---|---:|---:|---:|---:|")
    for name in ("sdconv", "markitdown", "mammoth", "pypandoc"):
        samples = []
        for _ in range(repeats):
            done = subprocess.run(
                [sys.executable, __file__, "--peak-one", name, str(path)],
                capture_output=True, text=True, check=True,
            )
            if not done.stdout.strip():
                break  # not installed
            samples.append([int(v) for v in done.stdout.split()])
        if not samples:
            continue
        before, after, child = (statistics.median(column) for column in zip(*samples))
        added = statistics.median(a - b + c for b, a, c in samples)
        print(f"| {name} | {before / 1024:.0f} | {after / 1024:.0f} | {child / 1024:.0f} |"
              f" {added / 1024:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5,
                        help="paired runs per file input; fresh interpreters per converter"
                             " with --memory")
    parser.add_argument("--memory", action="store_true",
                        help="peak memory of one conversion per converter instead of the table")
    parser.add_argument("--peak-one", metavar="NAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak_one:
        peak_one(args.peak_one, args.inputs[0])
    elif args.memory:
        memory(args.inputs[0] if args.inputs else SHARED / "bench" / "large.docx", args.runs)
    else:
        compare(args.inputs or [
            SHARED / "bench" / "large.docx",
            SHARED / "bench" / "medium.docx",
            SHARED / "corpus" / "docx",
        ], args.runs)


if __name__ == "__main__":
    main()
