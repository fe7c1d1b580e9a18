//! The media store: every image once, by name, with its type and pixel size sniffed from the
//! header bytes (never decoded). Pictures read from a zip stay deflated until something needs
//! their bytes.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::archive::{Compression, RawEntry, ZipWriter};
/// The picture kinds and the sniffer live outside the tree (the metafile converter and the PDF
/// writer use them too); these paths stay for the library's callers.
pub use crate::picture::{MediaKind, sniff};

/// Why a picture's bytes cannot be had: its stored (deflated) form does not inflate to what its
/// zip entry declares. Writers turn it into a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("picture {name} cannot be read: {reason}")]
pub struct MediaError {
    /// The item's name.
    pub name: String,
    /// What went wrong (a corrupt deflate stream, a wrong checksum, a lying size).
    pub reason: String,
}

impl From<MediaError> for crate::error::Error {
    fn from(e: MediaError) -> Self {
        crate::error::Error::Invalid {
            part: e.name,
            message: format!("the picture cannot be read: {}", e.reason),
        }
    }
}

/// One stored image.
///
/// The bytes are either plain or still deflated as the source zip stored them ([`MediaItem::
/// deflated`]): those are inflated on first use ([`MediaItem::bytes`], cached and shared by
/// clones), and writers producing a zip copy them as they are ([`MediaItem::stored`]), so a
/// picture nothing looks into is never inflated.
///
/// In the JSON dump the bytes are replaced by their length and a content hash, so golden files
/// stay small but still change when the content does; a tree read back from JSON has no bytes.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "MediaDump", from = "MediaDump")]
pub struct MediaItem {
    /// The file name, unique in the store (`3b15….png`, `image1.jpeg`).
    pub name: String,
    /// Sniffed file type.
    pub kind: MediaKind,
    /// Pixel width, when the header says.
    pub width: Option<u32>,
    /// Pixel height, when the header says.
    pub height: Option<u32>,
    /// Byte length (inflated).
    pub size: usize,
    content: Content,
}

/// Where an item's bytes are.
#[derive(Clone)]
enum Content {
    /// In memory, shared.
    Plain(Bytes),
    /// Still deflated in a zip; inflated once, on first use, for every clone.
    Deflated(Arc<Deflated>),
    /// Read from a JSON dump: only the hash of the bytes is known.
    Dumped { hash: String },
}

struct Deflated {
    raw: RawEntry,
    inflated: OnceLock<Result<Bytes, MediaError>>,
}

/// The JSON form of an item.
#[derive(Serialize, Deserialize)]
struct MediaDump {
    name: String,
    kind: MediaKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    height: Option<u32>,
    size: usize,
    hash: String,
}

impl From<MediaItem> for MediaDump {
    fn from(item: MediaItem) -> Self {
        let hash = item.hash();
        MediaDump {
            name: item.name,
            kind: item.kind,
            width: item.width,
            height: item.height,
            size: item.size,
            hash,
        }
    }
}

impl From<MediaDump> for MediaItem {
    fn from(d: MediaDump) -> Self {
        MediaItem {
            name: d.name,
            kind: d.kind,
            width: d.width,
            height: d.height,
            size: d.size,
            content: Content::Dumped { hash: d.hash },
        }
    }
}

/// How much of a deflated picture is inflated to find its type and size: PNG, GIF, BMP and WebP
/// say both in the first bytes; JPEG's frame header can come after metadata segments (EXIF,
/// colour profiles), so a JPEG without it in the first bytes gets the longer prefix.
const SNIFF_SHORT: usize = 1024;
const SNIFF_LONG: usize = 64 * 1024;

impl MediaItem {
    /// Stores `bytes` under `name`, sniffing type and size.
    pub fn new(name: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        let (kind, dims) = sniff(&bytes);
        MediaItem {
            name: name.into(),
            kind,
            width: dims.map(|d| d.0),
            height: dims.map(|d| d.1),
            size: bytes.len(),
            content: Content::Plain(bytes),
        }
    }

    /// Keeps a zip entry as it is stored, sniffing type and size from its first bytes only.
    /// A header that does not inflate gives an item of unknown kind; the error shows when the
    /// bytes are asked for.
    pub fn deflated(name: impl Into<String>, raw: RawEntry) -> Self {
        let head = raw.head(SNIFF_SHORT).unwrap_or_default();
        let (mut kind, mut dims) = sniff(&head);
        if kind == MediaKind::Jpeg && dims.is_none() && head.len() < raw.size as usize {
            (kind, dims) = sniff(&raw.head(SNIFF_LONG).unwrap_or_default());
        }
        MediaItem {
            name: name.into(),
            kind,
            width: dims.map(|d| d.0),
            height: dims.map(|d| d.1),
            size: usize::try_from(raw.size).unwrap_or(usize::MAX),
            content: Content::Deflated(Arc::new(Deflated {
                raw,
                inflated: OnceLock::new(),
            })),
        }
    }

    /// The bytes: inflated on the first call for a deflated item (then shared by every clone),
    /// empty for an item read from a JSON dump ([`MediaItem::has_bytes`]). A deflated item whose
    /// stream is corrupt gives the error, every time.
    pub fn bytes(&self) -> Result<Bytes, MediaError> {
        match &self.content {
            Content::Plain(bytes) => Ok(bytes.clone()),
            Content::Dumped { .. } => Ok(Bytes::new()),
            Content::Deflated(d) => d
                .inflated
                .get_or_init(|| {
                    let mut out = Vec::with_capacity(self.size);
                    d.raw
                        .copy_to(&mut out)
                        .map(|_| Bytes::from(out))
                        .map_err(|e| MediaError {
                            name: self.name.clone(),
                            reason: match e {
                                // Not the archive as a whole: this entry's content.
                                crate::Error::NotZip(message) => message,
                                other => other.to_string(),
                            },
                        })
                })
                .clone(),
        }
    }

    /// Writes the bytes to `out`. A picture still deflated (and not inflated yet) is inflated
    /// straight into `out`, never held whole in memory: for writing files. Errors: the
    /// picture's own (it does not inflate: [`crate::Error::Invalid`]) or `out`'s
    /// ([`crate::Error::Write`]); part of the bytes may have been written.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> crate::Result<()> {
        let write_error = |e: std::io::Error| crate::Error::Write {
            format: "file",
            message: format!("{}: {e}", self.name),
        };
        match &self.content {
            Content::Deflated(d) if d.inflated.get().is_none() => {
                d.raw.copy_to(out).map(|_| ()).map_err(|e| match e {
                    e @ crate::Error::Write { .. } => e,
                    crate::Error::NotZip(message) => MediaError {
                        name: self.name.clone(),
                        reason: message,
                    }
                    .into(),
                    other => MediaError {
                        name: self.name.clone(),
                        reason: other.to_string(),
                    }
                    .into(),
                })
            }
            _ => out.write_all(&self.bytes()?).map_err(write_error),
        }
    }

    /// The zip entry the bytes are still stored in, when they are deflated and nothing changed
    /// them: a writer producing a zip copies it as it is ([`crate::archive::ZipWriter::add_media`]).
    pub fn stored(&self) -> Option<&RawEntry> {
        match &self.content {
            Content::Deflated(d) => Some(&d.raw),
            _ => None,
        }
    }

    /// How many bytes the item takes in a zip a writer copies it into: the stored entry's
    /// compressed size while it is still deflated, else its size.
    pub fn stored_size(&self) -> usize {
        match &self.content {
            Content::Deflated(d) => usize::try_from(d.raw.compressed_size).unwrap_or(usize::MAX),
            _ => self.size,
        }
    }

    /// Whether the bytes have been inflated already (or never needed to be): for tests and
    /// measurements that check nothing inflates needlessly.
    pub fn is_inflated(&self) -> bool {
        match &self.content {
            Content::Deflated(d) => d.inflated.get().is_some(),
            _ => true,
        }
    }

    /// Whether the item has its bytes: `false` for one read from a JSON dump, which knows only
    /// their size and hash.
    pub fn has_bytes(&self) -> bool {
        !matches!(self.content, Content::Dumped { .. })
    }

    /// A 64-bit hash of the bytes, hex (see `content_hash`): what the JSON dump shows. Inflates
    /// a deflated item; one that cannot be inflated hashes as `unreadable`.
    pub fn hash(&self) -> String {
        match &self.content {
            Content::Dumped { hash } => hash.clone(),
            _ => match self.bytes() {
                Ok(bytes) => format!("{:016x}", content_hash(&bytes)),
                Err(_) => "unreadable".to_string(),
            },
        }
    }
}

impl std::fmt::Debug for MediaItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let storage = match &self.content {
            Content::Plain(_) => "plain",
            Content::Deflated(_) => "deflated",
            Content::Dumped { .. } => "dumped",
        };
        f.debug_struct("MediaItem")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("size", &self.size)
            .field("storage", &storage)
            .finish()
    }
}

/// Items are equal when their names, sniffed facts and bytes are: two deflated items of the
/// same zip entry without inflating, others by their bytes (or, read from JSON, their hashes).
impl PartialEq for MediaItem {
    fn eq(&self, other: &Self) -> bool {
        if (&self.name, self.kind, self.width, self.height, self.size)
            != (
                &other.name,
                other.kind,
                other.width,
                other.height,
                other.size,
            )
        {
            return false;
        }
        match (&self.content, &other.content) {
            (Content::Deflated(a), Content::Deflated(b)) if a.raw.same_entry(&b.raw) => true,
            (Content::Dumped { hash: a }, Content::Dumped { hash: b }) => a == b,
            (Content::Dumped { .. }, _) | (_, Content::Dumped { .. }) => false,
            _ => match (self.bytes(), other.bytes()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            },
        }
    }
}

/// A 64-bit content hash for the JSON dump: eight bytes a step (the byte-wise FNV-1a it replaced
/// cost 20 ms on the 18 MB benchmark document), each word mixed in with a multiply and a shift.
/// Not cryptographic: it only has to change when the content does.
fn content_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
        h ^= h >> 29;
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^ (h >> 32)
}

/// All images of a document, by name, in name order (so dumps and zips are deterministic).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MediaStore {
    items: BTreeMap<String, MediaItem>,
}

impl MediaStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces an item; returns its name.
    pub fn insert(&mut self, item: MediaItem) -> String {
        let name = item.name.clone();
        self.items.insert(name.clone(), item);
        name
    }

    /// Stores `bytes` under `name`, sniffing type and size.
    pub fn add(&mut self, name: impl Into<String>, bytes: impl Into<Bytes>) -> String {
        self.insert(MediaItem::new(name, bytes))
    }

    /// The item called `name`.
    pub fn get(&self, name: &str) -> Option<&MediaItem> {
        self.items.get(name)
    }

    /// Whether an item is called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.items.contains_key(name)
    }

    /// Removes and returns the item called `name`.
    pub fn remove(&mut self, name: &str) -> Option<MediaItem> {
        self.items.remove(name)
    }

    /// All items in name order.
    pub fn iter(&self) -> impl Iterator<Item = &MediaItem> {
        self.items.values()
    }

    /// All items in name order, mutable (for image processors).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut MediaItem> {
        self.items.values_mut()
    }

    /// How many items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// `name`, or `stem-2.ext`, `stem-3.ext`… (the number before the extension), the first that
/// `taken` does not hold.
pub(crate) fn unused_name(name: String, taken: impl Fn(&str) -> bool) -> String {
    if !taken(&name) {
        return name;
    }
    let (stem, ext) = match name.rfind('.') {
        Some(i) if i > 0 => name.split_at(i),
        _ => (name.as_str(), ""),
    };
    (2u32..)
        .map(|n| format!("{stem}-{n}{ext}"))
        .find(|candidate| !taken(candidate))
        .unwrap_or(name)
}

/// Pictures read for writing as files ([`read_files`]).
pub(crate) struct ReadFiles {
    /// (file name, bytes), in the order given.
    pub files: Vec<(String, Bytes)>,
    /// (file name, why) of each picture that does not inflate, left out of `files`.
    pub broken: Vec<(String, MediaError)>,
}

/// Reads the bytes of `pictures` (each a file name and its picture) in parallel on the rayon
/// pool, for writers that hand out files.
pub(crate) fn read_files(pictures: Vec<(String, MediaItem)>) -> ReadFiles {
    use rayon::prelude::*;
    let read: Vec<_> = pictures.par_iter().map(|(_, item)| item.bytes()).collect();
    let mut files = Vec::with_capacity(pictures.len());
    let mut broken = Vec::new();
    for ((name, _), bytes) in pictures.into_iter().zip(read) {
        match bytes {
            Ok(bytes) => files.push((name, bytes)),
            Err(e) => broken.push((name, e)),
        }
    }
    ReadFiles { files, broken }
}

/// Pictures into a zip: the media store knows how its items are held, the zip layer knows only
/// entries, so these live here and the zip layer never depends on the tree.
impl ZipWriter {
    /// An empty archive with room for `pictures` as they will be stored (still deflated ones
    /// at their compressed size) and `text` bytes of XML or HTML, which deflate to about a
    /// fifth: what every zip writer reserves.
    pub fn with_room_for<'a>(
        pictures: impl IntoIterator<Item = &'a MediaItem>,
        text: usize,
    ) -> Self {
        let pictures = pictures
            .into_iter()
            .fold(0usize, |sum, m| sum.saturating_add(m.stored_size()));
        Self::with_capacity(pictures.saturating_add(text / 4).saturating_add(64 * 1024))
    }
}

impl<W: std::io::Write + std::io::Seek> ZipWriter<W> {
    /// Adds picture `item` under `name`: its zip entry copied as it is stored when it still has
    /// one ([`MediaItem::stored`]), else its bytes, stored (pictures are compressed already).
    pub fn add_media(&mut self, name: &str, item: &MediaItem) -> crate::Result<()> {
        match item.stored() {
            Some(raw) => self.add_raw(name, raw),
            // Only deflated items can fail to give their bytes, and those took the branch above.
            None => self.add(name, &item.bytes()?, Compression::Store),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_hash_changes_with_content() {
        let a = MediaItem::new("a.png", b"abc".to_vec());
        let b = MediaItem::new("a.png", b"abd".to_vec());
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.size, 3);
        // Every position counts, the tail and the length too.
        let base = vec![7u8; 20];
        let hashes: std::collections::HashSet<u64> = (0..20)
            .map(|i| {
                let mut v = base.clone();
                v[i] ^= 1;
                content_hash(&v)
            })
            .chain([content_hash(&base), content_hash(&base[..19])])
            .collect();
        assert_eq!(hashes.len(), 22);
    }

    #[test]
    fn deflated_items_sniff_a_prefix_and_inflate_once() {
        use crate::archive::{Compression, Source, ZipReader, ZipWriter};
        // A JPEG whose frame header sits behind 5 KB of metadata: past the short prefix.
        let mut jpg = vec![0xFF, 0xD8, 0xFF, 0xE1];
        jpg.extend_from_slice(&5000u16.to_be_bytes());
        jpg.extend_from_slice(&[0u8; 4998]);
        jpg.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x0A, 0x00, 0x14, 0x03]);
        jpg.extend_from_slice(&[0u8; 100]);
        let mut w = ZipWriter::new();
        w.add("p.jpg", &jpg, Compression::Deflate).unwrap();
        let zip = Bytes::from(w.finish().unwrap());
        let limits = crate::Limits::default();
        let mut r = ZipReader::from_source(Source::Shared(zip), &limits).unwrap();
        let item = MediaItem::deflated("p.jpg", r.read_raw("p.jpg").unwrap());
        assert_eq!(
            (item.kind, item.width, item.height, item.size),
            (MediaKind::Jpeg, Some(20), Some(10), jpg.len())
        );
        assert!(!item.is_inflated());
        let plain = MediaItem::new("p.jpg", jpg.clone());
        let copy = item.clone();
        assert_eq!(item.hash(), plain.hash());
        // Inflated once, for every clone.
        assert!(copy.is_inflated());
        assert_eq!(item, plain);
        assert_eq!(&item.bytes().unwrap()[..], &jpg[..]);

        // The JSON dump keeps size and hash, not the bytes.
        let back: MediaItem = serde_json::from_str(&serde_json::to_string(&item).unwrap()).unwrap();
        assert!(!back.has_bytes());
        assert_eq!((back.hash(), back.size), (plain.hash(), jpg.len()));
        assert!(back.bytes().unwrap().is_empty());
        assert_ne!(back, plain);
    }
}
