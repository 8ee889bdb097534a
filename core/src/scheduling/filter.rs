//! The scheduler's Filter plugins that look at taints: NodeUnschedulable and
//! TaintToleration (`pkg/scheduler/framework/plugins/{nodeunschedulable,tainttoleration}`),
//! run in the default profile's order.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::helpers::{TaintFilter, find_matching_untolerated_taint, tolerations_tolerate_taint};
use crate::model::{Node, Pod, Taint, TaintEffect, Toleration, keys};
use crate::version::{KubeVersion, Semantics};

/// `node(s) were unschedulable`: NodeUnschedulable's reason (`ErrReasonUnschedulable`).
pub const NODE_UNSCHEDULABLE_REASON: &str = "node(s) were unschedulable";
/// `node(s) had unknown conditions`: NodeUnschedulable's reason for a missing node.
pub const NODE_UNKNOWN_CONDITION_REASON: &str = "node(s) had unknown conditions";
/// The TaintToleration reason up to v1.17, still the plugin's `ErrReasonNotMatch`
/// constant (the kubelet keeps using it, see [`super::kubelet`]).
pub const TAINTS_NOT_TOLERATED_REASON: &str = "node(s) had taints that the pod didn't tolerate";
/// The generic TaintToleration reason of v1.35+ and 1.34.3+.
pub const UNTOLERATED_TAINTS_REASON: &str = "node(s) had untolerated taint(s)";

/// A scheduler framework status code (the subset these plugins return).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The node passes.
    Success,
    /// The node fails, and preemption might help.
    Unschedulable,
    /// The node fails, and preemption cannot help (every taint or cordon failure).
    UnschedulableAndUnresolvable,
}

impl Code {
    /// The framework's name for the code.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Success => "Success",
            Self::Unschedulable => "Unschedulable",
            Self::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A framework `Status`: a code and the reasons counted in the FailedScheduling message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Status {
    /// The code.
    pub code: Code,
    /// The reasons; empty on success.
    pub reasons: Vec<String>,
}

impl Status {
    /// Success with no reasons (upstream's `nil` status).
    pub fn success() -> Self {
        Self {
            code: Code::Success,
            reasons: Vec::new(),
        }
    }

    /// A failure with one reason.
    pub fn rejected(code: Code, reason: impl Into<String>) -> Self {
        Self {
            code,
            reasons: vec![reason.into()],
        }
    }

    /// True for [`Code::Success`].
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }

    /// `Status.Message()`: the reasons joined with `", "`.
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}

/// Which text a release prints for a node rejected by TaintToleration
/// (`ErrReasonNotMatch` and the `Filter` status of
/// `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaintReasonText {
    /// Up to v1.17: `node(s) had taints that the pod didn't tolerate`.
    V1_17,
    /// v1.18 to v1.23 (PR #87250): `node(s) had taint {<key>: <value>}, that the pod didn't tolerate`.
    V1_18,
    /// v1.24 to 1.34.2 (PR #109119, first shipped in v1.24.0):
    /// `node(s) had untolerated taint {<key>: <value>}`.
    V1_25,
    /// v1.35+ and 1.34.3+ (PR #134740, cherry-pick #135023): `node(s) had untolerated taint(s)`.
    V1_35,
}

impl TaintReasonText {
    /// The text used by `version`.
    pub fn for_version(version: KubeVersion) -> Self {
        if version.minor <= 17 {
            Self::V1_17
        } else if version.minor <= 23 {
            Self::V1_18
        } else if version >= KubeVersion::GENERIC_TAINT_MESSAGE_1_34 {
            Self::V1_35
        } else {
            Self::V1_25
        }
    }

    /// Whether the text names the taint. When it does, the FailedScheduling histogram
    /// has one bucket per distinct first untolerated taint.
    pub fn names_taint(self) -> bool {
        matches!(self, Self::V1_18 | Self::V1_25)
    }

    /// Appends the reason for `first_untolerated` to `out`.
    pub fn write(self, out: &mut String, first_untolerated: &Taint) {
        match self {
            Self::V1_17 => out.push_str(TAINTS_NOT_TOLERATED_REASON),
            Self::V1_18 => {
                out.push_str("node(s) had taint ");
                write_key_value(out, first_untolerated);
                out.push_str(", that the pod didn't tolerate");
            }
            Self::V1_25 => {
                out.push_str("node(s) had untolerated taint ");
                write_key_value(out, first_untolerated);
            }
            Self::V1_35 => out.push_str(UNTOLERATED_TAINTS_REASON),
        }
    }

    /// The reason for `first_untolerated` as a new string.
    pub fn render(self, first_untolerated: &Taint) -> String {
        let mut s = String::new();
        self.write(&mut s, first_untolerated);
        s
    }
}

/// `{<key>: <value>}`, Go's `fmt.Sprintf("{%s: %s}")`; an empty value leaves `{key: }`.
fn write_key_value(out: &mut String, taint: &Taint) {
    out.push('{');
    out.push_str(&taint.key);
    out.push_str(": ");
    out.push_str(&taint.value);
    out.push('}');
}

/// The TaintToleration reason `version` prints when `first_untolerated` is the first
/// NoSchedule/NoExecute taint in node order that the pod does not tolerate.
pub fn untolerated_taint_reason(first_untolerated: &Taint, version: KubeVersion) -> String {
    TaintReasonText::for_version(version).render(first_untolerated)
}

/// The outcome of the TaintToleration Filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintTolerationFilter<'a> {
    /// Success, or UnschedulableAndUnresolvable with the version's reason.
    pub status: Status,
    /// The first NoSchedule/NoExecute taint, in node order, that no toleration tolerates.
    pub first_untolerated: Option<&'a Taint>,
}

/// TaintToleration `Filter`: only NoSchedule and NoExecute taints count, PreferNoSchedule
/// never filters, and `tolerationSeconds` does not matter.
pub fn taint_toleration_filter<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    semantics: Semantics,
) -> TaintTolerationFilter<'a> {
    let first_untolerated = find_matching_untolerated_taint(
        taints,
        tolerations,
        TaintFilter::NoScheduleOrNoExecute,
        semantics.comparison_operators_enabled(),
    );
    let status = match first_untolerated {
        None => Status::success(),
        Some(taint) => Status::rejected(
            Code::UnschedulableAndUnresolvable,
            untolerated_taint_reason(taint, semantics.version),
        ),
    };
    TaintTolerationFilter {
        status,
        first_untolerated,
    }
}

/// The synthetic taint NodeUnschedulable checks tolerations against:
/// `node.kubernetes.io/unschedulable:NoSchedule` with an empty value.
pub fn unschedulable_taint() -> Taint {
    Taint::new(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule)
}

/// Whether the tolerations tolerate [`unschedulable_taint`]. Because its value is empty,
/// `Equal` with value `true` does not.
pub fn tolerates_unschedulable(tolerations: &[Toleration], gate: bool) -> bool {
    tolerations_tolerate_taint(tolerations, &unschedulable_taint(), gate)
}

/// NodeUnschedulable `Filter`: a cordoned node rejects pods that do not tolerate the
/// synthetic unschedulable taint.
pub fn node_unschedulable_filter(
    unschedulable: bool,
    tolerations: &[Toleration],
    semantics: Semantics,
) -> Status {
    if !unschedulable
        || tolerates_unschedulable(tolerations, semantics.comparison_operators_enabled())
    {
        Status::success()
    } else {
        Status::rejected(
            Code::UnschedulableAndUnresolvable,
            NODE_UNSCHEDULABLE_REASON,
        )
    }
}

/// The Filter plugins modelled here, in the default profile's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FilterPlugin {
    /// `NodeUnschedulable`, first in the default order.
    NodeUnschedulable,
    /// `NodeName`, second: `spec.nodeName` must be empty or this node's name.
    NodeName,
    /// `TaintToleration`, after NodeUnschedulable and NodeName.
    TaintToleration,
    /// `NodeAffinity`: `spec.nodeSelector` and required node affinity.
    NodeAffinity,
    /// `NodePorts`: the pod's host ports must be free on the node.
    NodePorts,
    /// `NodeResourcesFit`: the pod's requests must fit the node's allocatable minus
    /// what its pods request, and one more pod must be allowed.
    NodeResourcesFit,
}

impl FilterPlugin {
    /// The modelled Filter plugins in the default profile's order
    /// (`pkg/scheduler/apis/config/v1/default_plugins.go`).
    pub const DEFAULT_ORDER: [FilterPlugin; 6] = [
        Self::NodeUnschedulable,
        Self::NodeName,
        Self::TaintToleration,
        Self::NodeAffinity,
        Self::NodePorts,
        Self::NodeResourcesFit,
    ];

    /// The plugin's registered name.
    pub fn name(self) -> &'static str {
        match self {
            Self::NodeUnschedulable => "NodeUnschedulable",
            Self::NodeName => "NodeName",
            Self::TaintToleration => "TaintToleration",
            Self::NodeAffinity => "NodeAffinity",
            Self::NodePorts => "NodePorts",
            Self::NodeResourcesFit => "NodeResourcesFit",
        }
    }
}

/// What the filters say about one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFilterResult<'a> {
    /// The first plugin that failed; `None` when the node passes.
    pub rejected_by: Option<FilterPlugin>,
    /// That plugin's status (its reasons are this node's reasons in the histogram).
    pub status: Status,
    /// Set when TaintToleration rejected the node.
    pub first_untolerated: Option<&'a Taint>,
}

impl NodeFilterResult<'_> {
    /// True when every filter passed.
    pub fn passes(&self) -> bool {
        self.rejected_by.is_none()
    }
}

/// Runs NodeUnschedulable then TaintToleration on one node and stops at the first
/// failure, as the framework does. A cordoned node therefore reports
/// `node(s) were unschedulable`, never its `unschedulable:NoSchedule` taint.
///
/// This is the Filter phase only: a pod with `spec.nodeName` set never gets here
/// (see [`bypasses_scheduler`]).
pub fn run_filters<'a>(pod: &Pod, node: &'a Node, semantics: Semantics) -> NodeFilterResult<'a> {
    let status = node_unschedulable_filter(node.unschedulable, &pod.tolerations, semantics);
    if !status.is_success() {
        return NodeFilterResult {
            rejected_by: Some(FilterPlugin::NodeUnschedulable),
            status,
            first_untolerated: None,
        };
    }
    let tt = taint_toleration_filter(&node.taints, &pod.tolerations, semantics);
    NodeFilterResult {
        rejected_by: (!tt.status.is_success()).then_some(FilterPlugin::TaintToleration),
        status: tt.status,
        first_untolerated: tt.first_untolerated,
    }
}

/// True when the pod was created with `spec.nodeName` set: the scheduler never sees
/// it, so its NoSchedule taints are ignored (only the kubelet and the eviction
/// controller look at its tolerations).
pub fn bypasses_scheduler(pod: &Pod) -> bool {
    !pod.node_name.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Operator;
    use alloc::string::ToString;

    fn taint(k: &str, v: &str, e: TaintEffect) -> Taint {
        Taint::new(k, v, e)
    }
    fn tol(k: &str, op: Operator, v: &str, e: TaintEffect) -> Toleration {
        Toleration::new(k, op, v, e)
    }
    fn at(minor: u16, patch: u16) -> Semantics {
        Semantics::at(KubeVersion::new(minor, patch))
    }

    #[test]
    fn reason_text_boundaries() {
        let t = taint("dedicated", "user1", TaintEffect::NoSchedule);
        let cases = [
            ((1, 0), TAINTS_NOT_TOLERATED_REASON),
            ((17, 9), TAINTS_NOT_TOLERATED_REASON),
            (
                (18, 0),
                "node(s) had taint {dedicated: user1}, that the pod didn't tolerate",
            ),
            (
                (23, 17),
                "node(s) had taint {dedicated: user1}, that the pod didn't tolerate",
            ),
            ((24, 0), "node(s) had untolerated taint {dedicated: user1}"),
            ((25, 0), "node(s) had untolerated taint {dedicated: user1}"),
            ((34, 2), "node(s) had untolerated taint {dedicated: user1}"),
            ((34, 3), UNTOLERATED_TAINTS_REASON),
            ((35, 0), UNTOLERATED_TAINTS_REASON),
            ((36, 4), UNTOLERATED_TAINTS_REASON),
        ];
        for ((minor, patch), want) in cases {
            assert_eq!(
                untolerated_taint_reason(&t, KubeVersion::new(minor, patch)),
                want,
                "1.{minor}.{patch}"
            );
        }
    }

    #[test]
    fn empty_value_prints_key_colon_space() {
        let t = taint(keys::CONTROL_PLANE, "", TaintEffect::NoSchedule);
        assert_eq!(
            untolerated_taint_reason(&t, KubeVersion::new(30, 0)),
            "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"
        );
    }

    #[test]
    fn prefer_no_schedule_never_filters() {
        let taints = [taint("a", "", TaintEffect::PreferNoSchedule)];
        let r = taint_toleration_filter(&taints, &[], Semantics::newest());
        assert!(r.status.is_success());
        assert_eq!(r.first_untolerated, None);
    }

    #[test]
    fn no_execute_with_seconds_tolerates_for_scheduling() {
        let taints = [taint(keys::UNREACHABLE, "", TaintEffect::NoExecute)];
        let tols = [tol(
            keys::UNREACHABLE,
            Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )
        .with_seconds(Some(0))];
        assert!(
            taint_toleration_filter(&taints, &tols, Semantics::newest())
                .status
                .is_success()
        );
    }

    #[test]
    fn first_untolerated_in_node_order_names_legacy_bucket() {
        let taints = [
            taint("p", "x", TaintEffect::PreferNoSchedule),
            taint("b", "2", TaintEffect::NoExecute),
            taint("a", "1", TaintEffect::NoSchedule),
        ];
        let r = taint_toleration_filter(&taints, &[], at(30, 0));
        assert_eq!(r.first_untolerated.map(|t| t.key.as_str()), Some("b"));
        assert_eq!(r.status.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(r.status.message(), "node(s) had untolerated taint {b: 2}");
    }

    #[test]
    fn unschedulable_needs_empty_value_or_exists() {
        let sem = Semantics::newest();
        let equal_true = [tol(
            keys::UNSCHEDULABLE,
            Operator::Equal,
            "true",
            TaintEffect::NoSchedule,
        )];
        assert_eq!(
            node_unschedulable_filter(true, &equal_true, sem).reasons,
            [NODE_UNSCHEDULABLE_REASON]
        );
        let empty_op = [tol(
            keys::UNSCHEDULABLE,
            Operator::Empty,
            "",
            TaintEffect::Empty,
        )];
        assert!(node_unschedulable_filter(true, &empty_op, sem).is_success());
        let wildcard = [tol("", Operator::Exists, "", TaintEffect::Empty)];
        assert!(node_unschedulable_filter(true, &wildcard, sem).is_success());
        let no_execute = [tol(
            keys::UNSCHEDULABLE,
            Operator::Exists,
            "",
            TaintEffect::NoExecute,
        )];
        assert!(!node_unschedulable_filter(true, &no_execute, sem).is_success());
        assert!(node_unschedulable_filter(false, &[], sem).is_success());
    }

    #[test]
    fn cordon_wins_over_taints() {
        let node = Node {
            name: "n".into(),
            unschedulable: true,
            taints: vec![
                taint(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule),
                taint("x", "", TaintEffect::NoSchedule),
            ],
            ..Node::default()
        };
        let r = run_filters(&Pod::default(), &node, Semantics::newest());
        assert_eq!(r.rejected_by, Some(FilterPlugin::NodeUnschedulable));
        assert_eq!(r.status.reasons, [NODE_UNSCHEDULABLE_REASON]);
        assert_eq!(r.first_untolerated, None);

        // Tolerating the cordon moves the failure to TaintToleration.
        let pod = Pod {
            tolerations: vec![tol(
                keys::UNSCHEDULABLE,
                Operator::Exists,
                "",
                TaintEffect::NoSchedule,
            )],
            ..Pod::default()
        };
        let r = run_filters(&pod, &node, Semantics::newest());
        assert_eq!(r.rejected_by, Some(FilterPlugin::TaintToleration));
        assert_eq!(r.first_untolerated.map(|t| t.key.as_str()), Some("x"));
    }

    #[test]
    fn gate_applies_to_the_synthetic_taint_only_from_1_35() {
        // Lt/Gt cannot tolerate an empty value anyway; the gate must not change that.
        let tols = [tol(
            keys::UNSCHEDULABLE,
            Operator::Lt,
            "5",
            TaintEffect::NoSchedule,
        )];
        let on = Semantics::newest().with_comparison_operators(true);
        assert!(!node_unschedulable_filter(true, &tols, on).is_success());
    }

    #[test]
    fn gated_operators_follow_the_release() {
        let taints = [taint("sla", "900", TaintEffect::NoSchedule)];
        let tols = [tol("sla", Operator::Lt, "950", TaintEffect::NoSchedule)];
        let on_35 = Semantics::at(KubeVersion::new(35, 0)).with_comparison_operators(true);
        let on_34 = Semantics::at(KubeVersion::new(34, 5)).with_comparison_operators(true);
        assert!(
            taint_toleration_filter(&taints, &tols, on_35)
                .status
                .is_success()
        );
        assert!(
            !taint_toleration_filter(&taints, &tols, on_34)
                .status
                .is_success()
        );
    }

    #[test]
    fn status_message_joins_reasons() {
        let s = Status {
            code: Code::Unschedulable,
            reasons: vec!["a".into(), "b".into()],
        };
        assert_eq!(s.message(), "a, b");
        assert_eq!(Status::success().message(), "");
        assert_eq!(
            Code::UnschedulableAndUnresolvable.to_string(),
            "UnschedulableAndUnresolvable"
        );
    }
}
