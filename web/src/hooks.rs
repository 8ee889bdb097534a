//! The playground's own hooks.

use std::rc::Rc;

use yew::prelude::*;

use crate::glue::worker;
use crate::panes::{PaneView, Text};
use crate::parse::{self, SharedPane, WORKER_THRESHOLD_BYTES, parse_pane};
use crate::perf;
use taintlab_scenario::{PaneKind, ParsedPane};

/// A background read's result for one text.
#[derive(Clone, PartialEq)]
struct Remote {
    text: Text,
    parse: SharedPane,
    ms: Option<f64>,
}

/// The parse of a pane: on the main thread for small texts (memoized on the text), in
/// the worker for large ones, keeping the previous result visible while reading.
#[hook]
pub fn use_pane(text: Rc<str>, kind: PaneKind) -> PaneView {
    let big = text.len() > WORKER_THRESHOLD_BYTES;
    let local = use_memo(Text(text.clone()), move |t| {
        (t.0.len() <= WORKER_THRESHOLD_BYTES).then(|| SharedPane::new(parse_pane(&t.0, kind)))
    });
    let remote = use_state(|| None::<Remote>);
    let seq = use_mut_ref(|| (0u64, 0u64));
    {
        let remote = remote.clone();
        let seq = seq.clone();
        use_effect_with(Text(text.clone()), move |t| {
            if t.0.len() > WORKER_THRESHOLD_BYTES {
                let my = {
                    let mut s = seq.borrow_mut();
                    s.0 += 1;
                    s.0
                };
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
                        perf::set("bigParseMs", perf::now() - started);
                        perf::set("bigParseBytes", text.0.len() as f64);
                        if let Some(ms) = ms {
                            perf::set("bigParseWorkerMs", ms);
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
                    move || {
                        let accept = accept.clone();
                        let text = text.clone();
                        // Let the progress indicator paint first. Yew's sleep is
                        // gloo-timers' `Timeout` underneath; calling gloo-timers'
                        // `TimeoutFuture` directly measured 117 B gz more for the same
                        // wait, so Yew's is kept.
                        yew::platform::spawn_local(async move {
                            yew::platform::time::sleep(std::time::Duration::from_millis(16)).await;
                            let p = parse_pane(&text.0, kind);
                            accept(p, None);
                        });
                    }
                };
                let done = {
                    let fallback = fallback.clone();
                    Callback::from(move |o: worker::Reply| {
                        match o.map(|(json, ms)| (parse::from_worker_json(&json), ms)) {
                            Ok((Some(p), ms)) => accept(p, Some(ms)),
                            _ => fallback(),
                        }
                    })
                };
                if !worker::parse_in_background(&text.0, kind, done) {
                    fallback();
                }
            }
        });
    }
    if !big {
        let parse = (*local)
            .clone()
            .unwrap_or_else(|| SharedPane::new(ParsedPane::empty(kind)));
        return PaneView {
            parse,
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
        Some(r) => PaneView {
            parse: r.parse.clone(),
            pending: Some(text.len()),
            worker_ms: None,
        },
        None => PaneView {
            parse: SharedPane::new(ParsedPane::empty(kind)),
            pending: Some(text.len()),
            worker_ms: None,
        },
    }
}
