//! A chart's data table drawn as inline SVG (bar, column, line, area, scatter, pie); the table
//! itself follows it, for readers and screen readers.

use std::fmt::Write;

use super::escape;
use crate::ast::chart::ChartKind;
use crate::ast::{Block, Table, inline::plain_text, number_format};

const W: f64 = 480.0;
const H: f64 = 300.0;
/// Plot area margin, left (value labels).
const L: f64 = 48.0;
/// Plot area margin, right.
const R: f64 = 16.0;
/// Plot area margin, top.
const T: f64 = 16.0;
/// Plot area margin, bottom (category labels and the legend).
const B: f64 = 56.0;
const COLORS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
];

fn cell_text(t: &Table, row: usize, col: usize) -> String {
    t.rows
        .get(row)
        .and_then(|r| r.cells.get(col))
        .and_then(|c| c.blocks.first())
        .map(|b| match b {
            Block::Paragraph(p) => plain_text(&p.content),
            _ => String::new(),
        })
        .unwrap_or_default()
}

/// The format code of the table's first value: the axis labels are shown in it.
fn value_code(t: &Table) -> String {
    let ncols = t.rows.first().map_or(0, |r| r.cells.len());
    (1..t.rows.len())
        .flat_map(|r| (1..ncols).map(move |c| (r, c)))
        .find_map(|(r, c)| number_format::parse(cell_text(t, r, c).trim()))
        .map_or_else(|| "General".to_string(), |s| s.code)
}

/// Series names, categories, values\[series\]\[category\].
fn data(t: &Table) -> (Vec<String>, Vec<String>, Vec<Vec<Option<f64>>>) {
    let ncols = t.rows.first().map_or(0, |r| r.cells.len());
    let names = (1..ncols).map(|c| cell_text(t, 0, c)).collect();
    let cats = (1..t.rows.len()).map(|r| cell_text(t, r, 0)).collect();
    let values = (1..ncols)
        .map(|c| {
            (1..t.rows.len())
                .map(|r| {
                    // As shown (`45%`, `1,234.50`): the number behind the text.
                    number_format::parse(cell_text(t, r, c).trim()).map(|s| s.value)
                })
                .collect()
        })
        .collect();
    (names, cats, values)
}

fn label(out: &mut String, x: f64, y: f64, anchor: &str, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" font-size=\"11\">"
    );
    escape::text(text, out);
    out.push_str("</text>");
}

/// Appends the `<svg>` for a chart table; `false` (nothing written) for kinds drawn as their
/// table only, or a table without numbers.
pub fn write(t: &Table, kind: ChartKind, title: &str, out: &mut String) -> bool {
    let (names, cats, values) = data(t);
    let all: Vec<f64> = values.iter().flatten().flatten().copied().collect();
    if kind == ChartKind::Other || all.is_empty() || cats.is_empty() {
        return false;
    }
    let _ = write!(
        out,
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" \
         xmlns=\"http://www.w3.org/2000/svg\" aria-label=\""
    );
    escape::attr(title, out);
    out.push_str("\">");
    if kind == ChartKind::Pie {
        pie(&cats, &values[0], out);
    } else {
        axes(kind, &names, &cats, &values, &all, &value_code(t), out);
    }
    out.push_str("</svg>\n");
    true
}

fn pie(cats: &[String], values: &[Option<f64>], out: &mut String) {
    let total: f64 = values.iter().flatten().filter(|v| **v > 0.0).sum();
    if total <= 0.0 {
        return;
    }
    let (cx, cy, r) = (W / 2.0 - 60.0, H / 2.0, H / 2.0 - 24.0);
    let mut angle = -std::f64::consts::FRAC_PI_2;
    for (i, v) in values.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        // Every category has its legend entry, as in Word and Excel; only a positive value has
        // a slice to draw.
        legend_entry(out, i, color, cats.get(i).map_or("", |c| c.as_str()));
        let Some(v) = v.filter(|v| *v > 0.0) else {
            continue;
        };
        let sweep = v / total * std::f64::consts::TAU;
        if sweep >= std::f64::consts::TAU - 1e-9 {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{color}\"/>"
            );
        } else {
            let (x1, y1) = (cx + r * angle.cos(), cy + r * angle.sin());
            let end = angle + sweep;
            let (x2, y2) = (cx + r * end.cos(), cy + r * end.sin());
            let large = u8::from(sweep > std::f64::consts::PI);
            let _ = write!(
                out,
                "<path d=\"M{cx},{cy} L{x1:.1},{y1:.1} A{r},{r} 0 {large} 1 {x2:.1},{y2:.1} Z\" fill=\"{color}\"/>"
            );
        }
        angle += sweep;
    }
}

/// The pie legend's `i`th entry: a swatch and the category's name, down the right edge.
fn legend_entry(out: &mut String, i: usize, color: &str, name: &str) {
    let ly = 24.0 + 18.0 * i as f64;
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{color}\"/>",
        W - 140.0,
        ly - 9.0
    );
    label(out, W - 124.0, ly, "start", name);
}

fn axes(
    kind: ChartKind,
    names: &[String],
    cats: &[String],
    values: &[Vec<Option<f64>>],
    all: &[f64],
    code: &str,
    out: &mut String,
) {
    let lo = all.iter().copied().fold(0.0f64, f64::min);
    let hi = all.iter().copied().fold(0.0f64, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (pw, ph) = (W - L - R, H - T - B);
    let horizontal = kind == ChartKind::Bar;
    // Value → position along the value axis (up for vertical charts, right for bars).
    let v = |x: f64| (x - lo) / span;
    let n = cats.len() as f64;
    let zero = v(0.0);
    // Where category `i` sits along the category axis (0..1): a scatter chart whose categories
    // are all numbers places them by value, every other chart evenly.
    let xs: Option<Vec<f64>> = (kind == ChartKind::Scatter)
        .then(|| {
            cats.iter()
                .map(|c| number_format::parse(c.trim()).map(|s| s.value))
                .collect::<Option<Vec<f64>>>()
        })
        .flatten();
    let at = |i: usize| -> f64 {
        match &xs {
            Some(xs) => {
                let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let x = xs.get(i).copied().unwrap_or(lo);
                if hi > lo {
                    0.05 + 0.9 * (x - lo) / (hi - lo)
                } else {
                    0.5
                }
            }
            None => (i as f64 + 0.5) / n,
        }
    };
    // Axes and value labels.
    let _ = write!(
        out,
        "<g stroke=\"#888\" stroke-width=\"1\"><line x1=\"{L}\" y1=\"{T}\" x2=\"{L}\" y2=\"{}\"/><line x1=\"{L}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>",
        T + ph,
        T + ph,
        L + pw,
        T + ph
    );
    for (k, val) in [lo, hi].iter().enumerate() {
        // In the values' own format (`0%`, `#,##0`), as the chart showed its axis.
        let text = number_format::format(*val, code);
        if horizontal {
            label(
                out,
                L + v(*val) * pw,
                T + ph + 14.0,
                if k == 0 { "start" } else { "end" },
                &text,
            );
        } else {
            label(out, L - 4.0, T + ph - v(*val) * ph + 4.0, "end", &text);
        }
    }
    // Category labels.
    for (i, c) in cats.iter().enumerate() {
        let mid = at(i);
        if horizontal {
            label(out, L - 4.0, T + mid * ph + 4.0, "end", c);
        } else {
            label(out, L + mid * pw, T + ph + 14.0, "middle", c);
        }
    }
    let ns = values.len().max(1) as f64;
    for (s, series) in values.iter().enumerate() {
        let color = COLORS[s % COLORS.len()];
        match kind {
            ChartKind::Column | ChartKind::Bar => {
                for (i, val) in series.iter().enumerate() {
                    let Some(val) = val else { continue };
                    let slot = 0.8 / ns;
                    let start = (i as f64 + 0.1 + slot * s as f64) / n;
                    let (a, b) = (v(*val).min(zero), v(*val).max(zero));
                    let (x, y, w, h) = if horizontal {
                        (L + a * pw, T + start * ph, (b - a) * pw, slot / n * ph)
                    } else {
                        (L + start * pw, T + ph - b * ph, slot / n * pw, (b - a) * ph)
                    };
                    let _ = write!(
                        out,
                        "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{color}\"/>"
                    );
                }
            }
            ChartKind::Line | ChartKind::Area | ChartKind::Scatter => {
                let points: Vec<(f64, f64)> = series
                    .iter()
                    .enumerate()
                    .filter_map(|(i, val)| val.map(|y| (L + at(i) * pw, T + ph - v(y) * ph)))
                    .collect();
                let list: Vec<String> = points
                    .iter()
                    .map(|(x, y)| format!("{x:.1},{y:.1}"))
                    .collect();
                match kind {
                    ChartKind::Line => {
                        let _ = write!(
                            out,
                            "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>",
                            list.join(" ")
                        );
                    }
                    ChartKind::Area => {
                        if let (Some(first), Some(last)) = (points.first(), points.last()) {
                            let base = T + ph - zero * ph;
                            let _ = write!(
                                out,
                                "<polygon points=\"{:.1},{base:.1} {} {:.1},{base:.1}\" fill=\"{color}\" fill-opacity=\"0.6\"/>",
                                first.0,
                                list.join(" "),
                                last.0
                            );
                        }
                    }
                    _ => {
                        for (x, y) in &points {
                            let _ = write!(
                                out,
                                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{color}\"/>"
                            );
                        }
                    }
                }
            }
            ChartKind::Pie | ChartKind::Other => {}
        }
        // Legend, below the category labels.
        let lx = L + 110.0 * s as f64;
        let _ = write!(
            out,
            "<rect x=\"{lx}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{color}\"/>",
            H - 22.0
        );
        label(
            out,
            lx + 14.0,
            H - 13.0,
            "start",
            names.get(s).map_or("", |n| n.as_str()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Cell, Inline, Paragraph, Row, TextType};

    fn table(rows: &[&[&str]]) -> Table {
        Table {
            rows: rows
                .iter()
                .map(|r| Row {
                    cells: r
                        .iter()
                        .map(|t| Cell {
                            blocks: vec![Block::Paragraph(Paragraph::new(
                                TextType::Paragraph,
                                vec![Inline::text(*t)],
                            ))],
                            ..Cell::default()
                        })
                        .collect(),
                    ..Row::default()
                })
                .collect(),
            ..Table::default()
        }
    }

    #[test]
    fn scatter_places_numeric_x_values_by_value() {
        let t = table(&[&["x", "y"], &["1", "5"], &["2", "6"], &["10", "7"]]);
        let mut out = String::new();
        assert!(write(&t, ChartKind::Scatter, "S", &mut out));
        let pw = W - L - R;
        // x = 1 at 5 % of the plot, x = 10 at 95 %, x = 2 at 15 %.
        for frac in [0.05, 0.15, 0.95] {
            let cx = format!("<circle cx=\"{:.1}\"", L + frac * pw);
            assert!(out.contains(&cx), "{cx} in {out}");
        }
    }

    #[test]
    fn a_pie_lists_every_category_but_draws_only_positive_slices() {
        let t = table(&[
            &["", "Sales"],
            &["North", "3"],
            &["Desert", "0"],
            &["South", "1"],
        ]);
        let mut out = String::new();
        assert!(write(&t, ChartKind::Pie, "P", &mut out));
        for name in ["North", "Desert", "South"] {
            assert!(out.contains(&format!(">{name}</text>")), "{name} in {out}");
        }
        assert_eq!(out.matches("<path ").count(), 2, "{out}");
    }

    #[test]
    fn other_kinds_and_tables_without_numbers_are_not_drawn() {
        let t = table(&[&["", "a"], &["x", "1"]]);
        let mut out = String::new();
        assert!(!write(&t, ChartKind::Other, "", &mut out));
        let words = table(&[&["", "a"], &["x", "many"]]);
        assert!(!write(&words, ChartKind::Column, "", &mut out));
        assert!(out.is_empty());
    }
}
