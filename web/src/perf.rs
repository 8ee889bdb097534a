//! Timing marks the end-to-end suite reads from `window.__taintlab`: first render, the
//! time from an edit to the re-rendered results, and background reads of large pastes.

use std::cell::Cell;

use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    static LAST_EDIT: Cell<Option<f64>> = const { Cell::new(None) };
}

/// `performance.now()`, or 0 outside a browser.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Records that the user just changed something; the next results render measures
/// from here.
pub fn note_edit() {
    LAST_EDIT.with(|c| c.set(Some(now())));
}

/// Takes the time of the pending edit, if any.
pub fn take_edit() -> Option<f64> {
    LAST_EDIT.with(|c| c.take())
}

fn marks() -> Option<js_sys::Object> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("__taintlab");
    let existing = js_sys::Reflect::get(&window, &key).ok()?;
    if existing.is_object() {
        return existing.dyn_into_object();
    }
    let obj = js_sys::Object::new();
    js_sys::Reflect::set(&window, &key, &obj).ok()?;
    Some(obj)
}

trait DynIntoObject {
    fn dyn_into_object(self) -> Option<js_sys::Object>;
}

impl DynIntoObject for JsValue {
    fn dyn_into_object(self) -> Option<js_sys::Object> {
        self.dyn_into::<js_sys::Object>().ok()
    }
}

/// Sets `window.__taintlab[name] = value`.
pub fn set(name: &str, value: f64) {
    if let Some(m) = marks() {
        let _ = js_sys::Reflect::set(&m, &JsValue::from_str(name), &JsValue::from_f64(value));
    }
}

/// Appends `value` to the array `window.__taintlab[name]` (keeps the last 200).
pub fn push(name: &str, value: f64) {
    let Some(m) = marks() else {
        return;
    };
    let key = JsValue::from_str(name);
    let arr = match js_sys::Reflect::get(&m, &key).map(|v| v.dyn_into::<js_sys::Array>()) {
        Ok(Ok(a)) => a,
        _ => {
            let a = js_sys::Array::new();
            let _ = js_sys::Reflect::set(&m, &key, &a);
            a
        }
    };
    arr.push(&JsValue::from_f64(value));
    if arr.length() > 200 {
        arr.shift();
    }
}
