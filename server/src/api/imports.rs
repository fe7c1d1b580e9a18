//! Imports: word upload (synchronous and in the background, with its job endpoint) and sdxml
//! upload. Each is `multipart/form-data` with a `file` part and a `data` part (JSON of the
//! creation payload).

use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, State};
use sdconv::{Format, ImportOptions};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::imports::{Upload, import, word_request};
use crate::payload::{Creation, parse_json};
use crate::service;
use crate::state::AppState;
use crate::store::job_upload_key;

/// Reads the `file` and `data` parts of a `multipart/form-data` body.
async fn read_upload(multipart: Result<Multipart, MultipartRejection>) -> ApiResult<Upload> {
    let mut multipart = multipart.map_err(|e| ApiError::precondition("body", e.body_text()))?;
    let part_error = |e: axum::extract::multipart::MultipartError| {
        if e.status().as_u16() == 413 {
            ApiError::too_large(format!("upload exceeds the size limit: {}", e.body_text()))
        } else {
            ApiError::precondition("body", e.body_text())
        }
    };
    let (mut file, mut data) = (None, None);
    while let Some(field) = multipart.next_field().await.map_err(part_error)? {
        match field.name() {
            Some("file") => {
                let name = field.file_name().unwrap_or("").to_string();
                file = Some((name, field.bytes().await.map_err(part_error)?));
            }
            Some("data") => data = Some(field.bytes().await.map_err(part_error)?),
            // Other parts are ignored, as unknown JSON fields are.
            _ => {
                field.bytes().await.map_err(part_error)?;
            }
        }
    }
    let (file_name, file) = file.ok_or_else(|| ApiError::precondition("file", "part missing"))?;
    let data = data.ok_or_else(|| ApiError::precondition("data", "part missing"))?;
    crate::payload::check_data_part(&data)?;
    Ok(Upload {
        file_name,
        file,
        data,
    })
}

/// POST /partner/imports/word/upload
pub async fn word_upload(
    State(state): State<AppState>,
    caller: Caller,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<Value>> {
    let req = word_request(read_upload(multipart).await?)?;
    service::check_quota(&state, &caller.client_id).await?;
    let (row, user) = import(
        &state,
        &caller.client_id,
        &req.creation,
        Format::Word,
        req.options,
        req.file,
        None,
    )
    .await?;
    Ok(Json(service::access_result(&state, &row.id, &user).await?))
}

/// POST /partner/imports/word/background-upload: checks the request now, queues it as a job
/// row (the file as a blob) for the workers of any instance ([`crate::jobs`]).
pub async fn word_background(
    State(state): State<AppState>,
    caller: Caller,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<Value>> {
    let upload = read_upload(multipart).await?;
    let (file_name, data) = (upload.file_name.clone(), upload.data.clone());
    let req = word_request(upload)?;
    service::check_quota(&state, &caller.client_id).await?;
    let payload =
        std::str::from_utf8(&data).map_err(|e| ApiError::precondition("data", e.to_string()))?;
    let job = crate::ids::new_document_id();
    state
        .blob_put(vec![(job_upload_key(&job), req.file.to_vec())])
        .await?;
    state
        .store
        .insert_job(&job, &caller.client_id, payload, &file_name, state.now())
        .await?;
    state.jobs_queued.notify_one();
    Ok(Json(json!({"jobId": job})))
}

/// GET /partner/documents/background-upload/{job id}. While the job runs its state is
/// `PENDING` (an extension: the spec names only the two final states). Each read of a
/// successful job carries a fresh one-time link.
pub async fn job(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    crate::payload::path_id("jobId", &id)?;
    let job = state
        .store
        .job(&caller.client_id, &id)
        .await?
        .ok_or_else(|| ApiError::job_not_found(&id))?;
    if job.state != "SUCCESS" {
        return Ok(Json(json!({"state": job.state})));
    }
    let (Some(doc), Some(user)) = (job.document_id, job.user_id) else {
        return Ok(Json(json!({"state": "FAILURE"})));
    };
    // The document may have been deleted since.
    if state
        .store
        .document(&caller.client_id, &doc)
        .await?
        .is_none()
    {
        return Ok(Json(json!({"state": "FAILURE"})));
    }
    let link = service::mint_link(&state, &doc, &user).await?;
    Ok(Json(json!({
        "state": "SUCCESS",
        "documentId": doc,
        "userIdSD": user,
        "documentAccessLink": link,
    })))
}

/// POST /partner/imports/sdxml/upload
pub async fn sdxml_upload(
    State(state): State<AppState>,
    caller: Caller,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<Value>> {
    let upload = read_upload(multipart).await?;
    let creation: Creation = parse_json("data", &upload.data)?;
    creation.check()?;
    service::check_quota(&state, &caller.client_id).await?;
    let (row, user) = import(
        &state,
        &caller.client_id,
        &creation,
        Format::Sdxml,
        ImportOptions::default(),
        upload.file,
        None,
    )
    .await?;
    Ok(Json(service::access_result(&state, &row.id, &user).await?))
}
