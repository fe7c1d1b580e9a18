//! The tokenizer under [`super::XmlReader`]: quick-xml's events, cut straight out of the part's
//! text.
//!
//! quick-xml's reader over a byte slice checks every event's bytes for UTF-8 again (its slice
//! reader cannot know they came from a `str`) and copies every start tag's name into a buffer
//! to check the end tag against: its events cost 133 of the 305 million instructions of
//! reading `large.docx` (29 million of them the UTF-8 checks; 85 million with this file). Every
//! part reaches [`super::XmlReader`] as a `str` already, so this tokenizer cuts the events out
//! of it at ASCII delimiters (always character boundaries) and remembers open names as ranges
//! of the text.
//!
//! It makes what quick-xml makes with the reader's settings (text not trimmed, empty elements
//! not expanded, end tags checked against their start tags, no dangling `&`), event for event,
//! with the same positions and, for malformed input, the same errors at the same offsets: the
//! tests compare the two ([`super::check`]) on hand-made, mutated and corpus XML, and so does
//! the `xml_tokens` fuzz target. Comments, CDATA sections, doctypes and processing
//! instructions (a few per part) are handed to quick-xml itself, which reads one such
//! construct from where it starts.
//!
//! One difference: after an error the tokenizer only says the input has ended, where quick-xml
//! can go on after some errors. No reader of this crate reads on after an XML error.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::errors::{Error, IllFormedError, SyntaxError};
use quick_xml::events::{BytesEnd, BytesRef, BytesStart, BytesText, Event};

use quick_xml::utils::{is_whitespace, name_len};

/// The UTF-8 byte-order mark, which quick-xml skips at the start without counting it.
const BOM: &str = "\u{FEFF}";

/// A pull tokenizer over one part's text.
pub(super) struct Tokens<'a> {
    /// The text after a leading byte-order mark.
    text: &'a str,
    /// Bytes of `text` consumed.
    pos: usize,
    /// An error was returned or the input ended: only `Eof` follows.
    done: bool,
    /// Where the last error was found.
    error_at: usize,
    /// The names of the open elements, innermost last, as (start, length) in `text`. As deep
    /// as the reader lets elements nest: it refuses a start past its depth limit.
    open: Vec<(usize, usize)>,
}

impl<'a> Tokens<'a> {
    /// A tokenizer over `text`.
    pub(super) fn new(text: &'a str) -> Self {
        Tokens {
            text: text.strip_prefix(BOM).unwrap_or(text),
            pos: 0,
            done: false,
            error_at: 0,
            open: Vec::new(),
        }
    }

    /// A tokenizer over `text` (after its byte-order mark) that goes on from byte `pos` inside
    /// the elements `open`, their names as (start, length) in it, outermost first: as if it had
    /// read up to there, without reading it.
    pub(super) fn within(text: &'a str, pos: usize, open: Vec<(usize, usize)>) -> Self {
        Tokens {
            pos,
            open,
            ..Tokens::new(text)
        }
    }

    /// Bytes consumed (a leading byte-order mark not counted, as quick-xml counts).
    pub(super) fn position(&self) -> u64 {
        self.pos as u64
    }

    /// Where the last error was found.
    pub(super) fn error_position(&self) -> u64 {
        self.error_at as u64
    }

    /// The next event, as quick-xml's `read_event` would give it.
    pub(super) fn next(&mut self) -> Result<Event<'a>, Error> {
        if self.done {
            return Ok(Event::Eof);
        }
        let text = self.text;
        let rest = text.get(self.pos..).unwrap_or("");
        let event = match rest.as_bytes().first() {
            None => {
                self.done = true;
                Ok(Event::Eof)
            }
            Some(b'<') => self.markup(rest),
            Some(b'&') => self.reference(rest),
            Some(_) => {
                let len = memchr::memchr2(b'<', b'&', rest.as_bytes()).unwrap_or(rest.len());
                let (content, _) = split(rest, len);
                self.pos += len;
                Ok(Event::Text(BytesText::from_escaped(content)))
            }
        };
        if event.is_err() {
            self.done = true;
        }
        event
    }

    /// `&name;` at the start of `rest`.
    fn reference(&mut self, rest: &'a str) -> Result<Event<'a>, Error> {
        let bytes = rest.as_bytes();
        match memchr::memchr3(b';', b'&', b'<', bytes.get(1..).unwrap_or_default()) {
            Some(i) if bytes.get(i + 1) == Some(&b';') => {
                let name = rest.get(1..i + 1).unwrap_or_default();
                self.pos += i + 2;
                Ok(Event::GeneralRef(BytesRef::new(name)))
            }
            _ => {
                self.error_at = self.pos;
                Err(Error::IllFormed(IllFormedError::UnclosedReference))
            }
        }
    }

    /// The markup at the start of `rest` (which starts with `<`).
    fn markup(&mut self, rest: &'a str) -> Result<Event<'a>, Error> {
        let start = self.pos;
        match rest.as_bytes().get(1) {
            None => {
                self.error_at = start;
                Err(Error::Syntax(SyntaxError::UnclosedTag))
            }
            Some(b'!' | b'?') => self.rare(rest),
            Some(b'/') => {
                let tag = self.tag(rest)?;
                self.end(tag, start)
            }
            Some(_) => {
                let tag = self.tag(rest)?;
                Ok(self.start(tag, start))
            }
        }
    }

    /// The tag at the start of `rest`, `<` to `>` (a `>` inside a quoted attribute value does
    /// not end it), consumed.
    fn tag(&mut self, rest: &'a str) -> Result<&'a str, Error> {
        // Byte by byte up to a quote, whose value is skipped in one search: most tags are a
        // few bytes long (6.6 on average without attributes in large.docx), too short for a
        // vector search to pay for setting itself up.
        let bytes = rest.as_bytes();
        let mut i = 1;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'>' => {
                    self.pos += i + 1;
                    return Ok(split(rest, i + 1).0);
                }
                b'"' | b'\'' => {
                    let value = bytes.get(i + 1..).unwrap_or_default();
                    match memchr::memchr(b, value) {
                        Some(len) => i += len + 2,
                        None => {
                            self.error_at = self.pos;
                            self.pos += rest.len();
                            return Err(Error::Syntax(if b == b'"' {
                                SyntaxError::UnclosedDoubleQuotedAttributeValue
                            } else {
                                SyntaxError::UnclosedSingleQuotedAttributeValue
                            }));
                        }
                    }
                }
                _ => i += 1,
            }
        }
        self.error_at = self.pos;
        self.pos += rest.len();
        Err(Error::Syntax(SyntaxError::UnclosedTag))
    }

    /// A start or empty-element tag `<…>` that began at `at`.
    fn start(&mut self, tag: &'a str, at: usize) -> Event<'a> {
        let inner = tag.get(1..).unwrap_or_default();
        if let Some(content) = inner.strip_suffix("/>") {
            return Event::Empty(BytesStart::from_content(
                content,
                name_len(content.as_bytes()),
            ));
        }
        let content = inner.strip_suffix('>').unwrap_or(inner);
        let len = name_len(content.as_bytes());
        self.open.push((at + 1, len));
        Event::Start(BytesStart::from_content(content, len))
    }

    /// An end tag `</…>` that began at `at`, checked against the innermost open element.
    fn end(&mut self, tag: &'a str, at: usize) -> Result<Event<'a>, Error> {
        let content = tag.get(2..tag.len().saturating_sub(1)).unwrap_or_default();
        // White space may follow the name; a name of white space only stays as it is.
        let name = match content.bytes().rposition(|b| !is_whitespace(b)) {
            Some(last) => split(content, last + 1).0,
            None => content,
        };
        match self.open.pop() {
            Some((from, len)) => {
                let expected = self.text.get(from..from + len).unwrap_or_default();
                if name != expected {
                    self.error_at = at;
                    return Err(Error::IllFormed(IllFormedError::MismatchedEndTag {
                        expected: expected.to_string(),
                        found: name.to_string(),
                    }));
                }
            }
            None => {
                self.error_at = at;
                return Err(Error::IllFormed(IllFormedError::UnmatchedEndTag(
                    name.to_string(),
                )));
            }
        }
        Ok(Event::End(BytesEnd::new(Cow::Borrowed(name))))
    }

    /// A comment, CDATA section, doctype, declaration or processing instruction at the start of
    /// `rest`: read by quick-xml, which takes one such construct at the start of its input as
    /// it would anywhere (a reader at the start of its input is between tags, as this one is).
    fn rare(&mut self, rest: &'a str) -> Result<Event<'a>, Error> {
        let mut reader = quick_xml_reader(rest);
        let event = reader.read_event();
        match &event {
            Ok(_) => self.pos = self.pos.saturating_add(offset(reader.buffer_position())),
            Err(_) => self.error_at = self.pos.saturating_add(offset(reader.error_position())),
        }
        event
    }
}

/// `s` split at byte `at`, which the callers only give at an ASCII byte or the end.
fn split(s: &str, at: usize) -> (&str, &str) {
    s.split_at_checked(at).unwrap_or((s, ""))
}

/// A byte count of quick-xml's, within a `str` and so within `usize`.
fn offset(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// quick-xml's reader with [`super::XmlReader`]'s settings.
pub(super) fn quick_xml_reader(text: &str) -> Reader<&[u8]> {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.trim_text(false);
    config.expand_empty_elements = false;
    reader
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`super::super::compare_with_quick_xml`], which must find the two the same.
    fn same_as_quick_xml(text: &str) -> usize {
        match super::super::compare_with_quick_xml(text) {
            Ok(n) => n,
            Err(e) => panic!("{text:?}: {e}"),
        }
    }

    /// Well-formed and malformed XML of every kind the tokenizer tells apart.
    const CASES: &[&str] = &[
        "",
        "text only",
        "<a/>",
        "<a>b</a>",
        "<a >b</a >",
        "<a\tx='1'\n>c</a\r\n>",
        "<w:p><w:r><w:t xml:space=\"preserve\"> x </w:t></w:r></w:p>",
        "<a b=\">\">x</a>",
        "<a b='\">'/>",
        "<a b=\"x",
        "<a b='x",
        "<a",
        "<",
        "a<",
        "</a>",
        "<a></b>",
        "<a><b></a>",
        "<a></a b=\"1\">",
        "<a></a\t>",
        "<a></ a>",
        "< a></ a>",
        "<a>x</a>tail",
        "<a/><b/>",
        "&amp;",
        "x&amp;y&#65;&#x41;&zz;",
        "&amp",
        "&am<b/>",
        "a&b&c;",
        "&;",
        "&",
        "<!-- c -->",
        "<!---->",
        "<!-- c",
        "<!-- a -- b -->",
        "<![CDATA[x<y>&]]>",
        "<![CDATA[x",
        "<!DOCTYPE a [<!ENTITY e 'x'>]><a/>",
        "<!DOCTYPE>",
        "<!doctype html><a/>",
        "<!x>",
        "<!",
        "<?xml version='1.0' encoding=\"UTF-8\"?><a/>",
        "<?pi x?>",
        "<??>",
        "<?",
        "<?xml",
        "\u{FEFF}<a>x</a>",
        "\u{FEFF}",
        "x\u{FEFF}<a/>",
        "<>",
        "</>",
        "<></>",
        "<a/ >",
        "<a / >",
        "<a//>",
        "<a>>x></a>",
        "<é:b c='ü'>東京&lt;</é:b>",
        "<a>\r\n</a>\n",
        "<a>]]></a>",
        "<a b=c>x</a>",
        "<a><b><c/></b></a><a></a>",
    ];

    #[test]
    fn every_kind_of_markup_reads_as_quick_xml_reads_it() {
        for text in CASES {
            same_as_quick_xml(text);
        }
        // Start, text, reference, text, end: five events before the end.
        assert_eq!(same_as_quick_xml("<a>x &amp; y</a>"), 5);
    }

    #[test]
    fn positions_and_errors_are_quick_xmls() {
        // The byte-order mark is not counted.
        let mut t = Tokens::new("\u{FEFF}<a/>");
        assert!(matches!(t.next(), Ok(Event::Empty(_))));
        assert_eq!(t.position(), 4);
        // A mismatched end tag is reported at its `<`, with both names.
        let mut t = Tokens::new("<a><b></c>");
        assert!(t.next().is_ok() && t.next().is_ok());
        let err = t.next().unwrap_err();
        assert!(err.to_string().contains("`</b>`"), "{err}");
        assert_eq!(t.error_position(), 6);
        assert_eq!(t.next().ok(), Some(Event::Eof));
    }

    #[test]
    fn mutated_xml_reads_as_quick_xml_reads_it() {
        // Pieces that make and break markup, inserted, deleted and repeated at random places.
        const PIECES: &[&str] = &[
            "<",
            ">",
            "/",
            "!",
            "?",
            "&",
            ";",
            "\"",
            "'",
            " ",
            "\n",
            "=",
            "a",
            "w:p",
            "é",
            "東",
            "<!--",
            "-->",
            "<![CDATA[",
            "]]>",
            "<?",
            "?>",
            "&amp;",
            "</a>",
            "<a>",
            "<a/>",
            "\u{FEFF}",
            "x='>'",
            "<!DOCTYPE a>",
        ];
        // A fixed seed: a failing case can be run again.
        let mut rng = crate::sample::Rng::new(0x5EED_CAFE_F00D_BEEF);
        let bases: Vec<&str> = CASES.iter().copied().filter(|c| c.len() > 3).collect();
        let mut events = 0;
        for _ in 0..20_000 {
            let mut text: Vec<char> = bases[rng.below(bases.len())].chars().collect();
            for _ in 0..=rng.below(4) {
                let at = rng.below(text.len() + 1);
                match rng.below(3) {
                    0 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        text.splice(at..at, piece.chars());
                    }
                    1 => {
                        let to = (at + rng.below(4)).min(text.len());
                        text.drain(at..to);
                    }
                    _ => {
                        let to = (at + rng.below(8)).min(text.len());
                        let copy: Vec<char> = text.get(at..to).unwrap_or_default().to_vec();
                        text.splice(at..at, copy);
                    }
                }
            }
            let text: String = text.into_iter().collect();
            events += same_as_quick_xml(&text);
        }
        // Mutated markup still reads some way on average, not just to a first error.
        assert!(events > 25_000, "{events} events in 20,000 texts");
    }
}
