//! Local storage: the state, the language and the theme, each under its own key.
//!
//! Written against `web_sys::Storage` rather than `gloo-storage` 0.3, which was measured
//! and not taken: it adds 731 B gz to the initial download (page wasm + JS after
//! wasm-bindgen, `wasm-opt -Oz`, gzip -9: 458,268 → 458,999 B), stores every value as
//! JSON (`"dark"` with quotes, the state as an escaped string), so what returning users
//! saved would no longer read, and it throws (`expect_throw`) when the browser blocks
//! local storage, which would stop the app where these functions return `None`/`false`
//! and the page says the state is not saved.

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Reads a local storage entry.
pub fn storage_get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Writes a local storage entry; false when the browser refused (quota, privacy mode).
pub fn storage_set(key: &str, value: &str) -> bool {
    storage()
        .map(|s| s.set_item(key, value).is_ok())
        .unwrap_or(false)
}

/// Removes a local storage entry.
pub fn storage_remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}
