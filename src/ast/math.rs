//! Mathematical formulas: a small presentation tree, as Word's OMML and MathML describe them.
//!
//! A formula is a sequence of [`MathNode`]s (a "row"). The tree keeps the structure readers find
//! (fractions, scripts, radicals, big operators with limits, delimiters, matrices, accents,
//! function applications) so that every writer can render it in its own notation: MathML for
//! HTML, TeX for Markdown, OMML for Word, and [`linear_text`] for formats without math.

use serde::{Deserialize, Serialize};

/// Deepest nesting a reader builds and a writer descends into; deeper content is flattened to
/// its text (a hostile input cannot exhaust the stack).
pub const MAX_MATH_DEPTH: usize = 32;

/// Deepest row nesting ([`depth`]) a valid tree holds: readers stop building structure at
/// [`MAX_MATH_DEPTH`] and keep what lies below as text, one or two rows further down.
pub const MAX_TREE_DEPTH: usize = MAX_MATH_DEPTH + 2;

/// One element of a formula row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "m", rename_all = "snake_case")]
pub enum MathNode {
    /// An identifier (`x`, `α`), shown in italics when it is one letter.
    Ident {
        /// The characters.
        text: String,
    },
    /// A number (`3.14`).
    Number {
        /// The digits.
        text: String,
    },
    /// An operator or punctuation (`+`, `=`, `(`).
    Operator {
        /// The characters.
        text: String,
    },
    /// Upright prose inside a formula (OMML `m:nor`, TeX `\text{}`).
    Text {
        /// The characters.
        text: String,
    },
    /// `num` over `den`.
    Fraction {
        /// Numerator.
        num: Vec<MathNode>,
        /// Denominator.
        den: Vec<MathNode>,
    },
    /// A base with a subscript, a superscript or both.
    Scripts {
        /// What the scripts attach to.
        base: Vec<MathNode>,
        /// Lower script.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sub: Option<Vec<MathNode>>,
        /// Upper script.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sup: Option<Vec<MathNode>>,
    },
    /// A square root, or an n-th root when `degree` is given.
    Radical {
        /// The root's degree (`3` for a cube root).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        degree: Option<Vec<MathNode>>,
        /// What is under the root.
        body: Vec<MathNode>,
    },
    /// A big operator (`∑`, `∫`, `∏`) with optional limits, applied to `body`.
    Nary {
        /// The operator character.
        op: String,
        /// Lower limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sub: Option<Vec<MathNode>>,
        /// Upper limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sup: Option<Vec<MathNode>>,
        /// The operand.
        body: Vec<MathNode>,
    },
    /// Content between delimiters (`(a+b)`, `|x|`); `open`/`close` may be empty (no delimiter).
    Delimited {
        /// The opening delimiter.
        open: String,
        /// The closing delimiter.
        close: String,
        /// The content.
        body: Vec<MathNode>,
    },
    /// A matrix, row by row, cell by cell.
    Matrix {
        /// The rows.
        rows: Vec<Vec<Vec<MathNode>>>,
    },
    /// An accent or bar over (or, for a bar, under) the body: `x̂`, `x̄`.
    Accent {
        /// The accent character (`^`, `¯`, `˙`, `→`, …).
        accent: String,
        /// Below the body instead of above it (OMML `m:bar` with `pos="bot"`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        under: bool,
        /// What the accent decorates.
        body: Vec<MathNode>,
    },
    /// A named function applied to an argument: `sin x`, `lim_{n→∞} a_n`.
    Function {
        /// The function's name (may carry scripts, for `lim` with a limit below).
        name: Vec<MathNode>,
        /// The argument.
        body: Vec<MathNode>,
    },
}

impl MathNode {
    /// An identifier.
    pub fn ident(s: impl Into<String>) -> Self {
        MathNode::Ident { text: s.into() }
    }
    /// A number.
    pub fn number(s: impl Into<String>) -> Self {
        MathNode::Number { text: s.into() }
    }
    /// An operator.
    pub fn op(s: impl Into<String>) -> Self {
        MathNode::Operator { text: s.into() }
    }
}

/// Splits plain math text into identifiers, numbers and operators, the way both OMML runs and
/// TeX letters are classified: a run of digits (with `.`) is a number, a letter an identifier
/// (a run of letters stays one identifier only when `group_letters` is set, for function names
/// and upright text), anything else one operator per character. Spaces are dropped.
pub fn classify(text: &str, group_letters: bool, out: &mut Vec<MathNode>) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii_digit() {
            let mut s = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == '.' {
                    s.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(MathNode::Number { text: s });
        } else if c.is_alphabetic() {
            let mut s = String::from(c);
            if group_letters {
                while let Some(&d) = chars.peek() {
                    if d.is_alphabetic() {
                        s.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
            }
            out.push(MathNode::Ident { text: s });
        } else {
            out.push(MathNode::Operator {
                text: c.to_string(),
            });
        }
    }
}

/// The formula as one line of plain text, for writers without math (parsX, sd.xml's fallback,
/// PDF): `(a+b)/(2)`, `x^(2)`, `√(x)`, `∑_(i=1)^(n) i`.
pub fn linear_text(row: &[MathNode]) -> String {
    let mut out = String::new();
    linear_row(row, &mut out, 0);
    out
}

fn group(row: &[MathNode], out: &mut String, depth: usize) {
    out.push('(');
    linear_row(row, out, depth + 1);
    out.push(')');
}

/// `_(sub)^(sup)`; an empty script (a placeholder the author never filled) writes nothing.
fn scripts(
    sub: &Option<Vec<MathNode>>,
    sup: &Option<Vec<MathNode>>,
    out: &mut String,
    depth: usize,
) {
    if let Some(sub) = sub.as_ref().filter(|s| !s.is_empty()) {
        out.push('_');
        group(sub, out, depth);
    }
    if let Some(sup) = sup.as_ref().filter(|s| !s.is_empty()) {
        out.push('^');
        group(sup, out, depth);
    }
}

fn linear_row(row: &[MathNode], out: &mut String, depth: usize) {
    // Readers build at most MAX_TREE_DEPTH levels; writers fall back to this text at
    // MAX_MATH_DEPTH, so every valid tree is written whole.
    if depth > MAX_TREE_DEPTH {
        return;
    }
    for node in row {
        match node {
            MathNode::Ident { text }
            | MathNode::Number { text }
            | MathNode::Operator { text }
            | MathNode::Text { text } => out.push_str(text),
            MathNode::Fraction { num, den } => {
                group(num, out, depth);
                out.push('/');
                group(den, out, depth);
            }
            MathNode::Scripts { base, sub, sup } => {
                linear_row(base, out, depth + 1);
                scripts(sub, sup, out, depth);
            }
            MathNode::Radical { degree, body } => {
                if let Some(d) = degree {
                    group(d, out, depth);
                }
                out.push('√');
                group(body, out, depth);
            }
            MathNode::Nary { op, sub, sup, body } => {
                out.push_str(op);
                scripts(sub, sup, out, depth);
                out.push(' ');
                linear_row(body, out, depth + 1);
            }
            MathNode::Delimited { open, close, body } => {
                out.push_str(open);
                linear_row(body, out, depth + 1);
                out.push_str(close);
            }
            MathNode::Matrix { rows } => {
                out.push('[');
                for (i, r) in rows.iter().enumerate() {
                    if i > 0 {
                        out.push_str("; ");
                    }
                    for (j, cell) in r.iter().enumerate() {
                        if j > 0 {
                            out.push_str(", ");
                        }
                        linear_row(cell, out, depth + 1);
                    }
                }
                out.push(']');
            }
            MathNode::Accent { accent, body, .. } => {
                linear_row(body, out, depth + 1);
                out.push_str(accent);
            }
            MathNode::Function { name, body } => {
                linear_row(name, out, depth + 1);
                out.push(' ');
                linear_row(body, out, depth + 1);
            }
        }
    }
}

/// Depth of the deepest nesting in `row` (a plain row is 1).
pub fn depth(row: &[MathNode]) -> usize {
    fn d(row: &[MathNode], level: usize) -> usize {
        if level > MAX_TREE_DEPTH {
            return level;
        }
        let mut max = level;
        for node in row {
            for child in children(node) {
                max = max.max(d(child, level + 1));
            }
        }
        max
    }
    d(row, 1)
}

/// The child rows of a node, in reading order.
pub fn children(node: &MathNode) -> Vec<&[MathNode]> {
    match node {
        MathNode::Ident { .. }
        | MathNode::Number { .. }
        | MathNode::Operator { .. }
        | MathNode::Text { .. } => Vec::new(),
        MathNode::Fraction { num, den } => vec![num, den],
        MathNode::Scripts { base, sub, sup } => {
            let mut v: Vec<&[MathNode]> = vec![base];
            v.extend(sub.as_deref());
            v.extend(sup.as_deref());
            v
        }
        MathNode::Radical { degree, body } => {
            let mut v: Vec<&[MathNode]> = degree.as_deref().into_iter().collect();
            v.push(body);
            v
        }
        MathNode::Nary { sub, sup, body, .. } => {
            let mut v: Vec<&[MathNode]> = sub.as_deref().into_iter().collect();
            v.extend(sup.as_deref());
            v.push(body);
            v
        }
        MathNode::Delimited { body, .. } | MathNode::Accent { body, .. } => vec![body],
        MathNode::Matrix { rows } => rows.iter().flatten().map(|c| c.as_slice()).collect(),
        MathNode::Function { name, body } => vec![name, body],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_text_of_a_fraction_with_scripts() {
        let row = vec![MathNode::Fraction {
            num: vec![MathNode::Scripts {
                base: vec![MathNode::ident("x")],
                sub: None,
                sup: Some(vec![MathNode::number("2")]),
            }],
            den: vec![MathNode::number("3")],
        }];
        assert_eq!(linear_text(&row), "(x^(2))/(3)");
        assert_eq!(depth(&row), 3);
    }

    #[test]
    fn classify_splits_numbers_letters_operators() {
        let mut v = Vec::new();
        classify("x+12.5=ab", false, &mut v);
        assert_eq!(
            v,
            vec![
                MathNode::ident("x"),
                MathNode::op("+"),
                MathNode::number("12.5"),
                MathNode::op("="),
                MathNode::ident("a"),
                MathNode::ident("b"),
            ]
        );
    }
}
