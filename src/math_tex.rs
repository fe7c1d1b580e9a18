//! Formulas in TeX notation: the Markdown writer's `$…$` content and the subset of TeX the
//! Markdown reader understands (exactly what [`write()`] emits, plus common spellings).
//!
//! The notation is standard LaTeX math (`\frac{a}{b}`, `x_{i}^{2}`, `\sqrt[3]{x}`,
//! `\sum_{i=1}^{n}{i}`, `\left(…\right)`, `\begin{matrix}…\end{matrix}`, `\hat{x}`,
//! `\sin{x}`, `\text{…}`), so MathJax, KaTeX and pandoc render what the writer emits.

use crate::ast::math::{MAX_MATH_DEPTH, MathNode, classify};

/// Greek letters and symbols with a TeX command: (command, character).
const SYMBOLS: &[(&str, &str)] = &[
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ϵ"),
    ("varepsilon", "ε"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("vartheta", "ϑ"),
    ("iota", "ι"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("pi", "π"),
    ("varpi", "ϖ"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("varsigma", "ς"),
    ("tau", "τ"),
    ("upsilon", "υ"),
    ("phi", "ϕ"),
    ("varphi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Xi", "Ξ"),
    ("Pi", "Π"),
    ("Sigma", "Σ"),
    ("Upsilon", "Υ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
    ("infty", "∞"),
    ("pm", "±"),
    ("mp", "∓"),
    ("times", "×"),
    ("cdot", "⋅"),
    ("div", "÷"),
    ("le", "≤"),
    ("ge", "≥"),
    ("ne", "≠"),
    ("approx", "≈"),
    ("equiv", "≡"),
    ("sim", "∼"),
    ("to", "→"),
    ("leftarrow", "←"),
    ("Rightarrow", "⇒"),
    ("Leftarrow", "⇐"),
    ("leftrightarrow", "↔"),
    ("Leftrightarrow", "⇔"),
    ("in", "∈"),
    ("notin", "∉"),
    ("subset", "⊂"),
    ("subseteq", "⊆"),
    ("cup", "∪"),
    ("cap", "∩"),
    ("partial", "∂"),
    ("nabla", "∇"),
    ("forall", "∀"),
    ("exists", "∃"),
    ("ldots", "…"),
    ("cdots", "⋯"),
    ("langle", "⟨"),
    ("rangle", "⟩"),
    ("lfloor", "⌊"),
    ("rfloor", "⌋"),
    ("lceil", "⌈"),
    ("rceil", "⌉"),
    ("|", "‖"),
    ("backslash", "\\"),
    ("prime", "′"),
    ("circ", "∘"),
    ("ast", "∗"),
    ("neg", "¬"),
    ("wedge", "∧"),
    ("vee", "∨"),
];

/// Big operators: (command, character).
const NARY: &[(&str, &str)] = &[
    ("sum", "∑"),
    ("prod", "∏"),
    ("coprod", "∐"),
    ("int", "∫"),
    ("iint", "∬"),
    ("iiint", "∭"),
    ("oint", "∮"),
    ("bigcup", "⋃"),
    ("bigcap", "⋂"),
    ("bigvee", "⋁"),
    ("bigwedge", "⋀"),
];

/// Accents: (command, character), the first of a character is the one written.
const ACCENTS: &[(&str, &str)] = &[
    ("hat", "\u{302}"),
    ("check", "\u{30C}"),
    ("tilde", "\u{303}"),
    ("acute", "\u{301}"),
    ("grave", "\u{300}"),
    ("dot", "\u{307}"),
    ("ddot", "\u{308}"),
    ("breve", "\u{306}"),
    ("bar", "\u{305}"),
    ("vec", "\u{20D7}"),
    ("overline", "\u{305}"),
    ("widehat", "\u{302}"),
];

/// Function names TeX has a command for.
const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "log", "ln", "lg", "exp", "lim", "liminf", "limsup", "max", "min", "sup", "inf", "det", "gcd",
    "deg", "dim", "ker", "arg", "Pr", "hom",
];

/// The formula in TeX, on one line.
pub fn write(row: &[MathNode]) -> String {
    let mut out = String::new();
    row_tex(row, &mut out, 0, false);
    out.trim_end().to_string()
}

fn group(row: &[MathNode], out: &mut String, depth: usize) {
    out.push('{');
    row_tex(row, out, depth + 1, false);
    trim_space(out);
    out.push('}');
}

fn trim_space(out: &mut String) {
    while out.ends_with(' ') && !out.ends_with("\\ ") {
        out.pop();
    }
}

/// Appends a command, with a space after it so a following letter does not extend its name.
fn cmd(out: &mut String, name: &str) {
    out.push('\\');
    out.push_str(name);
    out.push(' ');
}

fn char_tex(c: &str, out: &mut String) {
    if let Some((name, _)) = SYMBOLS.iter().find(|(_, ch)| *ch == c) {
        if *name == "|" {
            out.push_str("\\|");
        } else {
            cmd(out, name);
        }
        return;
    }
    for ch in c.chars() {
        match ch {
            '{' | '}' | '#' | '$' | '%' | '&' | '_' | '^' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            '\\' => cmd(out, "backslash"),
            _ => out.push(ch),
        }
    }
}

fn text_tex(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '{' | '}' | '$' | '%' | '&' | '#' | '_' | '^' | '~' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            _ => out.push(ch),
        }
    }
}

fn delim_tex(d: &str, out: &mut String) {
    match d {
        "" => out.push('.'),
        "{" => out.push_str("\\{"),
        "}" => out.push_str("\\}"),
        _ => char_tex(d, out),
    }
}

fn scripts_tex(
    sub: &Option<Vec<MathNode>>,
    sup: &Option<Vec<MathNode>>,
    out: &mut String,
    depth: usize,
) {
    trim_space(out);
    if let Some(sub) = sub {
        out.push('_');
        group(sub, out, depth);
    }
    if let Some(sup) = sup {
        out.push('^');
        group(sup, out, depth);
    }
}

/// Writes `row`; `upright` inside `\operatorname{}` and `\text{}` names (letters written raw).
fn row_tex(row: &[MathNode], out: &mut String, depth: usize, upright: bool) {
    if depth > MAX_MATH_DEPTH {
        text_tex(&crate::ast::math::linear_text(row), out);
        return;
    }
    for node in row {
        match node {
            MathNode::Ident { text } => {
                let single = text.chars().count() == 1;
                if single || (upright && text.chars().all(|c| c.is_alphabetic())) {
                    char_tex(text, out);
                } else {
                    out.push_str("\\mathit{");
                    text_tex(text, out);
                    out.push('}');
                }
            }
            MathNode::Number { text } => text_tex(text, out),
            MathNode::Operator { text } => char_tex(text, out),
            MathNode::Text { text } => {
                out.push_str("\\text{");
                text_tex(text, out);
                out.push('}');
            }
            MathNode::Fraction { num, den } => {
                out.push_str("\\frac");
                group(num, out, depth);
                group(den, out, depth);
            }
            MathNode::Scripts { base, sub, sup } => {
                // `{}` keeps a multi-node (or empty) base together.
                let plain = !matches!(
                    base.first(),
                    Some(
                        MathNode::Scripts { .. }
                            | MathNode::Nary { .. }
                            | MathNode::Function { .. }
                    )
                );
                if base.len() == 1 && plain {
                    row_tex(base, out, depth + 1, upright);
                } else {
                    group(base, out, depth);
                }
                scripts_tex(sub, sup, out, depth);
            }
            MathNode::Radical { degree, body } => {
                out.push_str("\\sqrt");
                if let Some(d) = degree {
                    out.push('[');
                    row_tex(d, out, depth + 1, false);
                    trim_space(out);
                    out.push(']');
                }
                group(body, out, depth);
            }
            MathNode::Nary { op, sub, sup, body } => {
                match NARY.iter().find(|(_, c)| c == op) {
                    Some((name, _)) => {
                        out.push('\\');
                        out.push_str(name);
                    }
                    None => {
                        out.push_str("\\mathop{");
                        char_tex(op, out);
                        trim_space(out);
                        out.push('}');
                    }
                }
                scripts_tex(sub, sup, out, depth);
                group(body, out, depth);
            }
            MathNode::Delimited { open, close, body } => {
                out.push_str("\\left");
                delim_tex(open, out);
                row_tex(body, out, depth + 1, false);
                trim_space(out);
                out.push_str("\\right");
                delim_tex(close, out);
            }
            MathNode::Matrix { rows } => {
                out.push_str("\\begin{matrix}");
                for (i, r) in rows.iter().enumerate() {
                    if i > 0 {
                        out.push_str("\\\\");
                    }
                    for (j, cell) in r.iter().enumerate() {
                        if j > 0 {
                            out.push('&');
                        }
                        row_tex(cell, out, depth + 1, false);
                        trim_space(out);
                    }
                }
                out.push_str("\\end{matrix}");
            }
            MathNode::Accent {
                accent,
                under,
                body,
            } => {
                if *under {
                    if accent == "\u{305}" {
                        out.push_str("\\underline");
                    } else {
                        out.push_str("\\underset{");
                        char_tex(accent, out);
                        trim_space(out);
                        out.push('}');
                    }
                } else {
                    match ACCENTS.iter().find(|(_, c)| c == accent) {
                        Some((name, _)) => {
                            out.push('\\');
                            out.push_str(name);
                        }
                        None => {
                            out.push_str("\\overset{");
                            char_tex(accent, out);
                            trim_space(out);
                            out.push('}');
                        }
                    }
                }
                group(body, out, depth);
            }
            MathNode::Function { name, body } => {
                let (base, sub, sup) = match name.as_slice() {
                    [MathNode::Scripts { base, sub, sup }] => (base.as_slice(), sub, sup),
                    _ => (name.as_slice(), &None, &None),
                };
                match base {
                    [MathNode::Ident { text }] if FUNCTIONS.contains(&text.as_str()) => {
                        out.push('\\');
                        out.push_str(text);
                    }
                    _ => {
                        out.push_str("\\operatorname{");
                        row_tex(base, out, depth + 1, true);
                        trim_space(out);
                        out.push('}');
                    }
                }
                scripts_tex(sub, sup, out, depth);
                group(body, out, depth);
            }
        }
    }
}

/// Why a TeX formula could not be read; the caller keeps the source as text and warns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TexError {
    /// Nested deeper than [`MAX_MATH_DEPTH`].
    #[error("formula nested deeper than {MAX_MATH_DEPTH} levels")]
    TooDeep,
    /// A `{` without its `}` (or the reverse), or a `\left` without `\right`.
    #[error("unbalanced {0}")]
    Unbalanced(&'static str),
}

/// Reads a TeX formula. Unknown commands are kept as text (`\foo` → text `\foo`) and listed in
/// the second value, for the caller's warning.
pub fn parse(src: &str) -> Result<(Vec<MathNode>, Vec<String>), TexError> {
    let mut p = Parser {
        s: src.chars().collect(),
        i: 0,
        unknown: Vec::new(),
    };
    let row = p.row(0, End::Eof, false)?;
    Ok((row, p.unknown))
}

#[derive(Clone, Copy, PartialEq)]
enum End {
    Eof,
    Brace,
    Bracket,
    Right,
    Matrix,
}

struct Parser {
    s: Vec<char>,
    i: usize,
    unknown: Vec<String>,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    /// A command name after `\`: letters, or one other character.
    fn name(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        if self.i == start {
            if let Some(c) = self.peek() {
                self.i += 1;
                return c.to_string();
            }
        }
        self.s[start..self.i].iter().collect()
    }

    /// A `{…}` group (or a single token) as a row.
    fn arg(&mut self, depth: usize, upright: bool) -> Result<Vec<MathNode>, TexError> {
        self.skip_space();
        if self.peek() == Some('{') {
            self.i += 1;
            self.row(depth + 1, End::Brace, upright)
        } else {
            let mut out = Vec::new();
            self.atom(depth + 1, upright, &mut out)?;
            Ok(out)
        }
    }

    /// Raw text up to the matching `}` (after `\text{`), with `\x` escapes undone.
    fn text_arg(&mut self) -> Result<String, TexError> {
        self.skip_space();
        if self.peek() != Some('{') {
            return Err(TexError::Unbalanced("\\text without {"));
        }
        self.i += 1;
        let mut out = String::new();
        let mut level = 0;
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                '\\' => {
                    if let Some(n) = self.peek() {
                        self.i += 1;
                        out.push(n);
                    }
                }
                '{' => {
                    level += 1;
                    out.push(c);
                }
                '}' if level == 0 => return Ok(out),
                '}' => {
                    level -= 1;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        Err(TexError::Unbalanced("{"))
    }

    /// Optional `_{…}` and `^{…}` after a base.
    #[allow(clippy::type_complexity)]
    fn scripts(
        &mut self,
        depth: usize,
    ) -> Result<(Option<Vec<MathNode>>, Option<Vec<MathNode>>), TexError> {
        let (mut sub, mut sup) = (None, None);
        loop {
            self.skip_space();
            match self.peek() {
                Some('_') if sub.is_none() => {
                    self.i += 1;
                    sub = Some(self.arg(depth, false)?);
                }
                Some('^') if sup.is_none() => {
                    self.i += 1;
                    sup = Some(self.arg(depth, false)?);
                }
                _ => return Ok((sub, sup)),
            }
        }
    }

    /// An optional `{…}` operand (of a big operator or function).
    fn body(&mut self, depth: usize) -> Result<Vec<MathNode>, TexError> {
        self.skip_space();
        if self.peek() == Some('{') {
            self.i += 1;
            self.row(depth + 1, End::Brace, false)
        } else {
            Ok(Vec::new())
        }
    }

    fn delim(&mut self) -> String {
        self.skip_space();
        match self.peek() {
            Some('.') => {
                self.i += 1;
                String::new()
            }
            Some('\\') => {
                self.i += 1;
                let n = self.name();
                match n.as_str() {
                    "{" | "}" => n,
                    _ => SYMBOLS
                        .iter()
                        .find(|(c, _)| *c == n)
                        .map(|(_, ch)| ch.to_string())
                        .unwrap_or(n),
                }
            }
            Some(c) => {
                self.i += 1;
                c.to_string()
            }
            None => String::new(),
        }
    }

    fn row(&mut self, depth: usize, end: End, upright: bool) -> Result<Vec<MathNode>, TexError> {
        if depth > MAX_MATH_DEPTH {
            return Err(TexError::TooDeep);
        }
        let mut out = Vec::new();
        loop {
            self.skip_space();
            match (self.peek(), end) {
                (None, End::Eof) => return Ok(out),
                (None, End::Brace | End::Matrix) => return Err(TexError::Unbalanced("{")),
                (None, End::Bracket) => return Err(TexError::Unbalanced("[")),
                (None, End::Right) => return Err(TexError::Unbalanced("\\left")),
                (Some('}'), End::Brace) => {
                    self.i += 1;
                    return Ok(out);
                }
                (Some('}'), _) => return Err(TexError::Unbalanced("}")),
                (Some(']'), End::Bracket) => {
                    self.i += 1;
                    return Ok(out);
                }
                (Some('\\'), End::Right | End::Matrix) if self.at_end_command(end) => {
                    return Ok(out);
                }
                (Some('&' | '\\'), End::Matrix) if self.at_cell_end() => return Ok(out),
                _ => {
                    let start = out.len();
                    self.atom(depth, upright, &mut out)?;
                    // Scripts attach to the atom just read.
                    if out.len() == start + 1
                        && !matches!(
                            out[start],
                            MathNode::Nary { .. } | MathNode::Function { .. }
                        )
                    {
                        let (sub, sup) = self.scripts(depth)?;
                        if sub.is_some() || sup.is_some() {
                            let base = out.split_off(start);
                            out.push(MathNode::Scripts { base, sub, sup });
                        }
                    } else if out.len() > start + 1 || out.len() == start {
                        // A group: scripts attach to the whole group.
                        let (sub, sup) = self.scripts(depth)?;
                        if sub.is_some() || sup.is_some() {
                            let base = out.split_off(start);
                            out.push(MathNode::Scripts { base, sub, sup });
                        }
                    }
                }
            }
        }
    }

    fn looking_at(&self, s: &str) -> bool {
        let n = s.chars().count();
        self.s
            .get(self.i..self.i + n)
            .is_some_and(|w| w.iter().copied().eq(s.chars()))
    }

    fn at_end_command(&self, end: End) -> bool {
        match end {
            End::Right => {
                self.looking_at("\\right")
                    && !self
                        .s
                        .get(self.i + 6)
                        .is_some_and(|c| c.is_ascii_alphabetic())
            }
            End::Matrix => self.looking_at("\\end"),
            _ => false,
        }
    }

    fn at_cell_end(&self) -> bool {
        self.peek() == Some('&') || self.looking_at("\\\\")
    }

    /// One atom (or a group's content, spliced) appended to `out`.
    fn atom(
        &mut self,
        depth: usize,
        upright: bool,
        out: &mut Vec<MathNode>,
    ) -> Result<(), TexError> {
        if depth > MAX_MATH_DEPTH {
            return Err(TexError::TooDeep);
        }
        self.skip_space();
        let Some(c) = self.peek() else {
            return Ok(());
        };
        self.i += 1;
        match c {
            '{' => {
                let inner = self.row(depth + 1, End::Brace, upright)?;
                out.extend(inner);
            }
            '\\' => self.command(depth, upright, out)?,
            c if c.is_ascii_digit() => {
                let mut s = String::from(c);
                while let Some(d) = self.peek().filter(|d| d.is_ascii_digit() || *d == '.') {
                    s.push(d);
                    self.i += 1;
                }
                out.push(MathNode::Number { text: s });
            }
            c if upright && c.is_alphabetic() => {
                let mut s = String::from(c);
                while let Some(d) = self.peek().filter(|d| d.is_alphabetic()) {
                    s.push(d);
                    self.i += 1;
                }
                out.push(MathNode::Ident { text: s });
            }
            // A stray `_`/`^` without a base: scripts on an empty base.
            '_' | '^' => {
                self.i -= 1;
                let (sub, sup) = self.scripts(depth)?;
                out.push(MathNode::Scripts {
                    base: Vec::new(),
                    sub,
                    sup,
                });
            }
            c => classify(&c.to_string(), false, out),
        }
        Ok(())
    }

    fn command(
        &mut self,
        depth: usize,
        upright: bool,
        out: &mut Vec<MathNode>,
    ) -> Result<(), TexError> {
        let name = self.name();
        let n = name.as_str();
        match n {
            "frac" | "dfrac" | "tfrac" => {
                let num = self.arg(depth, false)?;
                let den = self.arg(depth, false)?;
                out.push(MathNode::Fraction { num, den });
            }
            "sqrt" => {
                self.skip_space();
                let degree = if self.peek() == Some('[') {
                    self.i += 1;
                    Some(self.row(depth + 1, End::Bracket, false)?)
                } else {
                    None
                };
                let body = self.arg(depth, false)?;
                out.push(MathNode::Radical { degree, body });
            }
            "text" | "textrm" | "mathrm" | "textit" => {
                let text = self.text_arg()?;
                if n == "mathrm" {
                    out.push(MathNode::Ident { text });
                } else {
                    out.push(MathNode::Text { text });
                }
            }
            "mathit" => {
                let text = self.text_arg()?;
                out.push(MathNode::Ident { text });
            }
            "mathop" => {
                let op = crate::ast::math::linear_text(&self.arg(depth, false)?);
                let (sub, sup) = self.scripts(depth)?;
                let body = self.body(depth)?;
                out.push(MathNode::Nary { op, sub, sup, body });
            }
            "left" => {
                let open = self.delim();
                let body = self.row(depth + 1, End::Right, false)?;
                // At `\right`.
                self.i += 6;
                let close = self.delim();
                out.push(MathNode::Delimited { open, close, body });
            }
            "begin" => {
                let env = self.text_arg()?;
                let mut rows = Vec::new();
                let mut cells = Vec::new();
                loop {
                    let cell = self.row(depth + 1, End::Matrix, false)?;
                    cells.push(cell);
                    if self.peek() == Some('&') {
                        self.i += 1;
                    } else if self.looking_at("\\\\") {
                        self.i += 2;
                        rows.push(std::mem::take(&mut cells));
                    } else {
                        // `\end{…}`.
                        self.i += 4;
                        let _ = self.text_arg()?;
                        rows.push(cells);
                        break;
                    }
                }
                let matrix = MathNode::Matrix { rows };
                let delims = match env.as_str() {
                    "pmatrix" => Some(("(", ")")),
                    "bmatrix" => Some(("[", "]")),
                    "vmatrix" => Some(("|", "|")),
                    _ => None,
                };
                match delims {
                    Some((open, close)) => out.push(MathNode::Delimited {
                        open: open.into(),
                        close: close.into(),
                        body: vec![matrix],
                    }),
                    None => out.push(matrix),
                }
            }
            "underline" | "underset" | "overset" => {
                let accent = if n == "underline" {
                    "\u{305}".to_string()
                } else {
                    crate::ast::math::linear_text(&self.arg(depth, false)?)
                };
                let body = self.arg(depth, false)?;
                out.push(MathNode::Accent {
                    accent,
                    under: n != "overset",
                    body,
                });
            }
            "operatorname" => {
                let base = self.arg(depth, true)?;
                self.function(base, depth, out)?;
            }
            // Spacing carries no content.
            "," | ";" | ":" | "!" | " " | "quad" | "qquad" => {}
            "{" | "}" | "#" | "$" | "%" | "&" | "_" | "^" | "~" => out.push(MathNode::op(n)),
            _ => {
                if let Some((_, ch)) = NARY.iter().find(|(c, _)| *c == n) {
                    let (sub, sup) = self.scripts(depth)?;
                    let body = self.body(depth)?;
                    out.push(MathNode::Nary {
                        op: (*ch).to_string(),
                        sub,
                        sup,
                        body,
                    });
                } else if let Some((_, ch)) = ACCENTS.iter().find(|(c, _)| *c == n) {
                    let body = self.arg(depth, false)?;
                    out.push(MathNode::Accent {
                        accent: (*ch).to_string(),
                        under: false,
                        body,
                    });
                } else if FUNCTIONS.contains(&n) {
                    self.function(vec![MathNode::ident(n)], depth, out)?;
                } else if let Some((_, ch)) = SYMBOLS.iter().find(|(c, _)| *c == n) {
                    classify(ch, upright, out);
                } else {
                    self.unknown.push(format!("\\{n}"));
                    out.push(MathNode::Text {
                        text: format!("\\{n}"),
                    });
                }
            }
        }
        Ok(())
    }

    fn function(
        &mut self,
        base: Vec<MathNode>,
        depth: usize,
        out: &mut Vec<MathNode>,
    ) -> Result<(), TexError> {
        let (sub, sup) = self.scripts(depth)?;
        let name = if sub.is_some() || sup.is_some() {
            vec![MathNode::Scripts { base, sub, sup }]
        } else {
            base
        };
        let body = self.body(depth)?;
        out.push(MathNode::Function { name, body });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(row: Vec<MathNode>) {
        let tex = write(&row);
        let (back, unknown) = parse(&tex).unwrap_or_else(|e| panic!("{tex}: {e}"));
        assert_eq!(back, row, "{tex}");
        assert!(unknown.is_empty());
    }

    #[test]
    fn structures_round_trip_through_tex() {
        let x = || vec![MathNode::ident("x")];
        rt(vec![
            MathNode::Fraction {
                num: vec![
                    MathNode::ident("a"),
                    MathNode::op("+"),
                    MathNode::ident("b"),
                ],
                den: vec![MathNode::number("2")],
            },
            MathNode::op("="),
            MathNode::Scripts {
                base: x(),
                sub: Some(vec![MathNode::ident("i")]),
                sup: Some(vec![MathNode::number("2")]),
            },
        ]);
        rt(vec![MathNode::Radical {
            degree: Some(vec![MathNode::number("3")]),
            body: x(),
        }]);
        rt(vec![MathNode::Nary {
            op: "∑".into(),
            sub: Some(vec![
                MathNode::ident("i"),
                MathNode::op("="),
                MathNode::number("1"),
            ]),
            sup: Some(vec![MathNode::ident("n")]),
            body: vec![MathNode::ident("i")],
        }]);
        rt(vec![MathNode::Delimited {
            open: "(".into(),
            close: "]".into(),
            body: vec![MathNode::Matrix {
                rows: vec![
                    vec![x(), vec![MathNode::number("0")]],
                    vec![vec![MathNode::number("0")], x()],
                ],
            }],
        }]);
        rt(vec![MathNode::Accent {
            accent: "\u{302}".into(),
            under: false,
            body: x(),
        }]);
        rt(vec![MathNode::Function {
            name: vec![MathNode::Scripts {
                base: vec![MathNode::ident("lim")],
                sub: Some(vec![
                    MathNode::ident("n"),
                    MathNode::op("→"),
                    MathNode::op("∞"),
                ]),
                sup: None,
            }],
            body: vec![MathNode::Scripts {
                base: vec![MathNode::ident("a")],
                sub: Some(vec![MathNode::ident("n")]),
                sup: None,
            }],
        }]);
        rt(vec![
            MathNode::Text {
                text: "if {a} $5".into(),
            },
            MathNode::ident("α"),
            MathNode::op("{"),
        ]);
    }

    #[test]
    fn tex_writes_standard_latex() {
        let row = vec![MathNode::Fraction {
            num: vec![MathNode::ident("π")],
            den: vec![MathNode::number("2")],
        }];
        assert_eq!(write(&row), "\\frac{\\pi}{2}");
    }

    #[test]
    fn bad_tex_is_an_error_not_a_panic() {
        assert_eq!(parse("\\frac{a"), Err(TexError::Unbalanced("{")));
        assert!(parse(&"{".repeat(100)).is_err());
        let (row, unknown) = parse("\\foo x").unwrap_or_default();
        assert_eq!(unknown, vec!["\\foo".to_string()]);
        assert_eq!(row.len(), 2);
    }
}
