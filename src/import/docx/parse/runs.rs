//! Stage one at run level (`w:r`, ECMA-376 §17.3.2): text, tabs, breaks, symbols, field
//! characters and instructions, note and comment references, ruby, pictures and charts (through
//! [`super::drawing`]), as [`RunItem`]s of the run being read.

use crate::xml::LocalName;
use quick_xml::events::{BytesStart, Event};

use super::model::{BreakKind, Para, Run, RunItem};
use super::parser::{BodyParser, Ctx, ignorable, is_seq};
use super::props::parse_rpr;
use super::symbols::Symbol;
use super::xmlutil::{attr, attr_string, element_text};
use crate::ast::NoteKind;
use crate::error::Result;
use crate::report::WarningKind;

impl BodyParser<'_, '_> {
    /// Reads run content up to the end of the element whose start was just read.
    pub fn run_until_end(&mut self, run: &mut Run, p: &mut Para) -> Result<()> {
        loop {
            match self.r.next_event()? {
                Event::Start(e) => self.run_start(&e, run, p)?,
                Event::Empty(e) => self.run_empty(&e, run),
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
    }

    pub(super) fn run_start(
        &mut self,
        e: &BytesStart<'_>,
        run: &mut Run,
        p: &mut Para,
    ) -> Result<()> {
        let local = e.local();
        match local {
            "rPr" => run.props = parse_rpr(&mut self.r)?,
            "t" | "delText" => {
                let text = element_text(&mut self.r)?;
                if !text.is_empty() && self.field_instrs.is_empty() {
                    self.after_seq = false;
                }
                push_owned_text(run, text);
            }
            "instrText" | "delInstrText" => {
                let text = element_text(&mut self.r)?;
                if let Some(instr) = self.field_instrs.last_mut() {
                    if instr.len() < 1024 {
                        instr.push_str(&text);
                    }
                }
                run.content.push(RunItem::Instr(text));
            }
            "drawing" => self.drawing(run, p)?,
            "pict" | "object" => self.vml(run, p)?,
            "AlternateContent" => self.alternate(&mut Ctx::Run(run, p))?,
            "ruby" => self.ruby(run, p)?,
            // Runs nested in runs (broken producers) and run-level wrappers: read through.
            "r" | "sdt" | "sdtContent" | "smartTag" | "customXml" => self.run_until_end(run, p)?,
            "tab" | "ptab" | "br" | "cr" | "sym" | "symEx" | "softHyphen" | "noBreakHyphen"
            | "fldChar" | "footnoteReference" | "endnoteReference" | "commentReference" => {
                self.run_empty(e, run);
                self.r.skip_element()?;
            }
            name if ignorable_in_run(name) || ignorable(name) => self.r.skip_element()?,
            _ => {
                self.unknown(e, false);
                self.r.skip_element()?;
            }
        }
        Ok(())
    }

    pub(super) fn run_empty(&mut self, e: &BytesStart<'_>, run: &mut Run) {
        let local = e.local();
        match local {
            "tab" | "ptab" => push_text(run, "\t"),
            "br" => {
                let kind = match attr(e, "type").as_deref() {
                    Some("page") => BreakKind::Page,
                    Some("column") => BreakKind::Column,
                    _ => BreakKind::Line,
                };
                run.content.push(RunItem::Break(kind));
            }
            "cr" => run.content.push(RunItem::Break(BreakKind::Line)),
            // Word 2016's `w16se:symEx` (the `mc:Choice` for an emoji, `w16se` being a
            // namespace we choose) names the character by its Unicode code point; the
            // `mc:Fallback` it replaces holds the same character as text.
            "symEx" => {
                if let Some(c) = attr(e, "char")
                    .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
                    .and_then(char::from_u32)
                    .filter(|c| !c.is_control())
                {
                    push_text(run, c.encode_utf8(&mut [0; 4]));
                }
            }
            "sym" => {
                let font = attr(e, "font");
                let shown = attr(e, "char")
                    .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
                    .and_then(|code| super::symbols::resolve(font.as_deref(), code));
                match shown {
                    Some(Symbol::Mapped(c) | Symbol::Plain(c)) => {
                        push_text(run, c.encode_utf8(&mut [0; 4]))
                    }
                    Some(Symbol::Unknown(c)) => {
                        // Kept as the private-use code: in its font it still shows the glyph.
                        let font = font.as_deref().unwrap_or("no font");
                        let key = format!("sym:{font}:{:X}", u32::from(c));
                        self.warn_once(&key, WarningKind::Lossy, "w:sym", || {
                            format!(
                                "symbol U+{:04X} of the font {font:?} has no Unicode equivalent; kept as that code, which shows only in that font",
                                u32::from(c)
                            )
                        });
                        push_text(run, c.encode_utf8(&mut [0; 4]));
                    }
                    None => self.warn(
                        WarningKind::InvalidValue,
                        "a w:sym without a readable w:char is dropped",
                        "w:sym",
                    ),
                }
            }
            "softHyphen" => push_text(run, "\u{AD}"),
            "noBreakHyphen" => push_text(run, "\u{2011}"),
            "fldChar" => match attr(e, "fldCharType").as_deref() {
                Some("begin") => {
                    self.facts.field_depth += 1;
                    if self.field_instrs.len() < 64 {
                        self.field_instrs.push(String::new());
                    }
                    run.content.push(RunItem::FieldBegin);
                }
                Some("separate") => run.content.push(RunItem::FieldSeparate),
                Some("end") => {
                    self.after_seq = self.field_instrs.pop().is_some_and(|i| is_seq(&i));
                    if self.after_seq {
                        self.seq_ended();
                    }
                    self.facts.field_depth -= 1;
                    if self.facts.field_depth < 0 {
                        self.facts.field_underflow = true;
                        self.facts.field_depth = 0;
                    }
                    run.content.push(RunItem::FieldEnd);
                }
                _ => {}
            },
            "footnoteReference" | "endnoteReference" => {
                let kind = if local == "footnoteReference" {
                    NoteKind::Footnote
                } else {
                    NoteKind::Endnote
                };
                if let Some(id) = attr_string(e, "id") {
                    run.content.push(RunItem::NoteRef(kind, id));
                }
            }
            "commentReference" => {
                if let Some(id) = attr_string(e, "id") {
                    run.content.push(RunItem::CommentRef(id));
                }
            }
            "t" | "delText" | "instrText" | "delInstrText" | "rPr" => {}
            name if ignorable_in_run(name) || ignorable(name) => {}
            "drawing" | "pict" | "object" => {}
            _ => self.unknown(e, false),
        }
    }

    /// `w:ruby`: the base text with its reading (`w:rt`), as plain text each.
    pub(super) fn ruby(&mut self, run: &mut Run, p: &mut Para) -> Result<()> {
        let (mut base, mut reading) = (Run::default(), Run::default());
        loop {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    "rubyBase" => self.run_children_of_container(&mut base, p)?,
                    "rt" => self.run_children_of_container(&mut reading, p)?,
                    _ => self.r.skip_element()?,
                },
                Event::End(_) => break,
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
        let text = |r: Run| -> String {
            r.content
                .into_iter()
                .filter_map(|c| match c {
                    RunItem::Text(t) => Some(t),
                    _ => None,
                })
                .collect()
        };
        let (base, reading) = (text(base), text(reading));
        if !base.is_empty() || !reading.is_empty() {
            run.content.push(RunItem::Ruby(base, reading));
        }
        Ok(())
    }

    /// Reads the `w:r` children of a container (ruby base or text) into `run`.
    pub(super) fn run_children_of_container(&mut self, run: &mut Run, p: &mut Para) -> Result<()> {
        loop {
            match self.r.next_event()? {
                Event::Start(e) if e.local() == "r" => {
                    let mut inner = Run::default();
                    self.run_until_end(&mut inner, p)?;
                    run.content.append(&mut inner.content);
                }
                Event::Start(_) => self.r.skip_element()?,
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.eof()),
                _ => {}
            }
        }
    }
}

/// Run children that carry nothing the tree keeps (the note number inside a note, separators,
/// rendering hints, header/footer date glyphs).
fn ignorable_in_run(name: &str) -> bool {
    matches!(
        name,
        "lastRenderedPageBreak"
            | "footnoteRef"
            | "endnoteRef"
            | "separator"
            | "continuationSeparator"
            | "annotationRef"
            | "pgNum"
            | "dayShort"
            | "dayLong"
            | "monthShort"
            | "monthLong"
            | "yearShort"
            | "yearLong"
            | "fldData"
            | "rsid"
    )
}

/// Appends owned text to a run (no copy when it starts a new text item).
fn push_owned_text(run: &mut Run, text: String) {
    if text.is_empty() {
        return;
    }
    if let Some(RunItem::Text(prev)) = run.content.last_mut() {
        prev.push_str(&text);
    } else {
        run.content.push(RunItem::Text(text));
    }
}

/// Appends text to a run, merging with text just before.
pub fn push_text(run: &mut Run, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(RunItem::Text(prev)) = run.content.last_mut() {
        prev.push_str(text);
    } else {
        run.content.push(RunItem::Text(text.to_string()));
    }
}
