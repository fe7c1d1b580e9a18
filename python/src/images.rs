//! Pictures: the `describe_image` callback that supplies alt texts. (The `images=` modes are
//! the engine's: [`sdconv::export::files::ImageMode`].)

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use sdconv::ast::{Block, Inline};
use sdconv::{Document, Location, Warning, WarningKind};

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
