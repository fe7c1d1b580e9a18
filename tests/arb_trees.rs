//! The tree generator makes valid, canonical trees.

mod common;

use proptest::prelude::*;
use sdconv::ast::inline::{into_runs, is_normalized, to_runs};
use sdconv::ast::{Block, Inline};

proptest! {
    #![proptest_config(common::config(128))]

    #[test]
    fn generated_trees_validate(doc in common::arb::document()) {
        prop_assert_eq!(doc.validate(), Ok(()));
        // Only referenced media are stored, so a writer has nothing to drop.
        let mut used = std::collections::BTreeSet::new();
        doc.walk_blocks(&mut |_, b| if let Block::Image(i) = b { used.insert(i.media.clone()); });
        doc.walk_inlines(&mut |i| if let Inline::Image { media, .. } = i { used.insert(media.clone()); });
        prop_assert_eq!(used.len(), doc.media.len());
        for c in &doc.comments {
            prop_assert!(is_normalized(&c.content));
        }
    }

    #[test]
    fn flattening_owned_content_gives_the_borrowed_runs(content in common::arb::inlines()) {
        prop_assert_eq!(into_runs(content.clone()), to_runs(&content));
    }
}
