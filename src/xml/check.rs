//! The readers' XML against quick-xml's reader: the comparison the unit tests, the corpus test
//! (`tests/xml_tokens.rs`) and the `xml_tokens` fuzz target run, event by event and attribute
//! by attribute, so that [`super::tokens`] and [`super::attr`] stay what they replace.

use quick_xml::events::{BytesStart, Event};

use super::tokens::{Tokens, quick_xml_reader};

/// Whether [`super::attr`] finds what quick-xml's iterator finds for every attribute of `e`
/// (by its local name) and for a name it lacks.
fn same_attributes(e: &BytesStart<'_>) -> Result<(), String> {
    let names: Vec<String> = e
        .attributes()
        .with_checks(false)
        .flatten()
        .map(|a| super::local(a.key.0).to_string())
        .chain(["val".to_string(), "absent".to_string()])
        .collect();
    for name in &names {
        let (ours, theirs) = (super::attr(e, name), super::attrs::quick_attr(e, name));
        if ours != theirs {
            return Err(format!(
                "attribute {name} of {e:?}: ours {ours:?}, quick-xml's {theirs:?}"
            ));
        }
    }
    Ok(())
}

/// Reads `text` with [`Tokens`] and with quick-xml's reader, event by event, up to the end or
/// the first error, and says where they differ: each event and the position after it, or the
/// error and its offset, must be the same, and so must every attribute lookup in a start tag
/// ([`super::attr`]). Returns the number of events before the end or the error. For the tests,
/// the corpus test and the `xml_tokens` fuzz target.
pub(crate) fn compare_with_quick_xml(text: &str) -> Result<usize, String> {
    let mut ours = Tokens::new(text);
    let mut theirs = quick_xml_reader(text);
    // Every event but the end consumes a byte at least.
    for n in 0..=text.len() {
        match (ours.next(), theirs.read_event()) {
            (Ok(o), Ok(t)) => {
                if o != t {
                    return Err(format!("event {n}: ours {o:?}, quick-xml's {t:?}"));
                }
                if let Event::Start(e) | Event::Empty(e) = &o {
                    same_attributes(e)?;
                }
                if ours.position() != theirs.buffer_position() {
                    return Err(format!(
                        "after event {n} ({o:?}): ours at byte {}, quick-xml at {}",
                        ours.position(),
                        theirs.buffer_position()
                    ));
                }
                if o == Event::Eof {
                    return Ok(n);
                }
            }
            (Err(o), Err(t)) => {
                let (o_at, t_at) = (ours.error_position(), theirs.error_position());
                if o.to_string() != t.to_string() || o_at != t_at {
                    return Err(format!(
                        "error {n}: ours {o} at byte {o_at}, quick-xml's {t} at {t_at}"
                    ));
                }
                // After an error only the end follows.
                return match ours.next() {
                    Ok(Event::Eof) => Ok(n),
                    other => Err(format!("after the error: {other:?}")),
                };
            }
            (o, t) => return Err(format!("event {n}: ours {o:?}, quick-xml's {t:?}")),
        }
    }
    Err("more events than bytes".into())
}
