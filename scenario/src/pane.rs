//! Pasted texts, read once each: a [`ParsedPane`] is the input layer's reading of one
//! text with the options of its pane, and [`Panes`] keeps the last reading of each pane
//! so that typing in one pane never re-reads the other.

use taintlab_core::KubeVersion;
use taintlab_input::{Diagnostic, Form, Limits, Options, Parsed, Prefer, Severity};

/// Where a text was pasted; it decides how an ambiguous bare `{key, value, effect}`
/// object is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PaneKind {
    /// The Nodes pane: bare objects are taints.
    Nodes,
    /// The Pods pane: bare objects are tolerations.
    Pods,
    /// One text holding nodes and pods together (a documentation example, npm
    /// `analyze(text)`): bare objects are taints, as in the Nodes pane.
    Combined,
}

impl PaneKind {
    /// How the input layer reads a bare `{key, value, effect}` object in this pane.
    pub fn prefer(self) -> Prefer {
        match self {
            Self::Nodes | Self::Combined => Prefer::Taints,
            Self::Pods => Prefer::Tolerations,
        }
    }
}

/// The largest text read at all: above the input layer's default, so a 5,000-node
/// `kubectl get nodes -o json` (about 78 MB) still fits. Every other limit (depth,
/// aliases, documents) is the input layer's default.
pub const MAX_INPUT_BYTES: usize = 160 * 1024 * 1024;

/// The input layer's options for a pane: [`MAX_INPUT_BYTES`], the pane's reading of bare
/// objects, and kubectl's messages of `version`.
pub fn parse_options(kind: PaneKind, version: KubeVersion) -> Options {
    Options {
        limits: Limits {
            max_input_bytes: MAX_INPUT_BYTES,
            ..Limits::default()
        },
        prefer: kind.prefer(),
        kubectl_version: version,
        syntax: None,
    }
}

/// One text, read by the input layer.
///
/// With the `serde` feature it serializes (for a worker that reads large pastes); a
/// FailedScheduling event crosses as its message and location and is read again on
/// arrival, which keeps the event model's deserializer out of the receiving side.
#[derive(Clone, Debug)]
pub struct ParsedPane {
    /// The pane the text was pasted in.
    pub kind: PaneKind,
    /// What the input layer read, with every location and diagnostic.
    pub parsed: Parsed,
    /// Number of lines of the text.
    pub lines: usize,
    /// Size of the text in bytes.
    pub bytes: usize,
}

impl ParsedPane {
    /// Reads `text` as pasted in a `kind` pane; `version` is the kubectl release whose
    /// messages `kubectl taint` errors use.
    pub fn parse(text: &str, kind: PaneKind, version: KubeVersion) -> Self {
        Self {
            kind,
            parsed: taintlab_input::parse_with(text, &parse_options(kind, version)),
            lines: text.lines().count(),
            bytes: text.len(),
        }
    }

    /// An empty pane.
    pub fn empty(kind: PaneKind) -> Self {
        Self {
            kind,
            parsed: Parsed::default(),
            lines: 0,
            bytes: 0,
        }
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.parsed
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// True when nothing was read.
    pub fn is_empty(&self) -> bool {
        self.parsed.is_empty()
    }
}

#[cfg(feature = "serde")]
mod wire {
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Serialize, Serializer};
    use taintlab_input::{
        Diagnostic, DisruptionBudget, DocumentInfo, InputNode, Location, Parsed, PriorityClass,
        TaintCommandLine, TaintList, TolerationList, Workload,
    };

    use super::{PaneKind, ParsedPane};

    /// An event as it crosses: its message and where it was.
    #[derive(Serialize, Deserialize)]
    struct Event {
        message: String,
        location: Location,
    }

    #[derive(Deserialize)]
    struct Wire {
        kind: PaneKind,
        lines: usize,
        bytes: usize,
        documents: Vec<DocumentInfo>,
        nodes: Vec<InputNode>,
        workloads: Vec<Workload>,
        taint_lists: Vec<TaintList>,
        toleration_lists: Vec<TolerationList>,
        taint_commands: Vec<TaintCommandLine>,
        events: Vec<Event>,
        diagnostics: Vec<Diagnostic>,
        #[serde(default)]
        priority_classes: Vec<PriorityClass>,
        #[serde(default)]
        disruption_budgets: Vec<DisruptionBudget>,
    }

    impl Serialize for ParsedPane {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let p = &self.parsed;
            let events: Vec<Event> = p
                .events
                .iter()
                .map(|e| Event {
                    message: e.message.clone(),
                    location: e.location.clone(),
                })
                .collect();
            let mut st = s.serialize_struct("ParsedPane", 13)?;
            st.serialize_field("kind", &self.kind)?;
            st.serialize_field("lines", &self.lines)?;
            st.serialize_field("bytes", &self.bytes)?;
            st.serialize_field("documents", &p.documents)?;
            st.serialize_field("nodes", &p.nodes)?;
            st.serialize_field("workloads", &p.workloads)?;
            st.serialize_field("taint_lists", &p.taint_lists)?;
            st.serialize_field("toleration_lists", &p.toleration_lists)?;
            st.serialize_field("taint_commands", &p.taint_commands)?;
            st.serialize_field("events", &events)?;
            st.serialize_field("diagnostics", &p.diagnostics)?;
            st.serialize_field("priority_classes", &p.priority_classes)?;
            st.serialize_field("disruption_budgets", &p.disruption_budgets)?;
            st.end()
        }
    }

    impl<'de> Deserialize<'de> for ParsedPane {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let w = Wire::deserialize(d)?;
            Ok(Self {
                kind: w.kind,
                lines: w.lines,
                bytes: w.bytes,
                parsed: Parsed {
                    documents: w.documents,
                    nodes: w.nodes,
                    workloads: w.workloads,
                    taint_lists: w.taint_lists,
                    toleration_lists: w.toleration_lists,
                    taint_commands: w.taint_commands,
                    events: w
                        .events
                        .into_iter()
                        .map(|e| taintlab_input::event::parse_message(&e.message, e.location))
                        .collect(),
                    diagnostics: w.diagnostics,
                    priority_classes: w.priority_classes,
                    disruption_budgets: w.disruption_budgets,
                },
            })
        }
    }
}

/// Two panes plus what they were read from, so [`Panes::set`] re-reads only the pane
/// whose text (or kubectl release) changed.
#[derive(Clone, Debug)]
pub struct Panes {
    nodes: Cached,
    pods: Cached,
}

#[derive(Clone, Debug)]
struct Cached {
    text: String,
    version: KubeVersion,
    pane: ParsedPane,
}

impl Cached {
    fn new(kind: PaneKind) -> Self {
        Self {
            text: String::new(),
            version: KubeVersion::NEWEST,
            pane: ParsedPane::empty(kind),
        }
    }

    fn set(&mut self, text: &str, version: KubeVersion) -> bool {
        if self.text == text && self.version == version {
            return false;
        }
        self.pane = ParsedPane::parse(text, self.pane.kind, version);
        self.text = text.to_string();
        self.version = version;
        true
    }
}

impl Default for Panes {
    fn default() -> Self {
        Self {
            nodes: Cached::new(PaneKind::Nodes),
            pods: Cached::new(PaneKind::Pods),
        }
    }
}

impl Panes {
    /// Both panes empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the text of the Nodes or the Pods pane; true when it was read again
    /// (the text or the release changed). [`PaneKind::Combined`] sets nothing.
    pub fn set(&mut self, kind: PaneKind, text: &str, version: KubeVersion) -> bool {
        match kind {
            PaneKind::Nodes => self.nodes.set(text, version),
            PaneKind::Pods => self.pods.set(text, version),
            PaneKind::Combined => false,
        }
    }

    /// The Nodes pane.
    pub fn nodes(&self) -> &ParsedPane {
        &self.nodes.pane
    }

    /// The Pods pane.
    pub fn pods(&self) -> &ParsedPane {
        &self.pods.pane
    }

    /// The scenario of both panes.
    pub fn scenario(&self, options: &crate::Options) -> crate::Scenario {
        crate::Scenario::build(&[self.nodes(), self.pods()], options)
    }

    /// The scenario of both panes for a what-if run
    /// ([`crate::Scenario::build_for_what_if`]).
    pub fn what_if_scenario(&self, options: &crate::Options) -> crate::Scenario {
        crate::Scenario::build_for_what_if(&[self.nodes(), self.pods()], options)
    }
}

/// Splits one combined text into the two playground panes (for "open in playground"):
/// each document goes to the Nodes pane when it holds nodes, bare taints or `kubectl
/// taint` lines, otherwise to the Pods pane when it holds pods, bare tolerations,
/// PodDisruptionBudgets or PriorityClasses; documents holding none of these (events,
/// unreadable text) are left out. `kubectl taint`
/// lines that follow each other are joined without a document separator.
pub fn split_combined(text: &str, parsed: &Parsed) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let mut nodes: Vec<(String, Form)> = Vec::new();
    let mut pods: Vec<(String, Form)> = Vec::new();
    for d in &parsed.documents {
        let i = d.index;
        let holds_nodes = parsed.nodes.iter().any(|n| n.location.document == i)
            || parsed.taint_lists.iter().any(|l| l.location.document == i)
            || parsed
                .taint_commands
                .iter()
                .any(|c| c.location.document == i);
        // PodDisruptionBudgets and PriorityClasses are about pods (what-if drains wait
        // for budgets, preemption reads priorities): they go with the pods, not lost.
        let holds_pods = parsed.workloads.iter().any(|w| w.location.document == i)
            || parsed
                .toleration_lists
                .iter()
                .any(|l| l.location.document == i)
            || parsed
                .disruption_budgets
                .iter()
                .any(|b| b.location.document == i)
            || parsed
                .priority_classes
                .iter()
                .any(|c| c.location.document == i);
        let from = d.line.saturating_sub(1).min(lines.len());
        let to = d.end_line.min(lines.len()).max(from);
        let body = lines.get(from..to).unwrap_or_default().join("\n");
        if holds_nodes {
            nodes.push((body, d.form));
        } else if holds_pods {
            pods.push((body, d.form));
        }
    }
    let join = |docs: Vec<(String, Form)>| {
        let mut s = String::new();
        let mut last: Option<Form> = None;
        for (body, form) in docs {
            match last {
                None => {}
                Some(Form::KubectlTaint) if form == Form::KubectlTaint => s.push('\n'),
                Some(_) => s.push_str("\n---\n"),
            }
            s.push_str(&body);
            last = Some(form);
        }
        if !s.is_empty() {
            s.push('\n');
        }
        s
    };
    (join(nodes), join(pods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panes_are_read_again_only_when_their_text_changes() {
        let mut p = Panes::new();
        let v = KubeVersion::NEWEST;
        assert!(p.set(
            PaneKind::Nodes,
            "kubectl taint nodes n1 a=b:NoSchedule\n",
            v
        ));
        assert!(!p.set(
            PaneKind::Nodes,
            "kubectl taint nodes n1 a=b:NoSchedule\n",
            v
        ));
        assert!(p.set(PaneKind::Pods, "tolerations: [{operator: Exists}]\n", v));
        assert_eq!(p.nodes().parsed.taint_commands.len(), 1);
        assert_eq!(p.pods().parsed.toleration_lists.len(), 1);
        assert!(p.set(PaneKind::Nodes, "", v));
        assert!(p.nodes().is_empty());
        assert!(!p.set(PaneKind::Combined, "x", v));
    }

    #[test]
    fn the_pane_decides_how_bare_objects_read() {
        let text = "key: a\nvalue: b\neffect: NoSchedule\n";
        let v = KubeVersion::NEWEST;
        let n = ParsedPane::parse(text, PaneKind::Nodes, v);
        let p = ParsedPane::parse(text, PaneKind::Pods, v);
        assert_eq!(n.parsed.taint_lists.len(), 1);
        assert_eq!(p.parsed.toleration_lists.len(), 1);
        assert_eq!((n.lines, n.bytes), (3, text.len()));
    }

    #[test]
    fn a_combined_text_splits_into_panes() {
        let text = "kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n2 c=d:NoExecute\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\n";
        let pane = ParsedPane::parse(text, PaneKind::Combined, KubeVersion::NEWEST);
        let (nodes, pods) = split_combined(text, &pane.parsed);
        assert_eq!(
            nodes,
            "kubectl taint nodes n1 a=b:NoSchedule\nkubectl taint nodes n2 c=d:NoExecute\n"
        );
        assert!(
            pods.contains("kind: Pod") && !pods.contains("kubectl"),
            "{pods}"
        );
    }

    #[test]
    fn budgets_and_priority_classes_go_with_the_pods() {
        let text = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\nspec: {minAvailable: 1, selector: {matchLabels: {app: web}}}\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n";
        let pane = ParsedPane::parse(text, PaneKind::Combined, KubeVersion::NEWEST);
        assert_eq!(pane.parsed.disruption_budgets.len(), 1);
        assert_eq!(pane.parsed.priority_classes.len(), 1);
        let (nodes, pods) = split_combined(text, &pane.parsed);
        assert!(nodes.contains("kind: Node") && !nodes.contains("PodDisruptionBudget"));
        assert!(
            pods.contains("kind: PodDisruptionBudget") && pods.contains("kind: PriorityClass"),
            "{pods}"
        );
        let again = ParsedPane::parse(&pods, PaneKind::Pods, KubeVersion::NEWEST);
        assert_eq!(again.parsed.disruption_budgets.len(), 1);
        assert_eq!(again.parsed.priority_classes.len(), 1);
    }

    #[test]
    fn limits_are_the_input_layers() {
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
        let p = ParsedPane::parse(bomb, PaneKind::Pods, KubeVersion::NEWEST);
        assert!(
            p.errors()
                .any(|d| d.code == taintlab_input::Code::AliasBomb),
            "{:?}",
            p.parsed.diagnostics
        );
    }
}
