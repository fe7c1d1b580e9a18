//! XML output: tags with escaped attributes, escaped text, the extension PIs and the `fields`
//! PI that carries what attributes cannot.

use std::any::Any;
use std::borrow::Cow;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Loss, Writer};
use crate::byte_scan::any_byte;
use crate::sdxml_ext::{self, Ext};
use crate::xml::{attr_special, escape_attr, escape_text, text_special};
use crate::xml::{xml_char, xml_clean};

/// Whether `s` goes into element content as it is: nothing to escape, nothing XML forbids.
pub(super) fn plain_text(s: &str) -> bool {
    !any_byte(s.as_bytes(), text_special)
}

impl Writer<'_> {
    /// `<name a="v" …>`.
    pub(super) fn start(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.open_tag(name, attrs);
        self.out.push('>');
    }

    /// `<name a="v" …/>`.
    pub(super) fn empty(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.open_tag(name, attrs);
        self.out.push_str("/>");
    }

    fn open_tag(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            // As in `text`: copy whole what needs no escaping (tabs and newlines do here).
            if any_byte(v.as_bytes(), attr_special) {
                escape_attr(v, &mut self.out);
            } else {
                self.out.push_str(v);
            }
            self.out.push('"');
        }
    }

    /// `</name>`.
    pub(super) fn end(&mut self, name: &str) {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    /// Escaped text; callers pass text that [`xml_clean`] accepts or accept the loss.
    pub(super) fn text(&mut self, s: &str) {
        // Most text has nothing to escape: copy it whole instead of char by char. One byte scan
        // finds markup characters, controls and the lead byte of U+FFFE/U+FFFF.
        if plain_text(s) {
            self.out.push_str(s);
        } else {
            escape_text(s, &mut self.out);
        }
    }

    /// `<name>text</name>`.
    pub(super) fn text_element(&mut self, name: &str, s: &str) {
        self.start(name, &[]);
        self.text(s);
        self.end(name);
    }

    /// An extension PI. Only called outside strict mode.
    pub(super) fn pi(&mut self, ext: &Ext) {
        let json = ext.encode();
        self.out.push_str("<?");
        self.out.push_str(sdxml_ext::TARGET);
        self.out.push(' ');
        // JSON leaves U+FFFE/U+FFFF raw, and XML cannot hold them; inside a JSON string (the
        // only place they can be) the escape reads back the same.
        if json.contains(['\u{FFFE}', '\u{FFFF}']) {
            self.out.push_str(
                &json
                    .replace('\u{FFFE}', "\\ufffe")
                    .replace('\u{FFFF}', "\\uffff"),
            );
        } else {
            self.out.push_str(&json);
        }
        self.out.push_str("?>");
    }

    /// Writes the last `fields` PI again when its pair was `back` and a value `same` accepts
    /// (outside strict mode); says whether it did. A caller can ask this before making the
    /// value it would hand to [`Writer::fields`].
    pub(super) fn repeat_fields<T: PartialEq + 'static>(
        &mut self,
        same: impl Fn(&T) -> bool,
        back: &T,
    ) -> bool {
        if self.strict {
            return false;
        }
        let Some(memo) = &self.last_fields else {
            return false;
        };
        let repeats = memo.value.downcast_ref::<T>().is_some_and(same)
            && memo.back.downcast_ref::<T>() == Some(back);
        if repeats {
            self.out.push_str(&memo.written);
        }
        repeats
    }

    /// The `fields` PI for `value`, which the reader will first build as `back`: nothing when they
    /// agree (the common case, decided without serialising anything).
    pub(super) fn fields<T>(&mut self, value: &T, back: &T)
    where
        T: Serialize + DeserializeOwned + PartialEq + Clone + std::fmt::Debug + Send + 'static,
    {
        if value == back {
            return;
        }
        // The same difference comes back block after block (every list item of a style the DTD
        // gives list items no attribute for), and working it out goes through JSON twice: the
        // PI of the last pair is written again when the pair is the same.
        if self.repeat_fields(|last: &T| last == value, back) {
            return;
        }
        let diff = sdxml_ext::field_diff(value, back);
        if cfg!(debug_assertions) {
            check_diff(value, back, &diff);
        }
        if self.strict {
            for name in diff.keys() {
                self.tally(Loss::Fields, name);
            }
            return;
        }
        let from = self.out.len();
        if !diff.is_empty() {
            self.pi(&Ext::Fields(diff));
        }
        self.last_fields = Some(FieldsMemo {
            value: Box::new(value.clone()),
            back: Box::new(back.clone()),
            written: self.out[from..].to_string(),
        });
    }
}

/// The last pair [`Writer::fields`] worked out and what it wrote for them.
pub(super) struct FieldsMemo {
    value: Box<dyn Any + Send>,
    back: Box<dyn Any + Send>,
    written: String,
}

/// The writer's own consistency check (debug builds, so every test runs it): the PI must turn
/// the node the reader builds back into `value`. Values that JSON itself cannot carry (a NaN
/// width, which `validate()` rejects anyway) are skipped.
fn check_diff<T>(value: &T, back: &T, diff: &serde_json::Map<String, serde_json::Value>)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let survives_json = serde_json::to_value(value)
        .ok()
        .and_then(|j| serde_json::from_value::<T>(j).ok())
        .is_some_and(|v| v == *value);
    if survives_json {
        debug_assert_eq!(
            sdxml_ext::apply_fields(back, diff).as_ref(),
            Some(value),
            "a fields PI must restore the node"
        );
    }
}

/// `s` without the characters XML cannot hold (borrowed when there are none).
pub(super) fn xml_safe(s: &str) -> Cow<'_, str> {
    if xml_clean(s) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().filter(|&c| xml_char(c)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Document;
    use crate::report::Report;

    #[test]
    fn xml_clean_finds_forbidden_characters() {
        assert!(xml_clean("a\tb\nc\r äß € 😀 ｶ"));
        assert!(!xml_clean("a\u{1}b"));
        assert!(!xml_clean("a\u{FFFE}"));
        assert_eq!(xml_safe("a\u{0}b\u{FFFF}c"), "abc");
        assert!(matches!(xml_safe("abc"), Cow::Borrowed(_)));
    }

    #[test]
    fn pi_escapes_non_characters() {
        let doc = Document::new();
        let mut w = Writer::new(&doc, false, Report::new());
        w.pi(&Ext::Inline(crate::ast::Inline::text("x\u{FFFE}")));
        assert!(xml_clean(&w.out), "{}", w.out);
        assert!(w.out.contains("\\ufffe"));
    }
}
