//! Reading a pane and importing a file: both run in the background worker
//! (`src/bin/worker.rs`), the only place the playground build links the input layer's
//! readers, so they are not part of the page's first download. The result crosses the
//! worker boundary as text: a [`taintlab_scenario::ParsedPane`] or tolerations in the
//! compact format of [`crate::glue::wire`] (the page decodes those types from nothing
//! else, so their decoders are linked once, small), the imported [`State`] as JSON.
//!
//! With the `reader` feature (on by default, off in the playground build that
//! `index.html` describes) the page reads the text itself when no worker can be used,
//! which is what the component tests, served without the worker's files, rely on.
//! Without it, a pane the worker cannot read shows one error saying so.

use std::ops::Deref;
use std::rc::Rc;

use taintlab_core::{KubeVersion, Toleration};
use taintlab_input::{Code, Diagnostic, Location};
use taintlab_scenario::{PaneKind, ParsedPane};

use crate::glue::wire;
use crate::store::State;

/// A parsed pane shared between components, compared by identity: a pane is read once
/// per text, so the same text keeps the same value and a new reading is a change.
#[derive(Clone, Debug)]
pub struct SharedPane(pub Rc<ParsedPane>);

impl SharedPane {
    /// Shares a parse.
    pub fn new(p: ParsedPane) -> Self {
        Self(Rc::new(p))
    }
}

impl Deref for SharedPane {
    type Target = ParsedPane;

    fn deref(&self) -> &ParsedPane {
        &self.0
    }
}

impl PartialEq for SharedPane {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Texts above this size are "large": the pane shows that it is reading them (smaller
/// ones keep the previous reading on screen until the new one arrives, a few
/// milliseconds later).
pub const WORKER_THRESHOLD_BYTES: usize = 256 * 1024;

/// Reads one pane's text (kubectl's messages of the newest release; the scenario runs
/// the commands with the chosen release). The worker calls this; so does the page
/// itself with the `reader` feature, when no worker can be used.
pub fn parse_pane(text: &str, kind: PaneKind) -> ParsedPane {
    ParsedPane::parse(text, kind, KubeVersion::NEWEST)
}

/// Texts read at build time (`build.rs`): the first example's panes, with their
/// [`to_worker_text`] readings.
const PRESETS: &[(PaneKind, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// The reading of a pane that needs no reader: the empty text reads as an empty pane,
/// and the first example's texts (what a first visit shows) were read at build time.
/// Everything else is read by the worker.
pub fn without_reader(text: &str, kind: PaneKind) -> Option<ParsedPane> {
    if text.is_empty() {
        return Some(ParsedPane::empty(kind));
    }
    preset(text, kind).and_then(from_worker_text)
}

fn preset(text: &str, kind: PaneKind) -> Option<&'static str> {
    PRESETS
        .iter()
        .find(|(k, t, _)| *k == kind && *t == text)
        .map(|(_, _, json)| *json)
}

/// What a pane shows when neither the worker nor (without `reader`) the page can
/// read its text: one error for the whole text, with the worker's complaint.
pub fn unread(text: &str, kind: PaneKind, why: &str) -> ParsedPane {
    let mut p = ParsedPane::empty(kind);
    p.lines = text.lines().count();
    p.bytes = text.len();
    p.parsed.diagnostics.push(Diagnostic::error(
        Code::Unrecognized,
        Location::default(),
        format!("This text was not read: the background reader could not be used ({why}). Reload the page to try again."),
    ));
    p
}

/// The worker's answer for tolerations given as text (PodTolerationRestriction's
/// cluster configuration): [`taintlab_scenario::read_tolerations`]'s result in the
/// [`crate::glue::wire`] format.
pub fn to_tolerations_text(r: &Result<Vec<Toleration>, String>) -> String {
    wire::to_string(r).unwrap_or_default()
}

/// Reads [`to_tolerations_text`]'s output back; `None` if it is not that.
pub fn from_tolerations_text(text: &str) -> Option<Result<Vec<Toleration>, String>> {
    wire::from_str(text).ok()
}

/// The worker's answer to an import: the state as JSON, or the reason it was refused.
pub fn to_import_json(r: &Result<State, String>) -> String {
    serde_json::to_string(r).unwrap_or_default()
}

/// Reads [`to_import_json`]'s output back; `None` if it is not that.
pub fn from_import_json(json: &str) -> Option<Result<State, String>> {
    serde_json::from_str(json).ok()
}

/// The worker's answer for a pane: the parse in the [`crate::glue::wire`] format.
pub fn to_worker_text(p: &ParsedPane) -> String {
    wire::to_string(p).unwrap_or_default()
}

/// Reads the worker's answer back; `None` if it is not what [`to_worker_text`] writes.
pub fn from_worker_text(text: &str) -> Option<ParsedPane> {
    wire::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintlab_core::QosClass;

    #[test]
    fn reads_every_pane_form() {
        let p = parse_pane(
            "kubectl taint nodes n1 dedicated=gpu:NoSchedule\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\nspec:\n  taints:\n  - {key: a, value: b, effect: NoExecute}\n",
            PaneKind::Nodes,
        );
        assert_eq!(p.parsed.taint_commands.len(), 1);
        assert_eq!(p.parsed.taint_commands[0].location.line, 1);
        assert_eq!(p.parsed.nodes.len(), 1);
        assert_eq!(p.parsed.nodes[0].node.name, "n2");
        assert_eq!(p.parsed.nodes[0].taint_locations[0].line, 8);
    }

    #[test]
    fn worker_text_round_trips() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resources: {requests: {cpu: 100m}}\n      tolerations:\n      - {key: k, operator: Exists}\n";
        let p = parse_pane(text, PaneKind::Pods);
        let back = from_worker_text(&to_worker_text(&p)).expect("valid text");
        assert_eq!(p.parsed.workloads, back.parsed.workloads);
        assert_eq!((p.lines, p.bytes), (back.lines, back.bytes));
        assert_eq!(back.parsed.workloads[0].toleration_locations[0].line, 12);
        assert_eq!(back.parsed.workloads[0].qos_class(), QosClass::Burstable);
        assert!(from_worker_text("{").is_none());
        assert!(
            from_worker_text("{\"kind\": \"nodes\"}").is_none(),
            "JSON is not the wire format"
        );
    }

    /// Every field survives the wire: the parity pastes (every form the input layer
    /// reads, broken ones included) decode to what they encode, compared through JSON.
    #[test]
    fn worker_text_keeps_every_field_of_every_paste() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/parity/pastes");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).expect("the parity pastes") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a paste");
            for kind in [PaneKind::Nodes, PaneKind::Pods] {
                let p = parse_pane(&text, kind);
                let back = from_worker_text(&to_worker_text(&p))
                    .unwrap_or_else(|| panic!("{} does not read back", path.display()));
                assert_eq!(
                    serde_json::to_string(&back).expect("JSON"),
                    serde_json::to_string(&p).expect("JSON"),
                    "{}",
                    path.display()
                );
            }
            read += 1;
        }
        assert!(read >= 30, "only {read} pastes");
    }

    #[test]
    fn empty_texts_read_as_the_reader_reads_them() {
        for kind in [PaneKind::Nodes, PaneKind::Pods] {
            let direct = without_reader("", kind).expect("empty text");
            assert_eq!(
                to_worker_text(&direct),
                to_worker_text(&parse_pane("", kind))
            );
            assert!(without_reader(" ", kind).is_none());
        }
    }

    #[test]
    fn the_first_example_is_read_at_build_time_as_the_worker_reads_it() {
        let first = crate::gallery::first_visit();
        for (text, kind) in [
            (&first.nodes, PaneKind::Nodes),
            (&first.pods, PaneKind::Pods),
        ] {
            let built = without_reader(text, kind).expect("read at build time");
            assert_eq!(
                to_worker_text(&built),
                to_worker_text(&parse_pane(text, kind))
            );
            // Only for its own pane.
            let other = if kind == PaneKind::Nodes {
                PaneKind::Pods
            } else {
                PaneKind::Nodes
            };
            assert!(without_reader(text, other).is_none());
        }
        assert!(!first.nodes.is_empty() && !first.pods.is_empty());
        assert!(without_reader(&format!("{}\n", first.nodes), PaneKind::Nodes).is_none());
    }

    #[test]
    fn an_unread_text_says_so_at_its_size() {
        let p = unread("a\nb\n", PaneKind::Pods, "no worker");
        assert_eq!((p.lines, p.bytes), (2, 4));
        let e = p.errors().next().expect("an error");
        assert!(e.message.contains("no worker"), "{}", e.message);
        assert!(p.parsed.nodes.is_empty() && p.parsed.workloads.is_empty());
    }

    #[test]
    fn toleration_answers_round_trip() {
        for text in [
            "- {key: a, operator: Exists}\n",
            "- {key: a, effect: NoSchedul}\n",
        ] {
            let r = taintlab_scenario::read_tolerations(text);
            assert_eq!(from_tolerations_text(&to_tolerations_text(&r)), Some(r));
        }
        assert!(from_tolerations_text("[").is_none());
    }

    #[test]
    fn import_answers_round_trip() {
        let state = crate::gallery::first_visit();
        let ok = from_import_json(&to_import_json(&Ok(state.clone()))).expect("JSON");
        assert_eq!(ok.expect("a state"), state);
        let err = from_import_json(&to_import_json(&Err("line 3: bad".into()))).expect("JSON");
        assert_eq!(err, Err("line 3: bad".to_string()));
        assert!(from_import_json("{").is_none());
    }

    #[test]
    fn errors_keep_their_line() {
        let p = parse_pane(
            "tolerations:\n- key: a\n  operator: Equal\n  effect: NoSchedul\n",
            PaneKind::Pods,
        );
        let e = p.errors().next().expect("an error");
        assert_eq!(e.location.line, 4);
    }
}
