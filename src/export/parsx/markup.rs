//! XML output: indented elements, start tags with escaped attributes, text elements, and the
//! attribute values parsX spells in German.

use super::Writer;
use crate::ast::Align;
use crate::xml::{escape_attr, escape_text};

pub(super) fn align_value(align: Align) -> Option<&'static str> {
    match align {
        Align::Left => None,
        Align::Center => Some("zentriert"),
        Align::Right => Some("rechts"),
        Align::Justify => Some("blocksatz"),
    }
}

pub(super) fn yes_no(b: bool) -> &'static str {
    if b { "ja" } else { "nein" }
}

impl Writer<'_> {
    pub(super) fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// Writes `<name a="v" …>` on a new line and indents what follows.
    pub(super) fn open(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.newline();
        self.start_tag(name, attrs, false);
        self.depth += 1;
    }

    pub(super) fn close(&mut self, name: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.newline();
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    pub(super) fn start_tag(&mut self, name: &str, attrs: &[(&str, &str)], empty: bool) {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            escape_attr(v, &mut self.out);
            self.out.push('"');
        }
        self.out.push_str(if empty { "/>" } else { ">" });
    }

    /// Writes `<name>text</name>` on a new line.
    pub(super) fn text_element(&mut self, name: &str, text: &str) {
        self.newline();
        self.start_tag(name, &[], false);
        escape_text(text, &mut self.out);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }
}
