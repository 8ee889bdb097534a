//! The background worker, a separate wasm module that Trunk builds next to the page's
//! and that the page starts only when it needs it: it reads every pasted text and
//! imported file (the input layer's readers live here, not in the page's first
//! download; typing never waits for a large paste) and runs the Kubewarden policy's
//! decision function, the cluster-wide what-if simulation and the per-pod eviction
//! timelines, whose results it also renders as HTML (`taintlab_web::timeline::whatif_html`,
//! `taintlab_web::timeline::pods_html`). See `taintlab_web::glue::worker` for the messages.

use std::cell::RefCell;

use gloo_events::EventListener;
use taintlab_scenario::PaneKind;
use taintlab_scenario::read_tolerations;
use taintlab_web::i18n::Lang;
use taintlab_web::parse::{parse_pane, to_import_json, to_tolerations_text, to_worker_text};
use taintlab_web::policy::PolicyWorker;
use taintlab_web::share::import_yaml;
use taintlab_web::whatif::at_text as what_if_at;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static POLICY: RefCell<PolicyWorker> = RefCell::new(PolicyWorker::default());
}

fn get(data: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn handle(scope: &DedicatedWorkerGlobalScope, data: &JsValue) {
    let now = || scope.performance().map(|p| p.now()).unwrap_or(0.0);
    let t0 = now();
    let op = get(data, "op").as_string().unwrap_or_default();
    let text = || {
        get(data, "bytes")
            .dyn_into::<js_sys::Uint8Array>()
            .ok()
            .map(|b| {
                String::from_utf8(b.to_vec())
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            })
            .unwrap_or_default()
    };
    let at = || get(data, "at").as_f64().unwrap_or(0.0) as i64;
    let lang = || Lang::from_tag(&get(data, "lang").as_string().unwrap_or_default());
    let out = match op.as_str() {
        "parse" => {
            let text = text();
            let kind = if get(data, "kind").as_f64() == Some(0.0) {
                PaneKind::Nodes
            } else {
                PaneKind::Pods
            };
            Ok(to_worker_text(&parse_pane(&text, kind)))
        }
        "import" => Ok(to_import_json(&import_yaml(&text()))),
        "tolerations" => Ok(to_tolerations_text(&read_tolerations(&text()))),
        "policy" => {
            let state = get(data, "state").as_string().unwrap_or_default();
            let nodes = get(data, "nodes").as_string();
            let pods = get(data, "pods").as_string();
            Ok(POLICY.with(|p| p.borrow_mut().run(&state, nodes, pods, lang())))
        }
        "whatif" => {
            let state = get(data, "state").as_string().unwrap_or_default();
            let nodes = get(data, "nodes").as_string();
            let pods = get(data, "pods").as_string();
            Ok(POLICY.with(|p| {
                p.borrow_mut()
                    .what_if(&state, nodes, pods, at(), lang(), &now)
            }))
        }
        "timeline" => {
            let state = get(data, "state").as_string().unwrap_or_default();
            let nodes = get(data, "nodes").as_string();
            let pods = get(data, "pods").as_string();
            Ok(POLICY.with(|p| p.borrow_mut().timeline(&state, nodes, pods, lang())))
        }
        "whatifAt" => Ok(what_if_at(at(), lang())),
        other => Err(format!("unknown request {other:?}")),
    };
    let reply = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&reply, &JsValue::from_str(k), v);
    };
    set("id", &get(data, "id"));
    match out {
        Ok(out) => {
            set("out", &JsValue::from_str(&out));
            set("ms", &JsValue::from_f64(now() - t0));
        }
        Err(e) => set("error", &JsValue::from_str(&e)),
    }
    let _ = scope.post_message(&reply);
}

/// Reads a pane's text and returns the [`taintlab_scenario::ParsedPane`] in the page's
/// wire format (`taintlab_web::glue::wire`), as the
/// `parse` message does. The page calls it in its own instance of this module
/// (`taintlab_web::glue::reader`), where `main` does nothing.
#[wasm_bindgen]
pub fn read_pane(text: &str, nodes: bool) -> String {
    let kind = if nodes {
        PaneKind::Nodes
    } else {
        PaneKind::Pods
    };
    to_worker_text(&parse_pane(text, kind))
}

fn main() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let inner = scope.clone();
    let on_message = EventListener::new(&scope, "message", move |e| {
        if let Some(e) = e.dyn_ref::<MessageEvent>() {
            handle(&inner, &e.data());
        }
    });
    // The handler lives as long as the worker.
    on_message.forget();
    // Tell the page that messages can be sent now.
    let ready = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&ready, &JsValue::from_str("ready"), &JsValue::TRUE);
    let _ = scope.post_message(&ready);
}
