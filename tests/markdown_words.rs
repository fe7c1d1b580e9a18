//! Markdown keeps what HTML keeps: for every Word file of the corpus (`../shared/corpus/docx`),
//! every word of the single-file HTML's body text is also in the Markdown rendered as a reader
//! sees it (captions, their labels and numbers included). Skipped with a printed reason when
//! `../shared` is absent.

use std::collections::BTreeSet;
mod common;

use std::path::Path;

use sdconv::{ExportOptions, Format, ImportOptions};

/// Words, lower-cased (text split at every character that is not a letter or digit).
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The text a reader of the page sees in its `<body>`: tags, the stylesheet and scripts
/// removed, the entities the writer uses decoded. Attribute values (alt, title) are not text.
fn html_text(html: &str) -> String {
    let body = html.split_once("<body").map_or(html, |(_, b)| b);
    let mut out = String::new();
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        // Inline elements do not separate words (`秘密情報の<b>対</b>象`), blocks do.
        let name: String = after[1..]
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        if !INLINE.contains(&name.as_str()) {
            out.push(' ');
        }
        let open = after.find('>').map_or(after, |i| &after[..i]);
        let chrome = !name.is_empty()
            && !after.starts_with("</")
            && (["style", "script", "svg", "time"].contains(&name.as_str())
                || CHROME
                    .iter()
                    .any(|c| open.contains(&format!("class=\"{c}\""))));
        let skip_to = chrome.then(|| format!("</{name}>"));
        rest = match skip_to {
            Some(end) => after.find(&end).map_or("", |i| &after[i + end.len()..]),
            None => after.find('>').map_or("", |i| &after[i + 1..]),
        };
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// What the page adds around the document's own text, and Markdown says its own way or not at
/// all (the elements with these classes, and `<time>`, a comment's date, are not compared):
/// the hidden title (Markdown's front matter holds it), the titles of the notes, comments and
/// contents sections, note and comment reference marks (`i`, `ii` there, `[^1]` here), and the
/// placeholder of a picture the file only links to.
const CHROME: &[&str] = &[
    "visually-hidden",
    "notes-title",
    "toc-title",
    "fnref",
    "enref",
    "comment-ref",
    "missing-image",
    // pulldown-cmark's footnote reference in the rendered Markdown.
    "footnote-reference",
];

/// HTML elements inside a line of text.
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "code", "del", "em", "i", "ins", "kbd", "mark", "q", "ruby",
    "rt", "rp", "s", "samp", "small", "span", "strong", "sub", "sup", "u", "var", "wbr",
];

#[test]
fn markdown_keeps_every_word_the_html_shows() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docx");
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let files = common::files_with(&dir, "docx");
    assert!(files.len() >= 100, "{} corpus files", files.len());
    let mut short = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("corpus file");
        let Ok(doc) = sdconv::import(Format::Word, &bytes, &ImportOptions::default()) else {
            continue; // the hostile files are refused by both alike
        };
        // The same content in both: changes accepted (HTML would show deletions struck
        // through, which Markdown cannot), comments and page furniture written by both.
        let mut opts = ExportOptions::default();
        opts.track_changes = sdconv::TrackChanges::Accept;
        opts.markdown = opts.markdown.with_comments(true).with_headers_footers(true);
        let html = sdconv::export(&doc.value, Format::HtmlAllInOne, &opts).expect("HTML");
        let md = sdconv::export(&doc.value, Format::Markdown, &opts).expect("Markdown");
        let html = words(&html_text(&String::from_utf8_lossy(&html.value)));
        // The Markdown as a reader sees it: rendered (a title attribute is not text).
        let mut rendered = String::new();
        let md = String::from_utf8_lossy(&md.value);
        let parser = pulldown_cmark::Parser::new_ext(&md, pulldown_cmark::Options::all());
        pulldown_cmark::html::push_html(&mut rendered, parser);
        let md = words(&html_text(&rendered));
        let lost: Vec<&String> = html.difference(&md).collect();
        if !lost.is_empty() {
            short.push(format!("{}: {lost:?}", path.display()));
        }
    }
    assert!(
        short.is_empty(),
        "{} file(s) whose Markdown lacks words of their HTML:\n{}",
        short.len(),
        short.join("\n")
    );
}
