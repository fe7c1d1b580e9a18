//! `word/document.xml`: the body writer. One pass over the tree writes every block; what can only
//! be known at the end (tables of contents, cross-reference results to later targets) is left as
//! a marker and filled in by `Writer::resolve_markers`. The writer's state and the helpers
//! every step shares are in [`super::writer`].
//!
//! | node | Word markup |
//! |---|---|
//! | `paragraph` / `caption` | `Normal` / `Caption` |
//! | `heading` level L | `Heading L+1`, a `_Toc` bookmark |
//! | `heading-ol`, `paragraph-ol` | the same plus `w:numPr` on the shared outline numbering |
//! | `list-ol`, `list-ul` | `List Paragraph` + `w:numPr` ([`super::numbering`]) |
//! | code block (`code`) | `HTML Preformatted`, in a `w:sdt` tagged with the language |
//! | image | inline `w:drawing`, caption below (Caption style, `SEQ`) |
//! | table | `w:tbl` with `tblGrid`, `gridSpan`, `vMerge`, `tblHeader` (nested: `cnfStyle`); caption above |
//! | page break | `w:br w:type="page"` |
//! | directory | a TOC field (contents, figures, tables); other kinds are reported |
//! | block ids | `w:bookmarkStart/End` named by the id ([`super::writer::bookmark_name`]) |

use std::fmt::Write;

use crate::ast::numbering::{BlockNumber, number_at, number_blocks_if_any};
use crate::ast::{Align, Block, DirectoryKind, Image, Paragraph, TextType};
use crate::report::{Location, WarningKind};

use super::images::{display_size, word_can_show};
use super::numbering::Scope;
use super::writer::{CellFormat, MARK, Part, Target, TocEntry, Writer, push_jc, text_run};
use crate::ast::length::EMU_PER_TWIP;
use crate::export::paged;
use crate::ooxml::CODE_LANGUAGE_TAG;

impl<'a> Writer<'a> {
    /// The whole body: title, tables of contents, blocks, section properties.
    pub fn write_body(&mut self) -> String {
        let mut out = String::with_capacity(self.doc.blocks.len() * 400 + 4096);
        let meta = &self.doc.meta;
        for (text, style) in [(&meta.title, "Title"), (&meta.subtitle, "Subtitle")] {
            if let Some(t) = text.as_deref().filter(|t| crate::xml::has_xml_text(t)) {
                let _ = write!(out, r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#);
                text_run(&mut out, t, "", false);
                out.push_str("</w:p>");
            }
        }
        // Settings ask for TOCs; a directory block of the same kind in the tree places it,
        // otherwise it goes on top.
        for kind in paged::directories_on_top(self.doc, self.settings) {
            toc_marker(&mut out, kind);
        }
        let avail = self.tpl.page.text_width;
        let blocks = &self.doc.blocks;
        self.write_blocks(&mut out, blocks, avail, None, true);
        // Sections that start after the last block (the body ended with a section break).
        for (_, sect_pr) in std::mem::take(&mut self.section_ends) {
            super::page_parts::end_section(&mut out, &sect_pr);
        }
        self.block = None;
        for message in paged::hidden_caption_messages(self.hidden_captions) {
            self.report.warn(
                WarningKind::Lossy,
                message,
                Location::part("word/document.xml"),
            );
        }
        if self.source_styles.0 > 0 {
            let (n, example) = (self.source_styles.0, self.source_styles.1.take());
            self.report.warn(
                WarningKind::UnmappedStyle,
                format!(
                    "{n} paragraph(s) name a source style (e.g. {:?}); written in the template's styles",
                    example.unwrap_or_default()
                ),
                Location::part("word/document.xml"),
            );
        }
        out
    }

    /// Writes a list of blocks (the body or a cell) `avail` twips wide.
    pub fn write_blocks(
        &mut self,
        out: &mut String,
        blocks: &[Block],
        avail: u32,
        cell: Option<CellFormat>,
        top: bool,
    ) {
        // Most slices (cells) number nothing: their blocks take the default without a list.
        let numbers = number_blocks_if_any(blocks);
        let mut scope = self.numbering.scope(blocks);
        let outer_cell = std::mem::replace(&mut self.cell, cell);
        for (i, block) in blocks.iter().enumerate() {
            let number = number_at(&numbers, i);
            if top {
                self.block = Some(i);
                // The sections that end before this block.
                while self
                    .section_ends
                    .front()
                    .is_some_and(|(start, _)| *start <= i)
                {
                    if let Some((_, sect_pr)) = self.section_ends.pop_front() {
                        super::page_parts::end_section(out, &sect_pr);
                    }
                }
            }
            if !matches!(block, Block::Paragraph(p) if p.kind.is_list()) {
                scope.end_anonymous();
            }
            match block {
                Block::Paragraph(p) => {
                    self.write_paragraph(out, p, number, &mut scope, cell, avail)
                }
                Block::Image(img) => self.write_image(out, img, number, avail),
                Block::Table(t) => self.write_table(out, t, number, avail),
                Block::PageBreak => out.push_str(r#"<w:p><w:r><w:br w:type="page"/></w:r></w:p>"#),
                Block::Directory { kind } => match kind {
                    DirectoryKind::Content | DirectoryKind::Images | DirectoryKind::Tables => {
                        if *kind == DirectoryKind::Images && !self.settings.image_caption {
                            self.warn(WarningKind::Lossy, "directory", "a list of figures without image captions (imageCaption) has no entries");
                        }
                        if *kind == DirectoryKind::Tables && !self.settings.table_caption {
                            self.warn(WarningKind::Lossy, "directory", "a list of tables without table captions (tableCaption) has no entries");
                        }
                        toc_marker(out, *kind)
                    }
                    other => self.warn(
                        WarningKind::Dropped,
                        "directory",
                        format!(
                            "a generated list of {} has no Word field; left out",
                            other.as_str()
                        ),
                    ),
                },
            }
        }
        self.cell = outer_cell;
    }

    fn write_paragraph(
        &mut self,
        out: &mut String,
        p: &Paragraph,
        number: &BlockNumber,
        scope: &mut Scope,
        cell: Option<CellFormat>,
        avail: u32,
    ) {
        if let Some(style) = &p.style {
            self.source_styles.0 += 1;
            self.source_styles.1.get_or_insert_with(|| style.clone());
        }
        let assigned = self.numbering.assign(scope, p, number);
        let level = usize::from(p.level.min(5));
        let code = p.code.as_deref().filter(|_| p.kind == TextType::Paragraph);
        // A code block's language has no place in a paragraph: a content control tagged with
        // it wraps the paragraph (Word shows nothing of it; our reader reads it back).
        let language = code.filter(|l| !l.is_empty() && crate::ast::is_code_language(l));
        if let Some(language) = language {
            let _ = write!(
                out,
                r#"<w:sdt><w:sdtPr><w:tag w:val="{CODE_LANGUAGE_TAG}{language}"/></w:sdtPr><w:sdtContent>"#
            );
        }
        out.push_str("<w:p>");
        let mut ppr = self.ppr_room.take();
        match p.kind {
            TextType::Heading | TextType::HeadingOl => {
                let _ = write!(ppr, r#"<w:pStyle w:val="Heading{}"/>"#, level + 1);
            }
            TextType::ListOl | TextType::ListUl => {
                ppr.push_str(r#"<w:pStyle w:val="ListParagraph"/>"#)
            }
            TextType::Caption => ppr.push_str(r#"<w:pStyle w:val="Caption"/>"#),
            // Code blocks: Word's monospace "HTML Preformatted" style; runs keep their spaces
            // (`xml:space="preserve"` on every text).
            TextType::Paragraph if code.is_some() => {
                ppr.push_str(r#"<w:pStyle w:val="HTMLPreformatted"/>"#)
            }
            TextType::Paragraph | TextType::ParagraphOl => {}
        }
        if let Some(a) = &assigned {
            let _ = write!(
                ppr,
                r#"<w:numPr><w:ilvl w:val="{}"/><w:numId w:val="{}"/></w:numPr>"#,
                a.ilvl, a.num_id
            );
        }
        self.push_paragraph_bidi(&mut ppr, p);
        if p.indent > 0 && !p.kind.is_list() {
            let ind = self.indent(p.indent, avail);
            let _ = write!(ppr, r#"<w:ind w:left="{ind}"/>"#);
        }
        match (p.align, cell) {
            // The cell's alignment and size go on each of its paragraphs, the alignment
            // explicit even when left: Word has no cell-level `w:jc`, and a reader takes the
            // alignment and mark size all of a cell's paragraphs share for the cell's.
            (Align::Left, Some(format)) => format.push_paragraph_props(&mut ppr),
            (a, Some(format)) => {
                push_jc(&mut ppr, a);
                format.push_mark_size(&mut ppr);
            }
            (a, None) => push_jc(&mut ppr, a),
        }
        if let Some(mark) = &p.mark {
            // The paragraph mark's change comes first in the mark's properties (CT_ParaRPr).
            let change = self.mark_change(&mark.into());
            match ppr.find("<w:rPr>") {
                Some(at) => ppr.insert_str(at + "<w:rPr>".len(), &change),
                None => {
                    let _ = write!(ppr, "<w:rPr>{change}</w:rPr>");
                }
            }
        }
        if let Some(lang) = self.paragraph_mark_lang(p) {
            // The mark's language ends its properties (CT_ParaRPr).
            match ppr.find("</w:rPr>") {
                Some(at) => ppr.insert_str(at, &lang),
                None => {
                    let _ = write!(ppr, "<w:rPr>{lang}</w:rPr>");
                }
            }
        }
        if !ppr.is_empty() {
            out.push_str("<w:pPr>");
            out.push_str(&ppr);
            out.push_str("</w:pPr>");
        }
        self.ppr_room.give_back(ppr);
        let toc = if p.kind.is_heading() {
            let name = self.toc_bookmark();
            let id = self.bookmark_start(out, &name);
            Some((name, id))
        } else {
            None
        };
        // A paragraph holding cross-references gets an empty bookmark: wrapped, a REF to it
        // would contain REFs, and a cycle of them makes LibreOffice loop while loading.
        let holds_refs = contains_cross_ref(&p.content);
        let id_bookmark = p.id.as_deref().map(|id| {
            let name = self.bookmark_for_id(id);
            let bid = self.bookmark_start(out, &name);
            if holds_refs {
                let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
            }
            (name, bid)
        });
        let ctx = super::runs::RunContext {
            size: cell.and_then(|c| c.size),
            avail_emu: u64::from(avail) * EMU_PER_TWIP,
        };
        self.lang_context = self.paragraph_lang_context(p);
        self.write_inlines(out, Part::Document, &p.content, &ctx);
        if let Some((_, bid)) = id_bookmark.as_ref().filter(|_| !holds_refs) {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
        if let Some((_, tid)) = &toc {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{tid}"/>"#);
        }
        out.push_str("</w:p>");
        if language.is_some() {
            out.push_str("</w:sdtContent></w:sdt>");
        }
        // The text is kept only for a TOC entry or a cross-reference target.
        let text = if toc.is_some() || id_bookmark.is_some() {
            let text = crate::ast::inline::plain_text(&p.content);
            if text.contains('\n') {
                text.replace('\n', " ")
            } else {
                text
            }
        } else {
            String::new()
        };
        let label = assigned
            .as_ref()
            .map(|a| a.label.clone())
            .filter(|l| !l.is_empty());
        if let Some((name, _)) = toc {
            if !text.trim().is_empty() {
                let shown = match &label {
                    Some(l) if p.kind == TextType::HeadingOl => format!("{l} {text}"),
                    _ => text.clone(),
                };
                self.headings.push(TocEntry {
                    level,
                    text: shown,
                    bookmark: name,
                    block: self.block,
                });
            }
        }
        if let (Some(id), Some((name, _))) = (&p.id, id_bookmark) {
            self.targets.insert(
                id.clone(),
                Target {
                    bookmark: name,
                    number: label,
                    text,
                    caption: false,
                },
            );
        }
    }

    fn write_image(&mut self, out: &mut String, img: &Image, number: &BlockNumber, avail: u32) {
        let caption = img
            .caption
            .as_deref()
            .filter(|c| (!c.is_empty() || number.caption.is_some()) && self.settings.image_caption);
        out.push_str("<w:p>");
        let mut ppr = String::new();
        if caption.is_some() {
            ppr.push_str("<w:keepNext/>");
        }
        if img.indent > 0 {
            let ind = self.indent(img.indent, avail);
            let _ = write!(ppr, r#"<w:ind w:left="{ind}"/>"#);
        }
        push_jc(&mut ppr, img.align);
        // A cell's font size is its paragraph marks' (a picture's paragraph too): a reader
        // takes the size of a cell only when every paragraph in it has that mark.
        if let Some(cell) = self.cell {
            cell.push_mark_size(&mut ppr);
        }
        if !ppr.is_empty() {
            let _ = write!(out, "<w:pPr>{ppr}</w:pPr>");
        }
        // Without a caption, the block's bookmark wraps the picture.
        let id_bookmark = match (caption, &img.id) {
            (None, Some(id)) => {
                Some(self.block_bookmark(out, id, img.alt.clone().unwrap_or_default()))
            }
            _ => None,
        };
        let avail_emu = u64::from(avail) * EMU_PER_TWIP;
        self.picture(
            out,
            Part::Document,
            &img.media,
            img.alt.as_deref(),
            None,
            img.width_percent,
            img.extent,
            avail_emu,
            "image",
        );
        if let Some(bid) = id_bookmark {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
        out.push_str("</w:p>");
        if img.caption.as_deref().is_some_and(|c| !c.is_empty()) && caption.is_none() {
            self.hidden_captions.0 += 1;
        }
        if let Some(text) = caption {
            let numbered = number.caption.is_some();
            self.write_caption(
                out,
                super::captions::CaptionKind::Figure,
                numbered,
                text,
                img.id.as_deref(),
                false,
            );
        }
    }

    /// Writes an inline picture of media `name`, or reports why it cannot.
    #[allow(clippy::too_many_arguments)]
    pub fn picture(
        &mut self,
        out: &mut String,
        part: Part,
        name: &str,
        alt: Option<&str>,
        title: Option<&str>,
        width_percent: Option<f32>,
        extent: Option<crate::ast::Extent>,
        avail_emu: u64,
        element: &str,
    ) {
        let Some(item) = self.doc.media.get(name) else {
            self.warn(
                WarningKind::MissingMedia,
                element,
                format!("image {name} is not in the media store; left out"),
            );
            return;
        };
        if !word_can_show(item.kind) {
            self.warn(
                WarningKind::Dropped,
                element,
                format!(
                    "image {name} is {}, which Word cannot show; left out",
                    item.kind.mime()
                ),
            );
            return;
        }
        let pixels = item.width.zip(item.height);
        let (cx, cy, known) = display_size(width_percent, extent, pixels, avail_emu);
        if !known {
            self.warn(
                WarningKind::InvalidValue,
                element,
                format!("image {name} has no known size; shown at 4:3"),
            );
        }
        let rel = self.media_rel(part, name, cx);
        let id = self.next_doc_pr;
        self.next_doc_pr += 1;
        super::images::drawing(
            out,
            &rel,
            id,
            (cx, cy),
            alt.unwrap_or(""),
            title.unwrap_or(""),
        );
    }

    /// Replaces markers left in `text` with tables of contents and cross-reference fields.
    pub fn resolve_markers(&mut self, text: String) -> String {
        self.resolve(text, true)
    }

    /// Replaces the cross-reference markers left in `text` and keeps the table-of-contents
    /// markers, which wait for the pages ([`Writer::pages`]); [`Writer::resolve_markers`] then
    /// gives what it gives on the whole text (only cross-references warn, in the same order).
    pub fn resolve_refs(&mut self, text: String) -> String {
        self.resolve(text, false)
    }

    fn resolve(&mut self, text: String, tocs: bool) -> String {
        if !text.contains(MARK) {
            return text;
        }
        let mut out = String::with_capacity(text.len() + 4096);
        for (i, piece) in text.split(MARK).enumerate() {
            if i % 2 == 0 {
                out.push_str(piece);
                continue;
            }
            match piece.split_at_checked(1) {
                Some(("T", kind)) if tocs => {
                    let kind = DirectoryKind::parse(kind).unwrap_or(DirectoryKind::Content);
                    self.render_toc(&mut out, kind);
                }
                Some(("T", _)) => {
                    out.push(MARK);
                    out.push_str(piece);
                    out.push(MARK);
                }
                Some(("R", n)) => {
                    if let Some(r) = n
                        .parse::<usize>()
                        .ok()
                        .and_then(|n| self.refs.get(n).cloned())
                    {
                        self.render_ref(&mut out, &r);
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Whether inline content holds a cross-reference (outside notes, which are other stories).
fn contains_cross_ref(inlines: &[crate::ast::Inline]) -> bool {
    inlines.iter().any(|i| match i {
        crate::ast::Inline::CrossRef { .. } => true,
        other => other.children().is_some_and(contains_cross_ref),
    })
}

fn toc_marker(out: &mut String, kind: DirectoryKind) {
    out.push(MARK);
    out.push('T');
    out.push_str(kind.as_str());
    out.push(MARK);
}
