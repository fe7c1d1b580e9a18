//! sdox templates (`GET /partner/templates/sdox`): document samples a new document can start
//! from (`sampleId`). Each is a record (`templates/sdox/<id>.json`) plus its sd.xml text
//! (`templates/sdox/<id>.sd.xml`), embedded in the binary.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The `exportSubset.type` values the spec allows.
pub const EXPORT_TYPES: [&str; 17] = [
    "html",
    "html_all_in_one",
    "word",
    "pdf_cloudconvert",
    "indesign_srz",
    "xml_srz",
    "indesign_pagina",
    "files",
    "pdf_srz",
    "pdf_pagina",
    "pdf_all_in_one",
    "sdox",
    "parsx_xml",
    "epub",
    "wordpress",
    "annotationReport",
    "images",
];

/// `pdSettings` of an sdox template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PdSettings {
    /// Paragraph kinds offered.
    pub pd_subset: Vec<String>,
    /// The default paragraph kind.
    pub default_pd_key: String,
}

/// One `exportSubset` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportSubset {
    /// Export type (one of [`EXPORT_TYPES`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// Word/export template ids.
    pub templates: Vec<String>,
}

/// An sdox template record, exactly the API's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SdoxTemplate {
    /// Id (the `sampleId` of create calls).
    pub id: String,
    /// Display name.
    pub name: String,
    /// File name.
    pub filename: String,
    /// Description.
    pub description: String,
    /// Paragraph settings.
    pub pd_settings: PdSettings,
    /// Inline styles offered.
    pub inline_style_subset: Vec<String>,
    /// Exports offered, with their templates.
    pub export_subset: Vec<ExportSubset>,
}

impl SdoxTemplate {
    /// Parses and checks a record: every `exportSubset.type` must be one the spec allows, and
    /// `defaultPdKey` one of `pdSubset`. Errors name the field.
    pub fn from_json(json: &str) -> Result<SdoxTemplate> {
        let t: SdoxTemplate = serde_json::from_str(json)
            .map_err(|e| Error::invalid("sdox template", e.to_string()))?;
        for (i, e) in t.export_subset.iter().enumerate() {
            if !EXPORT_TYPES.contains(&e.kind.as_str()) {
                return Err(Error::invalid(
                    format!("sdox template {}", t.id),
                    format!(
                        "exportSubset[{i}].type {:?} is not an allowed export type",
                        e.kind
                    ),
                ));
            }
        }
        if !t
            .pd_settings
            .pd_subset
            .contains(&t.pd_settings.default_pd_key)
        {
            return Err(Error::invalid(
                format!("sdox template {}", t.id),
                format!(
                    "pdSettings.defaultPdKey {:?} is not in pdSubset",
                    t.pd_settings.default_pd_key
                ),
            ));
        }
        Ok(t)
    }
}

struct Sample {
    record: SdoxTemplate,
    sdxml: &'static str,
}

fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let raw: [(&str, &'static str); 2] = [
            (
                include_str!("../../../templates/sdox/blank.json"),
                include_str!("../../../templates/sdox/blank.sd.xml"),
            ),
            (
                include_str!("../../../templates/sdox/contract.json"),
                include_str!("../../../templates/sdox/contract.sd.xml"),
            ),
        ];
        // Checked by tests; a broken built-in record is left out rather than panicking.
        let mut out: Vec<Sample> = raw
            .into_iter()
            .filter_map(|(json, sdxml)| {
                SdoxTemplate::from_json(json)
                    .ok()
                    .map(|record| Sample { record, sdxml })
            })
            .collect();
        out.sort_by(|a, b| a.record.id.cmp(&b.record.id));
        out
    })
}

/// The built-in sdox templates, by id.
pub fn sdox_templates() -> impl Iterator<Item = &'static SdoxTemplate> {
    samples().iter().map(|s| &s.record)
}

/// What `GET /partner/templates/sdox` returns: the records as a JSON array, by id.
pub fn sdox_catalog_json() -> String {
    let records: Vec<&SdoxTemplate> = sdox_templates().collect();
    serde_json::to_string(&records).unwrap_or_else(|_| "[]".into())
}

/// The sd.xml text a document created with `sampleId` = `id` starts from.
pub fn sdox_sample(id: &str) -> Option<&'static str> {
    samples()
        .iter()
        .find(|s| s.record.id == id)
        .map(|s| s.sdxml)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::word::WordTemplates;

    #[test]
    fn catalog_lists_both_samples_with_valid_fields() {
        let ids: Vec<_> = sdox_templates().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["blank", "contract"]);
        let json: serde_json::Value = serde_json::from_str(&sdox_catalog_json()).unwrap();
        assert_eq!(json[1]["pdSettings"]["defaultPdKey"], "paragraph-ol");
        assert_eq!(json[0]["exportSubset"][0]["type"], "word");
        // Every Word template a sample offers exists.
        for t in sdox_templates() {
            for e in t.export_subset.iter().filter(|e| e.kind == "word") {
                for id in &e.templates {
                    assert!(WordTemplates::builtin().get(id).is_some(), "{id}");
                }
            }
        }
        assert!(sdox_sample("contract").unwrap().contains("<smashdoc"));
        assert!(sdox_sample("nope").is_none());
    }

    #[test]
    fn bad_export_type_is_refused() {
        let json =
            include_str!("../../../templates/sdox/blank.json").replace("\"sdox\"", "\"odt\"");
        let err = SdoxTemplate::from_json(&json).unwrap_err();
        assert!(err.to_string().contains("\"odt\""), "{err}");
    }
}
