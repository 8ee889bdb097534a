//! The full filter chain through the scenario: node affinity, ports, resources,
//! preemption, gates, other schedulers and DaemonSet pods.
//!
//! Pods are pasted as YAML; the placement fields the test needs are also set on the
//! read workloads, so the tests state exactly what the scheduler is given whatever the
//! input layer already reads.

use taintlab_core::KubeVersion;
use taintlab_core::model::PodPlacement;
use taintlab_core::resource::{ContainerResources, ResourceList, list};
use taintlab_core::scheduling::FilterPlugin;
use taintlab_core::scheduling::placement::PodOutcome;

use crate::placement::{FilterState, Hold};
use crate::*;

fn options() -> Options {
    Options {
        semantics: Semantics::newest(),
        admission: Some(AdmissionOptions::default()),
        daemon_set: None,
    }
}

fn pane(text: &str, kind: PaneKind) -> ParsedPane {
    ParsedPane::parse(text, kind, KubeVersion::NEWEST)
}

/// Sets the placement of the workload named `name` (its read fields kept otherwise).
fn set(p: &mut ParsedPane, name: &str, f: impl FnOnce(&mut PodPlacement)) {
    let w = p
        .parsed
        .workloads
        .iter_mut()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("no workload {name}"));
    f(&mut w.placement);
}

/// Sets a node's allocatable.
fn allocatable(p: &mut ParsedPane, name: &str, pairs: &[(&str, &str)]) {
    let n = p
        .parsed
        .nodes
        .iter_mut()
        .find(|n| n.node.name == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    n.allocatable = Some(list(pairs));
}

fn requesting(pairs: &[(&str, &str)]) -> Vec<ContainerResources> {
    vec![ContainerResources::requesting(pairs)]
}

fn build(nodes: &ParsedPane, pods: &ParsedPane, o: &Options) -> Scenario {
    Scenario::build(&[nodes, pods], o)
}

fn selector(pairs: &[(&str, &str)]) -> std::collections::BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const ISSUE_NODES: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: payments-1\n  labels: {dedicated: payments}\nspec:\n  taints: [{key: dedicated, value: payments, effect: NoSchedule}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: general-1}\n";
const ISSUE_PODS: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  nodeSelector: {dedicated: payments}\n  tolerations: [{key: dedicated, operator: Equal, value: payments, effect: NoSchedule}]\n  containers: [{name: c, image: nginx}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: lost}\nspec:\n  nodeSelector: {disktype: ssd}\n  containers: [{name: c, image: nginx}]\n";

fn issue_12(o: &Options) -> Scenario {
    let nodes = pane(ISSUE_NODES, PaneKind::Nodes);
    let mut pods = pane(ISSUE_PODS, PaneKind::Pods);
    set(&mut pods, "api", |p| {
        p.node_selector = selector(&[("dedicated", "payments")]);
    });
    set(&mut pods, "lost", |p| {
        p.node_selector = selector(&[("disktype", "ssd")]);
    });
    build(&nodes, &pods, o)
}

#[test]
fn the_dedicated_nodes_recipe_lands_only_on_its_pool() {
    let s = issue_12(&options());
    assert_eq!(s.nodes[0].node.name, "payments-1");
    // api: only payments-1.
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    let general = s.cell(0, 1).expect("cell");
    assert_eq!(general.kind, CellKind::Blocked);
    assert_eq!(general.rejected_by, Some(FilterPlugin::NodeAffinity));
    // The taint filters alone would let it in: the verdict says so, the kind does not.
    assert!(general.verdict.passes_filter());
    assert_eq!(s.message(0), None);
    assert_eq!(s.feasible_nodes(0), Some(1));
    // lost: Pending with the cluster's message.
    assert_eq!(
        s.message(1),
        Some(
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, \
             1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: \
             0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        )
    );
    assert_eq!(
        s.pods_with_message(s.message(1).unwrap_or_default()),
        vec![1]
    );
    let lost = s.pod_scheduling(1).expect("pod");
    assert_eq!(lost.nomination, None);
    assert_eq!(
        lost.preemption.as_deref(),
        Some("preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    );
    let on_general = s.placement_cell(1, 1).expect("cell");
    assert_eq!(on_general.rejected_by, Some(FilterPlugin::NodeAffinity));
    assert_eq!(
        on_general.reasons,
        vec!["node(s) didn't match Pod's node affinity/selector".to_string()]
    );
    assert_eq!(
        on_general.code,
        Some(taintlab_core::scheduling::Code::UnschedulableAndUnresolvable)
    );
    // The explanation's filter part names NodeAffinity too.
    let x = s.explain(1, 1).expect("explain");
    assert_eq!(x.filter.rejected_by, Some(FilterPlugin::NodeAffinity));
    assert_eq!(
        x.filter.reason.as_deref(),
        Some("node(s) didn't match Pod's node affinity/selector")
    );
    // Every filter in order: the taint fails first on payments-1, the rest not evaluated.
    let full = s.explain_placement(1, 0).expect("explain");
    let states: Vec<(FilterPlugin, &FilterState)> =
        full.filters.iter().map(|f| (f.plugin, &f.state)).collect();
    assert_eq!(
        states[0],
        (FilterPlugin::NodeUnschedulable, &FilterState::Passed)
    );
    assert_eq!(states[1], (FilterPlugin::NodeName, &FilterState::Passed));
    assert!(matches!(
        states[2],
        (FilterPlugin::TaintToleration, FilterState::Failed(_))
    ));
    assert!(
        states[3..]
            .iter()
            .all(|(_, s)| **s == FilterState::NotEvaluated)
    );
    // Which selector entry fails where.
    let on_payments = s.explain_placement(1, 0).expect("explain");
    assert_eq!(on_payments.node_selector.len(), 1);
    assert_eq!(on_payments.node_selector[0].key, "disktype");
    assert_eq!(on_payments.node_selector[0].node_value, None);
    assert!(!on_payments.node_selector[0].matches());
    let api_on_payments = s.explain_placement(0, 0).expect("explain");
    assert!(api_on_payments.node_selector[0].matches());
    assert!(api_on_payments.affinity_terms.is_empty());
    assert!(
        api_on_payments
            .filters
            .iter()
            .all(|f| f.state == FilterState::Passed || f.state == FilterState::NotChecked)
    );
    // No allocatable pasted: resources unknown, nothing requested, so no finding.
    assert!(!s.placement_cell(0, 0).expect("cell").resources_checked);
    assert!(
        s.findings.iter().all(|f| f.kind != FindingKind::Scheduling),
        "{:?}",
        s.findings
    );
}

#[test]
fn the_issue_example_per_release() {
    // 1.27: the double period of 1.26 – 1.28 and no DynamicResources text.
    let mut o = options();
    o.semantics = Semantics::at(KubeVersion::new(27, 0));
    let s = issue_12(&o);
    assert_eq!(
        s.message(1),
        Some(
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, \
             1 node(s) had untolerated taint {dedicated: payments}. preemption: 0/2 nodes \
             are available: 2 Preemption is not helpful for scheduling.."
        )
    );
    // 1.25 runs every filter: payments-1 fails both the taint and the selector.
    o.semantics = Semantics::at(KubeVersion::new(25, 0));
    let s = issue_12(&o);
    let cell = s.placement_cell(1, 0).expect("cell");
    assert_eq!(
        cell.rejected_by_all,
        vec![FilterPlugin::TaintToleration, FilterPlugin::NodeAffinity]
    );
    let x = s.explain_placement(1, 0).expect("explain");
    assert!(matches!(x.filters[3].state, FilterState::Failed(_)));
    assert_eq!(x.filters[4].state, FilterState::Passed);
    assert_eq!(x.filters[5].state, FilterState::NotChecked);
}

const GPU_NODES: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-1\n  labels: {accelerator: nvidia}\nspec:\n  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: cpu-1}\n";

fn gpu_pods(running: usize) -> String {
    let mut s = String::new();
    for i in 0..running {
        s.push_str(&format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: run-{i}}}\nspec:\n  nodeName: gpu-1\n  tolerations: [{{key: nvidia.com/gpu, operator: Exists}}]\n  containers: [{{name: c, image: cuda, resources: {{limits: {{nvidia.com/gpu: 1}}}}}}]\nstatus: {{phase: Running}}\n---\n"
        ));
    }
    s.push_str("apiVersion: v1\nkind: Pod\nmetadata: {name: trainer}\nspec:\n  containers: [{name: c, image: cuda, resources: {limits: {nvidia.com/gpu: 1}}}]\n");
    s
}

fn gpu(running: usize, ext: bool) -> Scenario {
    let mut nodes = pane(GPU_NODES, PaneKind::Nodes);
    allocatable(
        &mut nodes,
        "gpu-1",
        &[
            ("cpu", "8"),
            ("memory", "32Gi"),
            ("pods", "110"),
            ("nvidia.com/gpu", "2"),
        ],
    );
    allocatable(
        &mut nodes,
        "cpu-1",
        &[("cpu", "8"), ("memory", "32Gi"), ("pods", "110")],
    );
    let mut pods = pane(&gpu_pods(running), PaneKind::Pods);
    let gpu_limit = vec![ContainerResources {
        resources: taintlab_core::resource::ResourceRequirements {
            requests: ResourceList::new(),
            limits: list(&[("nvidia.com/gpu", "1")]),
        },
        ..ContainerResources::default()
    }];
    for i in 0..running {
        set(&mut pods, &format!("run-{i}"), |p| {
            p.containers.clone_from(&gpu_limit);
            p.phase = "Running".into();
        });
    }
    set(&mut pods, "trainer", |p| {
        p.containers.clone_from(&gpu_limit)
    });
    let mut o = options();
    if let Some(a) = o.admission.as_mut() {
        a.extended_resource_toleration = ext;
    }
    build(&nodes, &pods, &o)
}

#[test]
fn the_gpu_recipe_fits_until_the_gpus_run_out() {
    // Without ExtendedResourceToleration the taint keeps the trainer off the GPU node.
    let s = gpu(0, false);
    let t = s.pods.len() - 1;
    assert_eq!(
        s.placement_cell(t, 0).and_then(|c| c.rejected_by),
        Some(FilterPlugin::TaintToleration)
    );
    assert_eq!(
        s.message(t),
        Some(
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated \
             taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 1 \
             No preemption victims found for incoming pod, 1 Preemption is not helpful for \
             scheduling."
        )
    );
    // With it, the admitted pod tolerates the taint and fits while GPUs are left.
    for running in 0..2 {
        let s = gpu(running, true);
        let t = s.pods.len() - 1;
        assert!(
            s.pods[t]
                .tolerations
                .iter()
                .any(|e| e.origin.name() == "extended-resource")
        );
        assert_eq!(s.message(t), None, "{running} running");
        assert_eq!(s.cell(t, 0).map(|c| c.kind), Some(CellKind::Schedulable));
        let bars = s.node_resources(0).expect("node");
        let gpus = bars
            .bars
            .iter()
            .find(|b| b.resource == "nvidia.com/gpu")
            .expect("gpu bar");
        assert_eq!((gpus.requested, gpus.allocatable), (running as i64, 2));
        assert_eq!(bars.running_pods, running);
        // The running pods bypass the scheduler and are shown bound.
        for r in 0..running {
            assert_eq!(s.cell(r, 0).map(|c| c.kind), Some(CellKind::BoundHere));
            assert_eq!(s.cell(r, 1).map(|c| c.kind), Some(CellKind::Elsewhere));
        }
    }
    // Two GPUs in use: Insufficient nvidia.com/gpu on both nodes, short by one.
    let s = gpu(2, true);
    let t = s.pods.len() - 1;
    assert_eq!(
        s.message(t),
        Some(
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to \
             deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found \
             for incoming pod."
        )
    );
    let cell = s.placement_cell(t, 0).expect("cell");
    assert_eq!(cell.rejected_by, Some(FilterPlugin::NodeResourcesFit));
    assert_eq!(cell.insufficient.len(), 1);
    assert_eq!(cell.insufficient[0].resource, "nvidia.com/gpu");
    assert_eq!(
        (
            cell.insufficient[0].requested,
            cell.insufficient[0].used,
            cell.insufficient[0].capacity
        ),
        (1, 2, 2)
    );
    assert_eq!(cell.insufficient[0].shortfall(), 1);
    let x = s.explain_placement(t, 0).expect("explain");
    let lines = x.resources.expect("allocatable known");
    assert!(
        lines
            .iter()
            .any(|l| l.resource == "nvidia.com/gpu" && l.headroom() == -1)
    );
    assert!(matches!(
        x.filters.last().map(|f| &f.state),
        Some(FilterState::Failed(_))
    ));
}

const MIXED_NODES: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: tainted}\nspec:\n  taints: [{key: dedicated, value: infra, effect: NoSchedule}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: small-1}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: small-2}\n";
const MIXED_PODS: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: busy-1, namespace: batch}\nspec:\n  nodeName: small-1\n  containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy-2, namespace: batch}\nspec:\n  nodeName: small-2\n  containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: done, namespace: batch}\nspec:\n  nodeName: small-2\n  containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]\nstatus: {phase: Succeeded}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]\n";

fn mixed(web_priority: i32) -> Scenario {
    let mut nodes = pane(MIXED_NODES, PaneKind::Nodes);
    for n in ["tainted", "small-1", "small-2"] {
        allocatable(
            &mut nodes,
            n,
            &[("cpu", "1"), ("memory", "4Gi"), ("pods", "110")],
        );
    }
    let mut pods = pane(MIXED_PODS, PaneKind::Pods);
    for b in ["busy-1", "busy-2"] {
        set(&mut pods, b, |p| {
            p.containers = requesting(&[("cpu", "900m")]);
            p.start_time = "2024-05-01T10:00:00Z".into();
        });
    }
    set(&mut pods, "done", |p| {
        p.containers = requesting(&[("cpu", "1")]);
        p.phase = "Succeeded".into();
    });
    set(&mut pods, "web", |p| {
        p.containers = requesting(&[("cpu", "500m")]);
        p.priority = web_priority;
    });
    build(&nodes, &pods, &options())
}

#[test]
fn a_mixed_taint_and_resource_event_is_reproduced_byte_for_byte() {
    let s = mixed(0);
    let event = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.";
    assert_eq!(s.message(3), Some(event));
    let cell = s.placement_cell(3, 1).expect("cell");
    assert_eq!(cell.rejected_by, Some(FilterPlugin::NodeResourcesFit));
    assert_eq!(cell.reasons, vec!["Insufficient cpu".to_string()]);
    assert_eq!(cell.insufficient[0].shortfall(), 400);
    let x = s.explain(3, 1).expect("explain");
    assert_eq!(x.filter.rejected_by, Some(FilterPlugin::NodeResourcesFit));
    assert_eq!(x.filter.reason.as_deref(), Some("Insufficient cpu"));
    assert_eq!(
        x.filter.code,
        taintlab_core::scheduling::Code::Unschedulable
    );
    assert_eq!(s.cell(3, 1).map(|c| c.kind), Some(CellKind::Blocked));
    // The Succeeded pod holds nothing: small-2 carries 900m like small-1.
    let bars = s.node_resources(2).expect("node");
    assert_eq!(bars.running_pods, 1);
    let cpu = bars.bars.iter().find(|b| b.resource == "cpu").expect("cpu");
    assert_eq!((cpu.requested, cpu.allocatable), (900, 1000));
    assert_eq!(
        bars.bars
            .iter()
            .map(|b| b.resource.as_str())
            .collect::<Vec<_>>(),
        vec!["pods", "cpu"]
    );
    // Pasted as an event, it is matched to the pod that produces it.
    let with_event = {
        let mut nodes = pane(MIXED_NODES, PaneKind::Nodes);
        for n in ["tainted", "small-1", "small-2"] {
            allocatable(&mut nodes, n, &[("cpu", "1"), ("pods", "110")]);
        }
        let mut pods = pane(
            &format!(
                "{MIXED_PODS}---\nWarning  FailedScheduling  12s  default-scheduler  {event}\n"
            ),
            PaneKind::Pods,
        );
        for b in ["busy-1", "busy-2"] {
            set(&mut pods, b, |p| {
                p.containers = requesting(&[("cpu", "900m")])
            });
        }
        set(&mut pods, "done", |p| {
            p.containers = requesting(&[("cpu", "1")]);
            p.phase = "Succeeded".into();
        });
        set(&mut pods, "web", |p| {
            p.containers = requesting(&[("cpu", "500m")])
        });
        build(&nodes, &pods, &options())
    };
    assert_eq!(with_event.events.len(), 1);
    assert_eq!(
        with_event.pods_with_message(&with_event.events[0].event.message),
        vec![3]
    );
    // Each counted reason traced back to the pasted nodes that give it.
    let trace = with_event.trace_event(0).expect("event");
    assert_eq!(trace.pod, Some(3));
    assert!(trace.reproduced);
    assert_eq!(
        trace
            .reasons
            .iter()
            .map(|r| (r.reason.as_str(), r.count, r.nodes.clone()))
            .collect::<Vec<_>>(),
        vec![
            ("node(s) had untolerated taint(s)", 1, vec![0]),
            ("Insufficient cpu", 2, vec![1, 2]),
        ]
    );
    // An event that is not reproduced is traced through the pod it names.
    let mut other = with_event;
    let mut e = other.events[0].clone();
    e.event.message.push_str(" (edited)");
    e.event.object = Some("pod/web".into());
    other.events.push(e);
    let trace = other.trace_event(1).expect("event");
    assert_eq!((trace.pod, trace.reproduced), (Some(3), false));
    assert_eq!(trace.reasons[1].nodes, vec![1, 2]);
    assert_eq!(other.trace_event(2), None);
}

#[test]
fn preemption_nominates_a_node_and_names_its_victims() {
    let s = mixed(1000);
    let web = s.pod_scheduling(3).expect("pod");
    let nomination = web.nomination.expect("preemption helps");
    assert_eq!(nomination.node, "small-1");
    assert_eq!(nomination.node_index, 1);
    assert_eq!(nomination.victims.len(), 1);
    assert_eq!(nomination.victims[0].name, "busy-1");
    assert_eq!(nomination.victims[0].namespace, "batch");
    assert_eq!(web.preemption, None);
    assert!(
        web.message
            .as_deref()
            .is_some_and(|m| m.starts_with("0/3 nodes are available: "))
    );
}

#[test]
fn bound_pods_hold_their_host_ports() {
    let nodes = pane(
        "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n",
        PaneKind::Nodes,
    );
    let mut pods = pane(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: old}\nspec:\n  nodeName: a\n  containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: new}\nspec:\n  containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]\n",
        PaneKind::Pods,
    );
    for name in ["old", "new"] {
        set(&mut pods, name, |p| {
            p.host_ports = vec![taintlab_core::model::HostPort::new(8080, "TCP", "")];
        });
    }
    let s = build(&nodes, &pods, &options());
    let on_a = s.placement_cell(1, 0).expect("cell");
    assert_eq!(on_a.rejected_by, Some(FilterPlugin::NodePorts));
    assert_eq!(
        on_a.reasons,
        vec!["node(s) didn't have free ports for the requested pod ports".to_string()]
    );
    assert_eq!(s.cell(1, 1).map(|c| c.kind), Some(CellKind::Schedulable));
    let x = s.explain_placement(1, 0).expect("explain");
    assert_eq!(
        x.port_conflicts,
        vec![taintlab_core::model::HostPort::new(8080, "TCP", "")]
    );
    assert!(
        s.explain_placement(1, 1)
            .expect("explain")
            .port_conflicts
            .is_empty()
    );
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::BoundHere));
    assert_eq!(
        s.placement_cell(0, 1).and_then(|c| c.hold),
        Some(Hold::Bound)
    );
    // Without b the pod stays Pending; NodePorts is Unschedulable but the bound pod has
    // the same priority, so preemption finds no victim.
    let single = pane(
        "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n",
        PaneKind::Nodes,
    );
    let s = build(&single, &pods, &options());
    assert_eq!(
        s.message(1),
        Some(
            "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod \
             ports. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No \
             preemption victims found for incoming pod."
        )
    );
}

#[test]
fn gated_pods_wait_and_other_schedulers_are_not_ours() {
    let nodes = pane(
        "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nspec:\n  taints: [{key: k, effect: NoSchedule}]\n",
        PaneKind::Nodes,
    );
    let mut pods = pane(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: gated}\nspec:\n  schedulingGates: [{name: example.com/quota}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: custom}\nspec:\n  schedulerName: my-scheduler\n",
        PaneKind::Pods,
    );
    set(&mut pods, "gated", |p| {
        p.scheduling_gates = vec!["example.com/quota".into()];
    });
    set(&mut pods, "custom", |p| {
        p.scheduler_name = "my-scheduler".into()
    });
    let s = build(&nodes, &pods, &options());
    assert_eq!(s.message(0), None);
    assert_eq!(s.message(1), None);
    assert_eq!(
        s.pod_scheduling(0).map(|p| p.outcome),
        Some(PodOutcome::Gated)
    );
    let cell = s.cell(0, 0).expect("cell");
    assert_eq!(cell.hold, Some(Hold::Gated));
    assert_eq!(cell.kind, CellKind::Blocked);
    assert_eq!(
        s.cell(1, 0).and_then(|c| c.hold),
        Some(Hold::OtherScheduler)
    );
    let scheduling: Vec<&Finding> = s
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Scheduling)
        .collect();
    assert_eq!(scheduling.len(), 1, "{scheduling:?}");
    assert!(scheduling[0].message.contains("example.com/quota"));
    assert_eq!(scheduling[0].location.line, 1);
    // The other scheduler is said once, by the input layer where it reads the field.
    let custom: Vec<&Finding> = s
        .findings
        .iter()
        .filter(|f| f.message.contains("my-scheduler"))
        .collect();
    assert_eq!(custom.len(), 1, "{custom:?}");
    assert_eq!(custom[0].location.line, 11);
    // 1.26 drops the gates: the pod is scheduled (and the taint blocks it).
    let mut o = options();
    o.semantics = Semantics::at(KubeVersion::new(26, 0));
    let s = build(&nodes, &pods, &o);
    assert!(s.message(0).is_some());
}

#[test]
fn daemon_pods_run_where_the_controller_creates_them() {
    let nodes = pane(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: linux-1\n  labels: {kubernetes.io/os: linux}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: win-1\n  labels: {kubernetes.io/os: windows}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: linux-2\n  labels: {kubernetes.io/os: linux}\nspec:\n  unschedulable: true\n  taints: [{key: dedicated, value: x, effect: NoSchedule}]\n",
        PaneKind::Nodes,
    );
    let mut pods = pane(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    spec:\n      nodeSelector: {kubernetes.io/os: linux}\n      containers: [{name: a, image: a}]\n",
        PaneKind::Pods,
    );
    set(&mut pods, "agent", |p| {
        p.node_selector = selector(&[("kubernetes.io/os", "linux")]);
    });
    let s = build(&nodes, &pods, &options());
    assert!(s.pods[0].daemon);
    let daemon = s.placement.daemon_pods(0).expect("daemon row");
    // linux-1 only: win-1 fails the selector, linux-2 an untolerated NoSchedule taint.
    assert_eq!(daemon.iter().map(|d| d.node).collect::<Vec<_>>(), vec![0]);
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    assert_eq!(s.cell(0, 1).and_then(|c| c.hold), Some(Hold::NoDaemonPod));
    assert_eq!(s.cell(0, 2).and_then(|c| c.hold), Some(Hold::NoDaemonPod));
    let win = s.daemon_check(0, 1).expect("daemon row");
    assert!(!win.node_affinity_matches && win.taints.should_run && !win.should_run);
    let tainted = s.daemon_check(0, 2).expect("daemon row");
    assert!(tainted.node_affinity_matches && !tainted.should_run);
    // A NoSchedule taint does not evict a daemon pod already there.
    assert!(tainted.should_continue_running);
    assert_eq!(
        tainted.taints.blocking_taint.map(|t| t.key),
        Some("dedicated".to_string())
    );
    assert!(s.daemon_check(0, 0).is_some_and(|c| c.should_run));
    assert_eq!(s.message(0), None);
    assert_eq!(s.feasible_nodes(0), Some(1));
    // The shortcut for a daemon pod that fits its node agrees with the whole cycle.
    let mut pod = s.placement.pods[0].clone();
    pod.placement.affinity = Some(taintlab_core::daemonset::replace_node_name_node_affinity(
        None, "linux-1",
    ));
    let nodes_only: Vec<taintlab_core::Node> = s.nodes.iter().map(|n| n.node.clone()).collect();
    let whole = taintlab_core::scheduling::placement::schedule_one(
        &pod,
        &nodes_only,
        &s.placement.states,
        s.placement.options,
    );
    assert_eq!(whole.outcome, daemon[0].outcome);
    assert_eq!(whole.nodes[0], daemon[0].cell);
    // A daemon pod that does not fit its node gets the whole cluster's message: the
    // other nodes are outside its PreFilter result.
    let mut small = nodes.clone();
    for n in ["linux-1", "win-1", "linux-2"] {
        allocatable(&mut small, n, &[("cpu", "1"), ("pods", "110")]);
    }
    let mut big = pods.clone();
    set(&mut big, "agent", |p| {
        p.containers = requesting(&[("cpu", "2")])
    });
    let s = build(&small, &big, &options());
    assert_eq!(
        s.message(0),
        Some(
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) \
             [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: \
             1 No preemption victims found for incoming pod, 2 Preemption is not helpful for \
             scheduling."
        )
    );
    assert_eq!(s.feasible_nodes(0), Some(0));
    assert_eq!(
        s.placement_cell(0, 0).map(|c| c.insufficient.len()),
        Some(1)
    );
    // The daemon tolerations cover the cordon: with the taint gone, linux-2 gets one.
    let nodes = pane(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: linux-2\n  labels: {kubernetes.io/os: linux}\nspec:\n  unschedulable: true\n",
        PaneKind::Nodes,
    );
    let s = build(&nodes, &pods, &options());
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
}

#[test]
fn unknown_allocatable_is_said_when_pods_request_resources() {
    let nodes = pane(
        "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n",
        PaneKind::Nodes,
    );
    let mut nodes_known = nodes.clone();
    allocatable(&mut nodes_known, "b", &[("cpu", "2")]);
    let mut pods = pane(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]\n",
        PaneKind::Pods,
    );
    set(&mut pods, "web", |p| {
        p.containers = requesting(&[("cpu", "100m")])
    });
    let s = build(&nodes_known, &pods, &options());
    let messages: Vec<&str> = s
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Scheduling)
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("node a: status.allocatable is not in the paste"));
    assert!(messages[1].starts_with("node b: status.allocatable has no pods entry"));
    // b allows no pod; a is not checked.
    assert_eq!(
        s.placement_cell(0, 1).map(|c| c.reasons),
        Some(vec!["Too many pods".to_string()])
    );
    let a = s.placement_cell(0, 0).expect("cell");
    assert!(a.scores.is_some() && !a.resources_checked);
    assert_eq!(a.scores.and_then(|s| s.node_resources_fit), None);
    assert!(!s.node_resources(0).expect("node").allocatable_known);
}

#[test]
fn pasted_yaml_alone_gives_the_clusters_answers() {
    // Issue 12's example, nothing set by hand: the input layer reads the selectors.
    let s = build(
        &pane(ISSUE_NODES, PaneKind::Nodes),
        &pane(ISSUE_PODS, PaneKind::Pods),
        &options(),
    );
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
    assert_eq!(s.cell(0, 1).map(|c| c.kind), Some(CellKind::Blocked));
    assert_eq!(
        s.message(1),
        Some(
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, \
             1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: \
             0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        )
    );
    // The mixed event from a pasted cluster: allocatable, running pods and requests read.
    let text = "apiVersion: v1\nkind: NodeList\nitems:\n- kind: Node\n  metadata: {name: tainted}\n  spec:\n    taints: [{key: dedicated, value: infra, effect: NoSchedule}]\n  status:\n    allocatable: {cpu: '4', memory: 8Gi, pods: '110'}\n- kind: Node\n  metadata: {name: small-1}\n  status:\n    allocatable: {cpu: '1', memory: 4Gi, pods: '110'}\n- kind: Node\n  metadata: {name: small-2}\n  status:\n    allocatable: {cpu: '1', memory: 4Gi, pods: '110'}\n---\napiVersion: v1\nkind: PodList\nitems:\n- kind: Pod\n  metadata: {name: busy-1, namespace: batch}\n  spec:\n    nodeName: small-1\n    containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]\n  status: {phase: Running}\n- kind: Pod\n  metadata: {name: busy-2, namespace: batch}\n  spec:\n    nodeName: small-2\n    containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]\n  status: {phase: Running}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]\n";
    let s = Scenario::from_text(text, &options());
    assert_eq!(s.nodes.len(), 3, "{:?}", s.findings);
    assert_eq!(s.pods.len(), 3, "{:?}", s.findings);
    assert_eq!(
        s.message(2),
        Some(
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. \
             no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption \
             is not helpful for scheduling, 2 No preemption victims found for incoming pod."
        ),
        "{:?}",
        s.findings
    );
    let bars = s.node_resources(1).expect("node");
    assert!(bars.allocatable_known);
    assert_eq!(
        bars.bars
            .iter()
            .map(|b| (b.resource.as_str(), b.requested, b.allocatable))
            .collect::<Vec<_>>(),
        vec![("pods", 1, 110), ("cpu", 900, 1000)]
    );
    // GPUs written under limits only: ExtendedResourceToleration and NodeResourcesFit
    // both see the request.
    let gpu = "apiVersion: v1\nkind: Node\nmetadata: {name: gpu-1}\nspec:\n  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\nstatus:\n  allocatable: {cpu: '8', memory: 32Gi, pods: '110', nvidia.com/gpu: '1'}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: trainer}\nspec:\n  containers: [{name: c, image: cuda, resources: {limits: {nvidia.com/gpu: 1}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: second}\nspec:\n  nodeName: gpu-1\n  containers: [{name: c, image: cuda, resources: {limits: {nvidia.com/gpu: 1}}}]\n";
    let mut o = options();
    if let Some(a) = o.admission.as_mut() {
        a.extended_resource_toleration = true;
    }
    let s = Scenario::from_text(gpu, &o);
    assert_eq!(
        s.message(0),
        Some(
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to \
             deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found \
             for incoming pod."
        )
    );
    let without_second = gpu
        .split("---\napiVersion: v1\nkind: Pod\nmetadata: {name: second}")
        .next()
        .unwrap_or_default();
    let s = Scenario::from_text(without_second, &o);
    assert_eq!(s.message(0), None);
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::Schedulable));
}

/// xorshift64*: a fixed-seed generator, so the random clusters are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_text(r: &mut Rng) -> String {
    let mut t = String::new();
    let nodes = 1 + r.below(5);
    for i in 0..nodes {
        t.push_str(&format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n{i}\n  labels: {{pool: p{}, zone: z{}}}\nspec:\n  unschedulable: {}\n",
            r.below(3),
            r.below(2),
            r.below(6) == 0
        ));
        if r.below(2) == 0 {
            t.push_str(&format!(
                "  taints: [{{key: team, value: t{}, effect: NoSchedule}}]\n",
                r.below(2)
            ));
        }
        if r.below(4) != 0 {
            t.push_str(&format!(
                "status:\n  allocatable: {{cpu: '{}', memory: 4Gi, pods: '{}'}}\n",
                1 + r.below(3),
                1 + r.below(4)
            ));
        }
    }
    for b in 0..r.below(5) {
        t.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: run-{b}}}\nspec:\n  nodeName: n{}\n  priority: {}\n  containers: [{{name: c, image: x, ports: [{{containerPort: 80, hostPort: {}}}], resources: {{requests: {{cpu: {}00m}}}}}}]\nstatus: {{phase: {}}}\n",
            r.below(nodes),
            r.below(3) * 100,
            8080 + r.below(2),
            1 + r.below(9),
            if r.below(5) == 0 { "Succeeded" } else { "Running" }
        ));
    }
    for p in 0..1 + r.below(5) {
        t.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pod-{p}}}\nspec:\n  priority: {}\n",
            r.below(3) * 100
        ));
        if r.below(2) == 0 {
            t.push_str(&format!("  nodeSelector: {{pool: p{}}}\n", r.below(4)));
        }
        if r.below(2) == 0 {
            t.push_str(&format!(
                "  tolerations: [{{key: team, value: t{}, effect: NoSchedule}}]\n",
                r.below(2)
            ));
        }
        t.push_str(&format!(
            "  containers: [{{name: c, image: x, ports: [{{containerPort: 80, hostPort: {}}}], resources: {{requests: {{cpu: {}00m}}}}}}]\n",
            if r.below(3) == 0 { 8080 } else { 0 },
            r.below(12)
        ));
    }
    if r.below(3) == 0 {
        t.push_str(&format!(
            "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent}}\nspec:\n  template:\n    spec:\n      nodeSelector: {{zone: z{}}}\n      containers: [{{name: c, image: x, resources: {{requests: {{cpu: 500m}}}}}}]\n",
            r.below(2)
        ));
    }
    t
}

#[test]
fn random_clusters_agree_with_the_per_pair_cycle() {
    use taintlab_core::scheduling::placement::schedule_one;
    let mut r = Rng(0x5eed_1234_abcd_0001);
    let mut seen: std::collections::BTreeSet<FilterPlugin> = std::collections::BTreeSet::new();
    let (mut nominated, mut daemon_pods, mut placed_cells, mut same_class) = (0, 0, 0, 0);
    for round in 0..300 {
        let text = random_text(&mut r);
        let version = [25u16, 27, 30, 31, 34, 37][round % 6];
        let mut o = options();
        o.semantics = Semantics::at(KubeVersion::new(version, 0));
        let s = Scenario::from_text(&text, &o);
        let nodes: Vec<taintlab_core::Node> = s.nodes.iter().map(|n| n.node.clone()).collect();
        // Nodes of one class get the same cell from every pod.
        assert_eq!(s.placement.node_class.len(), nodes.len());
        for a in 0..nodes.len() {
            for b in a + 1..nodes.len() {
                if s.placement.node_class[a] == s.placement.node_class[b] {
                    same_class += 1;
                    for p in 0..s.pods.len() {
                        assert_eq!(s.placement_cell(p, a), s.placement_cell(p, b), "{text}");
                        assert_eq!(s.cell(p, a), s.cell(p, b), "{text}");
                    }
                }
            }
        }
        for p in 0..s.pods.len() {
            if let Some(d) = s.placement.daemon_pods(p) {
                daemon_pods += d.len();
                continue;
            }
            if s.pod_scheduling(p).is_some_and(|x| x.nomination.is_some()) {
                nominated += 1;
            }
            let naive = schedule_one(
                &s.placement.pods[p],
                &nodes,
                &s.placement.states,
                s.placement.options,
            );
            assert_eq!(
                s.pod_scheduling(p).map(|x| x.outcome),
                Some(naive.outcome.clone()),
                "{text}"
            );
            for (n, expected) in naive.nodes.iter().enumerate() {
                let cell = s.placement_cell(p, n).expect("cell");
                assert_eq!(&cell.outcome, expected, "{text}");
                let view = s.cell(p, n).expect("cell");
                // Blocked exactly when the chain does not place the pod there.
                let placed = expected.is_feasible();
                let bound = s.pods[p].pod.node_name.is_empty().then_some(()).is_none();
                assert_eq!(
                    matches!(view.kind, CellKind::Schedulable | CellKind::Penalized),
                    placed && !bound,
                    "{text}"
                );
                // A selector on a pool no node has never fits.
                if s.placement.pods[p]
                    .placement
                    .node_selector
                    .get("pool")
                    .is_some_and(|v| v == "p3")
                {
                    assert!(!placed, "{text}");
                }
                seen.extend(cell.rejected_by_all.iter().copied());
                placed_cells += usize::from(placed && !bound);
                // A resource rejection always names what falls short.
                if cell
                    .rejected_by_all
                    .contains(&FilterPlugin::NodeResourcesFit)
                {
                    assert!(!cell.insufficient.is_empty(), "{text}");
                    assert!(
                        cell.insufficient.iter().all(|i| i.shortfall() > 0),
                        "{text}"
                    );
                }
            }
        }
    }
    // The random clusters exercise every filter but NodeName (it only rejects pods
    // already bound, which bypass the scheduler), preemption and daemon pods.
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(nominated > 0, "no nomination");
    assert!(daemon_pods > 0, "no daemon pod");
    assert!(placed_cells > 0, "nothing placed");
    assert!(same_class > 0, "no two nodes in one class");
}

#[test]
fn required_affinity_terms_are_shown_one_by_one() {
    let s = Scenario::from_text(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: b-1\n  labels: {zone: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: zoned}\nspec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{key: zone, operator: In, values: [a]}]\n        - matchExpressions: [{key: zone, operator: In, values: [b]}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: nowhere}\nspec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{key: zone, operator: NotIn, values: [b]}]\n",
        &options(),
    );
    let x = s.explain_placement(0, 0).expect("explain");
    assert_eq!(x.affinity_terms, vec![false, true]);
    assert!(x.cell.scores.is_some());
    let y = s.explain_placement(1, 0).expect("explain");
    assert_eq!(y.affinity_terms, vec![false]);
    assert_eq!(y.cell.rejected_by, Some(FilterPlugin::NodeAffinity));
    assert!(matches!(y.filters[3].state, FilterState::Failed(_)));
    assert_eq!(y.filters[4].state, FilterState::NotEvaluated);
}

#[test]
fn a_running_daemon_pod_is_not_created_again() {
    let text = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus:\n  allocatable: {cpu: '1', pods: '110'}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus:\n  allocatable: {cpu: '1', pods: '110'}\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: kube-system}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x, ports: [{containerPort: 9100, hostPort: 9100}], resources: {requests: {cpu: 600m}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: agent-x7k2p, namespace: kube-system}\nspec:\n  nodeName: a\n  containers: [{name: c, image: x, ports: [{containerPort: 9100, hostPort: 9100}], resources: {requests: {cpu: 600m}}}]\nstatus: {phase: Running}\n";
    let s = Scenario::from_text(text, &options());
    assert!(s.pods[0].daemon);
    let daemon = s.placement.daemon_pods(0).expect("daemon row");
    assert_eq!(daemon.len(), 2);
    assert_eq!(daemon[0].outcome, PodOutcome::Bypassed);
    // Without the running pod read as the DaemonSet's, node a would reject a second
    // one for its port and cpu.
    assert_eq!(s.cell(0, 0).map(|c| c.kind), Some(CellKind::BoundHere));
    assert_eq!(s.cell(0, 1).map(|c| c.kind), Some(CellKind::Schedulable));
    assert_eq!(s.message(0), None);
    // A pod whose name only starts like the DaemonSet's is someone else's.
    let other = text.replace("agent-x7k2p", "agent-exporter");
    let s = Scenario::from_text(&other, &options());
    assert_eq!(
        s.placement_cell(0, 0).and_then(|c| c.rejected_by),
        Some(FilterPlugin::NodePorts)
    );
    assert!(s.message(0).is_some());
}
