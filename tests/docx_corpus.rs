//! The real-file corpus (`../shared/corpus/docx`, 135 files from mammoth, python-docx and
//! docx-rs): every file imports without panic or hang into a tree that validates, and every
//! word of the main part's body text survives.
//!
//! The expected words come from a scan of the main part written here, independently of the
//! reader: `w:t` (and `m:t`) text per paragraph, `mc:Fallback` skipped (its `mc:Choice` holds
//! the same text), `w:delText` excluded, and the text the reader is documented to replace left
//! out: field codes, the cached results of `TOC`, `SEQ`, `REF`, `PAGEREF` and `NOTEREF` fields
//! (REF only when its bookmark exists), and a caption's label before its `SEQ` field.

mod common;

use std::collections::{BTreeSet, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use quick_xml::Reader;
use quick_xml::events::Event;
use sdconv::ast::{Block, ChangeKind, Document, Inline};
use sdconv::import::docx::{DocxImportOptions, read};
use sdconv::{Converted, WarningKind};

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docx");
    dir.is_dir().then_some(dir)
}

fn words(text: &str, out: &mut BTreeSet<String>) {
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if !w.is_empty() {
            out.insert(w.to_string());
        }
    }
}

// ---- the independent scan of the main part -----------------------------------------------

fn zip_entry(bytes: &[u8], name: &str) -> Option<String> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).ok()?;
    let idx = (0..z.len()).find(|&i| {
        z.name_for_index(i)
            .and_then(|n| n.ok())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    })?;
    let mut f = z.by_index(idx).ok()?;
    let mut v = Vec::new();
    f.read_to_end(&mut v).ok()?;
    let v = v
        .strip_prefix(b"\xEF\xBB\xBF")
        .map(<[u8]>::to_vec)
        .unwrap_or(v);
    String::from_utf8(v).ok()
}

fn main_part(bytes: &[u8]) -> Option<String> {
    let rels = zip_entry(bytes, "_rels/.rels")?;
    let mut r = Reader::from_str(&rels);
    loop {
        match r.read_event().ok()? {
            Event::Empty(e) | Event::Start(e) if e.local_name().as_ref() == "Relationship" => {
                let get = |k: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == k)
                        .map(|a| a.value.to_string())
                };
                if get("Type").is_some_and(|t| t.ends_with("/officeDocument")) {
                    let target = get("Target")?;
                    return zip_entry(bytes, target.trim_start_matches('/'));
                }
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

fn attr(e: &quick_xml::events::BytesStart<'_>, local: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == local)
        .map(|a| a.value.to_string())
}

struct Frame {
    instr: String,
    result: bool,
    hide: bool,
}

fn field_hides(instr: &str, bookmarks: &HashSet<String>) -> (bool, bool) {
    let mut t = instr.split_whitespace();
    let name = t.next().unwrap_or("").to_ascii_uppercase();
    let arg = t.next().unwrap_or("").trim_matches('"').to_string();
    match name.as_str() {
        "TOC" => (true, false),
        "SEQ" => (true, true),
        "REF" | "PAGEREF" | "NOTEREF" => (bookmarks.contains(&arg), false),
        _ => (false, false),
    }
}

/// Returns the expected words, or `None` when the field markers do not balance (then the scan
/// is redone with fields ignored, as the reader does).
fn scan(xml: &str, fields_on: bool) -> Option<BTreeSet<String>> {
    let mut bookmarks = HashSet::new();
    let mut r = Reader::from_str(xml);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "bookmarkStart" => {
                if let Some(n) = attr(&e, "name") {
                    bookmarks.insert(n);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    let mut r = Reader::from_str(xml);
    let mut paras: Vec<String> = Vec::new();
    let mut fields: Vec<Frame> = Vec::new();
    let mut in_t = false;
    let mut fallback = 0usize;
    let mut instr = false;
    let mut balanced = true;
    let visible = |f: &[Frame]| f.iter().all(|f| f.result && !f.hide);
    loop {
        let ev = r.read_event().ok()?;
        match ev {
            Event::Start(e) => match e.local_name().as_ref() {
                "Fallback" => fallback += 1,
                _ if fallback > 0 => {}
                "p" => paras.push(String::new()),
                "t" => in_t = true,
                "instrText" => instr = true,
                "fldSimple" if fields_on => {
                    let i = attr(&e, "instr").unwrap_or_default();
                    let (hide, seq) = field_hides(&i, &bookmarks);
                    if seq && visible(&fields) {
                        if let Some(p) = paras.last_mut() {
                            p.clear();
                        }
                    }
                    fields.push(Frame {
                        instr: i,
                        result: true,
                        hide,
                    });
                }
                _ => {}
            },
            Event::Empty(e) if fallback == 0 => match e.local_name().as_ref() {
                "fldChar" if fields_on => match attr(&e, "fldCharType").as_deref() {
                    Some("begin") => fields.push(Frame {
                        instr: String::new(),
                        result: false,
                        hide: false,
                    }),
                    Some("separate") => {
                        if let Some(mut f) = fields.pop() {
                            let (hide, seq) = field_hides(&f.instr, &bookmarks);
                            if seq && visible(&fields) {
                                if let Some(p) = paras.last_mut() {
                                    p.clear();
                                }
                            }
                            f.result = true;
                            f.hide = hide;
                            fields.push(f);
                        }
                    }
                    Some("end") if fields.pop().is_none() => balanced = false,
                    _ => {}
                },
                "tab" | "br" | "cr" => {
                    if let Some(p) = paras.last_mut() {
                        p.push(' ');
                    }
                }
                _ => {}
            },
            Event::Text(t) if fallback == 0 => {
                let text = t.xml10_content();
                if instr {
                    if let Some(f) = fields.last_mut() {
                        if !f.result {
                            f.instr.push_str(&text);
                        }
                    }
                } else if in_t && visible(&fields) {
                    if let Some(p) = paras.last_mut() {
                        p.push_str(&text);
                    }
                }
            }
            Event::GeneralRef(g) if fallback == 0 && in_t && !instr && visible(&fields) => {
                if let Some(p) = paras.last_mut() {
                    match g.resolve_char_ref() {
                        Ok(Some(c)) => p.push(c),
                        _ => p.push_str(
                            quick_xml::escape::resolve_predefined_entity(&g.xml10_content())
                                .unwrap_or(""),
                        ),
                    }
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "Fallback" => fallback = fallback.saturating_sub(1),
                _ if fallback > 0 => {}
                "p" => {
                    if let Some(p) = paras.pop() {
                        words(&p, &mut out);
                    }
                }
                "t" => in_t = false,
                "instrText" => instr = false,
                "fldSimple" if fields_on => {
                    fields.pop();
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    if fields_on && (!balanced || !fields.is_empty()) {
        return None;
    }
    Some(out)
}

fn expected_words(bytes: &[u8]) -> BTreeSet<String> {
    let Some(xml) = main_part(bytes) else {
        return BTreeSet::new();
    };
    scan(&xml, true)
        .or_else(|| scan(&xml, false))
        .unwrap_or_default()
}

// ---- the tree's words ----------------------------------------------------------------------

/// Joins a paragraph's text the way the scan joins `w:t` runs: deleted text left out (the scan
/// skips `w:delText`), anchors and note markers invisible, line breaks as spaces; notes are
/// joined on their own.
fn join_inlines<'a>(list: &'a [Inline], out: &mut String, notes: &mut Vec<&'a [Inline]>) {
    for i in list {
        match i {
            Inline::Text { text } => out.push_str(text),
            Inline::LineBreak => out.push(' '),
            Inline::Tracked { change, .. } if change.kind == ChangeKind::Delete => {}
            Inline::Note { content, .. } => notes.push(content),
            Inline::Image {
                caption: Some(c), ..
            } => {
                out.push(' ');
                out.push_str(c);
                out.push(' ');
            }
            other => {
                if let Some(children) = other.children() {
                    join_inlines(children, out, notes);
                }
            }
        }
    }
}

fn inline_words(list: &[Inline], out: &mut BTreeSet<String>) {
    let mut text = String::new();
    let mut notes = Vec::new();
    join_inlines(list, &mut text, &mut notes);
    words(&text, out);
    for n in notes {
        inline_words(n, out);
    }
}

fn tree_words(doc: &Document) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    doc.walk_blocks(&mut |_, b| match b {
        Block::Paragraph(p) => inline_words(&p.content, &mut out),
        Block::Image(img) => {
            if let Some(c) = &img.caption {
                words(c, &mut out);
            }
        }
        Block::Table(t) => {
            if let Some(c) = &t.caption {
                words(c, &mut out);
            }
        }
        _ => {}
    });
    for c in &doc.comments {
        inline_words(&c.content, &mut out);
    }
    out
}

fn read_with_timeout(bytes: Vec<u8>) -> Option<Result<Converted<Document>, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = read(&bytes, &DocxImportOptions::default()).map_err(|e| e.to_string());
        let _ = tx.send(r);
    });
    rx.recv_timeout(Duration::from_secs(60)).ok()
}

#[test]
fn corpus_imports_validate_and_keep_every_word() {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipped: ../shared/corpus/docx is absent");
        return;
    };
    let files = common::files_with(&dir, "docx");
    assert!(files.len() >= 100, "only {} corpus files", files.len());
    let mut failures = Vec::new();
    let (mut blocks, mut words_checked, mut warnings, mut linked) = (0, 0, 0, 0);
    for path in &files {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let expected = expected_words(&bytes);
        let converted = match read_with_timeout(bytes) {
            None => {
                failures.push(format!("{name}: panicked or took over 60 s"));
                continue;
            }
            Some(Err(e)) => {
                failures.push(format!("{name}: error {e}"));
                continue;
            }
            Some(Ok(c)) => c,
        };
        let doc = &converted.value;
        blocks += doc.blocks.len();
        warnings += converted.warnings.len();
        if let Err(violations) = doc.validate() {
            let linked_refs: Vec<&str> = converted
                .warnings
                .iter()
                .filter(|w| {
                    w.kind == WarningKind::MissingMedia && w.message.starts_with("linked picture")
                })
                .map(|w| w.message.as_str())
                .collect();
            for v in violations {
                let allowed = v.message.contains("not in the media store")
                    && linked_refs
                        .iter()
                        .any(|w| v.message.split('"').nth(1).is_some_and(|m| w.contains(m)));
                if allowed {
                    linked += 1;
                } else {
                    failures.push(format!("{name}: invalid tree: {v}"));
                }
            }
        }
        let got = tree_words(doc);
        let missing: Vec<&String> = expected.difference(&got).collect();
        words_checked += expected.len();
        if !missing.is_empty() {
            failures.push(format!(
                "{name}: {} words lost: {:?}",
                missing.len(),
                &missing[..missing.len().min(12)]
            ));
        }
    }
    eprintln!(
        "docx corpus: {} files, {} top-level blocks, {} distinct words checked, {} warnings, {} linked pictures",
        files.len(),
        blocks,
        words_checked,
        warnings,
        linked
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
