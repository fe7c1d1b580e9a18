//! Headless Chromium follows a documentAccessLink: the page shows the title, tables and images;
//! the page URL opens again in that browser (its session cookie) and gets the 403 page in a
//! fresh one; a second visit of the link shows the refusal page. Skipped with a printed reason when Chromium is not
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

    // The page is bound to this browser's session: its cookie (kept in the profile's cookie
    // store, scoped to the page's path) names the page. Reopened in this context it shows the
    // document; in a fresh context (no cookie) the same URL gets the 403 page.
    let page_url = format!(
        "{}{}",
        h.server.url(),
        session_cookie_path(profile.path()).await
    );
    assert!(page_url.contains("/pages/"), "{page_url}");
    let (c, p, u) = (
        chrome.clone(),
        profile.path().to_path_buf(),
        page_url.clone(),
    );
    let dom = tokio::task::spawn_blocking(move || run(&c, &p, &["--dump-dom", &u]))
        .await
        .unwrap();
    assert!(
        dom.contains("Browser test document"),
        "same context: {dom:.400}"
    );
    let fresh_profile = tempfile::tempdir().unwrap();
    let (c, p, u) = (
        chrome.clone(),
        fresh_profile.path().to_path_buf(),
        page_url.clone(),
    );
    let dom = tokio::task::spawn_blocking(move || run(&c, &p, &["--dump-dom", &u]))
        .await
        .unwrap();
    assert!(
        dom.contains("This page opens only through its link") && !dom.contains("Browser test"),
        "fresh context: {dom:.400}"
    );
    let bare = h.http.get(&page_url).send().await.unwrap();
    assert_eq!(bare.status(), StatusCode::FORBIDDEN);
    let bare_png = shots.join("bare-page-url.png");
    let (c, p, arg) = (
        chrome.clone(),
        fresh_profile.path().to_path_buf(),
        format!("--screenshot={}", bare_png.display()),
    );
    tokio::task::spawn_blocking(move || run(&c, &p, &[&arg, &page_url]))
        .await
        .unwrap();
    assert!(
        std::fs::metadata(&bare_png).is_ok_and(|m| m.len() > 1_000),
        "bare page URL screenshot"
    );

    // A screenshot of the page through a fresh link (the first is used up; the fresh one
    // ends the first one's session).
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

/// The path of the page session cookie Chromium keeps in `profile` (its cookie store is a
/// SQLite file, written when the browser exits; the cookie lasts an hour, so it is kept).
async fn session_cookie_path(profile: &Path) -> String {
    let store = ["Default/Cookies", "Default/Network/Cookies"]
        .iter()
        .map(|p| profile.join(p))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no cookie store in {}", profile.display()));
    let url = format!("sqlite://{}?mode=ro", store.display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let rows: Vec<(String, String, i64, i64)> =
        sqlx::query_as("SELECT name, path, is_httponly, samesite FROM cookies")
            .fetch_all(&pool)
            .await
            .unwrap();
    pool.close().await;
    let found: Vec<_> = rows
        .into_iter()
        .filter(|(name, ..)| name == "sdconv_page")
        .collect();
    assert_eq!(found.len(), 1, "one session cookie");
    let (_, path, http_only, same_site) = found.into_iter().next().unwrap();
    // Chromium's numbering: 1 = Lax.
    assert_eq!((http_only, same_site), (1, 1), "HttpOnly, SameSite=Lax");
    path
}
