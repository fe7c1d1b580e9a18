//! Stage one: `word/styles.xml` (ECMA-376 §17.7): styles by id with names, `basedOn` chains
//! resolved (cycles cut), document defaults, and the merged paragraph/run properties of every
//! style.
//!
//! Built-in styles keep their English `w:name` (`heading 1`, `caption`) in nearly every file
//! whatever the UI language; when a producer localised the name, [`heading_number_from_id`] also
//! recognises the style id pattern (`berschrift1`, `Titre1`, `Heading1`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use foldhash::fast::RandomState as FastHash;

use quick_xml::events::Event;

use super::props::{ParaProps, RunProps, parse_ppr, parse_rpr};
use super::xmlutil::{attr_string, on_off, val};
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// Longest `basedOn` chain followed; Word itself stops far earlier.
const MAX_CHAIN: usize = 64;

/// What a style applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StyleKind {
    /// Paragraph style.
    Paragraph,
    /// Character style.
    Character,
    /// Table style.
    Table,
    /// Numbering style.
    Numbering,
}

/// One `w:style`.
#[derive(Debug, Clone)]
pub struct Style {
    /// `w:styleId`.
    pub id: String,
    /// `w:name`.
    pub name: Option<String>,
    /// The name shown: `w:name`, else the id, set when the style is added to [`Styles`].
    /// Every run in a character style holds it in a mark, so it is shared, not copied per run.
    pub shown: Arc<str>,
    /// `w:type`.
    pub kind: StyleKind,
    /// `w:basedOn`.
    pub based_on: Option<String>,
    /// `w:default="1"`.
    pub is_default: bool,
    /// `w:customStyle="1"`: made by a user, not built in.
    pub custom: bool,
    /// `w:link`: the paragraph/character twin of a linked style.
    pub linked: bool,
    /// The style's own paragraph properties.
    pub ppr: ParaProps,
    /// The style's own run properties.
    pub rpr: RunProps,
}

/// A style with its `basedOn` chain merged in.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// Paragraph properties, ancestors overlaid by descendants.
    pub ppr: ParaProps,
    /// Run properties, ancestors overlaid by descendants.
    pub rpr: RunProps,
}

/// All styles of a document.
#[derive(Debug, Clone, Default)]
pub struct Styles {
    map: HashMap<String, Style, FastHash>,
    lower: HashMap<String, String, FastHash>,
    resolved: HashMap<String, Resolved, FastHash>,
    /// Character styles whose name (or an ancestor's) says "code".
    code_like: HashSet<String, FastHash>,
    /// The default paragraph style's id (`Normal` usually).
    pub default_paragraph: Option<String>,
    /// Document default run properties (`w:docDefaults/w:rPrDefault`).
    pub doc_rpr: RunProps,
    /// Document default paragraph properties (`w:docDefaults/w:pPrDefault`): its `w:bidi`.
    pub doc_ppr: ParaProps,
    /// How many names were cut to [`MAX_NAME_CHARS`].
    pub names_cut: usize,
}

/// The longest style name kept, in characters: the longest Word allows. Every paragraph and
/// table in a style holds its name in the tree, so a longer one, which only a hostile file
/// holds, would be copied thousands of times.
pub const MAX_NAME_CHARS: usize = 253;

impl Styles {
    /// Parses `styles.xml`.
    pub fn parse(text: &str, part: &str, limits: &Limits) -> Result<Self> {
        let mut r = XmlReader::new(text, part, limits);
        let mut styles = Styles::default();
        loop {
            match r.next_event()? {
                Event::Start(e) => match e.local() {
                    "rPrDefault" | "pPrDefault" | "docDefaults" | "styles" => {}
                    "rPr" => styles.doc_rpr = parse_rpr(&mut r)?,
                    "pPr" => styles.doc_ppr = parse_ppr(&mut r)?,
                    "style" => {
                        let style = parse_style(&mut r, &e)?;
                        styles.add(style);
                    }
                    _ => r.skip_element()?,
                },
                Event::Empty(e) if e.local() == "style" => {
                    if let Some(id) = attr_string(&e, "styleId") {
                        styles.add(Style {
                            id,
                            name: None,
                            // Set by `add`, with the name cut there.
                            shown: Arc::from(""),
                            kind: kind_of(attr_string(&e, "type").as_deref()),
                            based_on: None,
                            is_default: false,
                            custom: false,
                            linked: false,
                            ppr: ParaProps::default(),
                            rpr: RunProps::default(),
                        });
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        styles.resolve_all();
        Ok(styles)
    }

    fn add(&mut self, mut style: Style) {
        if style.id.is_empty() || self.map.contains_key(&style.id) {
            return;
        }
        // Names are cut here, for the styles kept (a repeated id is dropped above).
        if let Some(name) = &mut style.name {
            if let Some((cut, _)) = name.char_indices().nth(MAX_NAME_CHARS) {
                name.truncate(cut);
                self.names_cut += 1;
            }
        }
        style.shown = Arc::from(style.name.as_deref().unwrap_or(&style.id));
        if style.is_default
            && style.kind == StyleKind::Paragraph
            && self.default_paragraph.is_none()
        {
            self.default_paragraph = Some(style.id.clone());
        }
        self.lower.insert(style.id.to_lowercase(), style.id.clone());
        self.map.insert(style.id.clone(), style);
    }

    fn resolve_all(&mut self) {
        let ids: Vec<String> = self.map.keys().cloned().collect();
        for id in ids {
            let mut res = Resolved::default();
            // Root first, so descendants overlay ancestors.
            let chain: Vec<&Style> = self.chain(&id);
            for style in chain.iter().rev() {
                res.ppr.overlay(&style.ppr);
                res.rpr.overlay(&style.rpr);
            }
            let code = chain
                .iter()
                .any(|s| is_code_name(s.name.as_deref().unwrap_or(&s.id)));
            if code {
                self.code_like.insert(id.clone());
            }
            self.resolved.insert(id, res);
        }
    }

    /// Whether style `id` (or an ancestor) has a code-like name (`Verbatim Char`, `HTML Code`,
    /// `Source Code`…).
    pub fn is_code(&self, id: &str) -> bool {
        self.get(id).is_some_and(|s| self.code_like.contains(&s.id))
    }

    /// The style called `id` (exact, else ignoring case as Word does).
    pub fn get(&self, id: &str) -> Option<&Style> {
        self.map.get(id).or_else(|| {
            self.lower
                .get(&id.to_lowercase())
                .and_then(|k| self.map.get(k))
        })
    }

    /// The merged properties of style `id`.
    pub fn resolved(&self, id: &str) -> Option<&Resolved> {
        let style = self.get(id)?;
        self.resolved.get(&style.id)
    }

    /// The style and its ancestors, nearest first; stops at a cycle or a missing parent.
    pub fn chain(&self, id: &str) -> Vec<&Style> {
        let mut out: Vec<&Style> = Vec::new();
        let mut next = self.get(id);
        while let Some(style) = next {
            // Chains are short: a linear look for cycles beats hashing.
            if out.len() >= MAX_CHAIN || out.iter().any(|s| s.id == style.id) {
                break;
            }
            out.push(style);
            next = style.based_on.as_deref().and_then(|b| self.get(b));
        }
        out
    }

    /// Whether `id` is the default paragraph style (or is called Normal).
    pub fn is_default_paragraph(&self, id: &str) -> bool {
        if self.default_paragraph.as_deref() == Some(id) {
            return true;
        }
        let style = self.get(id);
        id.eq_ignore_ascii_case("normal")
            || style.is_some_and(|s| {
                s.is_default
                    || s.name
                        .as_deref()
                        .is_some_and(|n| n.eq_ignore_ascii_case("normal"))
            })
    }

    /// Whether table style `id` is the plain grid Word gives a table when nobody chose a style:
    /// the document's default table style (`Normal Table`), or the built-in `Table Grid` that
    /// Word's Insert Table applies. Such a style is no choice the tree needs to keep.
    pub fn is_plain_table(&self, id: &str) -> bool {
        let style = self.get(id);
        let name = style.and_then(|s| s.name.as_deref()).unwrap_or(id);
        let plain = |n: &str| {
            let n: String = n.chars().filter(|c| !c.is_whitespace()).collect();
            ["tablegrid", "normaltable", "tablenormal"]
                .iter()
                .any(|p| n.eq_ignore_ascii_case(p))
        };
        plain(name)
            || plain(id)
            || style.is_some_and(|s| s.kind == StyleKind::Table && s.is_default && !s.custom)
    }

    /// The paragraph, character and table styles as the tree keeps them (`meta.word`), by id.
    pub fn word_styles(&self) -> Vec<crate::ast::WordStyle> {
        let mut out: Vec<crate::ast::WordStyle> = self
            .map
            .values()
            .filter_map(|s| {
                let kind = match s.kind {
                    StyleKind::Paragraph => crate::ast::WordStyleKind::Paragraph,
                    StyleKind::Character => crate::ast::WordStyleKind::Character,
                    StyleKind::Table => crate::ast::WordStyleKind::Table,
                    StyleKind::Numbering => return None,
                };
                Some(crate::ast::WordStyle {
                    kind,
                    id: s.id.clone(),
                    name: s.name.clone().unwrap_or_else(|| s.id.clone()),
                })
            })
            .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id).then(a.kind.cmp(&b.kind)));
        out
    }

    /// The display name of style `id` (its `w:name`, else the id).
    pub fn name_of<'s>(&'s self, id: &'s str) -> &'s str {
        self.get(id).and_then(|s| s.name.as_deref()).unwrap_or(id)
    }
}

fn kind_of(t: Option<&str>) -> StyleKind {
    match t {
        Some("character") => StyleKind::Character,
        Some("table") => StyleKind::Table,
        Some("numbering") => StyleKind::Numbering,
        _ => StyleKind::Paragraph,
    }
}

fn parse_style(r: &mut XmlReader<'_>, start: &quick_xml::events::BytesStart<'_>) -> Result<Style> {
    let mut style = Style {
        id: attr_string(start, "styleId").unwrap_or_default(),
        name: None,
        // Set by `add`, with the name cut there.
        shown: Arc::from(""),
        kind: kind_of(attr_string(start, "type").as_deref()),
        based_on: None,
        is_default: attr_string(start, "default").is_some_and(|v| !super::xmlutil::is_off(&v)),
        custom: attr_string(start, "customStyle").is_some_and(|v| !super::xmlutil::is_off(&v)),
        linked: false,
        ppr: ParaProps::default(),
        rpr: RunProps::default(),
    };
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "pPr" => style.ppr = parse_ppr(r)?,
                "rPr" => style.rpr = parse_rpr(r)?,
                other => {
                    apply_style_child(other, &e, &mut style);
                    r.skip_element()?;
                }
            },
            Event::Empty(e) => {
                let name = e.local();
                apply_style_child(name, &e, &mut style);
            }
            Event::Eof => return Err(r.invalid("the part ends inside w:style")),
            _ => {}
        }
    }
    // Run styles never inherit an rStyle.
    style.rpr.style = None;
    Ok(style)
}

fn apply_style_child(name: &str, e: &quick_xml::events::BytesStart<'_>, style: &mut Style) {
    match name {
        "name" => style.name = val(e).filter(|n| !n.is_empty()),
        "basedOn" => style.based_on = val(e).filter(|b| *b != style.id),
        "link" => style.linked = true,
        "qFormat" | "semiHidden" | "uiPriority" | "unhideWhenUsed" | "rsid" => {}
        "hidden" => {
            let _ = on_off(e);
        }
        _ => {}
    }
}

/// Whether a style name says "code".
pub fn is_code_name(name: &str) -> bool {
    let n = name.to_lowercase();
    [
        "code",
        "verbatim",
        "typewriter",
        "keyboard",
        "preformatted",
        "source text",
        "plain text",
    ]
    .iter()
    .any(|k| n.contains(k))
}

/// Whether `a` equals `b` ignoring case, `b` being lower case already; no allocation (this runs
/// for every paragraph).
fn eq_lower(a: &str, b: &str) -> bool {
    if a.is_ascii() {
        // Lower-casing ASCII stays ASCII: a non-ASCII `b` cannot match.
        return b.is_ascii() && a.eq_ignore_ascii_case(b);
    }
    a.chars().flat_map(char::to_lowercase).eq(b.chars())
}

/// Recognises a built-in heading by a localised style id (`berschrift1`, `Titre2`, `Kop3`,
/// `Heading4`, `Заголовок1`): a known prefix and one digit 1-9. Returns the heading number.
pub fn heading_number_from_id(id: &str) -> Option<u8> {
    const PREFIXES: [&str; 18] = [
        "heading",
        "berschrift",
        "überschrift",
        "titre",
        "titolo",
        "ttulo",
        "título",
        "kop",
        "nagwek",
        "nagłówek",
        "rubrik",
        "overskrift",
        "otsikko",
        "címsor",
        "nadpis",
        "заголовок",
        "encabezado",
        "cabealho",
    ];
    let last = id.chars().last()?;
    let digit = last.to_digit(10).filter(|d| (1..=9).contains(d))?;
    let prefix = id[..id.len() - last.len_utf8()].trim_end_matches([' ', '_', '-']);
    PREFIXES
        .iter()
        .any(|p| eq_lower(prefix, p))
        .then_some(digit as u8)
}

/// `heading N` (any case, English built-in name) → N.
pub fn heading_number_from_name(name: &str) -> Option<u8> {
    let name = name.trim();
    let head = name.get(..7)?;
    if !head.eq_ignore_ascii_case("heading") {
        return None;
    }
    let n: u8 = name.get(7..)?.trim().parse().ok()?;
    (1..=9).contains(&n).then_some(n)
}

/// Whether a style id or name is the built-in caption (English name, or a known localised id).
pub fn is_caption(id: &str, name: Option<&str>) -> bool {
    const IDS: [&str; 9] = [
        "caption",
        "beschriftung",
        "lgende",
        "légende",
        "didascalia",
        "epgrafe",
        "bijschrift",
        "название",
        "podpis",
    ];
    name.is_some_and(|n| n.trim().eq_ignore_ascii_case("caption"))
        || IDS.iter().any(|i| eq_lower(id, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_stop_at_cycles_and_merge_properties() {
        let xml = r#"<w:styles xmlns:w="w">
          <w:docDefaults><w:rPrDefault><w:rPr><w:i/></w:rPr></w:rPrDefault></w:docDefaults>
          <w:style w:type="paragraph" w:styleId="A"><w:name w:val="a"/><w:basedOn w:val="B"/><w:rPr><w:b w:val="0"/></w:rPr></w:style>
          <w:style w:type="paragraph" w:styleId="B"><w:name w:val="b"/><w:basedOn w:val="A"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/><w:u w:val="single"/></w:rPr></w:style>
          <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
        </w:styles>"#;
        let s = Styles::parse(xml, "word/styles.xml", &Limits::default()).unwrap();
        assert_eq!(s.chain("A").len(), 2);
        let a = s.resolved("A").unwrap();
        assert_eq!(a.rpr.bold, Some(false));
        assert_eq!(a.rpr.underline, Some(true));
        assert_eq!(a.ppr.outline, Some(2));
        assert_eq!(s.doc_rpr.italic, Some(true));
        assert_eq!(s.default_paragraph.as_deref(), Some("Normal"));
        assert!(s.get("normal").is_some());
    }

    #[test]
    fn localised_heading_ids() {
        assert_eq!(heading_number_from_id("berschrift1"), Some(1));
        assert_eq!(heading_number_from_id("Titre2"), Some(2));
        assert_eq!(heading_number_from_id("Heading3"), Some(3));
        assert_eq!(heading_number_from_id("Заголовок4"), Some(4));
        assert_eq!(heading_number_from_id("Normal1"), None);
        assert_eq!(heading_number_from_name("Heading 2"), Some(2));
        assert_eq!(heading_number_from_name("heading 10"), None);
        assert!(is_caption("Beschriftung", None));
        assert!(is_caption("X", Some("caption")));
    }
}
