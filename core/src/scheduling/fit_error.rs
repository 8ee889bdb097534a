//! The FailedScheduling message: `FitError.Error()` (`pkg/scheduler/framework/types.go`),
//! the DefaultPreemption post-filter text and the event the scheduler records
//! (`pkg/scheduler/schedule_one.go`, `handleSchedulingFailure`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::model::PreemptionPolicy;
use crate::name_map::NameMap;
use crate::version::KubeVersion;

/// `ErrNoNodesAvailable`: the whole message when the cluster has no nodes at all.
pub const NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";
/// The reason DefaultPreemption gives every node where removing pods cannot help
/// (every UnschedulableAndUnresolvable node, so every taint or cordon failure).
pub const PREEMPTION_NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// The reason DefaultPreemption gives a node where the victim search failed.
pub const NO_PREEMPTION_VICTIMS: &str = "No preemption victims found for incoming pod";
/// `PodEligibleToPreemptOthers` for `preemptionPolicy: Never` (the period is upstream's).
pub const PREEMPTION_POLICY_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
/// DefaultPreemption's prefix on its post-filter message.
pub const PREEMPTION_PREFIX: &str = "preemption: ";
/// Adds `count` to `reason`'s entry.
fn add_count(counts: &mut NameMap<usize>, reason: &str, count: usize) {
    let n = counts.get_or_insert(reason, 0);
    *n = n.saturating_add(count);
}

/// `validation.NoteLengthLimit`: the longest event message, in bytes.
pub const EVENT_MESSAGE_LIMIT: usize = 1024;
/// What replaces the last bytes of a truncated event message.
pub const EVENT_TRUNCATION_SUFFIX: &str = " ...";

/// A `FitError`: the node count, the per-node filter reasons as a histogram, and the
/// pre- and post-filter messages.
///
/// Nodes with identical reasons can be recorded in one call ([`FitError::record_nodes`]),
/// which is what makes the cluster-scale evaluation cheap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FitError {
    /// `NumAllNodes`.
    pub num_all_nodes: usize,
    /// Reason → number of recorded nodes that gave it, in reason order (a [`NameMap`]:
    /// a FitError has a handful of reasons).
    pub reasons: NameMap<usize>,
    /// How many nodes were recorded explicitly (`NodeToStatus.Len()`).
    pub recorded_nodes: usize,
    /// Reasons of the shared status of nodes never recorded (`AbsentNodesStatus`);
    /// each counts `num_all_nodes - recorded_nodes` times. Empty by default, as in
    /// `NewDefaultNodeToStatus`.
    pub absent_nodes_reasons: Vec<String>,
    /// `Diagnosis.PreFilterMsg`; when set, the histogram is not printed.
    pub pre_filter_msg: String,
    /// `Diagnosis.PostFilterMsg`: the PostFilter plugins' messages joined with `", "`.
    pub post_filter_msg: String,
}

impl FitError {
    /// A FitError over `num_all_nodes` nodes with nothing recorded yet.
    pub fn new(num_all_nodes: usize) -> Self {
        Self {
            num_all_nodes,
            ..Self::default()
        }
    }

    /// Records one node's status reasons (every reason of its first failing filter).
    pub fn record_node<S: AsRef<str>>(&mut self, reasons: &[S]) {
        self.record_nodes(1, reasons);
    }

    /// Records `nodes` nodes that all failed with the same reasons.
    pub fn record_nodes<S: AsRef<str>>(&mut self, nodes: usize, reasons: &[S]) {
        self.recorded_nodes = self.recorded_nodes.saturating_add(nodes);
        for reason in reasons {
            self.add_reason_count(reason.as_ref(), nodes);
        }
    }

    /// Adds `count` to one reason's bucket without changing the number of recorded nodes.
    /// A zero count adds nothing (upstream counts node by node, so it has no empty buckets).
    pub fn add_reason_count(&mut self, reason: &str, count: usize) {
        if count == 0 {
            return;
        }
        add_count(&mut self.reasons, reason, count);
    }

    /// The histogram entries `"<count> <reason>"`, sorted as strings (so `"10 …"` sorts
    /// before `"2 …"`), including the absent nodes' share.
    pub fn histogram(&self) -> Vec<String> {
        let mut counts = self.reasons.clone();
        if self.recorded_nodes < self.num_all_nodes {
            let absent = self.num_all_nodes - self.recorded_nodes;
            for reason in &self.absent_nodes_reasons {
                add_count(&mut counts, reason, absent);
            }
        }
        let mut items: Vec<String> = counts
            .iter()
            .map(|(reason, count)| format!("{count} {reason}"))
            .collect();
        // Upstream quirk: Go's sort.Strings on the whole "<count> <reason>" text.
        crate::sort::sort(&mut items);
        items
    }

    /// `FitError.Error()` as `version` prints it (`pkg/scheduler/framework/types.go`,
    /// read at the v1.25.0 … v1.30.0 tags):
    ///
    /// * up to v1.25: `": %v."` around the histogram (printed even when empty, so an
    ///   empty one leaves `": ."`), no PreFilter sentence (the PreFilter status is
    ///   recorded on every node instead), then `" " + postFilterMsg`;
    /// * v1.26 – v1.28 (PR #110894): the PreFilter sentence, the histogram and the
    ///   post-filter message each appended with `" %v."`, so a PreFilter sentence is
    ///   followed by the histogram and DefaultPreemption's text ends in `..`;
    /// * v1.29 on: the PreFilter sentence *instead of* the histogram, and the
    ///   post-filter message appended with `" %v"`.
    pub fn message(&self, version: KubeVersion) -> String {
        let mut msg = format!("0/{} nodes are available:", self.num_all_nodes);
        match FitErrorLayout::for_version(version) {
            FitErrorLayout::V1_25 => {
                msg.push(' ');
                msg.push_str(&self.histogram().join(", "));
                msg.push('.');
                if !self.post_filter_msg.is_empty() {
                    msg.push(' ');
                    msg.push_str(&self.post_filter_msg);
                }
            }
            FitErrorLayout::V1_26 => {
                if !self.pre_filter_msg.is_empty() {
                    let _ = write!(msg, " {}.", self.pre_filter_msg);
                }
                let items = self.histogram();
                if !items.is_empty() {
                    let _ = write!(msg, " {}.", items.join(", "));
                }
                if !self.post_filter_msg.is_empty() {
                    let _ = write!(msg, " {}.", self.post_filter_msg);
                }
            }
            FitErrorLayout::V1_29 => {
                if !self.pre_filter_msg.is_empty() {
                    // The framework copied the PreFilter status to every node, so the
                    // histogram would only repeat it.
                    let _ = write!(msg, " {}.", self.pre_filter_msg);
                } else {
                    let items = self.histogram();
                    if !items.is_empty() {
                        let _ = write!(msg, " {}.", items.join(", "));
                    }
                }
                if !self.post_filter_msg.is_empty() {
                    msg.push(' ');
                    msg.push_str(&self.post_filter_msg);
                }
            }
        }
        msg
    }
}

/// The three shapes of `FitError.Error()` (see [`FitError::message`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FitErrorLayout {
    /// Up to v1.25: histogram with `": %v."`, no PreFilter sentence, post-filter text
    /// after a plain space.
    V1_25,
    /// v1.26 – v1.28: PreFilter sentence, histogram and post-filter text each with
    /// `" %v."`.
    V1_26,
    /// v1.29 on: PreFilter sentence or histogram, post-filter text with `" %v"`.
    V1_29,
}

impl FitErrorLayout {
    /// The layout `version` prints.
    pub fn for_version(version: KubeVersion) -> Self {
        match version.minor {
            ..=25 => Self::V1_25,
            26..=28 => Self::V1_26,
            _ => Self::V1_29,
        }
    }

    /// Whether the release has `Diagnosis.PreFilterMsg` (from v1.26). Before, a
    /// PreFilter rejection is only seen through the per-node histogram.
    pub fn has_pre_filter_msg(self) -> bool {
        self != Self::V1_25
    }
}

/// Whether `version` appends the post-filter message with `" %v."` (see
/// [`FitError::message`]): v1.26 – v1.28.
pub fn post_filter_separator_adds_period(version: KubeVersion) -> bool {
    FitErrorLayout::for_version(version) == FitErrorLayout::V1_26
}

/// DynamicResources' PostFilter answer for a pod without resource claims
/// (`plugins/dynamicresources`, `PostFilter`: the "fast path").
pub const NO_NEW_CLAIMS_TO_DEALLOCATE: &str = "no new claims to deallocate";

/// Whether the DynamicResources plugin is in the default profile: only when the
/// `DynamicResourceAllocation` gate is on (`applyFeatureGates` in
/// `pkg/scheduler/apis/config/v1/default_plugins.go` inserts it before
/// DefaultPreemption).
///
/// The gate (`pkg/features/kube_features.go`): alpha and off in 1.26 – 1.31, beta and
/// still off in 1.32 – 1.33, GA and on in 1.34, locked on from 1.35. `configured` is an
/// explicit gate setting; it is ignored where the plugin does not exist (≤ 1.25) or the
/// gate is locked on (≥ 1.35).
pub fn dynamic_resources_enabled(version: KubeVersion, configured: Option<bool>) -> bool {
    match version.minor {
        ..=25 => false,
        26..=34 => configured.unwrap_or(version.minor >= 34),
        _ => true,
    }
}

/// The post-filter message when every PostFilter plugin fails: DynamicResources' text
/// (when the plugin is in the profile) and DefaultPreemption's, joined with `", "`, in
/// profile order (`RunPostFilterPlugins`).
///
/// Upstream quirk: v1.26 – v1.28 merged the two statuses through a map
/// (`PluginToStatus.Merge`), so with the gate switched on there the order of the two
/// parts was random; this model keeps profile order.
pub fn post_filter_message(preemption: &str, dynamic_resources: bool) -> String {
    if dynamic_resources {
        let mut msg = String::from(NO_NEW_CLAIMS_TO_DEALLOCATE);
        if !preemption.is_empty() {
            msg.push_str(", ");
            msg.push_str(preemption);
        }
        msg
    } else {
        String::from(preemption)
    }
}

/// DefaultPreemption's post-filter message when no preemption candidate exists.
///
/// * `preemptionPolicy: Never`: `preemption: not eligible due to preemptionPolicy=Never.`
/// * Otherwise a nested FitError over all nodes: `nodes_without_victims` nodes (those
///   that failed only with `Unschedulable` and where the victim search found nothing)
///   report [`NO_PREEMPTION_VICTIMS`], every other node is absent and reports
///   [`PREEMPTION_NOT_HELPFUL`]. Taint and cordon failures are UnschedulableAndUnresolvable,
///   so for them `nodes_without_victims` is 0.
pub fn preemption_message(
    policy: &PreemptionPolicy,
    num_all_nodes: usize,
    nodes_without_victims: usize,
    version: KubeVersion,
) -> String {
    let mut msg = String::from(PREEMPTION_PREFIX);
    if *policy == PreemptionPolicy::Never {
        msg.push_str(PREEMPTION_POLICY_NEVER);
        return msg;
    }
    let mut nested = FitError::new(num_all_nodes);
    nested.record_nodes(
        nodes_without_victims.min(num_all_nodes),
        &[NO_PREEMPTION_VICTIMS],
    );
    nested
        .absent_nodes_reasons
        .push(String::from(PREEMPTION_NOT_HELPFUL));
    msg.push_str(&nested.message(version));
    msg
}

/// The event the scheduler records, and the pod condition it sets, when a pod does not fit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FailedScheduling {
    /// Event type: `Warning`.
    pub event_type: &'static str,
    /// Event reason: `FailedScheduling`.
    pub reason: &'static str,
    /// Event action: `Scheduling`.
    pub action: &'static str,
    /// The event message, truncated to [`EVENT_MESSAGE_LIMIT`] bytes.
    pub message: String,
    /// `PodScheduled=False` reason: `Unschedulable` for a FitError, `SchedulerError`
    /// otherwise (an empty cluster).
    pub condition_reason: &'static str,
    /// The condition message: the full, untruncated text.
    pub condition_message: String,
}

impl FailedScheduling {
    /// The event for a FitError message (pod condition reason `Unschedulable`).
    pub fn unschedulable(message: String) -> Self {
        Self::build(message, "Unschedulable")
    }

    /// The event for an empty cluster (`no nodes available to schedule pods`, condition
    /// reason `SchedulerError`, and no PostFilter run).
    pub fn no_nodes() -> Self {
        Self::build(String::from(NO_NODES_AVAILABLE), "SchedulerError")
    }

    fn build(condition_message: String, condition_reason: &'static str) -> Self {
        Self {
            event_type: "Warning",
            reason: "FailedScheduling",
            action: "Scheduling",
            message: truncate_event_message(&condition_message),
            condition_reason,
            condition_message,
        }
    }
}

/// `truncateMessage`: messages longer than 1024 bytes keep their first 1020 bytes and
/// get `" ..."` appended.
///
/// Upstream slices the Go string at byte 1020 and can split a multi-byte UTF-8
/// character; the dangling bytes are then invalid UTF-8 and show as one U+FFFD per
/// byte once the Event is served as JSON. A Rust `String` cannot hold them, so the
/// cut moves back to the previous character boundary: the result differs from
/// upstream only in that case, and is then 1 to 3 bytes shorter than 1024.
pub fn truncate_event_message(message: &str) -> String {
    if message.len() <= EVENT_MESSAGE_LIMIT {
        return String::from(message);
    }
    let mut cut = EVENT_MESSAGE_LIMIT - EVENT_TRUNCATION_SUFFIX.len();
    while !message.is_char_boundary(cut) {
        cut -= 1; // terminates: 0 is always a boundary
    }
    let mut out = String::with_capacity(cut + EVENT_TRUNCATION_SUFFIX.len());
    out.push_str(message.get(..cut).unwrap_or(""));
    out.push_str(EVENT_TRUNCATION_SUFFIX);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const NEWEST: KubeVersion = KubeVersion::NEWEST;

    #[test]
    fn histogram_sorts_as_strings() {
        let mut fe = FitError::new(12);
        fe.record_nodes(10, &["node(s) had untolerated taint(s)"]);
        fe.record_nodes(2, &["Insufficient cpu"]);
        assert_eq!(
            fe.message(NEWEST),
            "0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 Insufficient cpu."
        );
    }

    #[test]
    fn every_reason_of_a_node_counts() {
        let mut fe = FitError::new(2);
        fe.record_node(&["Insufficient cpu", "Insufficient memory"]);
        fe.record_node(&["Insufficient cpu"]);
        assert_eq!(
            fe.message(NEWEST),
            "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu."
        );
    }

    #[test]
    fn pre_filter_message_replaces_histogram() {
        let mut fe = FitError::new(3);
        fe.record_nodes(3, &["ignored"]);
        fe.pre_filter_msg = "pod has unbound immediate PersistentVolumeClaims".into();
        assert_eq!(
            fe.message(NEWEST),
            "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."
        );
    }

    #[test]
    fn absent_nodes_share_one_status() {
        let mut fe = FitError::new(5);
        fe.record_node(&["a"]);
        fe.absent_nodes_reasons = vec!["b".into()];
        assert_eq!(fe.message(NEWEST), "0/5 nodes are available: 1 a, 4 b.");
        // Without absent reasons only the recorded node shows.
        fe.absent_nodes_reasons.clear();
        assert_eq!(fe.message(NEWEST), "0/5 nodes are available: 1 a.");
        assert_eq!(FitError::new(0).message(NEWEST), "0/0 nodes are available:");
    }

    #[test]
    fn preemption_not_helpful_and_double_period_by_version() {
        let mut fe = FitError::new(3);
        fe.record_nodes(3, &["node(s) had untolerated taint(s)"]);
        fe.post_filter_msg =
            preemption_message(&PreemptionPolicy::PreemptLowerPriority, 3, 0, NEWEST);
        assert_eq!(
            fe.message(NEWEST),
            "0/3 nodes are available: 3 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
        );
        let v126 = KubeVersion::new(26, 1);
        fe.post_filter_msg =
            preemption_message(&PreemptionPolicy::PreemptLowerPriority, 3, 0, v126);
        assert!(
            fe.message(v126)
                .ends_with("3 Preemption is not helpful for scheduling..")
        );
        for (minor, double) in [
            (24, false),
            (25, false),
            (26, true),
            (28, true),
            (29, false),
            (30, false),
            (36, false),
        ] {
            assert_eq!(
                post_filter_separator_adds_period(KubeVersion::new(minor, 0)),
                double,
                "1.{minor}"
            );
        }
    }

    #[test]
    fn preemption_policy_never_and_victims() {
        assert_eq!(
            preemption_message(&PreemptionPolicy::Never, 3, 0, NEWEST),
            "preemption: not eligible due to preemptionPolicy=Never."
        );
        assert_eq!(
            preemption_message(&PreemptionPolicy::PreemptLowerPriority, 3, 1, NEWEST),
            "preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
        );
        let mut fe = FitError::new(1);
        fe.record_node(&["Insufficient cpu"]);
        fe.post_filter_msg = preemption_message(&PreemptionPolicy::Never, 1, 0, NEWEST);
        assert_eq!(
            fe.message(KubeVersion::new(28, 0)),
            "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.."
        );
    }

    #[test]
    fn truncation_is_byte_based_and_utf8_safe() {
        let short = "x".repeat(1024);
        assert_eq!(truncate_event_message(&short), short);
        let long = "x".repeat(1025);
        let t = truncate_event_message(&long);
        assert_eq!(t.len(), 1024);
        assert!(t.ends_with("xx ..."));
        // A 3-byte character straddling byte 1020: cut before it.
        let mut s = "x".repeat(1019);
        s.push('€');
        s.push_str(&"y".repeat(10));
        let t = truncate_event_message(&s);
        assert_eq!(t, format!("{} ...", "x".repeat(1019)));
        assert_eq!(t.len(), 1023);
        // All multi-byte input never panics.
        for c in ['é', '€', '𝄞'] {
            let s: String = core::iter::repeat_n(c, 600).collect();
            let t = truncate_event_message(&s);
            assert!(t.len() <= 1024 && t.len() >= 1020 - 3 + 4);
            assert!(t.ends_with(" ..."));
        }
    }

    #[test]
    fn event_shape() {
        let ev = FailedScheduling::unschedulable("m".repeat(2000));
        assert_eq!(
            (ev.event_type, ev.reason, ev.action),
            ("Warning", "FailedScheduling", "Scheduling")
        );
        assert_eq!(ev.message.len(), 1024);
        assert_eq!(ev.condition_message.len(), 2000);
        assert_eq!(ev.condition_reason, "Unschedulable");
        let none = FailedScheduling::no_nodes();
        assert_eq!(none.message, NO_NODES_AVAILABLE);
        assert_eq!(none.condition_reason, "SchedulerError");
    }
}
