//! Pages a browser opens: the `documentAccessLink` (one use, one minute) and the rendered
//! read-only pages it and the html export lead to (`/pages/{token}/`, expiring).

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use sdconv::Document;
use sdconv::export::html::HtmlOptions;
use sdconv::lang::Language;

use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::service::{self, PAGE_SECONDS};
use crate::state::AppState;
use crate::store::page_prefix;

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

/// Renders `tree` as a read-only page (the engine's HTML writer, in `language`), stores its
/// files and returns the page's URL, valid [`PAGE_SECONDS`].
pub async fn render(
    state: &AppState,
    document: &str,
    tree: Document,
    language: Language,
    all_in_one: bool,
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
        .insert_page(&hash, document, state.now() + PAGE_SECONDS)
        .await?;
    Ok(format!("{}/pages/{token}/", state.public_url))
}

/// The refusal page of a used, late or unknown link.
fn refusal(title: &str, text: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:40em;margin:4em auto;color:#222}}\
         h1{{color:#a00}}</style></head>\
         <body><h1>{title}</h1><p>{text}</p></body></html>\n"
    );
    (StatusCode::FORBIDDEN, Html(body)).into_response()
}

/// GET /access/{token}: consumes the one-time token, records the open, renders the document
/// for that user (their language) and redirects to the page.
pub async fn access(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match open(&state, &token).await {
        Ok(Some(url)) => Redirect::to(&url).into_response(),
        Ok(None) => refusal(
            "This link is no longer valid",
            "A document link can be used once and only within one minute. It was already used \
             or has expired. Please open the document again from the application you came from.",
        ),
        Err(e) => e.into_response(),
    }
}

async fn open(state: &AppState, token: &str) -> ApiResult<Option<String>> {
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
    render(state, &row.id, tree, lang, false).await.map(Some)
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
pub async fn page_index(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    serve(&state, &token, "index.html").await
}

/// GET /pages/{token}/{*path}
pub async fn page_file(
    State(state): State<AppState>,
    Path((token, path)): Path<(String, String)>,
) -> Response {
    serve(&state, &token, &path).await
}

async fn serve(state: &AppState, token: &str, path: &str) -> Response {
    let hash = ids::token_hash(token);
    match state.store.page_valid(&hash, state.now()).await {
        Ok(true) => {}
        Ok(false) => {
            return refusal(
                "This page has expired",
                "Pages of exported documents are available for one hour. Export the document again.",
            );
        }
        Err(e) => return ApiError::from(e).into_response(),
    }
    match state.blob_get(page_key(&hash, path)).await {
        Ok(Some(bytes)) => ([(header::CONTENT_TYPE, content_type(path))], bytes).into_response(),
        Ok(None) => ApiError::not_found(format!("the page has no file {path:?}")).into_response(),
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
}
