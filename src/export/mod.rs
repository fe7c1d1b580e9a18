//! Writers: a [`crate::ast::Document`] in, bytes plus warnings out.
pub mod word;
