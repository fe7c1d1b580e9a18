//! The Word export `settings` object of the partner API (`POST …/export/word`), parsed as the API
//! sends it (camelCase) and checked against the spec's rules. The PDF writer takes the same
//! settings (captions, directories, language, `compressedImages` mean the same there), so they
//! live in the paged layer both writers use.

use serde::Deserialize;

use crate::ast::WordExportPresets;
use crate::error::{Error, Result};
use crate::lang::Language;

/// The settings the paged writers (Word and PDF) share: the API's Word export settings, exactly
/// its fields (language, captions, directories, compressed pictures).
///
/// Rules (spec, "Exports"): `imageToc` only with `imageCaption`, `tableToc` only with
/// `tableCaption`; `language` is one of `de_DE`, `en_EN`, `ru_RU`, `fr_CA`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct PagedSettings {
    /// Caption and directory language (`language`).
    pub language: Language,
    /// Write image captions (`imageCaption`).
    pub image_caption: bool,
    /// Write table captions (`tableCaption`).
    pub table_caption: bool,
    /// Write a table of contents (`textToc`).
    pub text_toc: bool,
    /// Write a list of figures (`imageToc`; needs `imageCaption`).
    pub image_toc: bool,
    /// Write a list of tables (`tableToc`; needs `tableCaption`).
    pub table_toc: bool,
    /// Downscale and recompress images (`compressedImages`).
    pub compressed_images: bool,
}

/// The wire form. Unknown fields are refused so a misspelt setting (`imageCation`) is an
/// [`Error::Parameter`] that names it instead of a silently ignored wish.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Wire {
    language: Option<String>,
    #[serde(default)]
    image_caption: bool,
    #[serde(default)]
    table_caption: bool,
    #[serde(default)]
    text_toc: bool,
    #[serde(default)]
    image_toc: bool,
    #[serde(default)]
    table_toc: bool,
    #[serde(default)]
    compressed_images: bool,
}

impl PagedSettings {
    /// Settings with everything off, in `language`.
    pub fn new(language: Language) -> Self {
        PagedSettings {
            language,
            ..PagedSettings::default()
        }
    }

    /// Sets `imageCaption`.
    pub fn with_image_caption(mut self, on: bool) -> Self {
        self.image_caption = on;
        self
    }

    /// Sets `tableCaption`.
    pub fn with_table_caption(mut self, on: bool) -> Self {
        self.table_caption = on;
        self
    }

    /// Sets `textToc`.
    pub fn with_text_toc(mut self, on: bool) -> Self {
        self.text_toc = on;
        self
    }

    /// Sets `imageToc`.
    pub fn with_image_toc(mut self, on: bool) -> Self {
        self.image_toc = on;
        self
    }

    /// Sets `tableToc`.
    pub fn with_table_toc(mut self, on: bool) -> Self {
        self.table_toc = on;
        self
    }

    /// Sets `compressedImages`.
    pub fn with_compressed_images(mut self, on: bool) -> Self {
        self.compressed_images = on;
        self
    }

    /// Parses the API's `settings` object as sent (`{"language":"de_DE","imageCaption":true,…}`).
    /// Missing booleans are `false`; a missing language is `en_EN`. Errors are
    /// [`Error::Parameter`] naming the field: malformed JSON, a wrong type, an unknown
    /// field, an unknown language or a combination the spec forbids.
    pub fn from_json(json: &str) -> Result<PagedSettings> {
        let wire: Wire =
            serde_json::from_str(json).map_err(|e| Error::parameter("settings", e.to_string()))?;
        let language = match wire.language.as_deref() {
            None => Language::default(),
            Some(code) => Language::parse_api(code).ok_or_else(|| {
                Error::parameter(
                    "settings.language",
                    format!("unknown language {code:?}; expected de_DE, en_EN, ru_RU or fr_CA"),
                )
            })?,
        };
        let settings = PagedSettings {
            language,
            image_caption: wire.image_caption,
            table_caption: wire.table_caption,
            text_toc: wire.text_toc,
            image_toc: wire.image_toc,
            table_toc: wire.table_toc,
            compressed_images: wire.compressed_images,
        };
        settings.validate()?;
        Ok(settings)
    }

    /// The settings a document stores with itself (sd.xml `word-export-presets`), as
    /// `(template id, settings)`. The presets' language may be any code [`Language::parse`]
    /// knows (sd.xml allows `en_US`); `compressedImages` is not part of the presets and is off.
    pub fn from_presets(presets: &WordExportPresets) -> Result<(String, PagedSettings)> {
        let language = Language::parse(&presets.language).ok_or_else(|| {
            Error::parameter(
                "word-export-presets@language",
                format!("unknown language {:?}", presets.language),
            )
        })?;
        let settings = PagedSettings {
            language,
            image_caption: presets.caption_image,
            table_caption: presets.caption_table,
            text_toc: presets.toc_text,
            image_toc: presets.toc_image,
            table_toc: presets.toc_table,
            compressed_images: false,
        };
        settings.validate()?;
        Ok((presets.template_id.clone(), settings))
    }

    /// Checks the spec's rules on combinations.
    pub fn validate(&self) -> Result<()> {
        if self.image_toc && !self.image_caption {
            return Err(Error::parameter(
                "settings.imageToc",
                "a list of images needs imageCaption: true",
            ));
        }
        if self.table_toc && !self.table_caption {
            return Err(Error::parameter(
                "settings.tableToc",
                "a list of tables needs tableCaption: true",
            ));
        }
        Ok(())
    }

    /// The API's JSON form (camelCase), the inverse of [`PagedSettings::from_json`].
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "language": self.language.code(),
            "imageCaption": self.image_caption,
            "tableCaption": self.table_caption,
            "textToc": self.text_toc,
            "imageToc": self.image_toc,
            "tableToc": self.table_toc,
            "compressedImages": self.compressed_images,
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_field() {
        let s = PagedSettings::from_json(
            r#"{"language":"ru_RU","imageCaption":true,"tableCaption":true,"textToc":true,
                "imageToc":true,"tableToc":true,"compressedImages":true}"#,
        )
        .unwrap();
        assert_eq!(s.language, Language::Ru);
        assert!(s.image_caption && s.table_caption && s.text_toc);
        assert!(s.image_toc && s.table_toc && s.compressed_images);
        assert_eq!(PagedSettings::from_json(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn presets_become_settings() {
        let presets = WordExportPresets {
            template_id: "contract".into(),
            language: "en_US".into(),
            toc_text: true,
            caption_table: true,
            toc_table: true,
            ..WordExportPresets::default()
        };
        let (id, s) = PagedSettings::from_presets(&presets).unwrap();
        assert_eq!(id, "contract");
        assert_eq!(s.language, Language::En);
        assert!(s.text_toc && s.table_toc && !s.image_caption);
        let bad = WordExportPresets {
            toc_image: true,
            ..presets
        };
        assert_eq!(
            PagedSettings::from_presets(&bad).unwrap_err().kind(),
            crate::error::ErrorKind::Parameter
        );
    }

    #[test]
    fn defaults_and_errors() {
        let s = PagedSettings::from_json("{}").unwrap();
        assert_eq!(s, PagedSettings::default());
        for (json, name) in [
            (r#"{"imageToc":true}"#, "settings.imageToc"),
            (
                r#"{"tableToc":true,"imageCaption":true}"#,
                "settings.tableToc",
            ),
            (r#"{"language":"de-DE"}"#, "settings.language"),
            (r#"{"imageCation":true}"#, "settings"),
            (r#"{"textToc":"yes"}"#, "settings"),
        ] {
            let err = PagedSettings::from_json(json).unwrap_err();
            assert_eq!(err.kind(), crate::error::ErrorKind::Parameter, "{json}");
            match err {
                Error::Parameter { name: n, .. } => assert_eq!(n, name, "{json}"),
                other => panic!("{other}"),
            }
        }
        let err = PagedSettings::from_json(r#"{"imageCation":true}"#).unwrap_err();
        assert!(err.to_string().contains("imageCation"), "{err}");
    }
}
