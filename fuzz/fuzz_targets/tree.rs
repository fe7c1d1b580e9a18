//! Fuzz bytes → an arbitrary valid document tree, with the test suite's own generator
//! (`tests/common/arb.rs`, included as it is): the bytes are the generator's random stream
//! (proptest's pass-through RNG; zeros once they run out), so the fuzzer's mutations steer
//! which blocks, inlines, tables and metadata the tree gets.

#![allow(dead_code)]

#[path = "../../tests/common/arb.rs"]
mod arb;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sdconv::Document;

/// The tree `data` stands for; `None` only if the generator gives up (it has no filters that
/// could reject, so in practice every input gives a tree).
pub fn tree(data: &[u8]) -> Option<Document> {
    let rng = TestRng::from_seed(RngAlgorithm::PassThrough, data);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let doc = arb::document().new_tree(&mut runner).ok()?.current();
    debug_assert!(doc.validate().is_ok());
    Some(doc)
}
