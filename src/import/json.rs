//! Reads the tree's own JSON dump (media come back without bytes).

use crate::ast::{Document, FORMAT_VERSION};
use crate::error::{Error, Result};
use crate::report::Converted;

/// Parses a JSON dump written by [`Document::to_json`]. A dump from a newer format version is
/// refused rather than misread.
pub fn read(bytes: &[u8]) -> Result<Converted<Document>> {
    let text = crate::xml::decode(bytes, "json")?;
    let doc = Document::from_json(text).map_err(|e| Error::Invalid {
        part: "json".into(),
        message: format!("line {} column {}: {e}", e.line(), e.column()),
    })?;
    if doc.format_version > FORMAT_VERSION {
        return Err(Error::invalid(
            "json",
            format!(
                "format version {} is newer than this build's {FORMAT_VERSION}",
                doc.format_version
            ),
        ));
    }
    Ok(Converted::clean(doc))
}
