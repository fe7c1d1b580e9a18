//! Finding the few bytes of a text that need a writer's attention (markup characters, controls,
//! lead bytes of forbidden characters) without looking at the others one at a time.
//!
//! Every writer escapes all its text, and most text has no such byte at all. A scan that stops
//! at the first match cannot be vectorised; these look at blocks of [`BLOCK`] bytes whole (the
//! predicate for every byte of a block, or-ed), which the compiler turns into vector compares,
//! and only in a block that holds a match byte by byte.

/// Bytes looked at together.
const BLOCK: usize = 32;

/// Whether `special` holds for any byte of `bytes`. `special` should be a few comparisons
/// (no table lookups) for the blocks to be vectorised.
#[inline]
pub(crate) fn any_byte(bytes: &[u8], special: impl Fn(u8) -> bool) -> bool {
    let mut blocks = bytes.chunks_exact(BLOCK);
    for block in &mut blocks {
        if block.iter().fold(false, |seen, &b| seen | special(b)) {
            return true;
        }
    }
    blocks.remainder().iter().any(|&b| special(b))
}

/// The index of the first byte at or after `from` for which `special` holds, or the length of
/// `bytes` when there is none (`from` itself when it is past the end).
#[inline]
pub(crate) fn next_special(bytes: &[u8], from: usize, special: impl Fn(u8) -> bool) -> usize {
    let Some(rest) = bytes.get(from..) else {
        return from;
    };
    let mut at = 0;
    for block in rest.chunks_exact(BLOCK) {
        if block.iter().fold(false, |seen, &b| seen | special(b)) {
            break;
        }
        at += BLOCK;
    }
    from + at
        + rest[at..]
            .iter()
            .position(|&b| special(b))
            .unwrap_or(rest.len() - at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_special_byte_at_every_place() {
        let special = |b: u8| b == b'<' || b < 0x20;
        for len in [0, 1, 31, 32, 33, 64, 95, 100] {
            let plain = vec![b'a'; len];
            assert!(!any_byte(&plain, special));
            assert_eq!(next_special(&plain, 0, special), len);
            assert_eq!(next_special(&plain, len + 1, special), len + 1);
            for at in 0..len {
                for mark in [b'<', b'\n'] {
                    let mut bytes = plain.clone();
                    bytes[at] = mark;
                    assert!(any_byte(&bytes, special), "{len} {at}");
                    assert_eq!(next_special(&bytes, 0, special), at, "{len} {at}");
                    // From the special byte itself, and from past it.
                    assert_eq!(next_special(&bytes, at, special), at);
                    assert_eq!(next_special(&bytes, at + 1, special), len);
                    // A second one further on changes nothing.
                    if at + 1 < len {
                        bytes[len - 1] = b'<';
                        assert_eq!(next_special(&bytes, 0, special), at);
                    }
                }
            }
        }
    }
}
