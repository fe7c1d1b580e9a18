//! Stage one: field instructions (ECMA-376 §17.16): the few fields the tree models, parsed from the
//! instruction text of `w:fldSimple@w:instr` or the `w:instrText` runs of a complex field.

use crate::ast::{DirectoryKind, PagePiece};
use crate::import::docx::caption_labels::is_table_label;

/// What a field is, as far as the tree cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// `HYPERLINK "url" \l "anchor"`: the result is link text.
    Hyperlink(String),
    /// `REF`/`PAGEREF`/`NOTEREF bookmark`: a cross-reference replacing the displayed result.
    Ref {
        /// The bookmark.
        target: String,
        /// Shows the target's number (`\n`, `\r`, `\w`; PAGEREF's page; NOTEREF's number).
        number: bool,
        /// Shows the target's text (plain REF).
        text: bool,
    },
    /// `SEQ Figure`: caption numbering; the displayed number is dropped.
    Seq(String),
    /// `TOC …`: a generated directory replacing the cached entries.
    Toc(DirectoryKind),
    /// `PAGE`, `NUMPAGES`, `SECTIONPAGES`: page numbers.
    Page(PagePiece),
    /// Anything else: its displayed result is kept as text.
    Other,
}

/// A token of a field instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    text: String,
    switch: bool,
}

/// Splits an instruction into words, quoted strings (with `\"` and `\\` escapes) and switches.
fn tokens(instr: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = instr.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut text = String::new();
        if c == '"' {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if matches!(chars.peek(), Some('"' | '\\')) => {
                        if let Some(n) = chars.next() {
                            text.push(n);
                        }
                    }
                    '"' => break,
                    c => text.push(c),
                }
            }
            out.push(Token {
                text,
                switch: false,
            });
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || (c == '"' && !text.is_empty()) {
                    break;
                }
                text.push(c);
                chars.next();
            }
            let switch = text.starts_with('\\');
            out.push(Token { text, switch });
        }
    }
    out
}

/// The argument following switch `name` (`\l "anchor"`).
fn switch_arg(tokens: &[Token], name: &str) -> Option<String> {
    let i = tokens
        .iter()
        .position(|t| t.switch && t.text.eq_ignore_ascii_case(name))?;
    tokens
        .get(i + 1)
        .filter(|t| !t.switch)
        .map(|t| t.text.clone())
}

fn has_switch(tokens: &[Token], name: &str) -> bool {
    tokens
        .iter()
        .any(|t| t.switch && t.text.eq_ignore_ascii_case(name))
}

/// The first argument after the field name that is not a switch or a switch's argument.
fn first_arg(tokens: &[Token]) -> Option<String> {
    tokens.get(1).filter(|t| !t.switch).map(|t| t.text.clone())
}

/// Parses a field instruction.
pub fn parse(instr: &str) -> FieldKind {
    let toks = tokens(instr);
    let Some(name) = toks.first().map(|t| t.text.to_ascii_uppercase()) else {
        return FieldKind::Other;
    };
    match name.as_str() {
        "HYPERLINK" => {
            let url = first_arg(&toks).filter(|u| !u.is_empty());
            let anchor = switch_arg(&toks, "\\l").filter(|a| !a.is_empty());
            match (url, anchor) {
                (Some(u), Some(a)) => FieldKind::Hyperlink(format!("{u}#{a}")),
                (Some(u), None) => FieldKind::Hyperlink(u),
                (None, Some(a)) => FieldKind::Hyperlink(format!("#{a}")),
                (None, None) => FieldKind::Other,
            }
        }
        "REF" | "PAGEREF" | "NOTEREF" => match first_arg(&toks).filter(|t| !t.is_empty()) {
            Some(target) => {
                let number = name != "REF"
                    || has_switch(&toks, "\\n")
                    || has_switch(&toks, "\\r")
                    || has_switch(&toks, "\\w");
                FieldKind::Ref {
                    target,
                    number,
                    text: name == "REF" && !number,
                }
            }
            None => FieldKind::Other,
        },
        "SEQ" => FieldKind::Seq(first_arg(&toks).unwrap_or_default()),
        "TOC" => {
            let kind = match switch_arg(&toks, "\\c").or_else(|| switch_arg(&toks, "\\a")) {
                Some(label) if is_table_label(&label) => DirectoryKind::Tables,
                Some(_) => DirectoryKind::Images,
                None => DirectoryKind::Content,
            };
            FieldKind::Toc(kind)
        }
        "PAGE" => FieldKind::Page(PagePiece::PageNumber),
        "NUMPAGES" => FieldKind::Page(PagePiece::PageCount),
        "SECTIONPAGES" => FieldKind::Page(PagePiece::SectionPageCount),
        _ => FieldKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_fields_we_model() {
        assert_eq!(
            parse(r#" HYPERLINK "https://e.org/a b" \o "tip" "#),
            FieldKind::Hyperlink("https://e.org/a b".into())
        );
        assert_eq!(
            parse(r#"HYPERLINK \l "_Toc1" \h"#),
            FieldKind::Hyperlink("#_Toc1".into())
        );
        assert_eq!(
            parse(r"REF _Ref123 \h"),
            FieldKind::Ref {
                target: "_Ref123".into(),
                number: false,
                text: true
            }
        );
        assert_eq!(
            parse(r"REF _Ref1 \r \h"),
            FieldKind::Ref {
                target: "_Ref1".into(),
                number: true,
                text: false
            }
        );
        assert!(matches!(
            parse("PAGEREF x \\h"),
            FieldKind::Ref { number: true, .. }
        ));
        assert_eq!(
            parse(r"SEQ Figure \* ARABIC"),
            FieldKind::Seq("Figure".into())
        );
        assert_eq!(
            parse(r#"TOC \o "1-3" \h \z \u"#),
            FieldKind::Toc(DirectoryKind::Content)
        );
        assert_eq!(
            parse(r#"TOC \h \z \c "Figure""#),
            FieldKind::Toc(DirectoryKind::Images)
        );
        // The labels the caption pass reads too (`caption_labels`), abbreviated or not.
        for label in ["Tabelle", "Tab.", "Tab", "Табл."] {
            assert_eq!(
                parse(&format!(r#"TOC \c "{label}""#)),
                FieldKind::Toc(DirectoryKind::Tables),
                "{label}"
            );
        }
        assert_eq!(parse("PAGE"), FieldKind::Page(PagePiece::PageNumber));
        assert_eq!(
            parse(" NUMPAGES \\* Arabic "),
            FieldKind::Page(PagePiece::PageCount)
        );
        assert_eq!(parse("DATE \\@ \"d.M.yyyy\""), FieldKind::Other);
        assert_eq!(parse(""), FieldKind::Other);
        assert_eq!(
            parse(r#"HYPERLINK "a\"b""#),
            FieldKind::Hyperlink("a\"b".into())
        );
    }
}
