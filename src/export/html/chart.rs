//! A chart's data table drawn as inline SVG (bar, column, line, area, scatter, pie); the table
//! itself follows it, for readers and screen readers.

use std::fmt::Write;

use super::escape;
use crate::ast::chart::{ChartKind, Stacking};
use crate::ast::{Block, Table, inline::plain_text};
use crate::number_format;

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
    // Nothing to name the picture by: the table after it, its accessible form, is what a screen
    // reader reads (an image without a name would be announced as nothing).
    let named = !title.trim().is_empty();
    let role = if named { " role=\"img\"" } else { "" };
    let _ = write!(
        out,
        "<svg class=\"chart\"{role} viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" \
         xmlns=\"http://www.w3.org/2000/svg\""
    );
    if named {
        out.push_str(" aria-label=\"");
        escape::attr(title, out);
        out.push_str("\">");
    } else {
        out.push_str(" aria-hidden=\"true\">");
    }
    match kind {
        ChartKind::Pie => pie(&cats, &values[0], 0.0, out),
        ChartKind::Doughnut => pie(&cats, &values[0], DOUGHNUT_HOLE, out),
        ChartKind::Radar => radar(&names, &cats, &values, out),
        ChartKind::Bubble => {
            // The columns pair each series' values with its sizes.
            let pick = |odd: usize| -> Vec<Vec<Option<f64>>> {
                values.iter().skip(odd).step_by(2).cloned().collect()
            };
            let (ys, sizes) = (pick(0), pick(1));
            let names: Vec<String> = names.iter().step_by(2).cloned().collect();
            let ranges = stack(Stacking::None, &ys);
            axes(kind, &names, &cats, &ranges, &sizes, &value_code(t), out);
        }
        _ => {
            let ranges = stack(kind.stacking(), &values);
            // A percent chart's axis is in percent whatever the values' format.
            let code = match kind.stacking() {
                Stacking::Percent => "0\"%\"".to_string(),
                _ => value_code(t),
            };
            axes(kind, &names, &cats, &ranges, &[], &code, out);
        }
    }
    out.push_str("</svg>\n");
    true
}

/// A doughnut's hole, as a share of its radius (Word's default `c:holeSize` is 50 %).
const DOUGHNUT_HOLE: f64 = 0.5;

/// Each series' bar or area per category as (from, to) along the value axis: from the axis
/// when not stacked; end to end per category when stacked (positive values upwards from the
/// axis, negative ones downwards), scaled to 100 per category for percent charts.
type Ranges = Vec<Vec<Option<(f64, f64)>>>;

fn stack(stacking: Stacking, values: &[Vec<Option<f64>>]) -> Ranges {
    let categories = values.iter().map(Vec::len).max().unwrap_or(0);
    let scale: Vec<f64> = (0..categories)
        .map(|i| {
            let total: f64 = values
                .iter()
                .filter_map(|s| s.get(i).copied().flatten())
                .map(f64::abs)
                .sum();
            match stacking {
                Stacking::Percent if total > 0.0 => 100.0 / total,
                _ => 1.0,
            }
        })
        .collect();
    // Where each category's stack has reached, upwards and downwards, series by series.
    let mut up = vec![0.0; categories];
    let mut down = vec![0.0; categories];
    values
        .iter()
        .map(|series| {
            series
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let v = (*v)? * scale[i];
                    Some(match stacking {
                        Stacking::None => (0.0, v),
                        _ if v >= 0.0 => {
                            up[i] += v;
                            (up[i] - v, up[i])
                        }
                        _ => {
                            down[i] += v;
                            (down[i] - v, down[i])
                        }
                    })
                })
                .collect()
        })
        .collect()
}

/// An axis end as a label: computed (sums of stacked values, scaled percentages, the bubble
/// chart's headroom), so it carries the arithmetic's float noise, which `General`'s 15
/// digits still show (`0.700000000000001`); 10 significant digits drop it and keep every
/// value a chart's data can show.
fn axis_end(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.9e}").parse().unwrap_or(x)
}

fn pie(cats: &[String], values: &[Option<f64>], hole: f64, out: &mut String) {
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
        if hole > 0.0 {
            // A ring segment: out along the outer arc, back along the inner one.
            let ri = r * hole;
            let end = angle + sweep.min(std::f64::consts::TAU - 1e-6);
            let point = |rad: f64, a: f64| (cx + rad * a.cos(), cy + rad * a.sin());
            let ((x1, y1), (x2, y2)) = (point(r, angle), point(r, end));
            let ((x3, y3), (x4, y4)) = (point(ri, end), point(ri, angle));
            let large = u8::from(sweep > std::f64::consts::PI);
            let _ = write!(
                out,
                "<path d=\"M{x1:.1},{y1:.1} A{r},{r} 0 {large} 1 {x2:.1},{y2:.1} L{x3:.1},{y3:.1} A{ri},{ri} 0 {large} 0 {x4:.1},{y4:.1} Z\" fill=\"{color}\"/>"
            );
        } else if sweep >= std::f64::consts::TAU - 1e-9 {
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

/// A radar chart: one spoke per category from the centre, one closed polygon per series, the
/// values from the centre (the smallest value, or 0) to the rim (the largest).
fn radar(names: &[String], cats: &[String], values: &[Vec<Option<f64>>], out: &mut String) {
    let all = values.iter().flatten().flatten().copied();
    let (lo, hi) = all.fold((0.0f64, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (cx, cy, r) = (W / 2.0 - 60.0, H / 2.0, H / 2.0 - 28.0);
    let n = cats.len().max(1) as f64;
    let at = |i: usize, value: f64| {
        let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * i as f64 / n;
        let d = r * (value - lo) / span;
        (cx + d * a.cos(), cy + d * a.sin())
    };
    let rim: Vec<(f64, f64)> = (0..cats.len()).map(|i| at(i, lo + span)).collect();
    out.push_str("<g stroke=\"#bbb\" stroke-width=\"1\">");
    for (x, y) in &rim {
        let _ = write!(
            out,
            "<line x1=\"{cx}\" y1=\"{cy}\" x2=\"{x:.1}\" y2=\"{y:.1}\"/>"
        );
    }
    out.push_str("</g>");
    for (c, (x, y)) in cats.iter().zip(&rim) {
        // The label a little past the rim, on the spoke's side.
        let anchor = if (x - cx).abs() < 1.0 {
            "middle"
        } else if *x > cx {
            "start"
        } else {
            "end"
        };
        label(
            out,
            cx + (x - cx) * 1.08,
            cy + (y - cy) * 1.08 + 4.0,
            anchor,
            c,
        );
    }
    for (s, series) in values.iter().enumerate() {
        let color = COLORS[s % COLORS.len()];
        let points: Vec<String> = series
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| at(i, v)))
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = write!(
            out,
            "<polygon points=\"{}\" fill=\"{color}\" fill-opacity=\"0.25\" stroke=\"{color}\" stroke-width=\"2\"/>",
            points.join(" ")
        );
        legend_entry(out, s, color, names.get(s).map_or("", |n| n.as_str()));
    }
}

#[allow(clippy::too_many_arguments)]
fn axes(
    kind: ChartKind,
    names: &[String],
    cats: &[String],
    ranges: &Ranges,
    sizes: &[Vec<Option<f64>>],
    code: &str,
    out: &mut String,
) {
    let ends = ranges
        .iter()
        .flatten()
        .flatten()
        .flat_map(|(a, b)| [*a, *b]);
    let (lo, mut hi) = ends.fold((0.0f64, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if kind == ChartKind::Bubble && hi > lo {
        // Room above the highest point for its bubble, as a spreadsheet leaves.
        hi += (hi - lo) * 0.2;
    }
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (pw, ph) = (W - L - R, H - T - B);
    let stacked = kind.stacking() != Stacking::None;
    let kind = kind.unstacked();
    let horizontal = kind == ChartKind::Bar;
    // Value → position along the value axis (up for vertical charts, right for bars).
    let v = |x: f64| (x - lo) / span;
    let n = cats.len() as f64;
    // Where category `i` sits along the category axis (0..1): a scatter chart whose categories
    // are all numbers places them by value, every other chart evenly.
    let xs: Option<Vec<f64>> = matches!(kind, ChartKind::Scatter | ChartKind::Bubble)
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
        let text = number_format::format(axis_end(*val), code);
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
    // Stacked bars share their category's whole slot; others split it.
    let ns = if stacked {
        1.0
    } else {
        ranges.len().max(1) as f64
    };
    for (s, series) in ranges.iter().enumerate() {
        let color = COLORS[s % COLORS.len()];
        match kind {
            ChartKind::Column | ChartKind::Bar => {
                for (i, range) in series.iter().enumerate() {
                    let Some((from, to)) = range else { continue };
                    let slot = 0.8 / ns;
                    let k = if stacked { 0.0 } else { s as f64 };
                    let start = (i as f64 + 0.1 + slot * k) / n;
                    let (a, b) = (v(*from).min(v(*to)), v(*from).max(v(*to)));
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
            ChartKind::Line | ChartKind::Area | ChartKind::Scatter | ChartKind::Bubble => {
                let point = |i: usize, y: f64| (L + at(i) * pw, T + ph - v(y) * ph);
                let points: Vec<(f64, f64)> = series
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.map(|(_, to)| point(i, to)))
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
                    ChartKind::Area if !points.is_empty() => {
                        // Down to where the area starts: the axis, or the series below it.
                        let lower: Vec<String> = series
                            .iter()
                            .enumerate()
                            .rev()
                            .filter_map(|(i, r)| r.map(|(from, _)| point(i, from)))
                            .map(|(x, y)| format!("{x:.1},{y:.1}"))
                            .collect();
                        let _ = write!(
                            out,
                            "<polygon points=\"{} {}\" fill=\"{color}\" fill-opacity=\"0.6\"/>",
                            list.join(" "),
                            lower.join(" ")
                        );
                    }
                    ChartKind::Area => {}
                    _ => {
                        // A bubble's area follows its size; a scatter point is a dot.
                        let biggest = sizes
                            .iter()
                            .flat_map(|s| s.iter().flatten())
                            .fold(0.0f64, |m, v| m.max(v.abs()));
                        for (i, r) in series.iter().enumerate() {
                            let Some((_, y)) = r else { continue };
                            let (x, y) = point(i, *y);
                            let radius = match sizes
                                .get(s)
                                .and_then(|z| z.get(i).copied().flatten())
                            {
                                Some(z) if biggest > 0.0 => 3.0 + 22.0 * (z.abs() / biggest).sqrt(),
                                _ => 3.5,
                            };
                            let _ = write!(
                                out,
                                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{radius:.1}\" fill=\"{color}\" fill-opacity=\"0.7\"/>"
                            );
                        }
                    }
                }
            }
            // Drawn by `pie` and `radar`, or not at all.
            _ => {}
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

    /// The `<rect>`s of an SVG as (x, y, width, height).
    fn rects(svg: &str) -> Vec<[f64; 4]> {
        svg.split("<rect ")
            .skip(1)
            .filter(|r| !r.contains("width=\"10\""))
            .map(|r| {
                let num = |k: &str| -> f64 {
                    let at = r.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
                    r[at..at + r[at..].find('"').unwrap()].parse().unwrap()
                };
                [num("x"), num("y"), num("width"), num("height")]
            })
            .collect()
    }

    #[test]
    fn axis_ends_lose_the_float_noise_of_their_arithmetic() {
        // What a sum or a scaling leaves; General's 15 digits would show it.
        let noisy = 0.7000000000000006;
        assert_eq!(number_format::format(noisy, "General"), "0.700000000000001");
        assert_eq!(number_format::format(axis_end(noisy), "General"), "0.7");
        assert_eq!(axis_end(123456.789), 123456.789);
        assert_eq!(axis_end(-2.5e-7), -2.5e-7);
        assert_eq!(axis_end(0.0), 0.0);
        // A stacked chart's top is such a sum, labelled without noise.
        let t = table(&[
            &["", "a", "b", "c"],
            &["x", "0.1", "0.2", "0.4000000000000006"],
        ]);
        let mut svg = String::new();
        assert!(write(&t, ChartKind::StackedColumn, "C", &mut svg));
        assert!(!svg.contains("00000"), "{svg}");
    }

    #[test]
    fn stacked_bars_lie_on_each_other_and_percent_bars_fill_the_axis() {
        let t = table(&[&["", "a", "b"], &["North", "3", "1"], &["South", "1", "1"]]);
        let mut side = String::new();
        assert!(write(&t, ChartKind::Column, "C", &mut side));
        let mut stacked = String::new();
        assert!(write(&t, ChartKind::StackedColumn, "C", &mut stacked));
        // Side by side: two columns start at different x per category; stacked: the same x,
        // the second starting where the first ends.
        let s = rects(&side);
        assert_ne!(s[0][0], s[2][0]);
        let st = rects(&stacked);
        let (a, b) = (st[0], st[2]);
        assert_eq!(a[0], b[0]);
        assert!((b[1] + b[3] - a[1]).abs() < 0.2, "{a:?} {b:?}");
        // Percent: each category's stack reaches the top of the plot.
        let mut percent = String::new();
        assert!(write(&t, ChartKind::PercentColumn, "C", &mut percent));
        let p = rects(&percent);
        for (first, second) in [(p[0], p[2]), (p[1], p[3])] {
            assert!(
                (first[3] + second[3] - (H - T - B)).abs() < 0.3,
                "{first:?} {second:?}"
            );
        }
        assert!(percent.contains(">100%</text>"), "{percent}");
    }

    #[test]
    fn bubbles_are_as_big_as_their_sizes() {
        let t = table(&[&["", "a", "a (size)"], &["1", "3", "16"], &["2", "1", "1"]]);
        let mut svg = String::new();
        assert!(write(&t, ChartKind::Bubble, "B", &mut svg));
        let radii: Vec<f64> = svg
            .split("<circle ")
            .skip(1)
            .map(|c| {
                let at = c.find("r=\"").unwrap() + 3;
                c[at..at + c[at..].find('"').unwrap()].parse().unwrap()
            })
            .collect();
        // Area follows size: 16 and 1 give radii 3 + 22 and 3 + 22/4.
        assert_eq!(radii.len(), 2, "{svg}");
        assert!(
            (radii[0] - 25.0).abs() < 0.1 && (radii[1] - 8.5).abs() < 0.1,
            "{radii:?}"
        );
        // The biggest bubble, at the highest value, fits under the plot's top (T = 16).
        let top: f64 = {
            let c = svg.split("<circle ").nth(1).unwrap();
            let num = |k: &str| -> f64 {
                let at = c.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
                c[at..at + c[at..].find('"').unwrap()].parse().unwrap()
            };
            num("cy") - num("r")
        };
        assert!(top >= T - 0.5, "bubble top at {top}");
        // One legend entry: the sizes are not a series of their own.
        assert_eq!(svg.matches(">a</text>").count(), 1, "{svg}");
        assert!(!svg.contains("a (size)"), "{svg}");
    }

    #[test]
    fn doughnuts_have_a_hole_and_radars_a_polygon_per_series() {
        let t = table(&[
            &["", "a", "b"],
            &["x", "3", "1"],
            &["y", "1", "2"],
            &["z", "2", "2"],
        ]);
        let mut ring = String::new();
        assert!(write(&t, ChartKind::Doughnut, "D", &mut ring));
        // Each slice goes out along the rim and back along the hole: two arcs a path.
        let slices: Vec<&str> = ring.split("<path d=\"").skip(1).collect();
        assert_eq!(slices.len(), 3);
        assert!(
            slices.iter().all(|p| p.matches(" A").count() == 2),
            "{ring}"
        );
        let mut radar = String::new();
        assert!(write(&t, ChartKind::Radar, "R", &mut radar));
        assert_eq!(radar.matches("<polygon ").count(), 2, "{radar}");
        assert_eq!(radar.matches("<line ").count(), 3, "one spoke per category");
        for c in ["x", "y", "z"] {
            assert!(radar.contains(&format!(">{c}</text>")), "{radar}");
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
