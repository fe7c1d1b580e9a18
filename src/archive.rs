//! The safe zip layer every zip format goes through (sd.xml, docx, parsX, HTML download).
//!
//! Reading: entry count, per-entry and total inflated size, and compression ratio are limited
//! ([`Limits`]), and the bytes actually inflated are capped too, so a lying size field cannot get
//! past them; names with `..`, absolute paths, drive letters or backslashes refuse the archive.
//! Writing: fixed timestamps (1980-01-01), fixed permissions and the caller's entry order, so the
//! same content always gives the same bytes; entries copied raw from an input (pictures kept
//! deflated) keep that input's timestamp and attributes, so the same input does too.

use std::collections::HashMap;
use std::io::{Cursor, Read, Seek, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter as RawWriter};

use crate::error::{Error, Result};
use crate::limits::Limits;

/// Checks a zip entry name; `Err` says why it is unsafe.
pub fn check_entry_name(name: &str) -> std::result::Result<(), &'static str> {
    if name.is_empty() {
        return Err("empty name");
    }
    if name.contains('\0') {
        return Err("NUL byte in name");
    }
    if name.contains('\\') {
        return Err("backslash in name");
    }
    if name.starts_with('/') {
        return Err("absolute path");
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return Err("drive letter");
    }
    if name.split('/').any(|c| c == "..") {
        return Err("parent directory component");
    }
    Ok(())
}

/// The bytes an input is read from: borrowed, or shared. From shared bytes a zip reader hands
/// out raw entries that point into them ([`ZipReader::read_raw`]), so the pictures of a Word file
/// cost no copy at all while they stay deflated.
#[derive(Debug, Clone)]
pub enum Source<'a> {
    /// The caller's bytes, for the duration of the call.
    Borrowed(&'a [u8]),
    /// Bytes the result may keep a share of.
    Shared(bytes::Bytes),
}

impl AsRef<[u8]> for Source<'_> {
    fn as_ref(&self) -> &[u8] {
        match self {
            Source::Borrowed(b) => b,
            Source::Shared(b) => b,
        }
    }
}

/// An archive whose bytes live as long as anything holding it (a [`RawEntry`]).
type SharedArchive = ZipArchive<Cursor<Source<'static>>>;

/// A zip archive opened for reading under [`Limits`].
pub struct ZipReader<'a> {
    archive: ZipArchive<Cursor<Source<'a>>>,
    /// The same archive when it was opened from [`Source::Shared`] bytes: raw
    /// entries then point into those bytes.
    shared: Option<SharedArchive>,
    names: Vec<String>,
    by_lower: HashMap<String, usize>,
    limits: Limits,
    inflated: u64,
}

impl std::fmt::Debug for ZipReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZipReader")
            .field("names", &self.names)
            .finish()
    }
}

impl<'a> ZipReader<'a> {
    /// Opens `bytes` as a zip. Refuses non-zips, too many entries and unsafe names.
    pub fn new(bytes: &'a [u8], limits: &Limits) -> Result<Self> {
        Self::from_source(Source::Borrowed(bytes), limits)
    }

    /// Opens `source` as a zip, like [`ZipReader::new`]; from [`Source::Shared`] bytes, entries
    /// read with [`ZipReader::read_raw`] share those bytes instead of copying their own.
    pub fn from_source(source: Source<'a>, limits: &Limits) -> Result<Self> {
        let not_zip = |e: zip::result::ZipError| Error::NotZip(e.to_string());
        match source {
            Source::Borrowed(bytes) => Self::open(
                ZipArchive::new(Cursor::new(Source::Borrowed(bytes))).map_err(not_zip)?,
                None,
                limits,
            ),
            Source::Shared(bytes) => {
                let archive: SharedArchive =
                    ZipArchive::new(Cursor::new(Source::Shared(bytes))).map_err(not_zip)?;
                Self::open(archive.clone(), Some(archive), limits)
            }
        }
    }

    fn open(
        archive: ZipArchive<Cursor<Source<'a>>>,
        shared: Option<SharedArchive>,
        limits: &Limits,
    ) -> Result<Self> {
        if archive.len() > limits.max_entries {
            return Err(Error::TooLarge {
                what: "zip entry count",
                detail: format!("{} entries, at most {}", archive.len(), limits.max_entries),
            });
        }
        let mut names = Vec::with_capacity(archive.len());
        let mut by_lower = HashMap::with_capacity(archive.len());
        for i in 0..archive.len() {
            let name = match archive.name_for_index(i) {
                Some(Ok(name)) => name.into_owned(),
                _ => return Err(Error::NotZip(format!("entry {i} has an unreadable name"))),
            };
            check_entry_name(&name).map_err(|reason| Error::UnsafeName {
                name: name.clone(),
                reason,
            })?;
            by_lower.entry(name.to_ascii_lowercase()).or_insert(i);
            names.push(name);
        }
        Ok(ZipReader {
            archive,
            shared,
            names,
            by_lower,
            limits: limits.clone(),
            inflated: 0,
        })
    }

    /// Entry names in archive order (directories included, ending in `/`).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The stored name of the entry called `name`, matched exactly or else ignoring ASCII case
    /// (OPC part names are case-insensitive).
    pub fn find(&self, name: &str) -> Option<&str> {
        let i = self
            .names
            .iter()
            .position(|n| n == name)
            .or_else(|| self.by_lower.get(&name.to_ascii_lowercase()).copied())?;
        Some(&self.names[i])
    }

    /// Whether an entry called `name` exists (see [`ZipReader::find`]).
    pub fn contains(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// The stored name and index of the entry called `name`, and the bytes the limits leave
    /// it: what is left of the total budget, at most the per-entry limit.
    fn locate(&self, name: &str) -> Result<(String, usize, u64)> {
        let missing = |part: &str| Error::MissingPart {
            part: part.to_string(),
        };
        let stored = self.find(name).ok_or_else(|| missing(name))?.to_string();
        let index = self
            .archive
            .index_for_name(&stored)
            .ok_or_else(|| missing(&stored))?;
        let budget = self
            .limits
            .max_total_size
            .saturating_sub(self.inflated)
            .min(self.limits.max_entry_size);
        Ok((stored, index, budget))
    }

    /// Inflates the entry `name`, enforcing the size, ratio and total limits.
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>> {
        let pending = self.pending(name)?;
        let inflated = pending.inflate();
        self.settle(&pending, inflated)
    }

    /// Entry `name` checked against the limits at its declared size and counted against the
    /// total budget at that size, to be inflated by [`PendingRead::inflate`], on any thread,
    /// while this reader reads other entries; [`ZipReader::settle`] then counts what it
    /// inflated to. [`ZipReader::read`] is the three steps in one.
    pub fn pending(&mut self, name: &str) -> Result<PendingRead<'a>> {
        let (stored, index, budget) = self.locate(name)?;
        let limits = &self.limits;
        // The sizes only: `inflate` opens the entry to read it (an encrypted one fails there).
        let file = self
            .archive
            .by_index_raw(index)
            .map_err(|e| Error::NotZip(format!("{stored}: {e}")))?;
        let declared = file.size();
        let compressed = file.compressed_size().max(1);
        drop(file);
        if declared > limits.max_entry_size {
            return Err(Error::TooLarge {
                what: "zip entry size",
                detail: format!(
                    "{stored} declares {declared} bytes, at most {} per entry",
                    limits.max_entry_size
                ),
            });
        }
        if declared > budget {
            return Err(Error::TooLarge {
                what: "total uncompressed size",
                detail: format!(
                    "{stored} would pass {} bytes for the whole archive",
                    limits.max_total_size
                ),
            });
        }
        if declared > limits.ratio_floor && declared / compressed > limits.max_ratio {
            return Err(Error::TooLarge {
                what: "compression ratio",
                detail: format!(
                    "{stored} inflates {compressed} bytes to {declared} (more than {}:1)",
                    limits.max_ratio
                ),
            });
        }
        self.inflated += declared;
        Ok(PendingRead {
            archive: self.archive.clone(),
            index,
            stored,
            declared,
            compressed,
            budget,
            ratio_floor: limits.ratio_floor,
            max_ratio: limits.max_ratio,
        })
    }

    /// Counts what `pending` inflated to in place of its declared size, and hands its bytes on.
    pub fn settle(
        &mut self,
        pending: &PendingRead<'_>,
        inflated: Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        // `pending` counted it at its declared size (saturating: a pending read of another
        // reader must not wrap the count).
        self.inflated = self.inflated.saturating_sub(pending.declared);
        let out = inflated?;
        self.inflated += out.len() as u64;
        Ok(out)
    }

    /// Entry `name` as stored, still compressed, for a writer to copy into another zip without
    /// inflating it ([`ZipWriter::add_raw`]); [`RawEntry::inflate`] gives the bytes when they are
    /// needed after all. The declared size is checked against the limits as [`ZipReader::read`]
    /// checks it (and counted against the total budget); the content, and so its checksum, is
    /// checked only when inflated, and inflating never produces more than the declared size.
    ///
    /// A reader opened from [`Source::Shared`] bytes hands out entries that point into its bytes;
    /// otherwise the entry's stored bytes are copied into a one-entry archive of its own. Either
    /// way a copy made with [`ZipWriter::add_raw`] keeps the entry's own timestamp and attributes
    /// (the zip crate copies raw entries only with them), so the output is the same bytes for
    /// the same input on both paths.
    pub fn read_raw(&mut self, name: &str) -> Result<RawEntry> {
        let (stored, index, budget) = self.locate(name)?;
        let limits = &self.limits;
        let file = self
            .archive
            .by_index_raw(index)
            .map_err(|e| Error::NotZip(format!("{stored}: {e}")))?;
        let (size, compressed) = (file.size(), file.compressed_size());
        if file.encrypted() {
            return Err(Error::NotZip(format!("{stored}: encrypted entry")));
        }
        if size > budget {
            return Err(Error::TooLarge {
                what: "zip entry size",
                detail: format!("{stored} declares {size} bytes, more than the {budget} left"),
            });
        }
        if size > limits.ratio_floor && size / compressed.max(1) > limits.max_ratio {
            return Err(Error::TooLarge {
                what: "compression ratio",
                detail: format!(
                    "{stored} inflates {compressed} bytes to {size} (more than {}:1)",
                    limits.max_ratio
                ),
            });
        }
        let (archive, index) = match &self.shared {
            Some(shared) => (shared.clone(), index),
            None => {
                let mut one = RawWriter::new(Cursor::new(Vec::new()));
                one.raw_copy_file(file)
                    .map_err(|e| write_error(&stored, e))?;
                let bytes = one
                    .finish()
                    .map_err(|e| write_error(&stored, e))?
                    .into_inner();
                let archive = ZipArchive::new(Cursor::new(Source::Shared(bytes.into())))
                    .map_err(|e| Error::NotZip(format!("{stored}: {e}")))?;
                (archive, 0)
            }
        };
        self.inflated += size;
        Ok(RawEntry {
            archive,
            index,
            name: stored,
            size,
            compressed_size: compressed,
        })
    }
}

/// An entry [`ZipReader::pending`] checked and counted, to be inflated on any thread.
pub struct PendingRead<'a> {
    /// The reader's archive (its entries are shared, not copied).
    archive: ZipArchive<Cursor<Source<'a>>>,
    /// The entry's index in `archive`.
    index: usize,
    /// The entry's stored name (for messages).
    stored: String,
    /// The inflated size its header declares.
    declared: u64,
    /// Its stored size (at least 1).
    compressed: u64,
    /// At most this many bytes may come out: what the total budget and the entry limit left.
    budget: u64,
    ratio_floor: u64,
    max_ratio: u64,
}

impl PendingRead<'_> {
    /// The inflated size the entry declares, counted against the budget until settled.
    pub fn declared(&self) -> u64 {
        self.declared
    }

    /// The entry's bytes. Trusts no size field: reads at most one byte past the budget and
    /// checks what came out.
    pub fn inflate(&self) -> Result<Vec<u8>> {
        let stored = &self.stored;
        let mut archive = self.archive.clone();
        let mut file = archive
            .by_index(self.index)
            .map_err(|e| Error::NotZip(format!("{stored}: {e}")))?;
        let budget = self.budget;
        let mut out = Vec::with_capacity(self.declared.min(budget) as usize);
        (&mut file)
            .take(budget + 1)
            .read_to_end(&mut out)
            .map_err(|e| Error::NotZip(format!("{stored}: {e}")))?;
        let got = out.len() as u64;
        if got > budget {
            return Err(Error::TooLarge {
                what: "zip entry size",
                detail: format!("{stored} inflates past {budget} bytes despite its size field"),
            });
        }
        if got > self.ratio_floor && got / self.compressed > self.max_ratio {
            return Err(Error::TooLarge {
                what: "compression ratio",
                detail: format!(
                    "{stored} inflated {} bytes to {got} (more than {}:1)",
                    self.compressed, self.max_ratio
                ),
            });
        }
        Ok(out)
    }
}

/// A zip entry as it was stored (usually deflated), kept to be copied into another zip as it is.
/// Cloning shares the bytes.
#[derive(Clone)]
pub struct RawEntry {
    /// The archive holding the entry: the shared source, or a one-entry copy.
    archive: SharedArchive,
    /// The entry's index in `archive`.
    index: usize,
    /// The entry's name in its source (for messages).
    name: String,
    /// The inflated size (declared, checked against the limits when read).
    pub size: u64,
    /// The stored (compressed) size.
    pub compressed_size: u64,
}

impl std::fmt::Debug for RawEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawEntry")
            .field("name", &self.name)
            .field("size", &self.size)
            .field("compressed_size", &self.compressed_size)
            .finish()
    }
}

impl RawEntry {
    /// The entry's bytes, inflated, with the checksum checked and `limits` applied.
    pub fn inflate(&self, limits: &Limits) -> Result<Vec<u8>> {
        let most = limits.max_entry_size.min(limits.max_total_size);
        if self.size > most {
            return Err(Error::TooLarge {
                what: "zip entry size",
                detail: format!(
                    "{} declares {} bytes, at most {most} allowed",
                    self.name, self.size
                ),
            });
        }
        let mut out = Vec::with_capacity(self.size as usize);
        self.copy_to(&mut out)?;
        Ok(out)
    }

    /// Inflates the entry into `out`, streaming: never more than the declared size (checked at
    /// reading against the limits), and the checksum checked at the end. A broken entry is
    /// [`Error::NotZip`], a failing `out` [`Error::Write`]; either way part of the entry may have
    /// been written.
    pub fn copy_to(&self, out: &mut dyn Write) -> Result<u64> {
        let mut archive = self.archive.clone();
        let file = archive
            .by_index(self.index)
            .map_err(|e| Error::NotZip(format!("{}: {e}", self.name)))?;
        // One byte past the declared size shows a lying size field.
        let mut file = file.take(self.size.saturating_add(1));
        let mut buf = vec![0u8; COPY_PIECE];
        let mut got = 0u64;
        loop {
            // The buffer is filled before it is written: the inflater hands out a few KiB a
            // read, and whole pieces pass through a writer's own buffer of this size (a file's
            // `BufWriter`) without being copied into it.
            let mut filled = 0;
            while filled < buf.len() {
                match file.read(buf.get_mut(filled..).unwrap_or_default()) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Error::NotZip(format!("{}: {e}", self.name))),
                }
            }
            if filled == 0 {
                break;
            }
            out.write_all(buf.get(..filled).unwrap_or_default())
                .map_err(|e| Error::Write {
                    format: "file",
                    message: format!("{}: {e}", self.name),
                })?;
            got += filled as u64;
        }
        if got != self.size {
            return Err(Error::NotZip(format!(
                "{}: inflates to {}{got} bytes, {} declared",
                self.name,
                if got > self.size { "more than " } else { "" },
                self.size
            )));
        }
        Ok(got)
    }

    /// The first `len` bytes of the entry (fewer when it is shorter), inflating only as much as
    /// that takes: for sniffing a header. The checksum is not checked (the rest is not read).
    pub fn head(&self, len: usize) -> Result<Vec<u8>> {
        let mut archive = self.archive.clone();
        let file = archive
            .by_index(self.index)
            .map_err(|e| Error::NotZip(format!("{}: {e}", self.name)))?;
        let len = (len as u64).min(self.size);
        let mut out = Vec::with_capacity(len as usize);
        file.take(len)
            .read_to_end(&mut out)
            .map_err(|e| Error::NotZip(format!("{}: {e}", self.name)))?;
        Ok(out)
    }

    /// The entry's stored (still compressed) bytes, a share of the source they were read
    /// from, for a caller that manages that memory (`sdconv convert` hands the pages of a
    /// mapped input back once a picture is written); for an entry copied out of borrowed
    /// bytes, a share of that copy. `None` when the data cannot be located.
    pub fn stored_slice(&self) -> Option<bytes::Bytes> {
        let mut archive = self.archive.clone();
        let start = archive.by_index_raw(self.index).ok()?.data_start()?;
        let start = usize::try_from(start).ok()?;
        let end = start.checked_add(usize::try_from(self.compressed_size).ok()?)?;
        match archive.into_inner().into_inner() {
            Source::Shared(bytes) => (end <= bytes.len()).then(|| bytes.slice(start..end)),
            Source::Borrowed(_) => None,
        }
    }

    /// The entry's position in its archive's central directory: two readers of the same bytes
    /// give the same entry the same index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Whether `self` and `other` are the same stored entry (same source archive, same index):
    /// then their contents are equal without inflating either.
    pub fn same_entry(&self, other: &RawEntry) -> bool {
        self.index == other.index
            && std::sync::Arc::ptr_eq(&self.archive.metadata(), &other.archive.metadata())
    }
}

/// Whether `bytes` start like a zip (local file header or empty archive).
pub fn looks_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// How an entry is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Deflate (text, XML).
    Deflate,
    /// Stored as-is (already compressed images: deflating them again only costs time).
    Store,
}

/// A deterministic zip writer: into memory (the default sink, [`ZipWriter::new`]) or straight
/// into any seekable sink ([`ZipWriter::on`]), such as the output file, so that an archive of
/// large pictures is never held whole in memory. Either gives the same bytes.
pub struct ZipWriter<W: Write + Seek = Cursor<Vec<u8>>> {
    inner: RawWriter<W>,
}

impl<W: Write + Seek> std::fmt::Debug for ZipWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ZipWriter")
    }
}

impl Default for ZipWriter {
    fn default() -> Self {
        Self::new()
    }
}

/// How many inflated bytes [`RawEntry::copy_to`] hands its writer at a time: the size of the
/// buffered writers it is given for files, which pass a whole piece on without copying it.
pub const COPY_PIECE: usize = 64 * 1024;

/// The deflate level of every deflated entry. Level 3: on a 2.2 MB sd.xml it is 2.5x faster
/// than the default level 6 for a zip 5 % larger (level 1: 4x faster, 50 % larger; level 4 is
/// already as slow as 6).
const DEFLATE_LEVEL: u32 = 3;

/// Parts this large or larger are deflated in parallel pieces (`deflate`): a 3.4 MB
/// document.xml took 21 ms on one core.
pub const PARALLEL_DEFLATE_FROM: usize = 1 << 20;

/// Whether a part of `len` bytes is deflated in pieces ([`PARALLEL_DEFLATE_FROM`]), so that its
/// end can be deflated ahead ([`deflate_tail`], [`ZipWriter::add_joined`]).
pub(crate) fn deflated_in_pieces(len: usize) -> bool {
    len >= PARALLEL_DEFLATE_FROM && !cfg!(fuzzing)
}

/// The end `tail` of a part deflated ahead of its head, at the writer's level, where `window`
/// is what comes right before it in the part ([`crate::deflate::deflate_tail`]).
pub(crate) fn deflate_tail(
    name: &str,
    window: &[u8],
    tail: &[u8],
) -> Result<crate::deflate::Deflated> {
    crate::deflate::deflate_tail(window, tail, DEFLATE_LEVEL).map_err(|e| write_error(name, e))
}

/// The most a [`ZipWriter`] reserves up front; a larger archive grows as it is written. The
/// sizes a reservation is made from come partly from the input (a zip entry's declared
/// compressed size), so they are never trusted with a larger allocation.
pub const MAX_RESERVE: usize = 256 << 20;

impl ZipWriter {
    /// An empty archive in memory.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty archive in memory with room for about `bytes` of output (at most
    /// [`MAX_RESERVE`]), so that a zip of large pictures is not copied again each time its
    /// buffer grows (an 18 MB Word file's pictures went through 24 MB of such copies, and the
    /// page faults of a buffer twice their size).
    pub fn with_capacity(bytes: usize) -> Self {
        ZipWriter {
            inner: RawWriter::new(Cursor::new(Vec::with_capacity(bytes.min(MAX_RESERVE)))),
        }
    }

    /// Finishes the archive and returns its bytes.
    pub fn finish(self) -> Result<Vec<u8>> {
        self.finish_sink().map(Cursor::into_inner)
    }
}

impl<W: Write + Seek> ZipWriter<W> {
    /// An empty archive written into `sink`, an empty file or buffer.
    pub fn on(sink: W) -> Self {
        ZipWriter {
            inner: RawWriter::new(sink),
        }
    }

    fn options(compression: Compression) -> SimpleFileOptions {
        // Under the fuzzer (`cargo fuzz` builds with `--cfg fuzzing`) every entry is stored:
        // deflating with a coverage-instrumented zlib took most of the writer targets' time, and
        // the fuzzers look for faults in sdconv's code, not in zlib's.
        let compression = if cfg!(fuzzing) {
            Compression::Store
        } else {
            compression
        };
        let method = match compression {
            Compression::Deflate => CompressionMethod::Deflated,
            Compression::Store => CompressionMethod::Stored,
        };
        let level = match compression {
            Compression::Deflate => Some(i64::from(DEFLATE_LEVEL)),
            Compression::Store => None,
        };
        SimpleFileOptions::default()
            .compression_method(method)
            .compression_level(level)
            .last_modified_time(DateTime::DEFAULT)
            .unix_permissions(0o644)
            .large_file(false)
    }

    /// Adds an entry. The name is checked like names read ([`check_entry_name`]). A part of
    /// [`PARALLEL_DEFLATE_FROM`] bytes or more is deflated in pieces on the rayon pool.
    pub fn add(&mut self, name: &str, bytes: &[u8], compression: Compression) -> Result<()> {
        check_entry_name(name).map_err(|reason| Error::UnsafeName {
            name: name.to_string(),
            reason,
        })?;
        if compression == Compression::Deflate && deflated_in_pieces(bytes.len()) {
            let zip = crate::deflate::one_entry_zip(name, bytes, DEFLATE_LEVEL)
                .map_err(|e| write_error(name, e))?;
            if let Some(zip) = zip {
                return self.add_one_entry_zip(name, zip);
            }
        }
        let options = Self::options(compression).large_file(bytes.len() as u64 >= u32::MAX as u64);
        self.inner
            .start_file(name, options)
            .and_then(|_| self.inner.write_all(bytes).map_err(Into::into))
            .map_err(|e| write_error(name, e))
    }

    /// Adds the entry `name` whose end was deflated ahead ([`deflate_tail`]) while its head
    /// was not yet known: `head` is deflated now and the two join into one stream. Only for a
    /// part [`deflated_in_pieces`] says yes to.
    pub(crate) fn add_joined(
        &mut self,
        name: &str,
        head: &[u8],
        tail: &crate::deflate::Deflated,
    ) -> Result<()> {
        check_entry_name(name).map_err(|reason| Error::UnsafeName {
            name: name.to_string(),
            reason,
        })?;
        let zip = crate::deflate::one_entry_zip_joined(name, head, tail, DEFLATE_LEVEL)
            .map_err(|e| write_error(name, e))?
            .ok_or_else(|| write_error(name, "the part needs zip64, which is not written"))?;
        self.add_one_entry_zip(name, zip)
    }

    /// Copies the one entry of the zip `zip` in as `name`, as it is.
    fn add_one_entry_zip(&mut self, name: &str, zip: Vec<u8>) -> Result<()> {
        let mut one =
            ZipArchive::new(Cursor::new(zip)).map_err(|e| Error::NotZip(format!("{name}: {e}")))?;
        let file = one
            .by_index_raw(0)
            .map_err(|e| Error::NotZip(format!("{name}: {e}")))?;
        self.inner
            .raw_copy_file_rename(file, name)
            .map_err(|e| write_error(name, e))
    }

    /// Adds a directory entry (`images/`).
    pub fn add_directory(&mut self, name: &str) -> Result<()> {
        self.inner
            .add_directory(
                name,
                Self::options(Compression::Store).unix_permissions(0o755),
            )
            .map_err(|e| write_error(name, e))
    }

    /// Adds `entry` under `name` as it was stored: no inflating, no deflating.
    pub fn add_raw(&mut self, name: &str, entry: &RawEntry) -> Result<()> {
        check_entry_name(name).map_err(|reason| Error::UnsafeName {
            name: name.to_string(),
            reason,
        })?;
        let mut source = entry.archive.clone();
        let file = source
            .by_index_raw(entry.index)
            .map_err(|e| Error::NotZip(format!("{name}: {e}")))?;
        self.inner
            .raw_copy_file_rename(file, name)
            .map_err(|e| write_error(name, e))
    }

    /// Writes the central directory and returns the sink.
    pub fn finish_sink(self) -> Result<W> {
        self.inner
            .finish()
            .map_err(|e| write_error("central directory", e))
    }
}

/// A writer's filled archive finished, its warnings kept: what every zip writer returns.
pub(crate) fn finish_converted<W: Write + Seek>(
    zip: crate::Converted<ZipWriter<W>>,
) -> Result<crate::Converted<W>> {
    let crate::Converted { value, warnings } = zip;
    Ok(crate::Converted {
        value: value.finish_sink()?,
        warnings,
    })
}

fn write_error(name: &str, e: impl std::fmt::Display) -> Error {
    Error::Write {
        format: "zip",
        message: format!("{name}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raw_entry_shows_its_stored_bytes_inside_a_shared_source() {
        let text = b"<w:document>stored bytes, deflated</w:document>".repeat(50);
        let zip: bytes::Bytes = zip_of(&[("a.xml", &text)]).into();
        let mut shared =
            ZipReader::from_source(Source::Shared(zip.clone()), &Limits::default()).unwrap();
        let stored = shared.read_raw("a.xml").unwrap().stored_slice().unwrap();
        // A share of the source's own bytes, not a copy ...
        let base = zip.as_ptr() as usize;
        let at = stored.as_ptr() as usize;
        assert!(at > base && at + stored.len() < base + zip.len());
        // ... holding exactly the entry's deflated data.
        let mut back = Vec::new();
        flate2::read::DeflateDecoder::new(&stored[..])
            .read_to_end(&mut back)
            .unwrap();
        assert!(back == text);
        // An entry copied out of borrowed bytes shows its copy, outside the caller's bytes.
        let mut borrowed = ZipReader::new(&zip, &Limits::default()).unwrap();
        let copy = borrowed.read_raw("a.xml").unwrap().stored_slice().unwrap();
        assert!(copy == stored);
        let at = copy.as_ptr() as usize;
        assert!(at + copy.len() <= base || at >= base + zip.len());
    }

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = ZipWriter::new();
        for (name, bytes) in entries {
            w.add(name, bytes, Compression::Deflate).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn names_are_checked() {
        for bad in [
            "../x",
            "a/../../etc/passwd",
            "/etc/passwd",
            "a\\b",
            "C:x",
            "",
        ] {
            assert!(check_entry_name(bad).is_err(), "{bad}");
        }
        for good in [
            "sd.xml",
            "images/a.png",
            "word/_rels/document.xml.rels",
            "a..b",
        ] {
            assert!(check_entry_name(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn writing_is_deterministic_and_reads_back() {
        let a = zip_of(&[("sd.xml", b"<x/>"), ("images/a.png", b"123")]);
        let b = zip_of(&[("sd.xml", b"<x/>"), ("images/a.png", b"123")]);
        assert_eq!(a, b);
        let mut r = ZipReader::new(&a, &Limits::default()).unwrap();
        assert_eq!(r.names(), ["sd.xml", "images/a.png"]);
        assert_eq!(r.read("SD.XML").unwrap(), b"<x/>");
        assert!(matches!(r.read("nope"), Err(Error::MissingPart { .. })));
    }

    #[test]
    fn total_budget_counts_every_read() {
        let big = vec![b'x'; 1000];
        let z = zip_of(&[("a", &big), ("b", &big)]);
        let limits = Limits::default().with_max_total_size(1500);
        let mut r = ZipReader::new(&z, &limits).unwrap();
        assert!(r.read("a").is_ok());
        let err = r.read("b").unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        assert_eq!(err.kind(), crate::error::ErrorKind::TooLarge);
    }

    #[test]
    fn raw_entries_are_copied_without_inflating_and_deterministically() {
        let png = crate::sample::png(64, 48, 3);
        let mut text = Vec::new();
        for i in 0..2000 {
            text.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        let source = zip_of(&[
            ("word/media/image1.png", &png),
            ("word/document.xml", &text),
        ]);
        let mut r = ZipReader::new(&source, &Limits::default()).unwrap();
        let image = r.read_raw("word/media/image1.png").unwrap();
        let doc = r.read_raw("word/document.xml").unwrap();
        assert_eq!(doc.size, text.len() as u64);
        assert!(doc.compressed_size < doc.size / 4, "stays deflated");
        assert_eq!(image.inflate(&Limits::default()).unwrap(), png);

        let copy = || {
            let mut w = ZipWriter::new();
            w.add_raw("images/a.png", &image).unwrap();
            w.add_raw("text.txt", &doc).unwrap();
            w.finish().unwrap()
        };
        let out = copy();
        assert_eq!(out, copy(), "same bytes every time");
        let mut back = ZipReader::new(&out, &Limits::default()).unwrap();
        assert_eq!(back.names(), ["images/a.png", "text.txt"]);
        assert_eq!(back.read("images/a.png").unwrap(), png);
        assert_eq!(back.read("text.txt").unwrap(), text);
        // The copy is as small as the source: nothing was inflated and stored.
        assert!(
            out.len() < png.len() + text.len() / 4,
            "{} bytes",
            out.len()
        );

        let mut w = ZipWriter::new();
        assert!(matches!(
            w.add_raw("../x", &image),
            Err(Error::UnsafeName { .. })
        ));
    }

    #[test]
    fn a_reservation_from_input_sizes_is_capped() {
        // Sizes a hostile zip declares must not become an allocation: this would abort
        // (capacity overflow) without the cap.
        let mut w = ZipWriter::with_capacity(usize::MAX);
        w.add("a.txt", b"a", Compression::Store).unwrap();
        assert!(w.finish().unwrap().capacity() <= MAX_RESERVE);
    }

    #[test]
    fn raw_entries_obey_the_limits() {
        let big = vec![b'x'; 100_000];
        let z = zip_of(&[("a", &big)]);
        let limits = Limits::default().with_max_total_size(50_000);
        let mut r = ZipReader::new(&z, &limits).unwrap();
        let err = r.read_raw("a").unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        let mut r = ZipReader::new(&z, &Limits::default()).unwrap();
        let raw = r.read_raw("a").unwrap();
        assert!(matches!(raw.inflate(&limits), Err(Error::TooLarge { .. })));
        assert!(matches!(r.read_raw("b"), Err(Error::MissingPart { .. })));
    }

    #[test]
    fn a_raw_entry_is_copied_out_in_whole_pieces() {
        // Mixed bytes, so that the inflater hands them out a few KiB at a time.
        let mut data = Vec::new();
        for i in 0u32..70_000 {
            data.extend_from_slice(&(i.wrapping_mul(2_654_435_761) >> 13).to_le_bytes());
        }
        let z = zip_of(&[("a.bin", &data)]);
        let raw = ZipReader::new(&z, &Limits::default())
            .unwrap()
            .read_raw("a.bin")
            .unwrap();
        /// Records the length of each write.
        struct Lengths(Vec<usize>, Vec<u8>);
        impl Write for Lengths {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.push(buf.len());
                self.1.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut out = Lengths(Vec::new(), Vec::new());
        assert_eq!(raw.copy_to(&mut out).unwrap(), data.len() as u64);
        assert!(out.1 == data);
        // Every piece but the last is whole: a buffered writer of that size passes it on.
        let (last, whole) = out.0.split_last().unwrap();
        assert_eq!(whole.len(), data.len() / COPY_PIECE);
        assert!(whole.iter().all(|&n| n == COPY_PIECE), "{:?}", out.0);
        assert_eq!(*last, data.len() % COPY_PIECE);
    }

    #[test]
    fn not_a_zip() {
        let err = ZipReader::new(b"hello", &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::NotZip(_)));
    }
}
