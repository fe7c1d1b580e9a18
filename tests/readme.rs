//! Keeps README.md honest: its format table says "yes" exactly where this build converts.

use sdconv::{Document, Error, ExportOptions, Format, ImportOptions};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// Whether the facade has a reader for `format` (any answer but `Unavailable`).
fn reads(format: Format) -> bool {
    !matches!(
        sdconv::import(format, b"", &ImportOptions::default()),
        Err(Error::Unavailable(_))
    )
}

/// Whether the facade has a writer for `format`.
fn writes(format: Format) -> bool {
    !matches!(
        sdconv::export(&Document::new(), format, &ExportOptions::default()),
        Err(Error::Unavailable(_))
    )
}

#[test]
fn format_table_matches_the_build() {
    let readme = readme();
    let table = readme
        .split("| name (aliases) | what | read | write |")
        .nth(1)
        .expect("the README has the format table");
    let mut seen = Vec::new();
    for line in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // ["", name, what, read, write, ""]
        assert_eq!(cells.len(), 6, "{line}");
        let name = cells[1].split('`').nth(1).unwrap();
        let format = Format::parse(name).unwrap_or_else(|| panic!("unknown format {name}"));
        assert_eq!(
            cells[3] == "yes",
            reads(format),
            "README says {name} read is {:?}; update the table",
            cells[3]
        );
        assert_eq!(
            cells[4] == "yes",
            writes(format),
            "README says {name} write is {:?}; update the table",
            cells[4]
        );
        seen.push(format);
    }
    for format in Format::ALL {
        assert!(seen.contains(&format), "{format} is missing from the table");
    }
}

#[test]
fn setup_block_is_two_commands_and_the_first_one_works() {
    let readme = readme();
    let block = readme.split("```sh\n").nth(1).unwrap();
    let block = block.split("```").next().unwrap();
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(lines.len(), 2, "{block}");
    assert_eq!(lines[1], "cargo test --workspace");
    // Run the first command's conversion with the binary cargo built, as written, except that
    // the output goes to a temp folder.
    let args = lines[0]
        .strip_prefix("cargo run --release -- ")
        .expect("the first command runs the binary");
    let mut args: Vec<String> = args.split_whitespace().map(String::from).collect();
    let dir = tempfile::tempdir().unwrap();
    let o = args
        .iter()
        .position(|a| a == "-o")
        .expect("the command names its output");
    let output = dir.path().join(&args[o + 1]);
    args[o + 1] = output.display().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(&output).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "the sample becomes an HTML page"
    );
    assert!(page.contains("<figure"), "with its image");
    assert!(output.with_file_name("images").is_dir());
}

#[test]
fn the_bundled_docx_is_what_the_generator_writes() {
    // `cargo run --example make_samples` rewrites it with the report template, image and table
    // captions and a table of contents; this catches a stale committed copy.
    let committed =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/sample.docx")).unwrap();
    let mut options = ExportOptions::default();
    options.word = sdconv::export::word::WordOptions::new(
        "report",
        sdconv::export::word::PagedSettings::new(sdconv::lang::Language::En)
            .with_image_caption(true)
            .with_table_caption(true)
            .with_text_toc(true),
    );
    let fresh = sdconv::export(
        &sdconv::internal::sample::small_document(),
        Format::Word,
        &options,
    )
    .unwrap()
    .value;
    assert!(
        committed == fresh,
        "samples/sample.docx is stale: run `cargo run --example make_samples`"
    );
}
