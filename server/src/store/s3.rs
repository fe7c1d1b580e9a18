//! The S3-compatible blob store (AWS S3, MinIO, Ceph, moto…) through the `object_store`
//! crate: what several instances share instead of a folder on a shared mount.
//!
//! Selected with `--blob-url s3://BUCKET[/PREFIX][?endpoint=URL&region=NAME]`; credentials
//! come from the usual `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (/ `AWS_SESSION_TOKEN`)
//! environment variables. An `http://` endpoint (a private S3-compatible server) is allowed
//! and addressed path-style.

use std::io;

use futures_util::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::{GetOptions, ObjectStore, PutOptions, PutPayload};

use super::blob::{BlobFuture, BlobStore, check_key};

/// Why a blob URL cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BlobUrlError {
    /// Not `s3://bucket…`.
    #[error("expected s3://BUCKET[/PREFIX][?endpoint=URL&region=NAME], got {0:?}")]
    Syntax(String),
    /// A query parameter this store does not know.
    #[error("unknown parameter {0:?} (endpoint, region)")]
    Parameter(String),
    /// The client could not be built.
    #[error("S3 client: {0}")]
    Client(#[from] object_store::Error),
}

/// Objects in an S3 bucket, below an optional prefix.
#[derive(Debug)]
pub struct S3Store {
    bucket: String,
    prefix: String,
    client: AmazonS3,
}

impl S3Store {
    /// The store of `url` (`s3://bucket[/prefix][?endpoint=…&region=…]`), signing with
    /// `keys` (access key id, secret) or, when `None`, the `AWS_*` environment variables.
    pub fn from_url(url: &str, keys: Option<&(String, String)>) -> Result<S3Store, BlobUrlError> {
        let syntax = || BlobUrlError::Syntax(url.to_string());
        let rest = url.strip_prefix("s3://").ok_or_else(syntax)?;
        let (location, query) = rest.split_once('?').unwrap_or((rest, ""));
        let location = location.trim_end_matches('/');
        let (bucket, prefix) = location.split_once('/').unwrap_or((location, ""));
        if bucket.is_empty() || (!prefix.is_empty() && check_key(prefix).is_err()) {
            return Err(syntax());
        }
        // The TLS of https endpoints.
        tls_provider();
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        if let Some((id, secret)) = keys {
            builder = builder
                .with_access_key_id(id)
                .with_secret_access_key(secret);
        }
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or_else(syntax)?;
            match name {
                "endpoint" => {
                    builder = builder
                        .with_endpoint(value)
                        .with_allow_http(value.starts_with("http://"))
                        .with_virtual_hosted_style_request(false);
                }
                "region" => builder = builder.with_region(value),
                other => return Err(BlobUrlError::Parameter(other.to_string())),
            }
        }
        Ok(S3Store {
            bucket: bucket.to_string(),
            prefix: prefix.to_string(),
            client: builder.build()?,
        })
    }

    /// The object path of `key` (checked).
    fn path(&self, key: &str) -> io::Result<Path> {
        check_key(key)?;
        Ok(if self.prefix.is_empty() {
            Path::from(key)
        } else {
            Path::from(format!("{}/{key}", self.prefix))
        })
    }
}

/// Installs rustls' ring provider as the process's TLS provider, once. The S3 client (and
/// any other reqwest client in the process) takes its TLS from it; a provider installed
/// already (by the embedding program) is kept.
pub fn tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// An object store error as I/O: absent objects are `NotFound`, the rest keeps its text.
fn io_error(e: object_store::Error) -> io::Error {
    io::Error::from(e)
}

impl BlobStore for S3Store {
    fn put<'a>(&'a self, key: &'a str, bytes: Vec<u8>) -> BlobFuture<'a, ()> {
        Box::pin(async move {
            let path = self.path(key)?;
            // One PUT: S3 makes the object visible whole or not at all.
            self.client
                .put_opts(&path, PutPayload::from(bytes), PutOptions::default())
                .await
                .map_err(io_error)?;
            Ok(())
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> BlobFuture<'a, Option<Vec<u8>>> {
        Box::pin(async move {
            let path = self.path(key)?;
            match self.client.get_opts(&path, GetOptions::default()).await {
                Ok(found) => Ok(Some(found.bytes().await.map_err(io_error)?.to_vec())),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(io_error(e)),
            }
        })
    }

    fn delete_prefix<'a>(&'a self, prefix: &'a str) -> BlobFuture<'a, ()> {
        Box::pin(async move {
            let path = self.path(prefix)?;
            // The object itself (a key may be a file) and everything below it as a folder;
            // listing is by whole segments, so `a1` does not take `a10/…`.
            let mut listed: Vec<Path> = self
                .client
                .list(Some(&path))
                .map(|meta| meta.map(|m| m.location))
                .collect::<Vec<_>>()
                .await
                .into_iter()
                .collect::<Result<_, _>>()
                .map_err(io_error)?;
            listed.push(path);
            let locations = futures_util::stream::iter(listed.into_iter().map(Ok)).boxed();
            let mut deleted = self.client.delete_stream(locations);
            while let Some(result) = deleted.next().await {
                match result {
                    Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => return Err(io_error(e)),
                }
            }
            Ok(())
        })
    }
}

impl std::fmt::Display for S3Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s3://{}/{}", self.bucket, self.prefix)
    }
}
