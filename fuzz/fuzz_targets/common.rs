//! The harness shared by the fuzz targets: what must hold for any input.

use sdconv::{ExportOptions, Format, ImportOptions};

/// Imports `data` as `format`. An error is a fine answer (the fuzzer is looking for panics,
/// hangs and runaway memory); a tree must validate — apart from images whose bytes are missing,
/// which readers keep by name with a warning — and must dump to JSON.
pub fn check_import(format: Format, data: &[u8]) {
    let Ok(converted) = sdconv::import(format, data, &ImportOptions::default()) else {
        return;
    };
    let doc = converted.value;
    if let Err(violations) = doc.validate() {
        let real: Vec<String> = violations
            .iter()
            .map(ToString::to_string)
            .filter(|v| !v.contains("is not in the media store"))
            .collect();
        assert!(
            real.is_empty(),
            "{format} reader built an invalid tree: {real:#?}"
        );
    }
    let json = sdconv::export(&doc, Format::Json, &ExportOptions::default());
    assert!(json.is_ok(), "JSON export failed: {:?}", json.err());
}
