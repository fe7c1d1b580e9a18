//! Formulas as Office Math (OMML) runs: what the Word reader's `omml` module reads back to the
//! same tree.

use crate::ast::math::{MAX_MATH_DEPTH, MathNode, linear_text};
use crate::xml::{escape_attr, escape_text};

/// The OMML namespace.
const M: &str = "http://schemas.openxmlformats.org/officeDocument/2006/math";

/// Appends `m:oMath` (inside `m:oMathPara` when `display`) for `row`. The namespace is declared
/// on the formula itself, so parts without formulas stay exactly as they were.
pub fn write(row: &[MathNode], display: bool, out: &mut String) {
    if display {
        out.push_str("<m:oMathPara xmlns:m=\"");
        out.push_str(M);
        out.push_str("\"><m:oMath>");
    } else {
        out.push_str("<m:oMath xmlns:m=\"");
        out.push_str(M);
        out.push_str("\">");
    }
    nodes(row, out, 0, false);
    out.push_str("</m:oMath>");
    if display {
        out.push_str("</m:oMathPara>");
    }
}

fn run(text: &str, props: &str, out: &mut String) {
    out.push_str("<m:r>");
    out.push_str(props);
    out.push_str("<m:t xml:space=\"preserve\">");
    escape_text(text, out);
    out.push_str("</m:t></m:r>");
}

fn val(tag: &str, v: &str, out: &mut String) {
    out.push_str("<m:");
    out.push_str(tag);
    out.push_str(" m:val=\"");
    escape_attr(v, out);
    out.push_str("\"/>");
}

/// `<m:TAG>row</m:TAG>`.
fn arg(tag: &str, row: &[MathNode], out: &mut String, depth: usize, name: bool) {
    out.push_str("<m:");
    out.push_str(tag);
    out.push('>');
    nodes(row, out, depth + 1, name);
    out.push_str("</m:");
    out.push_str(tag);
    out.push('>');
}

/// Writes `row`; `name` inside a function name, where letters are one upright run.
fn nodes(row: &[MathNode], out: &mut String, depth: usize, name: bool) {
    if depth > MAX_MATH_DEPTH {
        run(&linear_text(row), "<m:rPr><m:nor/></m:rPr>", out);
        return;
    }
    for node in row {
        match node {
            MathNode::Ident { text } if name => {
                run(text, "<m:rPr><m:sty m:val=\"p\"/></m:rPr>", out)
            }
            MathNode::Ident { text } | MathNode::Number { text } | MathNode::Operator { text } => {
                run(text, "", out)
            }
            MathNode::Text { text } => run(text, "<m:rPr><m:nor/></m:rPr>", out),
            MathNode::Fraction { num, den } => {
                out.push_str("<m:f>");
                arg("num", num, out, depth, false);
                arg("den", den, out, depth, false);
                out.push_str("</m:f>");
            }
            MathNode::Scripts { base, sub, sup } => {
                let tag = match (sub, sup, name) {
                    // Word's own form of `lim` with its limit below, in a function name.
                    (Some(_), None, true) => "limLow",
                    (None, Some(_), true) => "limUpp",
                    (Some(_), Some(_), _) => "sSubSup",
                    (Some(_), None, _) => "sSub",
                    (None, Some(_), _) => "sSup",
                    (None, None, _) => {
                        nodes(base, out, depth + 1, name);
                        continue;
                    }
                };
                out.push_str("<m:");
                out.push_str(tag);
                out.push('>');
                arg("e", base, out, depth, name);
                let lim = tag.starts_with("lim");
                if let Some(sub) = sub {
                    arg(if lim { "lim" } else { "sub" }, sub, out, depth, false);
                }
                if let Some(sup) = sup {
                    arg(if lim { "lim" } else { "sup" }, sup, out, depth, false);
                }
                out.push_str("</m:");
                out.push_str(tag);
                out.push('>');
            }
            MathNode::Radical { degree, body } => {
                out.push_str("<m:rad>");
                match degree {
                    Some(d) => arg("deg", d, out, depth, false),
                    None => out.push_str("<m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/>"),
                }
                arg("e", body, out, depth, false);
                out.push_str("</m:rad>");
            }
            MathNode::Nary { op, sub, sup, body } => {
                out.push_str("<m:nary><m:naryPr>");
                val("chr", op, out);
                val("limLoc", "undOvr", out);
                if sub.is_none() {
                    val("subHide", "1", out);
                }
                if sup.is_none() {
                    val("supHide", "1", out);
                }
                out.push_str("</m:naryPr>");
                arg("sub", sub.as_deref().unwrap_or_default(), out, depth, false);
                arg("sup", sup.as_deref().unwrap_or_default(), out, depth, false);
                arg("e", body, out, depth, false);
                out.push_str("</m:nary>");
            }
            MathNode::Delimited { open, close, body } => {
                out.push_str("<m:d><m:dPr>");
                val("begChr", open, out);
                val("endChr", close, out);
                out.push_str("</m:dPr>");
                arg("e", body, out, depth, false);
                out.push_str("</m:d>");
            }
            MathNode::Matrix { rows } => {
                out.push_str("<m:m>");
                for r in rows {
                    out.push_str("<m:mr>");
                    for cell in r {
                        arg("e", cell, out, depth, false);
                    }
                    out.push_str("</m:mr>");
                }
                out.push_str("</m:m>");
            }
            MathNode::Accent {
                accent,
                under,
                body,
            } => {
                let (tag, pr) = if accent == "\u{305}" {
                    ("bar", "barPr")
                } else if *under {
                    ("groupChr", "groupChrPr")
                } else {
                    ("acc", "accPr")
                };
                out.push_str("<m:");
                out.push_str(tag);
                out.push_str("><m:");
                out.push_str(pr);
                out.push('>');
                if tag != "bar" {
                    val("chr", accent, out);
                }
                if tag != "acc" {
                    val("pos", if *under { "bot" } else { "top" }, out);
                }
                out.push_str("</m:");
                out.push_str(pr);
                out.push('>');
                arg("e", body, out, depth, false);
                out.push_str("</m:");
                out.push_str(tag);
                out.push('>');
            }
            MathNode::Function { name: fname, body } => {
                out.push_str("<m:func>");
                arg("fName", fname, out, depth, true);
                arg("e", body, out, depth, false);
                out.push_str("</m:func>");
            }
        }
    }
}
