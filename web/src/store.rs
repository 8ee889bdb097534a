//! The playground's state: everything the user chose or typed, and nothing derived.
//! Parse and match results are computed from it (see [`crate::analysis`]); the share
//! link, local storage and YAML export all carry exactly this struct.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use taintlab_core::KubeVersion;
use yew::Reducible;

/// Which result view is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Tab {
    /// Matrix and explanations.
    #[default]
    Results,
    /// Eviction timelines.
    Timeline,
    /// The Kubewarden policy.
    Kubewarden,
}

/// A selected matrix cell: pod index and node index (as listed in the matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Pod row.
    pub pod: usize,
    /// Node column.
    pub node: usize,
}

/// The admission plugins to run on the pasted pods, as the API server would on CREATE.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Admission {
    /// Run admission at all (pods from `kubectl get -o yaml` already went through it).
    pub enabled: bool,
    /// DefaultTolerationSeconds (on by default in every cluster).
    pub default_toleration_seconds: bool,
    /// `--default-not-ready-toleration-seconds`.
    pub not_ready_seconds: i64,
    /// `--default-unreachable-toleration-seconds`.
    pub unreachable_seconds: i64,
    /// PodTolerationRestriction.
    pub pod_toleration_restriction: bool,
    /// The plugin configuration's `default` tolerations (any toleration form).
    pub cluster_default: Rc<str>,
    /// The plugin configuration's `whitelist` (any toleration form).
    pub cluster_whitelist: Rc<str>,
    /// The namespace's `scheduler.alpha.kubernetes.io/defaultTolerations` annotation
    /// (JSON), `None` when absent.
    pub namespace_default: Option<Rc<str>>,
    /// The namespace's `scheduler.alpha.kubernetes.io/tolerationsWhitelist` annotation
    /// (JSON), `None` when absent.
    pub namespace_whitelist: Option<Rc<str>>,
    /// ExtendedResourceToleration.
    pub extended_resource_toleration: bool,
    /// Treat every pod as a DaemonSet pod (DaemonSet workloads always are).
    pub daemonset: bool,
}

impl Default for Admission {
    fn default() -> Self {
        Self {
            enabled: true,
            default_toleration_seconds: true,
            not_ready_seconds: 300,
            unreachable_seconds: 300,
            pod_toleration_restriction: false,
            cluster_default: Rc::from(""),
            cluster_whitelist: Rc::from(""),
            namespace_default: None,
            namespace_whitelist: None,
            extended_resource_toleration: false,
            daemonset: false,
        }
    }
}

/// Add or remove a taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StepOp {
    /// Add (or replace) the taint.
    Add,
    /// Remove the taint with that key and effect.
    Remove,
}

/// One scenario edit: at second `at`, add or remove a taint on a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// Seconds after the start.
    pub at: i64,
    /// Node name.
    pub node: String,
    /// Add or remove.
    pub op: StepOp,
    /// `key[=value]:Effect`, as `kubectl taint` writes it.
    pub taint: String,
}

/// The node-failure preset: a node's kubelet stops reporting at t = 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Failure {
    /// Node name (empty: the first node).
    pub node: String,
    /// `--node-monitor-grace-period`; `None` uses the release default (50 s, 40 s
    /// before 1.32).
    pub grace_period: Option<i64>,
    /// Apply DefaultTolerationSeconds to the pods first.
    pub default_tolerations: bool,
    /// `--default-not-ready-toleration-seconds`.
    pub not_ready_seconds: i64,
    /// `--default-unreachable-toleration-seconds`.
    pub unreachable_seconds: i64,
    /// When the kubelet reports again, if it does.
    pub recovers_at: Option<i64>,
}

impl Default for Failure {
    fn default() -> Self {
        Self {
            node: String::new(),
            grace_period: None,
            default_tolerations: true,
            not_ready_seconds: 300,
            unreachable_seconds: 300,
            recovers_at: None,
        }
    }
}

/// The eviction scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Scenario {
    /// Taint edits, in the order entered (simulated in time order).
    pub steps: Vec<Step>,
    /// The node-failure preset, when chosen (replaces the taint edits).
    pub failure: Option<Failure>,
    /// The cluster-wide what-if's actions, one per line in the form every edge shares
    /// (`at 60 taint n1 k=v:NoExecute`, `at 0 drain n2 --ignore-daemonsets`, ...; read
    /// by `taintlab_scenario::parse_actions`). In a share link this is the state JSON's
    /// `scenario.actions`.
    pub actions: String,
    /// The what-if's last simulated second; 0 picks the last action's second + 600.
    pub until: i64,
}

/// The Kubewarden tab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PolicyTab {
    /// Policy settings, JSON.
    pub settings: Rc<str>,
    /// `userInfo.username` of the simulated requests.
    pub user: String,
    /// `userInfo.groups`, comma separated.
    pub groups: String,
}

impl Default for PolicyTab {
    fn default() -> Self {
        Self {
            settings: Rc::from("{}"),
            user: "alice".into(),
            groups: "system:authenticated".into(),
        }
    }
}

/// Everything the user set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct State {
    /// The Nodes pane.
    pub nodes: Rc<str>,
    /// The Pods pane.
    pub pods: Rc<str>,
    /// Kubernetes release, `1.<minor>[.<patch>]`.
    pub version: String,
    /// The `TaintTolerationComparisonOperators` gate.
    pub comparison_operators: bool,
    /// Admission plugins.
    pub admission: Admission,
    /// Eviction scenario.
    pub scenario: Scenario,
    /// Kubewarden tab.
    pub policy: PolicyTab,
    /// Selected matrix cell.
    pub selected: Option<Selection>,
    /// Result view.
    pub tab: Tab,
    /// Bumped whenever a pane's text is replaced from outside the text box (gallery,
    /// import, form), so the text box takes the new text; never shared.
    #[serde(skip)]
    pub rev: u64,
    /// Bumped by every change, so effects can depend on "the state changed" without
    /// comparing megabytes of text; never shared.
    #[serde(skip)]
    pub generation: u64,
}

impl Default for State {
    fn default() -> Self {
        Self {
            nodes: Rc::from(""),
            pods: Rc::from(""),
            version: KubeVersion::NEWEST.to_string(),
            comparison_operators: false,
            admission: Admission::default(),
            scenario: Scenario::default(),
            policy: PolicyTab::default(),
            selected: None,
            tab: Tab::Results,
            rev: 0,
            generation: 0,
        }
    }
}

impl State {
    /// The release, falling back to the newest for text that does not parse.
    pub fn kube_version(&self) -> KubeVersion {
        KubeVersion::parse(&self.version).unwrap_or(KubeVersion::NEWEST)
    }
}

/// Every change to the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Typing in the Nodes pane.
    SetNodes(Rc<str>),
    /// Typing in the Pods pane.
    SetPods(Rc<str>),
    /// Replace the Nodes pane from outside (file, drop).
    LoadNodes(Rc<str>),
    /// Replace the Pods pane from outside.
    LoadPods(Rc<str>),
    /// Append text to the Nodes pane (the add-a-taint form).
    AppendNodes(String),
    /// Append text to the Pods pane (the add-a-toleration form).
    AppendPods(String),
    /// Pick a release.
    SetVersion(String),
    /// Toggle the comparison-operators gate.
    SetGate(bool),
    /// Change the admission settings.
    SetAdmission(Admission),
    /// Select a cell.
    Select(Option<Selection>),
    /// Switch the result view.
    SetTab(Tab),
    /// Add a scenario step.
    AddStep(Step),
    /// Remove a scenario step by index.
    RemoveStep(usize),
    /// Choose or leave the node-failure preset.
    SetFailure(Option<Failure>),
    /// Replace the what-if's action lines.
    SetActions(String),
    /// Append one action line to the what-if.
    AddAction(String),
    /// The what-if's last second (0: automatic).
    SetUntil(i64),
    /// Change the Kubewarden tab.
    SetPolicy(PolicyTab),
    /// Replace everything (gallery, share link, import, local storage).
    Replace(Box<State>),
}

/// Appends `extra` to `text` on a new line.
fn append(text: &str, extra: &str) -> Rc<str> {
    let mut s = String::with_capacity(text.len() + extra.len() + 1);
    s.push_str(text);
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s.push_str(extra);
    Rc::from(s)
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::SetNodes(t) => s.nodes = t,
            Action::SetPods(t) => s.pods = t,
            Action::LoadNodes(t) => {
                s.nodes = t;
                s.rev += 1;
            }
            Action::LoadPods(t) => {
                s.pods = t;
                s.rev += 1;
            }
            Action::AppendNodes(t) => {
                s.nodes = append(&s.nodes, &t);
                s.rev += 1;
            }
            Action::AppendPods(t) => {
                s.pods = append(&s.pods, &t);
                s.rev += 1;
            }
            Action::SetVersion(v) => s.version = v,
            Action::SetGate(g) => s.comparison_operators = g,
            Action::SetAdmission(a) => s.admission = a,
            Action::Select(sel) => s.selected = sel,
            Action::SetTab(t) => s.tab = t,
            Action::AddStep(step) => s.scenario.steps.push(step),
            Action::RemoveStep(i) => {
                if i < s.scenario.steps.len() {
                    s.scenario.steps.remove(i);
                }
            }
            Action::SetFailure(f) => s.scenario.failure = f,
            Action::SetActions(a) => s.scenario.actions = a,
            Action::AddAction(line) => {
                s.scenario.actions = append(&s.scenario.actions, &line).to_string()
            }
            Action::SetUntil(u) => s.scenario.until = u.max(0),
            Action::SetPolicy(p) => s.policy = p,
            Action::Replace(new) => {
                let rev = s.rev + 1;
                s = *new;
                s.rev = rev;
            }
        }
        s.generation = self.generation + 1;
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_adds_a_line_break_only_when_needed() {
        assert_eq!(&*append("", "x"), "x");
        assert_eq!(&*append("a", "x"), "a\nx");
        assert_eq!(&*append("a\n", "x"), "a\nx");
    }

    #[test]
    fn external_changes_bump_the_revision_typing_does_not() {
        let s = Rc::new(State::default());
        let typed = s.clone().reduce(Action::SetNodes(Rc::from("a")));
        assert_eq!(typed.rev, 0);
        let loaded = typed.reduce(Action::LoadPods(Rc::from("b")));
        assert_eq!(loaded.rev, 1);
        assert_eq!(&*loaded.nodes, "a");
        let replaced = loaded.reduce(Action::Replace(Box::default()));
        assert_eq!(replaced.rev, 2);
        assert_eq!(&*replaced.nodes, "");
    }
}
