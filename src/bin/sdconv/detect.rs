//! Reading the input and working out the formats: from flags, file extensions, or the bytes.

use std::io::Read;
use std::path::Path;

use sdconv::package::{ZipReader, looks_like_zip};
use sdconv::{Format, Limits};

use crate::Failure;

/// The input, read whole, with the name errors should use.
pub struct Input {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Whether the input is standard input.
    is_stdin: bool,
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
            bytes,
            is_stdin: true,
        });
    }
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => Ok(Input {
            name,
            bytes,
            is_stdin: false,
        }),
        Err(e) => Err(Failure::convert(name, format!("cannot read: {e}"))),
    }
}

/// The input format: `--from`, else the extension, else the content (a zip holding `sd.xml` is
/// sd.xml, one holding `[Content_Types].xml` is Word; text starting with `{` is the JSON dump).
pub fn input_format(input: &Input, from: Option<Format>, path: &Path) -> Result<Format, Failure> {
    if let Some(format) = from {
        return Ok(format);
    }
    if !input.is_stdin {
        if let Some(format) = Format::from_path(path) {
            return Ok(format);
        }
    }
    let bytes = &input.bytes;
    if looks_like_zip(bytes) {
        // The import will enforce the caller's limits again; sniffing only lists the names.
        let zip = ZipReader::new(bytes, &Limits::default())
            .map_err(|e| Failure::convert(&input.name, e))?;
        if zip.contains("sd.xml") {
            return Ok(Format::Sdxml);
        }
        if zip.contains("[Content_Types].xml") {
            return Ok(Format::Word);
        }
        return Err(Failure::convert(
            &input.name,
            "cannot tell the format: the zip holds neither sd.xml nor [Content_Types].xml \
             (name it with --from)",
        ));
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        return Ok(Format::Json);
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
    {
        // The name promises a zip and the bytes are not one: that is a broken input.
        return Err(Failure::convert(
            &input.name,
            sdconv::Error::NotZip("the file does not start with a zip header".into()),
        ));
    }
    Err(Failure::Usage(format!(
        "cannot tell the format of {}; give it with --from",
        input.name
    )))
}

/// The output format: `--to`, else `OUTPUT`'s extension.
pub fn output_format(to: Option<Format>, output: Option<&Path>) -> Result<Format, Failure> {
    if let Some(format) = to {
        return Ok(format);
    }
    match output.filter(|p| *p != Path::new("-")) {
        Some(path) => Format::from_path(path).ok_or_else(|| {
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
