//! The playground's own hooks.

use std::rc::Rc;

use yew::prelude::*;

use crate::glue::{reader, worker};
use crate::panes::{PaneView, Text};
use crate::parse::{self, SharedPane, WORKER_THRESHOLD_BYTES};
use crate::perf;
use taintlab_scenario::{PaneKind, ParsedPane, TolerationsInput};

/// A background read's result for one text.
#[derive(Clone, PartialEq)]
struct Remote {
    text: Text,
    parse: SharedPane,
    ms: Option<f64>,
}

/// The parse of a pane. Every text is read by the worker's module (the page's own wasm
/// does not carry the readers; see [`crate::parse`]): in the worker, the previous
/// reading staying visible until the new one arrives, or, once it has loaded, by its
/// instance on this thread ([`reader`]) for texts up to [`WORKER_THRESHOLD_BYTES`], so
/// what the user types is read in the keystroke's own frame. A text that needs no
/// reader (the empty one, and the first example's, read at build time) is answered at
/// once, so a first visit neither waits for the worker nor downloads it.
///
/// Replies are taken in the order the texts were sent: a reply for an older text that
/// arrives after a newer one's is dropped.
#[hook]
pub fn use_pane(text: Rc<str>, kind: PaneKind) -> PaneView {
    let at_once = use_memo(Text(text.clone()), move |t| {
        parse::without_reader(&t.0, kind)
            .or_else(|| {
                // What the user types, read on this thread once the worker's module
                // runs here too (see `glue::reader`); large texts go to the worker.
                (t.0.len() <= WORKER_THRESHOLD_BYTES)
                    .then(|| reader::read(&t.0, kind))
                    .flatten()
                    .and_then(|json| parse::from_worker_text(&json))
            })
            .map(SharedPane::new)
    });
    let answered = at_once.is_some();
    let remote = use_state(|| None::<Remote>);
    // (last request sent, last reply accepted)
    let seq = use_mut_ref(|| (0u64, 0u64));
    {
        let remote = remote.clone();
        let seq = seq.clone();
        use_effect_with(Text(text.clone()), move |t| {
            let my = {
                let mut s = seq.borrow_mut();
                s.0 += 1;
                s.0
            };
            if answered {
                // Read already; older replies still in flight are now stale.
                seq.borrow_mut().1 = my;
                return;
            }
            // The next texts are read on this thread.
            reader::load();
            let big = t.0.len() > WORKER_THRESHOLD_BYTES;
            let started = perf::now();
            let text = t.clone();
            let accept = {
                let remote = remote.clone();
                let seq = seq.clone();
                let text = text.clone();
                move |parse: ParsedPane, ms: Option<f64>| {
                    let mut s = seq.borrow_mut();
                    if my < s.1 {
                        return;
                    }
                    s.1 = my;
                    perf::push("readMs", perf::now() - started);
                    if let Some(ms) = ms {
                        perf::push("readWorkerMs", ms);
                    }
                    if big {
                        perf::set("bigParseMs", perf::now() - started);
                        perf::set("bigParseBytes", text.0.len() as f64);
                        if let Some(ms) = ms {
                            perf::set("bigParseWorkerMs", ms);
                        }
                    }
                    remote.set(Some(Remote {
                        text: text.clone(),
                        parse: SharedPane::new(parse),
                        ms,
                    }));
                }
            };
            let fallback = {
                let accept = accept.clone();
                let text = text.clone();
                move |why: String| {
                    let accept = accept.clone();
                    let text = text.clone();
                    // Let the progress indicator paint first. Yew's sleep is
                    // gloo-timers' `Timeout` underneath; calling gloo-timers'
                    // `TimeoutFuture` directly measured 117 B gz more for the same
                    // wait, so Yew's is kept.
                    yew::platform::spawn_local(async move {
                        yew::platform::time::sleep(std::time::Duration::from_millis(16)).await;
                        accept(read_here(&text.0, kind, &why), None);
                    });
                }
            };
            let done = {
                let fallback = fallback.clone();
                Callback::from(move |o: worker::Reply| match o {
                    Ok((json, ms)) => match parse::from_worker_text(&json) {
                        Some(p) => accept(p, Some(ms)),
                        None => fallback("its answer could not be read".into()),
                    },
                    Err(e) => fallback(e),
                })
            };
            if !worker::parse_in_background(&text.0, kind, done) {
                fallback("no worker could be started".into());
            }
        });
    }
    if let Some(parse) = &*at_once {
        return PaneView {
            parse: parse.clone(),
            pending: None,
            worker_ms: None,
        };
    }
    match &*remote {
        Some(r) if r.text == Text(text.clone()) => PaneView {
            parse: r.parse.clone(),
            pending: None,
            worker_ms: r.ms,
        },
        // A small text's new reading arrives within milliseconds: keep showing the
        // previous one without a progress note, so typing does not flicker.
        Some(r) => PaneView {
            parse: r.parse.clone(),
            pending: (text.len() > WORKER_THRESHOLD_BYTES).then_some(text.len()),
            worker_ms: None,
        },
        None => PaneView {
            parse: SharedPane::new(ParsedPane::empty(kind)),
            pending: Some(text.len()),
            worker_ms: None,
        },
    }
}

/// Reads a text on the page's own thread, when the worker could not (`reader`).
#[cfg(feature = "reader")]
fn read_here(text: &str, kind: PaneKind, _why: &str) -> ParsedPane {
    parse::parse_pane(text, kind)
}

/// Without `reader` the page has no reader: the pane says why nothing was read.
#[cfg(not(feature = "reader"))]
fn read_here(text: &str, kind: PaneKind, why: &str) -> ParsedPane {
    parse::unread(text, kind, why)
}

/// PodTolerationRestriction's cluster tolerations typed as text (`default` or
/// `whitelist`), read by the worker like the panes, as the scenario takes them. Only
/// read while `needed` (the plugin is on); a blank text needs no reader.
#[hook]
pub fn use_tolerations(text: Rc<str>, needed: bool) -> TolerationsInput {
    let none = || TolerationsInput::Read(Ok(Vec::new()));
    let blank = !needed || text.trim().is_empty();
    // (the text read, its reading)
    let read = use_state(|| None::<(Text, TolerationsInput)>);
    let seq = use_mut_ref(|| (0u64, 0u64));
    {
        let read = read.clone();
        let seq = seq.clone();
        use_effect_with((Text(text.clone()), blank), move |(t, blank)| {
            let my = {
                let mut s = seq.borrow_mut();
                s.0 += 1;
                s.0
            };
            if *blank {
                seq.borrow_mut().1 = my;
                return;
            }
            let accept = {
                let t = t.clone();
                move |r: Result<Vec<taintlab_core::Toleration>, String>| {
                    let mut s = seq.borrow_mut();
                    if my < s.1 {
                        return;
                    }
                    s.1 = my;
                    read.set(Some((t.clone(), TolerationsInput::Read(r))));
                }
            };
            let text = t.0.clone();
            let done = Callback::from(move |o: worker::Reply| {
                let r = match o {
                    Ok((json, _)) => parse::from_tolerations_text(&json)
                        .unwrap_or_else(|| tolerations_here(&text, "its answer could not be read")),
                    Err(e) => tolerations_here(&text, &e),
                };
                accept(r);
            });
            if !worker::tolerations_in_background(&t.0, done.clone()) {
                done.emit(Err("no worker could be started".into()));
            }
        });
    }
    if blank {
        return none();
    }
    match &*read {
        // The previous reading (or none) until the new one arrives.
        Some((_, r)) => r.clone(),
        None => none(),
    }
}

#[cfg(feature = "reader")]
fn tolerations_here(text: &str, _why: &str) -> Result<Vec<taintlab_core::Toleration>, String> {
    taintlab_scenario::read_tolerations(text)
}

#[cfg(not(feature = "reader"))]
fn tolerations_here(_text: &str, why: &str) -> Result<Vec<taintlab_core::Toleration>, String> {
    Err(format!(
        "not read: the background reader could not be used ({why})"
    ))
}

/// Imports an Export YAML file in the worker (the input layer's YAML reader and its
/// limits check it there); `done` gets the state or the message to show.
pub fn import_yaml(text: &str, done: impl Fn(Result<crate::store::State, String>) + 'static) {
    let done = Rc::new(done);
    let text_here: Rc<str> = Rc::from(text);
    let fallback = {
        let done = done.clone();
        move |why: String| done(import_here(&text_here, &why))
    };
    let reply = Callback::from(move |o: worker::Reply| match o {
        Ok((json, _)) => match parse::from_import_json(&json) {
            Some(r) => done(r),
            None => fallback("its answer could not be read".into()),
        },
        Err(e) => fallback(e),
    });
    if !worker::import_in_background(text, reply.clone()) {
        reply.emit(Err("no worker could be started".into()));
    }
}

#[cfg(feature = "reader")]
fn import_here(text: &str, _why: &str) -> Result<crate::store::State, String> {
    crate::share::import_yaml(text)
}

#[cfg(not(feature = "reader"))]
fn import_here(_text: &str, why: &str) -> Result<crate::store::State, String> {
    Err(format!(
        "the file was not read: the background reader could not be used ({why})"
    ))
}
