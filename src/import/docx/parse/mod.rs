//! Stage one of the Word reader: Word parts into plain structs, one module per part, as mammoth
//! reads them. Nothing here knows the tree's text types or the caller's mapping; stage two
//! ([`super::tree`]) decides those.
//!
//! - [`package`]: what the bytes are, `[Content_Types].xml`, `_rels/.rels`, the main part;
//!   [`rels`]: any part's relationships; [`xmlutil`]: attribute and measurement helpers.
//! - [`styles`], [`numbering`], [`props`] (the `w:rPr`/`w:pPr`/`w:sectPr` they share),
//!   [`core_props`], [`settings`].
//! - [`parser`]: the streaming parser's state and the helpers its steps share (the steps
//!   import it, it imports none of them); [`body`]: its reading of every part holding
//!   paragraphs (main part, notes, comments, headers, footers) into [`model`] values, with
//!   [`runs`], [`tables`], [`drawing`], [`math`] and [`symbols`] for what runs and blocks hold;
//!   [`halves`] splits a large main part between two parsers; [`scratch`] builds the lists
//!   of a paragraph's items and a cell's blocks in reused room.
//! - [`notes`], [`comments`]: the containers of those parts; [`charts`], [`smartart`]: the data
//!   parts drawings point at; [`fields`]: field instructions.
//! - [`parts`]: finding and reading the optional parts (a malformed one is warned about and
//!   skipped); [`pictures`]: the picture parts, read on a second thread while the text is read.

pub mod body;
pub mod charts;
pub mod comments;
pub mod core_props;
pub mod drawing;
pub mod fields;
pub mod halves;
pub mod math;
pub mod model;
pub mod notes;
pub mod numbering;
pub mod package;
pub mod parser;
pub mod parts;
pub mod pictures;
pub mod props;
pub mod rels;
pub mod runs;
pub mod scratch;
pub mod settings;
pub mod smartart;
pub mod styles;
pub mod symbols;
pub mod tables;
pub mod xmlutil;
