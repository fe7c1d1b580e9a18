//! Cleanup routines: data-driven passes over the tree, applied at import (the API's `routines`).
//!
//! The catalog is `styles/routines.json`, embedded at build time, in the API's shape
//! (`GET /partner/routines`): each routine has a `key`, `type: "routine"`, a `name` per locale
//! and `actions`. An action is a list of [`Filter`]s, all of which a block must pass, and one
//! [`Processor`] applied to the blocks that do (in table cells too). Unknown filter or
//! processor types are load errors naming the routine and the field.
//!
//! [`apply`] runs routines in the order given. Every processor is idempotent (running a routine
//! twice changes nothing the second time), the tree is validated after each routine (a
//! routine may not add a violation), and each
//! routine that changed something adds one [`WarningKind::Repaired`] warning with its count.

mod filter;
mod images;
mod processor;

use std::collections::HashSet;

use serde_json::Value;

use crate::ast::Document;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Location, Report, WarningKind};
pub use filter::Filter;
pub use processor::Processor;

const CATALOG: &str = include_str!("../../styles/routines.json");
const CATALOG_PART: &str = "styles/routines.json";

/// One filters-then-processor step of a routine.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    /// All must pass.
    pub filters: Vec<Filter>,
    /// What happens to the blocks that pass.
    pub processor: Processor,
}

/// A cleanup routine.
#[derive(Debug, Clone, PartialEq)]
pub struct Routine {
    /// The key the API's `routines` field names.
    pub key: String,
    /// Its steps, in order.
    pub actions: Vec<Action>,
}

/// A parsed catalog: the routines and the JSON they came from.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The routines, in catalog order.
    pub routines: Vec<Routine>,
    json: Value,
}

impl Catalog {
    /// Parses a catalog in the API's shape. Errors ([`Error::Invalid`]) name the routine and the
    /// field: `routine "x": actions[0].filters[1]: unknown variant "colour" …`.
    pub fn from_json(text: &str) -> Result<Catalog> {
        let bad = |m: String| Error::invalid(CATALOG_PART, m);
        let json: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let Value::Array(items) = &json else {
            return Err(bad("the catalog must be an array of routines".into()));
        };
        let mut routines = Vec::with_capacity(items.len());
        for (n, item) in items.iter().enumerate() {
            let key = item
                .get("key")
                .and_then(Value::as_str)
                .ok_or_else(|| bad(format!("routines[{n}].key is missing")))?;
            let at = |field: String, m: String| bad(format!("routine {key:?}: {field}: {m}"));
            if item.get("type").and_then(Value::as_str) != Some("routine") {
                return Err(at("type".into(), "must be \"routine\"".into()));
            }
            for locale in crate::magic::LOCALES {
                if !item
                    .get("name")
                    .and_then(|n| n.get(locale))
                    .is_some_and(Value::is_string)
                {
                    return Err(at(format!("name.{locale}"), "is missing".into()));
                }
            }
            let Some(Value::Array(raw_actions)) = item.get("actions") else {
                return Err(at("actions".into(), "must be an array".into()));
            };
            let mut actions = Vec::with_capacity(raw_actions.len());
            for (a, action) in raw_actions.iter().enumerate() {
                let Some(Value::Array(raw_filters)) = action.get("filters") else {
                    return Err(at(
                        format!("actions[{a}].filters"),
                        "must be an array".into(),
                    ));
                };
                let filters = raw_filters
                    .iter()
                    .enumerate()
                    .map(|(f, v)| {
                        Filter::deserialize_value(v)
                            .map_err(|e| at(format!("actions[{a}].filters[{f}]"), e))
                    })
                    .collect::<Result<Vec<_>>>()?;
                let processor = action
                    .get("processor")
                    .ok_or_else(|| at(format!("actions[{a}].processor"), "is missing".into()))
                    .and_then(|v| {
                        Processor::deserialize_value(v)
                            .map_err(|e| at(format!("actions[{a}].processor"), e))
                    })?;
                actions.push(Action { filters, processor });
            }
            if routines.iter().any(|r: &Routine| r.key == key) {
                return Err(at("key".into(), "appears twice".into()));
            }
            routines.push(Routine {
                key: key.to_owned(),
                actions,
            });
        }
        Ok(Catalog { routines, json })
    }

    /// The embedded catalog.
    pub fn embedded() -> Result<Catalog> {
        Catalog::from_json(CATALOG)
    }

    /// The routine with this key.
    pub fn get(&self, key: &str) -> Option<&Routine> {
        self.routines.iter().find(|r| r.key == key)
    }
}

/// Exactly what `GET /partner/routines` returns: the embedded catalog as compact JSON.
pub fn catalog_json() -> String {
    Catalog::embedded()
        .map(|c| c.json.to_string())
        .unwrap_or_else(|_| "[]".into())
}

/// The routines named by `keys`, in that order. An unknown key is an [`Error::Parameter`].
pub fn resolve(keys: &[String]) -> Result<Vec<Routine>> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let catalog = Catalog::embedded()?;
    keys.iter()
        .map(|k| {
            catalog.get(k).cloned().ok_or_else(|| {
                let known: Vec<&str> = catalog.routines.iter().map(|r| r.key.as_str()).collect();
                Error::parameter(
                    "routines",
                    format!("unknown routine {k:?}; known: {}", known.join(", ")),
                )
            })
        })
        .collect()
}

/// Applies the routines named by `keys`, in order (see the module documentation); picture
/// routines decode no picture past `limits.max_image_pixels`.
pub fn apply(
    doc: &mut Document,
    keys: &[String],
    limits: &Limits,
    report: &mut Report,
) -> Result<()> {
    for routine in resolve(keys)? {
        run(doc, &routine, limits, report)?;
    }
    Ok(())
}

/// Runs one routine; returns how many changes it made.
pub fn run(
    doc: &mut Document,
    routine: &Routine,
    limits: &Limits,
    report: &mut Report,
) -> Result<usize> {
    // A reader may hand over a tree that is already off (a linked picture that is not in the
    // media store, with its warning); a routine must only not make it worse. Locations move
    // when blocks go, so violations are compared by message (a set: a tree may have a
    // violation per block).
    let before: HashSet<String> = match doc.validate() {
        Ok(()) => HashSet::new(),
        Err(v) => v.into_iter().map(|v| v.message).collect(),
    };
    let mut changes = 0;
    let mut failed = Vec::new();
    for action in &routine.actions {
        changes += processor::run_action(doc, action, limits.max_image_pixels, &mut failed);
    }
    for (name, reason) in failed {
        report.warn(
            WarningKind::Lossy,
            format!(
                "routine {}: picture {name} left as it was: {reason}",
                routine.key
            ),
            Location::default().element("image"),
        );
    }
    if let Err(violations) = doc.validate() {
        let new: Vec<String> = violations
            .iter()
            .filter(|v| !before.contains(&v.message))
            .map(ToString::to_string)
            .collect();
        if !new.is_empty() {
            return Err(Error::invalid(
                format!("routine {}", routine.key),
                format!("left an invalid tree: {}", new.join("; ")),
            ));
        }
    }
    if changes > 0 {
        report.warn(
            WarningKind::Repaired,
            format!("routine {}: {changes} change(s)", routine.key),
            Location::default(),
        );
    }
    Ok(changes)
}
