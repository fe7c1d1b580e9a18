//! A bounded little-endian byte reader: every read checks the bytes left and names what it
//! was reading and where (the absolute offset in the metafile) when they run out.

use super::MetafileError;

/// Reads little-endian values from a slice; never reads past its end.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Where `data` starts in the whole metafile, for error messages.
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, which starts at `base` in the metafile.
    pub(crate) fn new(data: &'a [u8], base: usize) -> Self {
        Reader { data, pos: 0, base }
    }

    /// The absolute offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The position within this reader's slice.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The whole slice this reader covers.
    pub(crate) fn data(&self) -> &'a [u8] {
        self.data
    }

    fn truncated(&self, what: &'static str) -> MetafileError {
        MetafileError::Truncated {
            what,
            offset: self.offset(),
        }
    }

    /// The next `n` bytes.
    pub(crate) fn bytes(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<&'a [u8], MetafileError> {
        if n > self.remaining() {
            return Err(self.truncated(what));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Skips `n` bytes.
    pub(crate) fn skip(&mut self, n: usize, what: &'static str) -> Result<(), MetafileError> {
        self.bytes(n, what).map(|_| ())
    }

    /// Moves to `pos` within this reader's slice.
    pub(crate) fn seek(&mut self, pos: usize, what: &'static str) -> Result<(), MetafileError> {
        if pos > self.data.len() {
            return Err(MetafileError::Malformed {
                what,
                offset: self.base + self.pos,
                reason: format!("offset {pos} past the end ({} bytes)", self.data.len()),
            });
        }
        self.pos = pos;
        Ok(())
    }

    /// A reader over the next `n` bytes, advancing past them.
    pub(crate) fn sub(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Reader<'a>, MetafileError> {
        let base = self.offset();
        Ok(Reader::new(self.bytes(n, what)?, base))
    }

    /// A reader over `len` bytes at `off` within this reader's slice (a record's
    /// offset/size pair), without moving.
    pub(crate) fn slice_at(
        &self,
        off: usize,
        len: usize,
        what: &'static str,
    ) -> Result<&'a [u8], MetafileError> {
        let end = off.checked_add(len).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => Ok(&self.data[off..end]),
            None => Err(MetafileError::Malformed {
                what,
                offset: self.base,
                reason: format!(
                    "{len} bytes at offset {off} run past the record's {} bytes",
                    self.data.len()
                ),
            }),
        }
    }

    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, MetafileError> {
        Ok(self.bytes(1, what)?[0])
    }

    pub(crate) fn u16(&mut self, what: &'static str) -> Result<u16, MetafileError> {
        let b = self.bytes(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(crate) fn i16(&mut self, what: &'static str) -> Result<i16, MetafileError> {
        Ok(self.u16(what)? as i16)
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, MetafileError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32, MetafileError> {
        Ok(self.u32(what)? as i32)
    }

    /// A 32-bit float; NaN and infinities read as 0 so no geometry turns non-finite.
    pub(crate) fn f32(&mut self, what: &'static str) -> Result<f64, MetafileError> {
        let v = f32::from_bits(self.u32(what)?) as f64;
        Ok(if v.is_finite() { v } else { 0.0 })
    }

    /// A count of items of `item_size` bytes each that must fit in what is left (so a false
    /// count never allocates or loops beyond the record).
    pub(crate) fn count(
        &mut self,
        raw: u32,
        item_size: usize,
        what: &'static str,
    ) -> Result<usize, MetafileError> {
        let n = raw as usize;
        if n.saturating_mul(item_size) > self.remaining() {
            return Err(MetafileError::Malformed {
                what,
                offset: self.offset(),
                reason: format!(
                    "count {n} needs {} bytes, {} left",
                    n.saturating_mul(item_size),
                    self.remaining()
                ),
            });
        }
        Ok(n)
    }
}

/// UTF-16LE code units to a string, replacing unpaired surrogates and dropping NULs (a text
/// record's padding).
pub(crate) fn utf16(bytes: &[u8]) -> String {
    let units = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .filter(|&c| c != '\0')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_bounds() {
        let data = [1, 0, 2, 0, 0, 0, 0xff];
        let mut r = Reader::new(&data, 100);
        assert_eq!(r.u16("a").unwrap(), 1);
        assert_eq!(r.u32("b").unwrap(), 2);
        let err = r.u16("c").unwrap_err();
        assert!(
            matches!(
                err,
                MetafileError::Truncated {
                    what: "c",
                    offset: 106
                }
            ),
            "{err}"
        );
        let mut r = Reader::new(&data, 0);
        assert!(r.count(1000, 4, "points").is_err());
        assert_eq!(r.count(1, 4, "points").unwrap(), 1);
    }

    #[test]
    fn utf16_lossy() {
        assert_eq!(utf16(&[b'h', 0, b'i', 0, 0, 0]), "hi");
        assert_eq!(utf16(&[0x00, 0xd8, b'x', 0]), "\u{fffd}x");
    }
}
