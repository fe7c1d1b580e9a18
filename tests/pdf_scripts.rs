//! PDF in every script, checked by poppler on the Word fixtures LibreOffice wrote in eight
//! scripts (`tests/fixtures/scripts/`): the text layer keeps at least 99 % of the words and
//! characters (`pdftotext`), every script is drawn from a real embedded font made for it
//! (`pdffonts`), right-to-left paragraphs are set from the right, and no character is left
//! without a glyph.
//!
//! The fonts come from the system: Debian's `fonts-noto-core` and `fonts-noto-cjk`, which CI
//! installs (`.ci/run`). Without them the tests fail in CI and skip elsewhere with the install
//! command.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use sdconv::ast::{Block, Inline};
use sdconv::export::pdf::{PdfOptions, write};
use sdconv::export::word::PagedSettings;
use sdconv::{Document, Format, ImportOptions};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scripts")
}

/// Whether the Noto fonts the fixtures need are installed; in CI they must be.
fn fonts_present() -> bool {
    let present = [
        "/usr/share/fonts/truetype/noto",
        "/usr/share/fonts/opentype/noto",
    ]
    .iter()
    .all(|d| Path::new(d).is_dir());
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the Noto fonts: apt-get install -y fonts-noto-core fonts-noto-cjk"
        );
        eprintln!(
            "skipped: no Noto fonts on this machine (apt-get install -y fonts-noto-core \
             fonts-noto-cjk)"
        );
    }
    present
}

fn tool(name: &str, args: &[&str]) -> String {
    match Command::new(name).args(args).output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => panic!(
            "{name} {args:?} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("cannot run {name} ({e}): apt-get install -y poppler-utils (CI does)"),
    }
}

fn read(name: &str) -> Document {
    let bytes = std::fs::read(fixtures().join(format!("{name}.docx"))).expect("fixture");
    sdconv::import(Format::Word, &bytes, &ImportOptions::default())
        .expect("the fixture reads")
        .value
}

/// The text a reader of the document sees: every paragraph, in tables too; ruby as its base
/// and its reading.
fn tree_text(doc: &Document) -> String {
    fn inlines(list: &[Inline], out: &mut String) {
        for i in list {
            match i {
                Inline::Text { text } => out.push_str(text),
                Inline::LineBreak => out.push('\n'),
                Inline::Ruby { base, reading } => {
                    out.push_str(base);
                    out.push(' ');
                    out.push_str(reading);
                    out.push(' ');
                }
                Inline::Note { .. } => {}
                other => {
                    if let Some(children) = other.children() {
                        inlines(children, out);
                    }
                }
            }
        }
    }
    fn blocks(list: &[Block], out: &mut String) {
        for b in list {
            match b {
                Block::Paragraph(p) => {
                    inlines(&p.content, out);
                    out.push('\n');
                }
                Block::Table(t) => {
                    for row in &t.rows {
                        for cell in &row.cells {
                            blocks(&cell.blocks, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut s = String::new();
    blocks(&doc.blocks, &mut s);
    s
}

/// Bidi controls: pdftotext wraps right-to-left lines and the left-to-right runs inside them in
/// embeddings, and puts the space between a number and the right-to-left word after it inside
/// the number's embedding (LibreOffice's PDFs of the same files read the same way). The
/// controls stand at direction changes, so they count as word boundaries.
fn is_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Punctuation splits words too: pdftotext may set a hyphen or comma of right-to-left text in
/// an embedding of its own.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || "،؛؟«»“”„‘’。、，．：；！？（）「」『』।–—…".contains(c)
}

fn words(text: &str) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    let clean: String = text
        .chars()
        .map(|c| {
            if is_control(c) || is_punctuation(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    for chunk in clean.split_whitespace() {
        for w in dictionary_words(chunk) {
            *out.entry(w.to_string()).or_default() += 1;
        }
    }
    out
}

/// Thai has no spaces between words, and lines break between them: its words are the
/// dictionary's (ICU4X's, as the layout finds them), counted on each side alike. Other text is
/// one word per chunk between spaces.
fn dictionary_words(chunk: &str) -> Vec<&str> {
    if !chunk
        .chars()
        .any(|c| ('\u{0E00}'..='\u{0E7F}').contains(&c))
    {
        return vec![chunk];
    }
    let breaks: Vec<usize> = icu_segmenter::LineSegmenter::new_dictionary(Default::default())
        .segment_str(chunk)
        .collect();
    breaks
        .windows(2)
        .map(|w| &chunk[w[0]..w[1]])
        .filter(|w| !w.is_empty())
        .collect()
}

fn chars(text: &str) -> HashMap<char, usize> {
    let mut out = HashMap::new();
    for c in text
        .chars()
        .filter(|c| !c.is_whitespace() && !is_control(*c))
    {
        *out.entry(c).or_default() += 1;
    }
    out
}

/// The share of `expected` (a multiset) that `got` holds.
fn recall<K: std::hash::Hash + Eq>(expected: &HashMap<K, usize>, got: &HashMap<K, usize>) -> f64 {
    let total: usize = expected.values().sum();
    let kept: usize = expected
        .iter()
        .map(|(k, n)| (*n).min(got.get(k).copied().unwrap_or(0)))
        .sum();
    kept as f64 / total.max(1) as f64
}

struct Written {
    _dir: tempfile::TempDir,
    path: PathBuf,
    text: String,
}

fn write_pdf(name: &str) -> (Document, Written, Vec<sdconv::Warning>) {
    let doc = read(name);
    let out = write(&doc, &PdfOptions::new(PagedSettings::default())).expect("PDF export");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("{name}.pdf"));
    std::fs::write(&path, &out.value).expect("write");
    let text = tool("pdftotext", &[path.to_str().expect("utf-8"), "-"]);
    (
        doc,
        Written {
            _dir: dir,
            path,
            text,
        },
        out.warnings,
    )
}

const ALL: [&str; 8] = [
    "arabic",
    "hebrew",
    "chinese",
    "japanese",
    "korean",
    "thai",
    "devanagari",
    "mixed",
];

#[test]
fn the_text_layer_keeps_every_script() {
    if !fonts_present() {
        return;
    }
    for name in ALL {
        let (doc, pdf, warnings) = write_pdf(name);
        let expected = tree_text(&doc);
        let c = recall(&chars(&expected), &chars(&pdf.text));
        let w = recall(&words(&expected), &words(&pdf.text));
        eprintln!("{name}: characters {c:.4}, words {w:.4}");
        assert!(c >= 0.99, "{name}: {c:.4} of the characters kept");
        // Chinese and Japanese have no spaces: a "word" is a line's run, cut by the lines.
        if !matches!(name, "chinese" | "japanese") {
            assert!(w >= 0.99, "{name}: {w:.4} of the words kept\n{}", pdf.text);
        }
        assert!(
            !warnings
                .iter()
                .any(|w| w.message.contains("no available font")),
            "{name}: {warnings:?}"
        );
    }
}

/// The fonts `pdffonts` lists for a fixture: (name, embedded).
fn fonts_of(pdf: &Written) -> Vec<(String, bool)> {
    tool("pdffonts", &[pdf.path.to_str().expect("utf-8")])
        .lines()
        .skip(2)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            // name type… encoding emb sub uni object id: emb is the fifth from the end.
            let emb = cols.len().checked_sub(5).and_then(|i| cols.get(i))?;
            Some((cols.first()?.to_string(), *emb == "yes"))
        })
        .collect()
}

#[test]
fn every_script_is_drawn_from_an_embedded_font_made_for_it() {
    if !fonts_present() {
        return;
    }
    let wanted = [
        ("arabic", "Arabic"),
        ("hebrew", "Hebrew"),
        ("chinese", "CJK"),
        ("japanese", "CJKjp"),
        ("korean", "CJKkr"),
        ("thai", "Thai"),
        ("devanagari", "Devanagari"),
        ("mixed", "Arabic"),
    ];
    for (name, family) in wanted {
        let (_, pdf, _) = write_pdf(name);
        let fonts = fonts_of(&pdf);
        assert!(fonts.iter().all(|(_, emb)| *emb), "{name}: {fonts:?}");
        assert!(
            fonts.iter().any(|(n, _)| n.contains(family)),
            "{name}: no {family} font in {fonts:?}"
        );
    }
}

#[test]
fn right_to_left_paragraphs_end_at_the_right_margin() {
    if !fonts_present() {
        return;
    }
    // pdftotext's bounding boxes: the Arabic body lines reach the right margin (A4 minus
    // 25 mm) and start well inside it; the English lines of the mixed page start at the left.
    for (name, ltr_word) in [("arabic", None), ("mixed", Some("paragraph"))] {
        let (_, pdf, _) = write_pdf(name);
        let html = tool(
            "pdftotext",
            &["-bbox", pdf.path.to_str().expect("utf-8"), "-"],
        );
        let boxes: Vec<(f32, f32, String)> = html
            .lines()
            .filter(|l| l.trim_start().starts_with("<word"))
            .filter_map(|l| {
                let attr = |k: &str| -> Option<f32> {
                    let at = l.find(&format!("{k}=\""))? + k.len() + 2;
                    l[at..].split('"').next()?.parse().ok()
                };
                let text = l.split('>').nth(1)?.split('<').next()?.to_string();
                Some((attr("xMin")?, attr("xMax")?, text))
            })
            .collect();
        let right_margin = 595.276 - 70.87;
        // (`-bbox` spells right-to-left words in drawing order, so they are found by script.)
        let rtl: Vec<&(f32, f32, String)> = boxes
            .iter()
            .filter(|(_, _, t)| t.chars().any(|c| ('\u{0590}'..='\u{08FF}').contains(&c)))
            .collect();
        assert!(rtl.len() > 10, "{name}: {} right-to-left words", rtl.len());
        // Right-to-left lines end at the right margin.
        let max_x = rtl.iter().map(|(_, x1, _)| *x1).fold(0.0, f32::max);
        assert!(
            (max_x - right_margin).abs() < 2.0,
            "{name}: right-to-left text ends at {max_x}, the margin is at {right_margin}"
        );
        if name == "arabic" {
            // The table is right to left (`bidiVisual`): its second column, the populations,
            // stands left of the first, the cities, and its numbers end at the column's start
            // (its right edge), short of the page's middle.
            let number = boxes
                .iter()
                .find(|(_, _, t)| t == "21.3")
                .map(|(_, x1, _)| *x1);
            assert!(
                number.is_some_and(|x| x < 595.276 / 2.0),
                "arabic: 21.3 ends at {number:?}"
            );
        }
        if let Some(w) = ltr_word {
            let min_x = boxes
                .iter()
                .filter(|(_, _, t)| t.contains(w))
                .map(|(x0, _, _)| *x0)
                .fold(f32::MAX, f32::min);
            assert!(min_x < 200.0, "{name}: {w} at {min_x}");
        }
    }
}
