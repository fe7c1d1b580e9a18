//! Charts: a table holding a chart's data says how the chart drew it ([`ChartKind`]).
//!
//! The data are the table itself, the form every writer has: the header row names the series
//! (its first cell is the corner), the first column holds the categories (or x values), the
//! other cells the values. Writers that can draw (HTML) draw the chart from it; the others
//! write the table.

use serde::{Deserialize, Serialize};

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
    /// Any other kind (radar, stock, surface, bubble, …): drawn as its table only.
    Other,
}

impl ChartKind {
    /// The kind of a DrawingML plot element (`barChart`, `pie3DChart`, …); `horizontal` is
    /// `c:barDir="bar"`.
    pub fn from_plot(name: &str, horizontal: bool) -> ChartKind {
        match name {
            "barChart" | "bar3DChart" if horizontal => ChartKind::Bar,
            "barChart" | "bar3DChart" => ChartKind::Column,
            "lineChart" | "line3DChart" => ChartKind::Line,
            "pieChart" | "pie3DChart" | "doughnutChart" | "ofPieChart" => ChartKind::Pie,
            "areaChart" | "area3DChart" => ChartKind::Area,
            "scatterChart" => ChartKind::Scatter,
            _ => ChartKind::Other,
        }
    }
}
