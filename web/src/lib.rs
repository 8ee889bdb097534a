//! # taintlab-web
//!
//! The Taintlab playground: a Yew single-page app that runs the taint and toleration
//! engine in the browser, offline. Paste nodes and pods (every form the input layer
//! reads), see the scheduling matrix, explanations, FailedScheduling messages, eviction
//! timelines and the Kubewarden policy's answers, live as you type.
//!
//! The state ([`store::State`]) holds only what the user typed or chose; everything
//! else is derived ([`analysis`]). Large pastes are read in a web worker ([`glue::worker`]).
//!
//! The [`App`] component is in [`app`], its hooks in [`hooks`], and the calls into the
//! browser (storage, DOM, the worker bridge) in [`glue`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod app;
pub mod explain;
pub mod gallery;
pub mod glue;
pub mod hooks;
pub mod i18n;
pub mod matrix;
pub mod panes;
pub mod parse;
pub mod perf;
pub mod policy;
pub mod settings;
pub mod share;
pub mod store;
pub mod theme;
pub mod timeline;
pub mod whatif;

use std::cell::Cell;

pub use app::{App, Boot, LANG_KEY, boot, initial_lang};
pub use glue::storage::{storage_get, storage_set};

thread_local! {
    static STARTED: Cell<bool> = const { Cell::new(false) };
}

/// Renders the playground into the page body (once).
pub fn start() {
    if STARTED.with(|s| s.replace(true)) {
        return;
    }
    yew::Renderer::<App>::new().render();
}
