//! Context-aware checks against the cluster's Nodes.
//!
//! The caller (the waPC glue, the harness, the playground) asks
//! [`node_list_request`] whether a request needs the node list and which
//! `kubernetes/list_resources_all` request to make, fetches it, reads it with
//! [`parse_node_list`] and passes the nodes to [`crate::evaluate`].

use crate::quote_for;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use taintlab_core::matching::{describe_toleration, taint_to_string, tolerates};
use taintlab_core::{Node, PreemptionPolicy, Semantics, Taint, WorkloadKind};

use crate::cluster::Cluster;
use crate::request::{self, Kind, Operation};
use crate::review::{PodReview, effective_tolerations, short};
use crate::settings::{Action, Settings};
use crate::{Decision, Violation, ViolationKind, glob};

/// The host-capability request (`kubewarden/kubernetes/list_resources_all`), serialised
/// exactly as the Kubewarden SDK does (snake_case, nulls kept), so that kwctl replay
/// sessions match it byte for byte after YAML normalisation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeListRequest {
    /// Always `v1`.
    pub api_version: String,
    /// Always `Node`.
    pub kind: String,
    /// `nodeChecks.labelSelector`.
    pub label_selector: Option<String>,
    /// Never used.
    pub field_selector: Option<String>,
    /// Dotted paths the host keeps in each object.
    pub field_masks: Option<Vec<String>>,
}

impl NodeListRequest {
    /// The request as the SDK serialises it (the same bytes as `serde_json::to_vec`, see
    /// the test), written without `serde_json`'s serializer.
    pub fn to_json(&self) -> Vec<u8> {
        use crate::jsonwrite::write_str;
        let opt = |out: &mut String, v: &Option<String>| match v {
            Some(s) => write_str(out, s),
            None => out.push_str("null"),
        };
        let mut out = String::from("{\"api_version\":");
        write_str(&mut out, &self.api_version);
        out.push_str(",\"kind\":");
        write_str(&mut out, &self.kind);
        out.push_str(",\"label_selector\":");
        opt(&mut out, &self.label_selector);
        out.push_str(",\"field_selector\":");
        opt(&mut out, &self.field_selector);
        out.push_str(",\"field_masks\":");
        match &self.field_masks {
            Some(masks) => {
                out.push('[');
                for (i, m) in masks.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(&mut out, m);
                }
                out.push(']');
            }
            None => out.push_str("null"),
        }
        out.push('}');
        out.into_bytes()
    }
}

/// Field masks always requested.
pub const BASE_FIELD_MASKS: [&str; 3] = ["metadata.name", "spec.taints", "spec.unschedulable"];
/// Added when `protectTaintsOfNodes` or the placement check (a `nodeSelector` or a
/// required node affinity, the pod's own or the dedicated-nodes mutation's) needs the
/// node labels.
pub const LABELS_FIELD_MASK: &str = "metadata.labels";

/// Whether evaluating this request needs the node list, and the list request to make.
///
/// `None` when node checks are off, the request is not a CREATE/UPDATE of a pod-bearing
/// kind, the namespace is exempt, the Pod has a controller owner and
/// `skipControlledPods` is on, the Pod is bound to a node already, or nothing would be
/// checked (no tolerations and the unschedulable check is off).
pub fn node_list_request(request: &Value, settings: &Settings) -> Option<NodeListRequest> {
    node_list_request_raw(&serde_json::to_vec(request).ok()?, settings)
}

/// [`node_list_request`] on the raw AdmissionRequest JSON.
pub fn node_list_request_raw(request: &[u8], settings: &Settings) -> Option<NodeListRequest> {
    node_list_request_for(&request::parse_raw(request).ok()?, settings)
}

/// [`node_list_request`] for an already read request.
pub fn node_list_request_for(
    req: &request::Request<'_>,
    settings: &Settings,
) -> Option<NodeListRequest> {
    node_list_plan(req, settings).map(|(r, _)| r)
}

/// [`node_list_request_for`], and whether the placement check needs the nodes with
/// their labels (see [`crate::nodelist::read_cluster_with`]).
pub fn node_list_plan(
    req: &request::Request<'_>,
    settings: &Settings,
) -> Option<(NodeListRequest, bool)> {
    let nc = &settings.node_checks;
    if !nc.enabled {
        return None;
    }
    let kind = req.kind.filter(|k| *k != Kind::Node)?;
    if !req.sub_resource.is_empty()
        || !matches!(req.operation, Operation::Create | Operation::Update)
        || glob::any_matches(&settings.exempt_namespaces, &req.namespace)
    {
        return None;
    }
    let object = req.object?;
    let parts = request::object_parts(object, kind).ok()?;
    if kind == Kind::Workload(WorkloadKind::Pod)
        && nc.skip_controlled_pods
        && parts.controller_kind().is_some()
    {
        return None;
    }
    let needs = request::SpecNeeds {
        containers: false,
        affinity: true,
    };
    let spec_value = parts.spec(needs, "spec").ok()?;
    let spec = spec_value.as_ref();
    let bound = spec
        .and_then(|s| s.get("nodeName"))
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    let has_tolerations = spec
        .and_then(|s| s.get("tolerations"))
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    let toleration_checks =
        nc.unmatched_tolerations != Action::Ignore || nc.protect_taints_of_nodes.is_some();
    let placement_check = nc.unschedulable != Action::Ignore && !bound;
    let wanted = placement_check || (has_tolerations && toleration_checks);
    if !wanted {
        return None;
    }
    // The placement check reads labels when the pod selects nodes, or when the
    // dedicated-nodes mutation will give it a required node affinity.
    let selects_nodes = placement_check
        && (crate::placement::spec_restricts_nodes(spec)
            || crate::settings::RuleView::for_rule(settings, settings.rule_for(&req.namespace))
                .dedicated
                .is_some());
    let mut masks: Vec<String> = BASE_FIELD_MASKS.iter().map(|s| String::from(*s)).collect();
    if nc.protect_taints_of_nodes.is_some() || selects_nodes {
        masks.insert(1, String::from(LABELS_FIELD_MASK));
    }
    Some((
        NodeListRequest {
            api_version: String::from("v1"),
            kind: String::from("Node"),
            label_selector: nc.label_selector.clone(),
            field_selector: None,
            field_masks: Some(masks),
        },
        selects_nodes,
    ))
}

/// Reads a `NodeList` (the host's answer) into core nodes, labels included.
pub fn parse_node_list(json: &[u8]) -> Result<Vec<Node>, String> {
    crate::nodelist::read(json, true)
}

/// The three node checks against the grouped cluster (see [`crate::cluster`]).
pub fn check(
    review: &PodReview<'_>,
    cluster: &Cluster,
    semantics: Semantics,
    decision: &mut Decision,
) {
    let nc = &review.settings.node_checks;
    if review.kind == Kind::Workload(WorkloadKind::Pod)
        && nc.skip_controlled_pods
        && review.controller.is_some()
    {
        return;
    }
    let gate = semantics.comparison_operators_enabled();
    let auto = review.settings.system_tolerations == crate::settings::SystemTolerations::Allow;
    let judged: Vec<usize> = (0..review.tolerations.len())
        .filter(|&i| {
            review.judged.get(i).copied().unwrap_or(false)
                && !(auto && review.system.get(i).copied().unwrap_or(false))
        })
        .collect();

    // (c) Taints of selected nodes are protected.
    if review.exemption.is_none()
        && let Some(sel) = nc.protect_taints_of_nodes.as_deref()
        && !judged.is_empty()
    {
        let mut counts: Vec<(&Taint, usize)> = Vec::new();
        for g in cluster.groups.iter().filter(|g| g.protected) {
            for t in &g.taints {
                match counts.iter_mut().find(|(seen, _)| same_taint(seen, t)) {
                    Some((_, c)) => *c += g.nodes,
                    None => counts.push((t, g.nodes)),
                }
            }
        }
        for &i in &judged {
            let Some(tol) = review.tolerations.get(i) else {
                continue;
            };
            let hits: Vec<String> = counts
                .iter()
                .filter(|(taint, _)| tolerates(tol, taint, gate))
                .map(|(taint, n)| {
                    format!(
                        "{} ({n} node{})",
                        taint_to_string(taint),
                        if *n == 1 { "" } else { "s" }
                    )
                })
                .collect();
            if !hits.is_empty() {
                decision.violations.push(Violation {
                    kind: ViolationKind::Protected,
                    message: format!(
                        "{}[{i}]: toleration {} tolerates taints of nodes matching {}: {}",
                        review.tolerations_path,
                        describe_toleration(tol),
                        quote_for(sel, semantics.version),
                        hits.join(", ")
                    ),
                });
            }
        }
    }

    // (b) Typo guard.
    if nc.unmatched_tolerations != Action::Ignore && !judged.is_empty() && cluster.nodes > 0 {
        for &i in &judged {
            let Some(tol) = review.tolerations.get(i) else {
                continue;
            };
            let matched = cluster
                .groups
                .iter()
                .any(|g| g.taints.iter().any(|t| tolerates(tol, t, gate)));
            if matched {
                continue;
            }
            let text = format!(
                "{}[{i}]: {} matches no taint on any of {} nodes",
                review.tolerations_path,
                short(tol),
                cluster.nodes
            );
            finding(decision, nc.unmatched_tolerations, text);
        }
    }

    // (a) Can any node take the pod?
    let bound = review
        .spec
        .and_then(|s| s.get("nodeName"))
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    if nc.unschedulable != Action::Ignore && !bound {
        let preemption_policy = match review
            .spec
            .and_then(|s| s.get("preemptionPolicy"))
            .and_then(Value::as_str)
        {
            Some("Never") => PreemptionPolicy::Never,
            _ => PreemptionPolicy::PreemptLowerPriority,
        };
        let tolerations = effective_tolerations(review);
        let (message, restricted) = placement_message(
            review,
            cluster,
            decision,
            &tolerations,
            &preemption_policy,
            semantics,
        );
        if let Some(msg) = message {
            let what = if review.kind == Kind::Workload(WorkloadKind::DaemonSet) {
                "no node runs this DaemonSet's pods"
            } else if restricted {
                "no node accepts the pod"
            } else {
                "no node accepts the pod's tolerations"
            };
            let text = format!("{}: {what}: {msg}", review.spec_path);
            finding(decision, nc.unschedulable, text);
        }
    }
}

fn finding(decision: &mut Decision, action: Action, text: String) {
    match action {
        Action::Ignore => {}
        Action::Warn => decision.warn(text),
        Action::Deny => decision.violations.push(Violation {
            kind: ViolationKind::Nodes,
            message: text,
        }),
    }
}

fn same_taint(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.value == b.value && a.effect == b.effect
}

/// The FailedScheduling message for the pod as it reaches the scheduler (after this
/// policy's own mutation, the dedicated-nodes affinity, when there was one), and whether
/// the pod selects nodes by label or name. Pods that do not select nodes use the grouped
/// taint-only path (the same text, see the placement module's tests).
fn placement_message(
    review: &PodReview<'_>,
    cluster: &Cluster,
    decision: &Decision,
    tolerations: &[taintlab_core::Toleration],
    preemption_policy: &PreemptionPolicy,
    semantics: Semantics,
) -> (Option<String>, bool) {
    let mutated_spec = decision
        .mutated_object
        .as_ref()
        .zip(review.kind.pod_spec_pointer())
        .and_then(|(o, p)| o.pointer(p));
    let placement = crate::placement::pod_placement(mutated_spec.or(review.spec));
    let restricted = crate::placement::restricts_nodes(&placement);
    let message = match &cluster.placement_nodes {
        Some(nodes) if cluster.nodes > 0 && restricted => crate::placement::failed_scheduling(
            tolerations,
            preemption_policy,
            &placement,
            nodes,
            semantics,
        ),
        _ => cluster.failed_scheduling(tolerations, preemption_policy, semantics),
    };
    (message, restricted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_json_is_what_the_sdk_writes() {
        for r in [
            NodeListRequest {
                api_version: String::from("v1"),
                kind: String::from("Node"),
                label_selector: Some(String::from("pool in (a,\"b\")")),
                field_selector: None,
                field_masks: Some(vec![
                    String::from("metadata.name"),
                    String::from("spec.taints"),
                ]),
            },
            NodeListRequest {
                api_version: String::from("v1"),
                kind: String::from("Node"),
                label_selector: None,
                field_selector: Some(String::from("x")),
                field_masks: None,
            },
        ] {
            assert_eq!(r.to_json(), serde_json::to_vec(&r).unwrap());
        }
    }
}
