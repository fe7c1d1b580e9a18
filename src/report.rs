//! The conversion report: what a conversion could not carry over exactly.
//!
//! Every reader and writer returns [`Converted`]: the value plus the warnings. Nothing is dropped
//! silently; what cannot be converted is a [`Warning`] naming its [`WarningKind`] and [`Location`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::limits::shown_name;

/// A conversion result with its warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted<T> {
    /// The converted value.
    pub value: T,
    /// What could not be carried over exactly, in the order met.
    pub warnings: Vec<Warning>,
}

impl<T> Converted<T> {
    /// A value with no warnings.
    pub fn clean(value: T) -> Self {
        Converted {
            value,
            warnings: Vec::new(),
        }
    }

    /// Maps the value, keeping the warnings.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Converted<U> {
        Converted {
            value: f(self.value),
            warnings: self.warnings,
        }
    }
}

/// What sort of loss or oddity a warning reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// An element the reader does not know; its text was kept where possible.
    UnknownElement,
    /// An attribute the reader does not know.
    UnknownAttribute,
    /// An attribute or value out of range or malformed; a default was used.
    InvalidValue,
    /// A referenced image or part is not in the package.
    MissingMedia,
    /// An older form of the format, converted to the current one.
    LegacyForm,
    /// Content the target format cannot hold; written in a reduced form.
    Lossy,
    /// Content left out entirely.
    Dropped,
    /// A style nothing maps; the default was used.
    UnmappedStyle,
    /// Something was repaired (a field code turned into a link, an id made unique, …).
    Repaired,
}

/// Where in the input (or output) a warning arose.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Location {
    /// The zip part (`sd.xml`, `word/document.xml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// The element or attribute (`table/tr/td@colspan`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// The index of the top-level block concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<usize>,
}

impl Location {
    /// A location in a zip part. A name longer than 120 bytes (`MAX_REPEATED_NAME`) is cut and
    /// ends in `…`: every warning holds its own copy, and a file can draw thousands of warnings
    /// in a part with a name of 64 KiB.
    pub fn part(part: impl AsRef<str>) -> Self {
        Location {
            part: Some(shown_name(part.as_ref()).into_owned()),
            ..Location::default()
        }
    }

    /// Adds the element.
    pub fn element(mut self, element: impl Into<String>) -> Self {
        self.element = Some(element.into());
        self
    }

    /// Adds the block index.
    pub fn block(mut self, block: usize) -> Self {
        self.block = Some(block);
        self
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(part) = &self.part {
            write!(f, "{part}")?;
            sep = ", ";
        }
        if let Some(element) = &self.element {
            write!(f, "{sep}<{element}>")?;
            sep = ", ";
        }
        if let Some(block) = self.block {
            write!(f, "{sep}block {block}")?;
        }
        Ok(())
    }
}

/// One thing a conversion could not carry over exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// What sort.
    pub kind: WarningKind,
    /// What happened, for a person.
    pub message: String,
    /// Where.
    pub location: Location,
}

impl Warning {
    /// A warning.
    pub fn new(kind: WarningKind, message: impl Into<String>, location: Location) -> Self {
        Warning {
            kind,
            message: message.into(),
            location,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = self.location.to_string();
        if loc.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{loc}: {}", self.message)
        }
    }
}

/// Collects warnings while a reader or writer works.
#[derive(Debug, Default)]
pub struct Report {
    warnings: Vec<Warning>,
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a warning.
    pub fn warn(&mut self, kind: WarningKind, message: impl Into<String>, location: Location) {
        self.warnings.push(Warning::new(kind, message, location));
    }

    /// Records a finished warning.
    pub fn push(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }

    /// Records another report's warnings after these.
    pub fn append(&mut self, other: Report) {
        self.warnings.extend(other.warnings);
    }

    /// The warnings, taken out.
    pub fn into_warnings(self) -> Vec<Warning> {
        self.warnings
    }

    /// The warnings so far.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Wraps `value` with the collected warnings.
    pub fn finish<T>(self, value: T) -> Converted<T> {
        Converted {
            value,
            warnings: self.warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warning_display_names_location() {
        let w = Warning::new(
            WarningKind::MissingMedia,
            "image a.png is not in images/",
            Location::part("sd.xml").element("image").block(4),
        );
        assert_eq!(
            w.to_string(),
            "sd.xml, <image>, block 4: image a.png is not in images/"
        );
        let json = serde_json::to_string(&w).unwrap();
        assert!(json.contains("\"kind\":\"missing_media\""), "{json}");
    }
}
