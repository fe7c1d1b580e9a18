//! Request bodies of the spec and their limits. Every limit breach is a 412 naming the field.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, ApiResult};
use crate::store::{Member, UserInput};

/// The four user languages.
pub const LANGUAGES: [&str; 4] = ["de_DE", "en_EN", "ru_RU", "fr_CA"];
/// Document roles, weakest first.
pub const ROLES: [&str; 4] = ["reader", "commentator", "editor", "approver"];

// Limits the spec does not give (README "Limits"); each breach is a 412 naming the field.

/// Ids of the partner system (`userId` in bodies, queries and paths, `creatorUserId`,
/// `user.userId`), `userIdSD` and `groupId`: characters at most.
pub const MAX_ID_CHARS: usize = 150;
/// `footer`: characters at most (as `description` and `supplemental`).
pub const MAX_FOOTER_CHARS: usize = 400;
/// `tags`: tags at most.
pub const MAX_TAGS: usize = 100;
/// `tags`: characters of one tag at most.
pub const MAX_TAG_CHARS: usize = 100;
/// A JSON request body (and the `data` part of an upload): bytes at most, apart from the
/// upload limit (`--max-upload`) of whole requests.
pub const MAX_JSON_BYTES: usize = 1024 * 1024;

/// A JSON body; malformed JSON, a wrong type or a missing field is a 412 naming it, and so is
/// a body over [`MAX_JSON_BYTES`] (one over the upload limit is refused before, with 403).
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, ApiError> {
        let too_large = || {
            ApiError::precondition(
                "body",
                format!("a JSON body may have {MAX_JSON_BYTES} bytes at most"),
            )
        };
        let declared = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > MAX_JSON_BYTES as u64) {
            return Err(too_large());
        }
        // Read up to the limit only: a body without a length is cut there.
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), MAX_JSON_BYTES)
            .await
            .map_err(|e| {
                if is_length_limit(&e) {
                    too_large()
                } else {
                    ApiError::precondition("body", format!("could not be read: {e}"))
                }
            })?;
        parse_json("body", &bytes).map(JsonBody)
    }
}

/// Whether reading a body stopped at its limit.
fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// The JSON `data` part of an upload: at most [`MAX_JSON_BYTES`], like a JSON body.
pub fn check_data_part(data: &[u8]) -> ApiResult<()> {
    if data.len() > MAX_JSON_BYTES {
        return Err(ApiError::precondition(
            "data",
            format!("the JSON part may have {MAX_JSON_BYTES} bytes at most"),
        ));
    }
    Ok(())
}

/// An id of the partner system (or `userIdSD`, `groupId`): at most [`MAX_ID_CHARS`].
pub fn partner_id(field: &str, value: &str) -> ApiResult<()> {
    max_len(field, value, MAX_ID_CHARS)
}

/// `tags`: at most [`MAX_TAGS`] of at most [`MAX_TAG_CHARS`] each.
pub fn check_tags(tags: &[String]) -> ApiResult<()> {
    if tags.len() > MAX_TAGS {
        return Err(ApiError::precondition(
            "tags",
            format!("{} tags, at most {MAX_TAGS} allowed", tags.len()),
        ));
    }
    for (i, tag) in tags.iter().enumerate() {
        max_len(&format!("tags[{i}]"), tag, MAX_TAG_CHARS)?;
    }
    Ok(())
}

/// Parses JSON; errors are 412 naming `what` and serde's path and position.
pub fn parse_json<T: DeserializeOwned>(what: &str, bytes: &[u8]) -> ApiResult<T> {
    // An empty body counts as `{}`, for calls whose fields are all optional.
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::precondition(what, e))
}

fn max_len(field: &str, value: &str, limit: usize) -> ApiResult<()> {
    let n = value.chars().count();
    if n > limit {
        return Err(ApiError::precondition(
            field,
            format!("{n} characters, at most {limit} allowed"),
        ));
    }
    Ok(())
}

/// A document or job id as a path carries it: a UUID v4 (or a 24-hex id of a store written
/// before); anything else is a 412 naming `field`, before any lookup.
pub fn path_id(field: &str, id: &str) -> ApiResult<()> {
    if crate::ids::is_document_id(id) {
        return Ok(());
    }
    let shown: String = id.chars().take(40).collect();
    Err(ApiError::precondition(
        field,
        format!(
            "{shown:?} is not an id of this service (a lowercase, hyphenated UUID v4, or the 24 hex digits of an older id)"
        ),
    ))
}

fn not_empty(field: &str, value: &str) -> ApiResult<()> {
    if value.trim().is_empty() {
        return Err(ApiError::precondition(field, "must not be empty"));
    }
    Ok(())
}

fn one_of(field: &str, value: &str, allowed: &[&str]) -> ApiResult<()> {
    if !allowed.contains(&value) {
        return Err(ApiError::precondition(
            field,
            format!("{value:?} is not one of {}", allowed.join(", ")),
        ));
    }
    Ok(())
}

/// The user object.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserPayload {
    /// Partner user id.
    pub user_id: String,
    /// Max 150.
    #[serde(default)]
    pub email: String,
    /// Max 150.
    #[serde(default)]
    pub firstname: String,
    /// Max 150.
    #[serde(default)]
    pub lastname: String,
    /// Max 150.
    #[serde(default)]
    pub company: String,
    /// One of [`LANGUAGES`].
    #[serde(default)]
    pub language: Option<String>,
}

impl UserPayload {
    /// Checks the limits.
    pub fn check(&self) -> ApiResult<()> {
        not_empty("user.userId", &self.user_id)?;
        partner_id("user.userId", &self.user_id)?;
        max_len("user.email", &self.email, 150)?;
        max_len("user.firstname", &self.firstname, 150)?;
        max_len("user.lastname", &self.lastname, 150)?;
        max_len("user.company", &self.company, 150)?;
        if let Some(l) = &self.language {
            one_of("user.language", l, &LANGUAGES)?;
        }
        Ok(())
    }

    /// As the store takes it.
    pub fn input(&self) -> UserInput {
        UserInput {
            partner_id: self.user_id.clone(),
            email: self.email.clone(),
            firstname: self.firstname.clone(),
            lastname: self.lastname.clone(),
            company: self.company.clone(),
            language: self.language.clone(),
        }
    }
}

/// Role and rights of a user in a document (create, open, imports).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rights {
    /// The user.
    pub user: UserPayload,
    /// One of [`ROLES`].
    pub user_role: String,
    /// Right to see section history.
    #[serde(default)]
    pub section_history: Option<bool>,
    /// Right to export and duplicate.
    #[serde(default)]
    pub document_export_duplicate: Option<bool>,
    /// Admin right.
    #[serde(default)]
    pub admin: Option<bool>,
}

impl Rights {
    /// Checks the limits.
    pub fn check(&self) -> ApiResult<()> {
        self.user.check()?;
        one_of("userRole", &self.user_role, &ROLES)
    }

    /// As the store takes it.
    pub fn member(&self) -> Member {
        Member {
            role: self.user_role.clone(),
            section_history: self.section_history,
            export_duplicate: self.document_export_duplicate,
            admin: self.admin,
            last_opened: None,
        }
    }
}

/// The document creation payload (create, word import, sdxml import).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Creation {
    /// User, role, rights.
    #[serde(flatten)]
    pub rights: Rights,
    /// Max 200.
    pub title: String,
    /// Max 400.
    pub description: String,
    /// Partner group.
    pub group_id: String,
    /// Max 400.
    #[serde(default)]
    pub supplemental: Option<String>,
    /// `draft` (default) or `review`.
    #[serde(default)]
    pub status: Option<String>,
    /// Max 300.
    #[serde(default)]
    pub subtitle: Option<String>,
    /// Max 200.
    #[serde(default)]
    pub filename: Option<String>,
    /// Footer text.
    #[serde(default)]
    pub footer: Option<String>,
    /// sdox template id.
    #[serde(default)]
    pub sample_id: Option<String>,
}

impl Creation {
    /// Checks the limits.
    pub fn check(&self) -> ApiResult<()> {
        self.rights.check()?;
        not_empty("title", &self.title)?;
        max_len("title", &self.title, 200)?;
        max_len("description", &self.description, 400)?;
        not_empty("groupId", &self.group_id)?;
        partner_id("groupId", &self.group_id)?;
        max_len(
            "supplemental",
            self.supplemental.as_deref().unwrap_or(""),
            400,
        )?;
        max_len("subtitle", self.subtitle.as_deref().unwrap_or(""), 300)?;
        max_len("filename", self.filename.as_deref().unwrap_or(""), 200)?;
        max_len(
            "footer",
            self.footer.as_deref().unwrap_or(""),
            MAX_FOOTER_CHARS,
        )?;
        max_len(
            "sampleId",
            self.sample_id.as_deref().unwrap_or(""),
            MAX_ID_CHARS,
        )?;
        if let Some(s) = &self.status {
            one_of("status", s, &["draft", "review"])?;
        }
        Ok(())
    }

    /// The status, `draft` when absent.
    pub fn status(&self) -> &str {
        self.status.as_deref().unwrap_or("draft")
    }
}

/// The `data` part of a word import.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WordImportData {
    /// The creation payload.
    #[serde(flatten)]
    pub creation: Creation,
    /// Magic import switch.
    #[serde(default)]
    pub is_magic_import: Option<bool>,
    /// Style set key(s), `|`-joined.
    #[serde(default)]
    pub style_set_key: Option<String>,
    /// Cleanup routine keys.
    #[serde(default)]
    pub routines: Option<Vec<String>>,
    /// Word style name → `{textType, level}`.
    #[serde(default)]
    pub style_mapping: Option<serde_json::Value>,
}

/// Metadata update; absent fields stay as they are, `tags` replaces the list.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// Max 200.
    pub title: Option<String>,
    /// Max 400.
    pub description: Option<String>,
    /// Max 300.
    pub subtitle: Option<String>,
    /// Max 200.
    pub filename: Option<String>,
    /// Footer.
    pub footer: Option<String>,
    /// Max 400.
    pub supplemental: Option<String>,
    /// Overwrites the tags.
    pub tags: Option<Vec<String>>,
}

impl Metadata {
    /// Checks the limits.
    pub fn check(&self) -> ApiResult<()> {
        if let Some(t) = &self.title {
            not_empty("title", t)?;
            max_len("title", t, 200)?;
        }
        max_len(
            "description",
            self.description.as_deref().unwrap_or(""),
            400,
        )?;
        max_len("subtitle", self.subtitle.as_deref().unwrap_or(""), 300)?;
        max_len("filename", self.filename.as_deref().unwrap_or(""), 200)?;
        max_len(
            "supplemental",
            self.supplemental.as_deref().unwrap_or(""),
            400,
        )?;
        max_len(
            "footer",
            self.footer.as_deref().unwrap_or(""),
            MAX_FOOTER_CHARS,
        )?;
        if let Some(tags) = &self.tags {
            check_tags(tags)?;
        }
        Ok(())
    }
}

/// Duplicate request.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Duplicate {
    /// Title of the copy (max 200).
    pub title: String,
    /// Description of the copy (max 400).
    pub description: String,
    /// Partner id of the copy's creator.
    pub creator_user_id: String,
}

impl Duplicate {
    /// Checks the limits.
    pub fn check(&self) -> ApiResult<()> {
        not_empty("title", &self.title)?;
        max_len("title", &self.title, 200)?;
        max_len("description", &self.description, 400)?;
        not_empty("creatorUserId", &self.creator_user_id)?;
        partner_id("creatorUserId", &self.creator_user_id)
    }
}

/// Start of a deletion process.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeletionStart {
    /// Partner id of the requesting user.
    pub user_id: String,
    /// Delete at once.
    #[serde(default)]
    pub immediate: Option<bool>,
    /// Message to the document's users.
    #[serde(default)]
    pub message: Option<String>,
}

/// Cancelling a deletion process.
#[derive(Debug, Clone, Deserialize)]
pub struct DeletionCancel {
    /// Message to the document's users.
    #[serde(default)]
    pub message: Option<String>,
}

/// Body of the sdxml and parsx exports.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportUser {
    /// Partner id of the exporting user.
    pub user_id: String,
}

/// Body of the html export, in either of its two forms: the spec's `{userId, type, download}`,
/// or the older `{userId, mode}` that clients written against earlier versions of the service
/// send (see [`HtmlExport::plan`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HtmlExport {
    /// Partner id of the exporting user.
    pub user_id: String,
    /// `html` or `html_all_in_one` (the spec's form).
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// Zip (true) or a page URL (false); required with `type`, true by default with `mode`.
    #[serde(default)]
    pub download: Option<bool>,
    /// `final`, `news`, `allInOne` or `redlineAndPending` (the older form).
    #[serde(default)]
    pub mode: Option<String>,
}

/// The older html export's modes, as `mode` spells them.
pub const HTML_MODES: [&str; 4] = ["final", "news", "allInOne", "redlineAndPending"];

/// What an html export request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HtmlPlan {
    /// One self-contained page (`html_all_in_one`, `allInOne`) rather than a page with its
    /// stylesheet and pictures beside it.
    pub all_in_one: bool,
    /// Tracked changes marked (`All`) or accepted.
    pub track_changes: sdconv::TrackChanges,
    /// Whether comments are listed and their ranges marked.
    pub comments: bool,
    /// Zip (true) or a page URL (false).
    pub download: bool,
}

impl HtmlExport {
    /// The request checked: `type` and `mode` exclude each other (412 naming `mode`), an
    /// unknown value is a 412 naming its field.
    ///
    /// | request | page | changes | comments |
    /// |---|---|---|---|
    /// | `type: html` | page + files | marked | listed |
    /// | `type: html_all_in_one` | one file | marked | listed |
    /// | `mode: final` | page + files | accepted | none |
    /// | `mode: allInOne` | one file | accepted | none |
    /// | `mode: redlineAndPending` | page + files | marked | listed |
    /// | `mode: news` | as `redlineAndPending` (no per-user change history narrows it) | | |
    pub fn plan(&self) -> ApiResult<HtmlPlan> {
        use sdconv::TrackChanges;
        match (&self.kind, &self.mode) {
            (Some(_), Some(_)) => Err(ApiError::precondition(
                "mode",
                "cannot be combined with type: send {userId, type, download} or {userId, mode}",
            )),
            (None, Some(mode)) => {
                let (all_in_one, track_changes, comments) = match mode.as_str() {
                    "final" => (false, TrackChanges::Accept, false),
                    "allInOne" => (true, TrackChanges::Accept, false),
                    "redlineAndPending" | "news" => (false, TrackChanges::All, true),
                    other => {
                        return Err(ApiError::precondition(
                            "mode",
                            format!("{other:?} is not one of {}", HTML_MODES.join(", ")),
                        ));
                    }
                };
                Ok(HtmlPlan {
                    all_in_one,
                    track_changes,
                    comments,
                    download: self.download.unwrap_or(true),
                })
            }
            (Some(kind), None) => {
                let all_in_one = match kind.as_str() {
                    "html" => false,
                    "html_all_in_one" => true,
                    other => {
                        return Err(ApiError::precondition(
                            "type",
                            format!("{other:?} is not html or html_all_in_one"),
                        ));
                    }
                };
                let download = self.download.ok_or_else(|| {
                    ApiError::precondition("download", "missing field `download` (with type)")
                })?;
                Ok(HtmlPlan {
                    all_in_one,
                    track_changes: TrackChanges::All,
                    comments: true,
                    download,
                })
            }
            (None, None) => Err(ApiError::precondition(
                "type",
                "missing field `type` (or `mode`, the older form)",
            )),
        }
    }
}

/// Body of the word export.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WordExport {
    /// Partner id of the exporting user (their language is the default).
    pub user_id: String,
    /// Word template id.
    pub template_id: String,
    /// The settings object.
    pub settings: serde_json::Value,
}

/// Body of the PDF export (an extension of this server, not in the partner spec).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PdfExport {
    /// Partner id of the exporting user (their language is the default).
    pub user_id: String,
    /// The Word export's settings object (captions, directories, language); optional here.
    #[serde(default = "empty_object")]
    pub settings: serde_json::Value,
    /// `a4` (the default) or `letter`.
    #[serde(default)]
    pub paper: Option<String>,
    /// The standard the PDF must meet, as the CLI's `--pdf-standard` names it (`ua1`, `a2b`,
    /// `a2u`, `a3b`, `a2b+ua1`); `none` or absent: tagged PDF, no standard claimed.
    #[serde(default)]
    pub pdf_standard: Option<String>,
    /// Hyphenate with the paragraph language's patterns even when the document does not ask.
    #[serde(default)]
    pub hyphenate: bool,
}

fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(serde_json::Map::new())
}

/// Legacy authentication body.
#[derive(Debug, Clone, Deserialize)]
pub struct Credentials {
    /// Admin e-mail.
    pub email: String,
    /// Admin password.
    pub password: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creation(extra: &str) -> Creation {
        let json = format!(
            r#"{{"user":{{"userId":"u1"}},"title":"T","description":"","userRole":"approver","groupId":"g"{extra}}}"#
        );
        parse_json("body", json.as_bytes()).unwrap()
    }

    #[test]
    fn creation_limits_name_the_field() {
        assert!(creation("").check().is_ok());
        let long = "x".repeat(201);
        let err = creation(&format!(r#","filename":"{long}""#))
            .check()
            .unwrap_err();
        assert_eq!(err.status.as_u16(), 412);
        assert!(err.message.starts_with("filename:"), "{}", err.message);
        let err = creation(r#","status":"final""#).check().unwrap_err();
        assert!(err.message.starts_with("status:"), "{}", err.message);
    }

    #[test]
    fn missing_fields_are_412_naming_them() {
        let err = parse_json::<Creation>("body", br#"{"user":{"userId":"u"}}"#).unwrap_err();
        assert_eq!(err.status.as_u16(), 412);
        assert!(
            err.message.contains("userRole") || err.message.contains("title"),
            "{}",
            err.message
        );
    }
}
