//! Windows metafiles from the wild (`../shared/corpus/metafiles`) and small fixtures written
//! by LibreOffice (`tests/fixtures/metafile`): every file draws an SVG that parses and holds
//! the words its text records draw, or gives an error; the deliberately corrupted ones error
//! or draw, never panic; each file within a time bound.
//!
//! The expected words come from a scan of the records written here, independently of the
//! player: EMF EXTTEXTOUTW/A text (not glyph indexes, not in the Symbol font, whose letters
//! the player maps to Greek) and EMF+ DrawString text; the SVG must hold every word of one of
//! the two (a dual file is drawn from one or the other).
//!
//! `SDCONV_METAFILE_DUMP=dir` writes each drawing there as SVG and PNG, for looking at.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use quick_xml::Reader;
use quick_xml::events::Event;

/// Debug builds are slow; a hang is what this catches, not a slow file.
const PER_FILE: Duration = Duration::from_secs(60);

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("emf") || e.eq_ignore_ascii_case("wmf"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn words(text: &str, out: &mut BTreeSet<String>) {
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if !w.is_empty() {
            out.insert(w.to_string());
        }
    }
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    b.get(o..o + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn utf16_at(b: &[u8], o: usize, n: usize) -> Option<String> {
    let s = b.get(o..o.checked_add(n.checked_mul(2)?)?)?;
    let units: Vec<u16> = s
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Some(String::from_utf16_lossy(&units))
}

/// Words of the EMF text records and of the EMF+ DrawString records.
fn expected_words(b: &[u8]) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut emf, mut plus) = (BTreeSet::new(), BTreeSet::new());
    let mut faces: HashMap<u32, String> = HashMap::new();
    let mut face = String::new();
    let mut off = match u32_at(b, 4) {
        Some(s) if u32_at(b, 0) == Some(1) => s as usize,
        _ => return (emf, plus),
    };
    while let (Some(kind), Some(size)) = (u32_at(b, off), u32_at(b, off + 4)) {
        let size = size as usize;
        if size < 8 || off + size > b.len() {
            break;
        }
        let rec = &b[off..off + size];
        match kind {
            82 => {
                if let (Some(ih), Some(f)) = (u32_at(rec, 8), utf16_at(rec, 12 + 28, 32)) {
                    faces.insert(ih, f.trim_end_matches('\0').to_string());
                }
            }
            37 => {
                if let Some(f) = u32_at(rec, 8).and_then(|ih| faces.get(&ih)) {
                    face = f.clone();
                }
            }
            84 => {
                let (n, off_s, opts) = (u32_at(rec, 44), u32_at(rec, 48), u32_at(rec, 52));
                if let (Some(n), Some(o), Some(opts)) = (n, off_s, opts) {
                    if opts & 0x10 == 0 && !face.eq_ignore_ascii_case("symbol") {
                        if let Some(t) = utf16_at(rec, o as usize, n as usize) {
                            words(&t, &mut emf);
                        }
                    }
                }
            }
            70 if rec.get(12..16) == Some(b"EMF+") => {
                let mut p = 16;
                while let (Some(h), Some(sz)) = (u32_at(rec, p), u32_at(rec, p + 4)) {
                    let sz = sz as usize;
                    if sz < 12 || p + sz > rec.len() {
                        break;
                    }
                    if h & 0xffff == 0x401C {
                        if let Some(n) = u32_at(rec, p + 20) {
                            if let Some(t) = utf16_at(rec, p + 40, n as usize) {
                                words(&t, &mut plus);
                            }
                        }
                    }
                    p += sz;
                }
            }
            14 => break,
            _ => {}
        }
        off += size;
    }
    (emf, plus)
}

/// Parses the SVG (it must be well-formed) and returns the words of its `<text>` elements.
fn svg_words(svg: &str) -> Result<BTreeSet<String>, String> {
    let mut r = Reader::from_str(svg);
    let mut out = BTreeSet::new();
    let mut in_text = false;
    let mut depth = 0usize;
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) => {
                depth += 1;
                in_text = e.name().as_ref() == "text";
            }
            Ok(Event::End(_)) => {
                depth = depth.saturating_sub(1);
                in_text = false;
            }
            Ok(Event::Text(t)) if in_text => {
                words(&t.xml10_content(), &mut out);
            }
            Ok(Event::GeneralRef(e)) if in_text => {
                // &amp; and friends: a word boundary at most.
                let _ = e;
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(format!(
                    "SVG does not parse at {}: {e}",
                    r.buffer_position()
                ));
            }
        }
    }
    if depth != 0 {
        return Err("SVG elements not closed".into());
    }
    Ok(out)
}

enum Outcome {
    Drew { texts: usize, skipped: usize },
    Failed(String),
}

/// Draws one file on a worker thread, within [`PER_FILE`].
fn run(path: &Path, dump: Option<&Path>) -> Outcome {
    let bytes = std::fs::read(path).unwrap();
    let (tx, rx) = mpsc::channel();
    let b = bytes.clone();
    std::thread::spawn(move || {
        let out = std::panic::catch_unwind(|| sdconv::internal::metafile_check(&b, Some(1 << 20)));
        let _ = tx.send(out);
    });
    let start = Instant::now();
    let res = match rx.recv_timeout(PER_FILE) {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => panic!("{}: panicked", path.display()),
        Err(_) => panic!("{}: no answer after {:?}", path.display(), start.elapsed()),
    };
    let (svg, png, texts, skipped) = match res {
        Ok(v) => v,
        Err(e) => return Outcome::Failed(e),
    };
    let got = svg_words(&svg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (emf, plus) = expected_words(&bytes);
    let missing = |want: &BTreeSet<String>| want.difference(&got).cloned().collect::<Vec<_>>();
    let (me, mp) = (missing(&emf), missing(&plus));
    assert!(
        me.is_empty() || (!plus.is_empty() && mp.is_empty()),
        "{}: words not drawn: {me:?} (EMF) / {mp:?} (EMF+)",
        path.display()
    );
    if let Some(dir) = dump {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        std::fs::write(dir.join(format!("{name}.svg")), &svg).unwrap();
        if let Some(png) = png {
            std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
        }
    }
    Outcome::Drew { texts, skipped }
}

fn check_dir(dir: &Path, must_draw: bool) {
    let dump = std::env::var_os("SDCONV_METAFILE_DUMP").map(PathBuf::from);
    let (mut drew, mut with_text, mut failed, mut skipped_total) = (0, 0, 0, 0);
    for path in files(dir) {
        let corrupted = path.to_string_lossy().contains("corrupted");
        match run(&path, dump.as_deref()) {
            Outcome::Drew { texts, skipped } => {
                drew += 1;
                skipped_total += skipped;
                if texts > 0 {
                    with_text += 1;
                }
            }
            Outcome::Failed(e) => {
                failed += 1;
                if !corrupted {
                    println!("{}: {e}", path.display());
                }
                assert!(!must_draw, "{}: {e}", path.display());
            }
        }
    }
    println!(
        "{}: {drew} drawn ({with_text} with text, {skipped_total} records skipped), {failed} errors",
        dir.display()
    );
    assert!(drew + failed > 0, "no metafiles in {}", dir.display());
}

#[test]
fn corpus_draws_or_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/metafiles");
    if !dir.is_dir() {
        println!("skipped: {} is absent", dir.display());
        return;
    }
    for sub in ["emf", "emf-plus", "libuemf", "emf-corrupted"] {
        check_dir(&dir.join(sub), false);
    }
}

#[test]
fn libreoffice_fixtures_draw() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/metafile");
    check_dir(&dir, true);
}
