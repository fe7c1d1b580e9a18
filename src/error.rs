//! Errors: each says what failed and where, and which [`ErrorKind`] of failure it is, so that a
//! caller (the server, the CLI) can decide what to answer without reading messages.

use thiserror::Error;

/// Result with this crate's [`Error`](enum@Error).
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A conversion that could not produce a result. Losses short of that are warnings
/// ([`crate::report::Warning`]), not errors.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is not a zip archive (or is a corrupt one).
    #[error("not a valid zip archive: {0}")]
    NotZip(String),
    /// The input is some other kind of file than the format expects.
    #[error("not a {expected} file: {found}")]
    WrongFormat {
        /// The format that was expected (`docx`, `sd.xml zip`).
        expected: &'static str,
        /// What the bytes look like instead.
        found: String,
    },
    /// The input's format cannot be told from its name or content ([`Format::detect`]).
    ///
    /// [`Format::detect`]: crate::Format::detect
    #[error("cannot tell the input's format: {0}")]
    Undetected(#[from] crate::sniff::Undetected),
    /// A part the format requires is absent.
    #[error("{part} is missing from the archive")]
    MissingPart {
        /// The part's name.
        part: String,
    },
    /// A zip entry name that could escape a folder or is otherwise unsafe.
    #[error("unsafe entry name {name:?} in the archive: {reason}")]
    UnsafeName {
        /// The name as stored.
        name: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// XML that does not parse.
    #[error("{part}: malformed XML at byte {position}: {message}")]
    Xml {
        /// The part.
        part: String,
        /// Byte offset in the part.
        position: u64,
        /// The parser's message.
        message: String,
    },
    /// Well-formed input that breaks the format's rules beyond repair.
    #[error("{part}: {message}")]
    Invalid {
        /// The part (or `input`).
        part: String,
        /// What is wrong, naming the element.
        message: String,
    },
    /// An input limit was exceeded (zip bomb, deep nesting, huge image, …).
    #[error("{what} exceeds the limit: {detail}")]
    TooLarge {
        /// What was too large (`uncompressed size`, `XML depth`).
        what: &'static str,
        /// The numbers.
        detail: String,
    },
    /// A caller-supplied parameter is wrong (unknown format, bad mapping, …).
    #[error("invalid {name}: {message}")]
    Parameter {
        /// The parameter (`styleMapping["Title"].level`).
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// The format exists in the API but this build does not convert it yet.
    #[error("format {0} is not available yet")]
    Unavailable(String),
    /// Writing the output failed.
    #[error("writing {format}: {message}")]
    Write {
        /// The output format.
        format: &'static str,
        /// What went wrong.
        message: String,
    },
    /// The document cannot meet the standard asked of the output (PDF/UA-1, PDF/A-2b, …):
    /// rather than a file that claims what it is not, every reason, in plain words.
    #[error("the document cannot be written as {standard}: {}", reasons.join("; "))]
    Nonconforming {
        /// The standard (`PDF/UA-1`, `PDF/A-2b and PDF/UA-1`).
        standard: &'static str,
        /// Each reason (which character has no glyph, which picture has no description).
        reasons: Vec<String>,
    },
}

/// What kind of failure an [`Error`](enum@Error) is: whose fault, and whether trying again can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input bytes are not a readable document of the format (not a zip, malformed XML, a
    /// missing part, an unsafe name, rules broken beyond repair), or the document cannot meet
    /// the standard asked of the output ([`Error::Nonconforming`]).
    Input,
    /// A caller-supplied parameter is wrong ([`Error::Parameter`]).
    Parameter,
    /// The input passes a limit ([`Error::TooLarge`]).
    TooLarge,
    /// The engine could not do it: a format this build does not convert, or writing failed.
    Engine,
}

impl Error {
    /// An output file's write failing: what `export_to`'s sink reports.
    pub(crate) fn file_write(e: std::io::Error) -> Error {
        Error::Write {
            format: "file",
            message: e.to_string(),
        }
    }

    /// The kind of failure, for callers that map errors to their own answers (the server's
    /// status codes live in the server).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::TooLarge { .. } => ErrorKind::TooLarge,
            Error::Unavailable(_) | Error::Write { .. } => ErrorKind::Engine,
            Error::Parameter { .. } => ErrorKind::Parameter,
            Error::NotZip(_)
            | Error::WrongFormat { .. }
            | Error::Undetected(_)
            | Error::MissingPart { .. }
            | Error::UnsafeName { .. }
            | Error::Xml { .. }
            | Error::Invalid { .. }
            | Error::Nonconforming { .. } => ErrorKind::Input,
        }
    }

    /// A [`Error::Parameter`].
    pub fn parameter(name: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Parameter {
            name: name.into(),
            message: message.into(),
        }
    }

    /// A [`Error::Invalid`].
    pub fn invalid(part: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid {
            part: part.into(),
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_say_whose_fault() {
        let too_large = Error::TooLarge {
            what: "uncompressed size",
            detail: "2 GiB > 512 MiB".into(),
        };
        assert_eq!(too_large.kind(), ErrorKind::TooLarge);
        assert_eq!(
            Error::parameter("to", "unknown format x").kind(),
            ErrorKind::Parameter
        );
        assert_eq!(Error::NotZip("eof".into()).kind(), ErrorKind::Input);
        assert_eq!(Error::Unavailable("x".into()).kind(), ErrorKind::Engine);
        assert_eq!(
            Error::MissingPart {
                part: "sd.xml".into()
            }
            .to_string(),
            "sd.xml is missing from the archive"
        );
    }
}
