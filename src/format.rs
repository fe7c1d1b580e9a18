//! The format registry: names as the partner API spells them, aliases, file extensions, and which
//! directions this build supports.

use std::fmt;
use std::path::Path;

/// A document format sdconv knows by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The service's zip of `sd.xml` + `images/` (API: `sdxml`).
    Sdxml,
    /// parsX 4 zip of `parsx.xml` + `images/` (API: `parsx`).
    Parsx,
    /// HTML page + images (API: `html`).
    Html,
    /// One self-contained HTML file (API: `html_all_in_one`).
    HtmlAllInOne,
    /// Word .docx (API: `word`; alias `docx`).
    Word,
    /// PDF.
    Pdf,
    /// Markdown (alias `md`).
    Markdown,
    /// The tree's JSON dump.
    Json,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 8] = [
        Format::Sdxml,
        Format::Parsx,
        Format::Html,
        Format::HtmlAllInOne,
        Format::Word,
        Format::Pdf,
        Format::Markdown,
        Format::Json,
    ];

    /// The API's name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Sdxml => "sdxml",
            Format::Parsx => "parsx",
            Format::Html => "html",
            Format::HtmlAllInOne => "html_all_in_one",
            Format::Word => "word",
            Format::Pdf => "pdf",
            Format::Markdown => "markdown",
            Format::Json => "json",
        }
    }

    /// Parses a name or alias (`docx` → word, `md` → markdown), ignoring ASCII case.
    pub fn parse(name: &str) -> Option<Format> {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "docx" | "docm" => Some(Format::Word),
            "md" => Some(Format::Markdown),
            "sdox" => Some(Format::Sdxml),
            _ => Format::ALL.into_iter().find(|f| f.name() == name),
        }
    }

    /// The format a file name implies, when its extension is unambiguous. `.zip` is not: it could
    /// be sd.xml, parsX or an HTML download.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "docx" | "docm" => Some(Format::Word),
            "sdxml" | "sdox" => Some(Format::Sdxml),
            "parsx" => Some(Format::Parsx),
            "html" | "htm" => Some(Format::Html),
            "pdf" => Some(Format::Pdf),
            "md" | "markdown" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    /// Whether this build reads the format.
    pub fn can_read(self) -> bool {
        matches!(
            self,
            Format::Json | Format::Markdown | Format::Sdxml | Format::Word
        )
    }

    /// Whether the main file [`export_files`](crate::export::files::export_files) gives in
    /// this format is text (UTF-8) a caller can hand on as a string: Markdown, either HTML
    /// form, the JSON dump. (The `html` form of [`crate::export()`] is a zip of such files.)
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Format::Markdown | Format::Html | Format::HtmlAllInOne | Format::Json
        )
    }

    /// Whether the format carries every picture's bytes inside its one file (the single-file
    /// page's `data:` URIs): a reader that can inflate pictures while it works on the text
    /// ([`crate::import::docx::DocxImportOptions::inflate_pictures`]) should, for it.
    pub fn inlines_pictures(self) -> bool {
        self == Format::HtmlAllInOne
    }

    /// Whether this build writes the format.
    pub fn can_write(self) -> bool {
        matches!(
            self,
            Format::Json
                | Format::Sdxml
                | Format::Html
                | Format::HtmlAllInOne
                | Format::Parsx
                | Format::Markdown
                | Format::Word
        ) || (self == Format::Pdf && cfg!(feature = "pdf"))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_work() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.name()), Some(f));
        }
        assert_eq!(Format::parse("DOCX"), Some(Format::Word));
        assert_eq!(Format::parse("md"), Some(Format::Markdown));
        assert_eq!(Format::parse("odt"), None);
        assert_eq!(Format::from_path(Path::new("a/b.Docx")), Some(Format::Word));
        assert_eq!(Format::from_path(Path::new("export.zip")), None);
    }
}
