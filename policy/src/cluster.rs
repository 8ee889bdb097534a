//! The cluster's nodes as the node checks need them: grouped by (taints in order,
//! `spec.unschedulable`, matched by `protectTaintsOfNodes`), with a count per group.
//!
//! Five thousand nodes usually fall into a handful of groups, so every check runs per
//! group. The FailedScheduling text is assembled from `taintlab-core`'s scheduler
//! primitives exactly as `taintlab_core::scheduling::schedule` assembles it per node
//! class (a test compares the two).

use std::collections::HashMap;

use taintlab_core::helpers::{TaintFilter, find_matching_untolerated_taint};
use taintlab_core::scheduling::filter::{
    NODE_UNSCHEDULABLE_REASON, TaintReasonText, tolerates_unschedulable,
};
use taintlab_core::scheduling::fit_error::{
    FitError, dynamic_resources_enabled, post_filter_message, preemption_message,
};
use taintlab_core::{Node, PreemptionPolicy, Semantics, Taint, TaintEffect, Toleration};

use taintlab_core::labels::Selector;

/// Nodes the checks cannot tell apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeGroup {
    /// The taints, in node order (`timeAdded` dropped).
    pub taints: Vec<Taint>,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// The nodes match `nodeChecks.protectTaintsOfNodes`.
    pub protected: bool,
    /// How many nodes.
    pub nodes: usize,
}

/// All listed nodes, grouped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cluster {
    /// Number of nodes listed.
    pub nodes: usize,
    /// The groups, in order of first appearance.
    pub groups: Vec<NodeGroup>,
    /// Every node with its name and labels, kept when the placement check needs them
    /// (a `nodeSelector` or required node affinity, see [`crate::placement`]).
    pub placement_nodes: Option<Vec<Node>>,
    index: HashMap<u64, Vec<usize>>,
}

/// FNV-1a over the group key; collisions are resolved by comparing the groups.
fn group_hash<'t>(
    taints: impl Iterator<Item = (&'t str, &'t str, &'t str)>,
    unschedulable: bool,
    protected: bool,
) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for (k, v, e) in taints {
        eat(k.as_bytes());
        eat(v.as_bytes());
        eat(e.as_bytes());
    }
    eat(&[u8::from(unschedulable), u8::from(protected)]);
    h
}

impl Cluster {
    /// Adds one node given by borrowed parts (the node-list reader calls this without
    /// allocating for nodes whose group exists already).
    pub fn add<S: AsRef<str>>(
        &mut self,
        taints: &[(S, S, S)],
        unschedulable: bool,
        protected: bool,
    ) {
        self.nodes += 1;
        let h = group_hash(
            taints
                .iter()
                .map(|(k, v, e)| (k.as_ref(), v.as_ref(), e.as_ref())),
            unschedulable,
            protected,
        );
        let bucket = self.index.entry(h).or_default();
        for &g in bucket.iter() {
            if let Some(group) = self.groups.get_mut(g)
                && group.unschedulable == unschedulable
                && group.protected == protected
                && group.taints.len() == taints.len()
                && group.taints.iter().zip(taints).all(|(a, (k, v, e))| {
                    a.key == k.as_ref() && a.value == v.as_ref() && a.effect.as_str() == e.as_ref()
                })
            {
                group.nodes += 1;
                return;
            }
        }
        bucket.push(self.groups.len());
        self.groups.push(NodeGroup {
            taints: taints
                .iter()
                .map(|(k, v, e)| Taint::new(k.as_ref(), v.as_ref(), TaintEffect::parse(e.as_ref())))
                .collect(),
            unschedulable,
            protected,
            nodes: 1,
        });
    }

    /// Groups core nodes; `protect` marks the nodes whose taints are protected. The nodes
    /// are also kept whole for the placement check.
    pub fn from_nodes(nodes: &[Node], protect: Option<&Selector>) -> Self {
        let mut c = Self::default();
        let mut scratch: Vec<(&str, &str, &str)> = Vec::new();
        for n in nodes {
            scratch.clear();
            scratch.extend(
                n.taints
                    .iter()
                    .map(|t| (t.key.as_str(), t.value.as_str(), t.effect.as_str())),
            );
            let protected = protect.is_some_and(|s| s.matches(&n.labels));
            c.add(&scratch, n.unschedulable, protected);
        }
        c.placement_nodes = Some(nodes.to_vec());
        c
    }

    /// The scheduler's FailedScheduling message for a pod with these tolerations, or
    /// `None` when at least one node passes NodeUnschedulable and TaintToleration (or
    /// no node was listed).
    pub fn failed_scheduling(
        &self,
        tolerations: &[Toleration],
        preemption_policy: &PreemptionPolicy,
        semantics: Semantics,
    ) -> Option<String> {
        if self.nodes == 0 {
            return None;
        }
        let gate = semantics.comparison_operators_enabled();
        let tolerates_cordon = tolerates_unschedulable(tolerations, gate);
        let text = TaintReasonText::for_version(semantics.version);
        let mut fit = FitError::new(self.nodes);
        for g in &self.groups {
            let reason = if g.unschedulable && !tolerates_cordon {
                String::from(NODE_UNSCHEDULABLE_REASON)
            } else if let Some(t) = find_matching_untolerated_taint(
                &g.taints,
                tolerations,
                TaintFilter::NoScheduleOrNoExecute,
                gate,
            ) {
                text.render(t)
            } else {
                return None;
            };
            fit.record_nodes(g.nodes, &[reason.as_str()]);
        }
        // DynamicResources' PostFilter text leads where the plugin is in the default
        // profile (its gate's default for the release).
        fit.post_filter_msg = post_filter_message(
            &preemption_message(preemption_policy, self.nodes, 0, semantics.version),
            dynamic_resources_enabled(semantics.version, None),
        );
        Some(fit.message(semantics.version))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintlab_core::scheduling::schedule;
    use taintlab_core::{KubeVersion, Operator, Pod};

    fn node(i: usize, taints: &[(&str, &str, &str)], cordoned: bool) -> Node {
        Node {
            name: format!("n{i}"),
            taints: taints
                .iter()
                .map(|(k, v, e)| Taint::new(k, v, TaintEffect::parse(e)))
                .collect(),
            unschedulable: cordoned,
            ..Node::default()
        }
    }

    #[test]
    fn same_message_as_the_core_scheduler() {
        type Shape<'a> = (&'a [(&'a str, &'a str, &'a str)], bool);
        let shapes: [Shape<'_>; 6] = [
            (&[("dedicated", "gpu", "NoSchedule")], false),
            (&[("a", "", "NoExecute"), ("b", "", "NoSchedule")], false),
            (&[("b", "", "NoSchedule"), ("a", "", "NoExecute")], false),
            (&[], true),
            (&[("p", "", "PreferNoSchedule")], false),
            (
                &[("node.kubernetes.io/unschedulable", "", "NoSchedule")],
                true,
            ),
        ];
        let tol_sets: Vec<Vec<Toleration>> = vec![
            vec![],
            vec![Toleration::new(
                "a",
                Operator::Exists,
                "",
                TaintEffect::Empty,
            )],
            vec![Toleration::new(
                "dedicated",
                Operator::Equal,
                "gpu",
                TaintEffect::NoSchedule,
            )],
            vec![Toleration::new(
                "",
                Operator::Exists,
                "",
                TaintEffect::NoSchedule,
            )],
        ];
        for mask in 1u32..(1 << shapes.len()) {
            let mut nodes = Vec::new();
            for (i, (taints, cordoned)) in shapes.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    for copy in 0..=i {
                        nodes.push(node(i * 10 + copy, taints, *cordoned));
                    }
                }
            }
            let cluster = Cluster::from_nodes(&nodes, None);
            for tols in &tol_sets {
                for version in [
                    KubeVersion::new(29, 0),
                    KubeVersion::new(33, 0),
                    KubeVersion::NEWEST,
                ] {
                    for policy in [
                        PreemptionPolicy::PreemptLowerPriority,
                        PreemptionPolicy::Never,
                    ] {
                        let semantics = Semantics::at(version);
                        let pod = Pod {
                            tolerations: tols.clone(),
                            preemption_policy: policy.clone(),
                            ..Pod::default()
                        };
                        let core = schedule(std::slice::from_ref(&pod), &nodes, semantics);
                        let ours = cluster.failed_scheduling(tols, &policy, semantics);
                        assert_eq!(
                            ours.as_deref(),
                            core.message(0),
                            "mask {mask} {tols:?} {version}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn groups_count_nodes() {
        let nodes: Vec<Node> = (0..10)
            .map(|i| node(i, &[("k", "", "NoSchedule")], i % 2 == 0))
            .collect();
        let c = Cluster::from_nodes(&nodes, None);
        assert_eq!(c.nodes, 10);
        assert_eq!(c.groups.len(), 2);
        assert_eq!(c.groups.iter().map(|g| g.nodes).sum::<usize>(), 10);
    }
}
