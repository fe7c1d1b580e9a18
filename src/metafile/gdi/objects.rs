//! GDI objects (MS-WMF 2.2.1, MS-EMF 2.2): logical pens, brushes and fonts, and the stock
//! objects an index with the top bit set selects.

/// A logical pen (MS-WMF 2.2.1.3 LogPen, MS-EMF 2.2.20 LogPenEx).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pen {
    /// PenStyle bits (MS-WMF 2.1.1.23): dash style, end cap, join, geometric.
    pub style: u32,
    /// Width in logical units; 0 is one device pixel.
    pub width: f64,
    /// COLORREF.
    pub color: u32,
}

/// A logical brush (MS-WMF 2.2.2.10 LogBrush).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Brush {
    /// `false` for BS_NULL (nothing filled).
    pub visible: bool,
    /// COLORREF: the solid or hatch colour, or a pattern's mean colour.
    pub color: u32,
}

/// A logical font (MS-WMF 2.2.1.2 Font, MS-EMF 2.2.13 LogFont).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Font {
    /// lfHeight: negative for the em height, positive for the cell height, 0 for the default.
    pub height: f64,
    /// lfEscapement: the baseline's angle, tenths of a degree counterclockwise.
    pub escapement: f64,
    pub weight: u32,
    pub italic: bool,
    pub underline: bool,
    pub strike: bool,
    pub charset: u8,
    pub pitch_family: u8,
    pub face: String,
}

impl Default for Font {
    fn default() -> Self {
        Font {
            height: 0.0,
            escapement: 0.0,
            weight: 400,
            italic: false,
            underline: false,
            strike: false,
            charset: 0,
            pitch_family: 0,
            face: String::new(),
        }
    }
}

/// An entry of the object table.
#[derive(Debug, Clone)]
pub(crate) enum Object {
    Pen(Pen),
    Brush(Brush),
    Font(Font),
    /// Palettes, regions, colour spaces: held so indexes stay right; not drawn.
    Other,
}

/// The flat colour standing in for a BS_HATCHED brush (MS-WMF 2.1.1.12): its lines cover
/// about half the area, so the hatch colour mixed half and half with white (the usual page).
pub(crate) fn hatch_tint(color: u32) -> u32 {
    let mix = |shift: u32| ((((color >> shift) & 0xff) + 0xff) / 2) << shift;
    mix(0) | mix(8) | mix(16)
}

/// A stock object (MS-EMF 2.1.31 StockObject), selected by an index with the top bit set.
pub(crate) fn stock_object(index: u32) -> Option<Object> {
    let brush = |color| {
        Object::Brush(Brush {
            visible: true,
            color,
        })
    };
    let pen = |color, style| {
        Object::Pen(Pen {
            style,
            width: 0.0,
            color,
        })
    };
    Some(match index & 0x7fff_ffff {
        0 => brush(0xff_ffff),
        1 => brush(0xc0_c0c0),
        2 => brush(0x80_8080),
        3 => brush(0x40_4040),
        4 => brush(0),
        5 => Object::Brush(Brush {
            visible: false,
            color: 0,
        }),
        6 => pen(0xff_ffff, 0),
        7 => pen(0, 0),
        8 => pen(0, 5),
        10 | 11 | 16 => Object::Font(Font {
            face: "Courier New".into(),
            pitch_family: 0x31,
            ..Font::default()
        }),
        12..=14 | 17 => Object::Font(Font::default()),
        18 => brush(0xff_ffff),
        19 => pen(0, 0),
        _ => return None,
    })
}

/// The kind of elliptic arc record (MS-EMF 2.3.5.2 Arc, .4 Chord, .18 Pie, .3 ArcTo).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ArcKind {
    Arc,
    ArcTo,
    Chord,
    Pie,
}
