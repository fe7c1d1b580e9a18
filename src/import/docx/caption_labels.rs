//! Caption labels: the words Word documents put before a caption's number ("Figure 3",
//! "Tabelle 2", "Рис. 4"), and which of them name tables. One list for both readers of a label:
//! a `TOC \c "Tab."` field (a list of tables or of figures) and the caption pass (a label naming
//! tables prefers the table beside its caption), so the two cannot disagree on a label.

/// Labels that name tables: lower case, without a closing full stop (`Tab.` is `tab`).
const TABLE: [&str; 10] = [
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
];

/// Labels that name pictures or listings, written as [`TABLE`]'s.
const OTHER: [&str; 14] = [
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
    "listing",
];

/// The longest label of the lists in bytes (`изображение`, 22): a longer word is none of them.
const LONGEST: usize = 24;

/// The form the lists hold: trimmed, one closing full stop dropped (`Abb.`, `Табл.`), lower
/// case; `None` for a word too long to be a label, which is not lower-cased (a caption's first
/// word or a field argument may be any length).
fn key(label: &str) -> Option<String> {
    let label = label.trim();
    let label = label.strip_suffix('.').unwrap_or(label);
    (label.len() <= LONGEST).then(|| label.to_lowercase())
}

/// Whether `label` names tables, as a `SEQ` identifier, a typed label or a `TOC \c` argument.
pub fn is_table_label(label: &str) -> bool {
    key(label).is_some_and(|key| TABLE.contains(&key.as_str()))
}

/// Whether `label` is one a typed caption number starts with (`Figure 3:`, `Tab. 2 –`).
pub fn is_caption_label(label: &str) -> bool {
    key(label).is_some_and(|key| TABLE.contains(&key.as_str()) || OTHER.contains(&key.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_names_tables_with_or_without_its_full_stop() {
        for label in [
            "Table",
            "TAB.",
            "Tab",
            " tabelle ",
            "Табл.",
            "табл",
            "Таблица",
            "tab.",
        ] {
            assert!(is_table_label(label), "{label}");
            assert!(is_caption_label(label), "{label}");
        }
        for label in ["Figure", "Abb.", "Рис.", "Listing", "Tabs", "tab..", ""] {
            assert!(!is_table_label(label), "{label}");
        }
        assert!(is_caption_label("Abb."));
        assert!(is_caption_label("рис"));
        assert!(!is_caption_label("Figures"));
        assert!(!is_caption_label("Note"));
        assert!(!is_caption_label(&"Tabelle".repeat(1000)));
        // Every label of the lists fits the length past which a word is no label.
        assert!(TABLE.iter().chain(&OTHER).all(|l| l.len() <= LONGEST));
    }
}
