//! Importing an upload as a new document: the checks of a word import request and the
//! conversion and storing of an import, shared by the upload handlers ([`crate::api`]) and the
//! background job workers ([`crate::jobs`]), which replay a queued request.

use bytes::Bytes;
use sdconv::import::docx::StyleMapping;
use sdconv::{Format, ImportOptions};

use crate::error::{ApiError, ApiResult};
use crate::payload::{Creation, WordImportData, parse_json};
use crate::service;
use crate::state::AppState;
use crate::store::{DocumentRow, User};

/// The two parts of an upload.
pub struct Upload {
    /// The `file` part's name.
    pub file_name: String,
    /// The `file` part.
    pub file: Bytes,
    /// The `data` part.
    pub data: Bytes,
}

/// A checked word import request.
pub struct WordRequest {
    /// The document to make.
    pub creation: Creation,
    /// How to read the file (style mapping, magic import, clean-up routines).
    pub options: ImportOptions,
    /// The `.docx` file.
    pub file: Bytes,
}

/// Checks a word upload's parts.
pub fn word_request(upload: Upload) -> ApiResult<WordRequest> {
    let data: WordImportData = parse_json("data", &upload.data)?;
    data.creation.check()?;
    if !upload.file_name.to_ascii_lowercase().ends_with(".docx") {
        return Err(ApiError::precondition(
            "file",
            format!(
                "{:?} is not a .docx file; only .docx is accepted",
                upload.file_name
            ),
        ));
    }
    let mut options = ImportOptions::default();
    if data.is_magic_import == Some(true) {
        let key = data
            .style_set_key
            .filter(|k| !k.is_empty())
            .ok_or_else(|| ApiError::precondition("styleSetKey", "required with isMagicImport"))?;
        sdconv::magic::resolve(&key).map_err(|e| ApiError::engine("styleSetKey", &e))?;
        options.magic = Some(key);
    } else if let Some(mapping) = &data.style_mapping {
        options.docx.style_mapping =
            StyleMapping::from_value(mapping).map_err(|e| ApiError::engine("styleMapping", &e))?;
    }
    if let Some(routines) = data.routines {
        sdconv::cleanup::resolve(&routines).map_err(|e| ApiError::engine("routines", &e))?;
        options.routines = routines;
    }
    Ok(WordRequest {
        creation: data.creation,
        options,
        file: upload.file,
    })
}

/// Converts and stores a checked request as a new document (with id `id` when given: a
/// background job's); returns the document and its creator.
pub async fn import(
    state: &AppState,
    client: &str,
    creation: &Creation,
    format: Format,
    options: ImportOptions,
    file: Bytes,
    id: Option<String>,
) -> ApiResult<(DocumentRow, User)> {
    let read = state
        // Shared: the upload's pictures stay deflated in it until the stored zip copies them.
        .convert(move || sdconv::import_shared(format, file, &options))
        .await?
        .map_err(|e| ApiError::engine("file", &e))?;
    let warnings = read.warnings.iter().map(ToString::to_string).collect();
    let user = state
        .store
        .upsert_user(client, &creation.rights.user.input())
        .await?;
    let mut row = service::new_row(client, creation, &user, state.now());
    if let Some(id) = id {
        row.id = id;
    }
    let row = service::store_document(state, row, read.value, creation, warnings).await?;
    Ok((row, user))
}
