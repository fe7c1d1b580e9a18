//! Keeps the hub-struct folders free of import loops: in `export/word/`, `import/docx/parse/`
//! and `import/docx/tree/` the shared struct (`Writer`, `BodyParser`, `Converter`) has a file of
//! its own that imports none of its steps (issue 33). `tools/import_graph.py --check` draws the
//! folders' imports and fails on a loop; see `docs/imports.md`.

use std::process::Command;

#[test]
fn hub_folders_have_no_import_loop() {
    let root = env!("CARGO_MANIFEST_DIR");
    let run = Command::new("python3")
        .current_dir(root)
        .args([
            "tools/import_graph.py",
            "--check",
            "src/export/word",
            "src/import/docx/parse",
            "src/import/docx/tree",
        ])
        .output();
    let Ok(out) = run else {
        eprintln!("skipped: python3 is not installed");
        return;
    };
    assert!(
        out.status.success(),
        "an import loop (a shared struct beside one of its steps?):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
