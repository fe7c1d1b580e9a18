//! The documentAccessLink: one use, one minute, a read-only page with its images, bound to the
//! browser session the link opened; the headers of every page; paths that name no file.

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

/// Follows an access link as a browser would: the page URL it redirects to and the
/// `Set-Cookie` value of the page's session.
pub async fn follow(h: &Harness, link: &str) -> (String, String) {
    let resp = h.http.get(link).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_page_headers(resp.headers());
    let page_url = resp.headers()["location"].to_str().unwrap().to_string();
    let set_cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    (page_url, set_cookie)
}

/// The `name=value` of a `Set-Cookie` value, as a browser sends it back.
pub fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_string()
}

/// The headers every answer under /access/ and /pages/ carries.
pub fn assert_page_headers(headers: &reqwest::header::HeaderMap) {
    let get = |name: &str| {
        headers
            .get(name)
            .unwrap_or_else(|| panic!("{name} missing: {headers:?}"))
            .to_str()
            .unwrap()
            .to_string()
    };
    let csp = get("content-security-policy");
    for directive in [
        "default-src 'none'",
        "img-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{directive} in {csp}");
    }
    assert!(
        !csp.contains("script-src"),
        "no script source at all: {csp}"
    );
    assert_eq!(get("referrer-policy"), "no-referrer");
    assert_eq!(get("cache-control"), "no-store");
    assert_eq!(get("x-content-type-options"), "nosniff");
}

/// GETs `url` with `cookie` (a `name=value`, or none); status, headers checked, text.
async fn page_get(h: &Harness, url: &str, cookie: Option<&str>) -> (StatusCode, String) {
    let mut r = h.http.get(url);
    if let Some(c) = cookie {
        r = r.header("cookie", c);
    }
    let resp = r.send().await.unwrap();
    assert_page_headers(resp.headers());
    (resp.status(), resp.text().await.unwrap())
}

#[tokio::test]
async fn a_link_opens_the_page_once_and_records_the_open() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = imported(&h, "de_DE").await;
    let link = access["documentAccessLink"].as_str().unwrap();
    let (page_url, set_cookie) = follow(&h, link).await;
    assert!(
        page_url.starts_with(&h.url("/pages/")) && page_url.ends_with('/'),
        "{page_url}"
    );
    let cookie = cookie_pair(&set_cookie);
    let page = h
        .http
        .get(&page_url)
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_page_headers(page.headers());
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
    assert!(!html.contains("<script"), "no scripts");
    // Images are served beside the page, to the session too.
    let src = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("an image");
    let image = h
        .http
        .get(format!("{page_url}{src}"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), StatusCode::OK, "{src}");
    assert_page_headers(image.headers());
    assert!(
        image.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/")
    );
    let (status, _) = page_get(&h, &format!("{page_url}style.css"), Some(&cookie)).await;
    assert_eq!(status, StatusCode::OK);
    // The open is recorded.
    let (_, rec) = h
        .doc(access["documentId"].as_str().unwrap(), Some("u1"))
        .await;
    assert_eq!(rec["hasOpenedDocument"], true);
    // Second use: a clear refusal page.
    let (status, text) = page_get(&h, link, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(text.contains("no longer valid"));
    // Without the trailing slash the page redirects to it.
    let bare = h
        .http
        .get(page_url.trim_end_matches('/'))
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::PERMANENT_REDIRECT);
    assert_page_headers(bare.headers());
    // A token that could not be one is refused, never echoed into a header.
    let (status, _) = page_get(&h, &h.url("/pages/%0Abad"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_page_of_a_link_is_served_only_to_the_session_the_link_opened() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = imported(&h, "en_EN").await;
    let id = access["documentId"].as_str().unwrap().to_string();
    let (page_url, set_cookie) = follow(&h, access["documentAccessLink"].as_str().unwrap()).await;
    // The cookie: for the page's own path, not for scripts, not on cross-site subrequests, for
    // an hour at most; not Secure on an http public URL.
    let path = page_url.strip_prefix(h.server.url()).unwrap();
    let attributes: Vec<&str> = set_cookie.split("; ").skip(1).collect();
    assert_eq!(
        attributes,
        [
            format!("Path={path}").as_str(),
            "Max-Age=3600",
            "HttpOnly",
            "SameSite=Lax"
        ],
        "{set_cookie}"
    );
    let cookie = cookie_pair(&set_cookie);
    assert!(cookie.starts_with("sdconv_page="), "{cookie}");
    // The page URL alone, or with another cookie, opens nothing: neither the page nor a file.
    for url in [page_url.clone(), format!("{page_url}style.css")] {
        for without in [None, Some("sdconv_page=0123456789abcdef"), Some("other=1")] {
            let (status, text) = page_get(&h, &url, without).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{url} {without:?}");
            assert!(text.contains("opens only through its link"), "{text}");
        }
        let (status, _) = page_get(&h, &url, Some(&cookie)).await;
        assert_eq!(status, StatusCode::OK, "{url}");
        // Among other cookies, as browsers send them.
        let (status, _) = page_get(&h, &url, Some(&format!("a=b; {cookie}; c=d"))).await;
        assert_eq!(status, StatusCode::OK, "{url}");
    }

    // A new link for the same user ends the session; the new link's session works.
    let rights = json!({"user": {"userId": "u1"}, "userRole": "approver"});
    let (_, again) = send_json(h.post(&format!("/partner/documents/{id}")).json(&rights)).await;
    let (status, text) = page_get(&h, &page_url, Some(&cookie)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(text.contains("no longer available"), "{text}");
    let (second_url, second) = follow(&h, again["documentAccessLink"].as_str().unwrap()).await;
    assert_ne!(second_url, page_url);
    let second = cookie_pair(&second);
    assert_eq!(
        page_get(&h, &second_url, Some(&second)).await.0,
        StatusCode::OK
    );
    // The old cookie does not open the new page.
    assert_eq!(
        page_get(&h, &second_url, Some(&cookie)).await.0,
        StatusCode::FORBIDDEN
    );

    // Another user's link leaves it open (review: both may open the document).
    send_json(h.post(&format!("/partner/documents/{id}/review"))).await;
    let other = json!({"user": {"userId": "u2"}, "userRole": "reader"});
    let (_, theirs) = send_json(h.post(&format!("/partner/documents/{id}")).json(&other)).await;
    let (their_url, their_cookie) =
        follow(&h, theirs["documentAccessLink"].as_str().unwrap()).await;
    assert_eq!(
        page_get(&h, &second_url, Some(&second)).await.0,
        StatusCode::OK
    );
    // Each session opens its own page only.
    assert_eq!(
        page_get(&h, &their_url, Some(&second)).await.0,
        StatusCode::FORBIDDEN
    );
    let their_cookie = cookie_pair(&their_cookie);
    assert_eq!(
        page_get(&h, &their_url, Some(&their_cookie)).await.0,
        StatusCode::OK
    );

    // An hour later the session has ended.
    h.clock.advance(3599);
    assert_eq!(
        page_get(&h, &second_url, Some(&second)).await.0,
        StatusCode::OK
    );
    h.clock.advance(1);
    let (status, text) = page_get(&h, &second_url, Some(&second)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(text.contains("expired"), "{text}");
    assert_eq!(h.server.sweep().await.unwrap().pages, 2);
}

#[tokio::test]
async fn deleting_the_document_ends_its_sessions_and_removes_its_pages() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = imported(&h, "en_EN").await;
    let id = access["documentId"].as_str().unwrap().to_string();
    let (page_url, set_cookie) = follow(&h, access["documentAccessLink"].as_str().unwrap()).await;
    let cookie = cookie_pair(&set_cookie);
    let (status, body, _) = {
        let resp = h
            .post(&format!("/partner/documents/{id}/export/html"))
            .json(&json!({"userId": "u1", "type": "html", "download": false}))
            .send()
            .await
            .unwrap();
        (resp.status(), resp.text().await.unwrap(), ())
    };
    assert_eq!(status, StatusCode::OK, "{body}");
    let export_url = serde_json::from_str::<Value>(&body).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        page_get(&h, &page_url, Some(&cookie)).await.0,
        StatusCode::OK
    );
    assert_eq!(page_get(&h, &export_url, None).await.0, StatusCode::OK);
    let (status, _) = send_json(h.delete(&format!("/partner/documents/{id}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        page_get(&h, &page_url, Some(&cookie)).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        page_get(&h, &export_url, None).await.0,
        StatusCode::FORBIDDEN
    );
    // Their files went with them (nothing left for the sweeper to find).
    let token = page_url.trim_end_matches('/').rsplit('/').next().unwrap();
    let hash = sdconv_server::ids::token_hash(token);
    let index = h
        .server
        .state
        .store
        .blobs
        .get(&format!("pages/{hash}/index.html"))
        .await
        .unwrap();
    assert!(index.is_none(), "page files left behind");
    assert_eq!(h.server.sweep().await.unwrap().pages, 0);
}

#[tokio::test]
async fn the_cookie_is_secure_and_under_the_prefix_of_an_https_public_url() {
    let Some(h) =
        Harness::start_with(|c| c.public_url = Some("https://docs.example.com/sd".into())).await
    else {
        return;
    };
    // The public URL is a proxy's that is not there: ask the server at its address, as the
    // proxy (stripping the prefix) would.
    let direct = |path: &str| format!("http://{}{path}", h.server.addr);
    let (status, access) = send_json(
        h.http
            .post(direct("/partner/documents/create"))
            .header("x-client-id", CLIENT)
            .bearer_auth(h.jwt())
            .json(&creation("u1", "g1", "draft", "T")),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    let link = access["documentAccessLink"].as_str().unwrap();
    let path = link.strip_prefix("https://docs.example.com/sd").unwrap();
    let resp = h.http.get(direct(path)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let location = resp.headers()["location"].to_str().unwrap();
    let set_cookie = resp.headers()["set-cookie"].to_str().unwrap();
    let page_path = location.strip_prefix("https://docs.example.com").unwrap();
    assert!(page_path.starts_with("/sd/pages/"), "{location}");
    assert!(
        set_cookie.contains(&format!("; Path={page_path};")),
        "{set_cookie}"
    );
    assert!(
        set_cookie.ends_with("; HttpOnly; SameSite=Lax; Secure"),
        "{set_cookie}"
    );
}

#[tokio::test]
async fn a_page_path_with_an_empty_segment_is_404_not_500() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let access = imported(&h, "en_EN").await;
    let id = access["documentId"].as_str().unwrap();
    let (page_url, set_cookie) = follow(&h, access["documentAccessLink"].as_str().unwrap()).await;
    let cookie = cookie_pair(&set_cookie);
    let resp = h
        .post(&format!("/partner/documents/{id}/export/html"))
        .json(&json!({"userId": "u1", "type": "html", "download": false}))
        .send()
        .await
        .unwrap();
    let export_url = resp.json::<Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_string();
    for (url, cookie) in [(&page_url, Some(cookie.as_str())), (&export_url, None)] {
        assert_eq!(
            page_get(&h, &format!("{url}style.css"), cookie).await.0,
            StatusCode::OK
        );
        for bad in ["x/", "/style.css", "images/", "images//x.png", "//"] {
            let (status, text) = page_get(&h, &format!("{url}{bad}"), cookie).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{url}{bad}: {text}");
            assert!(text.contains("This file does not exist"), "{text}");
        }
        let (status, _) = page_get(&h, &format!("{url}no-such.css"), cookie).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
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
