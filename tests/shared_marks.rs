//! A link's target, a character style's name and a tracked change's author are held by every
//! run inside them. A few kilobytes of zipped XML can wrap thousands of runs in a link whose
//! target is a megabyte long: copied per run, that is gigabytes. The readers share one copy
//! among the runs, and the writers write from the shared tree; this binary counts every byte
//! allocated and checks that reading and writing such files stays within a small multiple of
//! the long string.
//!
//! One test function runs every case in turn, so the peak measured is one case's own.

mod docx_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use docx_support::*;
use sdconv::ast::{Document, Inline};
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::{ExportOptions, Format};

/// Counts the bytes allocated now and the most allocated at once since the last reset.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` or `realloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        NOW.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `GlobalAlloc::realloc` requires, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                NOW.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The long string's length.
const LONG: usize = 1 << 20;
/// Runs inside it: 4 GiB of copies if each held its own.
const RUNS: usize = 4000;

/// The most a case may allocate at once beyond what was allocated when it started.
const ALLOWED: usize = 48 * LONG;

/// Runs `f` and hands back what it allocated at most at once, beyond what was held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = NOW.load(Relaxed);
    PEAK.store(before, Relaxed);
    let value = f();
    (value, PEAK.load(Relaxed).saturating_sub(before))
}

/// Runs with the properties `props`, alternating plain and bold, so none merge with the next.
fn runs(props: &str) -> String {
    (0..RUNS)
        .map(|i| {
            let bold = if i % 2 == 0 { "" } else { "<w:b/>" };
            format!(
                r#"<w:r><w:rPr>{props}{bold}</w:rPr><w:t xml:space="preserve">x{i} </w:t></w:r>"#
            )
        })
        .collect()
}

fn long_target() -> String {
    format!("https://example.org/{}", "a".repeat(LONG))
}

/// Reads `bytes` as `format` and writes the tree in every format but PDF, checking each step's
/// peak; hands back the tree.
fn read_and_write(name: &str, format: Format, bytes: &[u8]) -> Document {
    let (read, peak) = peak_of(|| sdconv::import(format, bytes, &Default::default()));
    let doc = read.unwrap_or_else(|e| panic!("{name}: {e}")).value;
    assert!(
        peak < ALLOWED,
        "{name}: reading allocated {peak} bytes at once"
    );
    assert_eq!(doc.validate(), Ok(()), "{name}");
    for to in [
        Format::Sdxml,
        Format::Parsx,
        Format::Html,
        Format::Markdown,
        Format::Word,
        Format::Json,
    ] {
        let (out, peak) = peak_of(|| sdconv::export(&doc, to, &ExportOptions::default()));
        let out = out.unwrap_or_else(|e| panic!("{name} → {to:?}: {e}"));
        assert!(
            peak < ALLOWED,
            "{name} → {to:?}: writing allocated {peak} bytes at once"
        );
        drop(out);
    }
    doc
}

/// The wrappers of `kind` in the tree and the length of the string each carries.
fn wrappers(doc: &Document, which: fn(&Inline) -> Option<usize>) -> Vec<usize> {
    let mut found = Vec::new();
    doc.walk_inlines(&mut |i| found.extend(which(i)));
    found
}

/// An sd.xml zip holding `xml`.
fn sdxml_zip(xml: &str) -> Vec<u8> {
    let mut zip = ZipWriter::new();
    zip.add("sd.xml", xml.as_bytes(), Compression::Deflate)
        .expect("zips");
    zip.finish().expect("zips")
}

#[test]
fn long_strings_held_by_many_runs_are_shared() {
    // A hyperlink with a megabyte target around all runs.
    let body = format!(
        r#"<w:p><w:hyperlink r:id="rIdL">{}</w:hyperlink></w:p>"#,
        runs("")
    );
    let bytes = docx(&body)
        .rel("rIdL", "hyperlink", &long_target(), true)
        .build();
    let doc = read_and_write("Word link", Format::Word, &bytes);
    let links = wrappers(&doc, |i| match i {
        Inline::Link { href, .. } => Some(href.len()),
        _ => None,
    });
    assert_eq!(links, [long_target().len()], "one link around every run");

    // A Word character style's name is cut to the 253 characters Word allows when the styles
    // are read (tests/docx_hostile.rs); sd.xml names a character style in full, around
    // thousands of bold and plain pieces.
    let pieces: String = (0..RUNS).map(|i| format!("<b>b{i}</b> p{i} ")).collect();
    let xml = format!(
        r#"<smashdoc><document><paragraph indent="0">see <inline stylename="{}">{pieces}</inline></paragraph></document></smashdoc>"#,
        "n".repeat(LONG)
    );
    let doc = read_and_write("sd.xml character style", Format::Sdxml, &sdxml_zip(&xml));
    let spans = wrappers(&doc, |i| match i {
        Inline::Span { style, .. } => Some(style.len()),
        _ => None,
    });
    assert_eq!(spans, [LONG], "one span around every piece");

    // An insertion by an author with a megabyte name around every run.
    let body = format!(
        r#"<w:p><w:ins w:id="1" w:author="{}" w:date="2024-05-01T10:00:00Z">{}</w:ins></w:p>"#,
        "A".repeat(LONG),
        runs("")
    );
    let bytes = docx(&body).build();
    let doc = read_and_write("Word insertion", Format::Word, &bytes);
    let changes = wrappers(&doc, |i| match i {
        Inline::Tracked { change, .. } => change.author.as_ref().map(String::len),
        _ => None,
    });
    assert_eq!(changes, [LONG], "one insertion around every run");

    // Markdown: thousands of emphasised words inside one link.
    let words: String = (0..RUNS).map(|i| format!("*w{i}* ")).collect();
    let md = format!("[{words}]({})\n", long_target());
    let doc = read_and_write("Markdown link", Format::Markdown, md.as_bytes());
    let links = wrappers(&doc, |i| match i {
        Inline::Link { href, .. } => Some(href.len()),
        _ => None,
    });
    assert_eq!(links, [long_target().len()]);

    // sd.xml: thousands of bold and plain pieces inside one link.
    let pieces: String = (0..RUNS).map(|i| format!("<b>b{i}</b> p{i} ")).collect();
    let xml = format!(
        r#"<smashdoc><document><paragraph indent="0">see <a href="{}">{pieces}</a></paragraph></document></smashdoc>"#,
        long_target()
    );
    let doc = read_and_write("sd.xml link", Format::Sdxml, &sdxml_zip(&xml));
    let links = wrappers(&doc, |i| match i {
        Inline::Link { href, .. } => Some(href.len()),
        _ => None,
    });
    assert_eq!(links, [long_target().len()]);
}
