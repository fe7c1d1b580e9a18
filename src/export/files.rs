//! An export as files, with a choice of what becomes of the pictures ([`export_files`]): what
//! the Python and JavaScript packages return (`images="files" | "inline" | "omit"`). The
//! Markdown and HTML writers are called directly there, so their pictures come as files beside
//! the text, or inside it as `data:` URIs; every other format is [`crate::export()`]'s bytes.

use bytes::Bytes;

use super::{html, markdown};
use crate::{Converted, Document, ExportOptions, Format, Result};

/// What becomes of the pictures of an export ([`export_files`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImageMode {
    /// Markdown and HTML: files beside the text (`images/…`), returned by name, which the text
    /// refers to. The other formats hold their pictures inside, as always.
    #[default]
    Files,
    /// Markdown and HTML: inside the text as `data:` URIs (HTML: the single-file page, its
    /// stylesheet inline too). The other formats as with [`ImageMode::Files`].
    Inline,
    /// Left out, in every format, as with [`ExportOptions::images`] `false`.
    Omit,
}

impl ImageMode {
    /// `files`, `inline` or `omit`.
    pub fn parse(name: &str) -> Option<ImageMode> {
        match name {
            "files" => Some(ImageMode::Files),
            "inline" => Some(ImageMode::Inline),
            "omit" => Some(ImageMode::Omit),
            _ => None,
        }
    }

    /// Whether an export of `format` with these pictures writes every picture's bytes
    /// inflated: Markdown and HTML with their pictures as files or inside the text, and the
    /// single-file page ([`Format::inlines_pictures`]). A Word reader should then inflate them
    /// while it builds its tree ([`crate::import::docx::DocxImportOptions::inflate_pictures`]);
    /// the other formats copy them as stored, or leave them out.
    pub fn inflates_pictures(self, format: Format) -> bool {
        self != ImageMode::Omit
            && (matches!(format, Format::Html | Format::Markdown) || format.inlines_pictures())
    }
}

/// An export as files ([`export_files`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExportedFiles {
    /// The main file: the text of a text format ([`Format::is_text`], UTF-8), else the bytes.
    pub main: Vec<u8>,
    /// Files beside the main one, by relative name: `style.css` and `images/…` for HTML,
    /// `images/…` for Markdown, in the writers' order; none for other formats.
    pub files: Vec<(String, Bytes)>,
}

/// Writes `doc` in `format` as files, the pictures as `images` says: [`crate::export()`] with
/// the pictures of Markdown and HTML as files of their own (or inside the text). The tree is
/// prepared as [`crate::export()`] prepares it ([`ExportOptions::prepare`]), so the main file
/// of a format is the bytes [`crate::export()`] writes for it where those are one file (the
/// single-file page for HTML with [`ImageMode::Inline`]), and the command line's for the same
/// options.
///
/// ```
/// use sdconv::export::files::{ExportedFiles, ImageMode, export_files};
/// use sdconv::{ExportOptions, Format};
///
/// let doc = sdconv::import(Format::Markdown, b"# Title\n\nText.", &Default::default())?.value;
/// let out = export_files(&doc, Format::Html, &ExportOptions::default(), ImageMode::Files)?;
/// let ExportedFiles { main, files } = out.value;
/// assert!(String::from_utf8(main).unwrap().contains("<h1"));
/// assert_eq!(files[0].0, "style.css");
/// # Ok::<(), sdconv::Error>(())
/// ```
pub fn export_files(
    doc: &Document,
    format: Format,
    options: &ExportOptions,
    images: ImageMode,
) -> Result<Converted<ExportedFiles>> {
    let (mut prepared, plain) = options.prepare(doc);
    if images == ImageMode::Omit && options.images {
        prepared.to_mut().remove_images(|_| true);
    }
    let doc = &*prepared;
    let text = |text: String| ExportedFiles {
        main: text.into_bytes(),
        files: Vec::new(),
    };
    Ok(match (format, images) {
        (Format::Markdown, ImageMode::Inline) => {
            markdown::write_all_in_one(doc, &plain.markdown).map(text)
        }
        (Format::Markdown, _) => markdown::write(doc, &plain.markdown).map(|out| ExportedFiles {
            main: out.text.into_bytes(),
            files: out.files,
        }),
        (Format::Html, ImageMode::Inline) => html::write_all_in_one(doc, &plain.html).map(text),
        (Format::Html, _) => html::write_files(doc, &plain.html).map(|files| {
            let mut files = files.into_iter();
            // The page comes first (`index.html`); the stylesheet and pictures follow it.
            let main = files
                .next()
                .map(|(_, page)| page.into())
                .unwrap_or_default();
            ExportedFiles {
                main,
                files: files.collect(),
            }
        }),
        // The tree is prepared already: the plain options write it as it is.
        _ => crate::export(doc, format, &plain)?.map(|main| ExportedFiles {
            main,
            files: Vec::new(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ImportOptions;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01";

    fn doc() -> Document {
        let md = b"# Title\n\n![a dot](dot.png)\n\nText.\n";
        let mut fetch = |_: &str| Some(Bytes::from_static(PNG));
        crate::import_with(
            Format::Markdown,
            Bytes::from_static(md),
            &ImportOptions::default(),
            &mut fetch,
        )
        .unwrap()
        .value
    }

    #[test]
    fn only_markdown_and_html_with_their_pictures_want_them_inflated_while_reading() {
        for format in [Format::Html, Format::Markdown, Format::HtmlAllInOne] {
            assert!(ImageMode::Files.inflates_pictures(format), "{format:?}");
            assert!(ImageMode::Inline.inflates_pictures(format), "{format:?}");
            assert!(!ImageMode::Omit.inflates_pictures(format), "{format:?}");
        }
        for format in [Format::Word, Format::Sdxml, Format::Parsx] {
            assert!(!ImageMode::Inline.inflates_pictures(format), "{format:?}");
        }
    }

    fn export(format: Format, images: ImageMode) -> ExportedFiles {
        export_files(&doc(), format, &ExportOptions::default(), images)
            .unwrap()
            .value
    }

    fn text(out: &ExportedFiles) -> &str {
        std::str::from_utf8(&out.main).unwrap()
    }

    #[test]
    fn modes_parse_by_name() {
        assert_eq!(ImageMode::parse("inline"), Some(ImageMode::Inline));
        assert_eq!(ImageMode::parse("files"), Some(ImageMode::Files));
        assert_eq!(ImageMode::parse("omit"), Some(ImageMode::Omit));
        assert_eq!(ImageMode::parse("Inline"), None);
    }

    #[test]
    fn markdown_pictures_as_files_inline_or_left_out() {
        let files = export(Format::Markdown, ImageMode::Files);
        assert!(
            text(&files).contains("](images/dot.png)"),
            "{}",
            text(&files)
        );
        assert_eq!(files.files.len(), 1);
        assert_eq!(&files.files[0].1[..], PNG);
        // The same text, the reference pointing at the bytes.
        let inline = export(Format::Markdown, ImageMode::Inline);
        assert!(inline.files.is_empty());
        assert!(
            text(&inline).contains("](data:image/png;base64,iVBORw0KGgo"),
            "{}",
            text(&inline)
        );
        let t = text(&inline);
        let start = t.find("data:").unwrap();
        let end = start + t[start..].find(')').unwrap();
        let back = format!("{}images/dot.png{}", &t[..start], &t[end..]);
        assert_eq!(back, text(&files));
        let omit = export(Format::Markdown, ImageMode::Omit);
        assert!(omit.files.is_empty());
        assert!(!text(&omit).contains("!["), "{}", text(&omit));
    }

    #[test]
    fn html_files_are_the_page_and_its_stylesheet_and_pictures() {
        let files = export(Format::Html, ImageMode::Files);
        let names: Vec<&str> = files.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["style.css", "images/dot.png"]);
        assert!(text(&files).contains("src=\"images/dot.png\""));
        // Inline: the single-file page, as `export` writes it.
        let inline = export(Format::Html, ImageMode::Inline);
        let page = crate::export(&doc(), Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
        assert_eq!(inline.main, page.value);
        assert!(inline.files.is_empty());
    }

    #[test]
    fn other_formats_are_exports_bytes() {
        let options = ExportOptions::default();
        let out = export_files(&doc(), Format::Json, &options, ImageMode::Files).unwrap();
        let json = crate::export(&doc(), Format::Json, &options).unwrap();
        assert_eq!(out.value.main, json.value);
        // Omitted pictures are gone from every format (the tree keeps no image block).
        assert!(text(&export(Format::Json, ImageMode::Files)).contains("\"type\": \"image\""));
        let omit = export(Format::Json, ImageMode::Omit);
        assert!(
            !text(&omit).contains("\"type\": \"image\""),
            "{}",
            text(&omit)
        );
    }
}
