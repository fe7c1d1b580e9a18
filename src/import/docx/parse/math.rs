//! Stage one: Office Math (OMML, `m:oMath`/`m:oMathPara`) into the formula tree ([`MathNode`]).
//!
//! The element is first read into a small element tree (names, the `m:val` of property
//! elements, text), so the structure can be walked with lookahead-free recursion; the XML
//! reader bounds its depth, and the conversion stops nesting at [`MAX_MATH_DEPTH`], keeping
//! deeper content as its text. Unknown elements keep their text (the caller warns, once per
//! name, with the names collected in [`Omml::unknown`]).

use std::collections::BTreeSet;

use quick_xml::events::{BytesStart, Event};

use super::xmlutil::attr;
use crate::ast::math::{MAX_MATH_DEPTH, MathNode, classify};
use crate::error::Result;
use crate::xml::{LocalName, XmlReader, push_ref};

/// An OMML element as read: local name, `val` attribute, children, direct text.
#[derive(Debug, Default)]
struct El {
    name: String,
    val: Option<String>,
    children: Vec<El>,
    text: String,
}

impl El {
    fn child(&self, name: &str) -> Option<&El> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The `val` of property `prop` inside properties element `pr` (`m:naryPr/m:chr@m:val`).
    fn prop(&self, pr: &str, prop: &str) -> Option<&str> {
        self.child(pr)?
            .child(prop)
            .map(|p| p.val.as_deref().unwrap_or(""))
    }

    /// An on/off property: present with no `val` or a true `val`.
    fn flag(&self, pr: &str, prop: &str) -> bool {
        self.prop(pr, prop)
            .is_some_and(|v| matches!(v, "" | "1" | "on" | "true"))
    }

    /// All text below this element.
    fn all_text(&self, out: &mut String) {
        out.push_str(&self.text);
        for c in &self.children {
            c.all_text(out);
        }
    }
}

fn read_el(r: &mut XmlReader<'_>, e: &BytesStart<'_>) -> Result<El> {
    let mut el = El {
        name: e.local().to_string(),
        val: attr(e, "val").map(|v| v.into_owned()),
        ..El::default()
    };
    loop {
        match r.next_event()? {
            Event::Start(c) => {
                let child = read_el(r, &c)?;
                el.children.push(child);
            }
            Event::Empty(c) => el.children.push(El {
                name: c.local().to_string(),
                val: attr(&c, "val").map(|v| v.into_owned()),
                ..El::default()
            }),
            // Only `m:t`/`w:t` text counts: whitespace between elements is layout.
            Event::Text(t) if el.name == "t" => el.text.push_str(&t.xml10_content()),
            Event::CData(t) if el.name == "t" => el.text.push_str(&t.xml10_content()),
            Event::GeneralRef(g) if el.name == "t" => push_ref(&g, &mut el.text),
            Event::End(_) => return Ok(el),
            Event::Eof => return Err(r.invalid("the part ends inside an equation")),
            _ => {}
        }
    }
}

/// The formulas of one `m:oMath` or `m:oMathPara`, and what could not be read as structure.
#[derive(Debug, Default)]
pub struct Omml {
    /// One formula per `m:oMath` (an `m:oMathPara` may hold several).
    pub formulas: Vec<Vec<MathNode>>,
    /// Names of elements read as their text only (`m:foo`), for the caller's warning.
    pub unknown: BTreeSet<String>,
}

/// Reads the `m:oMath` or `m:oMathPara` element whose start `e` was just read.
pub fn read(r: &mut XmlReader<'_>, e: &BytesStart<'_>) -> Result<Omml> {
    let el = read_el(r, e)?;
    let mut out = Omml::default();
    if el.name == "oMathPara" {
        for c in &el.children {
            if c.name == "oMath" {
                let f = out.row(&c.children, 0, false);
                out.formulas.push(f);
            }
        }
    } else {
        let f = out.row(&el.children, 0, false);
        out.formulas.push(f);
    }
    Ok(out)
}

/// Properties, control properties and anchors that carry no content.
fn ignorable(name: &str) -> bool {
    name.ends_with("Pr")
        || matches!(
            name,
            "bookmarkStart" | "bookmarkEnd" | "proofErr" | "commentRangeStart" | "commentRangeEnd"
        )
}

impl Omml {
    /// The nodes of a sequence of OMML elements (an `m:e`, `m:num`, … content).
    fn row(&mut self, els: &[El], depth: usize, names: bool) -> Vec<MathNode> {
        let mut out = Vec::new();
        for el in els {
            self.node(el, depth, names, &mut out);
        }
        out
    }

    /// The row of child `name` of `el`, empty when absent.
    fn arg(&mut self, el: &El, name: &str, depth: usize, names: bool) -> Vec<MathNode> {
        match el.child(name) {
            Some(c) => self.row(&c.children, depth + 1, names),
            None => Vec::new(),
        }
    }

    /// Like [`Omml::arg`], `None` when absent, empty or hidden by `hide` in `pr`.
    fn opt_arg(
        &mut self,
        el: &El,
        name: &str,
        pr: &str,
        hide: &str,
        depth: usize,
    ) -> Option<Vec<MathNode>> {
        if el.flag(pr, hide) {
            return None;
        }
        Some(self.arg(el, name, depth, false)).filter(|r| !r.is_empty())
    }

    fn node(&mut self, el: &El, depth: usize, names: bool, out: &mut Vec<MathNode>) {
        if depth > MAX_MATH_DEPTH {
            let mut text = String::new();
            el.all_text(&mut text);
            if !text.is_empty() {
                out.push(MathNode::Text { text });
            }
            return;
        }
        let d = depth;
        match el.name.as_str() {
            "r" => {
                let mut text = String::new();
                for t in el.children.iter().filter(|c| c.name == "t") {
                    text.push_str(&t.text);
                }
                if el.flag("rPr", "nor") {
                    if !text.is_empty() {
                        out.push(MathNode::Text { text });
                    }
                } else {
                    classify(&text, names, out);
                }
            }
            "f" => out.push(MathNode::Fraction {
                num: self.arg(el, "num", d, false),
                den: self.arg(el, "den", d, false),
            }),
            "sSub" | "sSup" | "sSubSup" => {
                let sub = (el.name != "sSup").then(|| self.arg(el, "sub", d, false));
                let sup = (el.name != "sSub").then(|| self.arg(el, "sup", d, false));
                out.push(MathNode::Scripts {
                    base: self.arg(el, "e", d, names),
                    sub,
                    sup,
                });
            }
            "sPre" => {
                // Prescripts: scripts on an empty base, before the base.
                out.push(MathNode::Scripts {
                    base: Vec::new(),
                    sub: Some(self.arg(el, "sub", d, false)),
                    sup: Some(self.arg(el, "sup", d, false)),
                });
                let base = self.arg(el, "e", d, names);
                out.extend(base);
            }
            "limLow" | "limUpp" => {
                let lim = Some(self.arg(el, "lim", d, false));
                let low = el.name == "limLow";
                out.push(MathNode::Scripts {
                    base: self.arg(el, "e", d, names),
                    sub: if low { lim.clone() } else { None },
                    sup: if low { None } else { lim },
                });
            }
            "rad" => {
                let degree = self.opt_arg(el, "deg", "radPr", "degHide", d);
                out.push(MathNode::Radical {
                    degree,
                    body: self.arg(el, "e", d, false),
                });
            }
            "nary" => {
                let op = el
                    .prop("naryPr", "chr")
                    .filter(|c| !c.is_empty())
                    .unwrap_or("\u{222B}")
                    .to_string();
                let sub = self.opt_arg(el, "sub", "naryPr", "subHide", d);
                let sup = self.opt_arg(el, "sup", "naryPr", "supHide", d);
                out.push(MathNode::Nary {
                    op,
                    sub,
                    sup,
                    body: self.arg(el, "e", d, false),
                });
            }
            "d" => {
                let open = el.prop("dPr", "begChr").unwrap_or("(").to_string();
                let close = el.prop("dPr", "endChr").unwrap_or(")").to_string();
                let sep = el.prop("dPr", "sepChr").unwrap_or("|").to_string();
                let mut body = Vec::new();
                for (k, e) in el.children.iter().filter(|c| c.name == "e").enumerate() {
                    if k > 0 && !sep.is_empty() {
                        body.push(MathNode::op(sep.clone()));
                    }
                    body.extend(self.row(&e.children, d + 1, false));
                }
                out.push(MathNode::Delimited { open, close, body });
            }
            "m" => {
                let mut rows = Vec::new();
                for mr in el.children.iter().filter(|c| c.name == "mr") {
                    let mut cells = Vec::new();
                    for e in mr.children.iter().filter(|c| c.name == "e") {
                        cells.push(self.row(&e.children, d + 1, false));
                    }
                    rows.push(cells);
                }
                out.push(MathNode::Matrix { rows });
            }
            "eqArr" => {
                let mut rows = Vec::new();
                for e in el.children.iter().filter(|c| c.name == "e") {
                    rows.push(vec![self.row(&e.children, d + 1, false)]);
                }
                out.push(MathNode::Matrix { rows });
            }
            "acc" => {
                let accent = el
                    .prop("accPr", "chr")
                    .filter(|c| !c.is_empty())
                    .unwrap_or("\u{0302}")
                    .to_string();
                out.push(MathNode::Accent {
                    accent,
                    under: false,
                    body: self.arg(el, "e", d, false),
                });
            }
            "bar" => out.push(MathNode::Accent {
                accent: "\u{0305}".into(),
                // OMML's default position of a bar is below.
                under: el.prop("barPr", "pos") != Some("top"),
                body: self.arg(el, "e", d, false),
            }),
            "groupChr" => {
                let accent = el
                    .prop("groupChrPr", "chr")
                    .filter(|c| !c.is_empty())
                    .unwrap_or("\u{23DF}")
                    .to_string();
                out.push(MathNode::Accent {
                    accent,
                    under: el.prop("groupChrPr", "pos") != Some("top"),
                    body: self.arg(el, "e", d, false),
                });
            }
            "func" => out.push(MathNode::Function {
                name: self.arg(el, "fName", d, true),
                body: self.arg(el, "e", d, false),
            }),
            // Frames that only decorate or group their content.
            "box" | "borderBox" | "phant" | "e" | "oMath" | "argPr" => {
                for c in &el.children {
                    self.node(c, d + 1, names, out);
                }
            }
            name if ignorable(name) => {}
            name => {
                let mut text = String::new();
                el.all_text(&mut text);
                self.unknown.insert(format!("m:{name}"));
                if !text.is_empty() {
                    out.push(MathNode::Text { text });
                }
            }
        }
    }
}
