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
fn setup_block_is_the_two_commands() {
    let readme = readme();
    let block = readme.split("```sh\n").nth(1).unwrap();
    let block = block.split("```").next().unwrap();
    assert_eq!(
        block.lines().collect::<Vec<_>>(),
        [
            "cargo run --release -- convert samples/sample.sdxml.zip --to json -o sample.json",
            "cargo test",
        ]
    );
}
