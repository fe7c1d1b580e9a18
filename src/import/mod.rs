//! Readers: bytes in, [`crate::ast::Document`] plus warnings out.

pub mod docx;
pub mod json;
pub mod markdown;
pub mod sdxml;
