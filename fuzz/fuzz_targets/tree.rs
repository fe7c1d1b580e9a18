//! Fuzz bytes → an arbitrary valid document tree, with the test suite's own generator
//! (`tests/common/arb.rs`, included as it is).
//!
//! The bytes are folded into the 32-byte seed of proptest's ChaCha generator: each input stands
//! for one tree, and the fuzzer keeps the inputs whose trees reach new code. Feeding the bytes
//! straight in as the random stream (proptest's pass-through RNG) would let mutations steer the
//! tree more finely, but that stream turns to zeros when the bytes run out, and `rand`'s
//! range sampling rejects an all-zero word forever: an empty input hung the target.

#![allow(dead_code)]

#[path = "../../tests/common/arb.rs"]
mod arb;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sdconv::Document;

/// The tree `data` stands for; `None` only if the generator gives up (it has no filters that
/// could reject, so in practice every input gives a tree).
pub fn tree(data: &[u8]) -> Option<Document> {
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed(data));
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let doc = arb::document().new_tree(&mut runner).ok()?.current();
    Some(doc)
}

/// Four 64-bit lanes, each a multiply-xorshift hash over every fourth 8-byte word of `data`,
/// so every input byte changes the seed.
fn seed(data: &[u8]) -> [u8; 32] {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut lanes = [
        0x243F_6A88_85A3_08D3u64,
        0x1319_8A2E_0370_7344,
        0xA409_3822_299F_31D0,
        0x082E_FA98_EC4E_6C89,
    ];
    for (i, chunk) in data.chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let lane = &mut lanes[i % 4];
        *lane = (*lane ^ u64::from_le_bytes(word)).wrapping_mul(K);
        *lane ^= *lane >> 29;
    }
    let mut out = [0u8; 32];
    for (i, lane) in lanes.iter().enumerate() {
        let mixed = (lane ^ data.len() as u64).wrapping_mul(K);
        out[i * 8..i * 8 + 8].copy_from_slice(&(mixed ^ (mixed >> 32)).to_le_bytes());
    }
    out
}
