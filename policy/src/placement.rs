//! Placement beyond taints: the pod spec's `nodeSelector` and `affinity.nodeAffinity`
//! (required and preferred terms) read from the request, judged against the listed
//! nodes (with their labels) by `taintlab-core`'s placement chain
//! (`taintlab_core::scheduling::placement_cluster::schedule_placement`: NodeUnschedulable,
//! NodeName, TaintToleration, NodeAffinity with its PreFilter result, NodePorts and
//! NodeResourcesFit in the default profile's order, and the per-release FailedScheduling
//! text, DynamicResources' post-filter part included from 1.34).
//!
//! What the policy does not know, and therefore does not check:
//! * Resources (NodeResourcesFit): the node list is fetched without
//!   `status.allocatable`, and the pods already running on each node would have to be
//!   listed too, which is far too costly at admission time. Every node's allocatable is
//!   unknown to the engine, which then skips the resource check.
//! * Host ports (NodePorts): a host port can only conflict with pods already bound to
//!   the node, which are not listed for the same reason; a pod's own host ports can
//!   never make a node infeasible here, so they are not read.
//! * `schedulingGates` and `schedulerName`: the policy judges the pod as the default
//!   scheduler will see it once its gates are removed.
//!
//! So "no node accepts this pod" means: no listed node passes the taint, cordon and
//! node-affinity/selector filters; a real scheduler may still reject a node this check
//! accepts (resources, ports, and the plugins the engine does not model).

use std::collections::BTreeMap;

use serde_json::Value;
use taintlab_core::model::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodPlacement,
    PreferredSchedulingTerm, SchedulingPod,
};
use taintlab_core::scheduling::placement::{PlacementOptions, PodOutcome};
use taintlab_core::scheduling::placement_cluster::schedule_placement;
use taintlab_core::{Node, Pod, PreemptionPolicy, Semantics, Toleration};

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

fn term(v: Option<&Value>) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: requirements(v.and_then(|t| t.get("matchExpressions"))),
        match_fields: requirements(v.and_then(|t| t.get("matchFields"))),
    }
}

/// Reads `nodeSelector` and `affinity.nodeAffinity` of a pod spec (as far as the
/// placement filters read them). The apiserver has decoded the object already, so
/// values of a wrong type cannot occur in a real request; here they are skipped.
pub fn pod_placement(spec: Option<&Value>) -> PodPlacement {
    let mut p = PodPlacement::default();
    let Some(spec) = spec else { return p };
    if let Some(sel) = spec.get("nodeSelector").and_then(Value::as_object) {
        p.node_selector = sel
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), String::from(v.as_str()?))))
            .collect::<BTreeMap<_, _>>();
    }
    let Some(na) = spec
        .get("affinity")
        .and_then(|a| a.get("nodeAffinity"))
        .filter(|v| v.is_object())
    else {
        return p;
    };
    let required = na
        .get("requiredDuringSchedulingIgnoredDuringExecution")
        .filter(|v| v.is_object())
        .map(|r| NodeSelector {
            node_selector_terms: r
                .get("nodeSelectorTerms")
                .and_then(Value::as_array)
                .map(|ts| ts.iter().map(|t| term(Some(t))).collect())
                .unwrap_or_default(),
        });
    let preferred = na
        .get("preferredDuringSchedulingIgnoredDuringExecution")
        .and_then(Value::as_array)
        .map(|ts| {
            ts.iter()
                .map(|t| PreferredSchedulingTerm {
                    weight: t
                        .get("weight")
                        .and_then(Value::as_i64)
                        .and_then(|w| i32::try_from(w).ok())
                        .unwrap_or(0),
                    preference: term(t.get("preference")),
                })
                .collect()
        })
        .unwrap_or_default();
    p.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: required,
            preferred_during_scheduling_ignored_during_execution: preferred,
        }),
    });
    p
}

/// Whether the placement restricts nodes by label or name (a `nodeSelector` or a
/// required node affinity): only then do the node labels matter to feasibility.
pub fn restricts_nodes(p: &PodPlacement) -> bool {
    !p.node_selector.is_empty() || p.required_node_affinity().is_some()
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

/// The FailedScheduling message of the default scheduler for a pod with `tolerations`
/// and `placement` on `nodes` (no pods running on them, allocatable unknown), or `None`
/// when some node passes every filter. Gates and `schedulerName` are ignored (see the
/// module documentation).
pub fn failed_scheduling(
    tolerations: &[Toleration],
    preemption_policy: &PreemptionPolicy,
    placement: &PodPlacement,
    nodes: &[Node],
    semantics: Semantics,
) -> Option<String> {
    let pod = judged_pod(tolerations, preemption_policy, placement);
    let result = schedule_placement(
        std::slice::from_ref(&pod),
        nodes,
        &[],
        PlacementOptions::new(semantics),
    );
    match result.outcome(0)? {
        PodOutcome::Feasible { .. }
        | PodOutcome::Gated
        | PodOutcome::Bypassed
        | PodOutcome::OtherScheduler => None,
        PodOutcome::PreScoreError => None,
        other => other.message().map(String::from),
    }
}

/// The names of the nodes that pass every filter for the pod (for tests and the
/// playground: "the mutated pod lands only on its pool").
pub fn feasible_nodes<'n>(
    tolerations: &[Toleration],
    placement: &PodPlacement,
    nodes: &'n [Node],
    semantics: Semantics,
) -> Vec<&'n str> {
    let pod = judged_pod(tolerations, &PreemptionPolicy::default(), placement);
    let result = schedule_placement(
        std::slice::from_ref(&pod),
        nodes,
        &[],
        PlacementOptions::new(semantics),
    );
    nodes
        .iter()
        .enumerate()
        .filter(|(i, _)| result.cell(0, *i).is_some_and(|c| c.is_feasible()))
        .map(|(_, n)| n.name.as_str())
        .collect()
}

fn judged_pod(
    tolerations: &[Toleration],
    preemption_policy: &PreemptionPolicy,
    placement: &PodPlacement,
) -> SchedulingPod {
    SchedulingPod {
        pod: Pod {
            tolerations: tolerations.to_vec(),
            preemption_policy: preemption_policy.clone(),
            ..Pod::default()
        },
        placement: PodPlacement {
            node_selector: placement.node_selector.clone(),
            affinity: placement.affinity.clone(),
            ..PodPlacement::default()
        },
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
                        failed_scheduling(
                            tols,
                            &policy,
                            &PodPlacement::default(),
                            &nodes,
                            semantics
                        ),
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
        let req = p.required_node_affinity().unwrap();
        assert_eq!(
            req.node_selector_terms[0].match_expressions[0].values,
            ["a"]
        );
        assert_eq!(
            req.node_selector_terms[0].match_fields[0].key,
            "metadata.name"
        );
        assert_eq!(p.preferred_node_affinity()[0].weight, 5);
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
