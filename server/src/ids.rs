//! Random ids and tokens, and the hashes tokens are stored as.

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

/// A new id for a document, user, job (24 hex digits, the service's id form).
pub fn new_id() -> String {
    random_hex(12)
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
    fn ids_and_tokens_are_hex_of_the_right_length_and_differ() {
        let (a, b) = (new_id(), new_id());
        assert_eq!(a.len(), 24);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(random_token().len(), 32);
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
