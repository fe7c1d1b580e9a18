//! Captions: a caption paragraph directly after a picture or before a table (or the other way
//! round, when that neighbour is free) becomes that block's caption and is no longer kept as a paragraph. The `SEQ` number was already dropped
//! with its label (`Figure 3: `); a typed number (`Table 2 – `) is stripped here. A label naming
//! tables prefers a neighbouring table, any other label a picture. The caption paragraph's
//! bookmark id moves to the block, so cross-references to the caption still find it.

use super::convert::Out;
use super::fields::is_table_label;
use crate::ast::{self, Block, Inline};
use crate::report::{Location, Report, WarningKind};

/// Labels that start a typed caption number.
const LABELS: [&str; 24] = [
    "figure",
    "fig",
    "image",
    "illustration",
    "picture",
    "abbildung",
    "abb",
    "bild",
    "grafik",
    "figura",
    "рисунок",
    "рис",
    "изображение",
    "table",
    "tabelle",
    "tab",
    "tableau",
    "tabla",
    "tabella",
    "tabel",
    "tabela",
    "таблица",
    "табл",
    "listing",
];

/// Splits a typed caption number off: `Figure 3: A cat` → (`Figure`, `A cat`).
pub fn strip_typed_number(text: &str) -> Option<(String, String)> {
    let text = text.trim_start();
    let word_end = text
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(text.len());
    let label = &text[..word_end];
    if !LABELS.contains(&label.to_lowercase().as_str()) {
        return None;
    }
    let rest = text[word_end..].trim_start_matches('.').trim_start();
    let num_end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '–')))
        .unwrap_or(rest.len());
    let number = &rest[..num_end];
    if !number.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[num_end..].trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '.' | '-' | '–' | '—' | '|')
    });
    Some((label.to_string(), after.trim_end().to_string()))
}

/// A test whether a neighbour can take the caption.
type Fits = fn(&Block) -> bool;

fn free_image(b: &Block) -> bool {
    matches!(b, Block::Image(img) if img.caption.is_none())
}

fn free_table(b: &Block) -> bool {
    matches!(b, Block::Table(t) if t.caption.is_none())
}

/// Attaches caption paragraphs to their neighbours; returns the final block list.
pub(super) fn attach(out: Out, report: &mut Report, part: &str) -> Vec<Block> {
    let Out {
        mut blocks,
        captions,
    } = out;
    if captions.is_empty() {
        return blocks;
    }
    let mut removed = vec![false; blocks.len()];
    for (i, info) in captions {
        let Some(Block::Paragraph(p)) = blocks.get(i) else {
            continue;
        };
        let raw = ast::inline::plain_text(&p.content);
        let mut text = raw.trim().to_string();
        let mut numbered = info.numbered;
        let mut label = info.label.clone();
        if !numbered {
            if let Some((l, rest)) = strip_typed_number(&text) {
                text = rest;
                numbered = true;
                label = Some(l);
            }
        }
        let table_first = label.as_deref().map(is_table_label);
        let prev = i.checked_sub(1);
        let next = Some(i + 1);
        // Figures carry their caption below (the picture comes before it), tables above.
        let order: Vec<(Option<usize>, Fits)> = match table_first {
            Some(true) => vec![(next, free_table), (prev, free_table)],
            Some(false) => vec![(prev, free_image), (next, free_image)],
            None => vec![
                (prev, free_image),
                (next, free_table),
                (next, free_image),
                (prev, free_table),
            ],
        };
        let target = order.into_iter().find_map(|(j, fits)| {
            let j = j?;
            let free = !removed.get(j).copied().unwrap_or(true);
            (free && blocks.get(j).is_some_and(fits)).then_some(j)
        });
        let Some(j) = target else {
            continue;
        };
        let lossy = has_atoms(&p.content);
        let id = p.id.clone();
        // Label and number alone ("Table 1") is still a caption: the block stays numbered and
        // references to it show the number.
        let caption = Some(text).filter(|t| !t.is_empty() || numbered);
        // An empty caption that no number makes one says nothing of the block's numbering:
        // the block keeps the default (else a block would lose `numbered` on the next trip,
        // where no caption paragraph is written for it).
        let numbered = numbered || caption.is_none();
        match blocks.get_mut(j) {
            Some(Block::Image(img)) => {
                img.caption = caption;
                img.numbered = numbered;
                if img.id.is_none() {
                    img.id = id;
                }
            }
            Some(Block::Table(t)) => {
                t.caption = caption;
                t.numbered = numbered;
                if t.id.is_none() {
                    t.id = id;
                }
            }
            _ => {}
        }
        if lossy {
            report.warn(
                WarningKind::Lossy,
                "a caption's notes, links or cross-references are kept as plain text",
                Location::part(part).element("w:p"),
            );
        }
        if let Some(r) = removed.get_mut(i) {
            *r = true;
        }
    }
    let mut index = 0;
    blocks.retain(|_| {
        let keep = !removed.get(index).copied().unwrap_or(false);
        index += 1;
        keep
    });
    blocks
}

fn has_atoms(content: &[Inline]) -> bool {
    content.iter().any(|i| match i {
        Inline::Text { .. } | Inline::LineBreak => false,
        Inline::Styled { children, .. }
        | Inline::Span { children, .. }
        | Inline::Tracked { children, .. } => has_atoms(children),
        Inline::CommentStart { .. } | Inline::CommentEnd { .. } => false,
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers() {
        assert_eq!(
            strip_typed_number("Figure 3: A cat"),
            Some(("Figure".into(), "A cat".into()))
        );
        assert_eq!(
            strip_typed_number("Tabelle 2.1 – Werte"),
            Some(("Tabelle".into(), "Werte".into()))
        );
        assert_eq!(
            strip_typed_number("Abb. 4 Hund"),
            Some(("Abb".into(), "Hund".into()))
        );
        assert_eq!(strip_typed_number("Figures are nice"), None);
        assert_eq!(strip_typed_number("Figure: x"), None);
    }
}
