//! The four user languages of the API and the words writers need in each (caption labels,
//! directory and note list titles): every translated word a writer shows lives here.

use std::fmt;

/// A user language (`user.language` / word export `settings.language`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// German, `de_DE`.
    De,
    /// English, `en_EN` (the default).
    #[default]
    En,
    /// Russian, `ru_RU`.
    Ru,
    /// Canadian French, `fr_CA`.
    FrCa,
}

impl Language {
    /// All four, in the API's order.
    pub const ALL: [Language; 4] = [Language::De, Language::En, Language::Ru, Language::FrCa];

    /// Parses the API's code (`de_DE`); also accepts `-` for `_`, any case, bare `de`/`en`/`ru`/
    /// `fr`, and `en_US`/`en_GB` (as English), since documents carry such codes.
    pub fn parse(code: &str) -> Option<Language> {
        let code = code.trim().replace('-', "_").to_ascii_lowercase();
        match code.as_str() {
            "de_de" | "de" | "de_at" | "de_ch" => Some(Language::De),
            "en_en" | "en" | "en_us" | "en_gb" => Some(Language::En),
            "ru_ru" | "ru" => Some(Language::Ru),
            "fr_ca" | "fr" | "fr_fr" | "fr_be" => Some(Language::FrCa),
            _ => None,
        }
    }

    /// Parses only the API's exact codes; for validating request parameters.
    pub fn parse_api(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The API's code.
    pub fn code(self) -> &'static str {
        match self {
            Language::De => "de_DE",
            Language::En => "en_EN",
            Language::Ru => "ru_RU",
            Language::FrCa => "fr_CA",
        }
    }

    /// The BCP 47 tag for HTML `lang` and Word `w:lang`.
    pub fn bcp47(self) -> &'static str {
        match self {
            Language::De => "de-DE",
            Language::En => "en",
            Language::Ru => "ru-RU",
            Language::FrCa => "fr-CA",
        }
    }

    /// The label of an image caption (`Figure 3`).
    pub fn figure(self) -> &'static str {
        match self {
            Language::De => "Abbildung",
            Language::En | Language::FrCa => "Figure",
            Language::Ru => "Рисунок",
        }
    }

    /// The label of a table caption (`Table 2`).
    pub fn table(self) -> &'static str {
        match self {
            Language::De => "Tabelle",
            Language::En => "Table",
            Language::Ru => "Таблица",
            Language::FrCa => "Tableau",
        }
    }

    /// Title of a table of contents.
    pub fn contents(self) -> &'static str {
        match self {
            Language::De => "Inhaltsverzeichnis",
            Language::En => "Contents",
            Language::Ru => "Содержание",
            Language::FrCa => "Table des matières",
        }
    }

    /// Title of a list of figures.
    pub fn list_of_figures(self) -> &'static str {
        match self {
            Language::De => "Abbildungsverzeichnis",
            Language::En => "List of Figures",
            Language::Ru => "Список иллюстраций",
            Language::FrCa => "Liste des figures",
        }
    }

    /// Title of a list of tables.
    pub fn list_of_tables(self) -> &'static str {
        match self {
            Language::De => "Tabellenverzeichnis",
            Language::En => "List of Tables",
            Language::Ru => "Список таблиц",
            Language::FrCa => "Liste des tableaux",
        }
    }

    /// Heading of the footnote list.
    pub fn footnotes(self) -> &'static str {
        match self {
            Language::De => "Fußnoten",
            Language::En => "Footnotes",
            Language::Ru => "Сноски",
            Language::FrCa => "Notes de bas de page",
        }
    }

    /// Heading of the endnote list.
    pub fn endnotes(self) -> &'static str {
        match self {
            Language::De => "Endnoten",
            Language::En => "Endnotes",
            Language::Ru => "Концевые сноски",
            Language::FrCa => "Notes de fin",
        }
    }

    /// "Page N of M": the PDF writer's running footer.
    pub fn page_of(self, n: usize, m: usize) -> String {
        match self {
            Language::De => format!("Seite {n} von {m}"),
            Language::En => format!("Page {n} of {m}"),
            Language::Ru => format!("Страница {n} из {m}"),
            Language::FrCa => format!("Page {n} de {m}"),
        }
    }

    /// Heading of the comment list.
    pub fn comments(self) -> &'static str {
        match self {
            Language::De => "Kommentare",
            Language::En => "Comments",
            Language::Ru => "Комментарии",
            Language::FrCa => "Commentaires",
        }
    }

    /// Title of a list of web links.
    pub fn web_links(self) -> &'static str {
        match self {
            Language::De => "Linkverzeichnis",
            Language::En => "Web Links",
            Language::Ru => "Список ссылок",
            Language::FrCa => "Liste des liens",
        }
    }

    /// Title of an index (of keywords).
    pub fn index(self) -> &'static str {
        match self {
            Language::De => "Stichwortverzeichnis",
            Language::En => "Index",
            Language::Ru => "Предметный указатель",
            Language::FrCa => "Index",
        }
    }

    /// Title of a list of sidenotes.
    pub fn sidenotes(self) -> &'static str {
        match self {
            Language::De => "Randnotizen",
            Language::En => "Sidenotes",
            Language::Ru => "Заметки на полях",
            Language::FrCa => "Notes en marge",
        }
    }

    /// The label of a link from a note back to where it is referenced.
    pub fn back_to_text(self) -> &'static str {
        match self {
            Language::De => "Zurück zum Text",
            Language::En => "Back to text",
            Language::Ru => "Назад к тексту",
            Language::FrCa => "Retour au texte",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_labels_differ() {
        for l in Language::ALL {
            assert_eq!(Language::parse(l.code()), Some(l));
            assert_eq!(Language::parse_api(l.code()), Some(l));
        }
        assert_eq!(Language::parse("de-de"), Some(Language::De));
        assert_eq!(Language::parse_api("de-de"), None);
        assert_eq!(Language::parse("xx"), None);
        assert_eq!(Language::Ru.figure(), "Рисунок");
        assert_eq!(Language::FrCa.table(), "Tableau");
        assert_eq!(Language::De.figure(), "Abbildung");
    }
}
