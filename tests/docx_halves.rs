//! A large main part is parsed in two halves at once (`src/import/docx/parse/halves.rs`); the
//! benchmark's real Word files (`../shared/bench`, main parts of 3.6 and 7.6 MB) must read
//! exactly as one parser reads them: the same tree, the same warnings.

mod common;

use sdconv::import::docx::{DocxImportOptions, read};

#[test]
fn large_files_read_alike_in_halves_and_by_one_parser() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    for name in ["large.docx", "large-lo.docx"] {
        let path = shared.join("bench").join(name);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipped: {} is absent", path.display());
            continue;
        };
        let halves = read(&bytes, &DocxImportOptions::default()).expect("reads");
        let one = read(
            &bytes,
            &DocxImportOptions::default().with_parse_on_one_core(true),
        )
        .expect("reads");
        assert!(!halves.value.blocks.is_empty(), "{name}");
        assert!(halves.value == one.value, "{name}: the trees differ");
        assert_eq!(halves.warnings, one.warnings, "{name}");
    }
}
