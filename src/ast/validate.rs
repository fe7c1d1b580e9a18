//! Tree invariants. Readers and cleanup passes must leave a tree that passes [`Document::validate`];
//! writers may rely on it.

use std::collections::HashSet;
use std::fmt;

use super::inline::is_normalized;
use super::{Block, BlockPath, Document, Inline, MAX_INDENT, MAX_LEVEL, TextType, grid_positions};

/// One broken invariant: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where (`block 3 > row 0 > cell 1 > block 0`, or `comments`).
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl Document {
    /// Checks the invariants:
    /// - paragraph `level` ≤ 5 and `indent` ≤ 15 (images and tables too);
    /// - inline content is in canonical form ([`super::inline::normalize`]);
    /// - every image (block or inline) names an item of the media store;
    /// - widths are finite percentages in (0, 100], column widths finite and ≥ 0;
    /// - every cell spans ≥ 1 row and column and lies inside the table's grid and rows;
    /// - block ids and comment ids are unique; every comment anchor names a comment;
    /// - formulas are nested at most [`super::math::MAX_TREE_DEPTH`] levels;
    /// - page sections start in order, none past the last top-level block;
    /// - paragraph and run languages are BCP 47 tags in normalized form
    ///   ([`crate::lang_tag::normalize`]); a run's language mark holds something and says a
    ///   language or a direction (canonical form sees to that).
    ///
    /// Returns every violation found, not just the first.
    pub fn validate(&self) -> Result<(), Vec<Violation>> {
        let mut v = Vec::new();
        let mut ids = HashSet::new();
        let comment_ids: HashSet<&str> = self.comments.iter().map(|c| c.id.as_str()).collect();
        if comment_ids.len() != self.comments.len() {
            v.push(Violation {
                location: "comments".into(),
                message: "two comments share an id".into(),
            });
        }
        self.walk_blocks(&mut |path, block| {
            check_block(self, path, block, &mut ids, &comment_ids, &mut v);
        });
        for comment in &self.comments {
            let at = format!("comment {}", comment.id);
            check_inlines(self, &at, &comment.content, &comment_ids, &mut v);
        }
        let mut previous = 0;
        for (n, section) in self.meta.pages.sections.iter().enumerate() {
            if section.start < previous || section.start > self.blocks.len() {
                // The numbers go in the location: cleanup tells a violation a routine left
                // from one it found by the message, and removing blocks changes them.
                v.push(Violation {
                    location: format!(
                        "page section {n} (starts at block {}, the one before at {previous}, \
                         {} blocks)",
                        section.start,
                        self.blocks.len()
                    ),
                    message: "page section starts before the one before it or past the last \
                              block"
                        .into(),
                });
            }
            previous = previous.max(section.start);
        }
        if v.is_empty() { Ok(()) } else { Err(v) }
    }
}

fn check_block(
    doc: &Document,
    path: &BlockPath,
    block: &Block,
    ids: &mut HashSet<String>,
    comment_ids: &HashSet<&str>,
    v: &mut Vec<Violation>,
) {
    let at = path.to_string();
    let mut bad = |message: String| {
        v.push(Violation {
            location: at.clone(),
            message,
        })
    };
    let id = match block {
        Block::Paragraph(p) => {
            if p.level > MAX_LEVEL {
                bad(format!("level {} is above {MAX_LEVEL}", p.level));
            }
            if p.indent > MAX_INDENT {
                bad(format!("indent {} is above {MAX_INDENT}", p.indent));
            }
            if let Some(language) = &p.code {
                if p.kind != TextType::Paragraph {
                    bad(format!("a code block is a {:?}, not a paragraph", p.kind));
                }
                if !is_code_language(language) {
                    bad(format!("code language {language:?} is not a single word"));
                }
            }
            if let Some(lang) = p
                .lang
                .as_deref()
                .filter(|l| !crate::lang_tag::is_normalized(l))
            {
                bad(format!("paragraph language {lang:?} is not a BCP 47 tag"));
            }
            p.id.as_deref()
        }
        Block::Image(img) => {
            if !doc.media.contains(&img.media) {
                bad(format!("image {:?} is not in the media store", img.media));
            }
            check_percent(img.width_percent, &mut bad);
            if img.indent > MAX_INDENT {
                bad(format!("indent {} is above {MAX_INDENT}", img.indent));
            }
            img.id.as_deref()
        }
        Block::Table(t) => {
            check_percent(t.width_percent, &mut bad);
            if t.indent > MAX_INDENT {
                bad(format!("indent {} is above {MAX_INDENT}", t.indent));
            }
            if t.columns.iter().any(|w| !w.is_finite() || *w < 0.0) {
                bad("a column width is negative or not a number".into());
            }
            let grid = t.grid_width();
            for (r, (row, positions)) in t.rows.iter().zip(grid_positions(t)).enumerate() {
                for (c, (cell, (col, span))) in row.cells.iter().zip(positions).enumerate() {
                    if cell.colspan == 0 || cell.rowspan == 0 {
                        bad(format!("row {r} cell {c} spans zero rows or columns"));
                    }
                    if col + span > grid {
                        bad(format!(
                            "row {r} cell {c} covers columns {col}..{} of a {grid}-column grid",
                            col + span
                        ));
                    }
                    if r + cell.rowspan as usize > t.rows.len() {
                        bad(format!(
                            "row {r} cell {c} spans {} rows, past the table's end",
                            cell.rowspan
                        ));
                    }
                }
            }
            t.id.as_deref()
        }
        Block::PageBreak | Block::Directory { .. } => None,
    };
    if let Some(id) = id {
        if !ids.insert(id.to_string()) {
            v.push(Violation {
                location: at.clone(),
                message: format!("id {id:?} is used twice"),
            });
        }
    }
    if let Block::Paragraph(p) = block {
        check_inlines(doc, &at, &p.content, comment_ids, v);
    }
}

fn check_percent(w: Option<f32>, bad: &mut impl FnMut(String)) {
    if let Some(w) = w {
        if !(w.is_finite() && w > 0.0 && w <= 100.0) {
            bad(format!("width {w}% is not in (0, 100]"));
        }
    }
}

fn check_inlines(
    doc: &Document,
    at: &str,
    content: &[Inline],
    comment_ids: &HashSet<&str>,
    v: &mut Vec<Violation>,
) {
    if !is_normalized(content) {
        v.push(Violation {
            location: at.to_string(),
            message: "inline content is not in canonical form".into(),
        });
    }
    let mut stack = content.iter().collect::<Vec<_>>();
    while let Some(inline) = stack.pop() {
        match inline {
            Inline::Image { media, .. } if !doc.media.contains(media) => v.push(Violation {
                location: at.to_string(),
                message: format!("inline image {media:?} is not in the media store"),
            }),
            Inline::CommentStart { id } | Inline::CommentEnd { id }
                if !comment_ids.contains(id.as_str()) =>
            {
                v.push(Violation {
                    location: at.to_string(),
                    message: format!("comment anchor names unknown comment {id:?}"),
                })
            }
            Inline::Note { content, .. } => stack.extend(content),
            Inline::Lang {
                lang: Some(lang),
                children,
                ..
            } => {
                if !crate::lang_tag::is_normalized(lang) {
                    v.push(Violation {
                        location: at.to_string(),
                        message: format!("run language {lang:?} is not a BCP 47 tag"),
                    });
                }
                stack.extend(children);
            }
            Inline::Math { math, .. } if super::math::depth(math) > super::math::MAX_TREE_DEPTH => {
                v.push(Violation {
                    location: at.to_string(),
                    message: format!(
                        "formula nested deeper than {} levels",
                        super::math::MAX_TREE_DEPTH
                    ),
                })
            }
            other => stack.extend(other.children().unwrap_or_default()),
        }
    }
}

/// Whether `s` can name a code block's language: empty (unknown), or one word of letters,
/// digits and `+-#._` (`c++`, `objective-c`, `f#`), so it fits a class name and a fence.
pub fn is_code_language(s: &str) -> bool {
    s.len() <= 64
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '+' | '-' | '#' | '.' | '_'))
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn para(level: u8) -> Block {
        Block::Paragraph(Paragraph {
            level,
            ..Paragraph::new(TextType::Heading, vec![Inline::text("x")])
        })
    }

    #[test]
    fn accepts_a_valid_tree() {
        let mut doc = Document::new();
        doc.media.add("a.png", b"\x89PNG\r\n\x1a\n".to_vec());
        doc.blocks = vec![
            para(5),
            Block::Image(Image {
                media: "a.png".into(),
                width_percent: Some(50.0),
                ..Image::default()
            }),
        ];
        assert_eq!(doc.validate(), Ok(()));
    }

    #[test]
    fn reports_every_violation() {
        let mut doc = Document::new();
        doc.blocks = vec![
            para(6),
            Block::Image(Image {
                media: "missing.png".into(),
                ..Image::default()
            }),
            Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![Inline::text("a"), Inline::text("b")],
            )),
        ];
        let errs = doc.validate().unwrap_err();
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        assert_eq!(text.len(), 3, "{text:?}");
        assert!(text[0].contains("block 0: level 6"));
        assert!(text[1].contains("missing.png"));
        assert!(text[2].contains("canonical"));
    }

    #[test]
    fn rejects_spans_outside_the_grid() {
        let cell = |colspan, rowspan| Cell {
            colspan,
            rowspan,
            ..Cell::default()
        };
        let table = |rows: Vec<Vec<Cell>>| {
            let mut doc = Document::new();
            doc.blocks = vec![Block::Table(Table {
                columns: vec![50.0, 50.0],
                rows: rows
                    .into_iter()
                    .map(|cells| Row {
                        cells,
                        ..Row::default()
                    })
                    .collect(),
                ..Table::default()
            })];
            doc.validate()
        };
        // A rowspan covers column 0 of the second row: its one cell lands in column 1.
        assert_eq!(
            table(vec![vec![cell(1, 2), cell(1, 1)], vec![cell(1, 1)]]),
            Ok(())
        );
        assert!(table(vec![vec![cell(3, 1)]]).is_err());
        assert!(table(vec![vec![cell(1, 3), cell(1, 1)]]).is_err());
        assert!(table(vec![vec![cell(1, 2), cell(1, 1)], vec![cell(2, 1)]]).is_err());
    }

    #[test]
    fn checks_languages_and_language_marks() {
        let doc = |p: Paragraph| Document {
            blocks: vec![Block::Paragraph(p)],
            ..Document::new()
        };
        let lang = |lang: Option<&str>, dir, children| Inline::Lang {
            lang: lang.map(str::to_string),
            dir,
            children,
        };
        let good = Paragraph {
            lang: Some("ar-SA".into()),
            dir: Some(Direction::Rtl),
            ..Paragraph::new(
                TextType::Paragraph,
                vec![lang(Some("en-US"), None, vec![Inline::text("Python")])],
            )
        };
        assert_eq!(doc(good.clone()).validate(), Ok(()));
        let bad_tag = Paragraph {
            lang: Some("ar_SA".into()),
            ..good.clone()
        };
        assert!(doc(bad_tag).validate().is_err());
        for content in [
            vec![lang(Some("en US"), None, vec![Inline::text("x")])],
            vec![lang(None, None, vec![Inline::text("x")])],
            vec![lang(Some("en"), None, vec![])],
        ] {
            let p = Paragraph::new(TextType::Paragraph, content.clone());
            assert!(doc(p).validate().is_err(), "{content:?}");
        }
    }
}
