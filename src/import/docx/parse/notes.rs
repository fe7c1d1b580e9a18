//! Stage one: `word/footnotes.xml` and `word/endnotes.xml` (ECMA-376 §17.11): note bodies by id.
//! The separator notes Word keeps there (`w:type="separator"`, `continuationSeparator`,
//! `continuationNotice`) are layout, not content, and are skipped.

use std::collections::HashMap;

use super::model::Block;
use super::parser::{BodyParser, Facts};
use super::rels::Relationships;
use crate::ast::NoteKind;
use crate::error::Result;
use crate::limits::Limits;
use crate::report::Report;

/// Note bodies by id.
pub type NoteMap = HashMap<String, Vec<Block>>;

/// Parses a footnotes or endnotes part.
pub fn parse(
    text: &str,
    part: &str,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
    kind: NoteKind,
) -> Result<NoteMap> {
    let element = match kind {
        NoteKind::Endnote => "endnote",
        _ => "footnote",
    };
    // Bookmarks inside notes cannot become block ids: keep their facts apart.
    let mut facts = Facts::default();
    let containers =
        BodyParser::new(text, part, rels, limits, report, &mut facts).parse_containers(element)?;
    let mut map = NoteMap::new();
    for c in containers {
        let separator = matches!(
            c.attr("type"),
            Some("separator" | "continuationSeparator" | "continuationNotice")
        );
        if separator {
            continue;
        }
        if let Some(id) = c.attr("id") {
            map.entry(id.to_string()).or_insert(c.blocks);
        }
    }
    Ok(map)
}
