//! Stage one for a large main part: two parsers at once, the second from a paragraph a little
//! past the middle ([`parse_main`]). The parser itself knows of the split only its [`Half`] (kept with
//! the parser, in [`super::parser`]): where it is at body level, the bookmarks it opens and
//! cannot close, the warnings it gives once. Here the halves are started, met and joined, so
//! that blocks, facts, warnings and errors are those of one parser reading the whole part.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

use quick_xml::events::Event;

use super::model::Body;
use super::parser::{BodyParser, Facts, Half, Handover, MAX_OPEN_BOOKMARKS, Meeting, SecondHalf};
use super::rels::Relationships;
use crate::error::Result;
use crate::limits::Limits;
use crate::report::Report;
use crate::xml::{LocalName, XmlReader};

/// Main parts this large or larger are parsed in two halves at once ([`parse_main`]): the
/// 3.5 MB document.xml of a 564-page file took 27 ms on one core.
pub const PARALLEL_PARSE_FROM: usize = 1 << 20;

/// The second half starts this many hundredths into the part, past the middle: its thread
/// first finds the place ([`split_point`]) and allocates from an arena of its own, on fresh
/// pages. At 56 % large.docx's second half ends about 1.5 ms before the first; 53 % and 54 %
/// ended both as soon, within the noise.
const SECOND_HALF_FROM: usize = 56;

/// The byte [`split_point`] looks for a place from, in a part of `len` bytes.
fn second_half_from(len: usize) -> usize {
    len / 100 * SECOND_HALF_FROM
}

/// Parses a main document part like [`BodyParser::parse_document`]. With `in_halves`, one of
/// [`PARALLEL_PARSE_FROM`] bytes or more is parsed in two halves at once (on the rayon pool):
/// the second from the first paragraph at body level past [`SECOND_HALF_FROM`] ([`split_point`]), behind
/// the part's own root and body start tags; the first stops there if nothing it read carries
/// over (nothing open but bookmarks), else it reads on alone and the second half's work is
/// dropped. Either way the blocks, facts, warnings and errors are those of one parser reading
/// the whole part.
pub fn parse_main(
    text: &str,
    part: &str,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
    facts: &mut Facts,
    in_halves: bool,
) -> Result<Body> {
    if !in_halves || text.len() < PARALLEL_PARSE_FROM {
        return BodyParser::new(text, part, rels, limits, report, facts).parse_document();
    }
    parse_halves(text, part, rels, limits, report, facts).0
}

/// How [`parse_halves`] went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halves {
    /// The first half read the whole part (no place to split, or not at rest there).
    One,
    /// The two halves were joined.
    Two,
    /// The first half stopped, then read on alone (too many open bookmarks between them).
    ReadOn,
}

/// [`parse_main`] on any length, saying how it went.
fn parse_halves(
    text: &str,
    part: &str,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
    facts: &mut Facts,
) -> (Result<Body>, Halves) {
    let meeting = Meeting {
        split_at: AtomicU64::new(u64::MAX),
        first_at: AtomicU64::new(0),
    };
    // The first half is parsed on the calling thread, which then builds the tree from it:
    // glibc's malloc keeps an arena per thread, so the memory of the first half's model,
    // freed as the tree is built, is memory the tree can reuse (with both halves on the pool,
    // the tree took fresh pages while the model's sat free in the pool's arenas).
    let mut second = None;
    let first = rayon::in_place_scope(|scope| {
        scope.spawn(|_| second = second_half(text, part, rels, limits, &meeting));
        let mut p = BodyParser::new(text, part, rels, limits, report, facts);
        p.half = Half::First(&meeting);
        let body = p.document();
        if !p.stopped() {
            meeting.first_at.store(u64::MAX, Ordering::Release);
        }
        (body, p)
    });
    let (first, mut p) = first;
    let body = match first {
        Ok(body) => body,
        Err(e) => return (Err(e), Halves::One),
    };
    let Some((second, second_report, second_facts, handed)) = second.filter(|_| p.stopped()) else {
        return (Ok(body), Halves::One);
    };
    // One parser would have kept the first half's open bookmarks beside the second's, and
    // stops keeping them at 10,000: past that, only reading on gives its result.
    if p.open_bookmarks().len().saturating_add(handed.most_open) >= MAX_OPEN_BOOKMARKS {
        return (p.read_on(body), Halves::ReadOn);
    }
    let mut body = body;
    let second = match second {
        Ok(second) => second,
        Err(e) => return (Err(e), Halves::Two),
    };
    body.blocks.extend(second.blocks);
    if second.final_section.is_some() {
        body.final_section = second.final_section;
    }
    let repeated: HashSet<usize> = handed
        .once
        .into_iter()
        .filter(|(key, _)| p.warned_about(key))
        .map(|(_, at)| at)
        .collect();
    for (id, after_seq) in handed.unknown_ends {
        if let Some(name) = p.open_bookmarks().get(&id).filter(|_| after_seq) {
            p.facts.number_bookmarks.insert(name.clone());
        }
    }
    drop(p);
    for (i, w) in second_report.finish(()).warnings.into_iter().enumerate() {
        if !repeated.contains(&i) {
            report.push(w);
        }
    }
    facts.bookmarks.extend(second_facts.bookmarks);
    facts.comment_ranges.extend(second_facts.comment_ranges);
    facts.number_bookmarks.extend(second_facts.number_bookmarks);
    facts
        .caption_bookmarks
        .extend(second_facts.caption_bookmarks);
    // The first half ended with no field open (`at_rest`).
    facts.field_depth += second_facts.field_depth;
    facts.field_underflow |= second_facts.field_underflow;
    (Ok(body), Halves::Two)
}

/// What the second half hands over: its blocks, warnings, facts, and what it leaves the first.
type SecondResult = (Result<Body>, Report, Facts, Handover);

/// Parses the second half of `text`, from the split [`split_point`] finds, unless the first
/// half is already past it (or done).
fn second_half(
    text: &str,
    part: &str,
    rels: &Relationships,
    limits: &Limits,
    meeting: &Meeting,
) -> Option<SecondResult> {
    // On a busy pool this may start only once the first half is done: then, or when the
    // first half is past the place by the time it is found, there is nothing to do.
    if meeting.first_at.load(Ordering::Acquire) == u64::MAX {
        return None;
    }
    let split =
        split_point(text).filter(|s| meeting.first_at.load(Ordering::Acquire) < s.at as u64)?;
    meeting.split_at.store(split.at as u64, Ordering::Release);
    let mut report = Report::new();
    let mut facts = Facts::default();
    let mut p = BodyParser::new(text, part, rels, limits, &mut report, &mut facts);
    // The part itself, read from the split on inside its root and body (no copy of the rest).
    p.r = XmlReader::within(text, part, limits, split.at, &split.open)?;
    p.half = Half::Second(Box::new(SecondHalf::new(meeting)));
    let body = p.document_within_body();
    let handed = match std::mem::take(&mut p.half) {
        Half::Second(second) => second.handed,
        // Only `read_on` changes a second half, and the second half never reads on.
        _ => SecondHalf::new(meeting).handed,
    };
    Some((body, report, facts, handed))
}

/// Where the second half of a main part starts, and the elements it is read inside.
struct Split {
    /// Byte offset of a `<w:p>` start tag at body level past [`second_half_from`].
    at: usize,
    /// The names of the root and body start tags, as (start, length) in the part: the reader
    /// checks the end tags against them.
    open: [(usize, usize); 2],
}

/// Whether an element holds paragraphs inside a body-level block: a `<w:p>` inside one is no
/// place to split. Only a guess (other containers can hold a paragraph too, a prefix can
/// differ): the first half checks that the place is at body level before it stops there.
fn is_holder(local: &[u8]) -> bool {
    matches!(local, b"tbl" | b"txbxContent" | b"sdt" | b"customXml")
}

/// The length of the longest name the scan looks for (`txbxContent`).
const LONGEST_NAME: usize = 11;

/// The first paragraph start tag at body level from [`second_half_from`] on, by a byte scan
/// from there that counts the holders ([`is_holder`], with the body's prefix) open, starting
/// from those open before it ([`holders_open`]); `None` when the root
/// is not a `document` whose child `body` is found early, or there is no such paragraph.
fn split_point(text: &str) -> Option<Split> {
    let mut r = quick_xml::Reader::from_str(text);
    let mut depth = 0usize;
    let mut root = None;
    let body = loop {
        match r.read_event() {
            Ok(Event::Start(e)) => {
                depth += 1;
                let name = e.name().into_inner();
                match depth {
                    1 if e.local() == "document" => root = Some(range_of(text, name)?),
                    2 if e.local() == "body" => break range_of(text, name)?,
                    2 => r.read_to_end(e.name()).map(|_| depth -= 1).ok()?,
                    _ => return None,
                }
            }
            Ok(Event::End(_)) | Ok(Event::Eof) | Err(_) => return None,
            _ => {}
        }
        // A body this far in is no ordinary main part.
        if r.buffer_position() > 1 << 16 {
            return None;
        }
    };
    let root = root?;
    let body_name = text.as_bytes().get(body.0..body.0 + body.1)?;
    let prefix = body_name.strip_suffix(b"body")?;
    let bytes = text.as_bytes();
    let from = second_half_from(bytes.len());
    let body_end = usize::try_from(r.buffer_position()).ok()?;
    // The holders open where the search starts, counted by a search for their names alone (a
    // few hits per table) instead of a look at every tag before it: the second half waits
    // for the count. Only where no comment or CDATA section can hide tags; else tag by tag.
    let (mut open, mut i) = match bytes.get(body_end..from) {
        Some(before) if memchr::memmem::find(before, b"<!").is_none() => {
            (holders_open(before, prefix), from)
        }
        _ => (0, body_end),
    };
    while let Some(found) = memchr::memchr(b'<', bytes.get(i..)?) {
        let at = i + found;
        i = at + 1;
        // Comments and CDATA sections hold no tags: skipped whole.
        let rest = bytes.get(at + 1..)?;
        if rest.first() == Some(&b'!') {
            for (open_mark, close_mark) in [(&b"!--"[..], &b"-->"[..]), (b"![CDATA[", b"]]>")] {
                if rest.starts_with(open_mark) {
                    let skip = memchr::memmem::find(&rest[open_mark.len()..], close_mark)?;
                    i = at + 1 + open_mark.len() + skip + close_mark.len();
                }
            }
            if i > at + 1 {
                continue;
            }
        }
        let (closing, name) = match rest {
            [b'/', rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        let Some(name) = name.strip_prefix(prefix) else {
            continue;
        };
        // The local name ends at the first delimiter; one that does not end within the
        // longest name looked for is none of them. Finding the end once and comparing whole
        // names takes a third off the scan, which the second half of the parse waits for.
        let Some(len) = name
            .iter()
            .take(LONGEST_NAME + 1)
            .position(|b| matches!(b, b' ' | b'>' | b'/' | b'\t' | b'\r' | b'\n'))
        else {
            continue;
        };
        let local = &name[..len];
        let holder = is_holder(local);
        let paragraph = !holder && at >= from && open == 0 && !closing && local == b"p";
        if !holder && !paragraph {
            continue;
        }
        // The tag's end, once: the scan goes on after it, so every byte is looked at a bounded
        // number of times however the tags are nested in comments or text.
        let end = at + memchr::memchr(b'>', &bytes[at..])?;
        i = end + 1;
        let self_closing = bytes[end - 1] == b'/';
        if holder {
            if closing {
                open -= 1;
            } else if !self_closing {
                open += 1;
            }
        } else if !self_closing {
            return Some(Split {
                at,
                open: [root, body],
            });
        }
    }
    None
}

/// The holders ([`is_holder`], with `prefix`) that `bytes` opens and leaves open (or, below
/// zero, closes), counted as the tag-by-tag scan of [`split_point`] counts them in a text
/// without comments or CDATA sections.
fn holders_open(bytes: &[u8], prefix: &[u8]) -> i64 {
    let mut open = 0i64;
    for name in [&b"tbl"[..], b"txbxContent", b"sdt", b"customXml"] {
        for at in memchr::memmem::find_iter(bytes, name) {
            let Some(before) = at.checked_sub(prefix.len()) else {
                continue;
            };
            let ends_name = matches!(
                bytes.get(at + name.len()),
                Some(b' ' | b'>' | b'/' | b'\t' | b'\r' | b'\n')
            );
            if !ends_name || &bytes[before..at] != prefix {
                continue;
            }
            let lt = |i: usize| before.checked_sub(i).and_then(|i| bytes.get(i)) == Some(&b'<');
            if lt(1) {
                // A start tag, unless it closes itself (`<w:tbl/>`).
                let rest = &bytes[at..];
                let self_closing = memchr::memchr(b'>', rest)
                    .is_some_and(|end| end.checked_sub(1).and_then(|i| rest.get(i)) == Some(&b'/'));
                open += i64::from(!self_closing);
            } else if lt(2) && bytes[before - 1] == b'/' {
                open -= 1;
            }
        }
    }
    open
}

/// Where `name`, a slice of `text` (quick-xml's reader over a `str` borrows its names), lies
/// in it: (start, length).
fn range_of(text: &str, name: &str) -> Option<(usize, usize)> {
    let start = (name.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let slice = text.get(start..start.checked_add(name.len())?)?;
    (slice == name).then_some((start, name.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` plain paragraphs (about 120 bytes each).
    fn filler(n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    r#"<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr><w:r><w:t>Paragraph {i} of the filler text.</w:t></w:r></w:p>"#
                )
            })
            .collect()
    }

    /// A main part: `first` after 7,000 paragraphs, more filler, where the second half starts
    /// ([`SECOND_HALF_FROM`]), more filler, `second`, 5,000 more paragraphs (about 1.5 MB:
    /// parsed in halves).
    fn part(first: &str, second: &str) -> String {
        format!(
            r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{}{first}{}{}{second}{}<w:sectPr><w:pgSz w:w="11906"/></w:sectPr></w:body></w:document>"#,
            filler(7000),
            filler(500),
            filler(500),
            filler(5000)
        )
    }

    /// Parses `text` by one parser and by [`parse_halves`]: blocks, final section, facts,
    /// warnings and errors must agree. Returns how the halves went.
    fn alike(text: &str) -> Halves {
        assert!(text.len() >= PARALLEL_PARSE_FROM);
        let rels = Relationships::default();
        let limits = Limits::default();
        let part = "word/document.xml";
        let (mut report_one, mut facts_one) = (Report::new(), Facts::default());
        let one = BodyParser::new(text, part, &rels, &limits, &mut report_one, &mut facts_one)
            .parse_document();
        let (mut report, mut facts) = (Report::new(), Facts::default());
        let (halves, how) = parse_halves(text, part, &rels, &limits, &mut report, &mut facts);
        match (&one, &halves) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.blocks.len(), b.blocks.len());
                assert!(a == b, "the blocks differ ({how:?})");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("one parser: {one:?}; halves ({how:?}): {halves:?}"),
        }
        if one.is_ok() {
            assert_eq!(report_one.warnings(), report.warnings(), "{how:?}");
            assert_eq!(facts_one.bookmarks, facts.bookmarks);
            assert_eq!(facts_one.comment_ranges, facts.comment_ranges);
            assert_eq!(
                facts_one.number_bookmarks, facts.number_bookmarks,
                "{how:?}"
            );
            assert_eq!(facts_one.field_depth, facts.field_depth);
            assert_eq!(facts_one.field_underflow, facts.field_underflow);
        }
        how
    }

    /// [`alike`] until the halves go as `want`: whether the second half is found before the
    /// first passes the split depends on how the threads are scheduled (tests run side by
    /// side), so a few tries are allowed; the results must agree every time.
    fn alike_as(text: &str, want: Halves) {
        let mut tries = Vec::new();
        while tries.len() < 8 {
            let how = alike(text);
            if how == want {
                return;
            }
            tries.push(how);
        }
        panic!("wanted {want:?}, got {tries:?}");
    }

    #[test]
    fn a_large_part_read_in_halves_reads_as_one() {
        alike_as(&part("", ""), Halves::Two);
    }

    #[test]
    fn a_bookmark_open_across_the_split_ends_after_a_seq_field_as_a_number() {
        let seq = r#"<w:p><w:r><w:t xml:space="preserve">Figure </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> SEQ Figure </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:bookmarkEnd w:id="7"/></w:p>"#;
        let text = part(r#"<w:bookmarkStart w:id="7" w:name="figure-one"/>"#, seq);
        alike_as(&text, Halves::Two);
        // What the halves must agree on: one parser takes it as a caption number.
        let rels = Relationships::default();
        let (mut report, mut facts) = (Report::new(), Facts::default());
        let limits = Limits::default();
        let part = "word/document.xml";
        parse_main(&text, part, &rels, &limits, &mut report, &mut facts, true).unwrap();
        assert!(facts.number_bookmarks.contains("figure-one"));
    }

    #[test]
    fn an_unknown_element_in_both_halves_is_warned_about_once() {
        let odd = r#"<w:p><w:oddity><w:r><w:t>kept</w:t></w:r></w:oddity></w:p>"#;
        let text = part(odd, odd);
        alike_as(&text, Halves::Two);
        let rels = Relationships::default();
        let (mut report, mut facts) = (Report::new(), Facts::default());
        let (limits, part) = (Limits::default(), "word/document.xml");
        parse_main(&text, part, &rels, &limits, &mut report, &mut facts, true).unwrap();
        let about = |w: &&crate::report::Warning| w.message.contains("w:oddity");
        assert_eq!(report.warnings().iter().filter(about).count(), 1);
    }

    #[test]
    fn a_field_open_across_the_split_is_read_by_one_parser() {
        let begin = r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC \o </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Contents</w:t></w:r></w:p>"#;
        let end = r#"<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#;
        alike_as(&part(begin, end), Halves::One);
    }

    #[test]
    fn a_table_across_the_split_is_not_split() {
        let rows: String = (0..1500)
            .map(|i| format!("<w:tr><w:tc><w:p><w:r><w:t>cell {i}</w:t></w:r></w:p></w:tc></w:tr>"))
            .collect();
        let text = part(&format!("<w:tbl>{rows}"), "</w:tbl>");
        let split = split_point(&text).expect("a place after the table");
        assert!(split.at > text.find("</w:tbl>").unwrap());
        alike_as(&text, Halves::Two);
    }

    #[test]
    fn only_whole_names_count_as_holders_and_paragraphs() {
        // The scan reads names only this far.
        assert!(is_holder(&b"txbxContent"[..LONGEST_NAME]));
        // Names that begin like a holder (`tblPr`, `sdtContent`, `customXmlPr`) are none: the
        // first paragraph past the split is the place.
        let odd = r#"<w:tblPr/><w:sdtContent><w:tblPr></w:tblPr><w:customXmlPr/>"#;
        let text = part(odd, "</w:sdtContent>");
        let from = second_half_from(text.len());
        assert!(text.find(odd).unwrap() < from && text.find("</w:sdtContent>").unwrap() > from);
        let first_p = from + text[from..].find("<w:p>").unwrap();
        assert_eq!(split_point(&text).expect("a place").at, first_p);
        // A holder whose name ends at a tab before its attributes is one: no place until it
        // ends.
        let text = part(
            r#"<w:sdt	w:x="1"><w:sdtContent>"#,
            "</w:sdtContent></w:sdt>",
        );
        let split = split_point(&text).expect("a place after the holder");
        assert!(split.at > text.find("</w:sdt>").unwrap());
        alike_as(&text, Halves::Two);
    }

    /// The holders open after `bytes`, tag by tag as [`split_point`] reads them past the start.
    fn holders_tag_by_tag(bytes: &[u8], prefix: &[u8]) -> i64 {
        let mut open = 0;
        for at in memchr::memchr_iter(b'<', bytes) {
            let (closing, name) = match &bytes[at + 1..] {
                [b'/', rest @ ..] => (true, rest),
                rest => (false, rest),
            };
            let Some(name) = name.strip_prefix(prefix) else {
                continue;
            };
            let delimiter = |b: &u8| matches!(b, b' ' | b'>' | b'/' | b'\t' | b'\r' | b'\n');
            let Some(len) = name.iter().position(delimiter) else {
                continue;
            };
            if !is_holder(&name[..len]) {
                continue;
            }
            let end = at + memchr::memchr(b'>', &bytes[at..]).unwrap();
            match (closing, bytes[end - 1] == b'/') {
                (true, _) => open -= 1,
                (false, false) => open += 1,
                (false, true) => {}
            }
        }
        open
    }

    #[test]
    fn holders_counted_by_name_are_those_counted_tag_by_tag() {
        let pieces = [
            "<w:tbl>",
            "</w:tbl>",
            "<w:tbl/>",
            "<w:tblPr>",
            "</w:tblPr>",
            "<w:tblGrid/>",
            "<w:sdt>",
            "</w:sdt >",
            "<w:sdt\tw:x=\"1\">",
            "<w:sdtContent>",
            "</w:sdtContent>",
            "<w:txbxContent>",
            "</w:txbxContent>",
            "<w:customXml w:uri=\"a>b\">",
            "</w:customXml>",
            "<w:customXmlPr/>",
            "<x:tbl>",
            "</x:sdt>",
            "<w:p>",
            "</w:p>",
            "<w:t>tbl sdt w:tbl customXml</w:t>",
            "<tbl>",
            "</tbl>",
            "<w:tbl\n/>",
        ];
        let mut rng = crate::sample::Rng::new(33);
        for round in 0..400 {
            let text: String = (0..rng.below(60))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            for prefix in [&b"w:"[..], b""] {
                let bytes = text.as_bytes();
                assert_eq!(
                    holders_open(bytes, prefix),
                    holders_tag_by_tag(bytes, prefix),
                    "round {round}, prefix {prefix:?}: {text}"
                );
            }
        }
    }

    #[test]
    fn an_error_in_the_second_half_is_the_one_parser_s() {
        let text = part("", "<w:p><w:r></w:p>");
        alike_as(&text, Halves::Two);
        let rels = Relationships::default();
        let (mut report, mut facts) = (Report::new(), Facts::default());
        let limits = Limits::default();
        assert!(
            parse_main(
                &text,
                "word/document.xml",
                &rels,
                &limits,
                &mut report,
                &mut facts,
                true
            )
            .is_err()
        );
    }

    #[test]
    fn a_later_body_of_another_prefix_is_not_split() {
        // The place found lies in the second body, whose end tag does not match the first
        // body's name, which the second half is read inside.
        let text = format!(
            r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/></w:body><x:body>{}</x:body></w:document>"#,
            filler(13_000)
        );
        assert!(split_point(&text).is_some());
        alike_as(&text, Halves::One);
    }

    #[test]
    fn tags_in_a_comment_across_the_split_read_alike() {
        // The scan skips comments whole (tags in one would count as holders that never end), and
        // looks at every byte a bounded number of times.
        let noise = format!("<!-- {} -->", "<w:tbl x <w:p y ".repeat(40_000));
        alike_as(&part(&noise, ""), Halves::Two);
    }

    #[test]
    fn too_many_open_bookmarks_between_the_halves_read_on_alone() {
        let starts = |from: usize| -> String {
            (from..from + 5500)
                .map(|i| format!(r#"<w:bookmarkStart w:id="{i}" w:name="b{i}"/>"#))
                .collect()
        };
        let text = part(&starts(0), &starts(100_000));
        alike_as(&text, Halves::ReadOn);
    }
}
