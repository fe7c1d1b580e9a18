//! Stage one: chart parts (`c:chartSpace`, DrawingML charts): the cached data every chart part
//! carries, kept as a data table (categories down, one column per series) with the chart's title as
//! its caption. The drawing itself is not kept (the caller warns).

use quick_xml::events::Event;

use crate::ast::Table;
use crate::ast::chart::{BUBBLE_SIZE_SUFFIX, ChartData, ChartKind};
use crate::error::Result;
use crate::limits::{Limits, MAX_TABLE_COLUMNS};
use crate::number_format;
use crate::xml::{LocalName, XmlReader};

/// Most data points kept per series; a chart part is data the user saw, not a data store.
const MAX_POINTS: usize = 10_000;

/// Most cells of a chart's data table: a few points with far-apart indices in many series
/// would otherwise make a table of millions of empty cells from a small part.
const MAX_CELLS: usize = 1_000_000;

/// One series: name, categories, values (by point index).
#[derive(Debug, Default, PartialEq)]
struct Series {
    name: String,
    categories: Vec<(usize, String)>,
    values: Vec<(usize, String)>,
    /// A bubble chart's sizes (`c:bubbleSize`).
    sizes: Vec<(usize, String)>,
}

/// What a chart part holds: its kind (`barChart`, `pieChart`, …), title and series.
#[derive(Debug, Default, PartialEq)]
pub struct ChartPart {
    /// The plot's element name without prefix (the first one when several are combined).
    pub kind: String,
    /// `c:barDir="bar"`: horizontal bars.
    pub horizontal: bool,
    /// The plot's `c:grouping` (`clustered`, `stacked`, `percentStacked`, `standard`).
    pub grouping: String,
    /// Our writer's mark of a chart it wrote for a kind it draws as a table only.
    pub other: bool,
    /// The title text.
    pub title: Option<String>,
    series: Vec<Series>,
    /// A series had more than [`MAX_POINTS`] points: the rest were not kept.
    points_refused: bool,
}

/// Where inside a series the cached points being read belong.
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Name,
    Categories,
    Values,
    Sizes,
}

/// Reads a chart part's text.
pub fn read(text: &str, part: &str, limits: &Limits) -> Result<ChartPart> {
    let mut r = XmlReader::new(text, part, limits);
    let mut data = ChartPart::default();
    // Open elements by local name, to know the context of a `c:v` or `a:t`.
    let mut path: Vec<String> = Vec::new();
    let mut point: usize = 0;
    let mut title = String::new();
    // The number format of the cache being read, and the point's own (`c:pt@formatCode`).
    let mut cache_code: Option<String> = None;
    let mut point_code: Option<String> = None;
    loop {
        match r.next_event()? {
            Event::Start(e) => {
                let name = e.local().to_string();
                match name.as_str() {
                    "ser" => data.series.push(Series::default()),
                    "barDir" => {
                        data.horizontal = crate::xml::attr(&e, "val").as_deref() == Some("bar")
                    }
                    "pt" => {
                        point = crate::xml::attr(&e, "idx")
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        point_code = crate::xml::attr(&e, "formatCode").map(|c| c.to_string());
                    }
                    "numCache" | "numLit" => cache_code = None,
                    "formatCode" => {
                        cache_code = Some(r.read_text()?);
                        continue;
                    }
                    // Text is read whole (entities included) where it stands.
                    "t" | "v" => {
                        let mut s = r.read_text()?;
                        // A cached number is shown as Word shows it: in its format code.
                        if name == "v"
                            && path.iter().any(|p| p == "numCache" || p == "numLit")
                            && let Ok(value) = s.trim().parse::<f64>()
                            && value.is_finite()
                        {
                            let code = point_code.as_deref().or(cache_code.as_deref());
                            s = number_format::format(value, code.unwrap_or("General"));
                        }
                        take_text(&mut data, &path, &name, point, s, &mut title);
                        continue;
                    }
                    n if n.ends_with("Chart") && data.kind.is_empty() && n != "chart" => {
                        data.kind = n.to_string();
                    }
                    _ => {}
                }
                path.push(name);
            }
            Event::Empty(e) if e.local() == "barDir" => {
                data.horizontal = crate::xml::attr(&e, "val").as_deref() == Some("bar");
            }
            Event::Empty(e)
                if e.local() == "ext"
                    && crate::xml::attr(&e, "uri").as_deref()
                        == Some(crate::ast::chart::OTHER_KIND_URI) =>
            {
                data.other = true;
            }
            // The first plot's grouping (a combined chart is read as its first plot).
            Event::Empty(e) if e.local() == "grouping" && data.grouping.is_empty() => {
                data.grouping = crate::xml::attr(&e, "val").unwrap_or_default().to_string();
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let title = title.trim();
    if !title.is_empty() {
        data.title = Some(title.to_string());
    }
    Ok(data)
}

/// Files the text of an `a:t` or `c:v` element (`tag`) under the open elements `path`.
fn take_text(
    data: &mut ChartPart,
    path: &[String],
    tag: &str,
    point: usize,
    s: String,
    title: &mut String,
) {
    let inside = |n: &str| path.iter().any(|p| p == n);
    // The chart's own title: axis titles sit inside the plot area.
    if tag == "t" && inside("title") && !inside("ser") && !inside("plotArea") {
        title.push_str(&s);
        return;
    }
    if tag != "v" || !inside("ser") {
        return;
    }
    let slot = if inside("tx") {
        Slot::Name
    } else if inside("bubbleSize") {
        Slot::Sizes
    } else if inside("cat") || inside("xVal") {
        Slot::Categories
    } else if inside("val") || inside("yVal") {
        Slot::Values
    } else {
        return;
    };
    let Some(ser) = data.series.last_mut() else {
        return;
    };
    let list = match slot {
        Slot::Name => {
            ser.name.push_str(&s);
            return;
        }
        Slot::Categories => &mut ser.categories,
        Slot::Values => &mut ser.values,
        Slot::Sizes => &mut ser.sizes,
    };
    if list.len() < MAX_POINTS {
        list.push((point, s));
    } else {
        data.points_refused = true;
    }
}

impl ChartPart {
    /// The data table: a header row (an empty corner, then the series names), then one row per
    /// category with each series' value; the title is the caption. `None` without any series.
    pub fn to_table(&self) -> Option<Table> {
        let shape = self.shape()?;
        let series = &self.series[..shape.series];
        let kind = self.chart_kind();
        let bubble = kind == ChartKind::Bubble;
        let named = series.iter().find(|s| !s.categories.is_empty());
        let named_at = named.map(|s| by_point(&s.categories, shape.points));
        let categories = (0..shape.points)
            .map(|p| {
                named_at
                    .as_ref()
                    .and_then(|at| at.get(p).copied().flatten())
                    .filter(|c| !c.is_empty())
                    .map_or_else(|| (p + 1).to_string(), str::to_string)
            })
            .collect();
        // Each column's values by point, looked up once: finding each point in its list took
        // time growing with points × points × series.
        let columns: Vec<Vec<Option<&str>>> = series
            .iter()
            .flat_map(|s| {
                let sizes = bubble.then(|| by_point(&s.sizes, shape.points));
                std::iter::once(by_point(&s.values, shape.points)).chain(sizes)
            })
            .collect();
        let values = (0..shape.points)
            .map(|p| {
                columns
                    .iter()
                    .map(|c| c.get(p).copied().flatten().unwrap_or_default().to_string())
                    .collect()
            })
            .collect();
        let names = series.iter().enumerate().flat_map(|(k, s)| {
            let name = match s.name.trim() {
                "" => format!("Series {}", k + 1),
                name => name.to_string(),
            };
            let size = bubble.then(|| format!("{name}{BUBBLE_SIZE_SUFFIX}"));
            std::iter::once(name).chain(size)
        });
        let data = ChartData {
            kind,
            title: self.title.clone(),
            series: names.collect(),
            categories,
            values,
        };
        Some(data.to_table())
    }

    /// What [`ChartPart::to_table`] leaves out of this part's data, said for a warning: points
    /// past [`MAX_POINTS`] in a series or past the table's bound of cells, series past its
    /// columns. `None` when the table holds it all.
    pub fn left_out(&self) -> Option<String> {
        let shape = self.shape()?;
        let wanted_points = self.series[..shape.series]
            .iter()
            .flat_map(|s| s.values.iter().chain(&s.categories).chain(&s.sizes))
            .map(|(i, _)| i.saturating_add(1))
            .max()
            .unwrap_or(0);
        let mut lost = Vec::new();
        if self.points_refused || wanted_points > shape.points {
            lost.push(format!("points past the first {}", shape.points));
        }
        if shape.series < self.series.len() {
            lost.push(format!("series past the first {}", shape.series));
        }
        (!lost.is_empty()).then(|| lost.join(" and "))
    }

    /// The kind of chart the table says it was.
    fn chart_kind(&self) -> ChartKind {
        if self.other {
            ChartKind::Other
        } else {
            ChartKind::from_plot(&self.kind, self.horizontal, &self.grouping)
        }
    }

    /// How many series and points the table holds; `None` without any series.
    fn shape(&self) -> Option<Shape> {
        if self.series.is_empty() {
            return None;
        }
        let bubble = self.chart_kind() == ChartKind::Bubble;
        // A bubble chart's series each give two columns: values, then sizes.
        let per_series = if bubble { 2 } else { 1 };
        let series = self.series.len().min((MAX_TABLE_COLUMNS - 1) / per_series);
        let points = self.series[..series]
            .iter()
            .flat_map(|s| {
                s.values
                    .iter()
                    .chain(&s.categories)
                    .map(|(i, _)| i.saturating_add(1))
            })
            .max()
            .unwrap_or(0)
            .min(MAX_POINTS)
            .min(MAX_CELLS / (series * per_series + 1));
        Some(Shape { series, points })
    }
}

/// The series and points of a chart's data table.
struct Shape {
    series: usize,
    points: usize,
}

/// Each point's entry of `list` (the first given for it), by point index below `points`.
fn by_point(list: &[(usize, String)], points: usize) -> Vec<Option<&str>> {
    let mut at = vec![None; points];
    for (i, v) in list {
        if let Some(slot @ None) = at.get_mut(*i) {
            *slot = Some(v.as_str());
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Block;

    const BAR: &str = r#"<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/>
<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>2024</c:v></c:pt></c:strCache></c:strRef></c:tx>
<c:cat><c:strRef><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt></c:strCache></c:strRef></c:cat>
<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>4.5</c:v></c:pt><c:pt idx="1"><c:v>3</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
<c:ser><c:val><c:numRef><c:numCache><c:pt idx="1"><c:v>7</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
</c:barChart></c:plotArea></c:chart></c:chartSpace>"#;

    fn texts(t: &Table) -> Vec<Vec<String>> {
        t.rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| match c.blocks.first() {
                        Some(Block::Paragraph(p)) => crate::ast::inline::plain_text(&p.content),
                        _ => String::new(),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_bar_chart_becomes_its_data_table() {
        let data = read(BAR, "word/charts/chart1.xml", &Limits::default()).unwrap_or_default();
        assert_eq!(data.kind, "barChart");
        assert_eq!(data.title.as_deref(), Some("Sales"));
        let table = data.to_table().unwrap_or_default();
        assert_eq!(table.caption.as_deref(), Some("Sales"));
        assert_eq!(
            texts(&table),
            [
                vec!["", "2024", "Series 2"],
                vec!["North", "4.5", ""],
                vec!["South", "3", "7"],
            ]
        );
        assert!(table.rows[0].header);
        assert_eq!(table.chart, Some(ChartKind::Column));
    }

    #[test]
    fn cached_values_are_shown_in_their_format_codes() {
        let xml = r##"<c:chartSpace xmlns:c="c"><c:chart><c:plotArea><c:lineChart>
<c:ser><c:cat><c:numRef><c:numCache><c:formatCode>0.0</c:formatCode><c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>2</c:v></c:pt><c:pt idx="2"><c:v>3</c:v></c:pt></c:numCache></c:numRef></c:cat>
<c:val><c:numRef><c:numCache><c:formatCode>0%</c:formatCode><c:pt idx="0"><c:v>0.456</c:v></c:pt><c:pt idx="1" formatCode="#,##0.00"><c:v>1234.5</c:v></c:pt><c:pt idx="2"><c:v>n/a</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
<c:ser><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode><c:pt idx="0"><c:v>4.4000000000000004</c:v></c:pt><c:pt idx="1"><c:v>-0.30000000000000004</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
</c:lineChart></c:plotArea></c:chart></c:chartSpace>"##;
        let data = read(xml, "c.xml", &Limits::default()).unwrap_or_default();
        assert_eq!(
            texts(&data.to_table().unwrap_or_default()),
            [
                vec!["", "Series 1", "Series 2"],
                vec!["1.0", "46%", "4.4"],
                vec!["2.0", "1,234.50", "-0.3"],
                // Not a number: kept as the cache has it.
                vec!["3.0", "n/a", ""],
            ]
        );
    }

    #[test]
    fn a_bubble_chart_keeps_its_sizes_beside_its_values() {
        let xml = r#"<c:chartSpace xmlns:c="c"><c:chart><c:plotArea><c:bubbleChart>
<c:ser><c:tx><c:v>Deals</c:v></c:tx><c:xVal><c:numLit><c:pt idx="0"><c:v>1</c:v></c:pt><c:pt idx="1"><c:v>2</c:v></c:pt></c:numLit></c:xVal>
<c:yVal><c:numLit><c:pt idx="0"><c:v>10</c:v></c:pt><c:pt idx="1"><c:v>20</c:v></c:pt></c:numLit></c:yVal>
<c:bubbleSize><c:numLit><c:pt idx="0"><c:v>5</c:v></c:pt><c:pt idx="1"><c:v>50</c:v></c:pt></c:numLit></c:bubbleSize></c:ser>
</c:bubbleChart></c:plotArea></c:chart></c:chartSpace>"#;
        let table = read(xml, "c.xml", &Limits::default())
            .unwrap_or_default()
            .to_table()
            .unwrap_or_default();
        assert_eq!(table.chart, Some(ChartKind::Bubble));
        assert_eq!(
            texts(&table),
            [
                vec!["", "Deals", "Deals (size)"],
                vec!["1", "10", "5"],
                vec!["2", "20", "50"],
            ]
        );
    }

    #[test]
    fn a_chart_without_series_has_no_table() {
        let data =
            read("<c:chartSpace xmlns:c=\"c\"/>", "c.xml", &Limits::default()).unwrap_or_default();
        assert!(data.to_table().is_none());
    }

    /// A bar chart part of `series`, each a list of (point index, value).
    fn chart_of(series: &[Vec<(usize, String)>]) -> String {
        let sers: String = series
            .iter()
            .map(|points| {
                let pts: String = points
                    .iter()
                    .map(|(i, v)| format!(r#"<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>"#))
                    .collect();
                format!("<c:ser><c:val><c:numRef><c:numCache>{pts}</c:numCache></c:numRef></c:val></c:ser>")
            })
            .collect();
        format!(
            r#"<c:chartSpace xmlns:c="c"><c:chart><c:plotArea><c:barChart>{sers}</c:barChart></c:plotArea></c:chart></c:chartSpace>"#
        )
    }

    fn table_of(series: &[Vec<(usize, String)>]) -> (ChartPart, Table) {
        let data = read(&chart_of(series), "c.xml", &Limits::default()).unwrap_or_default();
        let table = data.to_table().unwrap_or_default();
        (data, table)
    }

    #[test]
    fn a_point_given_twice_shows_its_first_value_and_nothing_is_left_out() {
        let (data, table) = table_of(&[vec![(1, "7".into()), (0, "4".into()), (1, "9".into())]]);
        assert_eq!(
            texts(&table),
            [vec!["", "Series 1"], vec!["1", "4"], vec!["2", "7"]]
        );
        assert_eq!(data.left_out(), None);
        let bar = read(BAR, "c.xml", &Limits::default()).unwrap_or_default();
        assert_eq!(bar.left_out(), None);
    }

    #[test]
    fn points_past_the_bound_are_left_out_and_said() {
        let long: Vec<(usize, String)> = (0..MAX_POINTS + 5).map(|i| (i, i.to_string())).collect();
        let (data, table) = table_of(&[long]);
        assert_eq!(table.rows.len(), MAX_POINTS + 1);
        let last = texts(&table).pop().unwrap_or_default();
        assert_eq!(last, [MAX_POINTS.to_string(), (MAX_POINTS - 1).to_string()]);
        assert_eq!(
            data.left_out().as_deref(),
            Some("points past the first 10000")
        );
    }

    #[test]
    fn far_apart_points_in_many_series_stay_within_the_cells_bound() {
        // 300 series of one point each, 9,999 rows apart from the first: three million cells
        // from a part of a few kilobytes.
        let series: Vec<Vec<(usize, String)>> = (0..300)
            .map(|k| vec![(if k == 0 { 9_999 } else { 0 }, k.to_string())])
            .collect();
        let (data, table) = table_of(&series);
        let cells: usize = table.rows.iter().map(|r| r.cells.len()).sum();
        assert!(cells <= MAX_CELLS + 301, "{cells} cells");
        assert!(!table.rows[1].cells[2].blocks.is_empty());
        let points = MAX_CELLS / 301;
        assert_eq!(table.rows.len(), points + 1);
        assert_eq!(
            data.left_out(),
            Some(format!("points past the first {points}"))
        );
    }

    #[test]
    fn series_past_the_columns_are_left_out_and_said() {
        let series: Vec<Vec<(usize, String)>> = (0..MAX_TABLE_COLUMNS + 3)
            .map(|k| vec![(0, k.to_string())])
            .collect();
        let (data, table) = table_of(&series);
        assert_eq!(table.rows[0].cells.len(), MAX_TABLE_COLUMNS);
        assert_eq!(
            data.left_out().as_deref(),
            Some("series past the first 999")
        );
    }
}
