//! Stage one: `word/comments.xml` (ECMA-376 §17.13.4): comment bodies with author, initials and
//! date.

use super::model::Block;
use super::parser::{BodyParser, Facts};
use super::rels::Relationships;
use crate::error::Result;
use crate::limits::Limits;
use crate::report::Report;

/// One comment before conversion.
#[derive(Debug, Clone)]
pub struct RawComment {
    /// `w:id`.
    pub id: String,
    /// `w:author`.
    pub author: Option<String>,
    /// `w:initials`.
    pub initials: Option<String>,
    /// `w:date`.
    pub date: Option<String>,
    /// The comment's paragraphs.
    pub blocks: Vec<Block>,
}

/// Parses a comments part.
pub fn parse(
    text: &str,
    part: &str,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<Vec<RawComment>> {
    let mut facts = Facts::default();
    let containers = BodyParser::new(text, part, rels, limits, report, &mut facts)
        .parse_containers("comment")?;
    let nonempty = |v: Option<&str>| v.filter(|s| !s.is_empty()).map(str::to_string);
    Ok(containers
        .into_iter()
        .filter_map(|c| {
            Some(RawComment {
                id: c.attr("id")?.to_string(),
                author: nonempty(c.attr("author")),
                initials: nonempty(c.attr("initials")),
                date: nonempty(c.attr("date")),
                blocks: c.blocks,
            })
        })
        .collect())
}
