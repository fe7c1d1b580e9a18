//! Stage two of the Word reader: the plain structs of stage one ([`super::parse`]) into the
//! tree. The folder is named for what it makes: it was `build/`, which tools (editors' search,
//! indexers, `.gitignore` habits) take for build output and skip.
//!
//! - [`converter`]: the converter's state and the helpers every step shares (the steps import
//!   it, it imports none of them); [`convert`]: its entry points (body, comments, header and
//!   footer text) and block lists; [`paragraphs`]: one Word paragraph into blocks, step by step;
//!   [`inlines`]: runs, links, changes, notes, comments and pictures inside a paragraph;
//!   [`fields`]: complex and simple fields across paragraphs.
//! - [`mapping`]: the text type of each paragraph (the API's `styleMapping`, built-in styles,
//!   outline levels, numbering); [`numbering`]: Word's list counters and the tree's canonical
//!   list form; [`looks`]: how Word draws each list level, handed out for magic import.
//! - [`tables`]: Word's rows and cells onto the tree's grid; [`captions`]: caption paragraphs
//!   onto the pictures and tables they name.
//! - [`seam`]: a long body converted in two halves at once and joined as one converter's;
//!   [`copies`]: the budget of what parts named at several places copy into the tree.
//! - [`media`]: media names; [`pictures`]: loaded pictures into the media store, and the
//!   passes over picture blocks; [`references`]: bookmark ids and the cross-references to
//!   them; [`meta`]: metadata under the caller's values; [`language`]: languages and
//!   directions, settled over the whole body.

pub mod captions;
pub mod convert;
pub mod converter;
pub mod copies;
pub mod fields;
pub mod inlines;
pub mod language;
pub mod looks;
pub mod mapping;
pub mod media;
pub mod meta;
pub mod numbering;
pub mod pages;
pub mod paragraphs;
pub mod pictures;
pub mod references;
pub mod seam;
pub mod tables;
