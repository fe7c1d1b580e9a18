//! Builds small .docx files from XML strings, so each reader test states exactly the Word markup
//! it exercises. The package is assembled with the crate's own deterministic `ZipWriter`.

#![allow(dead_code)]

use std::path::Path;

use sdconv::ast::{Block, Paragraph};
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::{Converted, Document};

/// The top-level paragraphs of a read document, in order.
pub fn paras(c: &Converted<Document>) -> Vec<&Paragraph> {
    c.value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// Namespace declarations every test part gets (transitional).
pub const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math""#;

const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const MAIN_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";

/// A PNG header claiming `w`×`h` pixels (enough for sniffing; never decoded).
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    b.extend_from_slice(&w.to_be_bytes());
    b.extend_from_slice(&h.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0]);
    b
}

/// An EMF header (record type 1, " EMF" signature at byte 40).
pub fn emf() -> Vec<u8> {
    let mut b = vec![0u8; 88];
    b[0] = 1;
    b[40..44].copy_from_slice(b" EMF");
    b
}

/// A docx under construction.
#[derive(Clone)]
pub struct Docx {
    main: String,
    body: String,
    raw_document: Option<String>,
    parts: Vec<(String, Vec<u8>, Option<String>)>,
    rels: Vec<(String, String, String, bool)>,
    package_rels: bool,
    content_types: bool,
    main_type: String,
}

/// A document whose `w:body` holds `body`.
pub fn docx(body: &str) -> Docx {
    Docx {
        main: "word/document.xml".into(),
        body: body.to_string(),
        raw_document: None,
        parts: Vec::new(),
        rels: Vec::new(),
        package_rels: true,
        content_types: true,
        main_type: MAIN_TYPE.into(),
    }
}

impl Docx {
    /// Replaces the whole main part (namespaces, root and all).
    pub fn raw_document(mut self, xml: &str) -> Self {
        self.raw_document = Some(xml.to_string());
        self
    }

    /// Names the main part differently (`word/document2.xml`).
    pub fn main_part(mut self, name: &str) -> Self {
        self.main = name.to_string();
        self
    }

    /// Sets the main part's content type (`.docm`, or a spreadsheet to test refusal).
    pub fn main_type(mut self, ty: &str) -> Self {
        self.main_type = ty.to_string();
        self
    }

    /// Leaves out `_rels/.rels`.
    pub fn without_package_rels(mut self) -> Self {
        self.package_rels = false;
        self
    }

    /// Adds a part of the main document, related by `rel_type` (short form: `styles`).
    fn related(mut self, short: &str, file: &str, ct: &str, xml: String) -> Self {
        let id = format!("rIdPart{}", self.rels.len() + 1);
        self.rels
            .push((id, format!("{REL}/{short}"), file.to_string(), false));
        self.parts.push((
            format!("word/{file}"),
            xml.into_bytes(),
            Some(ct.to_string()),
        ));
        self
    }

    /// `word/styles.xml` with these `w:style` elements (and optional doc defaults).
    pub fn styles(self, inner: &str) -> Self {
        let xml = format!("<w:styles {NS}>{inner}</w:styles>");
        self.related(
            "styles",
            "styles.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
            xml,
        )
    }

    /// `word/numbering.xml` with this content.
    pub fn numbering(self, inner: &str) -> Self {
        let xml = format!("<w:numbering {NS}>{inner}</w:numbering>");
        self.related(
            "numbering",
            "numbering.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
            xml,
        )
    }

    /// `word/footnotes.xml` with these `w:footnote` elements.
    pub fn footnotes(self, inner: &str) -> Self {
        let xml = format!("<w:footnotes {NS}>{inner}</w:footnotes>");
        self.related(
            "footnotes",
            "footnotes.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
            xml,
        )
    }

    /// `word/endnotes.xml` with these `w:endnote` elements.
    pub fn endnotes(self, inner: &str) -> Self {
        let xml = format!("<w:endnotes {NS}>{inner}</w:endnotes>");
        self.related(
            "endnotes",
            "endnotes.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml",
            xml,
        )
    }

    /// `word/comments.xml` with these `w:comment` elements.
    pub fn comments(self, inner: &str) -> Self {
        let xml = format!("<w:comments {NS}>{inner}</w:comments>");
        self.related(
            "comments",
            "comments.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
            xml,
        )
    }

    /// A footer part related as `rIdFooter` (refer to it from `w:sectPr`).
    pub fn footer(mut self, inner: &str) -> Self {
        self.rels.push((
            "rIdFooter".into(),
            format!("{REL}/footer"),
            "footer1.xml".into(),
            false,
        ));
        self.parts.push((
            "word/footer1.xml".into(),
            format!("<w:ftr {NS}>{inner}</w:ftr>").into_bytes(),
            Some(
                "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml".into(),
            ),
        ));
        self
    }

    /// `docProps/core.xml` with these Dublin Core elements.
    pub fn core(mut self, inner: &str) -> Self {
        self.parts.push((
            "docProps/core.xml".into(),
            format!(r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">{inner}</cp:coreProperties>"#).into_bytes(),
            Some("application/vnd.openxmlformats-package.core-properties+xml".into()),
        ));
        self
    }

    /// A relationship of the main part: `id` → `target` of type `short` (`image`, `hyperlink`).
    pub fn rel(mut self, id: &str, short: &str, target: &str, external: bool) -> Self {
        self.rels.push((
            id.to_string(),
            format!("{REL}/{short}"),
            target.to_string(),
            external,
        ));
        self
    }

    /// An image part `word/media/<name>` related as `id`.
    pub fn image(mut self, id: &str, name: &str, bytes: Vec<u8>) -> Self {
        self = self.rel(id, "image", &format!("media/{name}"), false);
        self.parts.push((format!("word/media/{name}"), bytes, None));
        self
    }

    /// Any extra part.
    pub fn part(mut self, name: &str, bytes: &[u8]) -> Self {
        self.parts.push((name.to_string(), bytes.to_vec(), None));
        self
    }

    /// The .docx bytes.
    pub fn build(&self) -> Vec<u8> {
        let mut z = ZipWriter::new();
        let mut ct = String::from(
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="emf" ContentType="image/x-emf"/>"#,
        );
        ct.push_str(&format!(
            r#"<Override PartName="/{}" ContentType="{}"/>"#,
            self.main, self.main_type
        ));
        for (name, _, ty) in &self.parts {
            if let Some(ty) = ty {
                ct.push_str(&format!(
                    r#"<Override PartName="/{name}" ContentType="{ty}"/>"#
                ));
            }
        }
        ct.push_str("</Types>");
        if self.content_types {
            z.add("[Content_Types].xml", ct.as_bytes(), Compression::Deflate)
                .unwrap();
        }
        if self.package_rels {
            let has_core = self.parts.iter().any(|(n, _, _)| n == "docProps/core.xml");
            let core = if has_core {
                r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>"#
            } else {
                ""
            };
            let rels = format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="{}"/>{core}</Relationships>"#,
                self.main
            );
            z.add("_rels/.rels", rels.as_bytes(), Compression::Deflate)
                .unwrap();
        }
        let doc = match &self.raw_document {
            Some(raw) => raw.clone(),
            None => format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {NS}><w:body>{}</w:body></w:document>"#,
                self.body
            ),
        };
        z.add(&self.main, doc.as_bytes(), Compression::Deflate)
            .unwrap();
        let mut rels = String::from(
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
        );
        for (id, ty, target, external) in &self.rels {
            let mode = if *external {
                r#" TargetMode="External""#
            } else {
                ""
            };
            let target = target.replace('&', "&amp;");
            rels.push_str(&format!(
                r#"<Relationship Id="{id}" Type="{ty}" Target="{target}"{mode}/>"#
            ));
        }
        rels.push_str("</Relationships>");
        let (dir, file) = self.main.rsplit_once('/').unwrap_or(("", &self.main));
        let rels_name = if dir.is_empty() {
            format!("_rels/{file}.rels")
        } else {
            format!("{dir}/_rels/{file}.rels")
        };
        z.add(&rels_name, rels.as_bytes(), Compression::Deflate)
            .unwrap();
        for (name, bytes, _) in &self.parts {
            z.add(name, bytes, Compression::Deflate).unwrap();
        }
        z.finish().unwrap()
    }

    /// Builds and reads with default options; panics on an import error.
    pub fn read(&self) -> Converted<Document> {
        sdconv::import::docx::read(&self.build(), &Default::default()).unwrap()
    }
}

/// A paragraph with plain text.
pub fn p(text: &str) -> String {
    format!("<w:p><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>")
}

/// A paragraph in style `style` with plain text.
pub fn ps(style: &str, text: &str) -> String {
    format!(
        "<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>"
    )
}

/// A paragraph numbered by Word: list `num_id`, level `ilvl`, no style.
pub fn numbered(num_id: u32, ilvl: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

/// A paragraph style definition.
pub fn pstyle(id: &str, name: &str, extra: &str) -> String {
    format!(
        r#"<w:style w:type="paragraph" w:styleId="{id}"><w:name w:val="{name}"/>{extra}</w:style>"#
    )
}

/// A character style definition.
pub fn cstyle(id: &str, name: &str, extra: &str) -> String {
    format!(
        r#"<w:style w:type="character" w:styleId="{id}"><w:name w:val="{name}"/>{extra}</w:style>"#
    )
}

/// The default paragraph style, Normal.
pub const NORMAL: &str = r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>"#;

/// An inline picture of `cx`×`cy` EMU with alt text, related as `rid`.
pub fn drawing(rid: &str, cx: u64, cy: u64, descr: &str) -> String {
    format!(
        r#"<w:r><w:drawing><wp:inline><wp:extent cx="{cx}" cy="{cy}"/><wp:docPr id="1" name="Picture 1" descr="{descr}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="{rid}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#
    )
}

/// A complex field: begin, instruction, separate, displayed result, end.
pub fn field(instr: &str, result: &str) -> String {
    format!(
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>{result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"#
    )
}

/// Compares the tree and warnings with `tests/golden/docx/<name>.json`; `UPDATE_GOLDEN=1`
/// rewrites the file. The file is meant to be read when it changes.
pub fn golden(name: &str, c: &Converted<Document>) {
    golden_in("docx", name, c)
}

/// [`golden`] for `tests/golden/<dir>/<name>.json`.
pub fn golden_in(dir: &str, name: &str, c: &Converted<Document>) {
    let warnings: Vec<String> = c
        .warnings
        .iter()
        .map(|w| format!("{:?}: {}", w.kind, w))
        .collect();
    #[derive(serde::Serialize)]
    struct Golden<'a> {
        warnings: Vec<String>,
        document: &'a Document,
    }
    let value = Golden {
        warnings,
        document: &c.value,
    };
    let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
        .join(format!("{name}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing; run with UPDATE_GOLDEN=1 and read it",
            path.display()
        )
    });
    assert_eq!(
        text, expected,
        "golden {name} differs (UPDATE_GOLDEN=1 rewrites it)"
    );
}

/// Asserts the tree validates.
pub fn valid(c: &Converted<Document>) {
    if let Err(v) = c.value.validate() {
        panic!("invalid tree: {v:?}");
    }
}

/// The warnings' messages.
pub fn messages(c: &Converted<Document>) -> Vec<String> {
    c.warnings.iter().map(|w| w.message.clone()).collect()
}
