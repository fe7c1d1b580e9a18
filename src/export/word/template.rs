//! Word templates: the parts a template supplies (styles, numbering look, page setup, header and
//! footer), their catalog (`GET /partner/templates/word`), and loading custom templates.
//!
//! A template is a folder `templates/word/<id>/` of hand-written XML files, reviewable in diffs:
//!
//! | file | what it supplies |
//! |---|---|
//! | `template.json` | `{"id","name","description","tableStyle"}` |
//! | `styles.xml` | the whole styles part; must define the styles the writer uses ([`REQUIRED_STYLES`]) |
//! | `numbering.xml` | the numbering look: `w:abstractNum` 0 (outline of numbered headings and paragraphs), 1 (bullets), 2 (ordered lists), each with levels 0-5 |
//! | `section.xml` | a `w:sectPr` with page size and margins (the writer adds header and footer references) |
//! | `header.xml`, `footer.xml` | the header and footer parts; `{{title}}` and `{{footer}}` are replaced by the document's title and footer text |
//!
//! The XML files use the prefix `w` for WordprocessingML, as Word does. Built-in templates are
//! embedded with `include_str!`; [`WordTemplates::add`] takes already-read file contents, and
//! [`WordTemplates::load_dir`] is the one helper that reads a folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Style ids the writer refers to; every template's `styles.xml` must define them.
pub const REQUIRED_STYLES: [&str; 27] = [
    "Normal",
    "Title",
    "Subtitle",
    "Heading1",
    "Heading2",
    "Heading3",
    "Heading4",
    "Heading5",
    "Heading6",
    "ListParagraph",
    "Caption",
    "TOCHeading",
    "TOC1",
    "TOC2",
    "TOC3",
    "TableofFigures",
    "FootnoteText",
    "FootnoteReference",
    "EndnoteText",
    "EndnoteReference",
    "CommentText",
    "CommentReference",
    "Hyperlink",
    "HTMLCode",
    "Header",
    "Footer",
    "DefaultParagraphFont",
];

/// The files of one template, as text.
#[derive(Debug, Clone, Default)]
pub struct TemplateFiles {
    /// `template.json`.
    pub template_json: String,
    /// `styles.xml`.
    pub styles: String,
    /// `numbering.xml`.
    pub numbering: String,
    /// `section.xml`.
    pub section: String,
    /// `header.xml`, if the template has a header.
    pub header: Option<String>,
    /// `footer.xml`, if the template has a footer.
    pub footer: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TemplateRecord {
    id: String,
    name: String,
    description: String,
    #[serde(default = "default_table_style")]
    table_style: String,
}

fn default_table_style() -> String {
    "TableGrid".into()
}

/// One level of a numbering definition, as the template wrote it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct LevelDef {
    /// `w:start`.
    pub start: u32,
    /// `w:numFmt` value (`decimal`, `bullet`, …).
    pub fmt: String,
    /// `w:lvlText` value (`%1.%2`).
    pub text: String,
    /// `w:lvlJc` value.
    pub jc: String,
    /// `w:suff` value, if given.
    pub suff: Option<String>,
    /// The raw `w:pPr` element, if any.
    pub ppr: String,
    /// The raw `w:rPr` element, if any.
    pub rpr: String,
}

/// The three numbering definitions of a template: outline, bullets, ordered.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NumberingLook {
    /// abstractNum 0, 1, 2; each with 6 levels.
    pub defs: [Vec<LevelDef>; 3],
}

/// Page geometry read from `section.xml`, in twips (1/20 pt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    /// Text width: page width less the side margins.
    pub text_width: u32,
}

/// A loaded, checked Word template.
#[derive(Debug, Clone)]
pub struct WordTemplate {
    /// Template id (`templateId` of the export call).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Style id of tables.
    pub table_style: String,
    pub(crate) styles: String,
    pub(crate) section_inner: String,
    pub(crate) header: Option<String>,
    pub(crate) footer: Option<String>,
    pub(crate) numbering: NumberingLook,
    pub(crate) page: Page,
    /// Style ids defined by `styles.xml`.
    pub(crate) style_ids: BTreeSet<String>,
    /// Character styles by name (`w:name`) → id, for named spans.
    pub(crate) char_styles: BTreeMap<String, String>,
}

impl WordTemplate {
    /// Builds and checks a template from its files. Errors name the template and the file.
    pub fn from_files(files: &TemplateFiles) -> Result<WordTemplate> {
        let record: TemplateRecord = serde_json::from_str(&files.template_json)
            .map_err(|e| Error::invalid("template.json", e.to_string()))?;
        let id = record.id.trim().to_string();
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(Error::invalid(
                "template.json",
                format!("template id {id:?} must be letters, digits, - or _"),
            ));
        }
        let part = |file: &str| format!("template {id}: {file}");
        let (style_ids, char_styles) = read_styles(&files.styles, &part("styles.xml"))?;
        for required in REQUIRED_STYLES
            .iter()
            .copied()
            .chain([record.table_style.as_str()])
        {
            if !style_ids.contains(required) {
                return Err(Error::invalid(
                    part("styles.xml"),
                    format!("style {required:?} is not defined"),
                ));
            }
        }
        let numbering = read_numbering(&files.numbering, &part("numbering.xml"))?;
        let (section_inner, page) = read_section(&files.section, &part("section.xml"))?;
        for (name, text) in [("header.xml", &files.header), ("footer.xml", &files.footer)] {
            if let Some(text) = text {
                check_well_formed(text, &part(name))?;
            }
        }
        Ok(WordTemplate {
            id,
            name: record.name,
            description: record.description,
            table_style: record.table_style,
            styles: files.styles.clone(),
            section_inner,
            header: files.header.clone(),
            footer: files.footer.clone(),
            numbering,
            page,
            style_ids,
            char_styles,
        })
    }
}

/// A set of Word templates by id: the built-in ones plus any added at run time.
#[derive(Debug, Clone, Default)]
pub struct WordTemplates {
    templates: BTreeMap<String, WordTemplate>,
}

macro_rules! builtin {
    ($id:literal) => {
        TemplateFiles {
            template_json: include_str!(concat!("../../../templates/word/", $id, "/template.json"))
                .into(),
            styles: include_str!(concat!("../../../templates/word/", $id, "/styles.xml")).into(),
            numbering: include_str!(concat!("../../../templates/word/", $id, "/numbering.xml"))
                .into(),
            section: include_str!(concat!("../../../templates/word/", $id, "/section.xml")).into(),
            header: Some(
                include_str!(concat!("../../../templates/word/", $id, "/header.xml")).into(),
            ),
            footer: Some(
                include_str!(concat!("../../../templates/word/", $id, "/footer.xml")).into(),
            ),
        }
    };
}

impl WordTemplates {
    /// An empty set.
    pub fn empty() -> Self {
        Self::default()
    }

    /// The built-in templates (`report`, `contract`), loaded once.
    pub fn builtin() -> &'static WordTemplates {
        static BUILTIN: OnceLock<WordTemplates> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let mut set = WordTemplates::empty();
            for files in [builtin!("report"), builtin!("contract")] {
                // The built-in files are checked by tests; a broken one is left out rather
                // than taking the library down.
                if let Ok(t) = WordTemplate::from_files(&files) {
                    set.templates.insert(t.id.clone(), t);
                }
            }
            set
        })
    }

    /// Adds (or replaces, by id) a template built from already-read files; returns its id.
    pub fn add(&mut self, files: &TemplateFiles) -> Result<String> {
        let t = WordTemplate::from_files(files)?;
        let id = t.id.clone();
        self.templates.insert(id.clone(), t);
        Ok(id)
    }

    /// Reads every sub-folder of `dir` that has a `template.json` as a template and adds it
    /// (IO helper for the CLI and server; the library itself never reads files). Returns the ids
    /// added, in name order. A folder with a broken template is an error naming it.
    pub fn load_dir(&mut self, dir: &Path) -> Result<Vec<String>> {
        let io = |path: &Path, e: std::io::Error| {
            Error::invalid(path.display().to_string(), e.to_string())
        };
        let mut folders: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| io(dir, e))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.join("template.json").is_file())
            .collect();
        folders.sort();
        let mut ids = Vec::new();
        for folder in folders {
            let read = |name: &str| std::fs::read_to_string(folder.join(name));
            let optional = |name: &str| -> Result<Option<String>> {
                let path = folder.join(name);
                if path.exists() {
                    std::fs::read_to_string(&path)
                        .map(Some)
                        .map_err(|e| io(&path, e))
                } else {
                    Ok(None)
                }
            };
            let files = TemplateFiles {
                template_json: read("template.json").map_err(|e| io(&folder, e))?,
                styles: read("styles.xml").map_err(|e| io(&folder.join("styles.xml"), e))?,
                numbering: read("numbering.xml")
                    .map_err(|e| io(&folder.join("numbering.xml"), e))?,
                section: read("section.xml").map_err(|e| io(&folder.join("section.xml"), e))?,
                header: optional("header.xml")?,
                footer: optional("footer.xml")?,
            };
            let id = self
                .add(&files)
                .map_err(|e| Error::invalid(folder.display().to_string(), e.to_string()))?;
            ids.push(id);
        }
        Ok(ids)
    }

    /// The template `id`.
    pub fn get(&self, id: &str) -> Option<&WordTemplate> {
        self.templates.get(id)
    }

    /// The template `id`, or an [`Error::Parameter`](crate::Error::Parameter) naming it and the
    /// known ones: an unknown `templateId` is the caller's error.
    pub fn resolve(&self, id: &str) -> Result<&WordTemplate> {
        self.get(id).ok_or_else(|| {
            let known: Vec<&str> = self.templates.keys().map(String::as_str).collect();
            Error::parameter(
                "templateId",
                format!("unknown Word template {id:?}; known: {}", known.join(", ")),
            )
        })
    }

    /// All templates in id order.
    pub fn iter(&self) -> impl Iterator<Item = &WordTemplate> {
        self.templates.values()
    }

    /// What `GET /partner/templates/word` returns: `[{"id","name","description"}]`, by id.
    pub fn catalog_json(&self) -> String {
        #[derive(Serialize)]
        struct Entry<'a> {
            id: &'a str,
            name: &'a str,
            description: &'a str,
        }
        let entries: Vec<Entry> = self
            .iter()
            .map(|t| Entry {
                id: &t.id,
                name: &t.name,
                description: &t.description,
            })
            .collect();
        serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
    }
}

fn xml_error(part: &str, reader: &Reader<&[u8]>, e: impl std::fmt::Display) -> Error {
    Error::Xml {
        part: part.to_string(),
        position: reader.error_position(),
        message: e.to_string(),
    }
}

fn attr_of(e: &quick_xml::events::BytesStart<'_>, name: &str) -> Option<String> {
    crate::xml::attr(e, name).map(|v| v.into_owned())
}

fn check_well_formed(text: &str, part: &str) -> Result<()> {
    let mut r = Reader::from_str(text);
    loop {
        match r.read_event() {
            Ok(Event::Eof) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(xml_error(part, &r, e)),
        }
    }
}

type StyleIndex = (BTreeSet<String>, BTreeMap<String, String>);

fn read_styles(text: &str, part: &str) -> Result<StyleIndex> {
    let mut r = Reader::from_str(text);
    let mut ids = BTreeSet::new();
    let mut chars = BTreeMap::new();
    // (id, is character style) of the w:style being read.
    let mut current: Option<(String, bool)> = None;
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.name().as_ref() {
                "w:style" => {
                    if let Some(id) = attr_of(&e, "styleId") {
                        let is_char = attr_of(&e, "type").as_deref() == Some("character");
                        ids.insert(id.clone());
                        current = Some((id, is_char));
                    }
                }
                "w:name" => {
                    if let (Some((id, true)), Some(name)) = (&current, attr_of(&e, "val")) {
                        chars.insert(name, id.clone());
                    }
                }
                _ => {}
            },
            Ok(Event::End(e)) if e.name().as_ref() == "w:style" => current = None,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(xml_error(part, &r, e)),
        }
    }
    Ok((ids, chars))
}

fn read_numbering(text: &str, part: &str) -> Result<NumberingLook> {
    let mut r = Reader::from_str(text);
    let mut defs: [Vec<LevelDef>; 3] = Default::default();
    let mut abs: Option<usize> = None;
    let mut level: Option<LevelDef> = None;
    // Start offset of the raw pPr/rPr element being captured, and which.
    let mut raw: Option<(usize, bool)> = None;
    loop {
        let before = r.buffer_position() as usize;
        let event = r.read_event().map_err(|e| xml_error(part, &r, e))?;
        let after = r.buffer_position() as usize;
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = after > 1 && text.as_bytes().get(after - 2) == Some(&b'/');
                match e.name().as_ref() {
                    "w:abstractNum" => {
                        abs = attr_of(&e, "abstractNumId")
                            .and_then(|v| v.parse::<usize>().ok())
                            .filter(|&i| i < 3);
                    }
                    "w:lvl" if abs.is_some() => level = Some(LevelDef::default()),
                    name if level.is_some() && raw.is_none() => {
                        let val = attr_of(&e, "val");
                        if let Some(l) = level.as_mut() {
                            match name {
                                "w:start" => {
                                    l.start = val.and_then(|v| v.parse().ok()).unwrap_or(1)
                                }
                                "w:numFmt" => l.fmt = val.unwrap_or_default(),
                                "w:lvlText" => l.text = val.unwrap_or_default(),
                                "w:lvlJc" => l.jc = val.unwrap_or_default(),
                                "w:suff" => l.suff = val,
                                "w:pPr" | "w:rPr" => {
                                    let is_ppr = name == "w:pPr";
                                    if empty {
                                        let s = text.get(before..after).unwrap_or_default();
                                        if is_ppr {
                                            l.ppr = s.to_string();
                                        } else {
                                            l.rpr = s.to_string();
                                        }
                                    } else {
                                        raw = Some((before, is_ppr));
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:pPr" | "w:rPr" => {
                    if let (Some((start, is_ppr)), Some(l)) = (raw.take(), level.as_mut()) {
                        let s = text.get(start..after).unwrap_or_default().to_string();
                        if is_ppr {
                            l.ppr = s;
                        } else {
                            l.rpr = s;
                        }
                    }
                }
                "w:lvl" => {
                    if let (Some(i), Some(l)) = (abs, level.take()) {
                        defs[i].push(l);
                    }
                }
                "w:abstractNum" => abs = None,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    for (i, def) in defs.iter().enumerate() {
        if def.len() < 6 {
            return Err(Error::invalid(
                part,
                format!(
                    "w:abstractNum {i} must define levels 0-5 (found {})",
                    def.len()
                ),
            ));
        }
    }
    Ok(NumberingLook { defs })
}

fn read_section(text: &str, part: &str) -> Result<(String, Page)> {
    let mut r = Reader::from_str(text);
    let mut inner_start = None;
    let mut inner_end = None;
    let (mut width, mut left, mut right) = (None, 0u32, 0u32);
    loop {
        let before = r.buffer_position() as usize;
        let event = r.read_event().map_err(|e| xml_error(part, &r, e))?;
        let after = r.buffer_position() as usize;
        match event {
            Event::Start(e) if e.name().as_ref() == "w:sectPr" => inner_start = Some(after),
            Event::End(e) if e.name().as_ref() == "w:sectPr" => inner_end = Some(before),
            Event::Start(e) | Event::Empty(e) => {
                let num = |name| attr_of(&e, name).and_then(|v| v.parse::<u32>().ok());
                match e.name().as_ref() {
                    "w:pgSz" => width = num("w"),
                    "w:pgMar" => {
                        left = num("left").unwrap_or(0);
                        right = num("right").unwrap_or(0);
                    }
                    "w:headerReference" | "w:footerReference" => {
                        return Err(Error::invalid(
                            part,
                            "header and footer references are added by the writer",
                        ));
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let (Some(start), Some(end)) = (inner_start, inner_end) else {
        return Err(Error::invalid(part, "expected one w:sectPr element"));
    };
    let Some(width) = width else {
        return Err(Error::invalid(
            part,
            "w:pgSz with w:w (page width) is missing",
        ));
    };
    let text_width = width.saturating_sub(left).saturating_sub(right);
    if text_width < 1440 {
        return Err(Error::invalid(
            part,
            format!("text width {text_width} twips (page less margins) is under one inch"),
        ));
    }
    let inner = text.get(start..end).unwrap_or_default().trim().to_string();
    Ok((inner, Page { text_width }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_load_with_their_parts() {
        let set = WordTemplates::builtin();
        let ids: Vec<_> = set.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["contract", "report"]);
        let report = set.resolve("report").unwrap();
        assert_eq!(report.page.text_width, 11906 - 2 * 1417);
        assert_eq!(report.numbering.defs[0][1].text, "%1.%2");
        assert_eq!(report.numbering.defs[1][0].fmt, "bullet");
        assert!(report.numbering.defs[2][2].ppr.starts_with("<w:pPr>"));
        assert!(report.section_inner.starts_with("<w:pgSz"));
        let contract = set.resolve("contract").unwrap();
        assert_eq!(contract.numbering.defs[0][3].text, "(%4)");
        assert_eq!(contract.page.text_width, 11906 - 1701 - 1134);
        assert_eq!(
            report.char_styles.get("Hyperlink").map(String::as_str),
            Some("Hyperlink")
        );
    }

    #[test]
    fn unknown_template_is_a_parameter_error_naming_it() {
        let err = WordTemplates::builtin().resolve("letter").unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::Parameter);
        assert!(err.to_string().contains("\"letter\""), "{err}");
    }

    #[test]
    fn missing_style_is_refused() {
        let mut files = builtin!("report");
        files.styles = files
            .styles
            .replace("w:styleId=\"Caption\"", "w:styleId=\"Cap\"");
        let err = WordTemplate::from_files(&files).unwrap_err();
        assert!(err.to_string().contains("\"Caption\""), "{err}");
    }
}
