//! One block's inline Markdown as text: escaping, code spans, hard breaks, line-edge spaces,
//! and emphasis delimiters made visible to the parser.

use std::collections::HashSet;

use super::Ctx;
use crate::byte_scan;

/// The longest run of `c` in `s`: a code fence or span must be longer than any inside it.
pub(super) fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        if ch == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// Whether CommonMark counts `c` as punctuation for emphasis rules (ASCII punctuation and, close
/// enough, every non-ASCII character that is neither alphanumeric nor white space).
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// The white space a Markdown parser strips at the edges of a line (CommonMark's whitespace
/// characters other than line endings): left out there.
const EDGE_SPACE: [char; 4] = [' ', '\t', '\u{b}', '\u{c}'];

/// Builds one block's inline Markdown, remembering where emphasis delimiters and hard breaks
/// are so [`Render::finish`] can make the parser see them as written.
pub(super) struct Render {
    pub(super) ctx: Ctx,
    /// Where the last footnote reference ends: what follows it must not join it into other
    /// syntax (`[^1][a](b)` or `[^1](b)` would be read as a link, `[^1]:` as a definition).
    pub(super) note_end: Option<usize>,
    /// The delimiter written last, when it closed emphasis and nothing followed it yet (checked
    /// with the end of `buf`).
    last_close: Option<&'static str>,
    pub(super) buf: String,
    /// Byte offset, character and opening-ness of every delimiter character.
    delims: Vec<(usize, char, bool)>,
    /// Indices of lines that end in a hard break.
    hard: HashSet<usize>,
    line: usize,
}

impl Render {
    pub(super) fn new(ctx: Ctx) -> Self {
        Render {
            ctx,
            note_end: None,
            last_close: None,
            buf: String::new(),
            delims: Vec::new(),
            hard: HashSet::new(),
            line: 0,
        }
    }

    fn at_line_start(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with('\n')
    }

    pub(super) fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Writes emphasis delimiter `d`, opening or closing; returns the delimiter written, which
    /// the caller closes with.
    pub(super) fn delim(&mut self, d: &'static str, open: bool) -> &'static str {
        // Opening right where the same delimiter just closed (`**`a`****b**`, from code, which
        // nests outside emphasis in the tree, then emphasis alone) would read as literal
        // asterisks: the emphasis goes on instead (`**`a`b**`), which reads back as the same marks.
        if open && self.last_close == Some(d) && self.buf.ends_with(d) {
            if let Some(keep) = self.delims.len().checked_sub(d.len()) {
                if self.delims[keep..]
                    .iter()
                    .all(|&(pos, _, open)| !open && pos >= self.buf.len() - d.len())
                {
                    self.delims.truncate(keep);
                    self.buf.truncate(self.buf.len() - d.len());
                    self.last_close = None;
                    return d;
                }
            }
        }
        // Opening right where another `*` delimiter just closed (`*a*` then `**b**`) would make
        // one run of both (`*a***b**`), which a parser splits otherwise: the opening one is
        // written with `_` (`*a*__b__`), which no `*` run touches.
        let d = match self.last_close {
            Some(closed)
                if open && closed != d && d.starts_with('*') && self.buf.ends_with(closed) =>
            {
                underscored(d)
            }
            _ => d,
        };
        self.last_close = None;
        for c in d.chars() {
            self.delims.push((self.buf.len(), c, open));
            self.buf.push(c);
        }
        if !open {
            self.last_close = Some(d);
        }
        d
    }

    pub(super) fn hard_break(&mut self) {
        self.buf.push_str("\\\n");
        self.hard.insert(self.line);
        self.line += 1;
    }

    /// Makes room for `additional` more bytes of output.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// Escaped text.
    pub(super) fn text(&mut self, text: &str) {
        // The text is walked where it lies (every text of the document passes here): all it
        // skips, escapes or replaces is ASCII. Line ends read as spaces.
        // Byte offset of the next character to write.
        let mut at = 0;
        if self.at_line_start() {
            // A parser drops white space at a line's start: leave it out rather than write it as
            // character references (noise to a reader), and check for block syntax after it.
            at = text
                .bytes()
                .take_while(|&b| matches!(b, b'\n' | b'\r') || EDGE_SPACE.contains(&char::from(b)))
                .count();
        }
        if self.at_line_start() && self.ctx == Ctx::Para {
            // Block syntax a line could start with: `#`, `-`, `+`, `=`, `1.` / `1)`.
            let rest = text.get(at..).unwrap_or_default().as_bytes();
            match rest.first() {
                Some(&c @ (b'#' | b'-' | b'+' | b'=')) => {
                    self.buf.push('\\');
                    self.buf.push(char::from(c));
                    at += 1;
                }
                Some(c) if c.is_ascii_digit() => {
                    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                    if let Some(&end @ (b'.' | b')')) = rest.get(digits) {
                        self.buf
                            .push_str(text.get(at..at + digits).unwrap_or_default());
                        self.buf.push('\\');
                        self.buf.push(char::from(end));
                        at += digits + 1;
                    }
                }
                _ => {}
            }
        }
        let after_note = at == 0 && self.note_end == Some(self.buf.len());
        let rest = text.get(at..).unwrap_or_default();
        let bytes = rest.as_bytes();
        // Everything to escape or replace is ASCII, so the text between such bytes is copied
        // whole, and every cut falls on a character boundary. The scan looks at blocks of bytes
        // (most text holds none of these) and decides only at a candidate what it needs.
        let mut plain = 0;
        let mut from = 0;
        if after_note {
            // Right after a note reference, `(` or `:` would join it into other syntax.
            if let Some(&b @ (b'(' | b':')) = bytes.first() {
                self.buf.push('\\');
                self.buf.push(char::from(b));
                plain = 1;
                from = 1;
            }
        }
        loop {
            let i = byte_scan::next_special(bytes, from, markdown_candidate);
            let Some(&b) = bytes.get(i) else { break };
            from = i + 1;
            let next = bytes.get(i + 1).copied();
            let escaped: &str = match b {
                b'\n' | b'\r' => " ",
                b'\\' => "\\\\",
                b'`' => "\\`",
                b'*' => "\\*",
                b'_' => "\\_",
                b'[' => "\\[",
                b']' => "\\]",
                b'<' => "\\<",
                b'>' => "\\>",
                b'~' => "\\~",
                b'|' => "\\|",
                b'$' => "\\$",
                b'#' if self.ctx == Ctx::Heading => "\\#",
                // A line end after `&` reads as a space, which starts no reference either.
                b'&' if next.is_some_and(|n| n.is_ascii_alphanumeric() || n == b'#') => "\\&",
                // `!` before a following link or note would make it an image.
                b'!' if next.is_none() => "\\!",
                _ => continue,
            };
            self.buf.push_str(rest.get(plain..i).unwrap_or_default());
            self.buf.push_str(escaped);
            plain = i + 1;
        }
        self.buf.push_str(rest.get(plain..).unwrap_or_default());
    }

    pub(super) fn code_span(&mut self, code: &str) {
        if code.is_empty() {
            return;
        }
        // A carriage return would end the line; the parser reads it as a space anyway.
        let code = code.replace('\r', " ");
        let code = if self.ctx == Ctx::Cell {
            code.replace('|', "\\|")
        } else {
            code
        };
        let fence = "`".repeat(longest_run(&code, '`') + 1);
        let all_space = code.chars().all(|c| c == ' ');
        let pad = !all_space
            && (code.starts_with('`')
                || code.ends_with('`')
                || (code.starts_with(' ') && code.ends_with(' ')));
        self.buf.push_str(&fence);
        if pad {
            self.buf.push(' ');
        }
        self.buf.push_str(&code);
        if pad {
            self.buf.push(' ');
        }
        self.buf.push_str(&fence);
    }

    /// The finished text: delimiters made visible to the parser, white space at line ends left
    /// out (a parser drops it; pandoc does not write it either).
    pub(super) fn finish(mut self) -> String {
        self.fix_flanking();
        if memchr::memchr(b'\n', self.buf.as_bytes()).is_none() {
            // One line (most blocks): no break to keep, its end trimmed where it lies.
            let end = self.buf.trim_end_matches(EDGE_SPACE).len();
            self.buf.truncate(end);
            return self.buf;
        }
        let mut out = String::with_capacity(self.buf.len());
        for (k, line) in self.buf.split('\n').enumerate() {
            if k > 0 {
                out.push('\n');
            }
            let (body, brk) = match line.strip_suffix('\\') {
                Some(body) if self.hard.contains(&k) => (body, "\\"),
                _ => (line, ""),
            };
            out.push_str(body.trim_end_matches(EDGE_SPACE));
            out.push_str(brk);
        }
        out
    }

    /// CommonMark only takes `*`/`~` runs as emphasis when they are left- (opening) or
    /// right-flanking (closing). Where the text around a run breaks that (a letter before an
    /// opening run followed by punctuation, or punctuation before a closing run followed by a
    /// letter), the letter is written as a character reference, which counts as punctuation.
    fn fix_flanking(&mut self) {
        let mut fixes: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < self.delims.len() {
            let Some(&(start, ch, _)) = self.delims.get(i) else {
                break;
            };
            let mut j = i;
            let (mut opens, mut closes) = (false, false);
            while let Some(&(pos, c, open)) = self.delims.get(j) {
                if c != ch || pos != start + (j - i) {
                    break;
                }
                if open {
                    opens = true;
                } else {
                    closes = true;
                }
                j += 1;
            }
            let end = start + (j - i);
            let prev = self.buf[..start].chars().next_back();
            let next = self.buf[end..].chars().next();
            // Not ASCII punctuation: a non-ASCII character may or may not be Unicode punctuation
            // to the parser (U+FEFF is not), and a character reference is right either way.
            let letter = |c: Option<char>| {
                c.is_some_and(|c| !c.is_whitespace() && !c.is_ascii_punctuation())
            };
            if opens && next.is_some_and(is_punct) && letter(prev) {
                if let Some(c) = prev {
                    fixes.push(start - c.len_utf8());
                }
            }
            if closes && prev.is_some_and(is_punct) && letter(next) {
                fixes.push(end);
            }
            // `_` emphasis never opens after, nor closes before, a letter (it would be inside a
            // word): that letter is written as a reference too.
            if ch == '_' {
                if opens && letter(prev) {
                    if let Some(c) = prev {
                        fixes.push(start - c.len_utf8());
                    }
                }
                if closes && letter(next) {
                    fixes.push(end);
                }
            }
            i = j.max(i + 1);
        }
        fixes.sort_unstable();
        fixes.dedup();
        for &at in fixes.iter().rev() {
            if let Some(c) = self.buf[at..].chars().next() {
                let entity = format!("&#{};", c as u32);
                self.buf.replace_range(at..at + c.len_utf8(), &entity);
            }
        }
    }
}

/// Emphasis delimiter `d` written with `_` in place of `*` (`**` → `__`). Delimiters are
/// static, so no string is made for each one; the ones that start with `*` are `*` and `**`
/// (`inline::delimiter`), and three at most.
fn underscored(d: &'static str) -> &'static str {
    match d {
        "*" => "_",
        "**" => "__",
        "***" => "___",
        other => other,
    }
}

/// Whether `b` may need escaping or replacing in running text: a superset (the writer decides
/// at each candidate, and `#`, `&` and `!` only in some places) made of five ranges, which
/// compile to a few vector compares, so that [`byte_scan::next_special`] looks at whole blocks.
/// The ranges: controls up to `\r`, `!` to `*`, `<` to `>`, `[` to `` ` ``, `|` to `~`.
#[inline]
fn markdown_candidate(b: u8) -> bool {
    (b <= b'\r')
        | (b.wrapping_sub(b'!') <= b'*' - b'!')
        | (b.wrapping_sub(b'<') <= b'>' - b'<')
        | (b.wrapping_sub(b'[') <= b'`' - b'[')
        | (b.wrapping_sub(b'|') <= b'~' - b'|')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flanking_fix_uses_references() {
        let mut r = Render::new(Ctx::Para);
        r.text("a");
        r.delim("**", true);
        r.text(".b");
        r.delim("**", false);
        assert_eq!(r.finish(), "&#97;**.b**");
        let mut r = Render::new(Ctx::Para);
        r.delim("*", true);
        r.text("b.");
        r.delim("*", false);
        r.text("c");
        assert_eq!(r.finish(), "*b.*&#99;");
    }

    #[test]
    fn line_starts_and_edges_are_escaped() {
        let mut r = Render::new(Ctx::Para);
        r.text("1. x ");
        r.hard_break();
        r.text("  # y!");
        assert_eq!(r.finish(), "1\\. x\\\n\\# y\\!");
    }

    #[test]
    fn text_escapes_syntax_between_plain_stretches() {
        let text = |ctx: Ctx, parts: &[&str]| {
            let mut r = Render::new(ctx);
            for p in parts {
                r.text(p);
            }
            r.buf
        };
        // Markdown syntax anywhere, line ends as spaces, other scripts copied whole.
        assert_eq!(
            text(Ctx::Para, &["a*b_c`d[e]f<g>h~i|j$k\\l"]),
            "a\\*b\\_c\\`d\\[e\\]f\\<g\\>h\\~i\\|j\\$k\\\\l"
        );
        assert_eq!(text(Ctx::Para, &["über\nœuvre\r東京"]), "über œuvre 東京");
        // `&` only before what could be a reference, `!` only at the end, `#` only in a heading.
        assert_eq!(
            text(Ctx::Para, &["x &amp; &#1 & é&ü !a b!"]),
            "x \\&amp; \\&#1 & é&ü !a b\\!"
        );
        assert_eq!(text(Ctx::Para, &["x #1"]), "x #1");
        assert_eq!(text(Ctx::Heading, &["x #1"]), "x \\#1");
        // At a line's start: white space dropped, block syntax escaped, digits kept.
        assert_eq!(text(Ctx::Para, &[" \t- a"]), "\\- a");
        assert_eq!(text(Ctx::Para, &["\n\r\u{b}+ a"]), "\\+ a");
        assert_eq!(text(Ctx::Para, &["\u{a0}- a"]), "\u{a0}- a");
        assert_eq!(text(Ctx::Para, &["12) a"]), "12\\) a");
        assert_eq!(text(Ctx::Para, &["12 a"]), "12 a");
        assert_eq!(text(Ctx::Para, &["   "]), "");
        // Right after a note reference, a `(` or `:` would join it into other syntax.
        let mut r = Render::new(Ctx::Para);
        r.text("a");
        r.note_end = Some(r.buf.len());
        r.text("(b) (c)");
        assert_eq!(r.buf, "a\\(b) (c)");
        let mut r = Render::new(Ctx::Para);
        r.text("a");
        r.note_end = Some(r.buf.len());
        r.text(": x");
        assert_eq!(r.buf, "a\\: x");
    }

    #[test]
    fn text_escapes_at_every_place_of_a_long_text() {
        // Longer than the scan's blocks: a character to escape before, inside and after them,
        // and the conditional ones decided by their neighbours at a block's edge.
        for len in [31, 32, 33, 64, 70] {
            for at in 0..len {
                let mut r = Render::new(Ctx::Para);
                let text = format!(
                    "{}*{}",
                    "é".repeat(at / 2) + &"a".repeat(at % 2),
                    "b".repeat(len - at)
                );
                r.text(&text);
                let want = text.replacen('*', "\\*", 1);
                assert_eq!(r.buf, want, "{len} {at}");
                let mut r = Render::new(Ctx::Para);
                r.text(&format!("{}&x {}!", "a".repeat(at), "b".repeat(len - at)));
                assert_eq!(
                    r.buf,
                    format!("{}\\&x {}\\!", "a".repeat(at), "b".repeat(len - at))
                );
            }
        }
    }
}
