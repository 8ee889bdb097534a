//! kube-scheduler: the TaintToleration and NodeUnschedulable plugins, the
//! FailedScheduling message, per-pair explanations and a cluster-scale evaluation.
//!
//! * [`filter`]: the two Filter plugins in upstream order and the version-dependent
//!   reason texts (`plugins/tainttoleration/taint_toleration.go`,
//!   `plugins/nodeunschedulable/node_unschedulable.go`).
//! * [`score`]: PreScore/Score and `DefaultNormalizeScore` (`plugins/helper/normalize_score.go`).
//! * [`fit_error`]: `FitError.Error()`, the DefaultPreemption post-filter text and the
//!   FailedScheduling event (`pkg/scheduler/framework/types.go`, `schedule_one.go`).
//! * [`kubelet`]: the kubelet's NoExecute admission check (`pkg/kubelet/lifecycle/predicate.go`).
//! * [`mod@explain`]: why one pod does or does not fit one node, as plain data.
//! * [`cluster`]: every pod against every node, grouped into equivalence classes
//!   (taint filters only).
//! * [`selector`]: node selectors and node affinity terms.
//! * [`placement`]: one scheduling cycle with every modelled placement plugin
//!   (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts), per release.
//! * [`placement_cluster`]: [`placement`] for every pod against every node, grouped.
//! * [`resources`]: NodeResourcesFit (filter, LeastAllocated score) and
//!   NodeResourcesBalancedAllocation.
//! * [`preemption`]: DefaultPreemption's dry run, victims and nominated node.

pub mod cluster;
pub mod explain;
pub mod filter;
pub mod fit_error;
pub mod kubelet;
pub mod placement;
pub mod placement_cluster;
pub mod preemption;
pub mod resources;
pub mod score;
pub mod selector;

pub use cluster::{Cell, ClusterResult, NodeClasses, Verdict, schedule, schedule_on};
pub use explain::{Explanation, explain};
pub use filter::{Code, FilterPlugin, NodeFilterResult, Status, run_filters};
pub use fit_error::{FailedScheduling, FitError};

#[cfg(test)]
mod placement_tests;
#[cfg(test)]
mod resources_tests;
#[cfg(test)]
mod tests;
