//! Exports: every one a conversion of the stored sd.xml form.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use sdconv::export::html::HtmlOptions;
use sdconv::export::pdf::{Paper, PdfOptions, PdfStandard};
use sdconv::export::word::{PagedSettings, WordOptions};
use sdconv::lang::Language;
use sdconv::{ExportOptions, Format};
use serde_json::json;

use crate::api::pages;
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::payload::{ExportUser, HtmlExport, JsonBody, PdfExport, WordExport};
use crate::service;
use crate::state::AppState;
use crate::store::{DocumentRow, User};

const ZIP: &str = "application/zip";
const PDF: &str = "application/pdf";
const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/// The document and the exporting user, after the rights checks: the user exists, may see the
/// document (drafts: only the creator) and has not been denied `documentExportDuplicate`.
async fn exporter(
    state: &AppState,
    caller: &Caller,
    id: &str,
    user_id: &str,
) -> ApiResult<(DocumentRow, User)> {
    let row = service::document_or_403(state, &caller.client_id, id).await?;
    if user_id.is_empty() {
        return Err(ApiError::precondition("userId", "must not be empty"));
    }
    let user = service::user_or_403(state, &caller.client_id, "userId", user_id).await?;
    service::check_visible(&row, &user)?;
    let member = state.store.member(&row.id, &user.id).await?;
    if member.and_then(|m| m.export_duplicate) == Some(false) {
        return Err(ApiError::forbidden(
            "the user lacks the documentExportDuplicate right",
        ));
    }
    Ok((row, user))
}

fn file(content_type: &'static str, name: String, bytes: Vec<u8>) -> Response {
    // The name is made of the document id and a fixed extension: nothing to escape.
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response()
}

fn language(user: &User) -> Language {
    Language::parse_api(&user.language).unwrap_or_default()
}

/// The Word export's `settings` object, its `language` defaulting to the user's.
fn settings(mut value: serde_json::Value, user: &User) -> ApiResult<PagedSettings> {
    let Some(object) = value.as_object_mut() else {
        return Err(ApiError::precondition("settings", "must be an object"));
    };
    object
        .entry("language")
        .or_insert_with(|| json!(language(user).code()));
    PagedSettings::from_json(&value.to_string()).map_err(|e| ApiError::engine("settings", &e))
}

async fn convert(
    state: &AppState,
    tree: sdconv::Document,
    format: Format,
    options: ExportOptions,
) -> ApiResult<Vec<u8>> {
    let out = state
        .convert(move || sdconv::export(&tree, format, &options))
        .await?
        .map_err(|e| ApiError::engine("export", &e))?;
    for w in &out.warnings {
        tracing::info!(%format, "export warning: {w}");
    }
    Ok(out.value)
}

/// The sdxml and parsx exports: the stored tree written as a zip, named `<id>.<ext>`.
async fn zip_export(
    state: AppState,
    caller: Caller,
    id: String,
    body: ExportUser,
    format: Format,
    ext: &str,
) -> ApiResult<Response> {
    let (row, user) = exporter(&state, &caller, &id, &body.user_id).await?;
    let tree = service::load_tree(&state, &row, Some(&user.language)).await?;
    let bytes = convert(&state, tree, format, ExportOptions::default()).await?;
    Ok(file(ZIP, format!("{}.{ext}", row.id), bytes))
}

/// POST /partner/documents/{id}/export/sdxml
pub async fn sdxml(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<ExportUser>,
) -> ApiResult<Response> {
    zip_export(state, caller, id, body, Format::Sdxml, "sdxml.zip").await
}

/// POST /partner/documents/{id}/export/parsx
pub async fn parsx(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<ExportUser>,
) -> ApiResult<Response> {
    zip_export(state, caller, id, body, Format::Parsx, "parsx.zip").await
}

/// POST /partner/documents/{id}/export/html, in the spec's form `{userId, type, download}` or
/// the older `{userId, mode}` ([`HtmlExport::plan`]): a zip (download) or a page URL.
pub async fn html(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<HtmlExport>,
) -> ApiResult<Response> {
    let plan = body.plan()?;
    let (row, user) = exporter(&state, &caller, &id, &body.user_id).await?;
    let lang = language(&user);
    let tree = service::load_tree(&state, &row, Some(&user.language)).await?;
    // Tracked changes accepted or marked, comments kept or left out, as the plan says.
    let mut options = ExportOptions::default();
    options.track_changes = plan.track_changes;
    options.comments = plan.comments;
    options.html = HtmlOptions::default().with_language(lang);
    if !plan.download {
        // The page is rendered from the tree itself: prepared by the engine as export does.
        let tree = state.convert(move || options.prepare_owned(tree).0).await?;
        let url = pages::render(&state, &row.id, tree, lang, plan.all_in_one).await?;
        return Ok(Json(json!({"url": url})).into_response());
    }
    let bytes = if plan.all_in_one {
        // The download is always a zip "with an html page": here the one self-contained file.
        let out = state
            .convert(move || {
                let (tree, options) = options.prepare_owned(tree);
                sdconv::export::html::write_all_in_one_zip(&tree, &options.html)
            })
            .await?
            .map_err(|e| ApiError::engine("export", &e))?;
        for w in &out.warnings {
            tracing::info!(format = "html_all_in_one", "export warning: {w}");
        }
        out.value
    } else {
        convert(&state, tree, Format::Html, options).await?
    };
    Ok(file(ZIP, format!("{}.html.zip", row.id), bytes))
}

/// POST /partner/documents/{id}/export/word: `settings.language` defaults to the user's.
pub async fn word(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<WordExport>,
) -> ApiResult<Response> {
    let (row, user) = exporter(&state, &caller, &id, &body.user_id).await?;
    let settings = settings(body.settings, &user)?;
    if sdconv::export::word::WordTemplates::builtin()
        .get(&body.template_id)
        .is_none()
    {
        return Err(ApiError::precondition(
            "templateId",
            format!("no word template has the id {:?}", body.template_id),
        ));
    }
    let tree = service::load_tree(&state, &row, Some(&user.language)).await?;
    let mut options = ExportOptions::default();
    options.word = WordOptions::new(body.template_id, settings);
    let bytes = convert(&state, tree, Format::Word, options).await?;
    Ok(file(DOCX, format!("{}.docx", row.id), bytes))
}

/// POST /partner/documents/{id}/export/pdf: an extension of this server, not in the partner spec.
/// The engine's own PDF layout; `settings` as for Word (all optional, `language` defaulting to
/// the user's), `paper` `a4` (default) or `letter`, `pdfStandard` one of the CLI's
/// `--pdf-standard` names, `hyphenate` a bool. A document that cannot meet the standard is a
/// 412 naming `pdfStandard` and every reason.
pub async fn pdf(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<PdfExport>,
) -> ApiResult<Response> {
    let paper = match body.paper.as_deref() {
        None | Some("a4") => Paper::A4,
        Some("letter") => Paper::Letter,
        Some(other) => {
            return Err(ApiError::precondition(
                "paper",
                format!("{other:?} is not a4 or letter"),
            ));
        }
    };
    let standard = match body.pdf_standard.as_deref() {
        None => PdfStandard::None,
        // The engine's parser and message, which lists the names.
        Some(name) => name
            .parse::<PdfStandard>()
            .map_err(|message| ApiError::precondition("pdfStandard", message))?,
    };
    let (row, user) = exporter(&state, &caller, &id, &body.user_id).await?;
    let settings = settings(body.settings, &user)?;
    let mut tree = service::load_tree(&state, &row, Some(&user.language)).await?;
    // The PDF layout prefers the document's language over an English `settings.language` (it
    // cannot tell "English" from "not set"); here the settings are always explicit, so the
    // document carries the chosen language and captions, labels and /Lang agree with it.
    tree.meta.language = Some(settings.language.code().to_string());
    let mut options = ExportOptions::default();
    options.pdf = PdfOptions::new(settings)
        .with_paper(paper)
        .with_standard(standard)
        .with_hyphenation(body.hyphenate);
    let out = state
        .convert(move || sdconv::export(&tree, Format::Pdf, &options))
        .await?
        .map_err(|e| match e {
            // 412 as for any bad input, naming the field that asked for the standard.
            sdconv::Error::Nonconforming { .. } => ApiError::precondition("pdfStandard", e),
            e => ApiError::engine("export", &e),
        })?;
    for w in &out.warnings {
        tracing::info!(format = "pdf", "export warning: {w}");
    }
    let bytes = out.value;
    Ok(file(PDF, format!("{}.pdf", row.id), bytes))
}
