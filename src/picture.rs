//! Pictures told from their first bytes: the kind ([`MediaKind`]) and, where the header holds
//! it, the pixel size, never by decoding. The media store sniffs every picture it takes with
//! [`sniff`]; the metafile converter and the PDF writer use it too, so it lives outside the
//! tree.

use serde::{Deserialize, Serialize};

/// An image file type, recognised from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// GIF.
    Gif,
    /// Windows bitmap.
    Bmp,
    /// WebP.
    Webp,
    /// TIFF.
    Tiff,
    /// Enhanced Windows metafile (vector; no codec: kept as bytes).
    Emf,
    /// Windows metafile (vector; no codec: kept as bytes).
    Wmf,
    /// SVG (text).
    Svg,
    /// Anything else.
    Unknown,
}

impl MediaKind {
    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            MediaKind::Png => "image/png",
            MediaKind::Jpeg => "image/jpeg",
            MediaKind::Gif => "image/gif",
            MediaKind::Bmp => "image/bmp",
            MediaKind::Webp => "image/webp",
            MediaKind::Tiff => "image/tiff",
            MediaKind::Emf => "image/emf",
            MediaKind::Wmf => "image/wmf",
            MediaKind::Svg => "image/svg+xml",
            MediaKind::Unknown => "application/octet-stream",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            MediaKind::Png => "png",
            MediaKind::Jpeg => "jpg",
            MediaKind::Gif => "gif",
            MediaKind::Bmp => "bmp",
            MediaKind::Webp => "webp",
            MediaKind::Tiff => "tif",
            MediaKind::Emf => "emf",
            MediaKind::Wmf => "wmf",
            MediaKind::Svg => "svg",
            MediaKind::Unknown => "bin",
        }
    }

    /// Whether browsers and most writers can show it as-is.
    pub fn is_web_image(self) -> bool {
        matches!(
            self,
            MediaKind::Png | MediaKind::Jpeg | MediaKind::Gif | MediaKind::Webp | MediaKind::Svg
        )
    }
}

/// Recognises the file type and, where the header holds it, the pixel size.
/// Reads only header bytes; any truncation gives `None` for the size, never a panic.
pub fn sniff(b: &[u8]) -> (MediaKind, Option<(u32, u32)>) {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        // IHDR is the first chunk: width and height at bytes 16..24.
        return (MediaKind::Png, be32(b, 16).zip(be32(b, 20)));
    }
    if b.starts_with(&[0xFF, 0xD8]) {
        return (MediaKind::Jpeg, jpeg_frame(b).map(|f| (f.width, f.height)));
    }
    if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        return (
            MediaKind::Gif,
            le16(b, 6)
                .zip(le16(b, 8))
                .map(|(w, h)| (w.into(), h.into())),
        );
    }
    if b.starts_with(b"BM") && b.len() >= 26 {
        let w = le32(b, 18);
        // Height is signed: negative means top-down rows.
        let h = le32(b, 22).map(|h| (h as i32).unsigned_abs());
        return (MediaKind::Bmp, w.zip(h));
    }
    if b.len() >= 12 && &b[0..4] == b"RIFF" && &b[8..12] == b"WEBP" {
        return (MediaKind::Webp, webp_size(b));
    }
    if b.starts_with(b"II*\0") || b.starts_with(b"MM\0*") {
        return (MediaKind::Tiff, None);
    }
    if b.len() >= 44 && le32(b, 0) == Some(1) && &b[40..44] == b" EMF" {
        return (MediaKind::Emf, emf_size(b));
    }
    // Placeable, or a bare META_HEADER of either type: in memory (1) or on disk (2).
    if b.starts_with(&[0xD7, 0xCD, 0xC6, 0x9A]) {
        return (MediaKind::Wmf, placeable_wmf_size(b));
    }
    if b.starts_with(&[0x01, 0x00, 0x09, 0x00]) || b.starts_with(&[0x02, 0x00, 0x09, 0x00]) {
        return (MediaKind::Wmf, None);
    }
    let head = &b[..b.len().min(512)];
    let head = String::from_utf8_lossy(head);
    if head.contains("<svg") {
        return (MediaKind::Svg, None);
    }
    (MediaKind::Unknown, None)
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}
/// A metafile's natural size in CSS pixels (96 per inch), its "pixel size": `mm` wide and
/// high, when both are sensible.
fn metafile_px(width_mm: f64, height_mm: f64) -> Option<(u32, u32)> {
    let px = |mm: f64| (mm / 25.4 * 96.0).round();
    let (w, h) = (px(width_mm), px(height_mm));
    ((1.0..=100_000.0).contains(&w) && (1.0..=100_000.0).contains(&h))
        .then_some((w as u32, h as u32))
}

/// An EMF's frame (`rclFrame`, hundredths of a millimetre, bytes 24..40) as its size.
fn emf_size(b: &[u8]) -> Option<(u32, u32)> {
    let at = |o: usize| le32(b, o).map(|v| f64::from(v as i32));
    let (l, t, r, bt) = (at(24)?, at(28)?, at(32)?, at(36)?);
    metafile_px((r - l).abs() / 100.0, (bt - t).abs() / 100.0)
}

/// A placeable WMF's bounding box (bytes 6..14) in its units per inch (bytes 14..16).
fn placeable_wmf_size(b: &[u8]) -> Option<(u32, u32)> {
    let at = |o: usize| le16(b, o).map(|v| f64::from(v as i16));
    let (l, t, r, bt) = (at(6)?, at(8)?, at(10)?, at(12)?);
    let inch = f64::from(le16(b, 14)?);
    if inch <= 0.0 {
        return None;
    }
    metafile_px((r - l).abs() / inch * 25.4, (bt - t).abs() / inch * 25.4)
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}
fn be16(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_be_bytes([s[0], s[1]]))
}
fn le16(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
}

/// A JPEG's frame header (SOFn, ITU T.81 B.2.2): what the media store and the PDF writer read
/// of a JPEG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JpegFrame {
    /// Samples per line.
    pub width: u32,
    /// Lines.
    pub height: u32,
    /// Colour components (1 grey, 3 YCbCr or RGB, 4 CMYK), when the bytes reach that far.
    pub components: Option<u8>,
}

/// Whether the GIF `b` holds more than one frame, told by walking its blocks (GIF89a §§17–27)
/// without decoding any: a frame's pixels can be far more than its file (a 37-byte GIF can
/// promise a 65,535 × 65,535 frame). A cut or malformed file ends the walk with the frames
/// counted so far.
pub(crate) fn gif_is_animated(b: &[u8]) -> bool {
    // Skips a table of 3 × 2^(n+1) bytes when `flags` has its high bit.
    let table = |flags: u8| {
        if flags & 0x80 != 0 {
            3usize << ((flags & 0x07) + 1)
        } else {
            0
        }
    };
    // Skips data sub-blocks (a length byte, that many bytes) up to the empty one.
    let sub_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let len = usize::from(*b.get(at)?);
            at += 1 + len;
            if len == 0 {
                return Some(at);
            }
        }
    };
    if !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) {
        return false;
    }
    let Some(&screen_flags) = b.get(10) else {
        return false;
    };
    let mut at = 13 + table(screen_flags);
    let mut frames = 0;
    while let Some(&introducer) = b.get(at) {
        let next = match introducer {
            // An extension: its label, then sub-blocks.
            0x21 => sub_blocks(at + 2),
            // An image: its descriptor, local table, LZW code size, then sub-blocks.
            0x2C => {
                frames += 1;
                if frames > 1 {
                    return true;
                }
                b.get(at + 9)
                    .and_then(|&flags| sub_blocks(at + 10 + table(flags) + 1))
            }
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    false
}

/// The frame header of the JPEG `b`, found by walking its marker segments from the start: the
/// one walker of the crate, so the size the media store records and the test the PDF writer
/// makes before passing a JPEG through agree. Fill bytes (`FF FF`) and the markers without a
/// length (SOI, TEM, RSTn) are stepped over; a start of scan before any frame header, a
/// segment shorter than its own length field or bytes that are not a marker end the walk.
pub(crate) fn jpeg_frame(b: &[u8]) -> Option<JpegFrame> {
    let mut i = 2;
    while i + 4 <= b.len() {
        if b[i] != 0xFF {
            return None;
        }
        let marker = b[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        if matches!(marker, 0xD8 | 0x01 | 0xD0..=0xD7) {
            i += 2;
            continue;
        }
        let len = usize::from(be16(b, i + 2)?);
        // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // Length, precision, then height, width and the component count.
            let height = be16(b, i + 5)?;
            let width = be16(b, i + 7)?;
            return Some(JpegFrame {
                width: width.into(),
                height: height.into(),
                components: b.get(i + 9).copied(),
            });
        }
        if marker == 0xDA || len < 2 {
            return None;
        }
        i += 2 + len;
    }
    None
}

fn webp_size(b: &[u8]) -> Option<(u32, u32)> {
    match b.get(12..16)? {
        b"VP8 " => {
            let w = le16(b, 26)? & 0x3FFF;
            let h = le16(b, 28)? & 0x3FFF;
            Some((w.into(), h.into()))
        }
        b"VP8L" => {
            let bits = le32(b, 21)?;
            Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        b"VP8X" => {
            let w = u32::from_le_bytes([*b.get(24)?, *b.get(25)?, *b.get(26)?, 0]) + 1;
            let h = u32::from_le_bytes([*b.get(27)?, *b.get(28)?, *b.get(29)?, 0]) + 1;
            Some((w, h))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gif_frames_are_counted_without_decoding() {
        // Header, a 2×2 screen with a two-colour table, then `frames` images of one pixel
        // whose descriptor promises 65,535 × 65,535.
        let gif = |frames: usize| {
            let mut b = b"GIF89a\x02\x00\x02\x00\x80\x00\x00".to_vec();
            b.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
            // A graphic control extension, as animations have.
            b.extend_from_slice(&[0x21, 0xF9, 4, 0, 10, 0, 0, 0]);
            for _ in 0..frames {
                b.extend_from_slice(&[0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0]);
                b.extend_from_slice(&[2, 2, 0x44, 0x01, 0]);
            }
            b.push(0x3B);
            b
        };
        assert!(!gif_is_animated(&gif(1)));
        assert!(gif_is_animated(&gif(2)));
        assert!(!gif_is_animated(b"GIF89a"));
        let two = gif(2);
        for n in 0..two.len() {
            // Cut anywhere: no panic, and never two frames before the second is reached.
            let _ = gif_is_animated(&two[..n]);
        }
    }

    #[test]
    fn metafiles_have_their_frame_as_size() {
        // An EMF header whose frame is 100 × 50 mm.
        let mut emf = vec![0u8; 88];
        emf[0] = 1;
        for (at, v) in [(24usize, 0i32), (28, 0), (32, 10_000), (36, 5_000)] {
            emf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        emf[40..44].copy_from_slice(b" EMF");
        assert_eq!(sniff(&emf), (MediaKind::Emf, Some((378, 189))));
        // A placeable WMF two inches by one at 1440 units per inch.
        let mut wmf = vec![0xD7, 0xCD, 0xC6, 0x9A, 0, 0];
        for v in [0i16, 0, 2880, 1440, 1440] {
            wmf.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(sniff(&wmf), (MediaKind::Wmf, Some((192, 96))));
        // A frame of nothing is no size.
        emf[32..40].fill(0);
        assert_eq!(sniff(&emf), (MediaKind::Emf, None));
    }

    #[test]
    fn sniffs_png_header() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&300u32.to_be_bytes());
        png.extend_from_slice(&200u32.to_be_bytes());
        assert_eq!(sniff(&png), (MediaKind::Png, Some((300, 200))));
        // Truncated: type known, size not.
        assert_eq!(sniff(&png[..18]), (MediaKind::Png, None));
    }

    #[test]
    fn sniffs_jpeg_sof() {
        // SOI, APP0 (len 4), SOF0 with h=10, w=20.
        let jpg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00,
            0x0A, 0x00, 0x14, 0x03,
        ];
        assert_eq!(sniff(&jpg), (MediaKind::Jpeg, Some((20, 10))));
        assert_eq!(sniff(&jpg[..9]), (MediaKind::Jpeg, None));
    }

    #[test]
    fn jpeg_walk_steps_over_fill_and_bare_markers_and_stops_at_the_scan() {
        // SOI, fill byte, RST0 (no length), then SOF2: 8 bit, 2×3, 3 components.
        let jpg = [
            0xFF, 0xD8, 0xFF, 0xFF, 0xD0, 0xFF, 0xC2, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03,
            0x03,
        ];
        let frame = JpegFrame {
            width: 3,
            height: 2,
            components: Some(3),
        };
        assert_eq!(jpeg_frame(&jpg), Some(frame));
        // Cut before the component count: the size is known, the count is not.
        assert_eq!(
            jpeg_frame(&jpg[..14]),
            Some(JpegFrame {
                components: None,
                ..frame
            })
        );
        // A scan before any frame header: no frame, whatever the entropy-coded bytes hold.
        let scan = [
            0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00,
            0x03, 0x03,
        ];
        assert_eq!(jpeg_frame(&scan), None);
        assert_eq!(jpeg_frame(&[0xFF, 0xD8, 0x00]), None);
    }

    #[test]
    fn sniffs_gif_and_unknown() {
        assert_eq!(
            sniff(b"GIF89a\x10\x00\x20\x00"),
            (MediaKind::Gif, Some((16, 32)))
        );
        assert_eq!(sniff(b"hello"), (MediaKind::Unknown, None));
        assert_eq!(sniff(b""), (MediaKind::Unknown, None));
    }
}
