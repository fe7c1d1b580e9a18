//! Stage two's passes over bookmark ids and the references to them, once the tree is built: a
//! bookmark that became an alias points its references at the block's id, Word's
//! number-and-text reference pair becomes one cross-reference, and hidden bookmarks nobody
//! names lose their ids.

use std::collections::{HashMap, HashSet};

use crate::ast::union;
use crate::ast::{Block, Document, Inline};

/// Points cross-references and internal links at the id a bookmark's block received.
pub fn rewrite_targets(doc: &mut Document, alias: &HashMap<String, String>) {
    doc.walk_inline_lists_mut(&mut |list| {
        let mut relinked = false;
        for inline in list.iter_mut() {
            match inline {
                Inline::CrossRef { target, .. } => {
                    if let Some(id) = alias.get(target.as_str()) {
                        *target = id.clone();
                    }
                }
                Inline::Link { href, .. } => {
                    if let Some(id) = href.strip_prefix('#').and_then(|a| alias.get(a)) {
                        *href = format!("#{id}").into();
                        relinked = true;
                    }
                }
                _ => {}
            }
        }
        // Links to two bookmarks of one block now have one target: side by side, they are
        // one link in canonical form.
        if relinked {
            *list = crate::ast::inline::normalize(list);
        }
    });
}

/// Joins `REF x \r`, one space, `REF x` into one cross-reference showing number and text.
/// Word has no field showing a heading's number and its text together; that pair is how Word
/// users (and our writer) write "see 2.1 Scope".
pub fn join_number_and_text_refs(list: &mut Vec<Inline>) {
    // Most lists hold no such pair: nothing moves then. Otherwise the list is made again in one
    // pass (joining in place moved the rest of the list for every pair: a hostile paragraph of
    // many pairs took time growing with the square of its length).
    if !list.windows(3).any(is_number_and_text) {
        return;
    }
    let old = std::mem::take(list);
    list.reserve(old.len());
    for inline in old {
        list.push(inline);
        let Some(from) = list.len().checked_sub(3) else {
            continue;
        };
        let joined = match &list[from..] {
            w @ [_, _, Inline::CrossRef { target, .. }] if is_number_and_text(w) => {
                Some(target.clone())
            }
            _ => None,
        };
        if let Some(target) = joined {
            list.truncate(from);
            list.push(Inline::CrossRef {
                target,
                number: true,
                text: true,
            });
        }
    }
}

/// Whether `w` is `REF x \r`, one space, `REF x` (a joined pair is neither end of another).
fn is_number_and_text(w: &[Inline]) -> bool {
    matches!(
        w,
        [
            Inline::CrossRef {
                target: a,
                number: true,
                text: false,
            },
            Inline::Text { text: space },
            Inline::CrossRef {
                target: b,
                number: false,
                text: true,
            },
        ] if a == b && space == " "
    )
}

/// Takes away block ids that are hidden bookmarks (`_Toc…`, `_Ref…`, `_GoBack`: Word makes
/// them for its own tables of contents and references, ECMA-376 §17.13.6.2) unless a
/// cross-reference or internal link of the document points at them. A TOC's entries are
/// replaced by a directory block, so its `_Toc` bookmarks are no one's target; an id nobody can
/// name is not part of what the document says.
pub fn drop_unreferenced_hidden_ids(doc: &mut Document) {
    let referenced = doc.par_fold(
        |_: &mut HashSet<String>, _, _| {},
        |referenced, inline| {
            let id = match inline {
                Inline::CrossRef { target, .. } => target.as_str(),
                Inline::Link { href, .. } => match href.strip_prefix('#') {
                    Some(anchor) => anchor,
                    None => return,
                },
                _ => return,
            };
            if !referenced.contains(id) {
                referenced.insert(id.to_string());
            }
        },
        |referenced, more| union(referenced, more, HashSet::len),
    );
    let hidden = |id: &mut Option<String>| {
        if id
            .as_deref()
            .is_some_and(|i| i.starts_with('_') && !referenced.contains(i))
        {
            *id = None;
        }
    };
    doc.par_walk_blocks_mut(|block| match block {
        Block::Paragraph(p) => hidden(&mut p.id),
        Block::Image(img) => hidden(&mut img.id),
        Block::Table(t) => hidden(&mut t.id),
        Block::PageBreak | Block::Directory { .. } => {}
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Paragraph, TextType};

    /// Two bookmarks of one heading, each linked: once both links point at the heading's id,
    /// they are one link, as canonical form wants.
    #[test]
    fn links_that_meet_at_one_target_become_one() {
        let link = |href: &str, text: &str| Inline::Link {
            href: href.into(),
            children: vec![Inline::text(text)],
        };
        let mut doc = Document::default();
        doc.blocks.push(Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![link("#one", "see "), link("#two", "Scope")],
        )));
        let alias: HashMap<String, String> = [("one", "h1"), ("two", "h1")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        rewrite_targets(&mut doc, &alias);
        let Block::Paragraph(p) = &doc.blocks[0] else {
            panic!("paragraph")
        };
        assert_eq!(p.content, [link("#h1", "see Scope")]);
        assert!(doc.validate().is_ok(), "{:?}", doc.validate());
    }

    /// Every pair is joined, in one pass over the list, however many it holds; what is not a
    /// whole pair stays as it was.
    #[test]
    fn number_and_text_pairs_join_into_one_reference_each() {
        let r = |target: &str, number: bool, text: bool| Inline::CrossRef {
            target: target.into(),
            number,
            text,
        };
        let pair = |t: &str| [r(t, true, false), Inline::text(" "), r(t, false, true)];
        let mut list: Vec<Inline> = Vec::new();
        let mut expected: Vec<Inline> = Vec::new();
        for i in 0..20_000 {
            let t = format!("h{i}");
            list.extend(pair(&t));
            expected.push(r(&t, true, true));
            if i % 1000 == 0 {
                // Neither a pair of two targets nor a number without its text joins.
                list.extend([r("a", true, false), Inline::text(" "), r("b", false, true)]);
                expected.extend([r("a", true, false), Inline::text(" "), r("b", false, true)]);
                list.push(r("c", true, false));
                expected.push(r("c", true, false));
            }
        }
        join_number_and_text_refs(&mut list);
        assert_eq!(list, expected);
        let mut none = vec![Inline::text("x"), r("a", true, false)];
        join_number_and_text_refs(&mut none);
        assert_eq!(none, [Inline::text("x"), r("a", true, false)]);
    }
}
