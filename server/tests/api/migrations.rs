//! A database made before both databases shared one migration text, by the statements the
//! server then gave it (`tests/fixtures/schema_v2_*.sql`), opens with this server: no released
//! migration runs again (later ones are applied once, on top), its rows read and take writes,
//! and its schema is the one a new database gets. A store written while document and job ids
//! were 24 hex digits keeps them reachable by those ids.

use sdconv_server::store::{DocumentRow, Member, Store};
use sqlx::AnyPool;

use crate::harness::postgres_schema;

/// The released statements of the suite's database.
const RELEASED: &str = if crate::POSTGRES {
    include_str!("../fixtures/schema_v2_postgres.sql")
} else {
    include_str!("../fixtures/schema_v2_sqlite.sql")
};

/// A new empty database of the suite's kind: its URL for [`Store::connect`] (`None`: the file
/// in the data folder) and for a plain pool, and the data folder.
async fn empty_database() -> Option<(Option<String>, String, tempfile::TempDir)> {
    let dir = tempfile::tempdir().unwrap();
    if crate::POSTGRES {
        let url = postgres_schema().await?;
        return Some((Some(url.clone()), url, dir));
    }
    let file = dir.path().join("sdconv.db");
    Some((None, format!("sqlite://{}?mode=rwc", file.display()), dir))
}

async fn open(url: Option<&str>, dir: &tempfile::TempDir) -> Store {
    Store::connect(url, dir.path(), 2, None, None)
        .await
        .unwrap()
}

/// Tables, columns (type, nullability, default, key) and indexes, in a comparable form.
async fn schema(store: &Store) -> Vec<String> {
    let sql = if crate::POSTGRES {
        "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
                || ' ' || COALESCE(column_default, '-')
         FROM information_schema.columns WHERE table_schema = current_schema()
         UNION ALL
         SELECT 'index ' || indexname || ' ' || replace(indexdef, current_schema() || '.', '')
         FROM pg_indexes WHERE schemaname = current_schema()
         ORDER BY 1"
    } else {
        "SELECT m.name || '.' || p.name || ' ' || p.type || ' ' || p.\"notnull\" || ' '
                || COALESCE(p.dflt_value, '-') || ' ' || p.pk
         FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'
         UNION ALL
         SELECT 'index ' || name || ' ' || tbl_name || ' ' || COALESCE(sql, '-')
         FROM sqlite_master WHERE type = 'index'
         ORDER BY 1"
    };
    let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(&store.db).await.unwrap();
    rows.into_iter().map(|(row,)| row).collect()
}

#[tokio::test]
async fn a_database_made_by_the_released_statements_opens_and_keeps_its_rows() {
    let Some((store_url, url, dir)) = empty_database().await else {
        return;
    };
    sqlx::any::install_default_drivers();
    let old = AnyPool::connect(&url).await.unwrap();
    sqlx::raw_sql(RELEASED).execute(&old).await.unwrap();
    // What the server recorded after applying them, and rows as it wrote them.
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL);
         INSERT INTO schema_migrations (version, applied) VALUES (1, 100), (2, 200);
         INSERT INTO users (id, client_id, partner_id, email) VALUES ('sd1', 'c', 'u1', 'u1@x');
         INSERT INTO documents (id, client_id, title, tags, creator_id, status, group_id, created, modified)
           VALUES ('d1', 'c', 'Old', '[\"t\"]', 'sd1', 'draft', 'g', 1, 2);
         INSERT INTO members (document_id, user_id, role, admin) VALUES ('d1', 'sd1', 'editor', 1);
         INSERT INTO notifications (document_id, user_id, message, created) VALUES ('d1', 'sd1', 'first', 3);
         INSERT INTO access_tokens (hash, document_id, user_id, expires) VALUES ('h', 'd1', 'sd1', 50);
         INSERT INTO pages (hash, document_id, expires) VALUES ('p', 'd1', 50);
         INSERT INTO jobs (id, client_id, state, created, payload, file_name)
           VALUES ('j1', 'c', 'PENDING', 4, '{}', 'a.docx');",
    )
    .execute(&old)
    .await
    .unwrap();
    old.close().await;

    let store = open(store_url.as_deref(), &dir).await;
    let versions: Vec<(i64, i64)> =
        sqlx::query_as("SELECT version, applied FROM schema_migrations ORDER BY version")
            .fetch_all(&store.db)
            .await
            .unwrap();
    assert_eq!(
        &versions[..2],
        [(1, 100), (2, 200)],
        "nothing migrated again"
    );
    // What came after is applied once, on top.
    let later: Vec<i64> = versions[2..].iter().map(|(v, _)| *v).collect();
    assert_eq!(later, [3]);
    // The rows read back.
    let user = store.user("c", "u1").await.unwrap().unwrap();
    assert_eq!((user.id.as_str(), user.language.as_str()), ("sd1", "en_EN"));
    let doc = store.document("c", "d1").await.unwrap().unwrap();
    assert_eq!(
        (doc.title.as_str(), doc.tags.as_slice()),
        ("Old", &["t".to_string()][..])
    );
    let member = store.member("d1", "sd1").await.unwrap().unwrap();
    assert_eq!((member.role.as_str(), member.admin), ("editor", Some(true)));
    assert!(store.page_valid("p", 10).await.unwrap());
    // An old page is a link without a session, as export pages are.
    assert_eq!(store.page("p", 10).await.unwrap().unwrap().session, None);
    assert_eq!(
        store.consume_access_token("h", 10).await.unwrap(),
        Some(("d1".to_string(), "sd1".to_string()))
    );
    let job = store.claim_job("w", 10, 60).await.unwrap().unwrap();
    assert_eq!((job.id.as_str(), job.attempts), ("j1", 1));
    // And take writes: the numbered notifications go on after the old ones.
    store
        .notify("d1", &["sd1".to_string()], "second", 5)
        .await
        .unwrap();
    assert_eq!(
        store.notifications("sd1").await.unwrap(),
        ["first", "second"]
    );
    let row = DocumentRow {
        id: "d2".into(),
        client_id: "c".into(),
        title: "New".into(),
        creator_id: "sd1".into(),
        status: "draft".into(),
        group_id: "g".into(),
        ..DocumentRow::default()
    };
    let creator = Member {
        role: "editor".into(),
        section_history: None,
        export_duplicate: None,
        admin: None,
        last_opened: None,
    };
    store.insert_document(&row, &creator).await.unwrap();
    assert_eq!(store.count_documents("c").await.unwrap(), 2);
    assert_eq!(
        store.delete_document("d1", None).await.unwrap(),
        Some(vec!["p".to_string()]),
        "deleted, with its page"
    );

    // The schema is the one this server makes.
    let Some((new_url, _, new_dir)) = empty_database().await else {
        return;
    };
    let new = open(new_url.as_deref(), &new_dir).await;
    let old_schema = schema(&store).await;
    assert!(
        old_schema
            .iter()
            .any(|c| c.starts_with("notifications.id "))
    );
    assert_eq!(old_schema, schema(&new).await);
}

/// Ids of the form stores were written with before document and job ids became UUIDs.
const OLD_USER: &str = "5f0c1d2e3f4a5b6c7d8e9f00";
const OLD_DRAFT: &str = "0a1b2c3d4e5f60718293a4b5";
const OLD_REVIEW: &str = "0a1b2c3d4e5f60718293a4b6";
const OLD_JOB: &str = "0c1d2e3f4a5b6c7d8e9fa0b1";

/// A store as the server wrote it while document and job ids were 24 hex digits: the released
/// schema, a user, a draft and a review document with their stored files, a finished background
/// job, all with ids of that form. Its URL for [`Store::connect`] and its data folder.
async fn store_with_24_hex_ids() -> Option<(Option<String>, tempfile::TempDir)> {
    let (store_url, url, dir) = empty_database().await?;
    sqlx::any::install_default_drivers();
    let old = AnyPool::connect(&url).await.unwrap();
    sqlx::raw_sql(RELEASED).execute(&old).await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL);
         INSERT INTO schema_migrations (version, applied) VALUES (1, 100), (2, 200);
         INSERT INTO users (id, client_id, partner_id, email, language)
           VALUES ('{OLD_USER}', 'acme', 'old-user', 'old@x', 'de_DE');
         INSERT INTO documents (id, client_id, title, creator_id, status, group_id, created, modified)
           VALUES ('{OLD_DRAFT}', 'acme', 'Old draft', '{OLD_USER}', 'draft', 'g', 1, 2),
                  ('{OLD_REVIEW}', 'acme', 'Old review', '{OLD_USER}', 'review', 'g', 3, 4);
         INSERT INTO members (document_id, user_id, role) VALUES ('{OLD_DRAFT}', '{OLD_USER}', 'approver'),
                                                                ('{OLD_REVIEW}', '{OLD_USER}', 'approver');
         INSERT INTO jobs (id, client_id, state, document_id, user_id, created, payload, file_name)
           VALUES ('{OLD_JOB}', 'acme', 'SUCCESS', '{OLD_DRAFT}', '{OLD_USER}', 5, '{{}}', 'a.docx');"
    )))
    .execute(&old)
    .await
    .unwrap();
    old.close().await;
    // The stored files, where the file store kept them: documents/<id>/sd.xml.zip.
    let sample = sdconv::import(
        sdconv::Format::Word,
        &crate::harness::sample_docx(),
        &sdconv::ImportOptions::default(),
    )
    .unwrap()
    .value;
    let zip = sdconv::export(
        &sample,
        sdconv::Format::Sdxml,
        &sdconv::ExportOptions::default(),
    )
    .unwrap()
    .value;
    for id in [OLD_DRAFT, OLD_REVIEW] {
        let folder = dir.path().join("blobs/documents").join(id);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("sd.xml.zip"), &zip).unwrap();
    }
    Some((store_url, dir))
}

#[tokio::test]
async fn documents_and_jobs_of_a_store_with_24_hex_ids_stay_reachable_by_them() {
    use reqwest::StatusCode;
    use serde_json::json;

    use crate::harness::{Harness, send_json};

    let Some((store_url, dir)) = store_with_24_hex_ids().await else {
        return;
    };
    let data = dir.path().to_path_buf();
    let Some(h) = Harness::start_with(move |c| {
        c.data = data;
        c.database_url = store_url;
    })
    .await
    else {
        return;
    };
    // Read, listed, exported and opened by their old ids.
    let (status, rec) = h.doc(OLD_DRAFT, Some("old-user")).await;
    assert_eq!(status, StatusCode::OK, "{rec}");
    assert_eq!(
        (rec["id"].as_str(), rec["title"].as_str()),
        (Some(OLD_DRAFT), Some("Old draft"))
    );
    assert_eq!(rec["creatorIdSD"], OLD_USER);
    let (_, list) = send_json(
        h.get("/partner/documents/list")
            .query(&[("userId", "old-user"), ("groupId", "g")]),
    )
    .await;
    let listed: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["id"].as_str())
        .collect();
    assert_eq!(listed, [OLD_DRAFT, OLD_REVIEW]);
    let resp = h
        .post(&format!("/partner/documents/{OLD_DRAFT}/export/sdxml"))
        .json(&json!({"userId": "old-user"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let zip = resp.bytes().await.unwrap();
    let xml = crate::harness::zip_text(&zip, "sd.xml");
    assert!(
        xml.contains(OLD_DRAFT),
        "the export names the document by its id"
    );
    let rights = json!({"user": {"userId": "old-user"}, "userRole": "approver"});
    let (status, access) = send_json(
        h.post(&format!("/partner/documents/{OLD_DRAFT}"))
            .json(&rights),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{access}");
    assert_eq!(
        (access["documentId"].as_str(), access["userIdSD"].as_str()),
        (Some(OLD_DRAFT), Some(OLD_USER))
    );
    let opened = h
        .http
        .get(access["documentAccessLink"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), StatusCode::SEE_OTHER);
    // The old job answers with the old document.
    let (status, job) =
        send_json(h.get(&format!("/partner/documents/background-upload/{OLD_JOB}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (job["state"].as_str(), job["documentId"].as_str()),
        (Some("SUCCESS"), Some(OLD_DRAFT))
    );
    // Changed by their old ids; what is new gets a UUID.
    let (status, _) = send_json(
        h.post(&format!("/partner/documents/{OLD_DRAFT}/metadata"))
            .json(&json!({"tags": ["kept"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, copy) = send_json(
        h.post(&format!("/partner/documents/{OLD_REVIEW}/duplicate"))
            .json(&json!({"title": "Copy", "description": "", "creatorUserId": "old-user"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{copy}");
    let copy = copy["documentId"].as_str().unwrap();
    assert!(sdconv_server::ids::is_uuid_v4(copy), "{copy}");
    for path in ["archive", "unarchive"] {
        let resp = h
            .post(&format!("/partner/documents/{OLD_REVIEW}/{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
    }
    let (status, _) = send_json(h.delete(&format!("/partner/documents/{OLD_DRAFT}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h.doc(OLD_DRAFT, None).await.0, StatusCode::FORBIDDEN);
    assert!(
        !dir.path().join("blobs/documents").join(OLD_DRAFT).exists(),
        "its file is gone with it"
    );
}
