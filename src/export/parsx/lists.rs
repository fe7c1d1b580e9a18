//! Lists: `liste_geordnet`/`liste_ungeordnet` with `eintrag`s nested by level, skipped levels,
//! and the items later blocks continue.

use super::Writer;
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Paragraph, TextType};
use crate::report::WarningKind;

/// One open list of a list group: its level, whether ordered, whether an `eintrag` is open.
pub(super) struct OpenList {
    level: u8,
    ordered: bool,
    item_open: bool,
    /// The open `eintrag` only marks a skipped level: it may hold nothing but the deeper list.
    item_skip: bool,
}

impl Writer<'_> {
    pub(super) fn list_item(
        &mut self,
        p: &Paragraph,
        n: &BlockNumber,
        lists: &mut Vec<OpenList>,
        cell_align: Option<Align>,
    ) {
        let level = p.level.min(crate::ast::MAX_LEVEL);
        let ordered = p.kind == TextType::ListOl;
        // Close deeper lists and a same-level list of the other kind; end the previous item.
        while let Some(top) = lists.last_mut() {
            if top.level > level || (top.level == level && top.ordered != ordered) {
                if top.item_open {
                    self.close("eintrag");
                }
                let name = list_element(top.ordered);
                self.close(name);
                lists.pop();
            } else {
                if top.level == level && top.item_open {
                    self.close("eintrag");
                    top.item_open = false;
                }
                break;
            }
        }
        let current = lists.last().map(|l| i32::from(l.level)).unwrap_or(-1);
        let mut opened_here = false;
        for lvl in (current + 1)..=i32::from(level) {
            let lvl = lvl as u8;
            self.open(list_element(ordered), &[]);
            opened_here = lvl == level;
            if lvl < level {
                // parsX's way to say "this level is skipped": an entry with only the deeper list.
                self.open("eintrag", &[("ebene-ueberspringen", "ja")]);
            }
            lists.push(OpenList {
                level: lvl,
                ordered,
                item_open: lvl < level,
                item_skip: lvl < level,
            });
        }
        if opened_here && ordered && n.value.is_some_and(|v| v != 1) {
            self.warn(
                WarningKind::Lossy,
                format!(
                    "ordered list starting at {} is written without its start number",
                    n.value.unwrap_or(1)
                ),
            );
        }
        if p.number_format.is_some_and(|f| {
            !matches!(
                f,
                crate::ast::NumberFormat::Decimal | crate::ast::NumberFormat::Bullet
            )
        }) {
            self.warn_once(
                "number-format",
                WarningKind::Lossy,
                "list number formats are left to the parsX renderer",
            );
        }
        self.warn_indent(p.indent);
        let id = self.block_ids.get(&self.path).cloned();
        let attrs: Vec<(&str, &str)> = id.as_deref().map(|id| ("id", id)).into_iter().collect();
        self.open("eintrag", &attrs);
        if let Some(top) = lists.last_mut() {
            top.item_open = true;
            top.item_skip = false;
        }
        let align = if p.align == Align::Left {
            cell_align.unwrap_or(Align::Left)
        } else {
            p.align
        };
        self.abs_lines(&p.content, align, None);
    }

    /// Whether a block of `indent` belongs inside the open list item of level `indent - 1`;
    /// closes the lists it does not belong to.
    pub(super) fn continue_item(&mut self, lists: &mut Vec<OpenList>, indent: u8) -> bool {
        let Some(target) = indent.checked_sub(1) else {
            self.close_lists(lists);
            return false;
        };
        while let Some(top) = lists.last() {
            if top.level <= target {
                break;
            }
            if top.item_open {
                self.close("eintrag");
            }
            let name = list_element(top.ordered);
            self.close(name);
            lists.pop();
        }
        if lists
            .last()
            .is_some_and(|top| top.level == target && top.item_open && !top.item_skip)
        {
            return true;
        }
        self.close_lists(lists);
        false
    }

    pub(super) fn close_lists(&mut self, lists: &mut Vec<OpenList>) {
        while let Some(top) = lists.pop() {
            if top.item_open {
                self.close("eintrag");
            }
            self.close(list_element(top.ordered));
        }
    }
}

fn list_element(ordered: bool) -> &'static str {
    if ordered {
        "liste_geordnet"
    } else {
        "liste_ungeordnet"
    }
}
