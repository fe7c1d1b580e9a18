//! mammoth's style map language: one rule a line, `matcher => html path`.
//!
//! Matchers: `p` and `r` with a style id (`p.Heading1`), a style name (`p[style-name='Title']`,
//! `r[style-name^='Code']` for a prefix, any case) and for paragraphs a list level
//! (`p:ordered-list(2)`, `p:unordered-list(1)`); `table` with an id or name; `b`, `i`, `u`,
//! `strike`, `all-caps`, `small-caps`, `highlight` (`highlight[color='yellow']`),
//! `comment-reference`, `br[type='line'|'page'|'column']`.
//! Paths: `h1`, `div.warning > p:fresh`, `ul|ol > li` (either tag continues an open one),
//! `span[lang='de']`, `p:separator('\n')`; nothing after `=>` drops the element but keeps
//! its content, `!` drops both.
//!
//! The grammar and the tokens are mammoth 1.13's (`lib/style-reader.js`,
//! `lib/styles/parser/tokeniser.js`); a line that does not parse is a [`StyleMapError`], and
//! [`StyleMap::parse`] leaves it out with one warning, as mammoth does.

use thiserror::Error;

/// A line of a style map that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "Did not understand this style mapping, so ignored it: {line}\nError was at character number {at}: Expected {expected} but got {got}"
)]
pub struct StyleMapError {
    /// The line, trimmed.
    pub line: String,
    /// Where parsing stopped (1-based character number, as mammoth counts).
    pub at: usize,
    /// What the grammar wanted there.
    pub expected: String,
    /// What it found.
    pub got: String,
}

/// A parsed style map: rules tried in order, the first that matches wins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StyleMap {
    /// The rules, in order.
    pub rules: Vec<Rule>,
}

/// One rule: what it matches and what it becomes.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// What in the document it matches.
    pub from: Matcher,
    /// The HTML it becomes.
    pub to: HtmlPath,
}

/// What a rule matches.
#[derive(Debug, Clone, PartialEq)]
pub enum Matcher {
    /// Paragraphs (`p…`).
    Paragraph(ElementMatcher),
    /// Runs (`r…`).
    Run(ElementMatcher),
    /// Tables (`table…`).
    Table(ElementMatcher),
    /// Bold runs (`b`).
    Bold,
    /// Italic runs (`i`).
    Italic,
    /// Underlined runs (`u`).
    Underline,
    /// Struck-through runs (`strike`).
    Strikethrough,
    /// All-capitals runs (`all-caps`).
    AllCaps,
    /// Small-capitals runs (`small-caps`).
    SmallCaps,
    /// Highlighted runs, of one colour or any (`highlight[color='yellow']`).
    Highlight(Option<String>),
    /// Comment references (`comment-reference`).
    CommentReference,
    /// Breaks of one kind (`br[type='page']`).
    Break(BreakKind),
}

/// Which break a `br[type=…]` matcher means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    /// A line break (`w:br`).
    Line,
    /// A page break.
    Page,
    /// A column break.
    Column,
}

/// The conditions of a `p`, `r` or `table` matcher; each one given must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ElementMatcher {
    /// The style id (`p.Heading1`), compared exactly.
    pub style_id: Option<String>,
    /// The style name (`[style-name='…']`), compared ignoring case.
    pub style_name: Option<NameMatch>,
    /// A list item of this kind and level (`:ordered-list(1)`): (ordered, 0-based level).
    pub list: Option<(bool, u32)>,
}

/// How a style name is compared (both ignore case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameMatch {
    /// `[style-name='X']`.
    Equal(String),
    /// `[style-name^='X']`.
    StartsWith(String),
}

impl NameMatch {
    /// Whether `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            NameMatch::Equal(want) => want.to_uppercase() == name.to_uppercase(),
            NameMatch::StartsWith(want) => name.to_uppercase().starts_with(&want.to_uppercase()),
        }
    }
}

/// What a matched element becomes.
#[derive(Debug, Clone, PartialEq)]
pub enum HtmlPath {
    /// `!`: the element and its content are left out.
    Ignore,
    /// Elements from the outermost in; none keeps the content without an element.
    Elements(Vec<TagSpec>),
}

impl HtmlPath {
    /// One fresh element (`p:fresh`): how mammoth writes a paragraph no rule matches.
    pub fn fresh(tag: &str) -> Self {
        HtmlPath::Elements(vec![TagSpec::new(tag, true)])
    }

    /// One element that continues an open one of its kind (`strong`).
    pub fn plain(tag: &str) -> Self {
        HtmlPath::Elements(vec![TagSpec::new(tag, false)])
    }

    /// No element: the content stays.
    pub fn empty() -> Self {
        HtmlPath::Elements(Vec::new())
    }
}

/// One element of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagSpec {
    /// The tag names (`ul|ol`): the first is written, any continues an open element.
    pub names: Vec<String>,
    /// Attributes in their order (classes joined into one `class`).
    pub attributes: Vec<(String, String)>,
    /// `:fresh`: always a new element, never a continuation of the one before.
    pub fresh: bool,
    /// `:separator('…')`: text put between two merged elements' contents.
    pub separator: String,
}

impl TagSpec {
    /// An element without attributes.
    pub fn new(tag: &str, fresh: bool) -> Self {
        TagSpec {
            names: vec![tag.to_string()],
            attributes: Vec::new(),
            fresh,
            separator: String::new(),
        }
    }
}

/// mammoth's default style map (`lib/options-reader.js`), appended to the caller's unless
/// `includeDefaultStyleMap` is off.
pub const DEFAULT_STYLE_MAP: &str = "\
p.Heading1 => h1:fresh
p.Heading2 => h2:fresh
p.Heading3 => h3:fresh
p.Heading4 => h4:fresh
p.Heading5 => h5:fresh
p.Heading6 => h6:fresh
p[style-name='Heading 1'] => h1:fresh
p[style-name='Heading 2'] => h2:fresh
p[style-name='Heading 3'] => h3:fresh
p[style-name='Heading 4'] => h4:fresh
p[style-name='Heading 5'] => h5:fresh
p[style-name='Heading 6'] => h6:fresh
p[style-name='heading 1'] => h1:fresh
p[style-name='heading 2'] => h2:fresh
p[style-name='heading 3'] => h3:fresh
p[style-name='heading 4'] => h4:fresh
p[style-name='heading 5'] => h5:fresh
p[style-name='heading 6'] => h6:fresh
p.Heading => h1:fresh
p[style-name='Heading'] => h1:fresh
r[style-name='Strong'] => strong
p[style-name='footnote text'] => p:fresh
r[style-name='footnote reference'] =>
p[style-name='endnote text'] => p:fresh
r[style-name='endnote reference'] =>
p[style-name='annotation text'] => p:fresh
r[style-name='annotation reference'] =>
p[style-name='Footnote'] => p:fresh
r[style-name='Footnote anchor'] =>
p[style-name='Endnote'] => p:fresh
r[style-name='Endnote anchor'] =>
p:unordered-list(1) => ul > li:fresh
p:unordered-list(2) => ul|ol > li > ul > li:fresh
p:unordered-list(3) => ul|ol > li > ul|ol > li > ul > li:fresh
p:unordered-list(4) => ul|ol > li > ul|ol > li > ul|ol > li > ul > li:fresh
p:unordered-list(5) => ul|ol > li > ul|ol > li > ul|ol > li > ul|ol > li > ul > li:fresh
p:ordered-list(1) => ol > li:fresh
p:ordered-list(2) => ul|ol > li > ol > li:fresh
p:ordered-list(3) => ul|ol > li > ul|ol > li > ol > li:fresh
p:ordered-list(4) => ul|ol > li > ul|ol > li > ul|ol > li > ol > li:fresh
p:ordered-list(5) => ul|ol > li > ul|ol > li > ul|ol > li > ul|ol > li > ol > li:fresh
r[style-name='Hyperlink'] =>
p[style-name='Normal'] => p:fresh
p.Body => p:fresh
p[style-name='Body'] => p:fresh
";

impl StyleMap {
    /// Parses a style map given as text: one rule a line, blank lines and lines starting with
    /// `#` skipped (mammoth's `readStyleMap`). Each line that does not parse is left out and
    /// returned as an error; the others still apply.
    pub fn parse(text: &str) -> (StyleMap, Vec<StyleMapError>) {
        Self::parse_lines(text.lines())
    }

    /// Parses rules given one per item (mammoth's array form). Items are trimmed; blank ones
    /// and comments are skipped as in the text form.
    pub fn parse_lines<'a>(
        lines: impl IntoIterator<Item = &'a str>,
    ) -> (StyleMap, Vec<StyleMapError>) {
        let mut map = StyleMap::default();
        let mut errors = Vec::new();
        for line in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match parse_rule(line) {
                Ok(rule) => map.rules.push(rule),
                Err(e) => errors.push(e),
            }
        }
        (map, errors)
    }

    /// mammoth's default style map, parsed.
    pub fn default_map() -> StyleMap {
        Self::parse(DEFAULT_STYLE_MAP).0
    }

    /// The first rule whose matcher `pred` accepts.
    pub fn find(&self, pred: impl Fn(&Matcher) -> bool) -> Option<&HtmlPath> {
        self.rules.iter().find(|r| pred(&r.from)).map(|r| &r.to)
    }
}

/// Parses one rule (`p[style-name='Warning'] => div.warning > p:fresh`).
pub fn parse_rule(line: &str) -> Result<Rule, StyleMapError> {
    let tokens = tokenise(line);
    let mut p = Parser {
        line,
        tokens: &tokens,
        at: 0,
    };
    let from = p.matcher()?;
    p.expect(Tok::Whitespace, "whitespace")?;
    p.expect(Tok::Arrow, "arrow")?;
    let to = if p.peek() == Some(&Tok::Whitespace) {
        p.at += 1;
        if p.peek().is_none() {
            HtmlPath::empty()
        } else {
            p.path()?
        }
    } else {
        HtmlPath::empty()
    };
    if let Some(t) = p.peek() {
        return Err(p.error("end", t.describe()));
    }
    Ok(Rule { from, to })
}

/// A token with its 0-based character position.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Identifier(String),
    Dot,
    Colon,
    Gt,
    Whitespace,
    Arrow,
    Equals,
    StartsWith,
    OpenParen,
    CloseParen,
    OpenSquare,
    CloseSquare,
    Str(String),
    Unterminated,
    Integer(u32),
    Choice,
    Bang,
    Unknown(char),
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Identifier(s) => format!("identifier \"{s}\""),
            Tok::Dot => "dot \".\"".into(),
            Tok::Colon => "colon \":\"".into(),
            Tok::Gt => "gt \">\"".into(),
            Tok::Whitespace => "whitespace".into(),
            Tok::Arrow => "arrow \"=>\"".into(),
            Tok::Equals => "equals \"=\"".into(),
            Tok::StartsWith => "startsWith \"^=\"".into(),
            Tok::OpenParen => "open-paren \"(\"".into(),
            Tok::CloseParen => "close-paren \")\"".into(),
            Tok::OpenSquare => "open-square-bracket \"[\"".into(),
            Tok::CloseSquare => "close-square-bracket \"]\"".into(),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Unterminated => "unterminated-string".into(),
            Tok::Integer(n) => format!("integer \"{n}\""),
            Tok::Choice => "choice \"|\"".into(),
            Tok::Bang => "bang \"!\"".into(),
            Tok::Unknown(c) => format!("unrecognisedCharacter \"{c}\""),
        }
    }
}

/// Splits a line into tokens, each with its character position (mammoth's regex tokeniser:
/// at each position the first token kind that matches wins).
fn tokenise(line: &str) -> Vec<(usize, Tok)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_start = |c: char| c.is_ascii_alphabetic() || c == '-' || c == '_';
    while i < chars.len() {
        let start = i;
        let c = chars[i];
        let tok = if ident_start(c) || (c == '\\' && i + 1 < chars.len()) {
            let mut raw = String::new();
            while i < chars.len() {
                let c = chars[i];
                if ident_start(c) || c.is_ascii_digit() {
                    raw.push(c);
                    i += 1;
                } else if c == '\\' && i + 1 < chars.len() {
                    raw.push(c);
                    raw.push(chars[i + 1]);
                    i += 2;
                } else {
                    break;
                }
            }
            Tok::Identifier(decode_escapes(&raw))
        } else if c == '.' {
            i += 1;
            Tok::Dot
        } else if c == ':' {
            i += 1;
            Tok::Colon
        } else if c == '>' {
            i += 1;
            Tok::Gt
        } else if c.is_whitespace() {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            Tok::Whitespace
        } else if c == '=' && chars.get(i + 1) == Some(&'>') {
            i += 2;
            Tok::Arrow
        } else if c == '=' {
            i += 1;
            Tok::Equals
        } else if c == '^' && chars.get(i + 1) == Some(&'=') {
            i += 2;
            Tok::StartsWith
        } else if c == '(' {
            i += 1;
            Tok::OpenParen
        } else if c == ')' {
            i += 1;
            Tok::CloseParen
        } else if c == '[' {
            i += 1;
            Tok::OpenSquare
        } else if c == ']' {
            i += 1;
            Tok::CloseSquare
        } else if c == '\'' {
            i += 1;
            let mut raw = String::new();
            let mut closed = false;
            while i < chars.len() {
                match chars[i] {
                    '\\' => {
                        raw.push('\\');
                        if let Some(&n) = chars.get(i + 1) {
                            raw.push(n);
                        }
                        i += 2;
                    }
                    '\'' => {
                        closed = true;
                        i += 1;
                        break;
                    }
                    other => {
                        raw.push(other);
                        i += 1;
                    }
                }
            }
            i = i.min(chars.len());
            if closed {
                Tok::Str(decode_escapes(&raw))
            } else {
                Tok::Unterminated
            }
        } else if c.is_ascii_digit() {
            let mut n: u32 = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                n = n
                    .saturating_mul(10)
                    .saturating_add(chars[i].to_digit(10).unwrap_or(0));
                i += 1;
            }
            Tok::Integer(n)
        } else if c == '|' {
            i += 1;
            Tok::Choice
        } else if c == '!' {
            i += 1;
            Tok::Bang
        } else {
            i += 1;
            Tok::Unknown(c)
        };
        out.push((start, tok));
    }
    out
}

/// mammoth's escapes in identifiers and strings: `\n`, `\r`, `\t`, and `\x` for any other `x`.
fn decode_escapes(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

struct Parser<'a> {
    line: &'a str,
    tokens: &'a [(usize, Tok)],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|(_, t)| t)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.tokens.get(self.at + n).map(|(_, t)| t)
    }

    fn error(&self, expected: &str, got: String) -> StyleMapError {
        let at = self
            .tokens
            .get(self.at)
            .map(|(p, _)| *p)
            .unwrap_or_else(|| self.line.chars().count());
        StyleMapError {
            line: self.line.to_string(),
            at: at + 1,
            expected: expected.to_string(),
            got,
        }
    }

    fn got(&self) -> String {
        self.peek().map_or_else(|| "end".to_string(), Tok::describe)
    }

    fn expect(&mut self, want: Tok, name: &str) -> Result<(), StyleMapError> {
        if self.peek() == Some(&want) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(name, self.got()))
        }
    }

    fn identifier(&mut self) -> Result<String, StyleMapError> {
        match self.peek() {
            Some(Tok::Identifier(s)) => {
                let s = s.clone();
                self.at += 1;
                Ok(s)
            }
            _ => Err(self.error("identifier", self.got())),
        }
    }

    fn keyword(&mut self, word: &str) -> Result<(), StyleMapError> {
        match self.peek() {
            Some(Tok::Identifier(s)) if s == word => {
                self.at += 1;
                Ok(())
            }
            _ => Err(self.error(&format!("identifier \"{word}\""), self.got())),
        }
    }

    fn string(&mut self) -> Result<String, StyleMapError> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                let s = s.clone();
                self.at += 1;
                Ok(s)
            }
            _ => Err(self.error("string", self.got())),
        }
    }

    fn matcher(&mut self) -> Result<Matcher, StyleMapError> {
        let Some(Tok::Identifier(word)) = self.peek().cloned() else {
            return Err(self.error("element type", self.got()));
        };
        self.at += 1;
        Ok(match word.as_str() {
            "p" => Matcher::Paragraph(self.suffixes(true)?),
            "r" => Matcher::Run(self.suffixes(true)?),
            "table" => Matcher::Table(self.suffixes(false)?),
            "b" => Matcher::Bold,
            "i" => Matcher::Italic,
            "u" => Matcher::Underline,
            "strike" => Matcher::Strikethrough,
            "all-caps" => Matcher::AllCaps,
            "small-caps" => Matcher::SmallCaps,
            "comment-reference" => Matcher::CommentReference,
            "highlight" => {
                if self.peek() == Some(&Tok::OpenSquare) {
                    self.at += 1;
                    self.keyword("color")?;
                    self.expect(Tok::Equals, "equals")?;
                    let color = self.string()?;
                    self.expect(Tok::CloseSquare, "close-square-bracket")?;
                    Matcher::Highlight(Some(color))
                } else {
                    Matcher::Highlight(None)
                }
            }
            "br" => {
                self.expect(Tok::OpenSquare, "open-square-bracket")?;
                self.keyword("type")?;
                self.expect(Tok::Equals, "equals")?;
                let kind = self.string()?;
                self.expect(Tok::CloseSquare, "close-square-bracket")?;
                match kind.as_str() {
                    "line" => Matcher::Break(BreakKind::Line),
                    "page" => Matcher::Break(BreakKind::Page),
                    "column" => Matcher::Break(BreakKind::Column),
                    _ => {
                        self.at -= 2;
                        return Err(
                            self.error("line, page or column", format!("string \"{kind}\""))
                        );
                    }
                }
            }
            _ => {
                self.at -= 1;
                return Err(self.error("element type", self.got()));
            }
        })
    }

    /// The `.id`, `[style-name…]` and (for `p`/`r`) `:ordered-list(n)` suffixes; a later one
    /// of a kind replaces an earlier one, as mammoth merges them.
    fn suffixes(&mut self, lists: bool) -> Result<ElementMatcher, StyleMapError> {
        let mut m = ElementMatcher::default();
        loop {
            match self.peek() {
                Some(Tok::Dot) => {
                    self.at += 1;
                    m.style_id = Some(self.identifier()?);
                }
                Some(Tok::OpenSquare) => {
                    self.at += 1;
                    self.keyword("style-name")?;
                    let op = self.peek().cloned();
                    self.at += 1;
                    let value = self.string()?;
                    m.style_name = Some(match op {
                        Some(Tok::Equals) => NameMatch::Equal(value),
                        Some(Tok::StartsWith) => NameMatch::StartsWith(value),
                        _ => {
                            self.at -= 2;
                            return Err(self.error("style name matcher", self.got()));
                        }
                    });
                    self.expect(Tok::CloseSquare, "close-square-bracket")?;
                }
                Some(Tok::Colon)
                    if lists
                        && matches!(self.peek_at(1), Some(Tok::Identifier(s))
                            if s == "ordered-list" || s == "unordered-list") =>
                {
                    let ordered =
                        matches!(self.peek_at(1), Some(Tok::Identifier(s)) if s == "ordered-list");
                    self.at += 2;
                    self.expect(Tok::OpenParen, "open-paren")?;
                    let level = match self.peek() {
                        Some(Tok::Integer(n)) => *n,
                        _ => return Err(self.error("integer", self.got())),
                    };
                    self.at += 1;
                    self.expect(Tok::CloseParen, "close-paren")?;
                    m.list = Some((ordered, level.saturating_sub(1)));
                }
                _ => return Ok(m),
            }
        }
    }

    fn path(&mut self) -> Result<HtmlPath, StyleMapError> {
        if self.peek() == Some(&Tok::Bang) {
            self.at += 1;
            return Ok(HtmlPath::Ignore);
        }
        let mut elements = vec![self.tag()?];
        while self.peek() == Some(&Tok::Whitespace)
            && self.peek_at(1) == Some(&Tok::Gt)
            && self.peek_at(2) == Some(&Tok::Whitespace)
        {
            self.at += 3;
            elements.push(self.tag()?);
        }
        Ok(HtmlPath::Elements(elements))
    }

    fn tag(&mut self) -> Result<TagSpec, StyleMapError> {
        let mut names = vec![self.identifier()?];
        while self.peek() == Some(&Tok::Choice) {
            self.at += 1;
            names.push(self.identifier()?);
        }
        let mut attributes: Vec<(String, String)> = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::OpenSquare) => {
                    self.at += 1;
                    let name = self.identifier()?;
                    self.expect(Tok::Equals, "equals")?;
                    let value = self.string()?;
                    self.expect(Tok::CloseSquare, "close-square-bracket")?;
                    set_attribute(&mut attributes, name, value, false);
                }
                Some(Tok::Dot) => {
                    self.at += 1;
                    let class = self.identifier()?;
                    set_attribute(&mut attributes, "class".into(), class, true);
                }
                _ => break,
            }
        }
        let mut fresh = false;
        if self.peek() == Some(&Tok::Colon)
            && matches!(self.peek_at(1), Some(Tok::Identifier(s)) if s == "fresh")
        {
            self.at += 2;
            fresh = true;
        }
        let mut separator = String::new();
        if self.peek() == Some(&Tok::Colon)
            && matches!(self.peek_at(1), Some(Tok::Identifier(s)) if s == "separator")
        {
            self.at += 2;
            self.expect(Tok::OpenParen, "open-paren")?;
            separator = self.string()?;
            self.expect(Tok::CloseParen, "close-paren")?;
        }
        Ok(TagSpec {
            names,
            attributes,
            fresh,
            separator,
        })
    }
}

/// Sets an attribute, keeping the order of first appearance; classes accumulate.
fn set_attribute(attrs: &mut Vec<(String, String)>, name: String, value: String, append: bool) {
    if let Some((_, v)) = attrs.iter_mut().find(|(n, _)| *n == name) {
        if append && !v.is_empty() {
            v.push(' ');
            v.push_str(&value);
        } else {
            *v = value;
        }
    } else {
        attrs.push((name, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_map_parses_whole() {
        let (map, errors) = StyleMap::parse(DEFAULT_STYLE_MAP);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(map.rules.len(), DEFAULT_STYLE_MAP.lines().count());
    }

    #[test]
    fn paragraph_by_name_to_nested_fresh_path() {
        let rule = parse_rule("p[style-name='Warning'] => div.warning > p:fresh").unwrap();
        assert_eq!(
            rule.from,
            Matcher::Paragraph(ElementMatcher {
                style_name: Some(NameMatch::Equal("Warning".into())),
                ..Default::default()
            })
        );
        let HtmlPath::Elements(tags) = rule.to else {
            panic!("a path")
        };
        assert_eq!(tags.len(), 2);
        assert_eq!(tags[0].names, ["div"]);
        assert_eq!(
            tags[0].attributes,
            [("class".to_string(), "warning".to_string())]
        );
        assert!(!tags[0].fresh);
        assert_eq!(tags[1].names, ["p"]);
        assert!(tags[1].fresh);
    }

    #[test]
    fn ids_lists_choices_separators_and_drops() {
        let r = parse_rule("p.Heading1 => h1").unwrap();
        assert!(
            matches!(r.from, Matcher::Paragraph(ElementMatcher { style_id: Some(ref s), .. }) if s == "Heading1")
        );
        let r = parse_rule("p:ordered-list(2) => ul|ol > li > ol > li:fresh").unwrap();
        assert!(matches!(
            r.from,
            Matcher::Paragraph(ElementMatcher {
                list: Some((true, 1)),
                ..
            })
        ));
        let r = parse_rule("p[style-name='Code'] => pre:separator('\\n')").unwrap();
        let HtmlPath::Elements(tags) = r.to else {
            panic!("a path")
        };
        assert_eq!(tags[0].separator, "\n");
        assert_eq!(
            parse_rule("r[style-name='Secret'] => !").unwrap().to,
            HtmlPath::Ignore
        );
        assert_eq!(parse_rule("b =>").unwrap().to, HtmlPath::empty());
        assert_eq!(
            parse_rule("br[type='page'] => hr").unwrap().from,
            Matcher::Break(BreakKind::Page)
        );
        let r = parse_rule("r[style-name^='Code'] => code.a.b").unwrap();
        let HtmlPath::Elements(tags) = r.to else {
            panic!("a path")
        };
        assert_eq!(
            tags[0].attributes,
            [("class".to_string(), "a b".to_string())]
        );
    }

    #[test]
    fn a_bad_line_is_one_error_and_the_rest_applies() {
        let (map, errors) = StyleMap::parse("p.A => h1\n\n# comment\nq => p\np.B=>h2\nb => strong");
        assert_eq!(map.rules.len(), 2);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].line, "q => p");
        assert_eq!(errors[0].at, 1);
        assert!(
            errors[0]
                .to_string()
                .starts_with("Did not understand this style mapping, so ignored it: q => p")
        );
        assert_eq!(errors[1].line, "p.B=>h2");
    }

    #[test]
    fn hostile_lines_are_errors_not_panics() {
        for line in [
            "'",
            "p[",
            "p[style-name=",
            "p:ordered-list(",
            "\\",
            "p => a[",
            "=> =>",
            "p => h1:",
            "br[type='x'] => hr",
        ] {
            assert!(parse_rule(line).is_err(), "{line}");
        }
    }

    #[test]
    fn names_compare_ignoring_case() {
        assert!(NameMatch::Equal("heading 1".into()).matches("Heading 1"));
        assert!(NameMatch::StartsWith("code".into()).matches("Code Block"));
        assert!(!NameMatch::StartsWith("code".into()).matches("Source Code"));
    }
}
