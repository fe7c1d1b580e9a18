//! Catalogs from the engine (routines, style sets, templates) and the user record.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::error::ApiResult;
use crate::service;
use crate::state::AppState;

fn raw_json(body: String) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], body)
}

/// GET|POST /partner/routines
pub async fn routines(_caller: Caller) -> impl IntoResponse {
    raw_json(sdconv::cleanup::catalog_json())
}

/// GET /partner/imports/word/mapping
pub async fn mapping(_caller: Caller) -> impl IntoResponse {
    raw_json(sdconv::magic::catalog_json())
}

/// GET|POST /partner/templates/word
pub async fn word_templates(_caller: Caller) -> impl IntoResponse {
    raw_json(sdconv::export::word::WordTemplates::builtin().catalog_json())
}

/// GET|POST /partner/templates/sdox
pub async fn sdox_templates(_caller: Caller) -> impl IntoResponse {
    raw_json(sdconv::export::word::sdox_catalog_json())
}

/// GET /partner/users/{userId}: the user information record.
pub async fn user(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let user = service::user_or_403(&state, &caller.client_id, "userId", &id).await?;
    let [r, g, b] = crate::ids::short_hash(&user.id);
    Ok(Json(json!({
        "_id": user.id,
        "company": user.company,
        "email": user.email,
        "is_internal": false,
        "firstname": user.firstname,
        "lastname": user.lastname,
        "picture_small": "",
        "picture": "",
        "picture_mobile": "",
        "settings": {
            "lang": user.language,
            "live_redline": false,
            "tooltips": true,
            "selection_autocomplete": true,
            "individual_decide": false,
            "debug_mode_transformations": false,
            "auto_collapse_pd_group": false,
        },
        "license_info": {},
        "last_seen_sd_version": null,
        "avatar_color": [r, g, b],
        "system_role": "user",
    })))
}
