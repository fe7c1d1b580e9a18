//! Pictures: the `images=` modes and the `describe_image` callback that supplies alt texts.

use std::collections::HashMap;

use base64::Engine as _;
use bytes::Bytes;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use sdconv::ast::{Block, Inline};
use sdconv::{Document, Location, Warning, WarningKind};

/// What becomes of pictures in Markdown and HTML output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageMode {
    /// Files beside the text (`images/…`), returned by name.
    Files,
    /// Inside the text as `data:` URIs, whole (HTML: the single-file page).
    Inline,
    /// Left out.
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
}

/// The Markdown text with each `](images/<name>` the writer produced pointing at a `data:` URI
/// of the file instead. The writer names picture files with letters, digits, `.`, `-` and `_`
/// only, so the destination is written as it is and ends at the first other character.
pub fn inline_markdown_images(text: &str, files: &[(String, Bytes)], doc: &Document) -> String {
    let by_name: HashMap<&str, &Bytes> = files.iter().map(|(n, b)| (n.as_str(), b)).collect();
    const OPEN: &str = "](images/";
    let mut out = String::with_capacity(
        text.len()
            + files
                .iter()
                .map(|(_, b)| b.len() * 4 / 3 + 32)
                .sum::<usize>(),
    );
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let start = at + 2;
        let after = &rest[start + "images/".len()..];
        let len = after
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_')))
            .unwrap_or(after.len());
        let name = &rest[start..start + "images/".len() + len];
        let ends_destination = matches!(after[len..].chars().next(), Some(')' | ' '));
        match by_name.get(name) {
            Some(bytes) if ends_destination => {
                out.push_str(&rest[..start]);
                out.push_str("data:");
                out.push_str(mime(doc, name, bytes));
                out.push_str(";base64,");
                base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut out);
                rest = &rest[start + name.len()..];
            }
            _ => {
                out.push_str(&rest[..start]);
                rest = &rest[start..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The picture's MIME type: the media store's, else what its bytes look like.
fn mime(doc: &Document, file: &str, bytes: &[u8]) -> &'static str {
    let name = file.trim_start_matches("images/");
    match doc.media.get(name) {
        Some(item) => item.kind.mime(),
        None => sdconv::ast::media::sniff(bytes).0.mime(),
    }
}

/// A picture of a document, as `describe_image` gets it.
#[pyclass(frozen, module = "sdconv._sdconv", name = "Image")]
pub struct Image {
    /// The picture's name in the document.
    #[pyo3(get)]
    name: String,
    /// The picture's bytes (PNG, JPEG, …).
    #[pyo3(get)]
    data: Py<PyBytes>,
    /// Its MIME type (`image/png`).
    #[pyo3(get)]
    mime: &'static str,
    /// Its width in pixels, when its header tells.
    #[pyo3(get)]
    width: Option<u32>,
    /// Its height in pixels, when its header tells.
    #[pyo3(get)]
    height: Option<u32>,
    /// The alt text the document gives it, if any.
    #[pyo3(get)]
    alt: Option<String>,
    /// Its caption, if any.
    #[pyo3(get)]
    caption: Option<String>,
}

#[pymethods]
impl Image {
    fn __repr__(&self) -> String {
        format!(
            "Image(name={:?}, mime={:?}, alt={:?})",
            self.name, self.mime, self.alt
        )
    }
}

/// The pictures the document shows, in document order, each once: `(media, alt, caption)` of
/// its first appearance.
fn shown(doc: &Document) -> Vec<(String, Option<String>, Option<String>)> {
    let mut seen = std::collections::HashSet::new();
    let mut list = Vec::new();
    doc.walk_blocks(&mut |_, block| {
        if let Block::Image(img) = block
            && seen.insert(img.media.clone())
        {
            list.push((img.media.clone(), img.alt.clone(), img.caption.clone()));
        }
    });
    doc.walk_inlines(&mut |inline| {
        if let Inline::Image {
            media,
            alt,
            caption,
        } = inline
            && seen.insert(media.clone())
        {
            list.push((media.clone(), alt.clone(), caption.clone()));
        }
    });
    list
}

/// The pictures as [`Image`] values; one whose bytes cannot be had is left out, with a warning
/// in `warnings` when given.
fn images(
    py: Python<'_>,
    doc: &Document,
    mut warnings: Option<&mut Vec<Warning>>,
) -> PyResult<Vec<Image>> {
    let mut out = Vec::new();
    for (name, alt, caption) in shown(doc) {
        let Some(item) = doc.media.get(&name) else {
            continue;
        };
        // Inflating a picture still deflated in its source: without the lock.
        let bytes = match py.detach(|| item.bytes()) {
            Ok(bytes) => bytes,
            Err(e) => {
                if let Some(w) = warnings.as_deref_mut() {
                    w.push(Warning::new(
                        WarningKind::MissingMedia,
                        format!("{e}; not described"),
                        Location::default().element("img@src"),
                    ));
                }
                continue;
            }
        };
        out.push(Image {
            data: PyBytes::new(py, &bytes).unbind(),
            mime: item.kind.mime(),
            width: item.width,
            height: item.height,
            name,
            alt,
            caption,
        });
    }
    Ok(out)
}

/// The pictures as a Python list of [`Image`].
pub fn image_list<'py>(py: Python<'py>, doc: &Document) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for image in images(py, doc, None)? {
        list.append(Bound::new(py, image)?)?;
    }
    Ok(list)
}

/// Asks `callback` for each picture's alt text and puts the texts it gives into the tree (every
/// appearance of the picture); `None` keeps what the document has. An exception the callback
/// raises ends the conversion with it.
pub fn describe(
    py: Python<'_>,
    doc: &mut Document,
    callback: &Bound<'_, PyAny>,
    warnings: &mut Vec<Warning>,
) -> PyResult<()> {
    let mut texts: HashMap<String, String> = HashMap::new();
    for image in images(py, doc, Some(warnings))? {
        let name = image.name.clone();
        let answer = callback.call1((Bound::new(py, image)?,))?;
        if let Some(text) = answer.extract::<Option<String>>()? {
            texts.insert(name, text);
        }
    }
    if texts.is_empty() {
        return Ok(());
    }
    doc.walk_blocks_mut(&mut |_, block| {
        if let Block::Image(img) = block
            && let Some(text) = texts.get(&img.media)
        {
            img.alt = Some(text.clone());
        }
    });
    doc.walk_inline_lists_mut(&mut |list| {
        for inline in list.iter_mut() {
            if let Inline::Image { media, alt, .. } = inline
                && let Some(text) = texts.get(media.as_str())
            {
                *alt = Some(text.clone());
            }
        }
    });
    Ok(())
}
