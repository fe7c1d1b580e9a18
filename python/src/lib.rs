//! `sdconv._sdconv`: the Python extension module of the sdconv engine.
//!
//! The pure-Python package `sdconv` (python/sdconv/__init__.py) is the public face; this module
//! holds what needs Rust: reading and writing documents with the interpreter's lock released,
//! the options checked by the engine, and the engine's errors raised as typed exceptions.
//!
//! Only the engine's public face is used: [`sdconv::import_shared`],
//! [`sdconv::export::files::export_files`] (the Markdown and HTML writers' extra files, which
//! Python callers get as bytes), the option types, [`sdconv::ast`] for picture alt texts and
//! counts, and [`sdconv::fonts::register`] for `register_fonts`.

mod fonts;
mod images;
mod options;

use std::path::{Path, PathBuf};

use bytes::Bytes;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use sdconv::ast::{Block, TextType};
use sdconv::export::files::{ExportedFiles, export_files};
use sdconv::{Document, ErrorKind, Format, Warning};

use crate::options::{ExportSpec, ImportSpec};

create_exception!(
    sdconv,
    Error,
    PyException,
    "Any failure of sdconv: the base of the other exceptions."
);
create_exception!(
    sdconv,
    InvalidInput,
    Error,
    "The input is not a readable document of its format (not a zip, malformed XML, a missing \
     part, a truncated file, …)."
);
create_exception!(
    sdconv,
    InvalidOption,
    Error,
    "An option is wrong (an unknown style set or routine, a bad style mapping or Word settings, \
     an unknown language, …)."
);
create_exception!(
    sdconv,
    LimitExceeded,
    Error,
    "The input passes one of the engine's limits (a zip bomb, too deep nesting, a huge picture)."
);
create_exception!(
    sdconv,
    UnsupportedFormat,
    Error,
    "A format sdconv does not know, or cannot convert in this direction (PDF input, …)."
);
create_exception!(
    sdconv,
    ConversionFailed,
    Error,
    "The engine could not finish a conversion for a reason that is not the input's or the \
     options' fault."
);

/// Why a conversion failed, gathered without the interpreter's lock and raised as an exception
/// once it is held again.
#[derive(Debug)]
enum Failure {
    /// The engine's own error.
    Engine(sdconv::Error),
    /// The input file could not be read.
    Read(PathBuf, std::io::Error),
    /// The input's format cannot be told from its name or bytes.
    Undetected(sdconv::Undetected),
    /// A format the engine knows but cannot read or write.
    Direction(Format, &'static str),
}

impl From<sdconv::Error> for Failure {
    fn from(e: sdconv::Error) -> Self {
        Failure::Engine(e)
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        match failure {
            Failure::Engine(e) => {
                let message = e.to_string();
                match (e.kind(), &e) {
                    (_, sdconv::Error::Unavailable(_)) => UnsupportedFormat::new_err(message),
                    (ErrorKind::Input, _) => InvalidInput::new_err(message),
                    (ErrorKind::Parameter, _) => InvalidOption::new_err(message),
                    (ErrorKind::TooLarge, _) => LimitExceeded::new_err(message),
                    _ => ConversionFailed::new_err(message),
                }
            }
            Failure::Read(path, e) => match e.kind() {
                std::io::ErrorKind::NotFound => pyo3::exceptions::PyFileNotFoundError::new_err(
                    format!("{}: {e}", path.display()),
                ),
                _ => pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())),
            },
            Failure::Undetected(why) => InvalidInput::new_err(format!(
                "cannot tell the input's format from its name or content ({why}); pass from_="
            )),
            Failure::Direction(format, direction) => {
                UnsupportedFormat::new_err(format!("sdconv cannot {direction} {format}"))
            }
        }
    }
}

/// Where a document comes from: bytes the caller passed, or a file this module reads with the
/// lock released (its extension also tells the format).
enum Source {
    Data(Bytes),
    Path(PathBuf),
}

impl Source {
    fn new(data: Option<&[u8]>, path: Option<PathBuf>) -> PyResult<Source> {
        match (data, path) {
            (Some(data), None) => Ok(Source::Data(Bytes::copy_from_slice(data))),
            (None, Some(path)) => Ok(Source::Path(path)),
            _ => Err(pyo3::exceptions::PyTypeError::new_err(
                "pass exactly one of data= and path=",
            )),
        }
    }

    fn load(&self) -> Result<(Bytes, Option<&Path>), Failure> {
        match self {
            Source::Data(bytes) => Ok((bytes.clone(), None)),
            Source::Path(path) => std::fs::read(path)
                .map(|bytes| (Bytes::from(bytes), Some(path.as_path())))
                .map_err(|e| Failure::Read(path.clone(), e)),
        }
    }
}

/// The input format by the engine's [`Format::for_reading`]: the caller's, else detected from
/// the file name and the bytes, and one sdconv reads.
fn input_format(
    from: Option<Format>,
    path: Option<&Path>,
    bytes: &[u8],
) -> Result<Format, Failure> {
    Format::for_reading(from, bytes, path).map_err(|e| match e {
        sdconv::Unreadable::Undetected(why) => Failure::Undetected(why),
        sdconv::Unreadable::WriteOnly(format) => Failure::Direction(format, "read"),
    })
}

/// Reads a document (the work of [`read`] and the first half of [`convert`]).
fn import(source: &Source, spec: &ImportSpec) -> Result<sdconv::Converted<Document>, Failure> {
    import_for(source, spec, None)
}

/// [`import`] for a conversion to `export`, when one follows: when that writes every picture's
/// bytes ([`sdconv::export::files::ImageMode::inflates_pictures`]), the Word reader inflates
/// them on its picture thread while it builds the tree, as `sdconv::convert` has it do for the
/// single-file page, instead of the writer after it.
fn import_for(
    source: &Source,
    spec: &ImportSpec,
    export: Option<&ExportSpec>,
) -> Result<sdconv::Converted<Document>, Failure> {
    let (bytes, path) = source.load()?;
    let format = input_format(spec.from, path, &bytes)?;
    if export.is_some_and(|e| e.images.inflates_pictures(e.to)) {
        let mut options = spec.options.clone();
        options.docx = options.docx.with_inflate_pictures(true);
        return Ok(sdconv::import_shared(format, bytes, &options)?);
    }
    Ok(sdconv::import_shared(format, bytes, &spec.options)?)
}

/// What a writer produced, before it becomes Python objects.
struct Output {
    format: Format,
    /// The main file: the text of a text format, the bytes of the others.
    main: Vec<u8>,
    /// Files beside the main one (`images/…`, `style.css`), by relative name.
    files: Vec<(String, Bytes)>,
    warnings: Vec<Warning>,
    title: Option<String>,
}

/// Writes `doc` as `spec` asks: the engine's [`export_files`], which prepares the tree as
/// [`sdconv::export()`] does and gives Markdown's and HTML's pictures as files, inside the text or
/// not at all ([`ExportSpec::images`]).
fn export(doc: &Document, spec: &ExportSpec) -> Result<Output, Failure> {
    let to = spec.to;
    if !to.can_write() {
        return Err(Failure::Direction(to, "write"));
    }
    let out = export_files(doc, to, &spec.export, spec.images)?;
    let ExportedFiles { main, files } = out.value;
    Ok(Output {
        format: to,
        main,
        files,
        warnings: out.warnings,
        title: doc.meta.title.clone(),
    })
}

/// The output as the tuple `sdconv.Result` is made from:
/// `(format, is_text, main: bytes, files: [(name, bytes)], warnings, title)`.
fn output_tuple<'py>(
    py: Python<'py>,
    mut out: Output,
    mut before: Vec<Warning>,
) -> PyResult<Bound<'py, PyTuple>> {
    before.append(&mut out.warnings);
    let files = PyList::empty(py);
    for (name, bytes) in &out.files {
        files.append((name, PyBytes::new(py, bytes)))?;
    }
    (
        out.format.name(),
        out.format.is_text(),
        PyBytes::new(py, &out.main),
        files,
        warnings_list(py, &before)?,
        out.title,
    )
        .into_pyobject(py)
}

/// Warnings as `(kind, message, part, element, block)` tuples.
fn warnings_list<'py>(py: Python<'py>, warnings: &[Warning]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for w in warnings {
        // The kind's snake_case name, as the JSON warnings of the CLI and the server spell it.
        let kind = serde_json::to_value(w.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{:?}", w.kind));
        list.append((
            kind,
            &w.message,
            &w.location.part,
            &w.location.element,
            w.location.block,
        ))?;
    }
    Ok(list)
}

/// A document read once, to be written any number of ways (`sdconv.read`).
#[pyclass(frozen, module = "sdconv._sdconv")]
struct RawDocument {
    doc: Document,
    warnings: Vec<Warning>,
}

#[pymethods]
impl RawDocument {
    /// Writes the document as `spec` asks; `describe_image` may supply alt texts first.
    #[pyo3(signature = (spec, describe_image=None))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        spec: &ExportSpec,
        describe_image: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let out = match describe_image {
            Some(callback) => {
                let mut doc = self.doc.clone();
                let mut warnings = self.warnings.clone();
                images::describe(py, &mut doc, &callback, &mut warnings)?;
                let out = py.detach(|| export(&doc, spec))?;
                return output_tuple(py, out, warnings);
            }
            None => py.detach(|| export(&self.doc, spec))?,
        };
        output_tuple(py, out, self.warnings.clone())
    }

    /// The tree's JSON dump.
    fn to_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.doc.to_json())
    }

    /// The metadata as JSON.
    fn metadata_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.doc.meta)
            .map_err(|e| ConversionFailed::new_err(format!("metadata: {e}")))
    }

    /// The reader's warnings.
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        warnings_list(py, &self.warnings)
    }

    /// How many blocks of each kind the document has, tables' content included.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (mut paragraphs, mut headings, mut list_items, mut tables, mut images) =
            (0, 0, 0, 0, 0);
        self.doc.walk_blocks(&mut |_, block| match block {
            Block::Paragraph(p) => match p.kind {
                TextType::Heading | TextType::HeadingOl => headings += 1,
                TextType::ListOl | TextType::ListUl => list_items += 1,
                _ => paragraphs += 1,
            },
            Block::Table(_) => tables += 1,
            Block::Image(_) => images += 1,
            _ => {}
        });
        self.doc.walk_inlines(&mut |inline| {
            if let sdconv::ast::Inline::Image { .. } = inline {
                images += 1;
            }
        });
        let counts = PyDict::new(py);
        counts.set_item("blocks", self.doc.blocks.len())?;
        counts.set_item("paragraphs", paragraphs)?;
        counts.set_item("headings", headings)?;
        counts.set_item("list_items", list_items)?;
        counts.set_item("tables", tables)?;
        counts.set_item("images", images)?;
        counts.set_item("media", self.doc.media.len())?;
        counts.set_item("comments", self.doc.comments.len())?;
        Ok(counts)
    }

    /// The pictures the document shows, as `sdconv.Image` values.
    fn images<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        images::image_list(py, &self.doc)
    }
}

/// Reads a document: from `data` or the file at `path`.
#[pyfunction]
#[pyo3(signature = (spec, data=None, path=None))]
fn read(
    py: Python<'_>,
    spec: &ImportSpec,
    data: Option<&[u8]>,
    path: Option<PathBuf>,
) -> PyResult<RawDocument> {
    let source = Source::new(data, path)?;
    let read = py.detach(|| import(&source, spec))?;
    Ok(RawDocument {
        doc: read.value,
        warnings: read.warnings,
    })
}

/// Reads and writes a document in one call; the tree never reaches Python.
#[pyfunction]
#[pyo3(signature = (import_spec, export_spec, data=None, path=None, describe_image=None))]
fn convert<'py>(
    py: Python<'py>,
    import_spec: &ImportSpec,
    export_spec: &ExportSpec,
    data: Option<&[u8]>,
    path: Option<PathBuf>,
    describe_image: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let source = Source::new(data, path)?;
    let read = py.detach(|| import_for(&source, import_spec, Some(export_spec)))?;
    let mut warnings = read.warnings;
    let mut doc = read.value;
    if let Some(callback) = describe_image {
        images::describe(py, &mut doc, &callback, &mut warnings)?;
    }
    let out = py.detach(|| {
        let out = export(&doc, export_spec);
        // Freeing a large tree is many small frees: done on the pool while Python goes on.
        rayon::spawn(move || drop(doc));
        out
    })?;
    output_tuple(py, out, warnings)
}

/// Converts many documents on the engine's thread pool (or one of `workers` threads), each
/// `(data, path)`. The results come in order; a failure is returned as the exception's value,
/// never raised.
#[pyfunction]
#[pyo3(signature = (import_spec, export_spec, sources, workers=None))]
fn convert_many<'py>(
    py: Python<'py>,
    import_spec: &ImportSpec,
    export_spec: &ExportSpec,
    sources: Vec<(Option<Vec<u8>>, Option<PathBuf>)>,
    workers: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    use rayon::prelude::*;
    let sources = sources
        .into_iter()
        .map(|(data, path)| Source::new(data.as_deref(), path))
        .collect::<PyResult<Vec<_>>>()?;
    let run = |sources: &[Source]| -> Vec<Result<(Output, Vec<Warning>), Failure>> {
        sources
            .par_iter()
            .map(|source| {
                let read = import_for(source, import_spec, Some(export_spec))?;
                let out = export(&read.value, export_spec)?;
                Ok((out, read.warnings))
            })
            .collect()
    };
    let results = match workers {
        Some(0) => {
            return Err(InvalidOption::new_err(
                "invalid workers: must be at least 1",
            ));
        }
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| ConversionFailed::new_err(format!("thread pool: {e}")))?;
            py.detach(|| pool.install(|| run(&sources)))
        }
        None => py.detach(|| run(&sources)),
    };
    let list = PyList::empty(py);
    for result in results {
        match result {
            Ok((out, warnings)) => list.append(output_tuple(py, out, warnings)?)?,
            Err(failure) => list.append(PyErr::from(failure).into_value(py))?,
        }
    }
    Ok(list)
}

/// The formats sdconv knows: `(name, can_read, can_write)`.
#[pyfunction]
fn formats() -> Vec<(&'static str, bool, bool)> {
    Format::ALL
        .into_iter()
        .map(|f| (f.name(), f.can_read(), f.can_write()))
        .collect()
}

/// The extension module.
#[pymodule]
fn _sdconv(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("InvalidInput", py.get_type::<InvalidInput>())?;
    m.add("InvalidOption", py.get_type::<InvalidOption>())?;
    m.add("LimitExceeded", py.get_type::<LimitExceeded>())?;
    m.add("UnsupportedFormat", py.get_type::<UnsupportedFormat>())?;
    m.add("ConversionFailed", py.get_type::<ConversionFailed>())?;
    m.add_class::<ImportSpec>()?;
    m.add_class::<ExportSpec>()?;
    m.add_class::<RawDocument>()?;
    m.add_class::<images::Image>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(convert_many, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(fonts::register_fonts, m)?)?;
    Ok(())
}
