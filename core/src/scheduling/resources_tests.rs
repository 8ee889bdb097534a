//! Tests of resources in the placement cycle: `PodRequests` (upstream's table),
//! NodeResourcesFit texts and codes, scores, DefaultPreemption's victims and node pick,
//! and properties (monotonicity, victim priorities, grouped == naive).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::placement::*;
use super::placement_cluster::PlacementIndex;
use super::preemption::{Nomination, VictimKey, num_candidates, pick_one_node};
use crate::model::*;
use crate::quantity::Quantity;
use crate::resource::{
    ContainerResources, RequestRules, ResourceList, list, pod_requests, summarize,
};
use crate::version::{KubeVersion, Semantics};

fn at(minor: u16) -> PlacementOptions {
    PlacementOptions::new(Semantics::at(KubeVersion::new(minor, 0)))
}

fn node(name: &str, taints: &[(&str, &str)]) -> Node {
    Node {
        name: name.into(),
        taints: taints
            .iter()
            .map(|(k, v)| Taint::new(k, v, TaintEffect::NoSchedule))
            .collect(),
        ..Node::default()
    }
}

fn pod(name: &str, requests: &[(&str, &str)]) -> SchedulingPod {
    let mut p = SchedulingPod::from(Pod {
        namespace: "default".into(),
        name: name.into(),
        ..Pod::default()
    });
    p.placement.containers = vec![ContainerResources::requesting(requests)];
    p
}

fn bound(name: &str, node: &str, priority: i32, requests: &[(&str, &str)]) -> SchedulingPod {
    let mut p = pod(name, requests);
    p.pod.node_name = node.into();
    p.placement.priority = priority;
    p
}

fn alloc(pairs: &[(&str, &str)]) -> Option<ResourceList> {
    Some(list(pairs))
}

fn run(
    p: &SchedulingPod,
    nodes: &[Node],
    allocs: &[Option<ResourceList>],
    bound: &[SchedulingPod],
    o: PlacementOptions,
) -> PodPlacementResult {
    let states = node_states_with_allocatable(nodes, allocs, bound, o);
    let naive = schedule_one(p, nodes, &states, o);
    let grouped = PlacementIndex::with_states(
        nodes,
        states.clone(),
        super::placement_cluster::GroupingKeys::of(core::slice::from_ref(p), o),
        o,
    )
    .schedule(core::slice::from_ref(p));
    assert_eq!(grouped.outcome(0), Some(&naive.outcome), "grouped != naive");
    for (i, cell) in naive.nodes.iter().enumerate() {
        assert_eq!(grouped.cell(0, i), Some(cell), "cell {i}");
    }
    naive
}

fn message(r: &PodPlacementResult) -> &str {
    r.outcome.message().unwrap_or("")
}

fn requests_of(init: Vec<ContainerResources>, containers: Vec<ContainerResources>) -> ResourceList {
    let mut p = SchedulingPod::default();
    p.placement.init_containers = init;
    p.placement.containers = containers;
    let rules = RequestRules {
        api_defaulting: false,
        ..RequestRules::for_version(KubeVersion::NEWEST)
    };
    pod_requests(p.placement.spec_resources(), rules, false)
}

fn cpu(v: &str) -> ContainerResources {
    ContainerResources::requesting(&[("cpu", v)])
}

#[test]
fn pod_requests_upstream_table() {
    // TestPodResourceRequests (component-helpers/resource/helpers_test.go).
    let q = |s: &str| Quantity::parse(s).unwrap();
    let case = |init, containers, want: &str| {
        assert_eq!(requests_of(init, containers).get("cpu"), Some(&q(want)));
    };
    case(vec![cpu("4")], vec![cpu("1")], "4"); // nil options, larger init container
    case(vec![cpu("2")], vec![cpu("2"), cpu("3")], "5"); // larger containers
    case(vec![cpu("1").sidecar()], vec![cpu("1")], "2"); // restartable init container
    case(
        vec![
            cpu("5"),
            cpu("1").sidecar(),
            cpu("2").sidecar(),
            cpu("3").sidecar(),
        ],
        vec![cpu("1")],
        "7",
    );
    case(
        vec![
            cpu("5"),
            cpu("1").sidecar(),
            cpu("2").sidecar(),
            cpu("5"),
            cpu("3").sidecar(),
        ],
        vec![cpu("1")],
        "8",
    );
    case(
        vec![cpu("10").sidecar(), cpu("200")],
        vec![cpu("100")],
        "210",
    );
    // TestPodRequestsAndLimits: "just-limit-no-overhead" (no API defaulting).
    let mut p = SchedulingPod::default();
    p.placement.containers = vec![ContainerResources {
        resources: crate::resource::ResourceRequirements {
            limits: list(&[("cpu", "9")]),
            ..Default::default()
        },
        ..Default::default()
    }];
    let raw = RequestRules {
        api_defaulting: false,
        ..RequestRules::for_version(KubeVersion::NEWEST)
    };
    assert!(pod_requests(p.placement.spec_resources(), raw, false).is_empty());
    // The scheduler sees the API-defaulted pod: requests = limits.
    let s = summarize(p.placement.spec_resources(), KubeVersion::NEWEST);
    assert_eq!(s.request.milli_cpu, 9000);
    // "req-and-overhead".
    p.placement.containers = vec![ContainerResources::requesting(&[
        ("cpu", "1"),
        ("memory", "10"),
    ])];
    p.placement.overhead = list(&[("cpu", "5"), ("memory", "5")]);
    let r = pod_requests(p.placement.spec_resources(), raw, false);
    assert_eq!(r.get("cpu"), Some(&q("6")));
    assert_eq!(r.get("memory"), Some(&q("15")));
}

#[test]
fn sidecars_count_from_1_29() {
    let mut p = SchedulingPod::default();
    p.placement.init_containers = vec![cpu("1").sidecar()];
    p.placement.containers = vec![cpu("1")];
    let v = |m| {
        summarize(p.placement.spec_resources(), KubeVersion::new(m, 0))
            .request
            .milli_cpu
    };
    assert_eq!(v(28), 1000);
    assert_eq!(v(29), 2000);
}

#[test]
fn per_container_rounding_until_1_26() {
    // API defaulting rounds each quantity up to milli units, so cpu never differs;
    // memory of 0.5 (500m) in two containers is 1 + 1 bytes until 1.26 and 1 byte
    // after (checked with the v1.25, v1.26 and v1.29 schedulers).
    let mut p = SchedulingPod::default();
    p.placement.containers = vec![
        ContainerResources::requesting(&[("memory", "0.5"), ("cpu", "0.5m")]),
        ContainerResources::requesting(&[("memory", "0.5"), ("cpu", "0.5m")]),
    ];
    let v = |m| summarize(p.placement.spec_resources(), KubeVersion::new(m, 0)).request;
    assert_eq!((v(26).memory, v(26).milli_cpu), (2, 2));
    assert_eq!((v(27).memory, v(27).milli_cpu), (1, 2));
}

#[test]
fn pod_level_resources_from_1_34() {
    let mut p = SchedulingPod::default();
    p.placement.containers = vec![cpu("1")];
    p.placement.resources = Some(crate::resource::ResourceRequirements {
        requests: list(&[("cpu", "3"), ("ephemeral-storage", "1Gi")]),
        ..Default::default()
    });
    let s = |m| summarize(p.placement.spec_resources(), KubeVersion::new(m, 0)).request;
    assert_eq!(s(33).milli_cpu, 1000);
    assert_eq!(s(34).milli_cpu, 3000);
    // Only cpu, memory and hugepages are pod-level resources.
    assert_eq!(s(34).ephemeral_storage, 0);
}

#[test]
fn non_zero_defaults_with_pod_level_requests() {
    // Pod-level cpu set: memory is missing from the aggregate only if no container
    // requests it; one container with memory means no memory default at all.
    let mut p = SchedulingPod::default();
    p.placement.containers = vec![
        ContainerResources::requesting(&[("memory", "1Gi")]),
        ContainerResources::requesting(&[]),
    ];
    p.placement.resources = Some(crate::resource::ResourceRequirements {
        requests: list(&[("cpu", "2")]),
        ..Default::default()
    });
    let s = summarize(p.placement.spec_resources(), KubeVersion::new(34, 0));
    assert_eq!((s.non_zero_milli_cpu, s.non_zero_memory), (2000, 1 << 30));
    // Without pod-level requests each container gets its own defaults.
    p.placement.resources = None;
    let s = summarize(p.placement.spec_resources(), KubeVersion::new(34, 0));
    assert_eq!(
        (s.non_zero_milli_cpu, s.non_zero_memory),
        (200, (1 << 30) + 209_715_200)
    );
}

#[test]
fn overhead_in_scores_is_whole_cores_until_1_26() {
    let mut p = SchedulingPod::default();
    p.placement.containers = vec![cpu("100m")];
    p.placement.overhead = list(&[("cpu", "250m")]);
    let s = |m| summarize(p.placement.spec_resources(), KubeVersion::new(m, 0));
    // calculatePodResourceRequest adds overhead.Value() (1 core rounded up) in 1.25.
    assert_eq!(s(26).score_non_zero.0, 101);
    assert_eq!(s(27).score_non_zero.0, 350);
    assert_eq!(s(26).request.milli_cpu, 350);
}

#[test]
fn gpu_recipe_example() {
    // Worked example 1: the only GPU node is tainted.
    let nodes = [
        node("cpu-1", &[]),
        node("cpu-2", &[]),
        node("gpu-1", &[("nvidia.com/gpu", "present")]),
    ];
    let a = alloc(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]);
    let g = alloc(&[
        ("cpu", "4"),
        ("memory", "8Gi"),
        ("pods", "110"),
        ("nvidia.com/gpu", "1"),
    ]);
    let allocs = [a.clone(), a, g];
    let p = pod("train", &[("nvidia.com/gpu", "1"), ("cpu", "100m")]);
    let r = run(&p, &nodes, &allocs, &[], at(30));
    assert_eq!(
        message(&r),
        "0/3 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: present}, 2 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
    );
    // With the toleration ExtendedResourceToleration adds, it fits until the GPU is used.
    let mut tolerant = p.clone();
    tolerant.pod.tolerations = vec![Toleration::new(
        "nvidia.com/gpu",
        Operator::Exists,
        "",
        TaintEffect::Empty,
    )];
    let r = run(&tolerant, &nodes, &allocs, &[], at(30));
    assert_eq!(r.outcome, PodOutcome::Feasible { nodes: 1 });
    assert!(r.nodes[2].resources_checked());
    let used = [bound("other", "gpu-1", 0, &[("nvidia.com/gpu", "1")])];
    let r = run(&tolerant, &nodes, &allocs, &used, at(30));
    assert_eq!(
        message(&r),
        "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
}

#[test]
fn gpu_recipe_through_admission() {
    // The documented recipe: GPU nodes tainted `nvidia.com/gpu`, a pod that requests the
    // resource (as a limit only) gets the toleration from ExtendedResourceToleration
    // and then fits while GPUs are left.
    use crate::admission::{Operation, extended_resource_toleration};
    let nodes = [node("cpu-1", &[]), node("gpu-1", &[("nvidia.com/gpu", "")])];
    let a = alloc(&[("cpu", "8"), ("memory", "32Gi"), ("pods", "110")]);
    let g = alloc(&[
        ("cpu", "8"),
        ("memory", "32Gi"),
        ("pods", "110"),
        ("nvidia.com/gpu", "2"),
    ]);
    let allocs = [a, g];
    let mut p = pod("train", &[("cpu", "1")]);
    p.placement.containers[0].resources.limits = list(&[("nvidia.com/gpu", "1")]);
    let names = crate::resource::requested_names(p.placement.spec_resources());
    extended_resource_toleration::admit(Operation::Create, &mut p.pod.tolerations, &names);
    assert_eq!(p.pod.tolerations.len(), 1);
    let mut running: Vec<SchedulingPod> = Vec::new();
    for i in 0..3 {
        let r = run(&p, &nodes, &allocs, &running, at(35));
        if i < 2 {
            assert_eq!(r.outcome, PodOutcome::Feasible { nodes: 1 }, "pod {i}");
            let mut placed = p.clone();
            placed.pod.name = alloc::format!("train-{i}");
            placed.pod.node_name = "gpu-1".into();
            running.push(placed);
        } else {
            assert_eq!(
                message(&r),
                "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
            );
        }
    }
}

#[test]
fn cpu_shortage_and_taints_example() {
    // Worked example 2.
    let nodes = [
        node("w-1", &[]),
        node("cp-1", &[("node-role.kubernetes.io/control-plane", "")]),
        node("cp-2", &[("node-role.kubernetes.io/control-plane", "")]),
    ];
    let a = alloc(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]);
    let allocs = [a.clone(), a.clone(), a];
    let used = [bound("busy", "w-1", 0, &[("cpu", "3500m")])];
    let p = pod("web", &[("cpu", "1")]);
    let r = run(&p, &nodes, &allocs, &used, at(30));
    assert_eq!(
        message(&r),
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
    );
    // The arithmetic: 1000m requested, 3500m used of 4000m: 500m short.
    let states = node_states_with_allocatable(&nodes, &allocs, &used, at(30));
    let prep = PreparedPod::new(&p, at(30));
    let short = prep.insufficient(&states[0]).unwrap();
    assert_eq!(short.len(), 1);
    assert_eq!(
        (short[0].resource.as_str(), short[0].shortfall()),
        ("cpu", 500)
    );
    assert_eq!(prep.insufficient(&NodeState::default()), None);
    // Variant: lower-priority pods whose removal is not enough.
    let used = [
        bound("busy", "w-1", 0, &[("cpu", "3500m")]),
        bound("low", "w-1", -10, &[("cpu", "100m")]),
    ];
    let allocs2 = [
        alloc(&[("cpu", "4"), ("pods", "110")]),
        alloc(&[("cpu", "4"), ("pods", "110")]),
        alloc(&[("cpu", "4"), ("pods", "110")]),
    ];
    let r = run(&p, &nodes, &allocs2, &used, at(30));
    assert_eq!(
        message(&r),
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 Preemption is not helpful for scheduling."
    );
}

#[test]
fn preemption_nominates_and_names_victims() {
    // Worked example 3.
    let nodes = [node("n-1", &[]), node("n-2", &[])];
    let a = alloc(&[("cpu", "2"), ("pods", "110")]);
    let allocs = [a.clone(), a];
    let used = [
        bound("low", "n-1", 0, &[("cpu", "1500m")]),
        bound("vip", "n-2", 1000, &[("cpu", "1500m")]),
    ];
    let mut p = pod("mid", &[("cpu", "1")]);
    p.placement.priority = 500;
    let r = run(&p, &nodes, &allocs, &used, at(30));
    match &r.outcome {
        PodOutcome::Unschedulable {
            event,
            preemption_possible,
            nomination: Some(Nomination { node, victims, .. }),
        } => {
            assert!(*preemption_possible);
            assert_eq!(
                event.message,
                "0/2 nodes are available: 2 Insufficient cpu."
            );
            assert_eq!(node, "n-1");
            assert_eq!(victims.len(), 1);
            assert_eq!(victims[0].name, "low");
        }
        other => panic!("{other:?}"),
    }
    // preemptionPolicy: Never, several reasons on one node (worked example 4).
    p.pod.preemption_policy = PreemptionPolicy::Never;
    p.placement.containers = vec![ContainerResources::requesting(&[
        ("cpu", "1"),
        ("memory", "1Gi"),
    ])];
    let r = run(&p, &nodes, &allocs, &used, at(30));
    assert_eq!(
        message(&r),
        "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never."
    );
}

#[test]
fn reprieve_from_the_most_important_down() {
    let nodes = [node("n", &[])];
    let allocs = [alloc(&[("cpu", "3"), ("pods", "110")])];
    let used = [
        bound("low-a", "n", 1, &[("cpu", "1")]),
        bound("low-b", "n", 2, &[("cpu", "1")]),
        bound("keep", "n", 10, &[("cpu", "1")]),
    ];
    let mut p = pod("p", &[("cpu", "1")]);
    p.placement.priority = 5;
    let r = run(&p, &nodes, &allocs, &used, at(31));
    let PodOutcome::Unschedulable {
        nomination: Some(n),
        ..
    } = &r.outcome
    else {
        panic!("{:?}", r.outcome)
    };
    // low-b (priority 2) is reprieved first and fits back; low-a is the victim.
    assert_eq!(
        n.victims
            .iter()
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>(),
        ["low-a"]
    );
}

fn keys<'a>(v: &[(i32, &'a str)]) -> Vec<VictimKey<'a>> {
    v.iter()
        .map(|&(priority, start_time)| VictimKey {
            priority,
            start_time,
        })
        .collect()
}

#[test]
fn node_pick_criteria() {
    let pick = |c: &[&[(i32, &str)]]| {
        let v: Vec<Vec<VictimKey<'_>>> = c.iter().map(|x| keys(x)).collect();
        pick_one_node(&v)
    };
    // Lowest highest-victim priority, then lowest priority sum, then fewest victims.
    assert_eq!(pick(&[&[(5, "")], &[(3, ""), (3, "")]]), Some(1));
    assert_eq!(pick(&[&[(3, ""), (3, "")], &[(3, ""), (1, "")]]), Some(1));
    // Each victim adds priority + 2^31, so fewer victims usually win the sum step.
    assert_eq!(
        pick(&[&[(3, ""), (-5, ""), (-5, "")], &[(3, ""), (0, "")]]),
        Some(1)
    );
    assert_eq!(pick(&[&[(1, "")], &[(1, "")]]), Some(0));
    // Then the latest earliest start time among the highest-priority victims; a
    // victim without a start time counts as starting now.
    let t1 = "2024-01-01T00:00:00Z";
    let t2 = "2024-01-02T00:00:00Z";
    assert_eq!(pick(&[&[(1, t1)], &[(1, t2)]]), Some(1));
    assert_eq!(pick(&[&[(1, t2)], &[(1, t1)]]), Some(0));
    assert_eq!(pick(&[&[(1, t2)], &[(1, "")]]), Some(1));
    assert_eq!(pick(&[]), None);
    assert_eq!(num_candidates(50), 50);
    assert_eq!(num_candidates(500), 100);
    assert_eq!(num_candidates(5000), 500);
}

#[test]
fn victims_by_start_time() {
    // Equal priorities: the pod that started first is more important, so it is
    // reprieved first and the later one is the victim.
    let nodes = [node("n", &[])];
    let allocs = [alloc(&[("cpu", "2"), ("pods", "110")])];
    let mut a1 = bound("a1", "n", 1, &[("cpu", "700m")]);
    a1.placement.start_time = "2024-01-02T00:00:00Z".into();
    let mut a2 = bound("a2", "n", 1, &[("cpu", "700m")]);
    a2.placement.start_time = "2024-01-01T00:00:00Z".into();
    let mut p = pod("p", &[("cpu", "1")]);
    p.placement.priority = 5;
    let r = run(&p, &nodes, &allocs, &[a1, a2], at(30));
    let PodOutcome::Unschedulable {
        nomination: Some(n),
        ..
    } = &r.outcome
    else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(n.victims[0].name, "a1");
}

#[test]
fn too_many_pods_sorts_as_text() {
    // Worked example 5: 10 nodes short of cpu and memory, 2 full of pods.
    let mut nodes = Vec::new();
    let mut allocs = Vec::new();
    let mut used = Vec::new();
    for i in 0..12 {
        let name = alloc::format!("n-{i}");
        nodes.push(node(&name, &[]));
        if i < 10 {
            allocs.push(alloc(&[("cpu", "1"), ("memory", "1Gi"), ("pods", "110")]));
        } else {
            allocs.push(alloc(&[("cpu", "8"), ("memory", "8Gi"), ("pods", "2")]));
            used.push(bound(&alloc::format!("a-{i}"), &name, 0, &[]));
            used.push(bound(&alloc::format!("b-{i}"), &name, 0, &[]));
        }
    }
    let p = pod("big", &[("cpu", "2"), ("memory", "2Gi")]);
    let r = run(&p, &nodes, &allocs, &used, at(30));
    assert_eq!(
        message(&r),
        "0/12 nodes are available: 10 Insufficient cpu, 10 Insufficient memory, 2 Too many pods. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod."
    );
}

#[test]
fn unknown_allocatable_is_not_checked() {
    let nodes = [node("pasted", &[])];
    let p = pod("huge", &[("cpu", "1000")]);
    let r = run(&p, &nodes, &[None], &[], at(30));
    assert_eq!(r.outcome, PodOutcome::Feasible { nodes: 1 });
    assert!(!r.nodes[0].resources_checked());
    let r = run(
        &p,
        &nodes,
        &[alloc(&[("cpu", "1"), ("pods", "1")])],
        &[],
        at(30),
    );
    assert!(message(&r).starts_with("0/1 nodes are available: 1 Insufficient cpu."));
}

#[test]
fn terminal_pods_hold_nothing() {
    let nodes = [node("n", &[])];
    let allocs = [alloc(&[("cpu", "1"), ("pods", "1")])];
    let mut done = bound("done", "n", 0, &[("cpu", "1")]);
    done.placement.phase = "Succeeded".into();
    let p = pod("p", &[("cpu", "1")]);
    let r = run(&p, &nodes, &allocs, &[done.clone()], at(30));
    assert_eq!(r.outcome, PodOutcome::Feasible { nodes: 1 });
    done.placement.phase = "Running".into();
    let r = run(&p, &nodes, &allocs, &[done], at(30));
    assert!(message(&r).contains("1 Insufficient cpu, 1 Too many pods"));
}

#[test]
fn scores_beside_the_taint_scores() {
    let nodes = [node("a", &[]), node("b", &[])];
    let allocs = [
        alloc(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]),
        alloc(&[("cpu", "4"), ("memory", "8Gi"), ("pods", "110")]),
    ];
    let used = [bound("x", "a", 0, &[("cpu", "1"), ("memory", "2Gi")])];
    let p = pod("p", &[("cpu", "500m")]);
    let r = run(&p, &nodes, &allocs, &used, at(30));
    let NodeOutcome::Feasible {
        node_resources_fit,
        balanced_allocation,
        ..
    } = &r.nodes[0]
    else {
        panic!()
    };
    assert_eq!(
        (*node_resources_fit, *balanced_allocation),
        (Some(67), Some(93))
    );
    // Empty node: cpu (4000−500)·100/4000 = 87, memory (8Gi−200Mi)·100/8Gi = 97 → 92.
    let NodeOutcome::Feasible {
        node_resources_fit, ..
    } = &r.nodes[1]
    else {
        panic!()
    };
    assert_eq!(*node_resources_fit, Some(92));
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn arb_pod(name: &'static str) -> impl Strategy<Value = SchedulingPod> {
    (0u32..3000, 0u32..4, 0u32..2, -2i32..3).prop_map(move |(c, m, g, prio)| {
        let mut reqs: Vec<(String, String)> = vec![(String::from("cpu"), alloc::format!("{c}m"))];
        if m > 0 {
            reqs.push((String::from("memory"), alloc::format!("{m}Gi")));
        }
        if g > 0 {
            reqs.push((String::from("nvidia.com/gpu"), alloc::format!("{g}")));
        }
        let refs: Vec<(&str, &str)> = reqs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let mut p = pod(name, &refs);
        p.placement.priority = prio;
        p
    })
}

fn arb_cluster() -> impl Strategy<Value = (Vec<Node>, Vec<Option<ResourceList>>, Vec<SchedulingPod>)>
{
    let nodes = proptest::collection::vec(
        (any::<bool>(), 1u32..5, 0u32..3, 1u32..4, any::<bool>()),
        1..6,
    );
    let pods = proptest::collection::vec((arb_pod("b"), 0usize..6), 0..10);
    (nodes, pods).prop_map(|(ns, ps)| {
        let nodes: Vec<Node> = (0..ns.len())
            .map(|i| node(&alloc::format!("n{i}"), &[]))
            .collect();
        let allocs = ns
            .iter()
            .map(|&(known, c, g, pods, tainted)| {
                let _ = tainted;
                known.then(|| {
                    list(&[
                        ("cpu", &alloc::format!("{c}")),
                        ("memory", "4Gi"),
                        ("nvidia.com/gpu", &alloc::format!("{g}")),
                        ("pods", &alloc::format!("{pods}")),
                    ])
                })
            })
            .collect();
        let bound = ps
            .into_iter()
            .enumerate()
            .map(|(i, (mut p, n))| {
                p.pod.name = alloc::format!("b{i}");
                p.pod.node_name = alloc::format!("n{}", n % ns.len());
                p
            })
            .collect();
        (nodes, allocs, bound)
    })
}

fn fits_somewhere(r: &PodPlacementResult) -> bool {
    matches!(r.outcome, PodOutcome::Feasible { .. })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn more_allocatable_never_breaks_a_fit(
        (nodes, allocs, bound) in arb_cluster(),
        p in arb_pod("p"),
        minor in 25u16..38,
    ) {
        let o = at(minor);
        let before = run(&p, &nodes, &allocs, &bound, o);
        let bigger: Vec<Option<ResourceList>> = allocs
            .iter()
            .map(|a| a.as_ref().map(|l| {
                l.iter().map(|(k, v)| (k.clone(), v.plus(Quantity::from_int(1)))).collect()
            }))
            .collect();
        let after = run(&p, &nodes, &bigger, &bound, o);
        for (b, a) in before.nodes.iter().zip(&after.nodes) {
            prop_assert!(!b.is_feasible() || a.is_feasible());
        }
        prop_assert!(!fits_somewhere(&before) || fits_somewhere(&after));
    }

    #[test]
    fn batch_grouped_equals_naive(
        (nodes, allocs, bound) in arb_cluster(),
        pods in proptest::collection::vec(arb_pod("p"), 1..5),
        minor in 25u16..38,
    ) {
        let o = at(minor);
        let states = node_states_with_allocatable(&nodes, &allocs, &bound, o);
        let naive = schedule_naive_states(&pods, &nodes, &states, o);
        let index = PlacementIndex::with_allocatable(&nodes, &allocs, &bound, &pods, o);
        let grouped = index.schedule(&pods);
        for (i, r) in naive.iter().enumerate() {
            prop_assert_eq!(grouped.outcome(i), Some(&r.outcome));
            for (j, cell) in r.nodes.iter().enumerate() {
                prop_assert_eq!(grouped.cell(i, j), Some(cell));
            }
        }
    }

    #[test]
    fn removing_bound_pods_never_breaks_a_fit(
        (nodes, allocs, bound) in arb_cluster(),
        p in arb_pod("p"),
        drop in 0usize..10,
        minor in 25u16..38,
    ) {
        let o = at(minor);
        let before = run(&p, &nodes, &allocs, &bound, o);
        let mut fewer = bound.clone();
        if !fewer.is_empty() {
            fewer.remove(drop % fewer.len());
        }
        let after = run(&p, &nodes, &allocs, &fewer, o);
        for (b, a) in before.nodes.iter().zip(&after.nodes) {
            prop_assert!(!b.is_feasible() || a.is_feasible());
        }
    }

    #[test]
    fn victims_have_lower_priority_and_make_room(
        (nodes, allocs, bound) in arb_cluster(),
        p in arb_pod("p"),
        minor in 25u16..38,
    ) {
        let o = at(minor);
        let r = run(&p, &nodes, &allocs, &bound, o);
        if let PodOutcome::Unschedulable { nomination: Some(n), .. } = &r.outcome {
            prop_assert!(!n.victims.is_empty());
            for v in &n.victims {
                prop_assert!(v.priority < p.placement.priority);
            }
            // Without the victims the pod fits the nominated node.
            let rest: Vec<SchedulingPod> = bound
                .iter()
                .filter(|b| !(b.pod.node_name == n.node && n.victims.iter().any(|v| v.name == b.pod.name)))
                .cloned()
                .collect();
            let after = run(&p, &nodes, &allocs, &rest, o);
            prop_assert!(after.nodes[n.node_index].is_feasible());
        }
    }
}
