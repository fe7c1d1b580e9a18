//! The WebAssembly face of the sdconv engine: what the npm package `sdconv` (js/sdconv.js)
//! calls. Values only cross here; the conversion itself is [`convert`]'s plain Rust, and the
//! friendly API (inputs of every kind, `SdconvError`, recovery after a trap) is JavaScript.
//!
//! Failures are returned (thrown in JavaScript) as plain objects `{ kind, message }` that the
//! JavaScript side turns into `SdconvError`s.

pub mod convert;
pub mod fonts;
pub mod images;
pub mod options;

use std::collections::HashMap;

use bytes::Bytes;
use js_sys::{Array, Object, Reflect, Uint8Array};
use sdconv::{Format, Warning};
use wasm_bindgen::prelude::*;

use crate::convert::{Failure, Main, Output};
use crate::options::RawOptions;

/// Sets `key` on `object`. Setting a plain data property on a fresh object cannot fail, so the
/// result is not looked at.
fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &JsValue::from_str(key), &value.into());
}

/// The `{ kind, message }` object JavaScript turns into an `SdconvError`.
fn error_value(kind: &str, message: &str) -> JsValue {
    let object = Object::new();
    set(&object, "kind", kind);
    set(&object, "message", message);
    object.into()
}

impl From<Failure> for JsValue {
    fn from(failure: Failure) -> JsValue {
        error_value(failure.kind(), &failure.to_string())
    }
}

/// `value`, or `null` for `None` (wasm-bindgen would give `undefined`).
fn or_null<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}

/// A warning as `{ kind, message, location: { part, element, block } }`.
fn warning_value(w: &Warning) -> JsValue {
    // The kind's snake_case name, as the JSON warnings of the CLI and the server spell it.
    let kind = serde_json::to_value(w.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{:?}", w.kind));
    let location = Object::new();
    set(&location, "part", or_null(w.location.part.clone()));
    set(&location, "element", or_null(w.location.element.clone()));
    set(
        &location,
        "block",
        or_null(w.location.block.map(|b| b as f64)),
    );
    let object = Object::new();
    set(&object, "kind", kind);
    set(&object, "message", w.message.as_str());
    set(&object, "location", location);
    object.into()
}

/// The output as `{ format, text | data, files: [[name, bytes, type]], warnings, title }`.
fn output_value(out: Output) -> JsValue {
    let object = Object::new();
    set(&object, "format", out.format.name());
    match &out.main {
        Main::Text(text) => set(&object, "text", text.as_str()),
        Main::Data(data) => set(&object, "data", Uint8Array::from(data.as_slice())),
    }
    let files = Array::new();
    for (name, bytes) in &out.files {
        let entry = Array::new();
        entry.push(&JsValue::from_str(name));
        entry.push(&Uint8Array::from(bytes.as_ref()).into());
        let kind = if name.ends_with(".css") {
            "text/css"
        } else {
            images::mime(bytes)
        };
        entry.push(&JsValue::from_str(kind));
        files.push(&entry);
    }
    set(&object, "files", files);
    let warnings: Array = out.warnings.iter().map(warning_value).collect();
    set(&object, "warnings", warnings);
    set(&object, "title", or_null(out.title));
    object.into()
}

/// Converts `input` (named `name` when it came from a file: its extension tells the format) to
/// format `to`, with `options` the options object as JSON text. `read_image(reference)` returns
/// the bytes of a picture a Markdown input names (`undefined`: it cannot be had).
#[wasm_bindgen(js_name = convert)]
pub fn convert_js(
    input: Vec<u8>,
    name: Option<String>,
    to: &str,
    options: &str,
    read_image: Option<js_sys::Function>,
) -> Result<JsValue, JsValue> {
    let raw = RawOptions::parse(options)?;
    let import_spec = raw.import_spec()?;
    let export_spec = raw.export_spec(to)?;
    let mut fetch = |reference: &str| -> Option<Bytes> {
        let f = read_image.as_ref()?;
        // A callback that throws is a picture that cannot be had: the reader warns.
        let answer = f
            .call1(&JsValue::NULL, &JsValue::from_str(reference))
            .ok()?;
        let bytes = answer.dyn_into::<Uint8Array>().ok()?;
        Some(Bytes::from(bytes.to_vec()))
    };
    let out = convert::convert(
        Bytes::from(input),
        name.as_deref(),
        &import_spec,
        &export_spec,
        &mut fetch,
    )?;
    Ok(output_value(out))
}

/// `text` (Markdown or HTML output) with each picture file named in `names` pointing at the
/// `src` at the same index of `srcs`: what the image callback answered.
#[wasm_bindgen(js_name = rewriteImages)]
pub fn rewrite_images(
    text: &str,
    to: &str,
    names: Vec<String>,
    srcs: Vec<String>,
) -> Result<String, JsValue> {
    let format = options::format(to)?;
    let map: HashMap<String, String> = names.into_iter().zip(srcs).collect();
    Ok(images::rewrite(text, format, &map))
}

/// The formats sdconv knows: `[{ name, read, write }]`.
#[wasm_bindgen]
pub fn formats() -> Array {
    Format::ALL
        .into_iter()
        .map(|f| {
            let object = Object::new();
            set(&object, "name", f.name());
            set(&object, "read", f.can_read());
            set(&object, "write", f.can_write());
            JsValue::from(object)
        })
        .collect()
}

/// Adds a font file (TrueType, OpenType or a collection) for PDF output, for the life of this
/// instance: its faces are tried after the bundled ones (which cover Latin, Greek and Cyrillic).
/// Returns the number of faces added.
#[wasm_bindgen(js_name = registerFont)]
pub fn register_font(data: Vec<u8>) -> Result<usize, JsValue> {
    sdconv::fonts::register(data).map_err(|e| error_value("invalid_input", &e.to_string()))
}

thread_local! {
    /// Who hears of a panic: set by [`set_panic_handler`].
    static PANIC_HANDLER: std::cell::RefCell<Option<js_sys::Function>> =
        const { std::cell::RefCell::new(None) };
}

/// Calls `handler(message)` when the engine panics, just before the instance traps (panics
/// abort in this build): the JavaScript side then names the bug in its error and starts a new
/// instance for the next call.
#[wasm_bindgen(js_name = setPanicHandler)]
pub fn set_panic_handler(handler: js_sys::Function) {
    PANIC_HANDLER.with(|h| *h.borrow_mut() = Some(handler));
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        // try_with/try_borrow: a panic while the handler is being set must not panic again.
        let _ = PANIC_HANDLER.try_with(|h| {
            if let Ok(h) = h.try_borrow()
                && let Some(f) = h.as_ref()
            {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&message));
            }
        });
    }));
}

/// Panics on purpose, for the tests of the recovery after a trap (js/test/): no input is known
/// to make the engine panic, so this stands in for the next bug.
#[wasm_bindgen(js_name = __panicForTests)]
pub fn panic_for_tests() {
    panic!("a panic asked for by a test");
}

/// Whether converting to `to` needs the bundled fonts first ([`provide_fonts`]): the Word, PDF,
/// sd.xml and parsX writers measure or draw text with them, and they are not built in.
#[wasm_bindgen(js_name = fontsNeeded)]
pub fn fonts_needed(to: &str) -> bool {
    options::format(to).is_ok_and(fonts::needed_for)
}

/// Gives the engine its bundled fonts from `wasm/sdconv_fonts.bin`, for the life of this
/// instance. A native build has them built in, and takes nothing.
#[wasm_bindgen(js_name = provideFonts)]
pub fn provide_fonts(bundle: Vec<u8>) -> Result<(), JsValue> {
    let files =
        fonts::unpack(&bundle).map_err(|e| error_value("conversion_failed", &e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    sdconv::fonts::provide_bundled_fonts(files);
    #[cfg(not(target_arch = "wasm32"))]
    drop(files);
    Ok(())
}

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
