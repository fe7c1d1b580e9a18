//! Charts: a table holding a chart's data says how the chart drew it ([`ChartKind`]).
//!
//! The data are the table itself, the form every writer has: the header row names the series
//! (its first cell is the corner), the first column holds the categories (or x values), the
//! other cells the values. Writers that can draw (HTML) draw the chart from it; the others
//! write the table.

use serde::{Deserialize, Serialize};

use super::{Block, Cell, Inline, Paragraph, Row, Table, TextType};

/// How a chart draws its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// Horizontal bars.
    Bar,
    /// Vertical bars.
    Column,
    /// Lines through the points.
    Line,
    /// Slices of a circle (the first series).
    Pie,
    /// Filled areas under lines.
    Area,
    /// Points at (x, y).
    Scatter,
    /// A ring of slices (the first series).
    Doughnut,
    /// One polygon per series over spokes, one spoke per category.
    Radar,
    /// Horizontal bars, each category's series stacked end to end.
    StackedBar,
    /// Vertical bars, stacked.
    StackedColumn,
    /// Areas, stacked.
    StackedArea,
    /// Horizontal bars stacked to 100 % of the category.
    PercentBar,
    /// Vertical bars stacked to 100 %.
    PercentColumn,
    /// Areas stacked to 100 %.
    PercentArea,
    /// Points at (x, y), each a circle of the size its series' size column gives: the series
    /// come in pairs, values then sizes ([`BUBBLE_SIZE_SUFFIX`]).
    Bubble,
    /// Any other kind (stock, surface, …): drawn as its table only.
    Other,
}

/// The `c:ext@uri` our Word writer puts in the radar chart it writes for a table of
/// [`ChartKind::Other`], so that the reader takes it back as that kind.
pub const OTHER_KIND_URI: &str = "urn:sdconv:chart-kind-other";

/// How the column of a bubble chart's sizes is named after its series: `Sales (size)`.
pub const BUBBLE_SIZE_SUFFIX: &str = " (size)";

/// How a chart's series share a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stacking {
    /// Side by side (bars) or each from the axis (areas, lines).
    None,
    /// End to end.
    Stacked,
    /// End to end, scaled to 100 % of the category.
    Percent,
}

impl ChartKind {
    /// The kind of a DrawingML plot element (`barChart`, `pie3DChart`, …); `horizontal` is
    /// `c:barDir="bar"`, `grouping` the plot's `c:grouping` (`stacked`, `percentStacked`, …).
    pub fn from_plot(name: &str, horizontal: bool, grouping: &str) -> ChartKind {
        let stacking = match grouping {
            "stacked" => Stacking::Stacked,
            "percentStacked" => Stacking::Percent,
            _ => Stacking::None,
        };
        match (name, stacking) {
            ("barChart" | "bar3DChart", Stacking::Stacked) if horizontal => ChartKind::StackedBar,
            ("barChart" | "bar3DChart", Stacking::Percent) if horizontal => ChartKind::PercentBar,
            ("barChart" | "bar3DChart", _) if horizontal => ChartKind::Bar,
            ("barChart" | "bar3DChart", Stacking::Stacked) => ChartKind::StackedColumn,
            ("barChart" | "bar3DChart", Stacking::Percent) => ChartKind::PercentColumn,
            ("barChart" | "bar3DChart", _) => ChartKind::Column,
            ("lineChart" | "line3DChart", _) => ChartKind::Line,
            ("pieChart" | "pie3DChart" | "ofPieChart", _) => ChartKind::Pie,
            ("doughnutChart", _) => ChartKind::Doughnut,
            ("areaChart" | "area3DChart", Stacking::Stacked) => ChartKind::StackedArea,
            ("areaChart" | "area3DChart", Stacking::Percent) => ChartKind::PercentArea,
            ("areaChart" | "area3DChart", _) => ChartKind::Area,
            ("scatterChart", _) => ChartKind::Scatter,
            ("radarChart", _) => ChartKind::Radar,
            ("bubbleChart", _) => ChartKind::Bubble,
            _ => ChartKind::Other,
        }
    }

    /// The kind drawn the same way but with the series side by side: a stacked kind's plain
    /// one (`StackedColumn` → `Column`); every other kind itself.
    pub fn unstacked(self) -> ChartKind {
        match self {
            ChartKind::StackedBar | ChartKind::PercentBar => ChartKind::Bar,
            ChartKind::StackedColumn | ChartKind::PercentColumn => ChartKind::Column,
            ChartKind::StackedArea | ChartKind::PercentArea => ChartKind::Area,
            other => other,
        }
    }

    /// How the series share a category.
    pub fn stacking(self) -> Stacking {
        match self {
            ChartKind::StackedBar | ChartKind::StackedColumn | ChartKind::StackedArea => {
                Stacking::Stacked
            }
            ChartKind::PercentBar | ChartKind::PercentColumn | ChartKind::PercentArea => {
                Stacking::Percent
            }
            _ => Stacking::None,
        }
    }
}

/// A chart's data in the form a chart part holds it: series names, categories (or x values)
/// and one value per category and series (empty: no point).
///
/// [`ChartData::to_table`] makes the data table every reader of charts builds, and
/// [`ChartData::from_table`] takes such a table back apart; the Word writer writes a chart part
/// only for a table that comes back the same from the part it writes.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    /// How the chart draws its data.
    pub kind: ChartKind,
    /// The title (the table's caption).
    pub title: Option<String>,
    /// Series names, left to right.
    pub series: Vec<String>,
    /// Categories (x values for scatter charts), top to bottom.
    pub categories: Vec<String>,
    /// `values[category][series]`, as written; empty when the series has no point there.
    pub values: Vec<Vec<String>>,
}

/// One cell of a chart's data table: a single plain paragraph (none when `text` is empty).
fn data_cell(text: &str, header: bool) -> Cell {
    let content = if text.is_empty() {
        Vec::new()
    } else {
        vec![Inline::text(text)]
    };
    Cell {
        header,
        blocks: vec![Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            content,
        ))],
        ..Cell::default()
    }
}

/// The text of a cell that is one plain-text paragraph, the only cell form a chart part keeps.
fn cell_text(cell: &Cell) -> Option<String> {
    match cell.blocks.as_slice() {
        [Block::Paragraph(p)] => match p.content.as_slice() {
            [] => Some(String::new()),
            [Inline::Text { text }] => Some(text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `s` is a number as a chart shows it: what a value cache holds (`xsd:double`
/// without INF and NaN) or that number in a format code ([`super::number_format`]: `45%`,
/// `1,234.50`), which a chart part can cache with that code.
pub fn is_chart_number(s: &str) -> bool {
    crate::number_format::parse(s).is_some()
}

impl ChartData {
    /// The data table: a header row (an empty corner, then the series names), then one row per
    /// category with each series' value; the title is the caption.
    pub fn to_table(&self) -> Table {
        let mut rows = vec![Row {
            header: true,
            cells: std::iter::once(data_cell("", true))
                .chain(self.series.iter().map(|s| data_cell(s, true)))
                .collect(),
            ..Row::default()
        }];
        for (category, values) in self.categories.iter().zip(&self.values) {
            rows.push(Row {
                cells: std::iter::once(data_cell(category, false))
                    .chain(values.iter().map(|v| data_cell(v, false)))
                    .collect(),
                ..Row::default()
            });
        }
        Table {
            rows,
            caption: self.title.clone(),
            // Only a caption is numbered (what readers make of a table without one).
            numbered: self.title.is_some(),
            chart: Some(self.kind),
            ..Table::default()
        }
    }

    /// The chart data of a chart's table when a chart part holds all of it: the table is exactly
    /// what [`ChartData::to_table`] makes (no spans, widths, ids, formatting or rich text), it
    /// has at least one series, series names and categories are non-empty (a reader numbers
    /// missing ones), names and title have no edge white space (readers trim them), no text
    /// holds control characters, and every value is a number or empty. `None` otherwise.
    pub fn from_table(t: &Table) -> Option<ChartData> {
        let kind = t.chart?;
        let (head, body) = t.rows.split_first()?;
        let texts = |r: &Row| r.cells.iter().map(cell_text).collect::<Option<Vec<_>>>();
        let series: Vec<String> = texts(head)?.into_iter().skip(1).collect();
        let mut categories = Vec::new();
        let mut values = Vec::new();
        for row in body {
            let mut cells = texts(row)?.into_iter();
            categories.push(cells.next()?);
            values.push(cells.collect::<Vec<_>>());
        }
        let clean = |s: &str| !s.chars().any(char::is_control);
        let trimmed = |s: &str| !s.is_empty() && s.trim() == s && clean(s);
        // A bubble chart's columns pair each series with its sizes.
        let paired = kind != ChartKind::Bubble
            || (series.len() % 2 == 0
                && series
                    .chunks(2)
                    .all(|p| p[1] == format!("{}{BUBBLE_SIZE_SUFFIX}", p[0])));
        let fits = paired
            && !series.is_empty()
            && series.iter().all(|s| trimmed(s))
            && t.caption.as_deref().is_none_or(trimmed)
            && categories.iter().all(|c| !c.is_empty() && clean(c))
            && values.iter().all(|row| row.len() == series.len())
            && values
                .iter()
                .flatten()
                .all(|v| v.is_empty() || is_chart_number(v));
        let data = ChartData {
            kind,
            title: t.caption.clone(),
            series,
            categories,
            values,
        };
        let mut same = data.to_table();
        if t.caption.is_none() {
            // Whether a caption that is not there would be numbered says nothing.
            same.numbered = t.numbered;
        }
        (fits && same == without_direction(t)).then_some(data)
    }
}

/// `t` without directions: a chart part has none (its table's and its paragraphs' follow the
/// document's), so they do not keep a table from being a chart.
fn without_direction(t: &Table) -> Table {
    let mut t = t.clone();
    t.dir = None;
    for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
        for b in &mut cell.blocks {
            if let Block::Paragraph(p) = b {
                p.dir = None;
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_elements_and_groupings_give_their_kinds() {
        for (name, horizontal, grouping, kind) in [
            ("barChart", false, "clustered", ChartKind::Column),
            ("barChart", true, "stacked", ChartKind::StackedBar),
            (
                "bar3DChart",
                false,
                "percentStacked",
                ChartKind::PercentColumn,
            ),
            ("areaChart", false, "stacked", ChartKind::StackedArea),
            ("areaChart", false, "standard", ChartKind::Area),
            ("doughnutChart", false, "", ChartKind::Doughnut),
            ("radarChart", false, "", ChartKind::Radar),
            ("bubbleChart", false, "", ChartKind::Bubble),
            ("stockChart", false, "", ChartKind::Other),
        ] {
            assert_eq!(
                ChartKind::from_plot(name, horizontal, grouping),
                kind,
                "{name}"
            );
        }
        assert_eq!(ChartKind::PercentArea.unstacked(), ChartKind::Area);
        assert_eq!(ChartKind::PercentArea.stacking(), Stacking::Percent);
        assert_eq!(ChartKind::Radar.stacking(), Stacking::None);
    }
}
