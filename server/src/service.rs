//! What several endpoints do alike: store a converted document, load its tree, mint access
//! links, shape document records.

use std::collections::HashMap;

use sdconv::{Document, ExportOptions, Format, ImportOptions};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::payload::Creation;
use crate::state::AppState;
use crate::store::{DocumentRow, User, document_key, page_prefix};

/// Lifetime of a `documentAccessLink` (spec: 1 minute).
pub const ACCESS_LINK_SECONDS: i64 = 60;
/// Lifetime of a rendered page (html export URL, the page an access link opens).
pub const PAGE_SECONDS: i64 = 3600;
/// Delay of a deletion process without `immediate` (spec: 15 days).
pub const DELETION_DELAY_SECONDS: i64 = 15 * 24 * 3600;

/// 402 when the client holds its quota of documents already.
pub async fn check_quota(state: &AppState, client: &str) -> ApiResult<()> {
    let quota = state.config.document_quota;
    if quota > 0 && state.store.count_documents(client).await? >= quota {
        return Err(ApiError::payment_required(format!(
            "the freemium limit of {quota} documents is reached; upgrade to create more"
        )));
    }
    Ok(())
}

/// The tree's metadata set from the record: the record is the truth (the metadata endpoint
/// changes it without rewriting the stored tree).
pub fn apply_meta(tree: &mut Document, row: &DocumentRow, language: Option<&str>) {
    let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
    tree.meta.id = Some(row.id.clone());
    tree.meta.title = opt(&row.title);
    tree.meta.subtitle = opt(&row.subtitle);
    tree.meta.description = opt(&row.description);
    tree.meta.filename = opt(&row.filename);
    tree.meta.footer = opt(&row.footer);
    tree.meta.supplemental = opt(&row.supplemental);
    tree.meta.tags = row.tags.clone();
    if let Some(l) = language {
        tree.meta.language = Some(l.to_string());
    }
}

/// A new record for `creation` by `creator`.
pub fn new_row(client: &str, creation: &Creation, creator: &User, now: i64) -> DocumentRow {
    DocumentRow {
        id: ids::new_document_id(),
        client_id: client.to_string(),
        title: creation.title.clone(),
        subtitle: creation.subtitle.clone().unwrap_or_default(),
        filename: creation.filename.clone().unwrap_or_default(),
        description: creation.description.clone(),
        footer: creation.footer.clone().unwrap_or_default(),
        supplemental: creation.supplemental.clone().unwrap_or_default(),
        tags: Vec::new(),
        creator_id: creator.id.clone(),
        status: creation.status().to_string(),
        archived: false,
        group_id: creation.group_id.clone(),
        sample_id: creation.sample_id.clone().unwrap_or_default(),
        created: now,
        modified: now,
        conversation_changed: 0,
        deletion_due: None,
        warnings: Vec::new(),
    }
}

/// Converts `tree` to the stored form (sd.xml zip) with the record's metadata, stores it and
/// inserts the record. No transaction is open during the conversion.
pub async fn store_document(
    state: &AppState,
    mut row: DocumentRow,
    mut tree: Document,
    creation: &Creation,
    mut warnings: Vec<String>,
) -> ApiResult<DocumentRow> {
    let r = row.clone();
    let (bytes, more) = state
        .convert(move || {
            apply_meta(&mut tree, &r, None);
            sdconv::export(&tree, Format::Sdxml, &ExportOptions::default())
        })
        .await?
        .map(|c| (c.value, c.warnings))
        .map_err(|e| ApiError::engine("stored form", &e))?;
    warnings.extend(more.iter().map(ToString::to_string));
    for w in &warnings {
        tracing::warn!(document = %row.id, "conversion warning: {w}");
    }
    row.warnings = warnings;
    state.blob_put(vec![(document_key(&row.id), bytes)]).await?;
    state
        .store
        .insert_document(&row, &creation.rights.member())
        .await?;
    Ok(row)
}

/// The stored tree of `row`, with its current metadata.
pub async fn load_tree(
    state: &AppState,
    row: &DocumentRow,
    language: Option<&str>,
) -> ApiResult<Document> {
    let bytes = state
        .blob_get(document_key(&row.id))
        .await?
        .ok_or_else(|| ApiError::internal("stored document", format!("{} has no file", row.id)))?;
    // Shared, not borrowed: the pictures stay deflated inside these bytes, and the zip
    // writers copy them from there (no copy of their own, no inflating).
    let bytes = bytes::Bytes::from(bytes);
    let tree = state
        .convert(move || sdconv::import_shared(Format::Sdxml, bytes, &ImportOptions::default()))
        .await?
        .map_err(|e| ApiError::internal("reading the stored document", e))?;
    let mut tree = tree.value;
    apply_meta(&mut tree, row, language);
    Ok(tree)
}

/// A new one-time link for `user` into `document`. The user's sessions in the document (pages
/// opened with earlier links) end: the newest link is the one that counts.
pub async fn mint_link(state: &AppState, document: &str, user: &str) -> ApiResult<String> {
    end_sessions(state, document, user).await?;
    let token = ids::random_token();
    state
        .store
        .insert_access_token(
            &ids::token_hash(&token),
            document,
            user,
            state.now() + ACCESS_LINK_SECONDS,
        )
        .await?;
    Ok(format!("{}/access/{token}", state.public_url))
}

/// Ends `user`'s page sessions in `document`: their records and files go.
pub async fn end_sessions(state: &AppState, document: &str, user: &str) -> ApiResult<()> {
    for hash in state.store.end_sessions(document, user).await? {
        state.blob_delete(page_prefix(&hash)).await?;
    }
    Ok(())
}

/// The access result of create, open and imports.
pub async fn access_result(state: &AppState, document: &str, user: &User) -> ApiResult<Value> {
    let link = mint_link(state, document, &user.id).await?;
    Ok(json!({
        "documentAccessLink": link,
        "userIdSD": user.id,
        "documentId": document,
    }))
}

/// The document `id` of the caller, or 403 "not found". An id that cannot be one (see
/// [`crate::payload::path_id`]) is a 412 naming `id`.
pub async fn document_or_403(state: &AppState, client: &str, id: &str) -> ApiResult<DocumentRow> {
    crate::payload::path_id("id", id)?;
    state
        .store
        .document(client, id)
        .await?
        .ok_or_else(|| unknown_document(id))
}

/// The answer for a document that does not exist, or does not for the user asking (rule 1).
pub fn unknown_document(id: &str) -> ApiError {
    ApiError::not_found(format!("no document has the id {id:?}"))
}

/// The user with partner id `partner_id`, or 403 "not found" naming `field` (412 when the id
/// is longer than any can be).
pub async fn user_or_403(
    state: &AppState,
    client: &str,
    field: &str,
    partner_id: &str,
) -> ApiResult<User> {
    crate::payload::partner_id(field, partner_id)?;
    state
        .store
        .user(client, partner_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("{field}: no user has the id {partner_id:?}")))
}

/// Rule 1: a draft is visible only to its creator.
pub fn check_visible(row: &DocumentRow, user: &User) -> ApiResult<()> {
    if row.status == "draft" && row.creator_id != user.id {
        return Err(ApiError::forbidden(format!(
            "document {} is a draft: only its creator may use it",
            row.id
        )));
    }
    Ok(())
}

/// The three user-dependent flags: unread section changes, unread conversation changes,
/// opened. A document has unseen changes when it changed after the user last opened it (never
/// opened: everything is unseen).
pub async fn user_flags(
    state: &AppState,
    row: &DocumentRow,
    user: &str,
) -> ApiResult<(bool, bool, bool)> {
    let last = state
        .store
        .member(&row.id, user)
        .await?
        .and_then(|m| m.last_opened);
    Ok(match last {
        None => (true, row.conversation_changed > 0, false),
        Some(t) => (row.modified > t, row.conversation_changed > t, true),
    })
}

/// Partner ids of creators, looked up once each.
#[derive(Debug, Default)]
pub struct Creators(HashMap<String, String>);

impl Creators {
    /// The partner id of the service user `sd_id` (empty when unknown).
    pub async fn partner_id(
        &mut self,
        state: &AppState,
        client: &str,
        sd_id: &str,
    ) -> ApiResult<String> {
        if let Some(p) = self.0.get(sd_id) {
            return Ok(p.clone());
        }
        let p = state
            .store
            .user_by_sd_id(client, sd_id)
            .await?
            .map(|u| u.partner_id)
            .unwrap_or_default();
        self.0.insert(sd_id.to_string(), p.clone());
        Ok(p)
    }
}

/// The document record; `full` adds the single-document fields (filename, footer, sampleId).
pub fn record(
    row: &DocumentRow,
    creator_partner: &str,
    flags: (bool, bool, bool),
    full: bool,
) -> Value {
    let mut v = json!({
        "id": row.id,
        "title": row.title,
        "subtitle": row.subtitle,
        "description": row.description,
        "tags": row.tags,
        "supplemental": row.supplemental,
        "creatorIdSD": row.creator_id,
        "creatorId": creator_partner,
        "status": row.status,
        "createdDate": row.created,
        "modificationDate": row.modified,
        "hasUnreadSectionChanges": flags.0,
        "hasUnreadConversationChanges": flags.1,
        "hasOpenedDocument": flags.2,
        "archived": row.archived,
        "groupId": row.group_id,
    });
    if full && let Some(o) = v.as_object_mut() {
        o.insert("filename".into(), json!(row.filename));
        o.insert("footer".into(), json!(row.footer));
        o.insert("sampleId".into(), json!(row.sample_id));
    }
    v
}

/// Deletes a document's records and then its files (its pages' too: their sessions end with
/// it); with `due_at`, only when its deletion
/// process is due then. True when this call deleted it (false: another instance did, or it is
/// no longer due), so files are removed and deletions counted once.
pub async fn delete_document(state: &AppState, id: &str, due_at: Option<i64>) -> ApiResult<bool> {
    let Some(pages) = state.store.delete_document(id, due_at).await? else {
        return Ok(false);
    };
    state.blob_delete(format!("documents/{id}")).await?;
    for hash in pages {
        state.blob_delete(page_prefix(&hash)).await?;
    }
    Ok(true)
}
