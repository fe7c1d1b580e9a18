//! `sdconv.register_fonts`: font files for the PDF writer (and the Word writer's page numbers),
//! as the CLI's `--font-dir` adds them. The engine takes font bytes ([`sdconv::fonts::register`]);
//! reading the folder is this binding's work, done with the interpreter's lock released.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use sdconv::fonts::{FontError, MAX_FONT_BYTES};

use crate::{InvalidInput, LimitExceeded};

/// Why fonts could not be registered, gathered without the lock.
enum Refused {
    /// A file or folder could not be read.
    Read(PathBuf, std::io::Error),
    /// A folder with no font file in it.
    Empty(PathBuf),
    /// The engine refused a font.
    Font(Option<PathBuf>, FontError),
}

impl From<Refused> for PyErr {
    fn from(refused: Refused) -> PyErr {
        match refused {
            Refused::Read(path, e) => {
                let message = format!("{}: {e}", path.display());
                match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        pyo3::exceptions::PyFileNotFoundError::new_err(message)
                    }
                    _ => pyo3::exceptions::PyOSError::new_err(message),
                }
            }
            Refused::Empty(dir) => InvalidInput::new_err(format!(
                "{}: no .ttf, .otf, .ttc or .otc file in the font folder",
                dir.display()
            )),
            Refused::Font(path, e) => {
                let message = match path {
                    Some(path) => format!("{}: {e}", path.display()),
                    None => e.to_string(),
                };
                match e {
                    FontError::NotAFont => InvalidInput::new_err(message),
                    FontError::TooLarge(_) | FontError::Full => LimitExceeded::new_err(message),
                }
            }
        }
    }
}

/// Whether `path` is named like a font file.
fn is_font_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "ttf" | "otf" | "ttc" | "otc"
        )
    })
}

/// The font files of `path`: the folder's (not its sub-folders'), in name order, as the CLI's
/// `--font-dir` takes them; or the one file `path` names.
fn font_files(path: &Path) -> Result<Vec<PathBuf>, Refused> {
    let read = |e| Refused::Read(path.to_path_buf(), e);
    if !std::fs::metadata(path).map_err(read)?.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(read)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| is_font_file(p) && p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Refused::Empty(path.to_path_buf()));
    }
    Ok(files)
}

/// Registers each file with the engine, checking its size before reading it.
fn register_files(files: &[PathBuf]) -> Result<usize, Refused> {
    let mut added = 0;
    for file in files {
        let read = |e| Refused::Read(file.clone(), e);
        let len = std::fs::metadata(file).map_err(read)?.len();
        if len > MAX_FONT_BYTES as u64 {
            let len = usize::try_from(len).unwrap_or(usize::MAX);
            return Err(Refused::Font(Some(file.clone()), FontError::TooLarge(len)));
        }
        let bytes = std::fs::read(file).map_err(read)?;
        added +=
            sdconv::fonts::register(bytes).map_err(|e| Refused::Font(Some(file.clone()), e))?;
    }
    Ok(added)
}

/// Registers fonts for the rest of the process: every font file in a folder (as the CLI's
/// `--font-dir`), one font file, or a font's bytes. Returns the number of faces added.
#[pyfunction]
#[pyo3(signature = (data=None, path=None))]
pub fn register_fonts(
    py: Python<'_>,
    data: Option<Vec<u8>>,
    path: Option<PathBuf>,
) -> PyResult<usize> {
    let added = match (data, path) {
        (Some(bytes), None) => {
            py.detach(|| sdconv::fonts::register(bytes).map_err(|e| Refused::Font(None, e)))?
        }
        (None, Some(path)) => py.detach(|| register_files(&font_files(&path)?))?,
        _ => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "pass exactly one of data= and path=",
            ));
        }
    };
    Ok(added)
}
