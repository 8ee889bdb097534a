//! NodeResourcesFit (Filter and the LeastAllocated score) and
//! NodeResourcesBalancedAllocation, per release.
//!
//! Upstream: `pkg/scheduler/framework/plugins/noderesources/fit.go` (`fitsRequest`),
//! `resource_allocation.go` (`score`, `calculateResourceAllocatableRequest`),
//! `least_allocated.go` (`leastResourceScorer`, `leastRequestedScore`),
//! `balanced_allocation.go` (`balancedResourceScorer`, `PreScore`), read at the
//! `cluster-autoscaler-1.25.0` … `1.30.0` tags and in the current tree.
//!
//! What differs by release:
//! * `req > 0 &&` guards the cpu, memory and ephemeral-storage checks from 1.28
//!   (PR #116408): before, a pod that requests none of a resource still fails on a node
//!   whose pods already request more than its allocatable.
//! * A scalar (extended, hugepages) request of 0 is skipped from 1.26 (PR #111544).
//! * BalancedAllocation skips best-effort pods (no cpu or memory request) from 1.33
//!   (issue #129138; the release is inferred from the merge date): the plugin then
//!   contributes nothing for any node.
//!
//! Default plugin arguments only: LeastAllocated on cpu and memory with weight 1 each,
//! BalancedAllocation on cpu and memory, no ignored resources or groups.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::filter::{Code, Status};
use crate::resource::{CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Resource};
use crate::version::KubeVersion;

/// NodeResourcesFit's reason for the pod count.
pub const TOO_MANY_PODS_REASON: &str = "Too many pods";
/// NodeResourcesFit's score weight in the default profile.
pub const NODE_RESOURCES_FIT_WEIGHT: i64 = 1;
/// NodeResourcesBalancedAllocation's score weight in the default profile.
pub const BALANCED_ALLOCATION_WEIGHT: i64 = 1;

/// `Insufficient <name>`.
pub fn insufficient_reason(resource: &str) -> String {
    format!("Insufficient {resource}")
}

/// What a node holds, as NodeResourcesFit reads it (`NodeInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeUsage {
    /// `NodeInfo.Allocatable` (`status.allocatable`).
    pub allocatable: Resource,
    /// `NodeInfo.Requested`: the bound non-terminal pods' requests.
    pub requested: Resource,
    /// `NodeInfo.NonZeroRequested`: cpu (milli) and memory with the scoring defaults.
    pub non_zero: (i64, i64),
    /// `len(NodeInfo.Pods)`.
    pub pods: i64,
}

/// `InsufficientResource`: one failed check and its arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InsufficientResource {
    /// The resource name (`pods`, `cpu`, `memory`, `nvidia.com/gpu`, …).
    pub resource: String,
    /// The reason text in the FailedScheduling histogram.
    pub reason: String,
    /// What the pod requests (1 for `pods`; milli-cores for cpu).
    pub requested: i64,
    /// What the node's pods already request.
    pub used: i64,
    /// The node's allocatable.
    pub capacity: i64,
}

impl InsufficientResource {
    /// By how much the node falls short: `requested − (capacity − used)`.
    pub fn shortfall(&self) -> i64 {
        self.requested
            .saturating_sub(self.capacity.saturating_sub(self.used))
    }
}

/// `fitsRequest` with default arguments: every insufficient resource, in upstream's
/// order (pods, cpu, memory, ephemeral-storage, then scalars; upstream iterates the
/// scalars in Go map order, here by name).
pub fn fits_request(
    request: &Resource,
    node: &NodeUsage,
    version: KubeVersion,
) -> Vec<InsufficientResource> {
    let mut out = Vec::new();
    let alloc = &node.allocatable;
    if node.pods.saturating_add(1) > alloc.allowed_pod_number {
        out.push(InsufficientResource {
            resource: String::from(PODS),
            reason: String::from(TOO_MANY_PODS_REASON),
            requested: 1,
            used: node.pods,
            capacity: alloc.allowed_pod_number,
        });
    }
    if request.milli_cpu == 0
        && request.memory == 0
        && request.ephemeral_storage == 0
        && request.scalar.is_empty()
    {
        return out;
    }
    let guard = version.at_least(28);
    for (name, req, alloc_v, used) in [
        (
            CPU,
            request.milli_cpu,
            alloc.milli_cpu,
            node.requested.milli_cpu,
        ),
        (MEMORY, request.memory, alloc.memory, node.requested.memory),
        (
            EPHEMERAL_STORAGE,
            request.ephemeral_storage,
            alloc.ephemeral_storage,
            node.requested.ephemeral_storage,
        ),
    ] {
        if (!guard || req > 0) && req > alloc_v.saturating_sub(used) {
            out.push(InsufficientResource {
                resource: String::from(name),
                reason: insufficient_reason(name),
                requested: req,
                used,
                capacity: alloc_v,
            });
        }
    }
    let skip_zero = version.at_least(26);
    for (name, &req) in &request.scalar {
        if skip_zero && req == 0 {
            continue;
        }
        let alloc_v = alloc.scalar(name);
        let used = node.requested.scalar(name);
        if req > alloc_v.saturating_sub(used) {
            out.push(InsufficientResource {
                resource: name.clone(),
                reason: insufficient_reason(name),
                requested: req,
                used,
                capacity: alloc_v,
            });
        }
    }
    out
}

/// NodeResourcesFit `Filter`: one Unschedulable status carrying every reason.
pub fn node_resources_fit_filter(
    request: &Resource,
    node: &NodeUsage,
    version: KubeVersion,
) -> Status {
    let insufficient = fits_request(request, node, version);
    if insufficient.is_empty() {
        Status::success()
    } else {
        Status {
            code: Code::Unschedulable,
            reasons: insufficient.into_iter().map(|i| i.reason).collect(),
        }
    }
}

/// One line of the arithmetic behind NodeResourcesFit on a node, for explanations:
/// what the pod asks, what the node's pods already hold, what the node offers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceLine {
    /// The resource name (`pods` counts pods).
    pub resource: String,
    /// The pod's request (1 for `pods`; milli-cores for cpu, units otherwise).
    pub requested: i64,
    /// The bound pods' requests (`NodeInfo.Requested`), or their count for `pods`.
    pub used: i64,
    /// `status.allocatable`.
    pub allocatable: i64,
}

impl ResourceLine {
    /// `allocatable − used − requested`: negative when the node falls short.
    pub fn headroom(&self) -> i64 {
        self.allocatable
            .saturating_sub(self.used)
            .saturating_sub(self.requested)
    }
}

/// The arithmetic for every resource the pod requests (plus the pod count), in the
/// filter's order. Whether each line fails also depends on the release (see
/// [`fits_request`]); this only lays out the numbers.
pub fn resource_lines(request: &Resource, node: &NodeUsage) -> Vec<ResourceLine> {
    let mut out = alloc::vec![ResourceLine {
        resource: String::from(PODS),
        requested: 1,
        used: node.pods,
        allocatable: node.allocatable.allowed_pod_number,
    }];
    for (name, req) in [
        (CPU, request.milli_cpu),
        (MEMORY, request.memory),
        (EPHEMERAL_STORAGE, request.ephemeral_storage),
    ] {
        if req > 0 {
            out.push(ResourceLine {
                resource: String::from(name),
                requested: req,
                used: node.requested.get(name),
                allocatable: node.allocatable.get(name),
            });
        }
    }
    for (name, &req) in &request.scalar {
        out.push(ResourceLine {
            resource: name.clone(),
            requested: req,
            used: node.requested.scalar(name),
            allocatable: node.allocatable.scalar(name),
        });
    }
    out
}

/// `leastRequestedScore`.
pub fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    capacity.saturating_sub(requested).saturating_mul(100) / capacity
}

/// NodeResourcesFit's LeastAllocated score of a node for a pod whose non-zero cpu
/// (milli) and memory requests are `pod_non_zero`: per resource with non-zero
/// allocatable `(alloc − (nodeNonZero + pod)) × 100 / alloc`, then the weighted
/// (1, 1) integer mean.
pub fn least_allocated_score(pod_non_zero: (i64, i64), node: &NodeUsage) -> i64 {
    let parts = [
        (
            node.allocatable.milli_cpu,
            node.non_zero.0.saturating_add(pod_non_zero.0),
        ),
        (
            node.allocatable.memory,
            node.non_zero.1.saturating_add(pod_non_zero.1),
        ),
    ];
    let (mut score, mut weights) = (0i64, 0i64);
    for (alloc, req) in parts {
        if alloc == 0 {
            continue;
        }
        score = score.saturating_add(least_requested_score(req, alloc));
        weights += 1;
    }
    if weights == 0 { 0 } else { score / weights }
}

/// Whether BalancedAllocation scores a pod with these real cpu / memory requests
/// (best-effort pods are skipped from 1.33).
pub fn balanced_allocation_applies(pod_requested: (i64, i64), version: KubeVersion) -> bool {
    !(version.at_least(33) && pod_requested == (0, 0))
}

/// NodeResourcesBalancedAllocation's score: `(1 − |f_cpu − f_mem| / 2) × 100`,
/// truncated, where `f = min(requested / allocatable, 1)` over resources with non-zero
/// allocatable (one such resource scores 100).
pub fn balanced_allocation_score(pod_requested: (i64, i64), node: &NodeUsage) -> i64 {
    // Runs once per node and cycle: no allocation.
    let fraction = |alloc: i64, req: i64| {
        (alloc != 0).then(|| {
            let f = req as f64 / alloc as f64;
            if f > 1.0 { 1.0 } else { f }
        })
    };
    let cpu = fraction(
        node.allocatable.milli_cpu,
        node.requested.milli_cpu.saturating_add(pod_requested.0),
    );
    let memory = fraction(
        node.allocatable.memory,
        node.requested.memory.saturating_add(pod_requested.1),
    );
    let std = match (cpu, memory) {
        (Some(a), Some(b)) => {
            let d = (a - b) / 2.0;
            if d < 0.0 { -d } else { d }
        }
        _ => 0.0,
    };
    ((1.0 - std) * 100.0) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{ResourceList, list};
    use alloc::vec;

    fn usage(alloc: &[(&str, &str)], requested: &[(&str, &str)], pods: i64) -> NodeUsage {
        let a: ResourceList = list(alloc);
        let r: ResourceList = list(requested);
        NodeUsage {
            allocatable: Resource::from_list(&a),
            requested: Resource::from_list(&r),
            non_zero: (0, 0),
            pods,
        }
    }

    #[test]
    fn too_many_pods_and_resources_in_order() {
        let node = usage(
            &[("cpu", "1"), ("memory", "1Gi"), ("pods", "1")],
            &[("cpu", "1")],
            1,
        );
        let req = Resource::from_list(&list(&[("cpu", "1m"), ("memory", "2Gi")]));
        let r = fits_request(&req, &node, KubeVersion::new(30, 0));
        let reasons: Vec<&str> = r.iter().map(|i| i.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["Too many pods", "Insufficient cpu", "Insufficient memory"]
        );
        assert_eq!(r[1].shortfall(), 1);
        assert_eq!(r[2].shortfall(), 1 << 30);
    }

    #[test]
    fn arithmetic_lines() {
        let node = usage(
            &[("cpu", "2"), ("pods", "10"), ("nvidia.com/gpu", "1")],
            &[("cpu", "1500m")],
            3,
        );
        let req = Resource::from_list(&list(&[("cpu", "1"), ("nvidia.com/gpu", "2")]));
        let lines = resource_lines(&req, &node);
        let h: Vec<(&str, i64)> = lines
            .iter()
            .map(|l| (l.resource.as_str(), l.headroom()))
            .collect();
        assert_eq!(h, [("pods", 6), ("cpu", -500), ("nvidia.com/gpu", -1)]);
    }

    #[test]
    fn zero_request_guard_from_1_28() {
        // Over-committed node: requested 2 of 1 cpu.
        let node = usage(
            &[("cpu", "1"), ("memory", "1Gi"), ("pods", "10")],
            &[("cpu", "2")],
            1,
        );
        let req = Resource::from_list(&list(&[("memory", "1")]));
        assert_eq!(
            node_resources_fit_filter(&req, &node, KubeVersion::new(27, 0)).reasons,
            vec![String::from("Insufficient cpu")]
        );
        assert!(node_resources_fit_filter(&req, &node, KubeVersion::new(28, 0)).is_success());
    }

    #[test]
    fn zero_scalar_skipped_from_1_26() {
        let node = usage(&[("pods", "10")], &[("example.com/foo", "1")], 1);
        let mut req = Resource::default();
        req.scalar.insert(String::from("example.com/foo"), 0);
        assert_eq!(
            node_resources_fit_filter(&req, &node, KubeVersion::new(25, 0)).reasons,
            vec![String::from("Insufficient example.com/foo")]
        );
        assert!(node_resources_fit_filter(&req, &node, KubeVersion::new(26, 0)).is_success());
    }

    #[test]
    fn scores_of_the_worked_example() {
        // allocatable 4 cpu / 8Gi; 1 cpu and 2Gi requested; pod 500m, no memory.
        let mut node = usage(
            &[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")],
            &[("cpu", "1"), ("memory", "2Gi")],
            1,
        );
        node.non_zero = (1000, 2 << 30);
        assert_eq!(least_allocated_score((500, 209_715_200), &node), 67);
        assert_eq!(balanced_allocation_score((500, 0), &node), 93);
        assert!(!balanced_allocation_applies(
            (0, 0),
            KubeVersion::new(33, 0)
        ));
        assert!(balanced_allocation_applies((0, 0), KubeVersion::new(32, 0)));
    }
}
