//! Legacy accounts (`x-api-key` + admin e-mail and password): the configured accounts with
//! their passwords hashed, looked up by API key, and the credential check of
//! `POST /partner/authenticate`. Kept apart from [`crate::auth`], which reads them from the
//! shared state when it authenticates a request, so that the state does not depend on the
//! request extractor.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use subtle::ConstantTimeEq;

use crate::config::LegacyAccount;

/// A legacy account with its password hashed.
#[derive(Debug, Clone)]
pub struct LegacyKey {
    /// The account.
    pub client_id: String,
    /// `x-api-key`.
    pub api_key: String,
    /// Admin e-mail.
    pub email: String,
    /// argon2 PHC string of the password.
    pub password_hash: String,
}

/// All legacy accounts.
#[derive(Debug, Clone, Default)]
pub struct LegacyKeys(pub Vec<LegacyKey>);

/// A password that could not be hashed, or a configured hash that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("legacy account of client {client}: {message}")]
pub struct PasswordError {
    client: String,
    message: String,
}

impl LegacyKeys {
    /// Hashes the configured passwords with argon2 (an `$argon2…` value is taken as a hash).
    pub fn from_config(accounts: &[LegacyAccount]) -> Result<Self, PasswordError> {
        let mut keys = Vec::new();
        for a in accounts {
            let err = |e: argon2::password_hash::Error| PasswordError {
                client: a.client_id.clone(),
                message: e.to_string(),
            };
            let password_hash = if a.password.starts_with("$argon2") {
                PasswordHash::new(&a.password).map_err(err)?;
                a.password.clone()
            } else {
                hash_password(&a.password).map_err(err)?
            };
            keys.push(LegacyKey {
                client_id: a.client_id.clone(),
                api_key: a.api_key.clone(),
                email: a.email.clone(),
                password_hash,
            });
        }
        Ok(LegacyKeys(keys))
    }

    /// The account of `api_key`, comparing every key in constant time.
    pub fn by_api_key(&self, api_key: &str) -> Option<&LegacyKey> {
        let mut found = None;
        for k in &self.0 {
            if bool::from(k.api_key.as_bytes().ct_eq(api_key.as_bytes())) {
                found = Some(k);
            }
        }
        found
    }
}

/// argon2id hash (PHC string) of `password` with a random salt.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| argon2::password_hash::Error::Crypto)?;
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Whether `email` and `password` match the account (both checked, in constant time where it
/// matters, so a wrong e-mail costs as long as a wrong password).
pub fn check_credentials(key: &LegacyKey, email: &str, password: &str) -> bool {
    let email_ok = bool::from(key.email.as_bytes().ct_eq(email.as_bytes()));
    let password_ok = PasswordHash::new(&key.password_hash).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    });
    email_ok & password_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hashed_and_checked() {
        let keys = LegacyKeys::from_config(&[LegacyAccount {
            client_id: "c".into(),
            api_key: "k".into(),
            email: "a@b.c".into(),
            password: "pw".into(),
        }])
        .unwrap();
        let key = keys.by_api_key("k").unwrap();
        assert!(key.password_hash.starts_with("$argon2"));
        assert!(check_credentials(key, "a@b.c", "pw"));
        assert!(!check_credentials(key, "a@b.c", "px"));
        assert!(!check_credentials(key, "x@b.c", "pw"));
        assert!(keys.by_api_key("K").is_none());
    }
}
