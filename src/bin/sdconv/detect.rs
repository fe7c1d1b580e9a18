//! Reading the input and working out the formats: from flags, file extensions, or the bytes.

use std::io::Read;
use std::path::Path;

use sdconv::{Format, Undetected};

use crate::Failure;

/// The input, read whole, with the name errors should use.
pub struct Input {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// The bytes, shared: the tree read from them keeps its pictures deflated inside them.
    pub bytes: bytes::Bytes,
    /// Whether the input is standard input.
    is_stdin: bool,
    /// Whether `bytes` map the file ([`map_input`]).
    mapped: bool,
}

impl Input {
    /// Drops the pages under `part` (a share of the input's bytes) from this process's memory
    /// when the input is mapped; they stay in the page cache and come back on the next read.
    /// The HTML folder writes each picture inflated from the mapping: without this, every
    /// picture's deflated bytes stay resident to the end, 18 MB of a 56 MB peak for the 18 MB
    /// benchmark document. Does nothing for an input that was read, or bytes outside it.
    pub fn release(&self, part: &[u8]) {
        if !self.mapped || part.is_empty() {
            return;
        }
        let base = self.bytes.as_ptr() as usize;
        let (start, end) = (part.as_ptr() as usize, part.as_ptr() as usize + part.len());
        if start < base || end > base + self.bytes.len() {
            return;
        }
        // Whole pages only, inside the mapping (which starts on a page boundary): a page
        // shared with a neighbour stays.
        const PAGE: usize = 4096;
        let first = (start - base).div_ceil(PAGE) * PAGE;
        let last = (end - base) / PAGE * PAGE;
        if last <= first {
            return;
        }
        // SAFETY: `base + first .. base + last` lies in the private, read-only file mapping
        // `map_input` made; MADV_DONTNEED on such a mapping only drops pages, which a later
        // read faults in again from the file with the same contents. A failure leaves the
        // pages resident: only a missed saving.
        unsafe {
            libc::madvise(
                (base + first) as *mut libc::c_void,
                last - first,
                libc::MADV_DONTNEED,
            );
        }
    }
}

/// Reads `path` (`-` = standard input).
pub fn read_input(path: &Path) -> Result<Input, Failure> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::convert("<stdin>", format!("cannot read: {e}")))?;
        return Ok(Input {
            name: "<stdin>".into(),
            bytes: bytes.into(),
            is_stdin: true,
            mapped: false,
        });
    }
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => Ok(Input {
            name,
            bytes: bytes.into(),
            is_stdin: false,
            mapped: false,
        }),
        Err(e) => Err(Failure::convert(name, format!("cannot read: {e}"))),
    }
}

/// Inputs at least this large are mapped rather than read by [`map_input`].
const MAP_FROM: u64 = 1 << 20;

/// Reads `path` like [`read_input`], but maps a large file into memory instead of copying it.
///
/// For `sdconv convert`: a copy of an 18 MB input is 4,400 pages of fresh memory the kernel has
/// to zero and fault in, about a tenth of the whole conversion; mapped, the pages come from the
/// page cache. The mapping is read-only and private, but a file truncated by another process
/// while the conversion runs ends it with SIGBUS, as in other tools that map their input
/// (ripgrep, git). `sdconv batch` reads its files instead: a batch over a share where files are
/// still being written must not die with one of them. Falls back to reading when the file
/// cannot be mapped (a pipe, a special file).
pub fn map_input(path: &Path) -> Result<Input, Failure> {
    if path != Path::new("-") {
        if let Some(map) = std::fs::File::open(path)
            .ok()
            .filter(|f| {
                f.metadata()
                    .is_ok_and(|m| m.is_file() && m.len() >= MAP_FROM)
            })
            // SAFETY: the map is only read, through `Bytes`, and lives as long as they do; the
            // file changing underneath is the SIGBUS case described above.
            .and_then(|f| unsafe { memmap2::Mmap::map(&f) }.ok())
        {
            return Ok(Input {
                name: path.display().to_string(),
                bytes: bytes::Bytes::from_owner(map),
                is_stdin: false,
                mapped: true,
            });
        }
    }
    read_input(path)
}

/// The input format: `--from`, else the engine's [`Format::detect`] from the file name (not for
/// standard input) and the bytes. A zip that is broken or holds no format sdconv reads is the
/// input's failure; bytes of no format at all are a usage error, answered with `--from`.
pub fn input_format(input: &Input, from: Option<Format>, path: &Path) -> Result<Format, Failure> {
    if let Some(format) = from {
        return Ok(format);
    }
    let name = (!input.is_stdin).then_some(path);
    match Format::detect(&input.bytes, name) {
        Ok(format) => Ok(format),
        Err(e @ Undetected::ForeignZip(_)) => Err(Failure::convert(
            &input.name,
            format!("cannot tell the format: {e} (name it with --from)"),
        )),
        Err(e @ Undetected::BrokenZip(_)) => Err(Failure::convert(&input.name, e)),
        Err(e) => Err(Failure::Usage(format!(
            "cannot tell the format of {} ({e}); give it with --from",
            input.name
        ))),
    }
}

/// The output format: `--to`, else `OUTPUT`'s extension. A bare `.zip` says nothing (sd.xml,
/// parsX and HTML downloads are all zips), but `name.sdxml.zip` does.
pub fn output_format(to: Option<Format>, output: Option<&Path>) -> Result<Format, Failure> {
    if let Some(format) = to {
        return Ok(format);
    }
    match output.filter(|p| *p != Path::new("-")) {
        Some(path) => zip_double_extension(path)
            .or_else(|| Format::from_path(path))
            .ok_or_else(|| {
                Failure::Usage(format!(
                    "cannot tell the output format from {:?}; give it with --to",
                    path.display().to_string()
                ))
            }),
        None => Err(Failure::Usage(
            "writing to standard output needs --to FMT".into(),
        )),
    }
}

/// The format of `name.FMT.zip`, for the formats that are zips.
fn zip_double_extension(path: &Path) -> Option<Format> {
    if !path.extension()?.eq_ignore_ascii_case("zip") {
        return None;
    }
    match Format::from_path(Path::new(path.file_stem()?))? {
        f @ (Format::Sdxml | Format::Parsx | Format::Html) => Some(f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sdconv::internal::archive::{Compression, ZipWriter};

    fn input(bytes: Vec<u8>, is_stdin: bool) -> Input {
        Input {
            name: "in".into(),
            bytes: bytes.into(),
            is_stdin,
            mapped: false,
        }
    }

    fn zip(entry: &str) -> Vec<u8> {
        let mut w = ZipWriter::new();
        w.add(entry, b"<x/>", Compression::Deflate).unwrap();
        w.finish().unwrap()
    }

    fn detect(bytes: Vec<u8>, path: &str) -> Result<Format, Failure> {
        input_format(&input(bytes, path == "-"), None, Path::new(path))
    }

    #[test]
    fn flag_wins_then_extension_then_content() {
        let json = b"{}".to_vec();
        let given = input_format(
            &input(json.clone(), false),
            Some(Format::Word),
            Path::new("a.json"),
        );
        assert_eq!(given.ok(), Some(Format::Word));
        assert_eq!(detect(zip("sd.xml"), "a.json").ok(), Some(Format::Json));
        assert_eq!(detect(zip("sd.xml"), "a.docx").ok(), Some(Format::Word));
        assert_eq!(detect(zip("sd.xml"), "a.zip").ok(), Some(Format::Sdxml));
        assert_eq!(detect(zip("sd.xml"), "-").ok(), Some(Format::Sdxml));
        assert_eq!(
            detect(zip("[Content_Types].xml"), "a.zip").ok(),
            Some(Format::Word)
        );
        assert_eq!(
            detect(b"  \n{\"a\":1}".to_vec(), "-").ok(),
            Some(Format::Json)
        );
    }

    #[test]
    fn undecidable_inputs_say_what_to_do() {
        assert!(matches!(
            detect(zip("other.txt"), "a.zip"),
            Err(Failure::Convert { message, .. })
                if message.contains("neither sd.xml") && message.contains("--from")
        ));
        assert!(matches!(
            detect(b"not a zip".to_vec(), "a.zip"),
            Err(Failure::Convert { message, .. }) if message.starts_with("not a valid zip")
        ));
        assert!(matches!(
            detect(vec![0, 159, 146, 150], "-"),
            Err(Failure::Usage(message)) if message.contains("--from")
        ));
        assert!(matches!(
            detect(b"%PDF-1.7".to_vec(), "-"),
            Err(Failure::Usage(message)) if message.contains("a PDF")
        ));
    }

    #[test]
    fn unnamed_text_is_markdown_as_in_every_binding() {
        assert_eq!(
            detect(b"# Title".to_vec(), "-").ok(),
            Some(Format::Markdown)
        );
        assert_eq!(
            detect(b"Plain notes.".to_vec(), "notes.txt").ok(),
            Some(Format::Markdown)
        );
    }

    #[test]
    fn output_format_needs_a_flag_or_a_telling_name() {
        assert_eq!(
            output_format(None, Some(Path::new("x.docx"))).ok(),
            Some(Format::Word)
        );
        assert_eq!(
            output_format(Some(Format::Pdf), Some(Path::new("x.docx"))).ok(),
            Some(Format::Pdf)
        );
        assert!(matches!(
            output_format(None, Some(Path::new("x.zip"))),
            Err(Failure::Usage(_))
        ));
        assert!(matches!(
            output_format(None, Some(Path::new("-"))),
            Err(Failure::Usage(_))
        ));
        assert!(matches!(output_format(None, None), Err(Failure::Usage(_))));
        assert_eq!(
            output_format(None, Some(Path::new("x.SDXML.zip"))).ok(),
            Some(Format::Sdxml)
        );
        assert_eq!(
            output_format(None, Some(Path::new("x.html.zip"))).ok(),
            Some(Format::Html)
        );
        assert!(matches!(
            output_format(None, Some(Path::new("x.json.zip"))),
            Err(Failure::Usage(_))
        ));
    }
}
