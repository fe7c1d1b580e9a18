//! The bundled fonts as a file of their own (`wasm/sdconv_fonts.bin`, made by
//! js/fonts-bundle.mjs): read back into the files the engine wants, by name.

use sdconv::Format;
use sdconv::fonts::BUNDLED_FONT_FILES;

/// Why a fonts file was refused.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The file is not a fonts bundle or is cut short.
    #[error("not an sdconv fonts file (or cut short)")]
    Malformed,
    /// A font the engine needs is not in it.
    #[error("the fonts file has no {0}")]
    Missing(&'static str),
}

/// Reads `n` bytes at `*at`, moving past them.
fn take<'a>(data: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], BundleError> {
    let end = at.checked_add(n).ok_or(BundleError::Malformed)?;
    let slice = data.get(*at..end).ok_or(BundleError::Malformed)?;
    *at = end;
    Ok(slice)
}

fn le(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .rev()
        .fold(0usize, |n, &b| (n << 8) | usize::from(b))
}

/// The files of [`BUNDLED_FONT_FILES`], in that order, from a fonts bundle.
pub fn unpack(data: &[u8]) -> Result<[Vec<u8>; 5], BundleError> {
    let mut at = 0;
    if take(data, &mut at, 8)? != b"SDCFONT1" {
        return Err(BundleError::Malformed);
    }
    let count = le(take(data, &mut at, 4)?);
    let mut found: [Option<Vec<u8>>; 5] = Default::default();
    for _ in 0..count {
        let name_len = le(take(data, &mut at, 2)?);
        let name = take(data, &mut at, name_len)?;
        let len = le(take(data, &mut at, 4)?);
        let file = take(data, &mut at, len)?;
        if let Some(i) = BUNDLED_FONT_FILES.iter().position(|n| n.as_bytes() == name) {
            found[i] = Some(file.to_vec());
        }
    }
    let mut files: [Vec<u8>; 5] = Default::default();
    for (i, file) in found.into_iter().enumerate() {
        files[i] = file.ok_or(BundleError::Missing(BUNDLED_FONT_FILES[i]))?;
    }
    Ok(files)
}

/// Whether writing `format` measures or draws text with the bundled faces (the paged layout
/// of Word and PDF, metafiles drawn as PNG in sd.xml and parsX) while they are not there yet.
pub fn needed_for(format: Format) -> bool {
    matches!(
        format,
        Format::Word | Format::Pdf | Format::Sdxml | Format::Parsx
    ) && !sdconv::fonts::bundled_fonts_present()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = b"SDCFONT1".to_vec();
        out.extend((files.len() as u32).to_le_bytes());
        for (name, data) in files {
            out.extend((name.len() as u16).to_le_bytes());
            out.extend(name.as_bytes());
            out.extend((data.len() as u32).to_le_bytes());
            out.extend(*data);
        }
        out
    }

    #[test]
    fn unpacks_by_name_and_refuses_what_is_short_or_missing() {
        let mut files: Vec<(&str, &[u8])> = BUNDLED_FONT_FILES
            .iter()
            .map(|n| (*n, n.as_bytes()))
            .collect();
        files.reverse();
        files.push(("extra.ttf", b"x"));
        let data = bundle(&files);
        let unpacked = unpack(&data).unwrap();
        assert_eq!(unpacked[0], BUNDLED_FONT_FILES[0].as_bytes());
        assert_eq!(unpacked[4], BUNDLED_FONT_FILES[4].as_bytes());
        for cut in [0, 7, 12, data.len() - 1] {
            assert!(matches!(unpack(&data[..cut]), Err(BundleError::Malformed)));
        }
        let short = bundle(&files[1..]);
        assert!(matches!(unpack(&short), Err(BundleError::Missing(_))));
    }
}
