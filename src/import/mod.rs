//! Readers: bytes in, [`crate::ast::Document`] plus warnings out.

pub mod docx;
pub(crate) mod html;
pub mod json;
pub mod markdown;
pub mod sdxml;
