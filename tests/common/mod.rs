//! Shared test helpers: tree generators ([`arb`]), the DTD check, the shared corpus's sd.xml
//! samples and Word/PDF settings.
#![allow(dead_code)]

pub mod arb;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sdconv::export::word::PagedSettings;
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::internal::sdxml_ext::{Ext, TARGET};
use sdconv::lang::Language;

/// proptest settings: `cases` cases, no failure files (integration tests have no `lib.rs` for
/// proptest to put them beside; a failure prints its minimal input instead).
pub fn config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// `../shared` beside the crate, or `None` (with the reason printed) when it is absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

/// Every file below `dir` (sub-folders too) whose extension is `ext` (any case), sorted.
pub fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// An unpacked sd.xml export (`dir/sd.xml` and `dir/images/*`) as the zip the service writes:
/// `sd.xml` deflated, then the images stored, in name order.
pub fn zip_folder(dir: &Path) -> Vec<u8> {
    let mut w = ZipWriter::new();
    w.add(
        "sd.xml",
        &std::fs::read(dir.join("sd.xml")).unwrap(),
        Compression::Deflate,
    )
    .unwrap();
    let mut images: Vec<_> = std::fs::read_dir(dir.join("images"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    images.sort();
    for path in images {
        let name = format!("images/{}", path.file_name().unwrap().to_string_lossy());
        w.add(&name, &std::fs::read(&path).unwrap(), Compression::Store)
            .unwrap();
    }
    w.finish().unwrap()
}

/// The three real sd.xml exports of `../shared/corpus/sdxml` as zips, by name (one is kept
/// unpacked there and zipped here), or `None` (with the reason printed) when they are absent.
pub fn real_sdxml_samples() -> Option<[(&'static str, Vec<u8>); 3]> {
    let dir = shared_dir()?.join("corpus/sdxml");
    Some([
        (
            "export-2018-minimal",
            std::fs::read(dir.join("export-2018-minimal.zip")).unwrap(),
        ),
        (
            "export-2017-table-image",
            std::fs::read(dir.join("export-2017-table-image.zip")).unwrap(),
        ),
        (
            "export-2017-footnotes",
            zip_folder(&dir.join("export-2017-footnotes")),
        ),
    ])
}

/// Word/PDF settings in `language` with both captions and all three directories on.
pub fn all_on(language: Language) -> PagedSettings {
    PagedSettings::new(language)
        .with_image_caption(true)
        .with_table_caption(true)
        .with_text_toc(true)
        .with_image_toc(true)
        .with_table_toc(true)
}

/// The service's DTD, or `None` when the shared material is absent.
pub fn dtd() -> Option<PathBuf> {
    let dtd = shared_dir()?.join("corpus/sdxml/sdxml_import.dtd");
    if dtd.is_file() {
        Some(dtd)
    } else {
        eprintln!("skipped: {} is absent", dtd.display());
        None
    }
}

/// Asserts that `xml` is valid against the service's DTD (`xmllint --dtdvalid`). Skips when the
/// DTD is absent; fails when xmllint is not installed.
pub fn assert_dtd_valid(xml: &str) {
    let Some(dtd) = dtd() else { return };
    let mut file = tempfile::Builder::new()
        .suffix(".xml")
        .tempfile()
        .expect("temp file");
    file.write_all(xml.as_bytes()).expect("write temp file");
    let out = match Command::new("xmllint")
        .arg("--noout")
        .arg("--dtdvalid")
        .arg(&dtd)
        .arg(file.path())
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run xmllint ({e}): install it with `apt-get install -y libxml2-utils` \
             (CI installs it)"
        ),
    };
    assert!(
        out.status.success(),
        "sd.xml is not valid against the DTD:\n{}\n--- sd.xml ---\n{}",
        String::from_utf8_lossy(&out.stderr),
        excerpt(xml)
    );
}

fn excerpt(xml: &str) -> String {
    if xml.len() <= 6000 {
        return xml.to_string();
    }
    let mut end = 6000;
    while !xml.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} …", &xml[..end])
}

/// Every `<?sdconv …?>` payload in `xml`, decoded, in document order.
pub fn pis(xml: &str) -> Vec<Ext> {
    let open = format!("<?{TARGET} ");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let body = &rest[i + open.len()..];
        let end = body.find("?>").expect("unterminated PI");
        out.push(Ext::decode(&body[..end]).unwrap_or_else(|| panic!("bad PI {}", &body[..end])));
        rest = &body[end + 2..];
    }
    out
}

/// Runs the `sdconv` binary in `dir` with `input` on its standard input.
pub fn sdconv_with_stdin(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sdconv");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("run sdconv")
}

/// Converts the Word files `inputs` to PDF beside them in `out_dir` with LibreOffice
/// (`soffice --headless`, a private profile in `profile`), asserting that it succeeds.
pub fn soffice_to_pdf(out_dir: &Path, profile: &Path, inputs: &[&Path]) -> Output {
    let out = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(out_dir)
        .args(inputs)
        .output()
        .expect("soffice runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
