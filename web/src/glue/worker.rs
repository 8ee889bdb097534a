//! The page's side of the background worker (`src/bin/worker.rs`, built by Trunk as a
//! separate wasm module that the page starts when it first needs it). It reads every
//! pasted text and imported file (so the input layer's readers are not part of the
//! page's initial download, and typing never waits for a large paste), and runs the
//! Kubewarden policy's decision function and the what-if simulation with the rendering of
//! its results (so their code is not part of that download either).
//!
//! Messages are plain objects with strings inside (JSON, or for readings the compact
//! [`super::wire`] format); a reply carries the request's
//! `id`. When the worker cannot be used, callers fall back (with the `reader`
//! feature texts are read on the main thread, else the pane says it could not be read;
//! the policy tab reports the error).
//!
//! The listeners are `gloo-events` listeners (removed from the worker when the bridge is
//! dropped); that cost 342 B gz of initial download against the hand-written closures
//! (page wasm + JS after wasm-bindgen, `wasm-opt -Oz`, gzip -9: 457,926 → 458,268 B).
//!
//! The bridge itself stays hand-written rather than `gloo-worker` 0.5. Measured the same
//! way, a `gloo-worker` bridge adds 4,076 B gz with its default bincode codec (458,268 →
//! 462,344 B) and 5,575 B with a JSON codec, in a budget of 450,000 B with a few KB
//! left. It would also lose behaviour this bridge has: `gloo-worker` cannot transfer a
//! buffer (a 30 MB paste would be encoded and copied on the main thread instead of moved),
//! it listens to no `error` event (a worker that dies would leave callers waiting, where
//! this bridge falls back to the main thread), and it panics when the worker cannot be
//! created (this bridge returns false and the caller parses locally).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};
use yew::Callback;

use taintlab_scenario::PaneKind;

/// The worker's loader script, written by Trunk next to `index.html`.
pub const WORKER_URL: &str = "./worker-loader.js";

/// A reply: the `out` string (JSON or [`super::wire`] text) and the worker's own time in milliseconds, or an error.
pub type Reply = Result<(String, f64), String>;

struct Bridge {
    worker: Worker,
    /// The worker announced that its module is running; messages sent before that
    /// would be lost, so they wait in `queue`.
    ready: bool,
    queue: Vec<Pending>,
    /// Removed from the worker when the bridge is dropped.
    _on_message: EventListener,
    _on_error: EventListener,
}

/// The Nodes and Pods texts last sent with a policy job.
type Sent = (Option<Rc<str>>, Option<Rc<str>>);

/// A message and the buffers to transfer (not copy) with it.
struct Pending {
    msg: js_sys::Object,
    transfer: Option<js_sys::Array>,
}

impl Pending {
    fn send(&self, worker: &Worker) -> bool {
        match &self.transfer {
            Some(t) => worker.post_message_with_transfer(&self.msg, t).is_ok(),
            None => worker.post_message(&self.msg).is_ok(),
        }
    }
}

thread_local! {
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
    static WAITING: RefCell<HashMap<u32, Callback<Reply>>> = RefCell::new(HashMap::new());
    static NEXT_ID: RefCell<u32> = const { RefCell::new(1) };
    /// The pane texts the worker already has for policy jobs (compared by pointer).
    static SENT: RefCell<Sent> = const { RefCell::new((None, None)) };
}

fn finish(id: u32, reply: Reply) {
    let cb = WAITING.with(|w| w.borrow_mut().remove(&id));
    if let Some(cb) = cb {
        cb.emit(reply);
    }
}

fn fail_all(message: &str) {
    let all: Vec<(u32, Callback<Reply>)> = WAITING.with(|w| w.borrow_mut().drain().collect());
    BRIDGE.with(|b| b.borrow_mut().take());
    SENT.with(|s| *s.borrow_mut() = (None, None));
    for (_, cb) in all {
        cb.emit(Err(message.to_string()));
    }
}

fn get(data: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &JsValue::from_str(key)).ok()
}

fn start() -> bool {
    if BRIDGE.with(|b| b.borrow().is_some()) {
        return true;
    }
    let Ok(worker) = Worker::new(WORKER_URL) else {
        return false;
    };
    let on_message = EventListener::new(&worker, "message", |e| {
        let Some(e) = e.dyn_ref::<MessageEvent>() else {
            return;
        };
        let data = e.data();
        if get(&data, "ready").and_then(|v| v.as_bool()) == Some(true) {
            BRIDGE.with(|b| {
                if let Some(b) = b.borrow_mut().as_mut() {
                    b.ready = true;
                    for msg in b.queue.drain(..) {
                        msg.send(&b.worker);
                    }
                }
            });
            return;
        }
        let id = get(&data, "id").and_then(|v| v.as_f64()).unwrap_or(0.0) as u32;
        if let Some(err) = get(&data, "error").and_then(|v| v.as_string()) {
            finish(id, Err(err));
            return;
        }
        let ms = get(&data, "ms").and_then(|v| v.as_f64()).unwrap_or(0.0);
        let out = get(&data, "out")
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        finish(id, Ok((out, ms)));
    });
    // Not passive: the error is handled here, not reported on the console.
    let on_error = EventListener::new_with_options(
        &worker,
        "error",
        EventListenerOptions::enable_prevent_default(),
        |e| {
            e.prevent_default();
            fail_all("the background worker stopped");
        },
    );
    BRIDGE.with(|b| {
        *b.borrow_mut() = Some(Bridge {
            worker,
            ready: false,
            queue: Vec::new(),
            _on_message: on_message,
            _on_error: on_error,
        })
    });
    true
}

fn post(fields: &[(&str, JsValue)], done: Callback<Reply>) -> bool {
    post_with_transfer(fields, None, done)
}

fn post_with_transfer(
    fields: &[(&str, JsValue)],
    transfer: Option<js_sys::Array>,
    done: Callback<Reply>,
) -> bool {
    if !start() {
        return false;
    }
    let id = NEXT_ID.with(|n| {
        let mut n = n.borrow_mut();
        let id = *n;
        *n = n.wrapping_add(1).max(1);
        id
    });
    let msg = Pending {
        msg: js_sys::Object::new(),
        transfer,
    };
    let obj = &msg.msg;
    let mut ok = js_sys::Reflect::set(
        obj,
        &JsValue::from_str("id"),
        &JsValue::from_f64(f64::from(id)),
    )
    .is_ok();
    for (k, v) in fields {
        ok &= js_sys::Reflect::set(obj, &JsValue::from_str(k), v).is_ok();
    }
    if !ok {
        return false;
    }
    WAITING.with(|w| w.borrow_mut().insert(id, done));
    let sent = BRIDGE.with(|b| match b.borrow_mut().as_mut() {
        Some(b) if b.ready => msg.send(&b.worker),
        Some(b) => {
            b.queue.push(msg);
            true
        }
        None => false,
    });
    if !sent {
        WAITING.with(|w| w.borrow_mut().remove(&id));
    }
    sent
}

/// Starts the worker ahead of need (its module loads while the user is about to paste
/// or drop), so a large paste does not wait for the worker to start, and the same
/// module on the page's thread ([`super::reader`]) for what the user types.
pub fn warm() {
    let _ = start();
    super::reader::load();
}

/// Sends `text` as UTF-8 bytes in a transferred buffer: one memory copy instead of two
/// string conversions of a text that can be tens of megabytes.
fn post_text(op: &str, text: &str, extra: Option<(&str, JsValue)>, done: Callback<Reply>) -> bool {
    let bytes = js_sys::Uint8Array::from(text.as_bytes());
    let transfer = js_sys::Array::of1(&bytes.buffer());
    let mut fields = vec![("op", JsValue::from_str(op)), ("bytes", bytes.into())];
    fields.extend(extra);
    post_with_transfer(&fields, Some(transfer), done)
}

/// Asks the worker to read a pane; `done` gets the [`taintlab_scenario::ParsedPane`] in
/// the [`super::wire`] format.
/// False when no worker can be used.
pub fn parse_in_background(text: &str, kind: PaneKind, done: Callback<Reply>) -> bool {
    let kind = JsValue::from_f64(if kind == PaneKind::Nodes { 0.0 } else { 1.0 });
    post_text("parse", text, Some(("kind", kind)), done)
}

/// Asks the worker to read tolerations given as text; `done` gets
/// [`crate::parse::to_tolerations_text`]'s text. False when no worker can be used.
pub fn tolerations_in_background(text: &str, done: Callback<Reply>) -> bool {
    post_text("tolerations", text, None, done)
}

/// Asks the worker to import an Export YAML file; `done` gets
/// [`crate::parse::to_import_json`]'s JSON. False when no worker can be used.
pub fn import_in_background(text: &str, done: Callback<Reply>) -> bool {
    post_text("import", text, None, done)
}

/// A tab whose answer the worker renders from the pane texts it holds, in one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rendered {
    /// The Kubewarden tab: `crate::policy::report_html`'s text.
    Policy,
    /// The per-pod eviction timelines: `crate::timeline::pods_html::answer`'s text.
    Timeline,
}

/// Asks the worker for `tab`'s answer: `state` is the state as JSON without the pane
/// texts; the texts are sent only when they changed since the last job. `done` gets the
/// rendered text in language `lang` (a BCP 47 tag). False when no worker can be used.
pub fn rendered_job(
    tab: Rendered,
    state: String,
    nodes: &Rc<str>,
    pods: &Rc<str>,
    lang: &str,
    done: Callback<Reply>,
) -> bool {
    let op = match tab {
        Rendered::Policy => "policy",
        Rendered::Timeline => "timeline",
    };
    job(
        op,
        state,
        nodes,
        pods,
        vec![("lang", JsValue::from_str(lang))],
        done,
    )
}

/// Asks the worker to run the what-if and render it, as [`rendered_job`] (the jobs share
/// the pane texts the worker holds), in language `lang` (a BCP 47 tag) showing second
/// `at`. `done` gets [`crate::whatif::Answer`]'s text.
pub fn what_if_job(
    state: String,
    nodes: &Rc<str>,
    pods: &Rc<str>,
    at: i64,
    lang: &str,
    done: Callback<Reply>,
) -> bool {
    let extra = vec![
        ("at", JsValue::from_f64(at as f64)),
        ("lang", JsValue::from_str(lang)),
    ];
    job("whatif", state, nodes, pods, extra, done)
}

/// Asks the worker for the cluster and the matrix at second `at` of its last what-if
/// run, as HTML in language `lang`. False when no worker can be used.
pub fn what_if_at_job(at: i64, lang: &str, done: Callback<Reply>) -> bool {
    post(
        &[
            ("op", JsValue::from_str("whatifAt")),
            ("at", JsValue::from_f64(at as f64)),
            ("lang", JsValue::from_str(lang)),
        ],
        done,
    )
}

fn job(
    op: &str,
    state: String,
    nodes: &Rc<str>,
    pods: &Rc<str>,
    extra: Vec<(&str, JsValue)>,
    done: Callback<Reply>,
) -> bool {
    if !start() {
        return false;
    }
    let (send_nodes, send_pods) = SENT.with(|s| {
        let s = s.borrow();
        (
            !s.0.as_ref().is_some_and(|x| Rc::ptr_eq(x, nodes)),
            !s.1.as_ref().is_some_and(|x| Rc::ptr_eq(x, pods)),
        )
    });
    let mut fields = vec![
        ("op", JsValue::from_str(op)),
        ("state", JsValue::from_str(&state)),
    ];
    if send_nodes {
        fields.push(("nodes", JsValue::from_str(nodes)));
    }
    if send_pods {
        fields.push(("pods", JsValue::from_str(pods)));
    }
    fields.extend(extra);
    let ok = post(&fields, done);
    if ok {
        SENT.with(|s| *s.borrow_mut() = (Some(nodes.clone()), Some(pods.clone())));
    }
    ok
}

/// The newest of several answers in flight: each request takes a ticket
/// ([`Tickets::issue`]), and a reply is taken only if no reply to a newer request was
/// taken before it ([`Tickets::take`]).
#[derive(Debug, Default)]
pub struct Tickets {
    sent: u64,
    taken: u64,
}

impl Tickets {
    /// A ticket for a new request.
    pub fn issue(&mut self) -> u64 {
        self.sent += 1;
        self.sent
    }

    /// Marks every request so far as answered, so that their replies are dropped.
    pub fn drop_all(&mut self) {
        self.sent += 1;
        self.taken = self.sent;
    }

    /// Whether the reply to `ticket` is to be taken: `None` when a newer one was, else
    /// whether it answers the newest request (nothing else is on its way).
    pub fn take(&mut self, ticket: u64) -> Option<bool> {
        if ticket < self.taken {
            return None;
        }
        self.taken = ticket;
        Some(ticket == self.sent)
    }
}

/// Sends one job of a tab that shows only the answer to its newest request: `pending`
/// is set until that answer arrives, a reply overtaken by a newer one is dropped, and a
/// worker that cannot start answers with an error. `send` posts the job with the reply
/// callback; `on_reply` takes each reply that counts.
pub fn ask_newest(
    tickets: &Rc<RefCell<Tickets>>,
    pending: &yew::UseStateHandle<bool>,
    send: impl FnOnce(Callback<Reply>) -> bool,
    on_reply: impl Fn(Reply) + 'static,
) {
    let my = tickets.borrow_mut().issue();
    pending.set(true);
    let done = {
        let tickets = tickets.clone();
        let pending = pending.clone();
        Callback::from(move |r: Reply| {
            let Some(newest) = tickets.borrow_mut().take(my) else {
                return;
            };
            if newest {
                pending.set(false);
            }
            on_reply(r);
        })
    };
    if !send(done.clone()) {
        done.emit(Err("the background worker could not start".into()));
    }
}

/// The state as the worker's jobs take it: JSON without the pane texts, which travel
/// apart and only when they changed.
pub fn state_without_texts(state: &crate::store::State) -> String {
    let mut bare = state.clone();
    bare.nodes = Rc::from("");
    bare.pods = Rc::from("");
    serde_json::to_string(&bare).unwrap_or_default()
}

#[cfg(test)]
mod tickets_tests {
    use super::Tickets;

    #[test]
    fn the_newest_reply_wins_and_dropped_ones_stay_dropped() {
        let mut t = Tickets::default();
        let a = t.issue();
        let b = t.issue();
        assert_eq!(t.take(b), Some(true));
        assert_eq!(t.take(a), None);
        let c = t.issue();
        let d = t.issue();
        assert_eq!(t.take(c), Some(false));
        t.drop_all();
        assert_eq!(t.take(d), None);
    }
}
