//! A good part of the partner API suite of `tests/api` with the files in an S3-compatible
//! store: a moto server (PyPI `moto[server]`) on loopback, a bucket per test, SQLite records.
//! Skips with a printed reason when moto cannot run, except in CI (`CI=true`), where it fails.

const POSTGRES: bool = false;
/// Every harness of this binary keeps its files in a bucket of the test's moto server.
const S3: bool = true;

#[path = "api/harness.rs"]
#[allow(dead_code)] // Helpers of the modules not run here (auth, browser, openapi).
mod harness;

#[path = "api/access.rs"]
mod access;
#[path = "api/client.rs"]
mod client;
#[path = "api/documents.rs"]
mod documents;
#[path = "api/imports_exports.rs"]
mod imports_exports;
#[path = "api/instances.rs"]
mod instances;

/// The store itself on moto: put, get, absent keys, delete by folder (not by name prefix).
#[tokio::test]
async fn s3_store_puts_gets_and_deletes_by_folder() {
    use sdconv_server::store::BlobStore;
    use sdconv_server::store::s3::S3Store;
    let Some(url) = harness::moto_bucket().await else {
        return;
    };
    let keys = ("test".to_string(), "test".to_string());
    let store = S3Store::from_url(&url, Some(&keys)).unwrap();
    store
        .put("documents/a1/sd.xml.zip", b"zip".to_vec())
        .await
        .unwrap();
    store
        .put("documents/a1/media/p.png", b"png".to_vec())
        .await
        .unwrap();
    store
        .put("documents/a10/sd.xml.zip", b"other".to_vec())
        .await
        .unwrap();
    assert_eq!(
        store
            .get("documents/a1/sd.xml.zip")
            .await
            .unwrap()
            .as_deref(),
        Some(&b"zip"[..])
    );
    assert_eq!(store.get("documents/none").await.unwrap(), None);
    store.delete_prefix("documents/a1").await.unwrap();
    assert_eq!(store.get("documents/a1/sd.xml.zip").await.unwrap(), None);
    assert_eq!(store.get("documents/a1/media/p.png").await.unwrap(), None);
    assert_eq!(
        store
            .get("documents/a10/sd.xml.zip")
            .await
            .unwrap()
            .as_deref(),
        Some(&b"other"[..])
    );
    // Absent is fine; unsafe keys never reach the bucket.
    store.delete_prefix("documents/a1").await.unwrap();
    assert!(store.put("../x", Vec::new()).await.is_err());
    assert!(S3Store::from_url("s3://", None).is_err());
    assert!(S3Store::from_url("s3://b?colour=red", None).is_err());
}
