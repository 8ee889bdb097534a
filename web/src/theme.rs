//! Light and dark theme: the system's `prefers-color-scheme` by default, or the user's
//! choice kept in local storage, applied as `data-theme` on the root element.

use yew::prelude::*;

use crate::i18n::{K, T};

/// Local storage key of the choice.
pub const THEME_KEY: &str = "taintlab.theme";

/// The user's choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// Stored and attribute value.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Reads a stored value.
    pub fn parse(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// The stored choice.
pub fn load() -> Theme {
    crate::glue::storage::storage_get(THEME_KEY)
        .map(|s| Theme::parse(&s))
        .unwrap_or_default()
}

/// Applies and stores a choice.
pub fn apply(theme: Theme) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = match theme {
            Theme::System => root.remove_attribute("data-theme"),
            other => root.set_attribute("data-theme", other.as_str()),
        };
    }
    crate::glue::storage::storage_set(THEME_KEY, theme.as_str());
}

/// The theme menu showing `theme`; `on_change` gets a new choice. A function of the app,
/// not a component: each component type costs the page its own copy of Yew's lifecycle
/// code.
pub fn theme_select(t: T, theme: Theme, on_change: &Callback<Theme>) -> Html {
    let onchange = {
        let cb = on_change.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                cb.emit(Theme::parse(&s.value()));
            }
        })
    };
    html! {
        <label class="inline-select">
            <span>{t.s(K::ThemeLabel)}</span>
            <select id="theme-select" {onchange}>
                { for [(Theme::System, K::ThemeSystem), (Theme::Light, K::ThemeLight), (Theme::Dark, K::ThemeDark)].iter().map(|(th, k)| html!{
                    <option value={th.as_str()} selected={theme == *th}>{t.s(*k)}</option>
                }) }
            </select>
        </label>
    }
}
