//! Pages a browser opens: the `documentAccessLink` (one use, one minute) and the rendered
//! read-only pages it and the html export lead to (`/pages/{token}/`, expiring).
//!
//! - The page an access link opens is bound to the user it was opened for: the link's answer
//!   sets a session cookie ([`SESSION_COOKIE`]: `HttpOnly`, `SameSite=Lax`, `Secure` when the
//!   public URL is https, its `Path` the page's own) and the page and its files are served only
//!   with it; the page URL alone gets a 403 page. The session ends with the page (an hour), with
//!   the document, or when the user is given a new link into the document.
//! - The page of an html export (`download: false`) is a link the partner may hand on: served
//!   to whoever holds its URL until it expires (an hour).
//! - Every answer under `/access/` and `/pages/` carries the headers of [`security_headers`]:
//!   no scripts, nothing from elsewhere, no framing, no referrer, no caching, no sniffing.

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use sdconv::Document;
use sdconv::export::html::HtmlOptions;
use sdconv::lang::Language;
use subtle::ConstantTimeEq;

use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::service::{self, PAGE_SECONDS};
use crate::state::AppState;
use crate::store::{PageSession, page_prefix};

/// The name of the session cookie of a page an access link opened.
pub const SESSION_COOKIE: &str = "sdconv_page";

/// The content security policy of every page: no scripts (nothing is allowed that is not
/// named), pictures from the page's own files or `data:` URIs, its stylesheet and the style
/// the HTML writer puts in the page itself (sizes and borders as `style` attributes, the
/// all-in-one page's `<style>`), fonts from the page's files; no base, no forms, no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; img-src 'self' data:; \
    style-src 'self' 'unsafe-inline'; font-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// A blob key segment for a file name of a page: bytes outside `[A-Za-z0-9.-]` become `_xx`
/// (hex), so any name the HTML writer produces maps to one safe key and back the same way.
fn key_segment(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
            out.push(b as char);
        } else {
            out.push_str(&format!("_{b:02x}"));
        }
    }
    // "." and ".." alone are not valid keys; they are never page files either.
    if out.chars().all(|c| c == '.') {
        out = out.replace('.', "_2e");
    }
    out
}

fn page_key(hash: &str, path: &str) -> String {
    let mut key = page_prefix(hash);
    for seg in path.split('/') {
        key.push('/');
        key.push_str(&key_segment(seg));
    }
    key
}

/// Whether `path` (below a page's folder) can name one of its files: segments, none empty.
/// (`…/x/` or `…//style.css` name no file; they are a 404, never a key for the file store.)
fn is_file_path(path: &str) -> bool {
    !path.is_empty() && path.split('/').all(|seg| !seg.is_empty())
}

/// Renders `tree` as a read-only page (the engine's HTML writer, in `language`), stores its
/// files and registers it, bound to `session` when given; returns its token. Valid
/// [`PAGE_SECONDS`].
async fn store_page(
    state: &AppState,
    document: &str,
    tree: Document,
    language: Language,
    all_in_one: bool,
    session: Option<&PageSession>,
) -> ApiResult<String> {
    let files = state
        .convert(move || {
            let options = HtmlOptions::default().with_language(language);
            if all_in_one {
                let page = sdconv::export::html::write_all_in_one(&tree, &options);
                (
                    vec![("index.html".to_string(), page.value.into_bytes())],
                    page.warnings,
                )
            } else {
                let files = sdconv::export::html::write_files(&tree, &options);
                let out = files
                    .value
                    .into_iter()
                    .map(|(name, bytes)| (name, bytes.to_vec()))
                    .collect();
                (out, files.warnings)
            }
        })
        .await?;
    for w in &files.1 {
        tracing::info!(document, "page warning: {w}");
    }
    let token = ids::random_token();
    let hash = ids::token_hash(&token);
    let blobs = files
        .0
        .into_iter()
        .map(|(name, bytes)| (page_key(&hash, &name), bytes))
        .collect();
    state.blob_put(blobs).await?;
    state
        .store
        .insert_page(&hash, document, state.now() + PAGE_SECONDS, session)
        .await?;
    Ok(token)
}

/// The URL of the page `token`.
fn page_url(state: &AppState, token: &str) -> String {
    format!("{}/pages/{token}/", state.public_url)
}

/// Renders `tree` as the page of an html export (`download: false`): a link anyone holding it
/// may open until it expires ([`PAGE_SECONDS`]); returns its URL.
pub async fn render(
    state: &AppState,
    document: &str,
    tree: Document,
    language: Language,
    all_in_one: bool,
) -> ApiResult<String> {
    let token = store_page(state, document, tree, language, all_in_one, None).await?;
    Ok(page_url(state, &token))
}

/// A page of its own for an answer that is not the page: `status`, a title and a line.
fn notice(status: StatusCode, title: &str, text: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:40em;margin:4em auto;color:#222}}\
         h1{{color:#a00}}</style></head>\
         <body><h1>{title}</h1><p>{text}</p></body></html>\n"
    );
    (status, Html(body)).into_response()
}

/// The refusal page of a used, late or unknown link (403).
fn refusal(title: &str, text: &str) -> Response {
    notice(StatusCode::FORBIDDEN, title, text)
}

/// The 404 page of a file a page does not have.
fn no_such_file() -> Response {
    notice(
        StatusCode::NOT_FOUND,
        "This file does not exist",
        "The page has no file at this address.",
    )
}

/// The headers of every answer under `/access/` and `/pages/` (pages, their files, redirects,
/// refusals): [`CONTENT_SECURITY_POLICY`], `Referrer-Policy: no-referrer` (a page's URL never
/// leaves with a click), `Cache-Control: no-store` (nothing of a page stays in a cache once its
/// session ended), `X-Content-Type-Options: nosniff`, and `X-Frame-Options: DENY` for browsers
/// that do not read `frame-ancestors`.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut resp = next.run(req).await;
    let headers = resp.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    resp
}

/// GET /access/{token}: consumes the one-time token, records the open, renders the document
/// for that user (their language) as a page bound to them, and redirects to it with the
/// session's cookie.
pub async fn access(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match open(&state, &token).await {
        Ok(Some((url, cookie))) => {
            let mut resp = Redirect::to(&url).into_response();
            match HeaderValue::from_str(&cookie) {
                Ok(v) => {
                    resp.headers_mut().insert(header::SET_COOKIE, v);
                    resp
                }
                Err(e) => ApiError::internal("session cookie", e).into_response(),
            }
        }
        Ok(None) => refusal(
            "This link is no longer valid",
            "A document link can be used once and only within one minute. It was already used \
             or has expired. Please open the document again from the application you came from.",
        ),
        Err(e) => e.into_response(),
    }
}

/// Opens the document of an access token: the page URL and the `Set-Cookie` value of its
/// session, or `None` for a used, late or unknown token.
async fn open(state: &AppState, token: &str) -> ApiResult<Option<(String, String)>> {
    let now = state.now();
    let Some((document, user)) = state
        .store
        .consume_access_token(&ids::token_hash(token), now)
        .await?
    else {
        return Ok(None);
    };
    state.store.record_open(&document, &user, now).await?;
    let Some(row) = state.store.document_any_client(&document).await? else {
        return Ok(None);
    };
    let language = state
        .store
        .user_by_sd_id(&row.client_id, &user)
        .await?
        .map(|u| u.language)
        .unwrap_or_else(|| "en_EN".into());
    let tree = service::load_tree(state, &row, Some(&language)).await?;
    let lang = Language::parse_api(&language).unwrap_or_default();
    // One session per user and document: the one this link opens.
    service::end_sessions(state, &row.id, &user).await?;
    let secret = ids::random_token();
    let session = PageSession {
        user,
        secret_hash: ids::token_hash(&secret),
    };
    let page = store_page(state, &row.id, tree, lang, false, Some(&session)).await?;
    Ok(Some((
        page_url(state, &page),
        session_cookie(state, &page, &secret),
    )))
}

/// The `Set-Cookie` value of a page's session: sent back only to the page's own path, never
/// to scripts (there are none, and `HttpOnly` keeps it so), not on cross-site subrequests
/// (`SameSite=Lax`, which still lets the partner's redirect open the page), only over TLS when
/// the public URL is https, and for an hour at most, as the page lives.
fn session_cookie(state: &AppState, page: &str, secret: &str) -> String {
    session_cookie_for(&state.public_url, page, secret)
}

fn session_cookie_for(url: &str, page: &str, secret: &str) -> String {
    // The path part of the public URL (a server behind a proxy under a prefix).
    let prefix = url
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or("");
    let secure = if url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    format!(
        "{SESSION_COOKIE}={secret}; Path={prefix}/pages/{page}/; Max-Age={PAGE_SECONDS}; HttpOnly; SameSite=Lax{secure}"
    )
}

/// Whether the request carries the cookie of `session`.
fn has_session(headers: &HeaderMap, session: &PageSession) -> bool {
    let want = session.secret_hash.as_bytes();
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == SESSION_COOKIE)
        .any(|(_, value)| bool::from(ids::token_hash(value).as_bytes().ct_eq(want)))
}

/// GET /pages/{token}: the page wants its trailing slash for its relative links. Tokens are
/// hex; anything else cannot name a page (and must not reach a `Location` header).
pub async fn page_root(Path(token): Path<String>) -> Response {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return refusal(
            "This page does not exist",
            "The address does not name a page.",
        );
    }
    Redirect::permanent(&format!("{token}/")).into_response()
}

/// GET /pages/{token}/
pub async fn page_index(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    serve(&state, &token, "index.html", &headers).await
}

/// GET /pages/{token}/{*path}
pub async fn page_file(
    State(state): State<AppState>,
    Path((token, path)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    serve(&state, &token, &path, &headers).await
}

async fn serve(state: &AppState, token: &str, path: &str, headers: &HeaderMap) -> Response {
    let hash = ids::token_hash(token);
    let page = match state.store.page(&hash, state.now()).await {
        Ok(Some(page)) => page,
        Ok(None) => {
            return refusal(
                "This page is no longer available",
                "It has expired or was closed: pages of documents are available for one hour, \
                 and a page opened with a link closes when a new link to the document is given. \
                 Open or export the document again.",
            );
        }
        Err(e) => return ApiError::from(e).into_response(),
    };
    if let Some(session) = &page.session
        && !has_session(headers, session)
    {
        return refusal(
            "This page opens only through its link",
            "A document page is shown only in the browser that opened its link. Please open \
             the document again from the application you came from.",
        );
    }
    if !is_file_path(path) {
        return no_such_file();
    }
    match state.blob_get(page_key(&hash, path)).await {
        Ok(Some(bytes)) => ([(header::CONTENT_TYPE, content_type(path))], bytes).into_response(),
        Ok(None) => no_such_file(),
        Err(e) if e.status == StatusCode::NOT_FOUND => no_such_file(),
        Err(e) => e.into_response(),
    }
}

fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        "webp" => "image/webp",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_keys_are_safe_and_distinct() {
        assert_eq!(key_segment("a b_c.png"), "a_20b_5fc.png");
        assert_eq!(key_segment(".."), "_2e_2e");
        assert_ne!(key_segment("a_20"), key_segment("a "));
        assert_eq!(page_key("h", "images/x.png"), "pages/h/images/x.png");
    }

    #[test]
    fn empty_segments_name_no_file() {
        assert!(is_file_path("style.css") && is_file_path("images/x.png"));
        for bad in ["", "x/", "/style.css", "images//x.png", "/"] {
            assert!(!is_file_path(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_session_cookie_is_scoped_and_flagged() {
        assert_eq!(
            session_cookie_for("http://127.0.0.1:8080", "p1", "s1"),
            "sdconv_page=s1; Path=/pages/p1/; Max-Age=3600; HttpOnly; SameSite=Lax"
        );
        assert_eq!(
            session_cookie_for("https://docs.example.com/sdconv", "p1", "s1"),
            "sdconv_page=s1; Path=/sdconv/pages/p1/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure"
        );
    }
}
