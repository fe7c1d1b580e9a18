//! Headless Chromium follows a documentAccessLink: the page shows the title, tables and images;
//! a second visit shows the refusal page. Skipped with a printed reason when Chromium is not
//! installed (`.ci/run` installs Debian's `chromium`). Screenshots go to
//! `target/server-browser/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::*;

fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn run(chrome: &Path, profile: &Path, args: &[&str]) -> String {
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--run-all-compositor-stages-before-draw",
            "--virtual-time-budget=5000",
            "--window-size=1000,1300",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test]
async fn chromium_follows_an_access_link_once() {
    let Some(chrome) = chromium() else {
        eprintln!("skipped: chromium is not installed (.ci/run installs Debian's chromium)");
        return;
    };
    let Some(h) = Harness::start().await else {
        return;
    };
    let data = creation("u1", "g1", "draft", "Browser test document");
    let (status, access) = send_json(h.post("/partner/imports/word/upload").multipart(upload(
        "s.docx",
        sample_docx(),
        &data,
    )))
    .await;
    assert_eq!(status, StatusCode::OK);
    let id = access["documentId"].as_str().unwrap().to_string();
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/server-browser");
    std::fs::create_dir_all(&shots).unwrap();
    let profile = tempfile::tempdir().unwrap();

    // First visit: the DOM after the redirect shows the document.
    let link = access["documentAccessLink"].as_str().unwrap().to_string();
    let (c, p, l) = (chrome.clone(), profile.path().to_path_buf(), link.clone());
    let dom = tokio::task::spawn_blocking(move || run(&c, &p, &["--dump-dom", &l]))
        .await
        .unwrap();
    assert!(dom.contains("Browser test document"), "title: {dom:.400}");
    assert!(dom.contains("<table"), "tables");
    assert!(dom.contains("<img"), "images");

    // A screenshot of the page through a fresh link (the first is used up).
    let rights = json!({"user": {"userId": "u1"}, "userRole": "approver"});
    let (_, again) = send_json(h.post(&format!("/partner/documents/{id}")).json(&rights)).await;
    let fresh = again["documentAccessLink"].as_str().unwrap().to_string();
    let page_png = shots.join("page.png");
    let (c, p, arg) = (
        chrome.clone(),
        profile.path().to_path_buf(),
        format!("--screenshot={}", page_png.display()),
    );
    tokio::task::spawn_blocking(move || run(&c, &p, &[&arg, &fresh]))
        .await
        .unwrap();
    assert!(
        std::fs::metadata(&page_png).is_ok_and(|m| m.len() > 10_000),
        "page screenshot"
    );

    // Second visit of the first link: the refusal page.
    let (c, p, l) = (chrome.clone(), profile.path().to_path_buf(), link.clone());
    let dom = tokio::task::spawn_blocking(move || run(&c, &p, &["--dump-dom", &l]))
        .await
        .unwrap();
    assert!(dom.contains("This link is no longer valid"), "{dom:.400}");
    let refused_png = shots.join("refused.png");
    let (c, p, arg) = (
        chrome,
        profile.path().to_path_buf(),
        format!("--screenshot={}", refused_png.display()),
    );
    tokio::task::spawn_blocking(move || run(&c, &p, &[&arg, &link]))
        .await
        .unwrap();
    assert!(
        std::fs::metadata(&refused_png).is_ok_and(|m| m.len() > 1_000),
        "refusal screenshot"
    );
}
