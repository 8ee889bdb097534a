//! Local storage: the state, the language and the theme, each under its own key.

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
