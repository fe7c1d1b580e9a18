//! The documentAccessLink: one use, one minute, a read-only page with its images.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::*;

async fn imported(h: &Harness, language: &str) -> Value {
    let mut data = creation("u1", "g1", "draft", "Linked document");
    data["user"]["language"] = json!(language);
    let (status, access) = send_json(h.post("/partner/imports/word/upload").multipart(upload(
        "s.docx",
        sample_docx(),
        &data,
    )))
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    access
}

#[tokio::test]
async fn a_link_opens_the_page_once_and_records_the_open() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = imported(&h, "de_DE").await;
    let link = access["documentAccessLink"].as_str().unwrap();
    let resp = h.http.get(link).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let page_url = resp.headers()["location"].to_str().unwrap().to_string();
    assert!(
        page_url.starts_with(&h.url("/pages/")) && page_url.ends_with('/'),
        "{page_url}"
    );
    let page = h.http.get(&page_url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.unwrap();
    assert!(html.contains("Linked document"), "title shown");
    assert!(html.contains("<table"), "tables shown");
    assert!(html.contains("lang=\"de-DE\""), "in the user's language");
    // Images are served beside the page.
    let src = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("an image");
    let image = h.http.get(format!("{page_url}{src}")).send().await.unwrap();
    assert_eq!(image.status(), StatusCode::OK, "{src}");
    assert!(
        image.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/")
    );
    let css = h
        .http
        .get(format!("{page_url}style.css"))
        .send()
        .await
        .unwrap();
    assert_eq!(css.status(), StatusCode::OK);
    // The open is recorded.
    let (_, rec) = h
        .doc(access["documentId"].as_str().unwrap(), Some("u1"))
        .await;
    assert_eq!(rec["hasOpenedDocument"], true);
    // Second use: a clear refusal page.
    let again = h.http.get(link).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
    assert!(again.text().await.unwrap().contains("no longer valid"));
    // Without the trailing slash the page redirects to it.
    let bare = h
        .http
        .get(page_url.trim_end_matches('/'))
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::PERMANENT_REDIRECT);
    // A token that could not be one is refused, never echoed into a header.
    let odd = h.http.get(h.url("/pages/%0Abad")).send().await.unwrap();
    assert_eq!(odd.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_link_expires_after_one_minute() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let a = h.create("u1", "g1", "draft").await;
    let b = h.create("u1", "g1", "draft").await;
    h.clock.advance(59);
    let ok = h
        .http
        .get(a["documentAccessLink"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::SEE_OTHER);
    h.clock.advance(1);
    let late = h
        .http
        .get(b["documentAccessLink"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(late.status(), StatusCode::FORBIDDEN);
    assert!(late.text().await.unwrap().contains("expired"));
    let (_, rec) = h.doc(b["documentId"].as_str().unwrap(), Some("u1")).await;
    assert_eq!(rec["hasOpenedDocument"], false, "a late use is not an open");
    let unknown = h.http.get(h.url("/access/0123")).send().await.unwrap();
    assert_eq!(unknown.status(), StatusCode::FORBIDDEN);
}
