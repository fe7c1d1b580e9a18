//! Markdown reader on hostile nesting: emphasis, strong and strike-through opened thousands of
//! times inside themselves (pulldown-cmark has no nesting limit), and quotes and lists nested
//! thousands deep. The tree is the same either way (its canonical form keeps one of each mark),
//! so what is checked is the cost: the bytes the reader allocates must grow in proportion to
//! the input, not with the nesting times the text; and that all text is kept, the nesting of
//! the result is bounded and nothing is warned (nothing is lost).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sdconv::ast::inline::plain_text;
use sdconv::ast::*;
use sdconv::import::markdown::{MarkdownImportOptions, read};
use sdconv::{Converted, WarningKind};

/// Counts the bytes allocated on the current thread, so tests running side by side do not see
/// each other's allocations.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; counting only reads and
// writes a thread-local integer, which neither allocates nor unwinds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn count(bytes: usize) {
    // `try_with`: the allocator may be called while the thread's locals are being torn down.
    let _ = ALLOCATED.try_with(|a| a.set(a.get().saturating_add(bytes)));
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Imports `md` (no images) and returns the result with the bytes allocated doing it.
fn import_counted(md: &str) -> (Converted<Document>, usize) {
    let before = ALLOCATED.with(Cell::get);
    let r = read(
        md.as_bytes(),
        &MarkdownImportOptions::default(),
        &mut |_| None,
    )
    .unwrap();
    let after = ALLOCATED.with(Cell::get);
    (r, after - before)
}

/// `open` + "a " repeated `n` times, `x`, then "a" + `close` + " " repeated `n` times, the
/// opening and closing delimiters taken in turn from the lists (closing in reverse order).
fn nested(opens: &[&str], n: usize) -> String {
    let mut md = String::new();
    for i in 0..n {
        md.push_str(opens[i % opens.len()]);
        md.push_str("a ");
    }
    md.push('x');
    for i in (0..n).rev() {
        md.push('a');
        md.push_str(opens[i % opens.len()]);
        md.push(' ');
    }
    md
}

/// The text `nested` holds: the delimiters gone, a trailing space dropped by the parser.
fn nested_text(n: usize) -> String {
    format!("{}x{}", "a ".repeat(n), "a ".repeat(n).trim_end())
}

/// How deep wrappers nest in `inlines`.
fn depth(inlines: &[Inline]) -> usize {
    inlines
        .iter()
        .map(|i| i.children().map_or(0, |c| 1 + depth(c)))
        .max()
        .unwrap_or(0)
}

fn only_paragraph(doc: &Document) -> &Paragraph {
    match doc.blocks.as_slice() {
        [Block::Paragraph(p)] => p,
        other => panic!("one paragraph expected, got {other:?}"),
    }
}

/// Checks the reader on `opens` nested `n` and `2n` deep: all text kept, the result nested at
/// most `max_depth` deep, no warning, a bounded allocation per input byte, and twice the input
/// costing less than three times the allocation (the bug copied every open mark onto every run
/// of text: four times as much).
fn check_linear(opens: &[&str], n: usize, max_depth: usize) {
    let mut costs = Vec::new();
    for n in [n, 2 * n] {
        let md = nested(opens, n);
        let (r, allocated) = import_counted(&md);
        let p = only_paragraph(&r.value);
        assert_eq!(plain_text(&p.content), nested_text(n), "{opens:?} × {n}");
        assert!(
            depth(&p.content) <= max_depth,
            "{opens:?} × {n}: nested {} deep",
            depth(&p.content)
        );
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        // Some hundreds of bytes per input byte (the events, the runs, the tree); the bug
        // took tens of thousands at these sizes.
        assert!(
            allocated < 2_000 * md.len(),
            "{opens:?} × {n}: {allocated} bytes allocated for {} bytes",
            md.len()
        );
        costs.push(allocated);
    }
    assert!(
        costs[1] < 3 * costs[0],
        "{opens:?}: {} bytes allocated for {n}, {} for {}",
        costs[0],
        costs[1],
        2 * n
    );
}

#[test]
fn emphasis_inside_emphasis_costs_in_proportion_to_the_text() {
    check_linear(&["*"], 1_000, 1);
    check_linear(&["_"], 1_000, 1);
}

#[test]
fn strong_and_strike_inside_themselves_cost_in_proportion_to_the_text() {
    check_linear(&["**"], 1_000, 1);
    check_linear(&["~~"], 1_000, 1);
}

#[test]
fn alternating_emphasis_and_strong_cost_in_proportion_to_the_text() {
    // Italic and bold (`_` is italic again): at most two wrappers deep.
    check_linear(&["*", "**", "_"], 1_200, 2);
    check_linear(&["*", "**", "~~"], 1_200, 3);
}

#[test]
fn nested_emphasis_is_one_italic_wrapper_as_before() {
    // `*a *a x a* a*`: the inner emphasis adds nothing to the tree.
    let (r, _) = import_counted(&nested(&["*"], 2));
    assert_eq!(
        only_paragraph(&r.value).content,
        vec![Inline::styled(
            TextStyle::Italic,
            vec![Inline::text("a a xa a")]
        )]
    );
    // Different marks still nest, and close where they did (bold outside italic outside
    // strike: the canonical order).
    let (r, _) = import_counted("*a **b ~~c~~ d** e* f");
    let italic = |c| Inline::styled(TextStyle::Italic, c);
    assert_eq!(
        only_paragraph(&r.value).content,
        vec![
            italic(vec![Inline::text("a ")]),
            Inline::styled(
                TextStyle::Bold,
                vec![italic(vec![
                    Inline::text("b "),
                    Inline::styled(TextStyle::Strike, vec![Inline::text("c")]),
                    Inline::text(" d"),
                ])]
            ),
            italic(vec![Inline::text(" e")]),
            Inline::text(" f"),
        ]
    );
}

#[test]
fn quotes_and_lists_nested_thousands_deep_are_bounded() {
    for md in [
        format!("{}x", "> ".repeat(20_000)),
        format!("{}x", "- ".repeat(20_000)),
        format!("{}x", "1. ".repeat(20_000)),
        format!("{}x", "> - ".repeat(10_000)),
    ] {
        let (r, allocated) = import_counted(&md);
        let doc = r.value;
        let text: String = doc
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph(p) => Some(plain_text(&p.content)),
                _ => None,
            })
            .collect();
        assert_eq!(text, "x", "{}", &md[..8]);
        for b in &doc.blocks {
            if let Block::Paragraph(p) = b {
                assert!(p.indent <= MAX_INDENT && p.level <= MAX_LEVEL);
            }
        }
        // Lists deeper than the tree's levels say so, once; quotes alone lose nothing.
        let lossy = r
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Lossy)
            .count();
        assert!(lossy <= 1 && r.warnings.len() == lossy, "{:?}", r.warnings);
        assert!(
            allocated < 2_000 * md.len(),
            "{}: {allocated} bytes allocated for {} bytes",
            &md[..8],
            md.len()
        );
    }
}
