//! Authentication, both modes of the spec.
//!
//! - JWT (current): `x-client-id` + `authorization: Bearer <JWT>`, HS256/384/512 signed with
//!   the client's secret; claims `iat`, `iss`, `jti` required; `iat` within the leeway (5 minutes
//!   by default) either way; `exp` and `nbf`, when present, honoured with the same leeway; a
//!   `jti` seen before within that window is a replay and refused.
//! - Legacy: `x-api-key` + `authorization: <adminAccessToken>` from `POST /partner/authenticate`
//!   (the accounts themselves: [`crate::accounts`]).
//!
//! Missing client id / API key, or an unknown one: 403. Missing or invalid authorization: 401.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use crate::error::ApiError;
use crate::state::AppState;

/// An authenticated caller: the client whose documents it acts on.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Client id (JWT `x-client-id`, or the legacy account's client).
    pub client_id: String,
}

/// The claims the spec requires, and the two standard time claims honoured when present.
#[derive(Debug, Deserialize)]
struct Claims {
    iat: i64,
    iss: String,
    jti: String,
    /// Expiry: refused from `exp` + leeway on.
    #[serde(default)]
    exp: Option<i64>,
    /// Not before: refused until `nbf` − leeway.
    #[serde(default)]
    nbf: Option<i64>,
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Result<Option<&'h str>, ApiError> {
    headers
        .get(name)
        .map(|v| {
            v.to_str()
                .map_err(|_| ApiError::unauthorized(format!("header {name} is not visible ASCII")))
        })
        .transpose()
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Caller, ApiError> {
        let headers = &parts.headers;
        if let Some(api_key) = header(headers, "x-api-key")? {
            let key = state
                .legacy
                .by_api_key(api_key)
                .ok_or_else(|| ApiError::forbidden("unknown x-api-key"))?;
            let token = header(headers, "authorization")?
                .ok_or_else(|| ApiError::unauthorized("authorization header missing"))?;
            // Some clients send the admin token as a bearer token; both forms are accepted.
            let token = token.strip_prefix("Bearer ").unwrap_or(token).trim();
            let client = state
                .store
                .admin_token_client(&crate::ids::token_hash(token), state.now())
                .await?;
            return match client {
                Some(c) if c == key.client_id => Ok(Caller { client_id: c }),
                _ => Err(ApiError::unauthorized(
                    "admin access token unknown or expired; get one from POST /partner/authenticate",
                )),
            };
        }
        let client_id = header(headers, "x-client-id")?
            .ok_or_else(|| ApiError::forbidden("x-client-id header missing (or x-api-key)"))?;
        let client = state
            .config
            .clients
            .get(client_id)
            .ok_or_else(|| ApiError::forbidden(format!("unknown client id {client_id:?}")))?;
        let auth = header(headers, "authorization")?
            .ok_or_else(|| ApiError::unauthorized("authorization header missing"))?;
        let token = auth
            .strip_prefix("Bearer ")
            .ok_or_else(|| ApiError::unauthorized("authorization must be \"Bearer <JWT>\""))?
            .trim();
        let claims = verify_jwt(token, client.secret.as_bytes())?;
        let now = state.now();
        let leeway = i64::try_from(state.config.jwt_leeway.as_secs()).unwrap_or(i64::MAX);
        if (now - claims.iat).abs() > leeway {
            return Err(ApiError::unauthorized(format!(
                "JWT iat {} is more than {leeway} s from the server time {now}",
                claims.iat
            )));
        }
        // The spec's token needs neither; a partner that sets them gets them honoured, with
        // the leeway of iat (as PyJWT and jsonwebtoken apply theirs).
        if let Some(exp) = claims.exp
            && now >= exp.saturating_add(leeway)
        {
            return Err(ApiError::unauthorized(format!(
                "JWT expired: exp {exp} is {leeway} s or more before the server time {now}"
            )));
        }
        if let Some(nbf) = claims.nbf
            && nbf.saturating_sub(leeway) > now
        {
            return Err(ApiError::unauthorized(format!(
                "JWT not yet valid: nbf {nbf} is more than {leeway} s after the server time {now}"
            )));
        }
        if claims.jti.is_empty() || claims.iss.is_empty() {
            return Err(ApiError::unauthorized(
                "JWT claims iss and jti must not be empty",
            ));
        }
        // Remember the id for as long as the token could still pass the iat check.
        let fresh = state
            .store
            .remember_jti(
                client_id,
                &claims.jti,
                claims.iat.saturating_add(leeway) + 1,
            )
            .await?;
        if !fresh {
            return Err(ApiError::unauthorized(format!(
                "JWT jti {:?} was already used (replay)",
                claims.jti
            )));
        }
        Ok(Caller {
            client_id: client.id.clone(),
        })
    }
}

fn verify_jwt(token: &str, secret: &[u8]) -> Result<Claims, ApiError> {
    let header = jsonwebtoken::decode_header(token)
        .map_err(|e| ApiError::unauthorized(format!("malformed JWT: {e}")))?;
    if !matches!(
        header.alg,
        Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512
    ) {
        return Err(ApiError::unauthorized(format!(
            "JWT algorithm {:?} is not accepted (HS256, HS384, HS512)",
            header.alg
        )));
    }
    let mut validation = Validation::new(header.alg);
    // The spec's token has no exp; iat, exp and nbf are checked against the server's clock and
    // leeway by the caller.
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    jsonwebtoken::decode::<Claims>(token, &DecodingKey::from_secret(secret), &validation)
        .map(|data| data.claims)
        .map_err(|e| ApiError::unauthorized(format!("invalid JWT: {e}")))
}
