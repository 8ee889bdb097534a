//! Placement beyond taints: the pod spec's `nodeSelector` and required
//! `affinity.nodeAffinity` read from the request, judged against the listed nodes (with
//! their labels) with `taintlab-core`'s own filter functions in the default profile's
//! order, and the per-release FailedScheduling text assembled with core's `FitError`,
//! DynamicResources' post-filter part included from 1.34.
//!
//! The filters, as upstream runs them (`pkg/scheduler/schedule_one.go`,
//! `findNodesThatFitPod`; `framework/runtime/framework.go`, `RunFilterPlugins`):
//! NodeAffinity's PreFilter result (`matchFields metadata.name In`, with each release's
//! treatment of nodes outside it and of conflicting terms), then per node
//! NodeUnschedulable, NodeName, TaintToleration and NodeAffinity, from 1.27 stopping at
//! the first failing plugin (1.25 – 1.26 merge every failure). Every one of these
//! statuses is UnschedulableAndUnresolvable, so DefaultPreemption's dry run only visits
//! the nodes a release leaves without a status, and finds no victims there (no pods are
//! listed). `tests/placement.rs` checks the text against core's full placement chain
//! (`taintlab_core::scheduling::placement_cluster::schedule_placement`) on generated
//! clusters for every release.
//!
//! This path reads only what the policy lists, so the Kubewarden module stays small
//! (the full chain, with resources, ports and the victim search, is about 160 KB of
//! WebAssembly). What the policy does not know, and therefore does not check:
//! * Resources (NodeResourcesFit): the node list is fetched without
//!   `status.allocatable`, and the pods already running on each node would have to be
//!   listed too, which is far too costly at admission time.
//! * Host ports (NodePorts): a host port can only conflict with pods already bound to
//!   the node, which are not listed for the same reason; a pod's own host ports can
//!   never make a node infeasible here, so they are not read.
//! * NodeName: a pod with `spec.nodeName` bypasses the scheduler and is not checked;
//!   for every other pod the filter passes.
//! * Preferred node-affinity terms only score feasible nodes, so they are not read.
//! * `schedulingGates` and `schedulerName`: the policy judges the pod as the default
//!   scheduler will see it once its gates are removed.
//!
//! So "no node accepts this pod" means: no listed node passes the taint, cordon and
//! node-affinity/selector filters; a real scheduler may still reject a node this check
//! accepts (resources, ports, and the plugins the engine does not model).

use std::collections::BTreeMap;

use serde_json::Value;
use taintlab_core::model::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodPlacement};
use taintlab_core::scheduling::filter::{
    Code, Status, node_unschedulable_filter, taint_toleration_filter,
};
use taintlab_core::scheduling::fit_error::{
    FitError, NO_PREEMPTION_VICTIMS, PREEMPTION_NOT_HELPFUL, PREEMPTION_POLICY_NEVER,
    PREEMPTION_PREFIX, dynamic_resources_enabled, post_filter_message,
};
use taintlab_core::scheduling::placement::{
    FILTERED_OUT_BY_PRE_FILTER_REASON, NODE_AFFINITY_CONFLICT_REASON, absent_node_reason,
    node_affinity_filter, node_not_found_error,
};
use taintlab_core::scheduling::selector::{OBJECT_NAME_FIELD, RequiredNodeAffinity};
use taintlab_core::{Node, PreemptionPolicy, Semantics, Toleration};

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

fn requirements(v: Option<&Value>) -> Vec<NodeSelectorRequirement> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|r| NodeSelectorRequirement {
                    key: str_of(r.get("key")),
                    operator: str_of(r.get("operator")),
                    values: strings(r.get("values")),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_default()
}

fn term(v: &Value) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: requirements(v.get("matchExpressions")),
        match_fields: requirements(v.get("matchFields")),
    }
}

/// What the filters read of a pod's placement fields: `spec.nodeSelector` and the
/// required node affinity (core's `PodPlacement` carries much more, which the policy
/// never reads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// `spec.nodeSelector`.
    pub node_selector: BTreeMap<String, String>,
    /// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub required: Option<NodeSelector>,
}

impl From<&PodPlacement> for Placement {
    fn from(p: &PodPlacement) -> Self {
        Self {
            node_selector: p.node_selector.clone(),
            required: p.required_node_affinity().cloned(),
        }
    }
}

/// Reads `nodeSelector` and the required `affinity.nodeAffinity` of a pod spec (what
/// the filters read; preferred terms only score, see the module documentation). The
/// apiserver has decoded the object already, so values of a wrong type cannot occur in
/// a real request; here they are skipped.
pub fn pod_placement(spec: Option<&Value>) -> Placement {
    let mut p = Placement::default();
    let Some(spec) = spec else { return p };
    if let Some(sel) = spec.get("nodeSelector").and_then(Value::as_object) {
        let mut map = BTreeMap::new();
        for (k, v) in sel {
            if let Some(v) = v.as_str() {
                map.insert(k.clone(), String::from(v));
            }
        }
        p.node_selector = map;
    }
    let Some(required) = spec
        .get("affinity")
        .and_then(|a| a.get("nodeAffinity"))
        .and_then(|n| n.get("requiredDuringSchedulingIgnoredDuringExecution"))
        .filter(|v| v.is_object())
    else {
        return p;
    };
    let terms = required
        .get("nodeSelectorTerms")
        .and_then(Value::as_array)
        .map(|ts| ts.iter().map(term).collect())
        .unwrap_or_default();
    p.required = Some(NodeSelector {
        node_selector_terms: terms,
    });
    p
}

/// Whether the placement restricts nodes by label or name (a `nodeSelector` or a
/// required node affinity): only then do the node labels matter to feasibility.
pub fn restricts_nodes(p: &Placement) -> bool {
    !p.node_selector.is_empty() || p.required.is_some()
}

/// Whether the pod spec has a `nodeSelector` or a required node affinity (so the node
/// list must carry labels).
pub fn spec_restricts_nodes(spec: Option<&Value>) -> bool {
    spec.is_some_and(|s| {
        s.get("nodeSelector")
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty())
            || s.get("affinity")
                .and_then(|a| a.get("nodeAffinity"))
                .and_then(|n| n.get("requiredDuringSchedulingIgnoredDuringExecution"))
                .is_some_and(Value::is_object)
    })
}

/// What the filters say about one node.
enum Judged {
    Feasible,
    /// The merged status of the failing filters (from 1.27 only the first).
    Rejected(Status),
    /// Outside NodeAffinity's PreFilter result.
    Cut,
    /// NodeAffinity's PreFilter rejected the pod (`pod affinity terms conflict`).
    PreFilterRejected,
}

/// The cycle's answer before the message is written.
enum Cycle {
    /// The scheduler fails the cycle with this error (1.25 – 1.29: a PreFilter result
    /// naming a node that does not exist), or, with `None`, panics (1.30 when no listed
    /// name is a node).
    Error(Option<String>),
    /// Every node's filter answer, in node order.
    Nodes(Vec<Judged>),
}

/// NodeAffinity's `PreFilter` (`plugins/nodeaffinity`, as core's
/// `node_affinity_pre_filter`): the node names of `matchFields metadata.name In`, per
/// term the intersection of its requirements, over terms the union; `Ok(None)` when
/// every node is a candidate, `Err(())` for `pod affinity terms conflict` (1.25 – 1.26
/// as soon as one term's intersection is empty, from 1.27 when the union is).
fn pre_filter(required: Option<&NodeSelector>, minor: u16) -> Result<Option<Vec<&str>>, ()> {
    let Some(required) = required.filter(|r| !r.node_selector_terms.is_empty()) else {
        return Ok(None);
    };
    let mut union: Vec<&str> = Vec::new();
    for term in &required.node_selector_terms {
        let mut names: Option<Vec<&str>> = None;
        for r in &term.match_fields {
            if r.key == OBJECT_NAME_FIELD && r.operator == "In" {
                names = Some(match names {
                    None => r.values.iter().map(String::as_str).collect(),
                    Some(mut prev) => {
                        prev.retain(|n| r.values.iter().any(|v| v == n));
                        prev
                    }
                });
            }
        }
        // A term without a name requirement can match any node: terms are ORed.
        let Some(names) = names else {
            return Ok(None);
        };
        if minor < 27 && names.is_empty() {
            return Err(());
        }
        union.extend(names);
    }
    if union.is_empty() {
        Err(())
    } else {
        Ok(Some(union))
    }
}

/// Runs NodeAffinity's PreFilter and the filters on every node.
fn run_filters(
    tolerations: &[Toleration],
    placement: &Placement,
    nodes: &[Node],
    semantics: Semantics,
) -> Cycle {
    let minor = semantics.version.minor;
    let names = match pre_filter(placement.required.as_ref(), minor) {
        Err(()) => {
            return Cycle::Nodes(nodes.iter().map(|_| Judged::PreFilterRejected).collect());
        }
        Ok(None) => None,
        Ok(Some(names)) => {
            // `findNodesThatFitPod` looks the names up in the snapshot: 1.25 – 1.29 fail
            // on the first missing one (in byte order here, as core; upstream walks a Go
            // map), 1.30 divides by zero when none exists, later releases skip missing
            // names.
            let exists = |n: &&str| nodes.iter().any(|node| node.name == *n);
            if minor <= 29 {
                if let Some(missing) = names.iter().filter(|n| !exists(n)).min() {
                    return Cycle::Error(Some(node_not_found_error(missing)));
                }
            } else if minor == 30 && !names.iter().any(exists) {
                return Cycle::Error(None);
            }
            Some(names)
        }
    };
    let required = RequiredNodeAffinity::new(&placement.node_selector, placement.required.as_ref());
    let all_failures = !semantics.version.at_least(27);
    let judged = nodes
        .iter()
        .map(|node| {
            if names
                .as_ref()
                .is_some_and(|s| !s.contains(&node.name.as_str()))
            {
                return Judged::Cut;
            }
            // The default profile's order; NodeName passes (the pod names no node).
            let mut failed: Option<Status> = None;
            let mut check = |status: Status| {
                if status.is_success() || (failed.is_some() && !all_failures) {
                    return;
                }
                match &mut failed {
                    None => failed = Some(status),
                    Some(f) => {
                        f.code = f.code.max(status.code);
                        f.reasons.extend(status.reasons);
                    }
                }
            };
            check(node_unschedulable_filter(
                node.unschedulable,
                tolerations,
                semantics,
            ));
            check(taint_toleration_filter(&node.taints, tolerations, semantics).status);
            check(node_affinity_filter(&required, node));
            match failed {
                None => Judged::Feasible,
                Some(status) => Judged::Rejected(status),
            }
        })
        .collect();
    Cycle::Nodes(judged)
}

/// The FailedScheduling message of the default scheduler for a pod with `tolerations`
/// and `placement` on `nodes` (no pods running on them, allocatable unknown), or `None`
/// when some node passes every filter (or the release's scheduler panics on the pod).
/// Gates and `schedulerName` are ignored (see the module documentation).
pub fn failed_scheduling(
    tolerations: &[Toleration],
    preemption_policy: &PreemptionPolicy,
    placement: &Placement,
    nodes: &[Node],
    semantics: Semantics,
) -> Option<String> {
    if nodes.is_empty() {
        return None;
    }
    let judged = match run_filters(tolerations, placement, nodes, semantics) {
        Cycle::Error(message) => return message,
        Cycle::Nodes(j) => j,
    };
    if judged.iter().any(|j| matches!(j, Judged::Feasible)) {
        return None;
    }
    let version = semantics.version;
    let minor = version.minor;
    let mut fit = FitError::new(nodes.len());
    let absent = |fit: &mut FitError, reason: &str| {
        if !fit.absent_nodes_reasons.iter().any(|r| r == reason) {
            fit.absent_nodes_reasons.push(String::from(reason));
        }
    };
    // Nodes DefaultPreemption's dry run visits (those left without an unresolvable
    // status): with no pods listed it finds no victims on any of them.
    let mut potential = 0usize;
    let mut pre_filter_rejected = false;
    for j in &judged {
        match j {
            Judged::Feasible => {}
            Judged::Rejected(status) => {
                fit.record_node(&status.reasons);
                if status.code != Code::UnschedulableAndUnresolvable {
                    potential += 1;
                }
            }
            Judged::Cut => match minor {
                ..=29 => potential += 1,
                30 => fit.record_node(&[FILTERED_OUT_BY_PRE_FILTER_REASON]),
                _ => absent(&mut fit, &absent_node_reason(&["NodeAffinity"])),
            },
            Judged::PreFilterRejected => {
                pre_filter_rejected = true;
                match minor {
                    // 1.26 – 1.28 only set PreFilterMsg and record no node.
                    26..=28 => potential += 1,
                    31.. => absent(&mut fit, NODE_AFFINITY_CONFLICT_REASON),
                    _ => fit.record_node(&[NODE_AFFINITY_CONFLICT_REASON]),
                }
            }
        }
    }
    if pre_filter_rejected && minor >= 26 {
        fit.pre_filter_msg = String::from(NODE_AFFINITY_CONFLICT_REASON);
    }
    let mut preemption = String::from(PREEMPTION_PREFIX);
    if *preemption_policy == PreemptionPolicy::Never {
        preemption.push_str(PREEMPTION_POLICY_NEVER);
    } else {
        let mut nested = FitError::new(nodes.len());
        nested.record_nodes(potential, &[NO_PREEMPTION_VICTIMS]);
        nested.record_nodes(nodes.len() - potential, &[PREEMPTION_NOT_HELPFUL]);
        preemption.push_str(&nested.message(version));
    }
    fit.post_filter_msg =
        post_filter_message(&preemption, dynamic_resources_enabled(version, None));
    Some(fit.message(version))
}

/// The names of the nodes that pass every filter for the pod (for tests and the
/// playground: "the mutated pod lands only on its pool").
pub fn feasible_nodes<'n>(
    tolerations: &[Toleration],
    placement: &Placement,
    nodes: &'n [Node],
    semantics: Semantics,
) -> Vec<&'n str> {
    match run_filters(tolerations, placement, nodes, semantics) {
        Cycle::Error(_) => Vec::new(),
        Cycle::Nodes(judged) => nodes
            .iter()
            .zip(judged)
            .filter(|(_, j)| matches!(j, Judged::Feasible))
            .map(|(n, _)| n.name.as_str())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use taintlab_core::{KubeVersion, Operator, Taint, TaintEffect};

    fn node(name: &str, labels: &[(&str, &str)], taints: &[(&str, &str)], cordoned: bool) -> Node {
        Node {
            name: String::from(name),
            labels: labels
                .iter()
                .map(|(k, v)| (String::from(*k), String::from(*v)))
                .collect(),
            taints: taints
                .iter()
                .map(|(k, v)| Taint::new(k, v, TaintEffect::NoSchedule))
                .collect(),
            unschedulable: cordoned,
            ..Node::default()
        }
    }

    /// Pods that select no nodes get the same text from the engine's placement chain as
    /// from the policy's grouped taint-only path, for every release shape.
    #[test]
    fn taint_only_pods_agree_with_the_grouped_path() {
        let nodes = vec![
            node("a", &[("pool", "gpu")], &[("dedicated", "gpu")], false),
            node("b", &[], &[], true),
            node("c", &[("pool", "gpu")], &[("dedicated", "gpu")], false),
            node("d", &[], &[("x", "")], false),
        ];
        let cluster = Cluster::from_nodes(&nodes, None);
        let tolerations = [
            vec![],
            vec![Toleration::new(
                "dedicated",
                Operator::Exists,
                "",
                TaintEffect::Empty,
            )],
        ];
        for minor in 25..=KubeVersion::NEWEST.minor {
            let semantics = Semantics::at(KubeVersion::new(minor, 0));
            for tols in &tolerations {
                for policy in [
                    PreemptionPolicy::PreemptLowerPriority,
                    PreemptionPolicy::Never,
                ] {
                    assert_eq!(
                        failed_scheduling(tols, &policy, &Placement::default(), &nodes, semantics),
                        cluster.failed_scheduling(tols, &policy, semantics),
                        "1.{minor} {tols:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn reads_selector_and_affinity_leniently() {
        let spec = serde_json::json!({
            "nodeSelector": {"pool": "gpu", "bad": 3},
            "affinity": {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", 1]}],
                     "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}
                ]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 5, "preference": {"matchExpressions": [{"key": "ssd", "operator": "Exists"}]}}
                ]
            }}
        });
        let p = pod_placement(Some(&spec));
        assert_eq!(p.node_selector.len(), 1);
        let req = p.required.as_ref().unwrap();
        assert_eq!(
            req.node_selector_terms[0].match_expressions[0].values,
            ["a"]
        );
        assert_eq!(
            req.node_selector_terms[0].match_fields[0].key,
            "metadata.name"
        );
        assert!(restricts_nodes(&p) && spec_restricts_nodes(Some(&spec)));
        let only_preferred = serde_json::json!({"affinity": {"nodeAffinity":
            {"preferredDuringSchedulingIgnoredDuringExecution": []}}});
        assert!(!restricts_nodes(&pod_placement(Some(&only_preferred))));
        assert!(!spec_restricts_nodes(Some(&only_preferred)));
        // Wrong shapes never panic and select nothing.
        for bad in [
            serde_json::json!({"nodeSelector": [1], "affinity": 5}),
            serde_json::json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": []}}}),
        ] {
            assert!(!restricts_nodes(&pod_placement(Some(&bad))), "{bad}");
        }
        // A matchFields term pins the pod to one node.
        let nodes = vec![
            node("n1", &[("zone", "a")], &[], false),
            node("n2", &[("zone", "a")], &[], false),
        ];
        assert_eq!(
            feasible_nodes(&[], &p, &nodes, Semantics::at(KubeVersion::NEWEST)),
            Vec::<&str>::new(),
            "pool label missing"
        );
        let mut q = p.clone();
        q.node_selector.clear();
        assert_eq!(
            feasible_nodes(&[], &q, &nodes, Semantics::at(KubeVersion::NEWEST)),
            vec!["n1"]
        );
    }
}
