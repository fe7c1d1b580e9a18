//! Decoding a picture's pixels with the `image` crate: the one way every path that needs pixels
//! (the PDF writer, the Word writer's compressed pictures, the picture routines, a metafile's
//! bitmaps) asks for them, so each is bounded by its caller's pixel limit and kept from the
//! decoder's known panics alike. Telling a picture from its first bytes, without decoding, is
//! [`crate::picture`]'s.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader};

/// The decoder's limits for a picture of at most `max_pixels` pixels: four bytes a pixel is all
/// it may allocate, whatever the header said (a frame may be larger than its header).
pub(crate) fn within(max_pixels: u64) -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(max_pixels.saturating_mul(4));
    limits
}

/// The pixels of `bytes`, read as `format` (or as its first bytes say, when `None`) within
/// `limits`, or why they cannot be had.
pub(crate) fn decode(
    bytes: &[u8],
    format: Option<ImageFormat>,
    limits: image::Limits,
) -> Result<DynamicImage, String> {
    if let Some(why) = png_decoder_trap(bytes) {
        return Err(why.into());
    }
    let mut reader = match format {
        Some(format) => ImageReader::with_format(Cursor::new(bytes), format),
        None => ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| e.to_string())?,
    };
    reader.limits(limits);
    reader.decode().map_err(|e| e.to_string())
}

/// Why the `image` crate must not be asked to decode the PNG `b`: a palette picture whose
/// `PLTE` chunk is not whole RGB triples makes its PNG decoder (png 0.18.1) panic where it
/// should fail (image-rs/image-png#694, fixed upstream but not released). `None` for every
/// other file, which the decoder judges itself. Walks the chunk lengths only; a cut or
/// malformed chunk list ends the walk (the decoder reports it).
fn png_decoder_trap(b: &[u8]) -> Option<&'static str> {
    // IHDR comes first; its tenth byte is the colour type, 3 for a palette.
    let indexed = b.starts_with(b"\x89PNG\r\n\x1a\n")
        && b.get(12..16) == Some(b"IHDR")
        && b.get(25) == Some(&3);
    if !indexed {
        return None;
    }
    let mut at = 8usize;
    // Below the length, so the offsets read next cannot overflow.
    while at < b.len() {
        let len = u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?);
        let kind = b.get(at + 4..at + 8)?;
        if kind == b"PLTE" && len % 3 != 0 {
            return Some("its palette is not whole colours");
        }
        if kind == b"IEND" {
            return None;
        }
        at = at
            .checked_add(12)?
            .checked_add(usize::try_from(len).ok()?)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG's signature and chunks (CRCs left zero: the walk reads lengths only).
    fn chunks(color: u8, list: &[(&[u8; 4], usize)]) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = vec![0, 0, 0, 1, 0, 0, 0, 1, 8, color, 0, 0, 0];
        for (kind, len) in std::iter::once((b"IHDR", 13)).chain(list.iter().copied()) {
            b.extend_from_slice(&(len as u32).to_be_bytes());
            b.extend_from_slice(kind);
            let data = if kind == b"IHDR" {
                std::mem::take(&mut ihdr)
            } else {
                vec![7; len]
            };
            b.extend_from_slice(&data);
            b.extend_from_slice(&[0; 4]);
        }
        b
    }

    #[test]
    fn a_palette_of_broken_colours_is_kept_from_the_png_decoder() {
        for bad in [4, 5, 7, 8, 766] {
            let png = chunks(3, &[(b"PLTE", bad), (b"IDAT", 2), (b"IEND", 0)]);
            assert!(png_decoder_trap(&png).is_some(), "{bad} bytes");
        }
        let whole = chunks(3, &[(b"PLTE", 6), (b"IDAT", 2), (b"IEND", 0)]);
        assert_eq!(png_decoder_trap(&whole), None);
        // An RGB picture's suggested palette is not expanded; cut or odd files are left to
        // the decoder, without a panic here.
        assert_eq!(png_decoder_trap(&chunks(2, &[(b"PLTE", 4)])), None);
        let bad = chunks(3, &[(b"tEXt", 3), (b"PLTE", 4)]);
        for n in 0..bad.len() {
            let _ = png_decoder_trap(&bad[..n]);
        }
        assert!(png_decoder_trap(&bad).is_some());
        let mut huge = chunks(3, &[]);
        huge.extend_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(png_decoder_trap(&huge), None);
    }
}
