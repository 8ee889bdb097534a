//! Reading a pane: small pastes on the main thread, large ones in the worker, with the
//! same result ([`taintlab_scenario::ParsedPane`], which crosses the worker boundary as
//! JSON).

use std::ops::Deref;
use std::rc::Rc;

use taintlab_core::KubeVersion;
use taintlab_scenario::{PaneKind, ParsedPane};

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

/// Pastes above this size are read in the worker so typing never waits for them.
pub const WORKER_THRESHOLD_BYTES: usize = 256 * 1024;

/// Reads one pane's text (kubectl's messages of the newest release; the scenario runs
/// the commands with the chosen release).
pub fn parse_pane(text: &str, kind: PaneKind) -> ParsedPane {
    ParsedPane::parse(text, kind, KubeVersion::NEWEST)
}

/// The worker's answer for a pane: the parse as JSON.
pub fn to_worker_json(p: &ParsedPane) -> String {
    serde_json::to_string(p).unwrap_or_default()
}

/// Reads the worker's JSON back; `None` if it is not what [`to_worker_json`] writes.
pub fn from_worker_json(json: &str) -> Option<ParsedPane> {
    serde_json::from_str(json).ok()
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
    fn worker_json_round_trips() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        resources: {requests: {cpu: 100m}}\n      tolerations:\n      - {key: k, operator: Exists}\n";
        let p = parse_pane(text, PaneKind::Pods);
        let back = from_worker_json(&to_worker_json(&p)).expect("valid JSON");
        assert_eq!(p.parsed.workloads, back.parsed.workloads);
        assert_eq!((p.lines, p.bytes), (back.lines, back.bytes));
        assert_eq!(back.parsed.workloads[0].toleration_locations[0].line, 12);
        assert_eq!(back.parsed.workloads[0].qos_class(), QosClass::Burstable);
        assert!(from_worker_json("{").is_none());
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
