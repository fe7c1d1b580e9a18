//! The record loop's bookkeeping, shared by the WMF and EMF players so that both treat a bad
//! record the same way: records are counted against [`MAX_RECORDS`], a record whose size field
//! claims less than its own header or more than the bytes left ends the file with an error
//! (nothing after it can be found), and a record that fails to play is skipped (counted in
//! [`Gdi::skipped`]) with the rest of the picture still drawn. Only when more than
//! [`MAX_MALFORMED`] records fail, or when failures leave nothing drawn, is the first failure
//! the file's error: a broken file, not an empty picture.

use std::fmt::Display;

use super::gdi::Gdi;
use super::{MAX_RECORDS, MetafileError};

/// Malformed records tolerated (skipped) before the whole file is refused.
const MAX_MALFORMED: usize = 8;

/// One pass of a player's record loop.
pub(crate) struct RecordLoop {
    /// What the records are, for errors (`WMF record`).
    what: &'static str,
    /// Bytes of a record's size and type fields: the least a record can take.
    header: usize,
    /// Records met so far.
    records: usize,
    /// Records that failed to play.
    malformed: usize,
    /// The first of those failures.
    first_error: Option<MetafileError>,
}

impl RecordLoop {
    /// A loop over records named `what` whose size and type fields take `header` bytes.
    pub(crate) fn new(what: &'static str, header: usize) -> Self {
        RecordLoop {
            what,
            header,
            records: 0,
            malformed: 0,
            first_error: None,
        }
    }

    /// Counts the next record; past [`MAX_RECORDS`] the file is refused.
    pub(crate) fn next(&mut self) -> Result<(), MetafileError> {
        self.records += 1;
        if self.records > MAX_RECORDS {
            return Err(MetafileError::Limit {
                what: "records",
                limit: MAX_RECORDS as u64,
            });
        }
        Ok(())
    }

    /// Checks the `size` the record at `offset` claims against the `left` bytes from there:
    /// at least its own header, at most what is left. `kind` names the record in the error
    /// (`type 14`), formatted only when there is one.
    pub(crate) fn check_size(
        &self,
        offset: usize,
        size: usize,
        left: usize,
        kind: impl Display,
    ) -> Result<(), MetafileError> {
        if size < self.header || size > left {
            return Err(MetafileError::Malformed {
                what: self.what,
                offset,
                reason: format!("{kind} claims {size} bytes, {left} left"),
            });
        }
        Ok(())
    }

    /// Takes what playing the record of type `kind` at `offset` gave. A failure skips the
    /// record; a limit reached, or one failure too many, is the file's error.
    pub(crate) fn played(
        &mut self,
        gdi: &mut Gdi,
        offset: usize,
        kind: u32,
        result: Result<(), MetafileError>,
    ) -> Result<(), MetafileError> {
        let e = match result {
            Ok(()) => return Ok(()),
            Err(e @ MetafileError::Limit { .. }) => return Err(e),
            Err(e) => e,
        };
        self.malformed += 1;
        gdi.skipped += 1;
        // A bitmap's own error does not say where it was: the record does.
        let e = match e {
            MetafileError::Bitmap(reason) => MetafileError::Malformed {
                what: self.what,
                offset,
                reason: format!("type {kind:#x}: bitmap: {reason}"),
            },
            e => e,
        };
        if self.malformed > MAX_MALFORMED {
            return Err(e);
        }
        self.first_error.get_or_insert(e);
        Ok(())
    }

    /// After the last record (and [`Gdi::flush`]): records failed and nothing was drawn, so
    /// the first failure is the file's error.
    pub(crate) fn finish(self, gdi: &Gdi) -> Result<(), MetafileError> {
        match (gdi.canvas.elements, self.first_error) {
            (0, Some(e)) => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metafile::{Budget, MAX_SVG_BYTES};

    fn gdi() -> Gdi {
        Gdi::new(Budget::default(), MAX_SVG_BYTES)
    }

    #[test]
    fn sizes_below_the_header_or_past_the_end_are_malformed() {
        let l = RecordLoop::new("EMF record", 8);
        assert!(l.check_size(100, 8, 8, "type 1").is_ok());
        let e = l.check_size(100, 7, 50, "type 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed EMF record at byte 100: type 1 claims 7 bytes, 50 left"
        );
        assert!(l.check_size(100, 51, 50, "type 1").is_err());
    }

    #[test]
    fn failures_are_skipped_until_one_too_many() {
        let mut g = gdi();
        let mut l = RecordLoop::new("WMF record", 6);
        let bad = || Err(MetafileError::Bitmap("no pixels".into()));
        for _ in 0..MAX_MALFORMED {
            assert!(l.played(&mut g, 40, 0x0F43, bad()).is_ok());
        }
        assert_eq!(g.skipped, MAX_MALFORMED);
        let e = l.played(&mut g, 60, 0x0F43, bad()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed WMF record at byte 60: type 0xf43: bitmap: no pixels"
        );
    }

    #[test]
    fn a_limit_ends_at_once_and_failures_with_nothing_drawn_are_the_error() {
        let mut g = gdi();
        let mut l = RecordLoop::new("EMF record", 8);
        let limit = Err(MetafileError::Limit {
            what: "objects",
            limit: 1,
        });
        assert!(matches!(
            l.played(&mut g, 8, 1, limit),
            Err(MetafileError::Limit { .. })
        ));
        assert!(l.played(&mut g, 8, 1, Ok(())).is_ok());
        assert!(l.played(&mut g, 16, 1, Err(MetafileError::Empty)).is_ok());
        assert!(matches!(l.finish(&g), Err(MetafileError::Empty)));
        assert!(RecordLoop::new("EMF record", 8).finish(&g).is_ok());
    }
}
