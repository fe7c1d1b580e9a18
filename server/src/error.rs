//! The one error shape of the API: `{"error": code, "message": text}` with the status the spec
//! lists for it.
//!
//! | code | status | when |
//! |---|---|---|
//! | `unauthorized` | 401 | authorization missing or invalid |
//! | `payment_required` | 402 | freemium quota of documents reached |
//! | `forbidden` | 403 | client id / API key missing or unknown, insufficient rights |
//! | `not_found` | 403 | document, user or page unknown (the spec's "403 Not Found") |
//! | `too_large` | 403 | upload over the size limit (the spec's "403 Request Entity Too Large") |
//! | `precondition_failed` | 412 | missing or wrong request parameters; the message names the field |
//! | `bad_request` | 400 | DELETE of a review document (use the deletion process) |
//! | `job_not_found` | 404 | unknown background job id |
//! | `no_file` | 404 | a stored file the request names by a name the file store refuses |
//! | `no_route` | 404 | no endpoint has the path |
//! | `method_not_allowed` | 405 | the path exists, not with this method |
//! | `timeout` | 503 | the request took longer than the configured timeout |
//! | `unavailable` | 503 | the database cannot be reached (down, restarting, pool exhausted); retry |
//! | `internal` | 500 | a failure of the server itself |

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use sdconv::ErrorKind;
use serde::Serialize;

/// An API error: status, code and a message that says what and where.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Machine-readable code (see the module table).
    pub code: &'static str,
    /// Human-readable message naming the field, document or job.
    pub message: String,
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 401.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 402.
    pub fn payment_required(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYMENT_REQUIRED, "payment_required", message)
    }

    /// 403 for rights.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 403 for an unknown resource, as the spec lists it.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "not_found", message)
    }

    /// 403 for an oversized upload, as the spec lists it.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "too_large", message)
    }

    /// 412 naming `field`.
    pub fn precondition(field: &str, message: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::PRECONDITION_FAILED,
            "precondition_failed",
            format!("{field}: {message}"),
        )
    }

    /// 400.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 404 for an unknown job.
    pub fn job_not_found(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "job_not_found",
            format!("no job has the id {id:?}"),
        )
    }

    /// 404 for a stored file named by a key the file store refuses ([`crate::store::RefusedKey`]):
    /// the request's fault, not the server's, so it is logged as a warning only.
    pub fn refused_key(what: &str, detail: impl std::fmt::Display) -> Self {
        tracing::warn!("{what}: {detail}");
        Self::new(
            StatusCode::NOT_FOUND,
            "no_file",
            format!("{what}: no stored file has this name"),
        )
    }

    /// 500; the detail is logged, the caller gets a generic message plus `what`.
    pub fn internal(what: &str, detail: impl std::fmt::Display) -> Self {
        tracing::error!("{what}: {detail}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("{what} failed"),
        )
    }

    /// An engine error as the spec answers it: bad input or parameters are 412 (a parameter
    /// named by its own name), limits 403 ("Request Entity Too Large" in the spec's table),
    /// failures of the engine itself 500. 402 (freemium) is never the engine's business.
    pub fn engine(what: &str, e: &sdconv::Error) -> Self {
        match (e.kind(), e) {
            (ErrorKind::Parameter, sdconv::Error::Parameter { name, message }) => {
                Self::precondition(name, message)
            }
            (ErrorKind::Parameter | ErrorKind::Input, other) => Self::precondition(what, other),
            (ErrorKind::TooLarge, _) => Self::too_large(format!("{what}: {e}")),
            _ => Self::internal(what, e),
        }
    }
}

impl ApiError {
    /// 503: a service the request needs is away for now; the detail is logged.
    pub fn unavailable(what: &str, detail: impl std::fmt::Display) -> Self {
        tracing::warn!("{what} unavailable: {detail}");
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            format!("{what} is unavailable; retry later"),
        )
    }
}

/// Whether a database error means the database is away (not reachable, shutting down,
/// starting up, connection lost) rather than that the request or the server is wrong.
pub fn database_away(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|c| {
            // SQLSTATE classes 08 (connection exception) and 57P (operator intervention:
            // admin shutdown, crash shutdown, cannot connect now).
            c.starts_with("08") || c.starts_with("57P")
        }),
        _ => false,
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if database_away(&e) {
            ApiError::unavailable("the database", e)
        } else {
            ApiError::internal("database", e)
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
    message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Body {
            error: self.code,
            message: &self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_parameter_errors_name_the_field() {
        let e = ApiError::engine("file", &sdconv::Error::parameter("styleSetKey", "unknown"));
        assert_eq!(e.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(e.message, "styleSetKey: unknown");
        let big = sdconv::Error::TooLarge {
            what: "uncompressed size",
            detail: "9 > 8".into(),
        };
        assert_eq!(ApiError::engine("file", &big).status, StatusCode::FORBIDDEN);
    }

    #[test]
    fn an_unreachable_database_is_503_other_database_errors_500() {
        let away = ApiError::from(sqlx::Error::PoolTimedOut);
        assert_eq!((away.status.as_u16(), away.code), (503, "unavailable"));
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(
            ApiError::from(sqlx::Error::Io(refused)).status.as_u16(),
            503
        );
        let wrong = ApiError::from(sqlx::Error::RowNotFound);
        assert_eq!((wrong.status.as_u16(), wrong.code), (500, "internal"));
    }
}
