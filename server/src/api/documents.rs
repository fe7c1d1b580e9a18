//! Create, open, read, list, unseen, metadata, review, duplicate, archive, delete and the
//! deletion process.

use axum::Json;
use axum::extract::{Path, Query, State};
use sdconv::Document;
use sdconv::import::sdxml::SdxmlImportOptions;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::payload::{
    Creation, DeletionCancel, DeletionStart, Duplicate, JsonBody, Metadata, Rights,
};
use crate::service::{self, Creators, DELETION_DELAY_SECONDS};
use crate::state::AppState;
use crate::store::{ListQuery, document_key};

/// POST /partner/documents/create
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(creation): JsonBody<Creation>,
) -> ApiResult<Json<Value>> {
    creation.check()?;
    service::check_quota(&state, &caller.client_id).await?;
    let tree = match creation.sample_id.as_deref().filter(|s| !s.is_empty()) {
        Some(id) => {
            let sdxml = sdconv::export::word::sdox_sample(id).ok_or_else(|| {
                ApiError::precondition("sampleId", format!("no sdox template has the id {id:?}"))
            })?;
            state
                .convert(move || sample_tree(sdxml))
                .await?
                .map_err(|e| ApiError::internal("reading the sdox template", e))?
        }
        None => Document::default(),
    };
    let user = state
        .store
        .upsert_user(&caller.client_id, &creation.rights.user.input())
        .await?;
    let row = service::new_row(&caller.client_id, &creation, &user, state.now());
    let row = service::store_document(&state, row, tree, &creation, Vec::new()).await?;
    Ok(Json(service::access_result(&state, &row.id, &user).await?))
}

/// The tree of an sdox template's sd.xml text (a bare sd.xml: templates have no pictures).
fn sample_tree(sdxml: &str) -> sdconv::Result<Document> {
    let read = sdconv::import::sdxml::read_xml(
        sdxml.as_bytes(),
        &mut |_| None,
        &SdxmlImportOptions::default(),
    )?;
    Ok(read.value)
}

/// POST /partner/documents/{id}: updates the user and their rights, returns a fresh link.
pub async fn open(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(rights): JsonBody<Rights>,
) -> ApiResult<Json<Value>> {
    rights.check()?;
    let row = service::document_or_403(&state, &caller.client_id, &id).await?;
    let user = state
        .store
        .upsert_user(&caller.client_id, &rights.user.input())
        .await?;
    service::check_visible(&row, &user)?;
    state
        .store
        .upsert_member(&row.id, &user.id, &rights.member())
        .await?;
    Ok(Json(service::access_result(&state, &row.id, &user).await?))
}

/// Query of the single-document call.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserQuery {
    /// Partner user id.
    pub user_id: Option<String>,
}

/// GET /partner/documents/{id}: with `userId`, a draft of another user is answered as an
/// unknown document (rule 1: a draft is visible only to its creator).
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<UserQuery>,
) -> ApiResult<Json<Value>> {
    let row = service::document_or_403(&state, &caller.client_id, &id).await?;
    let flags = match q.user_id.as_deref().filter(|u| !u.is_empty()) {
        Some(uid) => {
            let user = service::user_or_403(&state, &caller.client_id, "userId", uid).await?;
            if service::check_visible(&row, &user).is_err() {
                return Err(service::unknown_document(&id));
            }
            service::user_flags(&state, &row, &user.id).await?
        }
        None => (false, false, false),
    };
    let creator = Creators::default()
        .partner_id(&state, &caller.client_id, &row.creator_id)
        .await?;
    Ok(Json(service::record(&row, &creator, flags, true)))
}

/// Query of the list call.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    /// Partner group.
    pub group_id: Option<String>,
    /// Partner user id.
    pub user_id: Option<String>,
    /// Service user id (alternative to `userId`).
    #[serde(rename = "userIdSD")]
    pub user_id_sd: Option<String>,
    /// Filter on an active deletion process.
    pub with_deletion_process: Option<String>,
}

/// GET /partner/documents/list
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(p): Query<ListParams>,
) -> ApiResult<Json<Value>> {
    let client = &caller.client_id;
    let with_deletion = match p.with_deletion_process.as_deref() {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => {
            return Err(ApiError::precondition(
                "withDeletionProcess",
                format!("{other:?} is not true or false"),
            ));
        }
    };
    for (field, value) in [
        ("groupId", &p.group_id),
        ("userId", &p.user_id),
        ("userIdSD", &p.user_id_sd),
    ] {
        crate::payload::partner_id(field, value.as_deref().unwrap_or(""))?;
    }
    let nonempty = |s: &Option<String>| s.clone().filter(|v| !v.is_empty());
    let user = match (nonempty(&p.user_id), nonempty(&p.user_id_sd)) {
        (Some(uid), _) => Some(state.store.user(client, &uid).await?),
        (None, Some(sd)) => Some(state.store.user_by_sd_id(client, &sd).await?),
        (None, None) => None,
    };
    let group = nonempty(&p.group_id);
    // An unknown user has no documents: an empty list, not an error.
    let query = match (user, group) {
        (Some(None), _) => return Ok(Json(json!([]))),
        (Some(Some(u)), Some(g)) => ListQuery::UserAndGroup {
            user: u.id,
            group: g,
        },
        (Some(Some(u)), None) => ListQuery::User(u.id),
        (None, Some(g)) => ListQuery::Group(g),
        (None, None) => {
            return Err(ApiError::precondition(
                "groupId",
                "groupId or userId (or userIdSD) is required",
            ));
        }
    };
    let for_user = match &query {
        ListQuery::UserAndGroup { user, .. } | ListQuery::User(user) => Some(user.clone()),
        ListQuery::Group(_) => None,
    };
    let rows = state.store.list(client, &query, with_deletion).await?;
    let mut creators = Creators::default();
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let flags = match &for_user {
            Some(u) => service::user_flags(&state, row, u).await?,
            None => (false, false, false),
        };
        let creator = creators.partner_id(&state, client, &row.creator_id).await?;
        out.push(service::record(row, &creator, flags, false));
    }
    Ok(Json(Value::Array(out)))
}

/// Query of the unseen calls.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnseenQuery {
    /// Partner user id (required).
    pub user_id: Option<String>,
}

/// Documents visible to the user with their flags, those with any unseen change only.
async fn unseen(
    state: &AppState,
    client: &str,
    q: &UnseenQuery,
) -> ApiResult<Vec<(crate::store::DocumentRow, (bool, bool, bool))>> {
    let uid = q
        .user_id
        .as_deref()
        .filter(|u| !u.is_empty())
        .ok_or_else(|| ApiError::precondition("userId", "is required"))?;
    crate::payload::partner_id("userId", uid)?;
    let Some(user) = state.store.user(client, uid).await? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for row in state.store.visible_documents(client, &user.id).await? {
        let flags = service::user_flags(state, &row, &user.id).await?;
        if flags.0 || flags.1 {
            out.push((row, flags));
        }
    }
    Ok(out)
}

/// GET /partner/documents/unseen/count
pub async fn unseen_count(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<UnseenQuery>,
) -> ApiResult<Json<Value>> {
    let docs = unseen(&state, &caller.client_id, &q).await?;
    let mut groups: std::collections::BTreeMap<String, [u64; 3]> = Default::default();
    let mut total = [0u64; 3];
    for (row, (section, conversation, _)) in &docs {
        let g = groups.entry(row.group_id.clone()).or_default();
        for counts in [&mut total, g] {
            counts[0] += 1;
            counts[1] += u64::from(*conversation);
            counts[2] += u64::from(*section);
        }
    }
    let groups: Vec<Value> = groups
        .into_iter()
        .map(|(id, c)| {
            json!({"groupId": id, "numWithAnyChange": c[0], "numWithConversationChange": c[1], "numWithSectionChange": c[2]})
        })
        .collect();
    Ok(Json(json!({
        "numWithAnyChange": total[0],
        "numWithConversationChange": total[1],
        "numWithSectionChange": total[2],
        "groups": groups,
    })))
}

/// GET /partner/documents/unseen/list
pub async fn unseen_list(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<UnseenQuery>,
) -> ApiResult<Json<Value>> {
    let docs = unseen(&state, &caller.client_id, &q).await?;
    let mut creators = Creators::default();
    let mut out = Vec::new();
    for (row, flags) in &docs {
        let creator = creators
            .partner_id(&state, &caller.client_id, &row.creator_id)
            .await?;
        out.push(service::record(row, &creator, *flags, false));
    }
    Ok(Json(Value::Array(out)))
}

/// POST /partner/documents/{id}/metadata
pub async fn metadata(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(m): JsonBody<Metadata>,
) -> ApiResult<Json<Value>> {
    m.check()?;
    let mut row = service::document_or_403(&state, &caller.client_id, &id).await?;
    let set = |field: &mut String, v: Option<String>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut row.title, m.title);
    set(&mut row.description, m.description);
    set(&mut row.subtitle, m.subtitle);
    set(&mut row.filename, m.filename);
    set(&mut row.footer, m.footer);
    set(&mut row.supplemental, m.supplemental);
    if let Some(tags) = m.tags {
        row.tags = tags;
    }
    row.modified = state.now();
    state.store.update_metadata(&row).await?;
    Ok(Json(json!({})))
}

/// POST /partner/documents/{id}/review: draft → review (a review document stays as it is).
pub async fn review(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<()> {
    let row = service::document_or_403(&state, &caller.client_id, &id).await?;
    if row.status != "review" {
        state
            .store
            .set_status(&row.id, "review", state.now())
            .await?;
    }
    Ok(())
}

/// POST /partner/documents/{id}/duplicate
pub async fn duplicate(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(d): JsonBody<Duplicate>,
) -> ApiResult<Json<Value>> {
    d.check()?;
    let client = &caller.client_id;
    let source = service::document_or_403(&state, client, &id).await?;
    let user = service::user_or_403(&state, client, "creatorUserId", &d.creator_user_id).await?;
    if source.archived {
        return Err(ApiError::precondition(
            "id",
            format!("document {id} is archived; archived documents cannot be duplicated"),
        ));
    }
    service::check_visible(&source, &user)?;
    let member = state.store.member(&source.id, &user.id).await?;
    if member.as_ref().and_then(|m| m.export_duplicate) == Some(false) {
        return Err(ApiError::forbidden(
            "the user lacks the documentExportDuplicate right",
        ));
    }
    service::check_quota(&state, client).await?;
    let bytes = state
        .blob_get(document_key(&source.id))
        .await?
        .ok_or_else(|| ApiError::internal("stored document", format!("{id} has no file")))?;
    let now = state.now();
    let mut copy = source.clone();
    copy.id = crate::ids::new_document_id();
    copy.title = d.title;
    copy.description = d.description;
    copy.creator_id = user.id.clone();
    // A copy is a new document, and new documents start as drafts of their creator.
    copy.status = "draft".into();
    copy.created = now;
    copy.modified = now;
    copy.conversation_changed = 0;
    copy.deletion_due = None;
    state
        .blob_put(vec![(document_key(&copy.id), bytes)])
        .await?;
    let mut role = member.unwrap_or(crate::store::Member {
        role: "approver".into(),
        section_history: None,
        export_duplicate: None,
        admin: None,
        last_opened: None,
    });
    role.last_opened = None;
    state.store.insert_document(&copy, &role).await?;
    Ok(Json(json!({"documentId": copy.id})))
}

async fn set_archived(
    state: &AppState,
    caller: &Caller,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let row = service::document_or_403(state, &caller.client_id, id).await?;
    if !state.store.set_archived(&row.id, archived).await? {
        let already = if archived { "archived" } else { "not archived" };
        return Err(ApiError::precondition(
            "id",
            format!("document {id} is already {already}"),
        ));
    }
    Ok(())
}

/// POST /partner/documents/{id}/archive
pub async fn archive(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<()> {
    set_archived(&state, &caller, &id, true).await
}

/// POST /partner/documents/{id}/unarchive
pub async fn unarchive(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<()> {
    set_archived(&state, &caller, &id, false).await
}

/// DELETE /partner/documents/{id}: drafts only.
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let row = service::document_or_403(&state, &caller.client_id, &id).await?;
    if row.status == "review" {
        return Err(ApiError::bad_request(format!(
            "document {id} is in review mode; delete it with POST /partner/documents/{id}/deletion-process"
        )));
    }
    // False when a concurrent call deleted it first: deleted either way.
    service::delete_document(&state, &row.id, None).await?;
    Ok(Json(json!({})))
}

/// POST /partner/documents/{id}/deletion-process
pub async fn deletion_start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(d): JsonBody<DeletionStart>,
) -> ApiResult<Json<Value>> {
    let client = &caller.client_id;
    let row = service::document_or_403(&state, client, &id).await?;
    if d.user_id.is_empty() {
        return Err(ApiError::precondition("userId", "must not be empty"));
    }
    let user = service::user_or_403(&state, client, "userId", &d.user_id).await?;
    if row.status != "review" {
        return Err(ApiError::precondition(
            "id",
            format!(
                "document {id} is a draft; the deletion process applies to review documents (DELETE the draft)"
            ),
        ));
    }
    if d.immediate != Some(true) && row.deletion_due.is_some() {
        return Err(ApiError::precondition(
            "id",
            format!("document {id} already has an active deletion process"),
        ));
    }
    let now = state.now();
    let others: Vec<String> = state
        .store
        .member_ids(&row.id)
        .await?
        .into_iter()
        .filter(|u| *u != user.id)
        .collect();
    if let Some(m) = d.message.as_deref().filter(|m| !m.is_empty()) {
        state.store.notify(&row.id, &others, m, now).await?;
    }
    if d.immediate == Some(true) {
        service::delete_document(&state, &row.id, None).await?;
    } else {
        state
            .store
            .set_deletion(&row.id, Some(now + DELETION_DELAY_SECONDS), now)
            .await?;
    }
    Ok(Json(json!({})))
}

/// DELETE /partner/documents/{id}/deletion-process
pub async fn deletion_cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    JsonBody(d): JsonBody<DeletionCancel>,
) -> ApiResult<Json<Value>> {
    let row = service::document_or_403(&state, &caller.client_id, &id).await?;
    if row.deletion_due.is_none() {
        return Err(ApiError::precondition(
            "id",
            format!("document {id} has no active deletion process"),
        ));
    }
    let now = state.now();
    state.store.set_deletion(&row.id, None, now).await?;
    if let Some(m) = d.message.as_deref().filter(|m| !m.is_empty()) {
        let all = state.store.member_ids(&row.id).await?;
        state.store.notify(&row.id, &all, m, now).await?;
    }
    Ok(Json(json!({})))
}
