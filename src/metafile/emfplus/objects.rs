//! EMF+ objects (MS-EMFPLUS 2.2.1) read from EmfPlusObject records, gathered over
//! continuation records when they are large.

use image::RgbaImage;

use super::EmfPlus;
use super::geometry::{bad, points, rect_f};
use crate::metafile::dib;
use crate::metafile::gdi::Gdi;
use crate::metafile::geom::Pt;
use crate::metafile::reader::{Reader, utf16};
use crate::metafile::svg::Paint;
use crate::metafile::{MediaKind, MetafileError};

/// Bytes one object may gather over continuation records, at most.
pub(super) const MAX_OBJECT_BYTES: usize = 64 << 20;
/// Nodes of one region, at most (regions are trees).
pub(super) const MAX_REGION_NODES: usize = 1024;
/// Depth of a region tree, at most.
pub(super) const MAX_REGION_DEPTH: usize = 32;

/// A GDI+ pen (MS-EMFPLUS 2.2.1.7).
#[derive(Debug, Clone)]
pub(super) struct PPen {
    pub(super) width: f64,
    /// GraphicsUnit of the width (0: world units).
    pub(super) unit: u32,
    pub(super) paint: Paint,
    /// Dash lengths in pen widths.
    pub(super) dash: Vec<f64>,
    pub(super) cap: &'static str,
    pub(super) join: &'static str,
}

/// A GDI+ path (MS-EMFPLUS 2.2.1.6): points in world units and their PathPointType bytes.
#[derive(Debug, Clone, Default)]
pub(super) struct PPath {
    pub(super) pts: Vec<Pt>,
    pub(super) types: Vec<u8>,
}

/// A region (MS-EMFPLUS 2.2.1.8), reduced to what a clip path can be.
#[derive(Debug, Clone)]
pub(super) enum Region {
    Infinite,
    Empty,
    /// Figures in world units (paths, rectangles); unions and intersections approximated.
    Shapes(Vec<PPath>),
}

/// A GDI+ font (MS-EMFPLUS 2.2.1.3).
#[derive(Debug, Clone)]
pub(super) struct PFont {
    pub(super) em: f64,
    pub(super) unit: u32,
    pub(super) style: u32,
    pub(super) family: String,
}

#[derive(Debug, Clone)]
pub(super) enum PObj {
    Brush(Paint),
    Pen(PPen),
    Path(PPath),
    Region(Region),
    Bitmap(RgbaImage),
    /// A metafile drawn as SVG.
    Metafile(String),
    Font(PFont),
    /// StringAlignment and line alignment (MS-EMFPLUS 2.2.1.9).
    Format(u32, u32),
    Other,
}

impl EmfPlus {
    pub(super) fn object(
        &mut self,
        gdi: &mut Gdi,
        flags: u16,
        mut r: Reader,
    ) -> Result<(), MetafileError> {
        let id = (flags & 0xff) as usize;
        let kind = ((flags >> 8) & 0x7f) as u32;
        if id >= 64 {
            return Err(bad("object", "index past 63"));
        }
        let data: Vec<u8>;
        let bytes: &[u8] = if flags & 0x8000 != 0 {
            // Continued object (2.3.5.1): TotalObjectSize, then this part.
            let total = r.u32("object total size")? as usize;
            let part = r.bytes(r.remaining(), "object part")?;
            let mut buf = match self.partial.take() {
                Some((i, k, buf, _)) if i == id && k == kind => buf,
                _ => Vec::new(),
            };
            if total > MAX_OBJECT_BYTES || buf.len() + part.len() > MAX_OBJECT_BYTES {
                return Err(MetafileError::Limit {
                    what: "EMF+ object bytes",
                    limit: MAX_OBJECT_BYTES as u64,
                });
            }
            buf.extend_from_slice(part);
            if buf.len() < total {
                self.partial = Some((id, kind, buf, total));
                return Ok(());
            }
            data = buf;
            &data
        } else {
            self.partial = None;
            r.data()
        };
        let mut r = Reader::new(bytes, 0);
        let obj = match kind {
            1 => PObj::Brush(read_brush(&mut r)?),
            2 => PObj::Pen(read_pen(&mut r)?),
            3 => PObj::Path(read_path(&mut r)?),
            4 => {
                r.skip(4, "region version")?;
                let n = r.u32("region node count")? as usize;
                let mut budget = n.min(MAX_REGION_NODES) + 1;
                PObj::Region(read_region(&mut r, 0, &mut budget)?)
            }
            5 => read_image(&mut r, gdi)?,
            6 => {
                r.skip(4, "font version")?;
                let em = r.f32("font size")?;
                let unit = r.u32("font unit")?;
                let style = r.u32("font style")?;
                r.skip(4, "reserved")?;
                let n = r.u32("family length")? as usize;
                let family = utf16(r.bytes((n * 2).min(r.remaining()), "family")?);
                PObj::Font(PFont {
                    em,
                    unit,
                    style,
                    family,
                })
            }
            7 => {
                r.skip(12, "string format")?;
                PObj::Format(r.u32("string alignment")?, r.u32("line alignment")?)
            }
            _ => PObj::Other,
        };
        self.objects[id] = Some(obj);
        Ok(())
    }
}

pub(super) fn read_argb(r: &mut Reader) -> Result<Paint, MetafileError> {
    Ok(Paint::argb(r.u32("colour")?))
}

/// Two ARGB colours mixed half and half, alpha too.
pub(super) fn mix_argb(a: u32, b: u32) -> u32 {
    let mix = |s: u32| ((((a >> s) & 0xff) + ((b >> s) & 0xff)) / 2) << s;
    mix(24) | mix(16) | mix(8) | mix(0)
}

/// EmfPlusBrush (2.2.1.1): solid and hatch colours; gradients by their mean colour.
pub(super) fn read_brush(r: &mut Reader) -> Result<Paint, MetafileError> {
    r.skip(4, "brush version")?;
    Ok(match r.u32("brush type")? {
        0 => read_argb(r)?,
        1 => {
            // A hatch: its lines cover about half the area, fore colour over back colour.
            r.skip(4, "hatch style")?;
            let (fore, back) = (r.u32("colour")?, r.u32("colour")?);
            Paint::argb(mix_argb(fore, back))
        }
        3 => {
            r.skip(8, "gradient flags")?;
            read_argb(r)?
        }
        4 => {
            r.skip(8 + 16, "gradient flags and rectangle")?;
            let (a, b) = (r.u32("colour")?, r.u32("colour")?);
            Paint::argb(mix_argb(a, b))
        }
        _ => Paint {
            rgb: 0x80_8080,
            opacity: 1.0,
        },
    })
}

/// EmfPlusPen (2.2.1.7) with its optional data (2.2.2.25) and brush.
pub(super) fn read_pen(r: &mut Reader) -> Result<PPen, MetafileError> {
    r.skip(8, "pen version and type")?;
    let flags = r.u32("pen flags")?;
    let unit = r.u32("pen unit")?;
    let width = r.f32("pen width")?.abs();
    let mut cap = "butt";
    let mut join = "miter";
    let mut style = 0;
    let mut custom = Vec::new();
    if flags & 0x01 != 0 {
        r.skip(24, "pen transform")?;
    }
    if flags & 0x02 != 0 {
        cap = match r.i32("start cap")? {
            1 => "square",
            2 => "round",
            _ => "butt",
        };
    }
    if flags & 0x04 != 0 {
        r.skip(4, "end cap")?;
    }
    if flags & 0x08 != 0 {
        join = match r.u32("line join")? {
            1 => "bevel",
            2 => "round",
            _ => "miter",
        };
    }
    if flags & 0x10 != 0 {
        r.skip(4, "miter limit")?;
    }
    if flags & 0x20 != 0 {
        style = r.i32("line style")?;
    }
    if flags & 0x40 != 0 {
        r.skip(4, "dash cap")?;
    }
    if flags & 0x80 != 0 {
        r.skip(4, "dash offset")?;
    }
    if flags & 0x100 != 0 {
        let n = r.u32("dash count")?;
        let n = r.count(n, 4, "dashes")?;
        for _ in 0..n {
            custom.push(r.f32("dash")?.abs());
        }
    }
    if flags & 0x200 != 0 {
        r.skip(4, "alignment")?;
    }
    if flags & 0x400 != 0 {
        let n = r.u32("compound count")?;
        let n = r.count(n, 4, "compound line")?;
        r.skip(n * 4, "compound line")?;
    }
    for bit in [0x800, 0x1000] {
        if flags & bit != 0 {
            let n = r.u32("custom cap size")? as usize;
            r.skip(n, "custom cap")?;
        }
    }
    let paint = read_brush(r)?;
    let dash = match style {
        1 => vec![3.0, 1.0],
        2 => vec![1.0, 1.0],
        3 => vec![3.0, 1.0, 1.0, 1.0],
        4 => vec![3.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        5 if custom.iter().any(|&v| v > 0.0) => custom,
        _ => Vec::new(),
    };
    Ok(PPen {
        width,
        unit,
        paint,
        dash,
        cap,
        join,
    })
}

/// EmfPlusPath (2.2.1.6).
pub(super) fn read_path(r: &mut Reader) -> Result<PPath, MetafileError> {
    r.skip(4, "path version")?;
    let n = r.u32("path point count")?;
    let flags = r.u32("path flags")?;
    let pts = points(r, n, (flags & 0xffff) as u16)?;
    let mut types = Vec::with_capacity(pts.len());
    if flags & 0x1000 != 0 {
        // Run-length encoded types (2.2.2.32): a count byte (low 6 bits), then the type.
        while types.len() < pts.len() && r.remaining() >= 2 {
            let run = (r.u8("type run")? & 0x3f) as usize;
            let t = r.u8("point type")?;
            types.extend(std::iter::repeat_n(t, run.min(pts.len() - types.len())));
        }
    } else {
        let b = r.bytes(pts.len().min(r.remaining()), "point types")?;
        types.extend_from_slice(b);
    }
    Ok(PPath { pts, types })
}

/// A region node (2.2.2.40), recursively, within a node budget and depth.
pub(super) fn read_region(
    r: &mut Reader,
    depth: usize,
    budget: &mut usize,
) -> Result<Region, MetafileError> {
    if depth > MAX_REGION_DEPTH || *budget == 0 {
        return Err(MetafileError::Limit {
            what: "region nodes",
            limit: MAX_REGION_NODES as u64,
        });
    }
    *budget -= 1;
    Ok(match r.u32("region node type")? {
        0x1000_0000 => {
            let rc = rect_f(r)?;
            let pts = vec![
                Pt::new(rc.x0, rc.y0),
                Pt::new(rc.x1, rc.y0),
                Pt::new(rc.x1, rc.y1),
                Pt::new(rc.x0, rc.y1),
            ];
            Region::Shapes(vec![PPath {
                pts,
                types: vec![0, 1, 1, 0x81],
            }])
        }
        0x1000_0001 => {
            let n = r.u32("region path size")? as usize;
            let mut sub = r.sub(n.min(r.remaining()), "region path")?;
            Region::Shapes(vec![read_path(&mut sub)?])
        }
        0x1000_0002 => Region::Empty,
        0x1000_0003 => Region::Infinite,
        kind @ 1..=5 => {
            let left = read_region(r, depth + 1, budget)?;
            let right = read_region(r, depth + 1, budget)?;
            match (kind, left, right) {
                // Intersect (1) with everything, union (2) with nothing: the other side.
                (1, Region::Infinite, x) | (1, x, Region::Infinite) => x,
                (2, Region::Empty, x) | (2, x, Region::Empty) => x,
                (2, Region::Shapes(mut a), Region::Shapes(b)) => {
                    a.extend(b);
                    Region::Shapes(a)
                }
                // Exclusions and intersections of shapes: the first shape, approximately.
                (_, x, _) => x,
            }
        }
        0 => {
            let left = read_region(r, depth + 1, budget)?;
            let _ = read_region(r, depth + 1, budget)?;
            left
        }
        other => return Err(bad("region node", &format!("type {other:#x}"))),
    })
}

/// EmfPlusImage (2.2.1.4): a bitmap (pixels or an encoded file) or a metafile.
pub(super) fn read_image(r: &mut Reader, gdi: &mut Gdi) -> Result<PObj, MetafileError> {
    r.skip(4, "image version")?;
    match r.u32("image type")? {
        1 => {
            let (w, h) = (r.i32("width")?, r.i32("height")?);
            let stride = r.i32("stride")? as i64;
            let format = r.u32("pixel format")?;
            let compressed = r.u32("bitmap type")? == 1;
            let data = r.bytes(r.remaining(), "bitmap data")?;
            let img = if compressed {
                dib::decode_file(data, &mut gdi.budget)?
            } else {
                if w <= 0 || h <= 0 {
                    return Err(bad("bitmap", "empty"));
                }
                dib::decode_gdiplus_pixels(
                    w as u32,
                    h as u32,
                    stride,
                    format,
                    data,
                    &mut gdi.budget,
                )?
            };
            Ok(PObj::Bitmap(img))
        }
        2 => {
            let kind = r.u32("metafile type")?;
            let n = r.u32("metafile size")? as usize;
            let data = r.bytes(n.min(r.remaining()), "metafile")?;
            let media = if kind <= 2 {
                MediaKind::Wmf
            } else {
                MediaKind::Emf
            };
            let mut budget = gdi.budget.clone();
            budget.depth += 1;
            let svg = crate::metafile::to_svg_within(data, media, &mut budget)?;
            gdi.budget.pixels = budget.pixels;
            Ok(PObj::Metafile(svg.text))
        }
        _ => Ok(PObj::Other),
    }
}
