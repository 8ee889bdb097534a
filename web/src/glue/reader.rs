//! The worker's wasm module, instantiated a second time on the page's own thread once
//! the user starts editing, so that reading what they type is a synchronous call and a
//! keystroke's results are drawn in the frame that shows the keystroke.
//!
//! Why not only the worker: a reply from a worker is a new task, and Chromium runs the
//! rendering of a keystroke before it, so every edit took a frame more (recompute after
//! an edit of 50 nodes × 20 pods, median of 35 keystrokes: 2.4 ms with the readers in the
//! page's wasm, 15.6 to 18.6 ms through the worker, of which 12.6 ms was the reply
//! waiting behind the keystroke's frame). The readers are still not part of the first
//! download: the module is the worker's (`taintlab-worker_bg.wasm`, one file, cached
//! once), fetched only when a text box gets focus or a text must be read, and it is the
//! same code the worker runs (`read_pane` in `src/bin/worker.rs`).
//!
//! Large texts still go to the worker, so a paste of megabytes never blocks typing.

use std::cell::{Cell, RefCell};

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use taintlab_scenario::PaneKind;

/// The worker module's JavaScript (wasm-bindgen's `no-modules` output, which declares a
/// global `wasm_bindgen`) and its wasm, written by Trunk next to `index.html`.
const SCRIPT_URL: &str = "./taintlab-worker.js";
const WASM_URL: &str = "./taintlab-worker_bg.wasm";

#[derive(Clone, Copy, PartialEq)]
enum Stage {
    Idle,
    Loading,
    Ready,
    Failed,
}

thread_local! {
    static STAGE: Cell<Stage> = const { Cell::new(Stage::Idle) };
    static READ: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn failed() {
    STAGE.with(|s| s.set(Stage::Failed));
}

/// Starts loading the module (once; a failure is not retried: texts then go to the
/// worker).
pub fn load() {
    if STAGE.with(|s| s.get()) != Stage::Idle {
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return failed();
    };
    let Some(body) = doc.body() else {
        return failed();
    };
    let Ok(script) = doc.create_element("script") else {
        return failed();
    };
    if script.set_attribute("src", SCRIPT_URL).is_err() {
        return failed();
    }
    STAGE.with(|s| s.set(Stage::Loading));
    EventListener::once(&script, "load", |_| start()).forget();
    EventListener::once(&script, "error", |_| failed()).forget();
    if body.append_child(&script).is_err() {
        failed();
    }
}

/// Instantiates the module once its script has run.
fn start() {
    // A global `let` is not a property of `window`; a function body sees it.
    let get = js_sys::Function::new_no_args(
        "return typeof wasm_bindgen === 'undefined' ? undefined : wasm_bindgen",
    );
    let Some(init) = get
        .call0(&JsValue::NULL)
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Function>().ok())
    else {
        return failed();
    };
    let opts = js_sys::Object::new();
    if js_sys::Reflect::set(&opts, &"module_or_path".into(), &WASM_URL.into()).is_err() {
        return failed();
    }
    let Some(promise) = init
        .call1(&JsValue::NULL, &opts)
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return failed();
    };
    wasm_bindgen_futures::spawn_local(async move {
        let read = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => js_sys::Reflect::get(&init, &"read_pane".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok()),
            Err(_) => None,
        };
        match read {
            Some(f) => {
                READ.with(|r| *r.borrow_mut() = Some(f));
                STAGE.with(|s| s.set(Stage::Ready));
            }
            None => failed(),
        }
    });
}

/// Reads a pane's text now, on this thread: the [`taintlab_scenario::ParsedPane`] text
/// (as the worker's `parse` reply), or `None` while the module is not ready.
pub fn read(text: &str, kind: PaneKind) -> Option<String> {
    READ.with(|r| {
        let f = r.borrow();
        let f = f.as_ref()?;
        f.call2(
            &JsValue::NULL,
            &JsValue::from_str(text),
            &JsValue::from_bool(kind == PaneKind::Nodes),
        )
        .ok()?
        .as_string()
    })
}
