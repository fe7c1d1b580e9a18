//! Random ids and tokens, the id forms a path may carry, and the hashes tokens are stored as.
//!
//! | id | form |
//! |---|---|
//! | document, background job | random UUID v4, lowercase and hyphenated (the service's form); stores written before keep their 24-hex ids, which stay valid |
//! | service user (`userIdSD`), instance | 24 lowercase hex digits |
//! | tokens (access links, pages, sessions, admin tokens) | 32 lowercase hex digits (128 bits) |

use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

fn random_hex(n: usize) -> String {
    let mut buf = vec![0u8; n];
    // The operating system's generator failing is not recoverable for a server that hands out
    // secrets; falling back to something guessable would be worse.
    if let Err(e) = getrandom::fill(&mut buf) {
        panic!("the system random generator failed: {e}");
    }
    hex(&buf)
}

/// A new document or job id: a random UUID v4, lowercase and hyphenated, exactly what a client
/// checking `str(uuid.UUID(id, version=4)) == id` accepts. The uuid crate draws it from the
/// system generator (getrandom).
pub fn new_document_id() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}

/// A new id for a service user (`userIdSD`) or a server instance: 24 hex digits, the form
/// user records have always had.
pub fn new_user_id() -> String {
    random_hex(12)
}

/// Whether `id` can name a document or a job: a UUID v4 in its canonical form (lowercase,
/// hyphenated, version 4, RFC 4122 variant), or the 24 lowercase hex digits of the ids stores
/// were written with before; nothing else.
pub fn is_document_id(id: &str) -> bool {
    is_uuid_v4(id) || is_legacy_id(id)
}

/// The canonical text of a UUID v4, as [`new_document_id`] makes it.
pub fn is_uuid_v4(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            14 => c == b'4',
            19 => matches!(c, b'8' | b'9' | b'a' | b'b'),
            _ => matches!(c, b'0'..=b'9' | b'a'..=b'f'),
        })
}

/// 24 lowercase hex digits: a document or job id of a store written before ids were UUIDs.
pub fn is_legacy_id(id: &str) -> bool {
    id.len() == 24 && id.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
}

/// A new secret token (128 bits, 32 hex digits).
pub fn random_token() -> String {
    random_hex(16)
}

/// What a token is stored as: its SHA-256 in hex. Tokens are random, so a plain hash suffices
/// (no salt needed), and a lookup by hash leaks nothing useful through timing.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A stable small hash for display values (avatar colours).
pub fn short_hash(value: &str) -> [u8; 3] {
    let d = Sha256::digest(value.as_bytes());
    [d[0], d[1], d[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_ids_are_canonical_uuid_v4_and_differ() {
        let (a, b) = (new_document_id(), new_document_id());
        assert_ne!(a, b);
        for id in [&a, &b] {
            assert!(is_uuid_v4(id) && is_document_id(id), "{id}");
            let parsed = uuid::Uuid::parse_str(id).unwrap();
            assert_eq!(parsed.get_version_num(), 4);
            assert_eq!(parsed.get_variant(), uuid::Variant::RFC4122);
            assert_eq!(parsed.hyphenated().to_string(), *id);
        }
    }

    #[test]
    fn user_ids_and_tokens_are_hex_of_the_right_length() {
        let (a, b) = (new_user_id(), new_user_id());
        assert_eq!(a.len(), 24);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(random_token().len(), 32);
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn both_id_forms_are_accepted_and_nothing_else() {
        for ok in [
            "39ca2c35-7f1e-4d3a-9b2c-0123456789ab",
            "00000000-0000-4000-8000-000000000000",
            "0123456789abcdef01234567",
        ] {
            assert!(is_document_id(ok), "{ok}");
        }
        for bad in [
            "",
            "nope",
            // Upper case, another version, another variant, no hyphens, braces, URN.
            "39CA2C35-7F1E-4D3A-9B2C-0123456789AB",
            "39ca2c35-7f1e-1d3a-9b2c-0123456789ab",
            "39ca2c35-7f1e-4d3a-cb2c-0123456789ab",
            "39ca2c357f1e4d3a9b2c0123456789ab",
            "{39ca2c35-7f1e-4d3a-9b2c-0123456789ab}",
            "urn:uuid:39ca2c35-7f1e-4d3a-9b2c-0123456789ab",
            // 24 digits, but upper case or one too many or too few.
            "0123456789ABCDEF01234567",
            "0123456789abcdef012345678",
            "0123456789abcdef0123456",
            "../../etc/passwd",
        ] {
            assert!(!is_document_id(bad), "{bad}");
        }
    }
}
