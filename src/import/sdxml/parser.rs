//! The event loop: each XML event is applied to the explicit frame stack ([`super::frame`]).
//! `start` decides from the enclosing frame what an element means, `end` closes the top frame and
//! hands its product (a block, a row, a note, a meta field, …) to the frame below.

use std::collections::HashSet;

use quick_xml::events::{BytesStart, Event};

use super::attrs;
use super::frame::{Ctx, Frame, Name, ParaFrame, TextTarget, is_xml_space};
use super::runs::Builder;
use super::warn::Warnings;
use crate::ast::{Block, Document, Inline};
use crate::error::{Error, Result};
use crate::limits::Limits;
/// A name as warnings show it (cut to a bound), for the reader's modules.
pub(super) use crate::limits::shown_name as shown;
use crate::report::Location;
use crate::report::WarningKind;
use crate::xml::{XmlReader, push_ref};

/// The reader's state while it walks the events.
pub(super) struct Parser<'a> {
    pub(super) part: &'a str,
    pub(super) frames: Vec<Frame>,
    /// One inline builder per open paragraph or note, innermost last.
    pub(super) builders: Vec<Builder>,
    pub(super) doc: Document,
    /// Blocks of 2.2x `attached-sections` (footnote texts), placed when the body is complete.
    pub(super) attached: Vec<Block>,
    pub(super) warn: Warnings,
    /// Referenced media names in first-reference order, with where they were first referenced.
    pub(super) media: Vec<(String, Location)>,
    media_seen: HashSet<String>,
    /// A comment anchor came in through a PI (its comment must exist: checked at the end).
    pub(super) comment_anchors: bool,
    /// Most marks a paragraph may have open (elements and PIs): the XML depth limit, so PIs
    /// cannot build inline content deeper than elements could.
    pub(super) max_depth: usize,
    /// Finished builders, kept for their buffers.
    pub(super) spare: Vec<Builder>,
    saw_root: bool,
    /// Text still to skip: the "base (reading)" our writer puts after a ruby PI for the service.
    pub(super) skip_text: String,
    /// Grid slots (rows × columns) the tables read so far lay out: bounded by `table_cells`
    /// (see `ext::TABLE_SLOTS_FREE`).
    pub(super) table_slots: usize,
    /// Cells the tables read so far hold.
    pub(super) table_cells: usize,
    /// Inside a formula's fallback text (between `{"math":…}` and `{"math_end":null}` PIs):
    /// the number of builders open at the formula, so only its own paragraph's text is skipped.
    pub(super) math_fallback: Option<usize>,
}

/// Most element names a warning's location shows: the innermost, after `…` when there were
/// more. Every warning holds its own location, and elements nest up to
/// `Limits::max_xml_depth` deep with names of any length: a whole path per warning would let a
/// small file write gigabytes of paths. Real paths are shorter than this.
const MAX_PATH_NAMES: usize = 12;

/// Where a warning arose: the zip part, the element path from the frames (its last
/// [`MAX_PATH_NAMES`] names, each [`shown`]) plus `what`, and the index the current top-level
/// block has (or will have).
pub(super) fn location(part: &str, frames: &[Frame], block: usize, what: &str) -> Location {
    let names = || frames.iter().map(Frame::name).filter(|n| !n.is_empty());
    let skip = names().count().saturating_sub(MAX_PATH_NAMES);
    let mut path = String::new();
    if skip > 0 {
        path.push('…');
    }
    for n in names().skip(skip) {
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(&shown(n));
    }
    if !what.is_empty() {
        if !what.starts_with('@') && !path.is_empty() {
            path.push('/');
        }
        path.push_str(&shown(what));
    }
    Location::part(part).element(path).block(block)
}

/// Reads the whole part. Returns the parser so the caller can run the passes that need the
/// complete tree (media, ids, attached footnotes).
pub(super) fn parse<'a>(text: &'a str, part: &'a str, limits: &Limits) -> Result<Parser<'a>> {
    let mut p = Parser {
        part,
        frames: Vec::with_capacity(16),
        builders: Vec::with_capacity(4),
        doc: Document::new(),
        attached: Vec::new(),
        warn: Warnings::default(),
        media: Vec::new(),
        media_seen: HashSet::new(),
        comment_anchors: false,
        max_depth: limits.max_xml_depth,
        spare: Vec::new(),
        saw_root: false,
        skip_text: String::new(),
        math_fallback: None,
        table_slots: 0,
        table_cells: 0,
    };
    let mut reader = XmlReader::new(text, part, limits);
    let mut buf = String::new();
    loop {
        match reader.next_event()? {
            Event::Start(e) => {
                p.skip_text.clear();
                p.start(&e, false)?
            }
            Event::Empty(e) => {
                p.skip_text.clear();
                p.start(&e, true)?
            }
            Event::End(_) => {
                p.skip_text.clear();
                p.end()?
            }
            Event::Text(t) => p.text(&t.xml10_content()),
            Event::CData(t) => p.text(&t.xml10_content()),
            Event::GeneralRef(r) => {
                buf.clear();
                push_ref(&r, &mut buf);
                p.text(&buf);
            }
            Event::PI(pi) => p.pi(pi.target(), pi.content())?,
            Event::Eof => {
                if let Some(f) = p.frames.last() {
                    return Err(reader.invalid(format!("the text ends inside <{}>", f.name())));
                }
                break;
            }
            Event::Decl(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
        if p.saw_root && p.frames.is_empty() {
            // Whatever follows the root element is outside the document.
            break;
        }
    }
    if !p.saw_root {
        return Err(Error::invalid(part, "no <smashdoc> root element"));
    }
    Ok(p)
}

pub(super) fn is_inline_name(name: &str) -> bool {
    matches!(
        name,
        "b" | "i"
            | "u"
            | "s"
            | "sub"
            | "sup"
            | "kbd"
            | "sd-sc"
            | "a"
            | "inline"
            | "footnote"
            | "sidenote"
            | "img"
            | "xref"
            | "index"
            | "br"
    )
}

fn is_block_name(name: &str) -> bool {
    matches!(
        name,
        "heading"
            | "paragraph"
            | "ol-li"
            | "ul-li"
            | "p"
            | "li"
            | "ul"
            | "ol"
            | "image"
            | "table"
            | "pagebreak"
            | "directory"
            | "ordered-sections"
            | "attached-sections"
            | "font"
    )
}

/// The `'static` spelling of a grammar name (frames keep names without allocating).
fn static_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "heading" => "heading",
        "paragraph" => "paragraph",
        "ol-li" => "ol-li",
        "ul-li" => "ul-li",
        "p" => "p",
        "li" => "li",
        "font" => "font",
        "b" => "b",
        "i" => "i",
        "u" => "u",
        "s" => "s",
        "sub" => "sub",
        "sup" => "sup",
        "kbd" => "kbd",
        "sd-sc" => "sd-sc",
        "a" => "a",
        "inline" => "inline",
        "xref" => "xref",
        "index" => "index",
        "br" => "br",
        "pagebreak" => "pagebreak",
        "directory" => "directory",
        "ordered-sections" => "ordered-sections",
        "language" => "language",
        "th" => "th",
        "td" => "td",
        _ => return None,
    })
}

pub(super) fn name_of(name: &str) -> Name {
    match static_name(name) {
        Some(s) => Name::Borrowed(s),
        None => Name::Owned(name.to_string()),
    }
}

impl<'a> Parser<'a> {
    // ----- warnings -------------------------------------------------------------------------

    /// An aggregated warning at the current place; `what` names the element or `@attribute`.
    pub(super) fn note(
        &mut self,
        kind: WarningKind,
        key: &str,
        what: &str,
        message: impl FnOnce() -> String,
    ) {
        let Parser {
            warn,
            frames,
            doc,
            part,
            ..
        } = self;
        warn.note(kind, key, message, || {
            location(part, frames, doc.blocks.len(), what)
        });
    }

    pub(super) fn unknown_attr(&mut self, elem: &str, attr: &str) {
        let (elem, attr) = (shown(elem), shown(attr));
        let key = format!("{elem}@{attr}");
        self.note(WarningKind::UnknownAttribute, &key, &key, || {
            format!("unknown attribute {attr} on <{elem}> ignored")
        });
    }

    pub(super) fn bad_value(&mut self, elem: &str, attr: &str, value: &str, used: &str) {
        let (elem, attr, value) = (shown(elem), shown(attr), shown(value));
        let key = format!("{elem}@{attr}");
        self.note(WarningKind::InvalidValue, &key, &key, || {
            format!("invalid value {value:?} for <{elem} {attr}>; {used} used instead")
        });
    }

    fn bad_attrs(&mut self, elem: &str, message: String) {
        let key = format!("{elem}@");
        self.note(WarningKind::InvalidValue, &key, elem, || {
            format!("malformed attribute list on <{elem}> ({message}); the readable attributes were used")
        });
    }

    /// Records a media reference (read from the package once the body is complete).
    pub(super) fn media_ref(&mut self, name: &str) {
        if self.media_seen.contains(name) {
            return;
        }
        let loc = location(self.part, &self.frames, self.doc.blocks.len(), "");
        self.media_seen.insert(name.to_string());
        self.media.push((name.to_string(), loc));
    }

    // ----- events ---------------------------------------------------------------------------

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<()> {
        let name = crate::xml::LocalName::local(e);
        if let Some(Frame::Para(p)) = self.frames.last() {
            if p.implicit() && is_block_name(name) {
                self.close_implicit()?;
            }
        }
        let ctx = match self.frames.last_mut() {
            None => Ctx::Root,
            Some(f) => f.ctx(),
        };
        if ctx == Ctx::Absorb {
            self.absorb(name, empty);
            return Ok(());
        }
        match ctx {
            Ctx::Root => {
                if name != "smashdoc" {
                    return Err(Error::invalid(
                        self.part,
                        format!("the root element is <{name}>, not <smashdoc>"),
                    ));
                }
                self.smashdoc_attrs(e);
                self.saw_root = true;
                self.frames.push(Frame::Smashdoc);
            }
            Ctx::Smashdoc => match name {
                "meta" => {
                    self.no_attrs(e, "meta");
                    self.frames.push(Frame::Meta { fields: None });
                }
                "document" => {
                    self.no_attrs(e, "document");
                    self.frames.push(Frame::Document);
                }
                "indexes" => {
                    self.no_attrs(e, "indexes");
                    self.frames.push(Frame::Indexes);
                }
                _ => self.skip_unknown(name),
            },
            Ctx::Meta => self.meta_child(e, name),
            Ctx::Tags => {
                if name == "tag" {
                    self.no_attrs(e, "tag");
                    let target = match self.frames.last() {
                        Some(Frame::Presets) => TextTarget::PresetTag,
                        _ => TextTarget::Tag,
                    };
                    self.push_text(target);
                } else {
                    self.skip_unknown(name);
                }
            }
            Ctx::Grid => {
                if name == "item" {
                    self.no_attrs(e, "item");
                    self.push_text(TextTarget::GridItem);
                } else {
                    self.skip_unknown(name);
                }
            }
            Ctx::Blocks => self.block_start(e, name)?,
            Ctx::Inline => self.inline_start(e, name)?,
            Ctx::Table => match name {
                "column_width" => {
                    self.no_attrs(e, "column_width");
                    self.frames.push(Frame::ColumnWidth {
                        items: Vec::new(),
                        bad: None,
                    });
                }
                "tr" => self.row_start(e),
                _ => self.skip_unknown(name),
            },
            Ctx::ColumnWidth => {
                if name == "item" {
                    self.no_attrs(e, "item");
                    self.push_text(TextTarget::ColumnItem);
                } else {
                    self.skip_unknown(name);
                }
            }
            Ctx::Row => match name {
                "th" | "td" => self.cell_start(e, name == "th"),
                _ => self.skip_unknown(name),
            },
            Ctx::Indexes => {
                if name == "index-node" {
                    self.index_node_start(e);
                } else {
                    self.skip_unknown(name);
                }
            }
            Ctx::Absorb => {}
        }
        if empty {
            self.close_top()?;
        }
        Ok(())
    }

    /// A child element of a text-only element: its text joins the parent's.
    fn absorb(&mut self, name: &str, empty: bool) {
        let (parent, inline_ok, reported) = match self.frames.last_mut() {
            Some(f) => {
                if let Some(n) = f.nested_mut() {
                    if !empty {
                        *n += 1;
                    }
                }
                match f {
                    // img and footnote content may hold formatting (DTD `img_content`).
                    Frame::Img { .. } => ("img", true, false),
                    Frame::Skip { reported, .. } => ("", false, *reported),
                    other => (
                        match other {
                            Frame::Image(_) => "image",
                            Frame::Text { target, .. } => target.name(),
                            _ => "",
                        },
                        false,
                        false,
                    ),
                }
            }
            None => return,
        };
        if reported || parent.is_empty() || (inline_ok && is_inline_name(name)) {
            return;
        }
        let name = shown(name);
        let key = format!("{parent}>{name}");
        self.note(WarningKind::UnknownElement, &key, &name, || {
            format!("unexpected element <{name}> inside <{parent}>: its text was kept")
        });
    }

    pub(super) fn skip_unknown(&mut self, name: &str) {
        let parent = self.frames.last().map(|f| shown(f.name()).into_owned());
        let parent = parent.unwrap_or_default();
        let shown_name = shown(name);
        let key = format!("skip:{parent}>{shown_name}");
        self.note(WarningKind::UnknownElement, &key, &shown_name, || {
            format!(
                "unknown element <{shown_name}> inside <{parent}> was left out with its content"
            )
        });
        self.frames.push(Frame::Skip {
            name: name_of(name),
            nested: 0,
            chars: 0,
            reported: true,
        });
    }

    fn push_text(&mut self, target: TextTarget) {
        self.frames.push(Frame::Text {
            target,
            buf: String::new(),
            nested: 0,
        });
    }

    /// Reports every attribute of an element that has none in the grammar.
    pub(super) fn no_attrs(&mut self, e: &BytesStart<'_>, elem: &str) {
        self.each_attr(e, elem, |_, _, _| false);
    }

    /// Runs `f` on every attribute; `f` returns `false` for attributes it does not know. A
    /// repeated attribute (not well-formed XML) is reported and its repeats are ignored.
    pub(super) fn each_attr(
        &mut self,
        e: &BytesStart<'_>,
        elem: &str,
        mut f: impl FnMut(&mut Self, &str, std::borrow::Cow<'_, str>) -> bool,
    ) {
        if e.attributes_raw().bytes().all(|b| b.is_ascii_whitespace()) {
            // Most inline elements have no attributes: skip the set-up below.
            return;
        }
        // Checked here rather than by quick-xml, whose check allocates per element; elements
        // have a handful of attributes, so a fixed array suffices (beyond it repeats pass).
        let mut seen: [&str; 16] = [""; 16];
        let mut n = 0;
        for a in attrs::iter(e) {
            match a {
                Ok((k, v)) => {
                    if seen.iter().take(n).any(|s| *s == k) {
                        self.bad_attrs(elem, format!("attribute {} repeated", shown(k)));
                        continue;
                    }
                    if let Some(slot) = seen.get_mut(n) {
                        *slot = k;
                        n += 1;
                    }
                    if !f(self, k, v) {
                        self.unknown_attr(elem, k);
                    }
                }
                Err(m) => self.bad_attrs(elem, m),
            }
        }
    }

    fn end(&mut self) -> Result<()> {
        if let Some(n) = self.frames.last_mut().and_then(Frame::nested_mut) {
            if *n > 0 {
                *n -= 1;
                return Ok(());
            }
        }
        self.close_implicit()?;
        self.close_top()
    }

    fn text(&mut self, s: &str) {
        let mut s = s;
        if !self.skip_text.is_empty() {
            if let Some(rest) = self.skip_text.strip_prefix(s) {
                self.skip_text = rest.to_string();
                return;
            }
            if let Some(rest) = s.strip_prefix(self.skip_text.as_str()) {
                s = rest;
            }
            self.skip_text.clear();
            if s.is_empty() {
                return;
            }
        }
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        match top {
            Frame::Text { buf, .. } | Frame::Img { buf, .. } => buf.push_str(s),
            Frame::Image(f) => f.name.push_str(s),
            Frame::Skip { chars, .. } => {
                if !is_xml_space(s) {
                    *chars += s.chars().count();
                }
            }
            Frame::Para(_) | Frame::Inline { .. } | Frame::Note { .. } => {
                if self.math_fallback == Some(self.builders.len()) {
                    return;
                }
                if let Some(b) = self.builders.last_mut() {
                    b.text(s);
                }
            }
            Frame::Document
            | Frame::Attached
            | Frame::Transparent { .. }
            | Frame::List { .. }
            | Frame::Cell(_) => {
                if !is_xml_space(s) {
                    self.open_implicit();
                    if let Some(b) = self.builders.last_mut() {
                        b.text(s);
                    }
                }
            }
            other => {
                if !is_xml_space(s) {
                    let name = shown(other.name()).into_owned();
                    let key = format!("text:{name}");
                    self.note(WarningKind::Dropped, &key, "", || {
                        format!("text directly inside <{name}> has no place in the tree and was left out")
                    });
                }
            }
        }
    }

    // ----- implicit paragraphs --------------------------------------------------------------

    /// Loose inline content in a block container gets a paragraph of its own.
    pub(super) fn open_implicit(&mut self) {
        let (name, quiet, cell) = match self.frames.last() {
            Some(Frame::Transparent { name, unknown, .. }) => {
                (shown(name).into_owned(), *unknown, false)
            }
            Some(Frame::Cell(c)) => (c.name.to_string(), false, true),
            Some(f) => (shown(f.name()).into_owned(), false, false),
            None => (String::new(), false, false),
        };
        if cell {
            self.note(WarningKind::LegacyForm, "cell-text", "", || {
                "table cell text outside <p> (the 2016-2017 form) was put in a cell paragraph"
                    .to_string()
            });
        } else if !quiet {
            let key = format!("loose:{name}");
            self.note(WarningKind::Repaired, &key, "", || {
                format!("text directly inside <{name}> was put in a paragraph")
            });
        }
        self.frames.push(Frame::Para(Box::new(ParaFrame {
            name: "",
            para: Default::default(),
            fields: None,
            li_depth: None,
            continued: false,
        })));
        self.push_builder();
    }

    pub(super) fn close_implicit(&mut self) -> Result<()> {
        while let Some(Frame::Para(p)) = self.frames.last() {
            if !p.implicit() {
                break;
            }
            self.close_top()?;
        }
        Ok(())
    }

    /// Puts a finished block into the nearest container: a cell, the attached sections, or the
    /// document body.
    pub(super) fn emit(&mut self, block: Block) {
        for f in self.frames.iter_mut().rev() {
            match f {
                Frame::Document => break,
                Frame::Attached => {
                    self.attached.push(block);
                    return;
                }
                Frame::Cell(c) => {
                    c.cell.blocks.push(block);
                    return;
                }
                _ => {}
            }
        }
        self.doc.blocks.push(block);
    }

    // ----- closing --------------------------------------------------------------------------

    fn close_top(&mut self) -> Result<()> {
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        match frame {
            Frame::Para(f) => self.close_para(*f)?,
            Frame::Inline { .. } => {
                if let Some(b) = self.builder() {
                    b.pop_elem();
                }
            }
            Frame::Note { kind, .. } => {
                let (content, unclosed, _) = self.pop_builder();
                self.unclosed_marks(unclosed);
                if let Some(parent) = self.builder() {
                    parent.atom(Inline::Note { kind, content });
                }
            }
            Frame::Img {
                media,
                caption,
                fields,
                buf,
                ..
            } => self.close_img(media, caption, fields, buf),
            Frame::Image(f) => self.close_image(*f),
            Frame::Table(f) => self.close_table(*f)?,
            Frame::Row(f) => self.close_row(*f)?,
            Frame::Cell(f) => self.close_cell(*f)?,
            Frame::ColumnWidth { items, bad } => self.close_column_width(items, bad),
            Frame::Text { target, buf, .. } => self.close_text(target, buf),
            Frame::Meta { fields } => {
                if let Some(fields) = fields {
                    let meta = std::mem::take(&mut self.doc.meta);
                    self.doc.meta = self.apply(meta, &fields, "meta");
                }
            }
            Frame::IndexNode(node) => match self.frames.last_mut() {
                Some(Frame::IndexNode(parent)) => parent.children.push(*node),
                _ => self.doc.indexes.push(*node),
            },
            Frame::Skip {
                name,
                chars,
                reported,
                ..
            } => {
                if chars > 0 && !reported {
                    let name = shown(&name);
                    let key = format!("skip-text:{name}");
                    self.note(WarningKind::Dropped, &key, &name, || {
                        format!("text inside <{name}> has no place in the tree and was left out")
                    });
                }
            }
            Frame::Smashdoc
            | Frame::Tags
            | Frame::Presets
            | Frame::Grid
            | Frame::Document
            | Frame::Attached
            | Frame::Transparent { .. }
            | Frame::List { .. }
            | Frame::Indexes => {}
        }
        Ok(())
    }

    pub(super) fn unclosed_marks(&mut self, n: usize) {
        if n > 0 {
            self.note(WarningKind::InvalidValue, "pi-unclosed", "", || {
                "an <?sdconv {\"open\":…}?> mark was never closed; it ends with its paragraph"
                    .to_string()
            });
        }
    }

    fn close_column_width(&mut self, items: Vec<Option<f32>>, bad: Option<String>) {
        if let Some(bad) = bad {
            self.bad_value("item", "(text)", &bad, "no column widths");
        }
        let Some(Frame::Table(t)) = self.frames.last_mut() else {
            return;
        };
        if !t.table.columns.is_empty() {
            self.note(
                WarningKind::InvalidValue,
                "column_width-twice",
                "column_width",
                || "a second <column_width> in one table was ignored".to_string(),
            );
            return;
        }
        if items.iter().all(Option::is_some) {
            t.table.columns = items.into_iter().flatten().collect();
        }
    }

    fn close_text(&mut self, target: TextTarget, buf: String) {
        let meta = &mut self.doc.meta;
        let opt = |s: String| (!s.is_empty()).then_some(s);
        match target {
            TextTarget::Title => meta.title = opt(buf),
            TextTarget::Filename => meta.filename = opt(buf),
            TextTarget::Subtitle => meta.subtitle = opt(buf),
            TextTarget::Description => meta.description = opt(buf),
            TextTarget::Footer => meta.footer = opt(buf),
            TextTarget::Creator => meta.creator = opt(buf),
            TextTarget::GridIndentation => meta.grid_indentation_enabled = opt(buf),
            TextTarget::SpellcheckLang => meta.spellcheck_lang = opt(buf),
            TextTarget::Tag => meta.tags.extend(opt(buf)),
            TextTarget::PresetTag => {
                if let Some(p) = meta.word_export_presets.as_mut() {
                    p.tags.extend(opt(buf));
                }
            }
            TextTarget::GridItem => meta.grid.push(buf),
            TextTarget::ColumnItem => {
                if let Some(Frame::ColumnWidth { items, bad }) = self.frames.last_mut() {
                    let w = attrs::column_width(&buf);
                    if w.is_none() && bad.is_none() {
                        *bad = Some(buf);
                    }
                    items.push(w);
                }
            }
        }
    }

    /// Applies a `fields` PI to a node; a payload that no longer fits the node is reported.
    pub(super) fn apply<T>(
        &mut self,
        value: T,
        fields: &serde_json::Map<String, serde_json::Value>,
        what: &str,
    ) -> T
    where
        T: serde::Serialize + for<'de> serde::Deserialize<'de>,
    {
        match crate::sdxml_ext::apply_fields(&value, fields) {
            Some(v) => v,
            None => {
                let key = format!("fields:{what}");
                self.note(WarningKind::InvalidValue, &key, what, || {
                    format!("an <?sdconv {{\"fields\":…}}?> payload does not fit <{what}>; ignored")
                });
                value
            }
        }
    }
}
