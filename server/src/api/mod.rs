//! The router: one module per group of the spec's endpoints.

pub mod catalogs;
pub mod documents;
pub mod exports;
pub mod imports;
pub mod legacy;
pub mod pages;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::error::ApiError;
use crate::state::AppState;

/// Every route as `(method, path)` in the spec's notation; the OpenAPI document is tested
/// against this list and this list against the router.
pub const ROUTES: &[(&str, &str)] = &[
    ("get", "/health"),
    ("get", "/openapi.json"),
    ("post", "/partner/authenticate"),
    ("post", "/users/authenticate"),
    ("get", "/partner/users/{userId}"),
    ("get", "/partner/routines"),
    ("post", "/partner/routines"),
    ("get", "/partner/imports/word/mapping"),
    ("get", "/partner/templates/word"),
    ("post", "/partner/templates/word"),
    ("get", "/partner/templates/sdox"),
    ("post", "/partner/templates/sdox"),
    ("post", "/partner/documents/create"),
    ("get", "/partner/documents/list"),
    ("get", "/partner/documents/unseen/count"),
    ("get", "/partner/documents/unseen/list"),
    ("get", "/partner/documents/background-upload/{jobId}"),
    ("get", "/partner/documents/{id}"),
    ("post", "/partner/documents/{id}"),
    ("delete", "/partner/documents/{id}"),
    ("post", "/partner/documents/{id}/metadata"),
    ("post", "/partner/documents/{id}/review"),
    ("post", "/partner/documents/{id}/duplicate"),
    ("post", "/partner/documents/{id}/archive"),
    ("post", "/partner/documents/{id}/unarchive"),
    ("post", "/partner/documents/{id}/deletion-process"),
    ("delete", "/partner/documents/{id}/deletion-process"),
    ("post", "/partner/documents/{id}/export/sdxml"),
    ("post", "/partner/documents/{id}/export/parsx"),
    ("post", "/partner/documents/{id}/export/html"),
    ("post", "/partner/documents/{id}/export/word"),
    ("post", "/partner/documents/{id}/export/pdf"),
    ("post", "/partner/imports/word/upload"),
    ("post", "/partner/imports/word/background-upload"),
    ("post", "/partner/imports/sdxml/upload"),
    ("get", "/access/{token}"),
    ("get", "/pages/{token}"),
    ("get", "/pages/{token}/"),
    ("get", "/pages/{token}/{*path}"),
];

async fn health() -> impl IntoResponse {
    axum::Json(serde_json::json!({"status": "ok"}))
}

async fn openapi(State(state): State<AppState>) -> impl IntoResponse {
    axum::Json(crate::openapi::document(&state.public_url))
}

/// An announced body larger than the limit is refused before it is read: 403, the spec's
/// "Request Entity Too Large". (Bodies without a length are cut by the body limit while read.)
async fn upload_limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let limit = state.config.max_upload;
    if declared.is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX)) {
        return ApiError::too_large(format!("request body exceeds the limit of {limit} bytes"))
            .into_response();
    }
    next.run(req).await
}

/// The one error shape for every error, including those axum and tower-http answer themselves
/// in plain text (rejected paths and queries, wrong methods, timeouts): their text becomes the
/// message. A rejected request (400, 415, 422) is the spec's 412, a body over the limit (413)
/// its 403.
async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    let is_ours = resp
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json") || ct.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_ours {
        return resp;
    }
    let text = match axum::body::to_bytes(resp.into_body(), 64 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(_) => String::new(),
    };
    let text = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let (status, code) = match status.as_u16() {
        400 | 415 | 422 => (StatusCode::PRECONDITION_FAILED, "precondition_failed"),
        413 => (StatusCode::FORBIDDEN, "too_large"),
        405 => (status, "method_not_allowed"),
        408 | 503 => (status, "timeout"),
        s if s >= 500 => (status, "internal"),
        _ => (status, "error"),
    };
    ApiError {
        status,
        code,
        message: text,
    }
    .into_response()
}

async fn fallback() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        code: "no_route",
        message: "no endpoint has this path; see /openapi.json".into(),
    }
}

/// The application.
pub fn router(state: AppState) -> Router {
    use documents as d;
    let limit = state.config.max_upload;
    let timeout = state.config.timeout;
    Router::new()
        .route("/health", get(health))
        .route("/openapi.json", get(openapi))
        .route("/partner/authenticate", post(legacy::partner))
        .route("/users/authenticate", post(legacy::users))
        .route("/partner/users/{user_id}", get(catalogs::user))
        .route(
            "/partner/routines",
            get(catalogs::routines).post(catalogs::routines),
        )
        .route("/partner/imports/word/mapping", get(catalogs::mapping))
        .route(
            "/partner/templates/word",
            get(catalogs::word_templates).post(catalogs::word_templates),
        )
        .route(
            "/partner/templates/sdox",
            get(catalogs::sdox_templates).post(catalogs::sdox_templates),
        )
        .route("/partner/documents/create", post(d::create))
        .route("/partner/documents/list", get(d::list))
        .route("/partner/documents/unseen/count", get(d::unseen_count))
        .route("/partner/documents/unseen/list", get(d::unseen_list))
        .route(
            "/partner/documents/background-upload/{job}",
            get(imports::job),
        )
        .route(
            "/partner/documents/{id}",
            get(d::get).post(d::open).delete(d::delete),
        )
        .route("/partner/documents/{id}/metadata", post(d::metadata))
        .route("/partner/documents/{id}/review", post(d::review))
        .route("/partner/documents/{id}/duplicate", post(d::duplicate))
        .route("/partner/documents/{id}/archive", post(d::archive))
        .route("/partner/documents/{id}/unarchive", post(d::unarchive))
        .route(
            "/partner/documents/{id}/deletion-process",
            post(d::deletion_start).delete(d::deletion_cancel),
        )
        .route("/partner/documents/{id}/export/sdxml", post(exports::sdxml))
        .route("/partner/documents/{id}/export/parsx", post(exports::parsx))
        .route("/partner/documents/{id}/export/html", post(exports::html))
        .route("/partner/documents/{id}/export/word", post(exports::word))
        // An extension of this server: the spec has no PDF export.
        .route("/partner/documents/{id}/export/pdf", post(exports::pdf))
        .route("/partner/imports/word/upload", post(imports::word_upload))
        .route(
            "/partner/imports/word/background-upload",
            post(imports::word_background),
        )
        .route("/partner/imports/sdxml/upload", post(imports::sdxml_upload))
        .merge(
            // What a browser opens: the headers of pages::security_headers on every answer.
            Router::new()
                .route("/access/{token}", get(pages::access))
                .route("/pages/{token}", get(pages::page_root))
                .route("/pages/{token}/", get(pages::page_index))
                .route("/pages/{token}/{*path}", get(pages::page_file))
                .layer(middleware::from_fn(pages::security_headers)),
        )
        .fallback(fallback)
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(state.clone(), upload_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            timeout,
        ))
        .layer(middleware::from_fn(json_errors))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
