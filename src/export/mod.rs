//! Writers: a [`crate::ast::Document`] in, bytes plus warnings out.

pub mod files;
pub mod html;
pub mod markdown;
mod marks;
pub(crate) mod metafiles;
pub(crate) mod paged;
pub mod parsx;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod sdxml;
pub mod word;

pub use paged::warm_up;

/// What a cross-reference shows when its target has neither a number nor text (or does not
/// exist): a neutral arrow, never the raw bookmark name (`_Ref71265628`) nobody can read.
pub(crate) const XREF_MARK: &str = "\u{2197}";
