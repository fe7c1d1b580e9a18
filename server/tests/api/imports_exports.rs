//! Imports (word, word in the background, sdxml) and exports (sdxml, parsx, html, word, and the
//! PDF extension),
//! including the Word round trip through the server.

use std::collections::HashMap;

use reqwest::StatusCode;
use sdconv::ast::{Block, Inline, TextType};
use sdconv::{Document, Format, ImportOptions};
use serde_json::{Value, json};

use crate::harness::*;

async fn word_import(h: &Harness, name: &str, file: Vec<u8>, data: &Value) -> (StatusCode, Value) {
    send_json(
        h.post("/partner/imports/word/upload")
            .multipart(upload(name, file, data)),
    )
    .await
}

async fn export(h: &Harness, id: &str, kind: &str, body: Value) -> (StatusCode, Vec<u8>, String) {
    let resp = h
        .post(&format!("/partner/documents/{id}/export/{kind}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let ct = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, resp.bytes().await.unwrap().to_vec(), ct)
}

/// Imports the sample for `u1`, a German-speaking user; the document id.
async fn german_sample(h: &Harness) -> String {
    let mut data = import_data("u1");
    data["user"]["language"] = json!("de_DE");
    let (_, access) = word_import(h, "sample.docx", sample_docx(), &data).await;
    access["documentId"].as_str().unwrap().to_string()
}

fn import_data(user: &str) -> Value {
    creation(user, "g1", "draft", "The small sample")
}

/// Renames list ids in order of appearance (ids are the writer's, not content).
fn rename_lists(blocks: &mut [Block], names: &mut HashMap<String, String>) {
    for b in blocks {
        match b {
            Block::Paragraph(p) => {
                if let Some(id) = &mut p.list_id {
                    let n = names.len() + 1;
                    *id = names
                        .entry(id.clone())
                        .or_insert_with(|| format!("list-{n}"))
                        .clone();
                }
            }
            Block::Table(t) => {
                for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                    rename_lists(&mut cell.blocks, &mut HashMap::new());
                }
            }
            _ => {}
        }
    }
}

/// The tree without what a document's identity and metadata add (the server sets metadata from
/// the record) and without writer-chosen ids.
fn comparable(doc: &Document) -> Document {
    let mut d = doc.clone();
    d.meta = Default::default();
    rename_lists(&mut d.blocks, &mut HashMap::new());
    d.walk_blocks_mut(&mut |_, b| match b {
        Block::Paragraph(p) => p.origin_ids = None,
        Block::Image(img) => img.origin_ids = None,
        Block::Table(t) => t.origin_ids = None,
        _ => {}
    });
    d
}

fn assert_same_tree(what: &str, got: &Document, want: &Document) {
    let (g, w) = (comparable(got).to_json(), comparable(want).to_json());
    if g != w {
        let first = g
            .lines()
            .zip(w.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let show = |s: &str| {
            s.lines()
                .skip(first.saturating_sub(3))
                .take(8)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{what}: trees differ at line {first}\n--- got\n{}\n--- want\n{}",
            show(&g),
            show(&w)
        );
    }
}

#[tokio::test]
async fn word_round_trip_through_the_server_keeps_the_tree() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let docx = sample_docx();
    let original = sdconv::import(Format::Word, &docx, &ImportOptions::default())
        .unwrap()
        .value;
    // The fixture has what the issue names: tables, images, footnotes, numbered headings.
    let mut kinds = (false, false, false, false);
    original.walk_blocks(&mut |_, b| match b {
        Block::Table(_) => kinds.0 = true,
        Block::Image(_) => kinds.1 = true,
        Block::Paragraph(p) if p.kind == TextType::HeadingOl => kinds.3 = true,
        _ => {}
    });
    original.walk_inlines(&mut |i| {
        if matches!(i, Inline::Note { .. }) {
            kinds.2 = true;
        }
    });
    assert_eq!(
        kinds,
        (true, true, true, true),
        "tables, images, footnotes, numbered headings"
    );

    let (status, access) = word_import(&h, "sample.docx", docx, &import_data("u1")).await;
    assert_eq!(status, StatusCode::OK, "{access}");
    let id = access["documentId"].as_str().unwrap();

    let (status, bytes, ct) = export(&h, id, "sdxml", json!({"userId": "u1"})).await;
    assert_eq!((status, ct.as_str()), (StatusCode::OK, "application/zip"));
    assert!(zip_names(&bytes).contains(&"sd.xml".to_string()));
    let from_sdxml = sdconv::import(Format::Sdxml, &bytes, &ImportOptions::default())
        .unwrap()
        .value;
    assert_same_tree("export/sdxml", &from_sdxml, &original);
    assert_eq!(from_sdxml.meta.title.as_deref(), Some("The small sample"));

    let settings = json!({"imageCaption": true, "tableCaption": true});
    let (status, bytes, ct) = export(
        &h,
        id,
        "word",
        json!({"userId": "u1", "templateId": "report", "settings": settings}),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    assert!(ct.contains("wordprocessingml"), "{ct}");
    let from_word = sdconv::import(Format::Word, &bytes, &ImportOptions::default())
        .unwrap()
        .value;
    assert_same_tree("export/word", &from_word, &original);
}

#[tokio::test]
async fn parsx_and_html_exports() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (_, access) = word_import(&h, "sample.docx", sample_docx(), &import_data("u1")).await;
    let id = access["documentId"].as_str().unwrap();
    let (status, bytes, _) = export(&h, id, "parsx", json!({"userId": "u1"})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(zip_names(&bytes).contains(&"parsx.xml".to_string()));

    let (status, bytes, ct) = export(
        &h,
        id,
        "html",
        json!({"userId": "u1", "type": "html", "download": true}),
    )
    .await;
    assert_eq!((status, ct.as_str()), (StatusCode::OK, "application/zip"));
    let names = zip_names(&bytes);
    assert!(
        names.iter().any(|n| n.ends_with(".html"))
            && names.iter().any(|n| n.starts_with("images/")),
        "{names:?}"
    );

    let (status, bytes, _) = export(
        &h,
        id,
        "html",
        json!({"userId": "u1", "type": "html_all_in_one", "download": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(zip_text(&bytes, "index.html").contains("data:image/"));

    // download false: a URL to a served page that expires.
    let (status, body, _) = export(
        &h,
        id,
        "html",
        json!({"userId": "u1", "type": "html", "download": false}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let url: Value = serde_json::from_slice(&body).unwrap();
    let url = url["url"].as_str().unwrap().to_string();
    let page = h.http.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("The small sample"));
    h.clock.advance(3601);
    let page = h.http.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::FORBIDDEN);
    assert!(page.text().await.unwrap().contains("expired"));
    assert_eq!(h.server.sweep().await.unwrap().pages, 1);

    assert_error(
        h.post(&format!("/partner/documents/{id}/export/html"))
            .json(&json!({"userId": "u1", "type": "pdf", "download": true})),
        412,
        "precondition_failed",
        "type",
    )
    .await;
    assert_error(
        h.post(&format!("/partner/documents/{id}/export/html"))
            .json(&json!({"userId": "u1", "type": "html"})),
        412,
        "precondition_failed",
        "download",
    )
    .await;
}

#[tokio::test]
async fn word_export_uses_the_users_language_and_checks_template_and_settings() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = german_sample(&h).await;
    let id = id.as_str();
    let body = |settings: Value, template: &str| json!({"userId": "u1", "templateId": template, "settings": settings});
    let (status, bytes, _) = export(
        &h,
        id,
        "word",
        body(json!({"imageCaption": true}), "report"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        zip_text(&bytes, "word/document.xml").contains("Abbildung"),
        "German caption label"
    );
    // An explicit language wins.
    let (_, bytes, _) = export(
        &h,
        id,
        "word",
        body(json!({"imageCaption": true, "language": "en_EN"}), "report"),
    )
    .await;
    assert!(zip_text(&bytes, "word/document.xml").contains("Figure"));
    let path = format!("/partner/documents/{id}/export/word");
    assert_error(
        h.post(&path).json(&body(json!({}), "no-such")),
        412,
        "precondition_failed",
        "templateId",
    )
    .await;
    assert_error(
        h.post(&path)
            .json(&body(json!({"imageToc": true}), "report")),
        412,
        "precondition_failed",
        "imageToc",
    )
    .await;
    assert_error(
        h.post(&path).json(&body(json!("x"), "report")),
        412,
        "precondition_failed",
        "settings",
    )
    .await;
}

#[tokio::test]
async fn export_rights() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (_, access) = word_import(&h, "sample.docx", sample_docx(), &import_data("u1")).await;
    let id = access["documentId"].as_str().unwrap();
    let sdxml = |user: &str| {
        h.post(&format!("/partner/documents/{id}/export/sdxml"))
            .json(&json!({"userId": user}))
    };
    assert_error(sdxml("ghost"), 403, "not_found", "ghost").await;
    h.create("u2", "g1", "draft").await;
    assert_error(sdxml("u2"), 403, "forbidden", "draft").await;
    // The creator without the export right.
    let rights =
        json!({"user": {"userId": "u1"}, "userRole": "reader", "documentExportDuplicate": false});
    send_json(h.post(&format!("/partner/documents/{id}")).json(&rights)).await;
    assert_error(sdxml("u1"), 403, "forbidden", "documentExportDuplicate").await;
    assert_error(
        h.post(&format!("/partner/documents/{id}/export/sdxml"))
            .json(&json!({})),
        412,
        "precondition_failed",
        "userId",
    )
    .await;
}

#[tokio::test]
async fn word_import_options_and_refusals() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let docx = sample_docx();
    // .docx only (by name), and the bytes must be one.
    let (status, body) = word_import(&h, "sample.doc", docx.clone(), &import_data("u1")).await;
    assert_eq!(
        (status.as_u16(), body["error"].as_str()),
        (412, Some("precondition_failed"))
    );
    assert!(body["message"].as_str().unwrap().starts_with("file:"));
    let (status, body) =
        word_import(&h, "fake.docx", b"not a zip".to_vec(), &import_data("u1")).await;
    assert_eq!(status.as_u16(), 412, "{body}");
    // Missing parts.
    let form = reqwest::multipart::Form::new().text("data", import_data("u1").to_string());
    assert_error(
        h.post("/partner/imports/word/upload").multipart(form),
        412,
        "precondition_failed",
        "file",
    )
    .await;
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(docx.clone()).file_name("a.docx"),
    );
    assert_error(
        h.post("/partner/imports/word/upload").multipart(form),
        412,
        "precondition_failed",
        "data",
    )
    .await;
    assert_error(
        h.post("/partner/imports/word/upload").json(&json!({})),
        412,
        "precondition_failed",
        "body",
    )
    .await;
    // styleMapping level 0..=5.
    let mut data = import_data("u1");
    data["styleMapping"] = json!({"Lead": {"textType": "heading", "level": 6}});
    let (status, body) = word_import(&h, "a.docx", docx.clone(), &data).await;
    assert_eq!(status.as_u16(), 412, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("styleMapping"),
        "{body}"
    );
    data["styleMapping"] = json!({"Lead": {"textType": "heading", "level": 5}});
    assert_eq!(
        word_import(&h, "a.docx", docx.clone(), &data).await.0,
        StatusCode::OK
    );
    // Magic import: needs a known styleSetKey; the mapping is then ignored.
    let mut data = import_data("u1");
    data["isMagicImport"] = json!(true);
    let (status, body) = word_import(&h, "a.docx", docx.clone(), &data).await;
    assert_eq!(status.as_u16(), 412);
    assert!(body["message"].as_str().unwrap().starts_with("styleSetKey"));
    data["styleSetKey"] = json!("no-such-set");
    assert_eq!(
        word_import(&h, "a.docx", docx.clone(), &data)
            .await
            .0
            .as_u16(),
        412
    );
    data["styleSetKey"] = json!("numbered-headers|contract_1-1-1");
    data["styleMapping"] = json!({"Lead": {"textType": "heading", "level": 9}});
    assert_eq!(
        word_import(&h, "a.docx", docx.clone(), &data).await.0,
        StatusCode::OK
    );
    // Routines: known keys only.
    let mut data = import_data("u1");
    data["routines"] = json!(["no-such-routine"]);
    let (status, body) = word_import(&h, "a.docx", docx.clone(), &data).await;
    assert_eq!(status.as_u16(), 412, "{body}");
    data["routines"] = json!(["remove-empty-paragraphs"]);
    assert_eq!(
        word_import(&h, "a.docx", docx, &data).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn oversized_upload_is_403() {
    let Some(h) = Harness::start_with(|c| c.max_upload = 64 * 1024).await else {
        return;
    };
    let big = vec![b'x'; 100 * 1024];
    let (status, body) = word_import(&h, "big.docx", big, &import_data("u1")).await;
    assert_eq!(status.as_u16(), 403, "{body}");
    assert_eq!(body["error"], "too_large");
}

async fn poll(h: &Harness, job: &str) -> Value {
    for _ in 0..200 {
        let (status, body) =
            send_json(h.get(&format!("/partner/documents/background-upload/{job}"))).await;
        assert_eq!(status, StatusCode::OK);
        if body["state"] != "PENDING" {
            return body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("job {job} did not finish");
}

#[tokio::test]
async fn background_upload_success_failure_and_unknown_job() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (status, body) = send_json(
        h.post("/partner/imports/word/background-upload")
            .multipart(upload("s.docx", sample_docx(), &import_data("u1"))),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let job = body["jobId"].as_str().unwrap().to_string();
    let done = poll(&h, &job).await;
    assert_eq!(done["state"], "SUCCESS", "{done}");
    let id = done["documentId"].as_str().unwrap();
    assert!(
        done["documentAccessLink"]
            .as_str()
            .unwrap()
            .contains("/access/")
    );
    assert_eq!(h.doc(id, None).await.1["title"], "The small sample");
    // Each read gives a fresh link.
    assert_ne!(
        poll(&h, &job).await["documentAccessLink"],
        done["documentAccessLink"]
    );
    // A broken file is found while converting: FAILURE with the state only.
    let (_, body) = send_json(
        h.post("/partner/imports/word/background-upload")
            .multipart(upload("b.docx", b"PK broken".to_vec(), &import_data("u1"))),
    )
    .await;
    let failed = poll(&h, body["jobId"].as_str().unwrap()).await;
    assert_eq!(failed, json!({"state": "FAILURE"}));
    // Request errors are answered at once.
    let (status, _) = send_json(
        h.post("/partner/imports/word/background-upload")
            .multipart(upload("b.txt", vec![1], &import_data("u1"))),
    )
    .await;
    assert_eq!(status.as_u16(), 412);
    assert!(sdconv_server::ids::is_uuid_v4(&job), "{job}");
    assert_error(
        h.get("/partner/documents/background-upload/6f1c1a0e-2b1d-4c3e-8f00-123456789abc"),
        404,
        "job_not_found",
        "no job has the id",
    )
    .await;
    assert_error(
        h.get("/partner/documents/background-upload/nope"),
        412,
        "precondition_failed",
        "jobId",
    )
    .await;
}

#[tokio::test]
async fn sdxml_upload_takes_the_sdxml_export() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (_, access) = word_import(&h, "sample.docx", sample_docx(), &import_data("u1")).await;
    let id = access["documentId"].as_str().unwrap();
    let (_, zip, _) = export(&h, id, "sdxml", json!({"userId": "u1"})).await;
    let mut data = import_data("u2");
    data["status"] = json!("review");
    let (status, again) = send_json(h.post("/partner/imports/sdxml/upload").multipart(upload(
        "doc.zip",
        zip.clone(),
        &data,
    )))
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    let copy = again["documentId"].as_str().unwrap();
    let (_, rec) = h.doc(copy, None).await;
    assert_eq!(
        (rec["status"].as_str(), rec["creatorId"].as_str()),
        (Some("review"), Some("u2"))
    );
    let (_, zip2, _) = export(&h, copy, "sdxml", json!({"userId": "u2"})).await;
    let a = sdconv::import(Format::Sdxml, &zip, &ImportOptions::default())
        .unwrap()
        .value;
    let b = sdconv::import(Format::Sdxml, &zip2, &ImportOptions::default())
        .unwrap()
        .value;
    assert_same_tree("sdxml re-import", &b, &a);
    let (status, body) = send_json(h.post("/partner/imports/sdxml/upload").multipart(upload(
        "x.zip",
        b"junk".to_vec(),
        &data,
    )))
    .await;
    assert_eq!(status.as_u16(), 412, "{body}");
}

/// Runs a poppler tool (`pdftotext`, `pdfinfo`) on `pdf`; None when poppler is missing outside CI
/// (`.ci/run` installs it, so CI never skips).
fn poppler(tool: &str, pdf: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let mut cmd = std::process::Command::new(tool);
    if tool == "pdftotext" {
        cmd.args([path.as_os_str(), "-".as_ref()]);
    } else {
        cmd.arg(&path);
    }
    match cmd.output() {
        Ok(out) => {
            assert!(out.status.success(), "{tool} failed on the export");
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped the {tool} checks: {e} (install poppler-utils)");
            None
        }
        Err(e) => panic!("{tool} is needed in CI: {e}"),
    }
}

#[tokio::test]
async fn pdf_export_extension() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = german_sample(&h).await;
    let id = id.as_str();

    // Defaults: A4, the user's language (German captions).
    let (status, pdf, ct) = export(
        &h,
        id,
        "pdf",
        json!({"userId": "u1", "settings": {"imageCaption": true}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&pdf));
    assert_eq!(ct, "application/pdf");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF file");
    if let Some(text) = poppler("pdftotext", &pdf) {
        assert!(text.contains("Abbildung"), "German caption label: {text}");
    }
    if let Some(info) = poppler("pdfinfo", &pdf) {
        assert!(info.contains("(A4)"), "{info}");
    }

    // Letter paper and an explicit language; settings may be left out entirely.
    let (status, pdf, _) = export(
        &h,
        id,
        "pdf",
        json!({"userId": "u1", "paper": "letter", "settings": {"imageCaption": true, "language": "en_EN"}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    if let Some(text) = poppler("pdftotext", &pdf) {
        assert!(text.contains("Figure"), "English caption label: {text}");
    }
    if let Some(info) = poppler("pdfinfo", &pdf) {
        assert!(info.contains("(letter)"), "{info}");
    }
    let (status, pdf, _) = export(&h, id, "pdf", json!({"userId": "u1"})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pdf.starts_with(b"%PDF-"));

    // The same refusals as the other exports, and the extension's own field.
    let path = format!("/partner/documents/{id}/export/pdf");
    assert_error(
        h.post(&path).json(&json!({"userId": "u1", "paper": "a5"})),
        412,
        "precondition_failed",
        "paper",
    )
    .await;
    assert_error(
        h.post(&path)
            .json(&json!({"userId": "u1", "settings": "x"})),
        412,
        "precondition_failed",
        "settings",
    )
    .await;
    assert_error(
        h.post(&path).json(&json!({"userId": "ghost"})),
        403,
        "not_found",
        "ghost",
    )
    .await;
    h.create("u2", "g1", "draft").await;
    assert_error(
        h.post(&path).json(&json!({"userId": "u2"})),
        403,
        "forbidden",
        "draft",
    )
    .await;
}

#[tokio::test]
async fn pdf_export_meets_the_standard_asked_or_names_why_not() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = german_sample(&h).await;
    let path = format!("/partner/documents/{id}/export/pdf");

    // PDF/A-2b, hyphenated: the XMP metadata (written uncompressed) identifies the part.
    let (status, pdf, ct) = export(
        &h,
        &id,
        "pdf",
        json!({"userId": "u1", "pdfStandard": "a2b", "hyphenate": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&pdf));
    assert_eq!(ct, "application/pdf");
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains("pdfaid:part"), "PDF/A identification");
    assert!(
        !text.contains("pdfuaid:part"),
        "no PDF/UA claim unless asked"
    );
    // `none` is the default: tagged PDF claiming no standard.
    let (status, pdf, _) = export(
        &h,
        &id,
        "pdf",
        json!({"userId": "u1", "pdfStandard": "none", "hyphenate": false}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!String::from_utf8_lossy(&pdf).contains("pdfaid:part"));

    // A name the CLI does not take: 412 naming the field, the value and the names it takes.
    let body = assert_error(
        h.post(&path)
            .json(&json!({"userId": "u1", "pdfStandard": "pdf/a-1b"})),
        412,
        "precondition_failed",
        "pdfStandard",
    )
    .await;
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("pdf/a-1b") && message.contains("a2b+ua1"),
        "{message}"
    );
    assert_error(
        h.post(&path)
            .json(&json!({"userId": "u1", "hyphenate": "yes"})),
        412,
        "precondition_failed",
        "expected a boolean",
    )
    .await;

    // A character no font has cannot be archived: the engine's reasons, as a 412 naming the
    // field that asked for the standard. Without a standard the same document is written.
    let mut doc = sdconv::import(Format::Word, &sample_docx(), &ImportOptions::default())
        .unwrap()
        .value;
    doc.blocks
        .push(Block::Paragraph(sdconv::ast::Paragraph::new(
            TextType::Paragraph,
            vec![Inline::text("a \u{10FFFD} b")],
        )));
    let zip = sdconv::export(&doc, Format::Sdxml, &sdconv::ExportOptions::default())
        .unwrap()
        .value;
    let (status, access) = send_json(h.post("/partner/imports/sdxml/upload").multipart(upload(
        "unglyphed.zip",
        zip,
        &import_data("u1"),
    )))
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    let unglyphed = access["documentId"].as_str().unwrap();
    let body = assert_error(
        h.post(&format!("/partner/documents/{unglyphed}/export/pdf"))
            .json(&json!({"userId": "u1", "pdfStandard": "a2b"})),
        412,
        "precondition_failed",
        "pdfStandard",
    )
    .await;
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("PDF/A-2b") && message.contains("U+10FFFD"),
        "{message}"
    );
    let (status, _, _) = export(&h, unglyphed, "pdf", json!({"userId": "u1"})).await;
    assert_eq!(status, StatusCode::OK);
}

/// The sample (as read from its Word form) with a tracked insertion and a tracked deletion
/// added (it has a comment already), stored for `u1` through the sd.xml upload; the document id.
async fn redlined(h: &Harness) -> String {
    use sdconv::ast::{Change, ChangeKind, Paragraph};
    let mut doc = sdconv::import(Format::Word, &sample_docx(), &ImportOptions::default())
        .unwrap()
        .value;
    assert!(!doc.comments.is_empty(), "the sample has a comment");
    let change = |kind| Change {
        kind,
        author: Some("Ann".into()),
        date: None,
    };
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![
            Inline::text("Kept "),
            Inline::Tracked {
                change: change(ChangeKind::Insert),
                children: vec![Inline::text("INSERTED")],
            },
            Inline::Tracked {
                change: change(ChangeKind::Delete),
                children: vec![Inline::text("DELETED")],
            },
        ],
    )));
    let zip = sdconv::export(&doc, Format::Sdxml, &sdconv::ExportOptions::default())
        .unwrap()
        .value;
    let (status, access) = send_json(h.post("/partner/imports/sdxml/upload").multipart(upload(
        "redlined.zip",
        zip,
        &import_data("u1"),
    )))
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    access["documentId"].as_str().unwrap().to_string()
}

/// The html page of an html export zip.
fn page_of(zip: &[u8]) -> String {
    let names = zip_names(zip);
    let page = names
        .iter()
        .find(|n| n.ends_with(".html"))
        .unwrap_or_else(|| panic!("no page in {names:?}"));
    zip_text(zip, page)
}

/// What a page shows of the changes and the comment: (insertion, deletion, marks, comment).
fn shows(page: &str) -> (bool, bool, bool, bool) {
    (
        page.contains("INSERTED"),
        page.contains("DELETED"),
        page.contains("<ins") || page.contains("<del"),
        page.contains("Check this sentence."),
    )
}

#[tokio::test]
async fn html_export_in_the_older_mode_form_answers_a_zip_per_mode() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let id = redlined(&h).await;
    let html = |body: Value| export(&h, &id, "html", body);

    // final: every change accepted, no comment; a page with its files.
    let (status, zip, ct) = html(json!({"userId": "u1", "mode": "final"})).await;
    assert_eq!((status, ct.as_str()), (StatusCode::OK, "application/zip"));
    assert!(zip_names(&zip).iter().any(|n| n.starts_with("images/")));
    let final_page = page_of(&zip);
    assert_eq!(shows(&final_page), (true, false, false, false));
    assert!(!final_page.contains("class=\"comment\""));

    // redlineAndPending: changes marked, the comment listed; as the spec's type form shows it.
    let (status, zip, _) = html(json!({"userId": "u1", "mode": "redlineAndPending"})).await;
    assert_eq!(status, StatusCode::OK);
    let redline = page_of(&zip);
    assert_eq!(shows(&redline), (true, true, true, true));
    let (_, zip, _) = html(json!({"userId": "u1", "type": "html", "download": true})).await;
    assert_eq!(page_of(&zip), redline);
    // news: no per-user change history to narrow it: as redlineAndPending.
    let (status, zip, _) = html(json!({"userId": "u1", "mode": "news"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page_of(&zip), redline);

    // allInOne: final as one self-contained file in the zip.
    let (status, zip, ct) = html(json!({"userId": "u1", "mode": "allInOne"})).await;
    assert_eq!((status, ct.as_str()), (StatusCode::OK, "application/zip"));
    assert_eq!(zip_names(&zip), ["index.html"]);
    let one = zip_text(&zip, "index.html");
    assert!(one.contains("data:image/") && one.contains("<style>"));
    assert_eq!(shows(&one), (true, false, false, false));
    // The spec's all-in-one shows the changes marked.
    let (_, zip, _) =
        html(json!({"userId": "u1", "type": "html_all_in_one", "download": true})).await;
    assert_eq!(
        shows(&zip_text(&zip, "index.html")),
        (true, true, true, true)
    );

    // download false with a mode: the page URL, as with type.
    let (status, body, _) = html(json!({"userId": "u1", "mode": "final", "download": false})).await;
    assert_eq!(status, StatusCode::OK);
    let url: Value = serde_json::from_slice(&body).unwrap();
    assert!(url["url"].as_str().unwrap().contains("/pages/"), "{url}");

    // Both forms at once, an unknown mode, neither: 412 naming the field.
    let path = format!("/partner/documents/{id}/export/html");
    for (body, needle) in [
        (
            json!({"userId": "u1", "type": "html", "download": true, "mode": "final"}),
            "mode: cannot be combined with type",
        ),
        (
            json!({"userId": "u1", "type": "html", "mode": "final"}),
            "mode:",
        ),
        (json!({"userId": "u1", "mode": "draft"}), "mode: \"draft\""),
        (json!({"userId": "u1", "mode": "Final"}), "mode:"),
        (json!({"userId": "u1"}), "type:"),
    ] {
        assert_error(
            h.post(&path).json(&body),
            412,
            "precondition_failed",
            needle,
        )
        .await;
    }
    // The rights apply as to the spec's form.
    h.create("u2", "g1", "draft").await;
    assert_error(
        h.post(&path)
            .json(&json!({"userId": "u2", "mode": "final"})),
        403,
        "forbidden",
        "draft",
    )
    .await;
}
