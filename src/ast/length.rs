//! Lengths the tree keeps as strings (`Row::min_height`, `Cell::font_size`: `6.3mm`, `9.75pt`)
//! and how they map to formats that store whole units, such as Word's twips (1/20 pt) and
//! half-points. Shared by the writers, the readers and the round-trip tests so all three round
//! the same way.

/// English Metric Units (DrawingML's unit) per pixel at 96 per inch: a picture with no size of
/// its own is shown at this scale.
pub const EMU_PER_PX: u64 = 9_525;
/// EMU per twip (914,400 EMU per inch, 1,440 twips per inch).
pub const EMU_PER_TWIP: u64 = 635;
/// EMU per inch.
pub const EMU_PER_INCH: u64 = 914_400;

/// A CSS-like length (`6.3mm`, `12pt`, `1cm`, `0.5in`, `1pc`, `20px`; a bare number is points)
/// in twips, not rounded. `None` when it is no finite length in a known unit.
pub fn twips(len: &str) -> Option<f64> {
    let len = len.trim();
    let split = len
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(len.len());
    let (num, unit) = len.split_at(split);
    let v: f64 = num.trim().parse().ok()?;
    let per = match unit.trim() {
        "mm" => 1440.0 / 25.4,
        "cm" => 1440.0 / 2.54,
        "in" => 1440.0,
        "pt" | "" => 20.0,
        "pc" | "pi" => 240.0,
        // CSS pixels, 96 per inch.
        "px" => 15.0,
        _ => return None,
    };
    let t = v * per;
    t.is_finite().then_some(t)
}

/// `twips` written in points, as short as exact: 360 → `18pt`, 357 → `17.85pt`, 195 → `9.75pt`.
/// A twip is a twentieth of a point, so two decimals always suffice.
pub fn points(twips: i64) -> String {
    let hundredths = twips * 5;
    let (whole, frac) = (hundredths / 100, (hundredths % 100).abs());
    let sign = if hundredths < 0 && whole == 0 {
        "-"
    } else {
        ""
    };
    match frac {
        0 => format!("{sign}{whole}pt"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}pt", f / 10),
        f => format!("{sign}{whole}.{f:02}pt"),
    }
}

/// `len` rounded to a whole number of `step`-twip units, written in points: what comes back
/// from a format storing that unit (`step` 1 for twips, 10 for half-points). `None` when `len` is
/// no length.
pub fn rounded_points(len: &str, step: u32) -> Option<String> {
    let step = f64::from(step.max(1));
    let units = (twips(len)? / step).round();
    (units.abs() < 1.0e12).then(|| points(units as i64 * step as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_and_write() {
        assert_eq!(twips("12pt"), Some(240.0));
        assert_eq!(twips("1in"), Some(1440.0));
        assert_eq!(twips("10"), Some(200.0));
        assert_eq!(twips("x"), None);
        assert_eq!(twips("3em"), None);
        assert_eq!(twips("1e400pt"), None);
        assert_eq!(points(360), "18pt");
        assert_eq!(points(357), "17.85pt");
        assert_eq!(points(195), "9.75pt");
        assert_eq!(points(190), "9.5pt");
        assert_eq!(points(-5), "-0.25pt");
        assert_eq!(
            rounded_points("6.348758718967975mm", 1).as_deref(),
            Some("18pt")
        );
        assert_eq!(
            rounded_points("9.750243756093903pt", 10).as_deref(),
            Some("10pt")
        );
        assert_eq!(rounded_points("9.5pt", 10).as_deref(), Some("9.5pt"));
        assert_eq!(rounded_points("wide", 1), None);
    }
}
