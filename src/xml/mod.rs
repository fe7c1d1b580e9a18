//! XML plumbing shared by every reader and writer: a depth-limited pull reader giving
//! quick-xml's events ([`tokens`] cuts them out of the text) that reports errors with the part
//! name and byte offset, entity resolution, and escaping.

mod attrs;
mod check;
mod tokens;

pub use attrs::attr;
pub(crate) use check::compare_with_quick_xml;

use std::borrow::Cow;

use quick_xml::events::{BytesRef, BytesStart, Event};

use crate::byte_scan::{any_byte, next_special};
use crate::error::{Error, Result};
use crate::limits::Limits;

/// Decodes a part's bytes as UTF-8 (a leading byte-order mark is skipped). Other encodings are an
/// error naming the part: every format we read is UTF-8 by specification or in practice.
pub fn decode<'a>(bytes: &'a [u8], part: &str) -> Result<&'a str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| Error::Xml {
        part: part.to_string(),
        position: e.valid_up_to() as u64,
        message: "the text is not valid UTF-8".into(),
    })
}

/// A pull reader that counts depth and refuses nesting deeper than [`Limits::max_xml_depth`], so
/// hostile input cannot make a recursive consumer overflow its stack.
pub struct XmlReader<'a> {
    tokens: tokens::Tokens<'a>,
    part: String,
    depth: usize,
    max_depth: usize,
    /// Added to the tokenizer's offsets: a byte-order mark it skipped (see [`XmlReader::within`]).
    base: u64,
}

impl<'a> XmlReader<'a> {
    /// A reader over `text`, which came from zip part `part`.
    pub fn new(text: &'a str, part: &str, limits: &Limits) -> Self {
        XmlReader {
            tokens: tokens::Tokens::new(text),
            part: part.to_string(),
            depth: 0,
            max_depth: limits.max_xml_depth,
            base: 0,
        }
    }

    /// A reader over part `part` whose `text` is read from byte `at` on, inside the elements
    /// named at `open` ((start, length) in `text`, outermost first), as if it had read up to
    /// there: the second half of a part read in two, without copying it. Positions are the
    /// part's. `None` when a place is not inside `text` after its byte-order mark.
    pub fn within(
        text: &'a str,
        part: &str,
        limits: &Limits,
        at: usize,
        open: &[(usize, usize)],
    ) -> Option<Self> {
        // The tokenizer counts from after a byte-order mark; the reader's positions count it,
        // as those of a reader given the text from `at` on with `base` at would.
        let bom = text.len() - text.strip_prefix('\u{FEFF}').unwrap_or(text).len();
        let inside = |at: usize| at.checked_sub(bom).filter(|&at| at <= text.len() - bom);
        // Every name lies wholly in the text, and no deeper than the reader would have let
        // the elements nest.
        let open = open
            .iter()
            .map(|&(from, len)| {
                let from = inside(from)?;
                inside(from.checked_add(len)?.checked_add(bom)?)?;
                Some((from, len))
            })
            .collect::<Option<Vec<_>>>()?;
        let depth = open.len();
        if depth > limits.max_xml_depth {
            return None;
        }
        Some(XmlReader {
            tokens: tokens::Tokens::within(text, inside(at)?, open),
            part: part.to_string(),
            depth,
            max_depth: limits.max_xml_depth,
            base: bom as u64,
        })
    }

    /// The next event. `Start` and `End` change [`XmlReader::depth`]; `Empty` does not.
    pub fn next_event(&mut self) -> Result<Event<'a>> {
        let event = self.tokens.next().map_err(|e| self.xml_error(e))?;
        match &event {
            Event::Start(_) => {
                self.depth += 1;
                if self.depth > self.max_depth {
                    return Err(Error::TooLarge {
                        what: "XML nesting depth",
                        detail: format!(
                            "{}: more than {} levels at byte {}",
                            self.part,
                            self.max_depth,
                            self.position()
                        ),
                    });
                }
            }
            Event::End(_) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        Ok(event)
    }

    /// How many elements are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Byte offset in the part.
    pub fn position(&self) -> u64 {
        self.tokens.position().saturating_add(self.base)
    }

    /// The part name.
    pub fn part(&self) -> &str {
        &self.part
    }

    /// Skips to the end of the element whose `Start` was just read.
    pub fn skip_element(&mut self) -> Result<()> {
        let target = self.depth.saturating_sub(1);
        while self.depth > target {
            if let Event::Eof = self.next_event()? {
                return Err(self.invalid("the document ends inside an element"));
            }
        }
        Ok(())
    }

    /// Collects the text of the element whose `Start` was just read, skipping child tags, up to its
    /// end.
    pub fn read_text(&mut self) -> Result<String> {
        let target = self.depth.saturating_sub(1);
        let mut out = String::new();
        while self.depth > target {
            match self.next_event()? {
                Event::Text(t) => out.push_str(&t.xml10_content()),
                Event::CData(t) => out.push_str(&t.xml10_content()),
                Event::GeneralRef(r) => push_ref(&r, &mut out),
                Event::Eof => return Err(self.invalid("the document ends inside an element")),
                _ => {}
            }
        }
        Ok(out)
    }

    /// An [`Error::Xml`] at the current position.
    pub fn invalid(&self, message: impl Into<String>) -> Error {
        Error::Xml {
            part: self.part.clone(),
            position: self.position(),
            message: message.into(),
        }
    }

    fn xml_error(&self, e: quick_xml::Error) -> Error {
        Error::Xml {
            part: self.part.clone(),
            position: self.tokens.error_position().saturating_add(self.base),
            message: e.to_string(),
        }
    }
}

/// Appends what an entity or character reference stands for. Unknown entities (only a DTD could
/// define them, and we never load one) are kept literally as `&name;` so no text is lost.
pub fn push_ref(r: &BytesRef<'_>, out: &mut String) {
    match r.resolve_char_ref() {
        Ok(Some(c)) => out.push(c),
        _ => {
            let name = r.xml10_content();
            match quick_xml::escape::resolve_predefined_entity(&name) {
                Some(s) => out.push_str(s),
                None => {
                    out.push('&');
                    out.push_str(&name);
                    out.push(';');
                }
            }
        }
    }
}

/// Every attribute as (local name, value), skipping malformed ones and namespace declarations.
pub fn attrs(e: &BytesStart<'_>) -> Vec<(String, String)> {
    e.attributes()
        .with_checks(false)
        .flatten()
        .filter(|a| {
            let key = a.key.as_ref();
            key != "xmlns" && !key.starts_with("xmlns:")
        })
        .filter_map(|a| {
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()?;
            Some((a.key.local().to_string(), v.into_owned()))
        })
        .collect()
}

/// The element's local name (prefix dropped).
pub fn local_name<'a>(e: &'a BytesStart<'_>) -> Cow<'a, str> {
    Cow::Borrowed(e.local())
}

/// The local part of a qualified name: what follows the first `:`, or the whole name.
///
/// quick-xml's `local_name` finds the `:` with `str::find`, whose set-up costs more than the
/// search itself over names of a few bytes (17.9 million instructions of a conversion of
/// large.docx); this plain loop over the bytes took 17 million (2 %) off the whole conversion.
pub fn local(qname: &str) -> &str {
    match qname.bytes().position(|b| b == b':') {
        // The byte after an ASCII `:` starts a character, so `get` always finds it.
        Some(i) => qname.get(i + 1..).unwrap_or(qname),
        None => qname,
    }
}

/// [`local`] on what quick-xml hands over: element starts and ends, attribute keys.
pub trait LocalName {
    /// The local part of the name (see [`local`]).
    fn local(&self) -> &str;
}

impl LocalName for BytesStart<'_> {
    fn local(&self) -> &str {
        local(self.name().0)
    }
}

impl LocalName for quick_xml::events::BytesEnd<'_> {
    fn local(&self) -> &str {
        local(self.name().0)
    }
}

impl LocalName for quick_xml::name::QName<'_> {
    fn local(&self) -> &str {
        local(self.0)
    }
}

/// Whether XML 1.0 can hold every character of `s`.
pub(crate) fn xml_clean(s: &str) -> bool {
    // Fast path: only C0 controls and U+FFFE/U+FFFF (UTF-8 lead byte 0xEF) can be bad.
    let suspect = |b: u8| (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') || b == 0xEF;
    if !any_byte(s.as_bytes(), suspect) {
        return true;
    }
    s.chars().all(xml_char)
}

/// Whether `c` may appear in an XML 1.0 document at all.
pub(crate) fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether anything of `s` survives [`escape_text`]: text made only of characters XML 1.0
/// forbids is written as nothing, so a writer leaves out its element as it does for empty text.
pub fn has_xml_text(s: &str) -> bool {
    s.chars().any(xml_char)
}

/// Appends `s` escaped for element content. Characters XML 1.0 forbids (most C0 controls) are
/// dropped: no parser would read the output otherwise.
pub fn escape_text(s: &str, out: &mut String) {
    escape(s, out, false);
}

/// Appends `s` escaped for a double-quoted attribute value; tabs and newlines are written as
/// character references so attribute normalisation on reading keeps them.
pub fn escape_attr(s: &str, out: &mut String) {
    escape(s, out, true);
}

/// What [`escape`] does with a byte: copy it ([`COPY`]), write it as a reference or drop it
/// ([`MARKUP`]: markup characters, CR and the C0 controls XML forbids), the same in attribute
/// values only ([`IN_ATTR`]: `"`, tab, LF), or look at the character it starts ([`LEAD_EF`]:
/// U+FFFE and U+FFFF, which XML forbids, are the only multi-byte characters it drops). The
/// same rule as [`xml_char`], by byte; the tests hold the two together.
const ESCAPE_CLASS: [u8; 256] = {
    let mut t = [COPY; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = MARKUP;
        b += 1;
    }
    t[b'\t' as usize] = IN_ATTR;
    t[b'\n' as usize] = IN_ATTR;
    t[b'"' as usize] = IN_ATTR;
    t[b'&' as usize] = MARKUP;
    t[b'<' as usize] = MARKUP;
    t[b'>' as usize] = MARKUP;
    t[0xEF] = LEAD_EF;
    t
};
const COPY: u8 = 0;
const MARKUP: u8 = 1;
const IN_ATTR: u8 = 2;
const LEAD_EF: u8 = 3;

/// Whether [`escape_text`] does anything with byte `b` (writes a reference for it, drops it, or
/// looks at the character it starts): [`ESCAPE_CLASS`] in comparisons, which
/// [`crate::byte_scan`] can run on many bytes at once.
pub(crate) fn text_special(b: u8) -> bool {
    (b < 0x20 && b != b'\t' && b != b'\n') || b == b'&' || b == b'<' || b == b'>' || b == 0xEF
}

/// [`text_special`] for [`escape_attr`], which writes `"`, tab and LF as references too.
pub(crate) fn attr_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'&' || b == b'<' || b == b'>' || b == 0xEF
}

/// Escapes `s` into `out`, copying the stretches between the bytes that need a look in one
/// `push_str` each: every writer of XML escapes all its text here, and most text has no such
/// byte at all. A stretch ends only at an ASCII byte or a lead byte, so it is whole characters.
fn escape(s: &str, out: &mut String, attr: bool) {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    loop {
        i = if attr {
            next_special(bytes, i, attr_special)
        } else {
            next_special(bytes, i, text_special)
        };
        let Some(&b) = bytes.get(i) else {
            break;
        };
        match ESCAPE_CLASS[usize::from(b)] {
            COPY => {
                i += 1;
                continue;
            }
            IN_ATTR if !attr => {
                i += 1;
                continue;
            }
            LEAD_EF => {
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                if bytes.get(i + 1) == Some(&0xBF) && matches!(bytes.get(i + 2), Some(0xBE | 0xBF))
                {
                    out.push_str(&s[start..i]);
                    i += 3;
                    start = i;
                } else {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        out.push_str(&s[start..i]);
        out.push_str(match b {
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            b'"' => "&quot;",
            b'\t' => "&#9;",
            b'\n' => "&#10;",
            // A bare CR would be normalised away by the reader.
            b'\r' => "&#13;",
            // The other C0 controls: forbidden, dropped.
            _ => "",
        });
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_within_reads_on_inside_the_elements_it_names() {
        let text = "<a><b>x</b><c/></b></a>";
        let limits = Limits::default();
        // Inside `<a><b>` from the `x`: the first `</b>` closes `b`, the second does not match `a`.
        let mut r = XmlReader::within(text, "p", &limits, 6, &[(1, 1), (4, 1)]).unwrap();
        assert_eq!(r.depth(), 2);
        assert!(matches!(r.next_event(), Ok(Event::Text(_))));
        assert!(matches!(r.next_event(), Ok(Event::End(_))));
        assert_eq!(r.depth(), 1);
        assert!(matches!(r.next_event(), Ok(Event::Empty(_))));
        assert!(r.next_event().is_err());
        // Places and names outside the text, or nesting past the limit, are refused.
        assert!(XmlReader::within(text, "p", &limits, text.len() + 1, &[]).is_none());
        assert!(XmlReader::within(text, "p", &limits, 0, &[(22, 5)]).is_none());
        assert!(XmlReader::within(text, "p", &limits, 0, &[(1, usize::MAX)]).is_none());
        let shallow = Limits {
            max_xml_depth: 1,
            ..Limits::default()
        };
        assert!(XmlReader::within(text, "p", &shallow, 6, &[(1, 1), (4, 1)]).is_none());
    }

    #[test]
    fn the_special_bytes_are_those_of_the_escape_table() {
        for b in 0..=255u8 {
            let class = ESCAPE_CLASS[usize::from(b)];
            assert_eq!(
                text_special(b),
                class == MARKUP || class == LEAD_EF,
                "{b:#x}"
            );
            assert_eq!(attr_special(b), class != COPY, "{b:#x}");
        }
    }

    /// Escaping one character at a time, as the rules say: what [`escape`] must equal.
    fn escape_by_char(s: &str, attr: bool) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '"' if attr => out.push_str("&quot;"),
                '\t' if attr => out.push_str("&#9;"),
                '\n' if attr => out.push_str("&#10;"),
                '\r' => out.push_str("&#13;"),
                c if xml_char(c) => out.push(c),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn escaping_equals_escaping_char_by_char() {
        // Every character there is, and the tricky ones side by side.
        let every: String = (0..=0x10FFFF).filter_map(char::from_u32).collect();
        let samples = [
            every.as_str(),
            "",
            "plain text",
            "a<b>&c\"d'e\tf\ng\rh\u{1}i\u{1F}\u{7F}",
            "\u{FFFE}\u{FFFF}\u{FFFD}\u{FEFF}\u{F000}\u{EFFF}x\u{FFFF}",
            "end\u{FFFE}",
            "\u{EF}\u{BF}\u{BE} (spelled out, not the bytes)",
            "Ünïcödé ✓ 東京 مرحبا 😀<&>",
        ];
        for s in samples {
            for attr in [false, true] {
                let mut fast = String::new();
                if attr {
                    escape_attr(s, &mut fast);
                } else {
                    escape_text(s, &mut fast);
                }
                let start: String = s.chars().take(40).collect();
                assert!(fast == escape_by_char(s, attr), "{start:?}");
            }
        }
        let mut out = String::from("kept ");
        escape_text("a\u{2}<b", &mut out);
        assert_eq!(out, "kept a&lt;b");
        out.clear();
        escape_attr("\"\t\n\r", &mut out);
        assert_eq!(out, "&quot;&#9;&#10;&#13;");
    }

    fn events(text: &str, depth: usize) -> Result<usize> {
        let limits = Limits::default().with_max_xml_depth(depth);
        let mut r = XmlReader::new(text, "t.xml", &limits);
        let mut n = 0;
        loop {
            if let Event::Eof = r.next_event()? {
                return Ok(n);
            }
            n += 1;
        }
    }

    #[test]
    fn local_names_are_quick_xmls() {
        for name in [
            "p",
            "w:p",
            "mc:AlternateContent",
            "a:b:c",
            ":x",
            "x:",
            "",
            "w:тест",
            "тест:p",
        ] {
            let q = quick_xml::name::QName(name);
            let theirs = q.local_name();
            let theirs: &str = theirs.as_ref();
            assert_eq!(local(name), theirs, "{name}");
            assert_eq!(q.local(), theirs, "{name}");
        }
        let start = BytesStart::new("w:rPr");
        assert_eq!(start.local(), "rPr");
        assert_eq!(start.to_end().local(), "rPr");
    }

    #[test]
    fn refuses_deep_nesting() {
        let deep = "<a>".repeat(100) + &"</a>".repeat(100);
        assert!(events(&deep, 200).is_ok());
        let err = events(&deep, 50).unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("t.xml"));
    }

    #[test]
    fn malformed_xml_names_part_and_offset() {
        let err = events("<a><b></a>", 10).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("t.xml: malformed XML at byte"), "{msg}");
    }

    #[test]
    fn reads_text_with_references() {
        let limits = Limits::default();
        let mut r = XmlReader::new("<a>x &amp; &#x41;<b>y</b> &zz;</a>", "t", &limits);
        assert!(matches!(r.next_event().unwrap(), Event::Start(_)));
        assert_eq!(r.read_text().unwrap(), "x & Ay &zz;");
    }

    #[test]
    fn decode_rejects_latin1_and_skips_bom() {
        assert!(decode(b"\xEF\xBB\xBF<a/>", "p").is_ok_and(|s| s == "<a/>"));
        let err = decode(b"<a>\xE9</a>", "p").unwrap_err();
        assert!(err.to_string().contains("byte 3"), "{err}");
    }

    #[test]
    fn escaping_round_trips_through_the_reader() {
        let nasty = "a<b>&\"c\"\t\n\r\u{1}d";
        let mut xml = String::from("<x y=\"");
        escape_attr(nasty, &mut xml);
        xml.push_str("\">");
        escape_text(nasty, &mut xml);
        xml.push_str("</x>");
        let limits = Limits::default();
        let mut r = XmlReader::new(&xml, "t", &limits);
        let Event::Start(e) = r.next_event().unwrap() else {
            panic!("no start")
        };
        let e = e.into_owned();
        assert_eq!(attr(&e, "y").as_deref(), Some("a<b>&\"c\"\t\n\rd"));
        assert_eq!(r.read_text().unwrap(), "a<b>&\"c\"\t\n\rd");
    }
}
