//! Stage one: run and paragraph properties (`w:rPr`, `w:pPr`, `w:sectPr`) as plain values, shared
//! by styles, numbering and the body. Every field is optional so the style hierarchy can be merged
//! (ECMA-376 §17.7.2: document defaults, paragraph style, character style, direct formatting).

use compact_str::CompactString;
use quick_xml::events::{BytesStart, Event};

use super::xmlutil::{attr, attr_string, is_off, on_off, twips, val};
use crate::ast::{Align, Change, ChangeKind};
use crate::error::Result;
use crate::xml::{LocalName, XmlReader};

/// Vertical alignment of a run (`w:vertAlign`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VertAlign {
    /// On the baseline (explicitly reset).
    Baseline,
    /// Raised.
    Super,
    /// Lowered.
    Sub,
}

/// `w:lang`: the three languages of a run, one per script class (ECMA-376 §17.3.2.20); each
/// attribute is inherited on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LangSlots {
    /// `w:val`: Latin and other simple scripts.
    pub val: Option<String>,
    /// `w:eastAsia`: Chinese, Japanese, Korean.
    pub east_asia: Option<String>,
    /// `w:bidi`: right-to-left and complex scripts.
    pub bidi: Option<String>,
}

impl LangSlots {
    /// Reads a `w:lang` (or `w:themeFontLang`) element's attributes; values that are no language
    /// tag are left out.
    pub fn from_element(e: &BytesStart<'_>) -> LangSlots {
        let tag = |name| attr(e, name).and_then(|v| crate::lang_tag::normalize(&v));
        LangSlots {
            val: tag("val"),
            east_asia: tag("eastAsia"),
            bidi: tag("bidi"),
        }
    }

    /// Lays `other` over `self`, attribute by attribute.
    pub fn overlay(&mut self, other: &LangSlots) {
        for (a, b) in [
            (&mut self.val, &other.val),
            (&mut self.east_asia, &other.east_asia),
            (&mut self.bidi, &other.bidi),
        ] {
            if b.is_some() {
                a.clone_from(b);
            }
        }
    }

    /// The language of a slot.
    pub fn get(&self, slot: crate::lang_tag::Slot) -> Option<&str> {
        use crate::lang_tag::Slot;
        match slot {
            Slot::Latin => self.val.as_deref(),
            Slot::EastAsian => self.east_asia.as_deref(),
            Slot::Complex => self.bidi.as_deref(),
        }
    }

    /// The first language set, `w:val` first: what a paragraph mark says when it has no text.
    pub fn any(&self) -> Option<&str> {
        self.val
            .as_deref()
            .or(self.east_asia.as_deref())
            .or(self.bidi.as_deref())
    }
}

/// Character formatting. `None` = not said at this level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunProps {
    /// A tracked insertion or deletion of what the properties belong to (`w:ins`, `w:del`
    /// inside `w:rPr`): for a paragraph mark's properties, the mark's own change. Boxed: most
    /// runs have none, and every run of a part is held until the part is parsed.
    pub change: Option<Box<Change>>,
    /// Character style id (`w:rStyle`); direct formatting only.
    pub style: Option<String>,
    /// `w:b` (toggle).
    pub bold: Option<bool>,
    /// `w:i` (toggle).
    pub italic: Option<bool>,
    /// `w:u` not `none`.
    pub underline: Option<bool>,
    /// `w:strike` (toggle).
    pub strike: Option<bool>,
    /// `w:dstrike` (toggle).
    pub dstrike: Option<bool>,
    /// `w:smallCaps` (toggle).
    pub small_caps: Option<bool>,
    /// `w:vertAlign`.
    pub vert_align: Option<VertAlign>,
    /// `w:rFonts@ascii` (or `hAnsi`).
    pub font: Option<String>,
    /// `w:sz` in half-points.
    pub size: Option<u32>,
    /// `w:rtl`: right-to-left run (its complex-script properties and language apply).
    pub rtl: Option<bool>,
    /// `w:lang`.
    pub lang: LangSlots,
}

impl RunProps {
    /// Lays `other` over `self`: what `other` says wins.
    pub fn overlay(&mut self, other: &RunProps) {
        fn o<T: Clone>(a: &mut Option<T>, b: &Option<T>) {
            if b.is_some() {
                a.clone_from(b);
            }
        }
        o(&mut self.style, &other.style);
        o(&mut self.bold, &other.bold);
        o(&mut self.italic, &other.italic);
        o(&mut self.underline, &other.underline);
        o(&mut self.strike, &other.strike);
        o(&mut self.dstrike, &other.dstrike);
        o(&mut self.small_caps, &other.small_caps);
        o(&mut self.vert_align, &other.vert_align);
        o(&mut self.font, &other.font);
        o(&mut self.size, &other.size);
        o(&mut self.rtl, &other.rtl);
        self.lang.overlay(&other.lang);
    }
}

/// `w:numPr`: which list and level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NumPr {
    /// `w:numId`; `"0"` means "no numbering" (§17.9.18).
    pub num_id: Option<String>,
    /// `w:ilvl`.
    pub ilvl: Option<u8>,
}

/// What a section (`w:sectPr`) says that matters here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Section {
    /// Page width minus left and right margins (and gutter), in EMU.
    pub text_width: Option<u64>,
    /// Page headers (`w:headerReference`): (`w:type`, `r:id`), the type `default` when absent.
    pub headers: Vec<(String, String)>,
    /// Page footers (`w:footerReference`), as the headers.
    pub footers: Vec<(String, String)>,
    /// `w:titlePg`: the first page has its own header and footer.
    pub title_page: bool,
}

/// Paragraph formatting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParaProps {
    /// Paragraph style id (`w:pStyle`): inline up to 24 bytes (most ids), read for every
    /// paragraph that names one.
    pub style: Option<CompactString>,
    /// Numbering (`w:numPr`).
    pub num: Option<NumPr>,
    /// `w:outlineLvl` 0..=8 (9 = body text).
    pub outline: Option<u8>,
    /// `w:jc`.
    pub align: Option<Align>,
    /// `w:pageBreakBefore`.
    pub page_break_before: Option<bool>,
    /// `w:ind@w:left` (or `@w:start`) in twips, when the paragraph itself sets it.
    pub indent_left: Option<i64>,
    /// A section ends with this paragraph (`w:sectPr` inside `w:pPr`).
    pub section: Option<Box<Section>>,
    /// The paragraph mark's `w:sz` in half-points (`w:pPr/w:rPr`); direct formatting only.
    pub mark_size: Option<u32>,
    /// The paragraph mark's tracked change (`w:pPr/w:rPr/w:ins|w:del`).
    pub mark_change: Option<Box<Change>>,
    /// `w:keepNext`: kept on the page with the next paragraph (a caption above its table).
    pub keep_next: Option<bool>,
    /// `w:bidi`: a right-to-left paragraph.
    pub bidi: Option<bool>,
    /// The paragraph mark's `w:lang` (`w:pPr/w:rPr`): the language of a paragraph without text.
    pub mark_lang: LangSlots,
}

impl ParaProps {
    /// Lays `other` over `self` (style inheritance); sections are never inherited.
    pub fn overlay(&mut self, other: &ParaProps) {
        if other.style.is_some() {
            self.style.clone_from(&other.style);
        }
        if other.num.is_some() {
            self.num.clone_from(&other.num);
        }
        if other.outline.is_some() {
            self.outline = other.outline;
        }
        if other.align.is_some() {
            self.align = other.align;
        }
        if other.page_break_before.is_some() {
            self.page_break_before = other.page_break_before;
        }
        if other.keep_next.is_some() {
            self.keep_next = other.keep_next;
        }
        if other.bidi.is_some() {
            self.bidi = other.bidi;
        }
    }
}

/// Parses the `w:rPr` whose `Start` was just read, up to its end.
pub fn parse_rpr(r: &mut XmlReader<'_>) -> Result<RunProps> {
    let mut p = RunProps::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => {
                apply_rpr_child(&e, &mut p);
                // Children of rPr children (`w:rPrChange`'s old formatting, `w:ins`) are not
                // current formatting: skip them whole.
                r.skip_element()?;
            }
            Event::Empty(e) => apply_rpr_child(&e, &mut p),
            Event::Eof => return Err(r.invalid("the part ends inside w:rPr")),
            _ => {}
        }
    }
    Ok(p)
}

fn apply_rpr_child(e: &BytesStart<'_>, p: &mut RunProps) {
    match e.local() {
        kind @ ("ins" | "del") => {
            p.change = Some(Box::new(Change {
                kind: if kind == "ins" {
                    ChangeKind::Insert
                } else {
                    ChangeKind::Delete
                },
                author: attr_string(e, "author").filter(|a| !a.is_empty()),
                date: attr_string(e, "date").filter(|d| !d.is_empty()),
            }))
        }
        "rStyle" => p.style = val(e),
        "b" => p.bold = Some(on_off(e)),
        "i" => p.italic = Some(on_off(e)),
        "strike" => p.strike = Some(on_off(e)),
        "dstrike" => p.dstrike = Some(on_off(e)),
        "smallCaps" => p.small_caps = Some(on_off(e)),
        "u" => {
            p.underline = Some(match attr(e, "val") {
                Some(v) => !(v == "none" || is_off(&v)),
                None => true,
            })
        }
        "vertAlign" => {
            p.vert_align = match attr(e, "val").as_deref() {
                Some("superscript") => Some(VertAlign::Super),
                Some("subscript") => Some(VertAlign::Sub),
                Some(_) => Some(VertAlign::Baseline),
                None => None,
            }
        }
        "sz" => p.size = attr(e, "val").and_then(|v| half_points(&v)),
        "rtl" => p.rtl = Some(on_off(e)),
        "lang" => p.lang = LangSlots::from_element(e),
        "rFonts" => {
            if let Some(f) = attr_string(e, "ascii").or_else(|| attr_string(e, "hAnsi")) {
                p.font = Some(f);
            }
        }
        _ => {}
    }
}

/// An ST_HpsMeasure: whole half-points, or a length with a unit (ISO Strict's `9.5pt`). `None`
/// when unreadable or not positive (the size then comes from the styles).
fn half_points(v: &str) -> Option<u32> {
    let v = v.trim();
    let h = match v.parse::<u32>() {
        Ok(h) => h,
        Err(_) => (twips(v)? as f64 / 10.0).round().clamp(0.0, 3276.0) as u32,
    };
    (h > 0).then_some(h.min(3276))
}

/// Parses the `w:pPr` whose `Start` was just read, up to its end.
pub fn parse_ppr(r: &mut XmlReader<'_>) -> Result<ParaProps> {
    let mut p = ParaProps::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "numPr" => p.num = Some(parse_numpr(r)?),
                "sectPr" => p.section = Some(Box::new(parse_sectpr(r)?)),
                "rPr" => {
                    let mark = parse_rpr(r)?;
                    p.mark_size = mark.size;
                    p.mark_change = mark.change;
                    p.mark_lang = mark.lang;
                }
                _ => {
                    apply_ppr_child(&e, &mut p);
                    r.skip_element()?;
                }
            },
            Event::Empty(e) => match e.local() {
                "numPr" => p.num = Some(NumPr::default()),
                "sectPr" => p.section = Some(Box::default()),
                _ => apply_ppr_child(&e, &mut p),
            },
            Event::Eof => return Err(r.invalid("the part ends inside w:pPr")),
            _ => {}
        }
    }
    Ok(p)
}

fn apply_ppr_child(e: &BytesStart<'_>, p: &mut ParaProps) {
    match e.local() {
        "pStyle" => p.style = attr(e, "val").map(|v| CompactString::from(&*v)),
        "outlineLvl" => p.outline = attr(e, "val").and_then(|v| v.trim().parse().ok()),
        "jc" => {
            p.align = match attr(e, "val").as_deref() {
                Some("center") => Some(Align::Center),
                Some("right" | "end") => Some(Align::Right),
                Some(
                    "both" | "distribute" | "lowKashida" | "mediumKashida" | "highKashida"
                    | "thaiDistribute",
                ) => Some(Align::Justify),
                Some(_) => Some(Align::Left),
                None => None,
            }
        }
        "pageBreakBefore" => p.page_break_before = Some(on_off(e)),
        "keepNext" => p.keep_next = Some(on_off(e)),
        "bidi" => p.bidi = Some(on_off(e)),
        "ind" => {
            p.indent_left = attr(e, "left")
                .or_else(|| attr(e, "start"))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map(|v| v.round().clamp(-31_680.0, 31_680.0) as i64);
        }
        _ => {}
    }
}

fn parse_numpr(r: &mut XmlReader<'_>) -> Result<NumPr> {
    let mut n = NumPr::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) | Event::Empty(e) => match e.local() {
                "numId" => n.num_id = val(&e).map(|v| v.trim().to_string()),
                "ilvl" => n.ilvl = val(&e).and_then(|v| v.trim().parse().ok()),
                _ => {}
            },
            Event::Eof => return Err(r.invalid("the part ends inside w:numPr")),
            _ => {}
        }
    }
    Ok(n)
}

/// Parses the `w:sectPr` whose `Start` was just read, up to its end.
pub fn parse_sectpr(r: &mut XmlReader<'_>) -> Result<Section> {
    let mut s = Section::default();
    let (mut width, mut left, mut right, mut gutter) = (None, 0i64, 0i64, 0i64);
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) | Event::Empty(e) => match e.local() {
                "pgSz" => width = attr(&e, "w").and_then(|v| twips(&v)),
                "pgMar" => {
                    let get = |n| attr(&e, n).and_then(|v| twips(&v)).unwrap_or(0);
                    left = get("left");
                    right = get("right");
                    gutter = get("gutter");
                }
                kind @ ("headerReference" | "footerReference") => {
                    // A section has three of each at most; more are not Word's.
                    let list = if kind == "headerReference" {
                        &mut s.headers
                    } else {
                        &mut s.footers
                    };
                    if let Some(id) = attr_string(&e, "id")
                        && list.len() < 3
                    {
                        let ty = attr_string(&e, "type").unwrap_or_else(|| "default".into());
                        list.push((ty, id));
                    }
                }
                "titlePg" => s.title_page = on_off(&e),
                _ => {}
            },
            Event::Eof => return Err(r.invalid("the part ends inside w:sectPr")),
            _ => {}
        }
    }
    if let Some(w) = width {
        let text = w - left.max(0) - right.max(0) - gutter.max(0);
        if text > 0 {
            // 635 EMU per twip.
            s.text_width = Some(text as u64 * 635);
        }
    }
    Ok(s)
}
