//! DefaultPreemption's PostFilter: which nodes a dry run may help on, the victims on
//! each (`SelectVictimsOnNode`), the node the scheduler nominates
//! (`pickOneNodeForPreemption`) and the FailedScheduling text.
//!
//! Upstream: `pkg/scheduler/framework/preemption/preemption.go` (`Preempt`,
//! `findCandidates`, `nodesWherePreemptionMightHelp`, `DryRunPreemption`,
//! `SelectCandidate`, `pickOneNodeForPreemption`) and
//! `plugins/defaultpreemption/default_preemption.go` (`SelectVictimsOnNode`,
//! `calculateNumCandidates`, `PodEligibleToPreemptOthers`), read at the
//! `cluster-autoscaler-1.25.0` … `1.30.0` tags.
//!
//! Potential nodes are those whose status is not UnschedulableAndUnresolvable. On each,
//! every pod of lower priority is removed; if the pod then passes every filter the
//! victims are reprieved from the most important down (priority, then binding order)
//! and those whose return breaks the fit stay victims.
//!
//! Choices where upstream is not deterministic or state is not modelled:
//! * Upstream starts the dry run at a random node (`rand.Int31n`) and stops once it has
//!   `max(10% of potential nodes, 100)` candidates; here it starts at the first node,
//!   in node order.
//! * `MoreImportantPod` breaks priority ties by `status.startTime` (earlier is more
//!   important). A pod without one counts as starting now (`GetPodStartTime`); several
//!   such pods of one priority keep binding order here, while upstream's order is then
//!   an artifact of its sort with an inconsistent comparison. The same holds for
//!   `pickOneNodeForPreemption`'s last steps: nodes tied on the latest earliest start
//!   time go to the first candidate in node order (upstream: Go map order).
//! * PodDisruptionBudgets are not modelled (every victim is non-violating), nor are
//!   nominated pods (`RunFilterPluginsWithNominatedPods` with pods nominated earlier)
//!   or `status.nominatedNodeName` of the preemptor (the terminating-victim check).

use alloc::string::String;
use alloc::vec::Vec;

use super::filter::Code;
use super::fit_error::{
    FailedScheduling, FitError, NO_PREEMPTION_VICTIMS, PREEMPTION_NOT_HELPFUL,
    PREEMPTION_POLICY_NEVER, PREEMPTION_PREFIX, post_filter_message,
};
use super::placement::{
    Evaluated, FILTERED_OUT_BY_PRE_FILTER_REASON, NODE_AFFINITY_CONFLICT_REASON, NodeState,
    PodOutcome, PreparedPod, absent_node_reason, add_pod, merge_statuses,
};
use crate::model::{Node, PreemptionPolicy};

/// `MinCandidateNodesPercentage`'s default.
pub const MIN_CANDIDATE_NODES_PERCENTAGE: usize = 10;
/// `MinCandidateNodesAbsolute`'s default.
pub const MIN_CANDIDATE_NODES_ABSOLUTE: usize = 100;

/// A pod DefaultPreemption evicts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Victim {
    /// Its index in the nominated node's [`NodeState::pods`].
    pub index: usize,
    /// `metadata.namespace` (empty when the node's state holds no names: see
    /// [`NodeState::pod_refs`]).
    pub namespace: String,
    /// `metadata.name` (empty likewise).
    pub name: String,
    /// `spec.priority`
    pub priority: i32,
}

/// What preemption does when it helps: the nominated node and its victims, most
/// important first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nomination {
    /// Index of the nominated node.
    pub node_index: usize,
    /// `status.nominatedNodeName`.
    pub node: String,
    /// The pods deleted to make room.
    pub victims: Vec<Victim>,
}

/// What `SelectVictimsOnNode` finds on one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DryRun {
    /// The pod fits once these pods (indices into [`NodeState::pods`], most important
    /// first) are gone.
    Candidate(Vec<usize>),
    /// The node's status in the nested FitError.
    Reasons(Vec<String>),
}

/// `calculateNumCandidates` with the default arguments.
pub fn num_candidates(potential_nodes: usize) -> usize {
    let n = potential_nodes.saturating_mul(MIN_CANDIDATE_NODES_PERCENTAGE) / 100;
    n.max(MIN_CANDIDATE_NODES_ABSOLUTE).min(potential_nodes)
}

/// `SelectVictimsOnNode` for the prepared pod on one node.
pub fn select_victims(prep: &PreparedPod<'_>, node: &Node, state: &NodeState) -> DryRun {
    let priority = prep.pod.placement.priority;
    if state.min_priority.is_none_or(|m| m >= priority) {
        return DryRun::Reasons(alloc::vec![String::from(NO_PREEMPTION_VICTIMS)]);
    }
    let (mut used, mut usage) = state.without_victims(priority);
    let failed = prep.filter(node, &used, usage.as_ref());
    if !failed.is_empty() {
        return DryRun::Reasons(merge_statuses(&failed).reasons);
    }
    // Potential victims by importance: higher priority first, ties in binding order.
    let mut potential: Vec<usize> = (0..state.pods.len())
        .filter(|&i| state.pods.get(i).is_some_and(|p| p.priority < priority))
        .collect();
    crate::sort::sort_by(&mut potential, |&a, &b| {
        let (Some(pa), Some(pb)) = (state.pods.get(a), state.pods.get(b)) else {
            return core::cmp::Ordering::Equal;
        };
        pb.priority
            .cmp(&pa.priority)
            .then_with(|| start_key(&pa.start_time).cmp(&start_key(&pb.start_time)))
    });
    // Reprieve: only NodePorts and NodeResourcesFit depend on the pods on the node, and
    // every other filter already passed on this node, so only those two are re-run.
    let mut victims = Vec::new();
    for i in potential {
        let Some(p) = state.pods.get(i) else { continue };
        if let Some(u) = &mut usage {
            remove_victim_undo(u, p, true);
        }
        let fits = if p.ports.is_empty() {
            prep.fits_pod_dependent(&used, usage.as_ref())
        } else {
            let mut try_used = used.clone();
            for port in &p.ports {
                try_used.add(port);
            }
            let fits = prep.fits_pod_dependent(&try_used, usage.as_ref());
            if fits {
                used = try_used;
            }
            fits
        };
        if !fits {
            if let Some(u) = &mut usage {
                remove_victim_undo(u, p, false);
            }
            victims.push(i);
        }
    }
    DryRun::Candidate(victims)
}

/// A start time as `GetPodStartTime` orders it: unknown is "now", after every known one.
fn start_key(t: &str) -> (bool, &str) {
    (t.is_empty(), t)
}

/// One victim as `pickOneNodeForPreemption` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VictimKey<'a> {
    /// `spec.priority`.
    pub priority: i32,
    /// `status.startTime` (empty: unknown, i.e. now).
    pub start_time: &'a str,
}

/// `GetEarliestPodStartTime`: the earliest start among the highest-priority victims.
fn earliest_start<'a>(victims: &[VictimKey<'a>]) -> (bool, &'a str) {
    let Some(top) = victims.iter().map(|v| v.priority).max() else {
        return (true, "");
    };
    victims
        .iter()
        .filter(|v| v.priority == top)
        .map(|v| start_key(v.start_time))
        .min()
        .unwrap_or((true, ""))
}

/// Adds a pod back to the node (`add`), or takes it off again.
fn remove_victim_undo(
    u: &mut super::resources::NodeUsage,
    p: &super::placement::BoundPod,
    add: bool,
) {
    if add {
        add_pod(u, p);
    } else {
        super::placement::remove_pod(u, p);
    }
}

/// `pickOneNodeForPreemption` without PDBs: the lowest highest-victim priority, then
/// the lowest sum of (priority + 2³¹), then the fewest victims, then the latest
/// earliest start time among the highest-priority victims, then the first candidate.
/// `candidates` holds each candidate's victims, most important first; the answer is
/// an index into it.
pub fn pick_one_node(candidates: &[Vec<VictimKey<'_>>]) -> Option<usize> {
    let key = |v: &Vec<VictimKey<'_>>| {
        let highest = v.first().map_or(i64::MIN, |k| i64::from(k.priority));
        let sum: i64 = v
            .iter()
            .map(|k| i64::from(k.priority) + i64::from(i32::MAX) + 1)
            .sum();
        (highest, sum, v.len())
    };
    let best = candidates.iter().map(key).min()?;
    let tied = candidates
        .iter()
        .enumerate()
        .filter(|(_, v)| key(v) == best);
    let mut chosen: Option<(usize, (bool, &str))> = None;
    for (i, v) in tied {
        let t = earliest_start(v);
        if chosen.is_none_or(|(_, c)| t > c) {
            chosen = Some((i, t));
        }
    }
    chosen.map(|(i, _)| i)
}

/// One node class as the message assembly sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupView<'g> {
    pub count: usize,
    pub eval: &'g Evaluated,
    pub node: &'g Node,
    pub state: &'g NodeState,
}

/// The FailedScheduling outcome from the node classes' statuses. `class_of` maps each
/// node (in node order) to its class in `groups` (`None`: one class per node, in
/// order); `states` are the nodes' own states (for the victims' names).
pub(crate) fn assemble(
    prep: &PreparedPod<'_>,
    num_nodes: usize,
    groups: &[GroupView<'_>],
    class_of: Option<&[u32]>,
    nodes: &[Node],
    states: &[NodeState],
) -> PodOutcome {
    let options = prep.options;
    let version = options.semantics.version;
    let layout = super::fit_error::FitErrorLayout::for_version(version);
    let mut fit = FitError::new(num_nodes);
    let cut_reason = absent_node_reason(&["NodeAffinity"]);
    let mut pre_filter_rejected = false;
    for g in groups {
        match g.eval {
            Evaluated::Rejected(status) => fit.record_nodes(g.count, &status.reasons),
            Evaluated::Cut => match version.minor {
                ..=29 => {}
                30 => fit.record_nodes(g.count, &[FILTERED_OUT_BY_PRE_FILTER_REASON]),
                _ => fit.add_absent_once(&cut_reason),
            },
            Evaluated::PreFilterRejected => {
                pre_filter_rejected = true;
                match version.minor {
                    // 1.26 – 1.28 only set PreFilterMsg and record no node.
                    26..=28 => {}
                    31.. => fit.add_absent_once(NODE_AFFINITY_CONFLICT_REASON),
                    _ => fit.record_nodes(g.count, &[NODE_AFFINITY_CONFLICT_REASON]),
                }
            }
            Evaluated::Feasible => {}
        }
    }
    if pre_filter_rejected && layout.has_pre_filter_msg() {
        fit.pre_filter_msg = String::from(NODE_AFFINITY_CONFLICT_REASON);
    }

    // PostFilter: DefaultPreemption.
    let mut nomination = None;
    let preemption = if prep.pod.pod.preemption_policy == PreemptionPolicy::Never {
        let mut m = String::from(PREEMPTION_PREFIX);
        m.push_str(PREEMPTION_POLICY_NEVER);
        m
    } else {
        // Per class: `None` when preemption cannot help, else the dry run.
        let mut runs: Vec<Option<DryRun>> = Vec::with_capacity(groups.len());
        let mut potential_nodes = 0usize;
        for g in groups {
            let unresolvable = match g.eval {
                Evaluated::Rejected(s) => s.code == Code::UnschedulableAndUnresolvable,
                // 1.25 – 1.29 leave cut nodes without a status: they are candidates.
                Evaluated::Cut => version.at_least(30),
                // 1.26 – 1.28 record no status after a PreFilter rejection either.
                Evaluated::PreFilterRejected => !(26..=28).contains(&version.minor),
                Evaluated::Feasible => true,
            };
            if unresolvable {
                runs.push(None);
            } else {
                potential_nodes = potential_nodes.saturating_add(g.count);
                runs.push(Some(select_victims(prep, g.node, g.state)));
            }
        }
        let any_candidate = runs.iter().any(|r| matches!(r, Some(DryRun::Candidate(_))));
        if any_candidate {
            nomination = nominate(
                groups,
                &runs,
                class_of,
                num_nodes,
                potential_nodes,
                nodes,
                states,
            );
            String::new()
        } else {
            let mut nested = FitError::new(num_nodes);
            for (g, run) in groups.iter().zip(&runs) {
                match run {
                    None if matches!(g.eval, Evaluated::Feasible) => {}
                    None => nested.record_nodes(g.count, &[PREEMPTION_NOT_HELPFUL]),
                    Some(DryRun::Reasons(r)) => nested.record_nodes(g.count, r),
                    Some(DryRun::Candidate(_)) => {}
                }
            }
            let mut m = String::from(PREEMPTION_PREFIX);
            m.push_str(&nested.message(version));
            m
        }
    };
    let preemption_possible = nomination.is_some();
    if !preemption_possible {
        fit.post_filter_msg = post_filter_message(&preemption, options.dynamic_resources());
    }
    PodOutcome::Unschedulable {
        event: FailedScheduling::unschedulable(fit.message(version)),
        preemption_possible,
        nomination,
    }
}

/// Collects candidates in node order up to `calculateNumCandidates` and picks one.
fn nominate(
    groups: &[GroupView<'_>],
    runs: &[Option<DryRun>],
    class_of: Option<&[u32]>,
    num_nodes: usize,
    potential_nodes: usize,
    nodes: &[Node],
    states: &[NodeState],
) -> Option<Nomination> {
    let wanted = num_candidates(potential_nodes);
    let mut found: Vec<(usize, usize)> = Vec::new(); // (node, class)
    for node in 0..num_nodes {
        let class = match class_of {
            Some(c) => *c.get(node)? as usize,
            None => node,
        };
        if matches!(runs.get(class), Some(Some(DryRun::Candidate(_)))) {
            found.push((node, class));
            if found.len() >= wanted {
                break;
            }
        }
    }
    let priorities: Vec<Vec<VictimKey<'_>>> = found
        .iter()
        .map(|&(_, class)| match (runs.get(class), groups.get(class)) {
            (Some(Some(DryRun::Candidate(v))), Some(g)) => v
                .iter()
                .filter_map(|&i| {
                    g.state.pods.get(i).map(|p| VictimKey {
                        priority: p.priority,
                        start_time: &p.start_time,
                    })
                })
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let chosen = pick_one_node(&priorities)?;
    let &(node_index, class) = found.get(chosen)?;
    let Some(Some(DryRun::Candidate(victims))) = runs.get(class) else {
        return None;
    };
    let node = nodes.get(node_index)?;
    let state = states
        .get(node_index)
        .or(groups.get(class).map(|g| g.state))?;
    Some(Nomination {
        node_index,
        node: node.name.clone(),
        victims: victims
            .iter()
            .filter_map(|&i| {
                let r = state.pod_refs.get(i);
                Some(Victim {
                    index: i,
                    namespace: r.map(|r| r.namespace.clone()).unwrap_or_default(),
                    name: r.map(|r| r.name.clone()).unwrap_or_default(),
                    priority: state.pods.get(i)?.priority,
                })
            })
            .collect(),
    })
}
