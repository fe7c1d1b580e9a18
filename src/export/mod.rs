//! Writers: a [`crate::ast::Document`] in, bytes plus warnings out.

pub mod html;
pub mod markdown;
mod marks;
pub mod parsx;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod sdxml;
pub mod word;
