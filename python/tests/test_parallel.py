"""Many conversions: from threads, with convert_many, and memory that stays flat."""

from __future__ import annotations

import gc
import resource
import sys
import threading
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

import sdconv


def test_threads_give_the_same_results(docx_bytes):
    expected = sdconv.to_markdown(docx_bytes)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: sdconv.to_markdown(docx_bytes), range(64)))
    assert all(r == expected for r in results)


def test_the_lock_is_released_during_a_conversion(docx_bytes):
    # While other threads convert, this one keeps running Python code: with the interpreter's
    # lock held by the conversions, the counter would barely move.
    stop = threading.Event()
    ticks = 0

    def convert_loop():
        while not stop.is_set():
            sdconv.convert(docx_bytes, "pdf")

    workers = [threading.Thread(target=convert_loop) for _ in range(2)]
    for w in workers:
        w.start()
    try:
        deadline = threading.Event()
        timer = threading.Timer(1.0, deadline.set)
        timer.start()
        while not deadline.is_set():
            ticks += 1
    finally:
        stop.set()
        for w in workers:
            w.join()
    assert ticks > 10_000


def test_convert_many_in_order_with_failures_as_values(docx_path, docx_bytes, sdxml_path, tmp_path):
    sources = [docx_path, b"PK\x03\x04 cut short", sdxml_path, docx_bytes, tmp_path / "missing.docx"]
    results = sdconv.convert_many(sources, "markdown")
    assert len(results) == len(sources)
    assert isinstance(results[0], sdconv.Result)
    assert isinstance(results[1], sdconv.InvalidInput)
    assert isinstance(results[2], sdconv.Result)
    assert isinstance(results[3], sdconv.Result)
    assert isinstance(results[4], FileNotFoundError)
    assert results[0].text == results[3].text == sdconv.to_markdown(docx_path)


def test_convert_many_workers_and_options(docx_path):
    results = sdconv.convert_many([docx_path] * 6, "html", workers=2, images="omit")
    assert all(isinstance(r, sdconv.Result) and not r.images for r in results)
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert_many([docx_path], workers=0)
    with pytest.raises(sdconv.InvalidOption):
        sdconv.convert_many([docx_path], describe_image=lambda i: None)
    assert sdconv.convert_many([], "markdown") == []


def _rss_kib() -> int:
    # ru_maxrss is the peak: it grows only if a loop leaks past what the first rounds took.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss


def test_memory_stays_flat_over_1000_conversions(docx_bytes, markdown_text):
    md = markdown_text.encode()

    def round_():
        sdconv.to_markdown(docx_bytes)
        sdconv.convert(md, "html", from_="md")

    for _ in range(100):  # warm up allocator pools and caches
        round_()
    gc.collect()
    rss_before = _rss_kib()
    tracemalloc.start()
    try:
        first, _ = tracemalloc.get_traced_memory()
        for _ in range(1000):
            round_()
        gc.collect()
        last, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Python objects left behind: well under a kilobyte per conversion.
    assert last - first < 256 * 1024
    # The process as a whole (Rust allocations included) grows by at most a few MiB.
    assert _rss_kib() - rss_before < 32 * 1024
