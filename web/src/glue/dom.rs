//! Small DOM calls: focus an element, download a text as a file, drop the share
//! fragment from the address bar, set the document's language.

use wasm_bindgen::JsCast;

/// Moves the keyboard focus to the element with this id, if there is one.
pub fn focus(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Offers `text` as a download called `name` (a temporary object URL on an anchor).
pub fn download(name: &str, text: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::new();
    parts.push(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/yaml");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = doc.create_element("a")
        && let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        a.set_href(&url);
        a.set_download(name);
        let _ = doc.body().map(|b| b.append_child(&a));
        a.click();
        a.remove();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Removes the fragment (a share link already read) from the address bar, keeping the
/// path and query, without a navigation.
pub fn clear_fragment() {
    if let Some(w) = web_sys::window()
        && let Ok(history) = w.history()
    {
        let path = w.location().pathname().unwrap_or_default()
            + &w.location().search().unwrap_or_default();
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
}

/// Sets `lang` on the root element.
pub fn set_document_lang(tag: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", tag);
    }
}
