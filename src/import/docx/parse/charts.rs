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
    match slot {
        Slot::Name => ser.name.push_str(&s),
        Slot::Categories if ser.categories.len() < MAX_POINTS => ser.categories.push((point, s)),
        Slot::Values if ser.values.len() < MAX_POINTS => ser.values.push((point, s)),
        Slot::Sizes if ser.sizes.len() < MAX_POINTS => ser.sizes.push((point, s)),
        _ => {}
    }
}

impl ChartPart {
    /// The data table: a header row (an empty corner, then the series names), then one row per
    /// category with each series' value; the title is the caption. `None` without any series.
    pub fn to_table(&self) -> Option<Table> {
        if self.series.is_empty() {
            return None;
        }
        let series = &self.series[..self.series.len().min(MAX_TABLE_COLUMNS - 1)];
        let points = series
            .iter()
            .flat_map(|s| s.values.iter().chain(&s.categories).map(|(i, _)| *i + 1))
            .max()
            .unwrap_or(0)
            .min(MAX_POINTS);
        let named = series.iter().find(|s| !s.categories.is_empty());
        let categories = (0..points)
            .map(|p| {
                named
                    .and_then(|s| s.categories.iter().find(|(i, _)| *i == p))
                    .map(|(_, c)| c.clone())
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| (p + 1).to_string())
            })
            .collect();
        let kind = if self.other {
            ChartKind::Other
        } else {
            ChartKind::from_plot(&self.kind, self.horizontal, &self.grouping)
        };
        let at = |list: &[(usize, String)], p: usize| {
            list.iter()
                .find(|(i, _)| *i == p)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let bubble = kind == ChartKind::Bubble;
        // A bubble chart's series each give two columns: values, then sizes.
        let series = if bubble {
            &series[..series.len().min((MAX_TABLE_COLUMNS - 1) / 2)]
        } else {
            series
        };
        let values = (0..points)
            .map(|p| {
                series
                    .iter()
                    .flat_map(|s| {
                        let size = bubble.then(|| at(&s.sizes, p));
                        std::iter::once(at(&s.values, p)).chain(size)
                    })
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
}
