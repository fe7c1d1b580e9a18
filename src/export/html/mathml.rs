//! Formulas as MathML Core (Chromium, Firefox and Safari render it natively).

use super::escape;
use crate::ast::math::{MAX_MATH_DEPTH, MathNode, linear_text};

/// Appends `<math>` for `row`; returns how many forbidden code points were replaced.
pub fn write(row: &[MathNode], display: bool, out: &mut String) -> usize {
    let mut replaced = 0;
    out.push_str(if display {
        "<math display=\"block\"><mrow>"
    } else {
        "<math><mrow>"
    });
    mrow_items(row, out, &mut replaced, 0);
    out.push_str("</mrow></math>");
    replaced
}

fn leaf(tag: &str, text: &str, out: &mut String, replaced: &mut usize) {
    out.push('<');
    out.push_str(tag);
    out.push('>');
    *replaced += escape::text(text, out);
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

/// A row wrapped in `<mrow>`, as the schemata with fixed arity require.
fn mrow(row: &[MathNode], out: &mut String, replaced: &mut usize, depth: usize) {
    out.push_str("<mrow>");
    mrow_items(row, out, replaced, depth + 1);
    out.push_str("</mrow>");
}

fn mrow_items(row: &[MathNode], out: &mut String, replaced: &mut usize, depth: usize) {
    items(row, out, replaced, depth, false);
}

/// A function name's row: its scripts are limits (under and over).
fn limits_row(row: &[MathNode], out: &mut String, replaced: &mut usize, depth: usize) {
    items(row, out, replaced, depth, true);
}

/// A delimiter that stretches to its content's height.
fn fence(d: &str, out: &mut String, replaced: &mut usize) {
    out.push_str("<mo fence=\"true\" stretchy=\"true\">");
    *replaced += escape::text(d, out);
    out.push_str("</mo>");
}

/// The spacing form of a combining accent: a combining mark alone over a base does not render
/// as an accent in MathML.
fn spacing_accent(accent: &str) -> &str {
    match accent {
        "\u{302}" => "^",
        "\u{305}" | "\u{304}" => "\u{af}",
        "\u{307}" => "\u{2d9}",
        "\u{308}" => "\u{a8}",
        "\u{303}" => "~",
        "\u{20d7}" => "\u{2192}",
        "\u{30c}" => "\u{2c7}",
        "\u{301}" => "\u{b4}",
        "\u{300}" => "`",
        "\u{306}" => "\u{2d8}",
        other => other,
    }
}

fn items(row: &[MathNode], out: &mut String, replaced: &mut usize, depth: usize, limits: bool) {
    if depth > MAX_MATH_DEPTH {
        // Too deep to nest further: the rest as text, so nothing is lost.
        leaf("mtext", &linear_text(row), out, replaced);
        return;
    }
    for node in row {
        match node {
            MathNode::Ident { text } => leaf("mi", text, out, replaced),
            MathNode::Number { text } => leaf("mn", text, out, replaced),
            MathNode::Operator { text } => leaf("mo", text, out, replaced),
            // MathML Core trims an `mtext`'s edges: no-break spaces keep " if " spaced.
            MathNode::Text { text } => {
                let edged = text.trim_matches(' ');
                let lead = text.len() - text.trim_start_matches(' ').len();
                let trail = if edged.is_empty() {
                    0
                } else {
                    text.len() - text.trim_end_matches(' ').len()
                };
                let kept = format!("{}{edged}{}", "\u{a0}".repeat(lead), "\u{a0}".repeat(trail));
                leaf("mtext", &kept, out, replaced)
            }
            MathNode::Fraction { num, den } => {
                out.push_str("<mfrac>");
                mrow(num, out, replaced, depth);
                mrow(den, out, replaced, depth);
                out.push_str("</mfrac>");
            }
            MathNode::Scripts { base, sub, sup } => {
                let tag = match (sub, sup, limits) {
                    // A function name's limits go below and above (`lim` over `n→∞`).
                    (Some(_), Some(_), true) => "munderover",
                    (Some(_), None, true) => "munder",
                    (None, Some(_), true) => "mover",
                    (Some(_), Some(_), false) => "msubsup",
                    (Some(_), None, false) => "msub",
                    (None, Some(_), false) => "msup",
                    (None, None, _) => "mrow",
                };
                out.push_str(&format!("<{tag}>"));
                mrow(base, out, replaced, depth);
                for script in [sub, sup].into_iter().flatten() {
                    mrow(script, out, replaced, depth);
                }
                out.push_str(&format!("</{tag}>"));
            }
            MathNode::Radical { degree, body } => match degree {
                Some(d) => {
                    out.push_str("<mroot>");
                    mrow(body, out, replaced, depth);
                    mrow(d, out, replaced, depth);
                    out.push_str("</mroot>");
                }
                None => {
                    out.push_str("<msqrt>");
                    mrow(body, out, replaced, depth);
                    out.push_str("</msqrt>");
                }
            },
            MathNode::Nary { op, sub, sup, body } => {
                let tag = match (sub, sup) {
                    (Some(_), Some(_)) => "munderover",
                    (Some(_), None) => "munder",
                    (None, Some(_)) => "mover",
                    (None, None) => "",
                };
                if tag.is_empty() {
                    leaf("mo", op, out, replaced);
                } else {
                    out.push_str(&format!("<{tag}>"));
                    leaf("mo", op, out, replaced);
                    for limit in [sub, sup].into_iter().flatten() {
                        mrow(limit, out, replaced, depth);
                    }
                    out.push_str(&format!("</{tag}>"));
                }
                mrow(body, out, replaced, depth);
            }
            MathNode::Delimited { open, close, body } => {
                out.push_str("<mrow>");
                if !open.is_empty() {
                    fence(open, out, replaced);
                }
                mrow_items(body, out, replaced, depth + 1);
                if !close.is_empty() {
                    fence(close, out, replaced);
                }
                out.push_str("</mrow>");
            }
            MathNode::Matrix { rows } => {
                out.push_str("<mtable>");
                for r in rows {
                    out.push_str("<mtr>");
                    for cell in r {
                        out.push_str("<mtd>");
                        mrow_items(cell, out, replaced, depth + 1);
                        out.push_str("</mtd>");
                    }
                    out.push_str("</mtr>");
                }
                out.push_str("</mtable>");
            }
            MathNode::Accent {
                accent,
                under,
                body,
            } => {
                let tag = if *under { "munder" } else { "mover" };
                out.push_str(&format!("<{tag} accent=\"true\">"));
                mrow(body, out, replaced, depth);
                leaf("mo", spacing_accent(accent), out, replaced);
                out.push_str(&format!("</{tag}>"));
            }
            MathNode::Function { name, body } => {
                out.push_str("<mrow><mrow>");
                limits_row(name, out, replaced, depth + 1);
                out.push_str("</mrow>");
                // U+2061 FUNCTION APPLICATION: tells the renderer the name applies to the argument.
                out.push_str("<mo>\u{2061}</mo>");
                mrow(body, out, replaced, depth);
                out.push_str("</mrow>");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_fraction_is_block_mfrac() {
        let mut out = String::new();
        let row = vec![MathNode::Fraction {
            num: vec![MathNode::ident("a")],
            den: vec![MathNode::number("2")],
        }];
        write(&row, true, &mut out);
        assert_eq!(
            out,
            "<math display=\"block\"><mrow><mfrac><mrow><mi>a</mi></mrow><mrow><mn>2</mn></mrow></mfrac></mrow></math>"
        );
    }
}
