//! Charts (`c:chartSpace` parts, ECMA-376 §21.2): the title and the cached data of every series
//! (`c:tx` name, `c:cat`/`c:xVal` categories, `c:val`/`c:yVal` values from their `c:strCache` /
//! `c:numCache`), which the converter keeps as a data table. The drawing is not kept.

use quick_xml::events::Event;

use super::xmlutil::{attr, element_text};
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::XmlReader;

/// One series: its name and its points (index → text) for categories and values.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Series {
    /// `c:tx`.
    pub name: String,
    /// Category labels by point index.
    pub categories: Vec<(usize, String)>,
    /// Values by point index, as cached.
    pub values: Vec<(usize, String)>,
}

/// A chart's data.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ChartData {
    /// `c:chart/c:title` text.
    pub title: Option<String>,
    /// The chart type elements met (`barChart`, `pieChart`, …).
    pub kinds: Vec<String>,
    /// Every series of every plot, in order.
    pub series: Vec<Series>,
}

/// Which part of a series the reader is in.
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Name,
    Categories,
    Values,
}

/// Points kept per series: a chart's cache is small; a hostile one is cut here.
const MAX_POINTS: usize = 10_000;

/// Reads a chart part.
pub fn read(xml: &str, part: &str, limits: &Limits) -> Result<ChartData> {
    let mut r = XmlReader::new(xml, part, limits);
    let mut data = ChartData::default();
    // Open elements that matter, with the depth they opened at.
    let mut title_depth: Option<usize> = None;
    // The depth of `c:chart`: only its own `c:title` is the chart's (axes have titles too).
    let mut chart_depth: Option<usize> = None;
    let mut title = String::new();
    let mut series: Option<(Series, usize)> = None;
    let mut slot: Option<(Slot, usize)> = None;
    let mut point: Option<usize> = None;
    loop {
        match r.next_event()? {
            Event::Start(e) => {
                let depth = r.depth();
                match e.local_name().as_ref() {
                    "chart" if chart_depth.is_none() => chart_depth = Some(depth),
                    "title" if chart_depth.is_some_and(|c| depth == c + 1) => {
                        title_depth = Some(depth)
                    }
                    "t" if title_depth.is_some() => {
                        if !title.is_empty() {
                            title.push(' ');
                        }
                        title.push_str(&element_text(&mut r)?);
                    }
                    name if name.ends_with("Chart") && series.is_none() => {
                        data.kinds.push(name.to_string())
                    }
                    "ser" if series.is_none() => series = Some((Series::default(), depth)),
                    "tx" if series.is_some() && slot.is_none() => slot = Some((Slot::Name, depth)),
                    "cat" | "xVal" if series.is_some() => slot = Some((Slot::Categories, depth)),
                    "val" | "yVal" if series.is_some() => slot = Some((Slot::Values, depth)),
                    "pt" if slot.is_some() => {
                        point = attr(&e, "idx").and_then(|v| v.trim().parse().ok());
                    }
                    "v" if slot.is_some() => {
                        let text = element_text(&mut r)?;
                        if let (Some((s, _)), Some((which, _))) = (series.as_mut(), slot) {
                            match which {
                                Slot::Name => s.name.push_str(&text),
                                Slot::Categories if s.categories.len() < MAX_POINTS => {
                                    s.categories.push((point.unwrap_or(0), text))
                                }
                                Slot::Values if s.values.len() < MAX_POINTS => {
                                    s.values.push((point.unwrap_or(0), text))
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::End(_) => {
                let depth = r.depth();
                if slot.is_some_and(|(_, d)| depth < d) {
                    slot = None;
                }
                if series.as_ref().is_some_and(|(_, d)| depth < *d) {
                    if let Some((s, _)) = series.take() {
                        data.series.push(s);
                    }
                }
                if title_depth.is_some_and(|d| depth < d) {
                    title_depth = None;
                    let t = title.split_whitespace().collect::<Vec<_>>().join(" ");
                    if !t.is_empty() && data.title.is_none() {
                        data.title = Some(t);
                    }
                    title.clear();
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_series_and_cached_points() {
        let xml = r#"<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>2024</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Q1</c:v></c:pt><c:pt idx="1"><c:v>Q2</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode><c:pt idx="1"><c:v>7</c:v></c:pt><c:pt idx="0"><c:v>4.5</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>"#;
        let d = read(xml, "word/charts/chart1.xml", &Limits::default()).unwrap();
        assert_eq!(d.title.as_deref(), Some("Sales"));
        assert_eq!(d.kinds, ["barChart"]);
        assert_eq!(d.series.len(), 1);
        assert_eq!(d.series[0].name, "2024");
        assert_eq!(
            d.series[0].categories,
            [(0, "Q1".to_string()), (1, "Q2".to_string())]
        );
        assert_eq!(
            d.series[0].values,
            [(1, "7".to_string()), (0, "4.5".to_string())]
        );
    }
}
