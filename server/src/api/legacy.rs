//! Legacy user/password mode: `POST /partner/authenticate` and the deprecated
//! `POST /users/authenticate`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde_json::{Value, json};

use crate::accounts::check_credentials;
use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::payload::{Credentials, JsonBody};
use crate::state::AppState;

/// Lifetime of an admin access token (the spec does not give one).
pub const ADMIN_TOKEN_SECONDS: i64 = 24 * 3600;

/// Checks the API key and credentials and stores a new admin token: `(user id, token)`.
async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    c: &Credentials,
) -> ApiResult<(String, String)> {
    let api_key = headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::forbidden("x-api-key header missing"))?;
    let key = state
        .legacy
        .by_api_key(api_key)
        .ok_or_else(|| ApiError::forbidden("unknown x-api-key"))?
        .clone();
    let (email, password) = (c.email.clone(), c.password.clone());
    let k = key.clone();
    // argon2 is deliberately slow: off the async threads.
    let ok = tokio::task::spawn_blocking(move || check_credentials(&k, &email, &password))
        .await
        .map_err(|e| ApiError::internal("password check", e))?;
    if !ok {
        // The spec (2.10.8): an invalid login on the token endpoint answers 403.
        return Err(ApiError::forbidden("invalid email or password"));
    }
    let token = ids::random_token();
    state
        .store
        .insert_admin_token(
            &ids::token_hash(&token),
            &key.client_id,
            state.now() + ADMIN_TOKEN_SECONDS,
        )
        .await?;
    Ok((format!("admin-{}", key.client_id), token))
}

/// POST /partner/authenticate → `{userId, adminAccessToken}`
pub async fn partner(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Credentials>,
) -> ApiResult<Json<Value>> {
    let (user, token) = authenticate(&state, &headers, &c).await?;
    Ok(Json(json!({"userId": user, "adminAccessToken": token})))
}

/// POST /users/authenticate (deprecated) → `{userId, refreshToken, accessToken}`. The refresh
/// token is issued for compatibility; no endpoint of the spec takes it.
pub async fn users(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Credentials>,
) -> ApiResult<Json<Value>> {
    let (user, token) = authenticate(&state, &headers, &c).await?;
    Ok(Json(json!({
        "userId": user,
        "refreshToken": ids::random_token(),
        "accessToken": token,
    })))
}
