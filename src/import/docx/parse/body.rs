//! Stage one for block content: streams a part holding paragraphs (`document.xml`, footnotes,
//! endnotes, comments, headers and footers) with quick-xml into [`model`](super::model) values.
//! Paragraphs and block containers are read here; runs in [`super::runs`], tables in
//! [`super::tables`], pictures and text boxes in [`super::drawing`]; a large main part is split
//! between two parsers by [`super::halves`]. The parser itself ([`BodyParser`], its state and
//! shared helpers) is in [`super::parser`].
//!
//! Element names are matched on their local part, so any prefix and both the transitional and
//! ISO Strict namespaces read alike. Every handler consumes its element through the matching end
//! tag; containers the reader does not know are read through (their text kept) with one
//! warning per element name, and `mc:AlternateContent` contributes exactly one branch.

use quick_xml::events::{BytesStart, Event};

use super::model::{Block, Body, Item, LinkTarget, Para, Run, RunItem};
use super::parser::{BodyParser, Ctx, Half, MAX_OPEN_BOOKMARKS, ignorable, is_seq};
use super::props::{parse_ppr, parse_sectpr};
use super::xmlutil::{attr, attr_string, element_text};
use crate::ast::{Change, ChangeKind};
use crate::error::Result;
use crate::ooxml::CODE_LANGUAGE_TAG;
use crate::report::{Location, WarningKind};
use crate::xml::LocalName;

/// A container element of a notes or comments part with its attributes and content.
#[derive(Debug, Clone)]
pub struct Container {
    /// Attributes as (local name, value).
    pub attrs: Vec<(String, String)>,
    /// The blocks inside.
    pub blocks: Vec<Block>,
}

impl Container {
    /// The attribute with local name `name`.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl<'a, 'c> BodyParser<'a, 'c> {
    /// Parses a main document part: the blocks of `w:body` and its final section.
    pub fn parse_document(mut self) -> Result<Body> {
        self.document()
    }

    /// [`BodyParser::parse_document`] keeping the parser, for a half of a main part read in two.
    pub fn document(&mut self) -> Result<Body> {
        self.document_from(Vec::new(), false)
    }

    /// The first half of a main part reads on alone, from where it stopped (`body` so far).
    pub fn read_on(&mut self, body: Body) -> Result<Body> {
        self.half = Half::Whole;
        self.stopped = false;
        self.final_section = body.final_section;
        self.document_from(body.blocks, true)
    }

    /// The second half of a main part: [`BodyParser::document`] from inside the first body,
    /// where its reader starts ([`crate::xml::XmlReader::within`]).
    pub fn document_within_body(&mut self) -> Result<Body> {
        self.bodies = 1;
        self.document_from(Vec::new(), true)
    }

    /// [`BodyParser::document`], or with `in_body` its rest from inside a body whose blocks so
    /// far are `blocks` (the first half of a main part reading on alone).
    fn document_from(&mut self, mut blocks: Vec<Block>, in_body: bool) -> Result<Body> {
        let mut seen_body = in_body;
        if in_body {
            self.blocks_until_end(&mut blocks)?;
        }
        loop {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    // Some writers split the document into several `w:body` elements: each is
                    // read, in order; the last one's `w:sectPr` is the final section.
                    "body" => {
                        seen_body = true;
                        self.bodies += 1;
                        self.blocks_until_end(&mut blocks)?;
                        if self.stopped {
                            break;
                        }
                    }
                    "document" if self.r.depth() == 1 => {}
                    _ => self.r.skip_element()?,
                },
                Event::Eof => break,
                _ => {}
            }
        }
        if !seen_body {
            self.report.warn(
                WarningKind::InvalidValue,
                "the main document part has no w:body; the document is empty",
                Location::part(&self.part),
            );
        }
        Ok(Body {
            blocks,
            final_section: self.final_section.take(),
        })
    }

    /// Parses a part whose root holds `element` containers (`footnote`, `endnote`, `comment`).
    pub fn parse_containers(mut self, element: &str) -> Result<Vec<Container>> {
        let mut out = Vec::new();
        loop {
            match self.r.next_event()? {
                Event::Start(e) => {
                    if e.local() == element {
                        let attrs = crate::xml::attrs(&e);
                        let mut blocks = Vec::new();
                        self.blocks_until_end(&mut blocks)?;
                        out.push(Container { attrs, blocks });
                    } else if self.r.depth() > 1 {
                        self.r.skip_element()?;
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(out)
    }

    /// Parses a header or footer part: the blocks under its root.
    pub fn parse_root_blocks(mut self) -> Result<Vec<Block>> {
        let mut blocks = Vec::new();
        loop {
            match self.r.next_event()? {
                Event::Start(_) if self.r.depth() == 1 => self.blocks_until_end(&mut blocks)?,
                Event::Start(_) => self.r.skip_element()?,
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(blocks)
    }

    /// Nothing read so far carries over into what follows but open bookmarks (the other half
    /// is told of those): no open field, no `SEQ` field just ended (what a parser reading on
    /// from here starts with).
    fn at_rest(&self) -> bool {
        self.field_instrs.is_empty()
            && self.facts.field_depth == 0
            && !self.after_seq
            && self.table_depth == 0
    }

    // ---- block level -------------------------------------------------------------------

    /// Reads block content up to the end of the element whose start was just read.
    ///
    /// Paragraph content met where blocks belong (runs inside an unknown or future block
    /// element such as `<w:p2>`, or loose in the body) is gathered into one paragraph per
    /// stretch, so the text an "unknown element … read through" warning promises is kept.
    pub fn blocks_until_end(&mut self, out: &mut Vec<Block>) -> Result<()> {
        let mut loose: Option<Para> = None;
        loop {
            // A half of a main part read in two stops at body level where the other half takes
            // over. Only in the first body: the second half reads behind its start tag.
            if self.r.depth() == 2 {
                let ready = self.bodies == 1 && loose.is_none() && self.at_rest();
                if self.half.stop_before(self.r.position(), ready) {
                    self.stopped = true;
                    return Ok(());
                }
            }
            match self.r.next_event()? {
                Event::Start(e) => {
                    if inline_level(e.local()) {
                        self.inline_start(&e, loose.get_or_insert_with(Para::default))?;
                    } else {
                        flush_loose(&mut loose, out);
                        self.block_start(&e, out)?;
                    }
                }
                Event::Empty(e) => match loose.as_mut() {
                    Some(p) if inline_level(e.local()) || is_anchor(&e) => self.inline_empty(&e, p),
                    _ => self.block_empty(&e, out),
                },
                Event::End(_) => {
                    flush_loose(&mut loose, out);
                    return Ok(());
                }
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
    }

    pub fn block_start(&mut self, e: &BytesStart<'_>, out: &mut Vec<Block>) -> Result<()> {
        let local = e.local();
        match local {
            "p" => {
                // A bookmark ending right after a SEQ field holds a caption's number, in the
                // caption's own paragraph: one ending in a later paragraph holds other text.
                self.after_seq = false;
                let mut p = Para {
                    items: self.item_lists.take(),
                    ..Para::default()
                };
                self.inline_until_end(&mut p)?;
                p.items = self.item_lists.finish(std::mem::take(&mut p.items));
                out.push(Block::Para(p));
            }
            "tbl" => {
                let t = self.table()?;
                out.push(Block::Table(t));
            }
            "sdt" => self.block_sdt(out)?,
            "sdtContent" | "customXml" | "smartTag" | "ins" | "del" | "moveTo" | "moveFrom" => {
                self.blocks_until_end(out)?
            }
            "AlternateContent" => self.alternate(&mut Ctx::Blocks(out))?,
            "sectPr" => self.final_section = Some(parse_sectpr(&mut self.r)?),
            "oMathPara" | "oMath" => {
                let mut p = Para::default();
                // Outside a paragraph a formula stands on its own line either way.
                self.math(e, true, &mut p)?;
                out.push(Block::Para(p));
            }
            "bookmarkStart" | "commentRangeStart" | "commentRangeEnd" | "altChunk" => {
                self.block_empty(e, out);
                self.r.skip_element()?;
            }
            name if ignorable(name) => self.r.skip_element()?,
            _ => {
                self.unknown(e, true);
                self.blocks_until_end(out)?;
            }
        }
        Ok(())
    }

    pub fn block_empty(&mut self, e: &BytesStart<'_>, out: &mut Vec<Block>) {
        match e.local() {
            "p" => out.push(Block::Para(Para::default())),
            "bookmarkStart" | "commentRangeStart" | "commentRangeEnd" => {
                if let Some(item) = self.anchor_item(e) {
                    out.push(Block::Loose(item));
                }
            }
            "altChunk" => {
                let id = attr(e, "id").unwrap_or_default();
                match self.rels.get(id.as_ref()).filter(|r| !r.external) {
                    // Read with the other parts; the chunk's blocks take this place.
                    Some(rel) => out.push(Block::Para(Para {
                        chunks: vec![rel.target.clone()],
                        ..Para::default()
                    })),
                    None => self.warn(
                        WarningKind::MissingMedia,
                        format!(
                            "an embedded chunk (w:altChunk r:id=\"{id}\") names no part; dropped"
                        ),
                        "w:altChunk",
                    ),
                }
            }
            _ => {}
        }
    }

    /// A block-level content control (`w:sdt`): its content is read through; a tag naming a
    /// code language (our writer's) gives that language to the paragraphs inside.
    fn block_sdt(&mut self, out: &mut Vec<Block>) -> Result<()> {
        let mut language: Option<String> = None;
        let mut inner = Vec::new();
        loop {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    "sdtPr" => {
                        let target = self.r.depth().saturating_sub(1);
                        while self.r.depth() > target {
                            match self.r.next_event()? {
                                Event::Start(t) | Event::Empty(t) if t.local() == "tag" => {
                                    language = attr_string(&t, "val").and_then(|v| {
                                        v.strip_prefix(CODE_LANGUAGE_TAG).map(str::to_string)
                                    });
                                }
                                Event::Eof => return Err(self.eof()),
                                _ => {}
                            }
                        }
                    }
                    _ => self.block_start(&e, &mut inner)?,
                },
                Event::Empty(e) => self.block_empty(&e, &mut inner),
                Event::End(_) => break,
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
        if let Some(language) = language.filter(|l| crate::ast::is_code_language(l)) {
            for b in &mut inner {
                if let Block::Para(p) = b {
                    p.code_language = Some(language.clone());
                }
            }
        }
        out.append(&mut inner);
        Ok(())
    }

    /// A bookmark or comment range anchor.
    fn anchor_item(&mut self, e: &BytesStart<'_>) -> Option<Item> {
        match e.local() {
            "bookmarkStart" => {
                let name = attr_string(e, "name")?;
                // `_GoBack` is Word's "last edit position", not a target anyone set.
                if name.is_empty() || name == "_GoBack" {
                    return None;
                }
                self.facts.bookmarks.insert(name.clone());
                if let Some(id) = attr_string(e, "id") {
                    if self.open_bookmarks.len() < MAX_OPEN_BOOKMARKS {
                        let open = self.open_bookmarks.len()
                            + usize::from(!self.open_bookmarks.contains_key(&id));
                        self.half.opened(&id, open);
                        self.open_bookmarks.insert(id, name.clone());
                    }
                }
                Some(Item::Bookmark(name))
            }
            "commentRangeStart" => {
                let id = attr_string(e, "id")?;
                self.facts.comment_ranges.insert(id.clone());
                Some(Item::CommentStart(id))
            }
            "commentRangeEnd" => attr_string(e, "id").map(Item::CommentEnd),
            _ => None,
        }
    }

    /// Reads one branch of `mc:AlternateContent` (ECMA-376 Part 3 §10.2): the first `Choice`
    /// whose `Requires` namespaces we understand, else the `Fallback`; never both.
    pub fn alternate(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        let mut done = false;
        loop {
            match self.r.next_event()? {
                Event::Start(e) => {
                    let take = match e.local() {
                        "Choice" => !done && understood(attr(&e, "Requires").as_deref()),
                        "Fallback" => !done,
                        _ => false,
                    };
                    if take {
                        done = true;
                        match ctx {
                            Ctx::Blocks(out) => self.blocks_until_end(out)?,
                            Ctx::Inline(p) => self.inline_until_end(p)?,
                            Ctx::Run(run, p) => self.run_until_end(run, p)?,
                            Ctx::Drawing(st, p) => self.drawing_walk(st, p)?,
                        }
                    } else {
                        self.r.skip_element()?;
                    }
                }
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
    }

    /// An equation (`m:oMath`, or `m:oMathPara` for `display`) as formula runs of `p`; elements
    /// read as their text only are warned about once per name.
    fn math(&mut self, e: &BytesStart<'_>, display: bool, p: &mut Para) -> Result<()> {
        let omml = super::math::read(&mut self.r, e)?;
        for name in omml.unknown {
            self.warn_once(&name, WarningKind::Lossy, &name, || {
                format!("equation element {name} is not known: its text is kept as text")
            });
        }
        for math in omml.formulas {
            p.items.push(Item::Run(Run {
                props: Default::default(),
                content: smallvec::smallvec![RunItem::Math { display, math }],
            }));
        }
        Ok(())
    }

    // ---- paragraph level ---------------------------------------------------------------

    /// Reads paragraph content up to the end of the element whose start was just read.
    pub fn inline_until_end(&mut self, p: &mut Para) -> Result<()> {
        loop {
            match self.r.next_event()? {
                Event::Start(e) => self.inline_start(&e, p)?,
                Event::Empty(e) => self.inline_empty(&e, p),
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
    }

    fn inline_start(&mut self, e: &BytesStart<'_>, p: &mut Para) -> Result<()> {
        let local = e.local();
        match local {
            "pPr" => p.props = parse_ppr(&mut self.r)?,
            // Text without its run (broken producers): the text is what matters.
            "t" => {
                let text = element_text(&mut self.r)?;
                p.items.push(text_run(text));
            }
            "r" => {
                let mut run = Run::default();
                self.run_until_end(&mut run, p)?;
                // The whole body is parsed before any of it becomes the tree: content that
                // spilled out of line keeps no spare room until then.
                run.content.shrink_to_fit();
                p.items.push(Item::Run(run));
            }
            "hyperlink" => {
                let href = self.link_href(e);
                let linked = href.is_some();
                if let Some(h) = href {
                    p.items.push(Item::LinkStart(h));
                }
                self.inline_until_end(p)?;
                if linked {
                    p.items.push(Item::LinkEnd);
                }
            }
            "fldSimple" => {
                let instr = attr_string(e, "instr").unwrap_or_default();
                let seq = is_seq(&instr);
                p.items.push(Item::SimpleFieldStart(instr));
                self.inline_until_end(p)?;
                p.items.push(Item::SimpleFieldEnd);
                self.after_seq = seq;
                if seq {
                    self.seq_ended();
                }
            }
            "ins" | "moveTo" | "del" | "moveFrom" => {
                p.items.push(Item::ChangeStart(change_of(e)));
                self.inline_until_end(p)?;
                p.items.push(Item::ChangeEnd);
            }
            "sdt" | "sdtContent" | "smartTag" | "customXml" | "dir" | "bdo" => {
                self.inline_until_end(p)?
            }
            "oMath" => self.math(e, false, p)?,
            "oMathPara" => self.math(e, true, p)?,
            "AlternateContent" => self.alternate(&mut Ctx::Inline(p))?,
            "subDoc" => {
                self.warn(
                    WarningKind::Dropped,
                    "a linked subdocument (w:subDoc) is not imported",
                    "w:subDoc",
                );
                self.r.skip_element()?;
            }
            "bookmarkStart" | "commentRangeStart" | "commentRangeEnd" => {
                self.inline_empty(e, p);
                self.r.skip_element()?;
            }
            name if ignorable(name) => self.r.skip_element()?,
            _ => {
                self.unknown(e, true);
                self.inline_until_end(p)?;
            }
        }
        Ok(())
    }

    fn inline_empty(&mut self, e: &BytesStart<'_>, p: &mut Para) {
        match e.local() {
            "bookmarkEnd" => {
                let Some(id) = attr(e, "id") else { return };
                let seq_inside = self.seq_inside.remove(id.as_ref());
                match self.open_bookmarks.remove(id.as_ref()) {
                    Some(name) if self.after_seq => {
                        self.facts.number_bookmarks.insert(name);
                    }
                    // The caption's text came after its number, inside the bookmark.
                    Some(name) if seq_inside => {
                        self.facts.caption_bookmarks.insert(name);
                    }
                    Some(_) => {}
                    None => self.half.unknown_end(id.as_ref(), self.after_seq),
                }
            }
            "bookmarkStart" | "commentRangeStart" | "commentRangeEnd" => {
                if let Some(item) = self.anchor_item(e) {
                    p.items.push(item);
                }
            }
            "subDoc" => self.warn(
                WarningKind::Dropped,
                "a linked subdocument (w:subDoc) is not imported",
                "w:subDoc",
            ),
            _ => {}
        }
    }

    /// The href of a `w:hyperlink`: its relationship target, `#anchor`, or both joined.
    fn link_href(&mut self, e: &BytesStart<'_>) -> Option<LinkTarget> {
        let anchor = attr_string(e, "anchor").filter(|a| !a.is_empty());
        let target = match attr_string(e, "id") {
            Some(id) => match self.rels.get(&id) {
                Some(rel) => Some(rel.target.clone()),
                None => {
                    self.warn(
                        WarningKind::MissingMedia,
                        format!("hyperlink r:id=\"{id}\" names no relationship; its text is kept without the link"),
                        "w:hyperlink",
                    );
                    None
                }
            },
            None => None,
        };
        (target.is_some() || anchor.is_some()).then_some(LinkTarget { target, anchor })
    }
}

/// Paragraph-level elements that carry text (`w:t` itself for producers that drop the run).
fn inline_level(name: &str) -> bool {
    matches!(name, "r" | "t" | "hyperlink" | "fldSimple")
}

fn is_anchor(e: &BytesStart<'_>) -> bool {
    matches!(
        e.local(),
        "bookmarkStart" | "bookmarkEnd" | "commentRangeStart" | "commentRangeEnd"
    )
}

/// Ends a stretch of paragraph content met at block level: it becomes a paragraph.
fn flush_loose(loose: &mut Option<Para>, out: &mut Vec<Block>) {
    if let Some(p) = loose.take() {
        out.push(Block::Para(p));
    }
}

/// Whether every namespace prefix a `mc:Choice` requires is one whose content we read.
fn understood(requires: Option<&str>) -> bool {
    const KNOWN: [&str; 17] = [
        "wps", "wpg", "wpc", "wp14", "w14", "w15", "w16se", "w16cid", "w16cex", "w16du", "a14",
        "a", "pic", "v", "o", "m", "w10",
    ];
    match requires {
        None => false,
        Some(r) => {
            let mut any = false;
            for prefix in r.split_whitespace() {
                any = true;
                if !KNOWN.contains(&prefix) {
                    return false;
                }
            }
            any
        }
    }
}

/// A tracked change from `w:ins`/`w:del`/`w:moveTo`/`w:moveFrom`.
fn change_of(e: &BytesStart<'_>) -> Change {
    let kind = match e.local() {
        "del" | "moveFrom" => ChangeKind::Delete,
        _ => ChangeKind::Insert,
    };
    Change {
        kind,
        author: attr_string(e, "author").filter(|a| !a.is_empty()),
        date: attr_string(e, "date").filter(|d| !d.is_empty()),
    }
}

fn text_run(text: String) -> Item {
    Item::Run(Run {
        props: Default::default(),
        content: smallvec::smallvec![RunItem::Text(text)],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_requires_known_prefixes() {
        assert!(understood(Some("wps")));
        assert!(understood(Some("wps w14")));
        assert!(!understood(Some("cx1")));
        assert!(!understood(Some("")));
        assert!(!understood(None));
    }
}
