//! sdconv's extension of sd.xml: what the service's DTD cannot hold travels in processing
//! instructions `<?sdconv JSON?>`.
//!
//! Why processing instructions: the DTD's content models ignore them (XML 1.0 §3: PIs are not part
//! of the document's character data and may appear in any content but `EMPTY`), so an export that
//! carries them stays `xmllint --dtdvalid` clean, the service skips them, and our own reader gets
//! back exactly the tree that was written. The DTD-strict mode of the writer leaves them out and
//! reports each omission as a warning.
//!
//! | PI payload | where | meaning |
//! |---|---|---|
//! | `{"fields":{…}}` | first child of a block element (`paragraph`, `heading`, `ol-li`, `ul-li`, `image`, `table`, `tr`, `th`/`td`, cell `p`), of `meta`, `index-node`, `footnote`/`sidenote` or `img` | tree fields the element has no attribute for, by their JSON name (`{"alt":"A cat"}`, `{"kind":"caption"}`, `{"header":true}` on `tr`, `{"kind":"endnote"}` on `footnote`); `null` = the field's default |
//! | `{"open":MARK}` … `{"close":null}` | inline content | a mark (tracked change, a character style inside a footnote, …) the context has no element for; each `close` ends the latest `open` |
//! | `{"inline":INLINE}` | inline content | an inline the context cannot hold (a comment anchor, a note inside a note, text with characters XML 1.0 cannot hold, ruby — followed by its `base (reading)` text for the service, which the reader skips) |
//! | `{"wrapper":null}` | first child of a formatting element | the element was added only because the DTD allows `br` there and not in its parent: its formatting means nothing |
//! | `{"block":BLOCK}` | `document`, or cell content | a block the DTD cannot hold at that place (a table inside a table cell) |
//! | `{"comments":[…]}` | first child of `document` | the comment texts referred to by comment anchors |
//! | `{"math":INLINE}` … `{"math_end":null}` | inline content | a formula; the text between the two PIs is its linear plain-text form for the service, skipped by our reader |
//!
//! The JSON is the tree's own serde form. `>` is written as `\u003e` inside it so the PI can never
//! contain `?>`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ast::{Block, Comment, Inline, Mark};

/// The PI target.
pub const TARGET: &str = "sdconv";

/// One extension payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ext {
    /// Field overrides for the enclosing element's tree node.
    Fields(Map<String, Value>),
    /// Opens a mark.
    Open(Mark),
    /// Closes the latest [`Ext::Open`].
    Close(Option<()>),
    /// An inline atom.
    Inline(Inline),
    /// The enclosing element is a validity wrapper.
    Wrapper(Option<()>),
    /// A block.
    Block(Block),
    /// The document's comments.
    Comments(Vec<Comment>),
    /// A formula ([`Inline::Math`]); the text up to the next [`Ext::MathEnd`] is its plain-text
    /// fallback for readers without the extension, and is skipped by ours.
    Math(Inline),
    /// Ends a formula's fallback text.
    MathEnd(Option<()>),
}

impl Ext {
    /// The PI's content after the target: JSON with `>` escaped.
    pub fn encode(&self) -> String {
        // Serialising tree values (string keys, no maps with non-string keys) cannot fail.
        serde_json::to_string(self)
            .unwrap_or_default()
            .replace('>', "\\u003e")
    }

    /// Parses a PI's content after the target; `None` when it is not one of ours.
    pub fn decode(content: &str) -> Option<Ext> {
        serde_json::from_str(content.trim()).ok()
    }

    /// The whole processing instruction, `<?sdconv …?>`.
    pub fn to_pi(&self) -> String {
        format!("<?{TARGET} {}?>", self.encode())
    }
}

/// Overlays `fields` on `value`'s serde form and reads it back; `None` if the result no longer
/// fits the type (a hand-edited PI), in which case the caller keeps `value` and warns.
///
/// `null` resets a field to its serde default: the key is removed, so `false`, `0` or `left`
/// fields (which [`field_diff`] reports as `null` because the tree skips them) read back too.
pub fn apply_fields<T>(value: &T, fields: &Map<String, Value>) -> Option<T>
where
    T: Serialize + for<'de> Deserialize<'de>,
{
    let mut json = serde_json::to_value(value).ok()?;
    let obj = json.as_object_mut()?;
    for (k, v) in fields {
        if v.is_null() {
            obj.remove(k);
        } else {
            obj.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json).ok()
}

/// The fields of `value` whose serde form differs from `written`'s: what a writer must carry in
/// an [`Ext::Fields`] after writing the attributes that produce `written` on reading.
pub fn field_diff<T: Serialize>(value: &T, written: &T) -> Map<String, Value> {
    let (Ok(Value::Object(a)), Ok(Value::Object(b))) =
        (serde_json::to_value(value), serde_json::to_value(written))
    else {
        return Map::new();
    };
    let mut out = Map::new();
    for (k, v) in &a {
        if b.get(k) != Some(v) {
            out.insert(k.clone(), v.clone());
        }
    }
    // A field the written form has and the value lacks (skipped as default) must be reset.
    for (k, _) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
        out.insert(k.clone(), Value::Null);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Image, Paragraph, TextType};

    #[test]
    fn encoded_pi_never_closes_early() {
        let ext = Ext::Inline(Inline::text("a ?> b"));
        let pi = ext.to_pi();
        assert_eq!(pi.matches("?>").count(), 1, "{pi}");
        assert!(pi.ends_with("?>"));
        assert_eq!(Ext::decode(&ext.encode()), Some(ext));
    }

    #[test]
    fn diff_then_apply_restores_the_value() {
        let full = Image {
            media: "a.png".into(),
            alt: Some("A cat".into()),
            numbered: false,
            ..Image::default()
        };
        let written = Image {
            media: "a.png".into(),
            ..Image::default()
        };
        let diff = field_diff(&full, &written);
        assert_eq!(diff.len(), 2, "{diff:?}");
        assert_eq!(apply_fields(&written, &diff), Some(full));
    }

    #[test]
    fn diff_resets_skipped_defaults_of_any_type() {
        // `header: false`, `level: 0` and `align: left` are skipped in the serde form: the diff
        // says `null`, and applying it must give the defaults back, not fail.
        let value = crate::ast::Row::default();
        let written = crate::ast::Row {
            header: true,
            ..crate::ast::Row::default()
        };
        let diff = field_diff(&value, &written);
        assert_eq!(diff.get("header"), Some(&Value::Null));
        assert_eq!(apply_fields(&written, &diff), Some(value));
        let value = Paragraph::new(TextType::Paragraph, vec![]);
        let written = Paragraph {
            level: 3,
            align: crate::ast::Align::Center,
            ..value.clone()
        };
        assert_eq!(
            apply_fields(&written, &field_diff(&value, &written)),
            Some(value)
        );
        // Images default to numbered captions: `null` restores `true`.
        let value = Image::default();
        let written = Image {
            numbered: false,
            ..Image::default()
        };
        assert_eq!(
            apply_fields(&written, &field_diff(&value, &written)),
            Some(value)
        );
    }

    #[test]
    fn diff_resets_fields_the_value_lacks() {
        let value = Paragraph::new(TextType::Caption, vec![]);
        let written = Paragraph {
            style: Some("x".into()),
            ..Paragraph::new(TextType::Paragraph, vec![])
        };
        let diff = field_diff(&value, &written);
        assert_eq!(apply_fields(&written, &diff), Some(value));
    }
}
