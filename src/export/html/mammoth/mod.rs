//! The mammoth flavor of the HTML writer: the clean fragment mammoth 1.13 writes for a Word
//! file, byte for byte where the tree holds what mammoth reads, so code written against
//! mammoth's output keeps working.
//!
//! The tree should come from the Word reader with
//! [`crate::import::docx::DocxImportOptions::word_refs`] on: then every paragraph and run
//! keeps its Word style (what the style map matches), formatting is the run's own, and notes
//! keep mammoth's ids. Any other tree is written too: its headings match the default map as
//! `Heading N` styles.
//!
//! What each node becomes (mammoth's own rules, `lib/document-to-html.js`):
//! - paragraphs → the first matching rule of the style map (the caller's, then mammoth's
//!   default map unless left out), else `p` with a warning per unknown style; list items match
//!   `p:ordered-list(n)`/`p:unordered-list(n)`, nested `ul`/`ol`/`li` built by elements that
//!   continue open ones. Done.
//! - runs → `strong`/`em`/`s`/`sup`/`sub` (bold, italic, strike mapped by `b`, `i`, `strike`),
//!   underline and small caps only when mapped (`u`, `small-caps`), character styles by `r`
//!   rules; links → `a href` (internal ones `#` + id prefix); bookmarks → `a id`. Done.
//! - tables → `table`/`tr`/`td` with `colspan`/`rowspan`, leading header rows in `thead` as
//!   `th`, the rest in `tbody`; empty cells kept. Done.
//! - footnotes and endnotes → `sup > a[href][id]` `[n]` references and an `ol` of `li` at the
//!   end with a back link `↑`. Done; a note's paragraphs are the tree's line breaks.
//! - images → `img` with `alt` and a `data:` URI `src`; Windows metafiles drawn as PNG first
//!   (mammoth writes their bytes, which browsers cannot show). Done.
//! - line breaks → `br`; page breaks only when mapped (`br[type='page'] => hr`).
//!
//! What mammoth drops and this writer keeps: equations (MathML), charts (their data as a
//! table), metafiles (drawn), and page headers and footers when asked
//! ([`MammothOptions::headers_footers`]). Left out like mammoth: comments, tracked deletions
//! (insertions are kept), generated directories.

mod nodes;
pub mod style_map;

use std::collections::{HashMap, HashSet};

use base64::Engine;

use crate::ast::inline::{Leaf, Run, to_runs};
use crate::ast::{
    Block, Document, Inline, Mark, NoteKind, Paragraph, Table, TextStyle, TextType, WordStyleKind,
};
use crate::export::metafiles::{self, Shown};
use crate::report::{Converted, Location, Report, WarningKind};
use nodes::Node;
use style_map::{BreakKind, ElementMatcher, HtmlPath, Matcher, StyleMap, StyleMapError};

/// Options of the mammoth flavor: mammoth's own, and what mammoth cannot do.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MammothOptions {
    /// The caller's style map (mammoth's `styleMap`): one rule a line, tried before the
    /// default map. Lines that do not parse are left out, one warning each.
    pub style_map: Vec<String>,
    /// Append mammoth's default style map (`includeDefaultStyleMap`); on by default.
    pub include_default_style_map: bool,
    /// Leave out paragraphs with nothing in them (`ignoreEmptyParagraphs`); on by default.
    pub ignore_empty_paragraphs: bool,
    /// Put before every id the fragment writes (`idPrefix`): bookmarks, notes, internal links.
    pub id_prefix: String,
    /// Write the first section's page header (`header`) before the text and its footer
    /// (`footer`) after it; mammoth leaves them out. Off by default.
    pub headers_footers: bool,
    /// Write mammoth's `extractRawText` ([`raw_text`]) instead of the fragment. Off by
    /// default.
    pub raw_text: bool,
}

impl Default for MammothOptions {
    fn default() -> Self {
        MammothOptions {
            style_map: Vec::new(),
            include_default_style_map: true,
            ignore_empty_paragraphs: true,
            id_prefix: String::new(),
            headers_footers: false,
            raw_text: false,
        }
    }
}

impl MammothOptions {
    /// Sets the style map from text, one rule a line (mammoth's string form).
    pub fn with_style_map(mut self, text: &str) -> Self {
        self.style_map = text.lines().map(str::to_string).collect();
        self
    }

    /// Sets [`MammothOptions::include_default_style_map`].
    pub fn with_default_style_map(mut self, on: bool) -> Self {
        self.include_default_style_map = on;
        self
    }

    /// Sets [`MammothOptions::ignore_empty_paragraphs`].
    pub fn with_ignore_empty_paragraphs(mut self, on: bool) -> Self {
        self.ignore_empty_paragraphs = on;
        self
    }

    /// Sets [`MammothOptions::id_prefix`].
    pub fn with_id_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.id_prefix = prefix.into();
        self
    }

    /// Sets [`MammothOptions::headers_footers`].
    pub fn with_headers_footers(mut self, on: bool) -> Self {
        self.headers_footers = on;
        self
    }

    /// Sets [`MammothOptions::raw_text`].
    pub fn with_raw_text(mut self, on: bool) -> Self {
        self.raw_text = on;
        self
    }

    /// The style map in force: the caller's rules, then the default ones; and the errors of
    /// the caller's lines that did not parse.
    pub fn parsed_style_map(&self) -> (StyleMap, Vec<StyleMapError>) {
        let (mut map, errors) = StyleMap::parse_lines(self.style_map.iter().map(String::as_str));
        if self.include_default_style_map {
            map.rules.extend(StyleMap::default_map().rules);
        }
        (map, errors)
    }
}

/// The fragment mammoth writes for `doc`. Warnings: one per style map line left out, one per
/// style no rule matches (mammoth's "Unrecognised paragraph style: 'X' (Style ID: Y)"), and
/// the metafiles that could not be drawn.
pub fn write(doc: &Document, opts: &MammothOptions) -> Converted<String> {
    if opts.raw_text {
        return Converted::clean(raw_text(doc));
    }
    let mut report = Report::new();
    let (map, errors) = opts.parsed_style_map();
    for e in errors {
        report.warn(
            WarningKind::InvalidValue,
            e.to_string(),
            Location::default().element("styleMap"),
        );
    }
    let (doc, drawn) = metafiles::drawn(
        doc,
        Shown::Png,
        "kept as it is, which browsers do not display",
    );
    for w in drawn {
        report.push(w);
    }
    let doc = &*doc;
    let mut conv = Conv::new(doc, opts, map);
    let nodes = conv.document();
    for message in conv.warnings {
        report.warn(WarningKind::UnmappedStyle, message, Location::default());
    }
    let mut out = String::new();
    nodes::write(&nodes::simplify(nodes), &mut out);
    report.finish(out)
}

/// mammoth's `extractRawText`: the text of every paragraph (table cells included, notes not),
/// each followed by a blank line; tabs kept, line breaks and pictures leave nothing, deleted
/// text is left out.
pub fn raw_text(doc: &Document) -> String {
    let mut out = String::new();
    raw_blocks(&doc.blocks, &mut out);
    out
}

fn raw_blocks(blocks: &[Block], out: &mut String) {
    for block in blocks {
        match block {
            Block::Paragraph(p) => {
                for run in to_runs(&p.content) {
                    if let Leaf::Text(t) = &run.leaf
                        && !deleted(&run)
                    {
                        out.push_str(t);
                    }
                }
                out.push_str("\n\n");
            }
            Block::Image(img) => {
                out.push_str("\n\n");
                if let Some(c) = img.caption.as_deref().filter(|c| !c.is_empty()) {
                    out.push_str(c);
                    out.push_str("\n\n");
                }
            }
            Block::Table(t) => {
                for row in &t.rows {
                    for cell in &row.cells {
                        raw_blocks(&cell.blocks, out);
                    }
                }
            }
            // The paragraph a generated list stood in is an empty one beside it (read with
            // `word_refs`); its entries, which mammoth shows, are not in the tree.
            Block::PageBreak | Block::Directory { .. } => {}
        }
    }
}

fn deleted(run: &Run) -> bool {
    run.marks
        .iter()
        .any(|m| matches!(m, Mark::Tracked(k) if !k.insert))
}

/// A note referenced so far: its kind, its id in the fragment, its text.
struct NoteRef {
    kind: &'static str,
    id: String,
    content: Vec<Inline>,
}

/// The conversion of one document.
struct Conv<'a> {
    doc: &'a Document,
    opts: &'a MammothOptions,
    map: StyleMap,
    /// Notes in the order of their references.
    notes: Vec<NoteRef>,
    /// The next Word note id to use from `meta.word`.
    next_word_note: usize,
    /// Per kind, how many notes had no Word id (their ids count on from there).
    counted: HashMap<&'static str, usize>,
    /// Block ids → their text, what a cross-reference shows.
    targets: HashMap<String, String>,
    /// Word style (kind, name) → id, from `meta.word`.
    style_ids: HashMap<(WordStyleKind, &'a str), &'a str>,
    /// Bookmarks Word had between paragraphs, from `meta.word`.
    outside: HashSet<&'a str>,
    /// Warnings, each once, in order.
    warnings: Vec<String>,
}

impl<'a> Conv<'a> {
    fn new(doc: &'a Document, opts: &'a MammothOptions, map: StyleMap) -> Self {
        let mut targets = HashMap::new();
        doc.walk_blocks(&mut |_, b| {
            if let Block::Paragraph(p) = b
                && let Some(id) = p.id.as_deref()
            {
                targets
                    .entry(id.to_string())
                    .or_insert_with(|| crate::ast::inline::accepted_text(&p.content));
            }
        });
        let mut style_ids = HashMap::new();
        for s in doc.meta.word.iter().flat_map(|w| &w.styles) {
            // The first of a name wins, as `WordRefs::style_id` finds it.
            style_ids
                .entry((s.kind, s.name.as_str()))
                .or_insert(s.id.as_str());
        }
        let outside = doc
            .meta
            .word
            .iter()
            .flat_map(|w| &w.outside_bookmarks)
            .map(String::as_str)
            .collect();
        Conv {
            doc,
            opts,
            style_ids,
            outside,
            map,
            notes: Vec::new(),
            next_word_note: 0,
            counted: HashMap::new(),
            targets,
            warnings: Vec::new(),
        }
    }

    fn warn(&mut self, message: String) {
        if !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }

    /// The Word id of the style named `name`; the name itself for a style `styles.xml` does
    /// not define (or a tree without Word's styles).
    fn style_id<'n>(&self, name: &'n str, kind: WordStyleKind) -> &'n str
    where
        'a: 'n,
    {
        self.style_ids.get(&(kind, name)).copied().unwrap_or(name)
    }

    fn id(&self, suffix: &str) -> String {
        format!("{}{suffix}", self.opts.id_prefix)
    }

    fn document(&mut self) -> Vec<Node> {
        let doc = self.doc;
        let mut out = Vec::new();
        let page = doc.meta.pages.one_page();
        if self.opts.headers_footers
            && let Some(h) = page.header
        {
            out.push(furniture("header", h));
        }
        out.extend(self.blocks(&doc.blocks));
        if self.opts.headers_footers
            && let Some(f) = page.footer
        {
            out.push(furniture("footer", f));
        }
        let mut items = Vec::new();
        let mut i = 0;
        // Notes referenced inside notes are not read (the tree has none); the list is final.
        while i < self.notes.len() {
            let (kind, id, content) = {
                let n = &self.notes[i];
                (n.kind, n.id.clone(), n.content.clone())
            };
            items.push(self.note(kind, &id, &content));
            i += 1;
        }
        out.push(Node::fresh("ol", Vec::new(), items));
        out
    }

    fn blocks(&mut self, blocks: &'a [Block]) -> Vec<Node> {
        let mut out = Vec::new();
        for block in blocks {
            match block {
                Block::Paragraph(p) => out.extend(self.paragraph(p)),
                Block::Image(img) => {
                    let img_node = self.image(&img.media, img.alt.as_deref());
                    out.push(Node::fresh("p", Vec::new(), img_node));
                    if let Some(caption) = img.caption.as_deref().filter(|c| !c.is_empty()) {
                        out.push(Node::fresh(
                            "p",
                            Vec::new(),
                            vec![Node::Text(caption.into())],
                        ));
                    }
                }
                Block::Table(t) => out.extend(self.table(t)),
                Block::PageBreak => {
                    if let Some(path) = self.map.find(|m| *m == Matcher::Break(BreakKind::Page)) {
                        out.extend(nodes::wrap(&path.clone(), Vec::new()));
                    }
                }
                // A generated list is the tree's, not text of the document.
                Block::Directory { .. } => {}
            }
        }
        out
    }

    /// The style name, style id and list level mammoth would see on a paragraph.
    fn paragraph_facts(
        &self,
        p: &'a Paragraph,
    ) -> (Option<String>, Option<String>, Option<(bool, u32)>) {
        let word = self.doc.meta.word.as_ref();
        let mut name = p.style.clone();
        if name.is_none() && word.is_none() && p.kind.is_heading() {
            // A tree from elsewhere: its headings read as Word's built-in heading styles.
            name = Some(format!("Heading {}", p.level + 1));
        }
        let id = match (&name, word) {
            (Some(n), Some(_)) => Some(self.style_id(n, WordStyleKind::Paragraph).to_string()),
            (Some(n), None) => Some(n.replace(' ', "")),
            _ => None,
        };
        let list = match p.kind {
            TextType::ListOl | TextType::ParagraphOl | TextType::HeadingOl => {
                Some((true, u32::from(p.level)))
            }
            TextType::ListUl => Some((false, u32::from(p.level))),
            _ => None,
        };
        (name, id, list)
    }

    fn paragraph(&mut self, p: &'a Paragraph) -> Vec<Node> {
        let (name, id, list) = self.paragraph_facts(p);
        let path = self
            .map
            .find(|m| match m {
                Matcher::Paragraph(e) => element_matches(e, name.as_deref(), id.as_deref(), list),
                _ => false,
            })
            .cloned();
        let path = match path {
            Some(path) => path,
            None => {
                if let (Some(name), Some(id)) = (&name, &id) {
                    self.warn(format!(
                        "Unrecognised paragraph style: '{name}' (Style ID: {id})"
                    ));
                }
                HtmlPath::fresh("p")
            }
        };
        let mut content = Vec::new();
        if !self.opts.ignore_empty_paragraphs {
            content.push(Node::ForceWrite);
        }
        let mut before = Vec::new();
        if let Some(bookmark) = p.id.as_deref() {
            let anchor = Node::fresh(
                "a",
                vec![("id".into(), self.id(bookmark))],
                vec![Node::ForceWrite],
            );
            // A bookmark Word had between paragraphs stands before this one, as in mammoth.
            let outside = self.outside.contains(bookmark);
            if outside {
                before.push(anchor)
            } else {
                content.push(anchor)
            }
        }
        content.extend(self.inlines(&p.content));
        before.extend(nodes::wrap(&path, content));
        before
    }

    fn inlines(&mut self, inlines: &[Inline]) -> Vec<Node> {
        let mut out = Vec::new();
        for run in to_runs(inlines) {
            if deleted(&run) {
                continue;
            }
            let inner = match &run.leaf {
                Leaf::Text(t) => vec![Node::Text(t.clone())],
                Leaf::LineBreak => {
                    let path = self
                        .map
                        .find(|m| *m == Matcher::Break(BreakKind::Line))
                        .cloned()
                        .unwrap_or_else(|| HtmlPath::fresh("br"));
                    nodes::wrap(&path, Vec::new())
                }
                Leaf::Atom(atom) => self.atom(atom),
            };
            out.extend(self.run_paths(&run.marks, inner));
        }
        out
    }

    /// A run's content inside its formatting, in mammoth's order (the first innermost:
    /// small caps, strike, underline, sub, sup, italic, bold, character style), the whole
    /// inside its link.
    fn run_paths(&mut self, marks: &[Mark], content: Vec<Node>) -> Vec<Node> {
        let has = |s: TextStyle| marks.contains(&Mark::Style(s));
        let mut paths: Vec<HtmlPath> = Vec::new();
        let mapped = |m: &Matcher, default: Option<&str>| {
            self.map
                .find(|x| x == m)
                .cloned()
                .or_else(|| default.map(HtmlPath::plain))
        };
        if has(TextStyle::SmallCaps) {
            paths.extend(mapped(&Matcher::SmallCaps, None));
        }
        if has(TextStyle::Strike) {
            paths.extend(mapped(&Matcher::Strikethrough, Some("s")));
        }
        if has(TextStyle::Underline) {
            paths.extend(mapped(&Matcher::Underline, None));
        }
        if has(TextStyle::Subscript) {
            paths.push(HtmlPath::plain("sub"));
        }
        if has(TextStyle::Superscript) {
            paths.push(HtmlPath::plain("sup"));
        }
        if has(TextStyle::Italic) {
            paths.extend(mapped(&Matcher::Italic, Some("em")));
        }
        if has(TextStyle::Bold) {
            paths.extend(mapped(&Matcher::Bold, Some("strong")));
        }
        for m in marks {
            if let Mark::Span(name) = m {
                let id = self.style_id(name, WordStyleKind::Character).to_string();
                let found = self
                    .map
                    .find(|x| match x {
                        Matcher::Run(e) => element_matches(e, Some(name), Some(&id), None),
                        _ => false,
                    })
                    .cloned();
                match found {
                    Some(path) => paths.push(path),
                    None => self.warn(format!("Unrecognised run style: '{name}' (Style ID: {id})")),
                }
            }
        }
        let mut nodes = content;
        for path in &paths {
            nodes = nodes::wrap(path, nodes);
        }
        for m in marks {
            if let Mark::Link(href) = m {
                nodes = self.link(href, nodes);
            }
        }
        nodes
    }

    fn link(&self, href: &str, children: Vec<Node>) -> Vec<Node> {
        match super::url::check(href) {
            Some((id, super::url::Target::Fragment)) => vec![Node::plain(
                "a",
                vec![("href".into(), format!("#{}", self.id(&id)))],
                children,
            )],
            Some((target, _)) => vec![Node::plain("a", vec![("href".into(), target)], children)],
            // A target no browser should follow: its text stays, unlinked.
            None => children,
        }
    }

    fn atom(&mut self, atom: &Inline) -> Vec<Node> {
        match atom {
            Inline::Note { kind, content } => self.note_ref(*kind, content),
            Inline::Image { media, alt, .. } => self.image(media, alt.as_deref()),
            Inline::CrossRef { target, .. } => {
                let text = self
                    .targets
                    .get(target.as_str())
                    .cloned()
                    .unwrap_or_default();
                vec![Node::Text(text)]
            }
            Inline::Math { display, math } => {
                let mut out = String::new();
                super::mathml::write(math, *display, &mut out);
                vec![Node::Raw(out)]
            }
            Inline::Ruby { base, .. } => vec![Node::Text(base.clone())],
            _ => Vec::new(),
        }
    }

    fn note_ref(&mut self, kind: NoteKind, content: &[Inline]) -> Vec<Node> {
        let kind = if kind == NoteKind::Endnote {
            "endnote"
        } else {
            "footnote"
        };
        let word_id = self
            .doc
            .meta
            .word
            .as_ref()
            .and_then(|w| w.note_ids.get(self.next_word_note))
            .cloned();
        self.next_word_note += 1;
        let id = word_id.unwrap_or_else(|| {
            let n = self.counted.entry(kind).or_insert(0);
            *n += 1;
            n.to_string()
        });
        let number = self.notes.len() + 1;
        let node = Node::fresh(
            "sup",
            Vec::new(),
            vec![Node::fresh(
                "a",
                vec![
                    (
                        "href".into(),
                        format!("#{}", self.id(&format!("{kind}-{id}"))),
                    ),
                    ("id".into(), self.id(&format!("{kind}-ref-{id}"))),
                ],
                vec![Node::Text(format!("[{number}]"))],
            )],
        );
        self.notes.push(NoteRef {
            kind,
            id,
            content: content.to_vec(),
        });
        vec![node]
    }

    /// A note's list item: its paragraphs (the tree's line breaks in it), the last with the
    /// back link.
    fn note(&mut self, kind: &'static str, id: &str, content: &[Inline]) -> Node {
        let style = if kind == "endnote" {
            "endnote text"
        } else {
            "footnote text"
        };
        let path = self
            .map
            .find(|m| match m {
                Matcher::Paragraph(e) => element_matches(e, Some(style), None, None),
                _ => false,
            })
            .cloned()
            .unwrap_or_else(|| HtmlPath::fresh("p"));
        let mut children = Vec::new();
        for part in content.split(|i| matches!(i, Inline::LineBreak)) {
            let inner = self.inlines(part);
            children.extend(nodes::wrap(&path, inner));
        }
        children.push(Node::plain(
            "p",
            Vec::new(),
            vec![
                Node::Text(" ".into()),
                Node::fresh(
                    "a",
                    vec![(
                        "href".into(),
                        format!("#{}", self.id(&format!("{kind}-ref-{id}"))),
                    )],
                    vec![Node::Text("↑".into())],
                ),
            ],
        ));
        Node::fresh(
            "li",
            vec![("id".into(), self.id(&format!("{kind}-{id}")))],
            children,
        )
    }

    fn image(&mut self, media: &str, alt: Option<&str>) -> Vec<Node> {
        let Some(item) = self.doc.media.get(media) else {
            return Vec::new();
        };
        let Ok(bytes) = item.bytes() else {
            return Vec::new();
        };
        let mut src = format!("data:{};base64,", item.kind.mime());
        base64::engine::general_purpose::STANDARD.encode_string(&bytes, &mut src);
        let mut attrs = Vec::new();
        if let Some(alt) = alt.filter(|a| !a.trim().is_empty()) {
            attrs.push(("alt".to_string(), alt.to_string()));
        }
        attrs.push(("src".to_string(), src));
        vec![Node::fresh("img", attrs, Vec::new())]
    }

    fn table(&mut self, t: &'a Table) -> Vec<Node> {
        let name = t.style.as_deref();
        let id = name.map(|n| self.style_id(n, WordStyleKind::Table));
        let path = self
            .map
            .find(|m| match m {
                Matcher::Table(e) => element_matches(e, name, id, None),
                _ => false,
            })
            .cloned()
            .unwrap_or_else(|| HtmlPath::fresh("table"));
        let head = t.rows.iter().take_while(|r| r.header).count();
        let mut children = vec![Node::ForceWrite];
        if head == 0 {
            for row in &t.rows {
                children.push(self.row(row, false));
            }
        } else {
            let thead = t.rows[..head].iter().map(|r| self.row(r, true)).collect();
            let tbody = t.rows[head..].iter().map(|r| self.row(r, false)).collect();
            children.push(Node::fresh("thead", Vec::new(), thead));
            children.push(Node::fresh("tbody", Vec::new(), tbody));
        }
        nodes::wrap(&path, children)
    }

    fn row(&mut self, row: &'a crate::ast::Row, header: bool) -> Node {
        let mut cells = vec![Node::ForceWrite];
        for cell in &row.cells {
            let mut attrs = Vec::new();
            if cell.colspan != 1 {
                attrs.push(("colspan".to_string(), cell.colspan.to_string()));
            }
            if cell.rowspan != 1 {
                attrs.push(("rowspan".to_string(), cell.rowspan.to_string()));
            }
            let mut content = vec![Node::ForceWrite];
            content.extend(self.blocks(&cell.blocks));
            cells.push(Node::fresh(
                if header { "th" } else { "td" },
                attrs,
                content,
            ));
        }
        Node::fresh("tr", Vec::new(), cells)
    }
}

/// Whether a `p`/`r`/`table` matcher's conditions hold for an element with this style name,
/// style id and list level.
fn element_matches(
    m: &ElementMatcher,
    name: Option<&str>,
    id: Option<&str>,
    list: Option<(bool, u32)>,
) -> bool {
    m.style_id.as_deref().is_none_or(|want| id == Some(want))
        && m.style_name
            .as_ref()
            .is_none_or(|want| name.is_some_and(|n| want.matches(n)))
        && m.list.is_none_or(|want| list == Some(want))
}

/// A page header or footer as an element of its own, a `p` per line.
fn furniture(tag: &str, text: &crate::ast::PageText) -> Node {
    let lines = text
        .plain_lines()
        .into_iter()
        .map(|l| Node::fresh("p", Vec::new(), vec![Node::Text(l)]))
        .collect();
    Node::fresh(tag, Vec::new(), lines)
}
