//! The Priority admission plugin through the scenario: pasted PriorityClasses, the
//! built-in system classes, `globalDefault`, classes not pasted, and the priority and
//! preemption policy reaching DefaultPreemption.

use crate::*;

fn options() -> Options {
    Options {
        semantics: taintlab_core::Semantics::newest(),
        admission: Some(AdmissionOptions::default()),
        daemon_set: None,
    }
}

const CLUSTER: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: small}\nstatus:\n  allocatable: {cpu: '1', memory: 4Gi, pods: '110'}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy, namespace: batch}\nspec:\n  nodeName: small\n  containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]\nstatus: {phase: Running}\n";

const HIGH: &str =
    "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n";

/// The cluster, `classes`, then a pending pod `web` requesting 500m with `spec` lines.
fn scenario(classes: &str, spec: &str) -> Scenario {
    let text = format!(
        "{CLUSTER}---\n{classes}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n{spec}  containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: 500m}}}}}}]\n"
    );
    Scenario::from_text(&text, &options())
}

fn web(s: &Scenario) -> usize {
    s.pods
        .iter()
        .position(|p| p.pod.name == "web")
        .expect("web pod")
}

fn admission_findings(s: &Scenario) -> Vec<(Severity, String)> {
    s.findings
        .iter()
        .filter(|f| f.kind == FindingKind::Admission)
        .map(|f| (f.severity, f.message.clone()))
        .collect()
}

#[test]
fn a_pasted_class_gives_the_priority_that_preempts() {
    let s = scenario(HIGH, "  priorityClassName: high\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 1000);
    assert_eq!(s.pods[w].priority_class_name, "high");
    assert!(s.pods[w].admitted());
    assert_eq!(admission_findings(&s), vec![]);
    let sched = s.pod_scheduling(w).expect("pod");
    let nomination = sched.nomination.expect("preemption helps");
    assert_eq!(nomination.node, "small");
    assert_eq!(nomination.victims.len(), 1);
    assert_eq!(nomination.victims[0].name, "busy");
    assert_eq!(nomination.victims[0].namespace, "batch");
    assert_eq!(nomination.victims[0].priority, 0);
    // The running pod has no class and no default: priority 0.
    assert_eq!(s.pods[0].priority, 0);

    // The same pod without its class pasted: priority 0 and a warning, no victim.
    let s = scenario("", "  priorityClassName: high\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 0);
    assert!(s.pods[w].admitted(), "the class may exist in the cluster");
    let found = admission_findings(&s);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Severity::Warning);
    assert!(
        found[0].1.contains("priorityClassName \"high\": the PriorityClass is not in the paste, so the priority is taken as 0"),
        "{}",
        found[0].1
    );
    let sched = s.pod_scheduling(w).expect("pod");
    assert_eq!(sched.nomination, None);
    assert_eq!(
        sched.message.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, \
             preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
        )
    );
}

#[test]
fn the_built_in_system_classes_resolve_without_a_paste() {
    let s = scenario("", "  priorityClassName: system-node-critical\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 2_000_001_000);
    assert_eq!(admission_findings(&s), vec![]);
    assert!(s.pod_scheduling(w).expect("pod").nomination.is_some());
    let s = scenario("", "  priorityClassName: system-cluster-critical\n");
    assert_eq!(s.pods[web(&s)].priority, 2_000_000_000);
}

#[test]
fn the_global_default_class_with_the_lowest_value_applies_to_pods_without_a_class() {
    let classes = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: default-b}\nvalue: 700\nglobalDefault: true\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: default-a}\nvalue: 300\nglobalDefault: true\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\nvalue: 5\n";
    let s = scenario(classes, "");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 300);
    assert_eq!(s.pods[w].priority_class_name, "default-a");
    // The running pod pasted without a class gets it too (as if created now), so it is
    // no longer a lower-priority victim.
    assert_eq!(s.pods[0].priority, 300);
    assert_eq!(s.pod_scheduling(w).expect("pod").nomination, None);
    // A pod naming a class keeps it.
    let s = scenario(classes, "  priorityClassName: other\n");
    assert_eq!(s.pods[web(&s)].priority, 5);
}

#[test]
fn preemption_policy_never_from_the_class_stops_preemption() {
    let never = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high-nonpreempting}\nvalue: 1000\npreemptionPolicy: Never\n";
    let s = scenario(never, "  priorityClassName: high-nonpreempting\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 1000);
    assert_eq!(
        s.pods[w].pod.preemption_policy,
        taintlab_core::PreemptionPolicy::Never
    );
    let sched = s.pod_scheduling(w).expect("pod");
    assert_eq!(sched.nomination, None);
    assert_eq!(
        sched.message.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, \
             preemption: not eligible due to preemptionPolicy=Never."
        )
    );
}

#[test]
fn admission_rejects_a_priority_or_policy_that_disagrees_with_the_class() {
    let s = scenario(HIGH, "  priorityClassName: high\n  priority: 5\n");
    let w = web(&s);
    assert_eq!(
        s.pods[w].rejection.as_deref(),
        Some(
            "the integer value of priority (5) must not be provided in pod spec; priority \
             admission controller computed 1000 from the given PriorityClass name"
        )
    );
    assert!(
        admission_findings(&s)
            .iter()
            .any(|(sev, m)| *sev == Severity::Error && m.contains("computed 1000"))
    );
    // The same priority as the class is accepted.
    let s = scenario(HIGH, "  priorityClassName: high\n  priority: 1000\n");
    assert!(s.pods[web(&s)].admitted());

    let s = scenario(
        HIGH,
        "  priorityClassName: high\n  preemptionPolicy: Never\n",
    );
    assert_eq!(
        s.pods[web(&s)].rejection.as_deref(),
        Some(
            "the string value of PreemptionPolicy (Never) must not be provided in pod spec; \
             priority admission controller computed PreemptLowerPriority from the given \
             PriorityClass name"
        )
    );
    // Admission skipped: the priority is still resolved, nothing is rejected.
    let text = format!(
        "{CLUSTER}---\n{HIGH}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  priorityClassName: high\n  priority: 5\n  containers: [{{name: c, image: nginx}}]\n"
    );
    let o = Options {
        admission: None,
        ..options()
    };
    let s = Scenario::from_text(&text, &o);
    let w = web(&s);
    assert!(s.pods[w].admitted());
    assert_eq!(s.pods[w].priority, 1000);
}

#[test]
fn a_written_priority_without_any_class_is_kept_with_a_note() {
    let s = scenario("", "  priority: 1000\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 1000);
    assert!(s.pods[w].admitted());
    let found = admission_findings(&s);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Severity::Warning);
    assert!(
        found[0]
            .1
            .contains("no globalDefault PriorityClass in the paste")
    );
    assert!(found[0].1.contains(
        "the integer value of priority (1000) must not be provided in pod spec; priority \
         admission controller computed 0 from the given PriorityClass name"
    ));
    // It still preempts the priority-0 pod, as it would in a cluster that admitted it.
    assert!(s.pod_scheduling(w).expect("pod").nomination.is_some());
}

#[test]
fn resolve_priority_for_a_bare_toleration_list_takes_the_default() {
    let classes = vec![taintlab_input::PriorityClass {
        name: "d".into(),
        value: 42,
        global_default: true,
        ..Default::default()
    }];
    let r = resolve_priority(None, &classes);
    assert_eq!((r.priority, r.class_name.as_str()), (42, "d"));
    assert_eq!(r.rejection, None);
    let r = resolve_priority(None, &[]);
    assert_eq!(r.priority, 0);
    assert_eq!(r.note, None);
}

#[test]
fn a_bound_pod_that_states_its_priority_keeps_it() {
    // `kubectl get pods -o yaml` of a pod created before the default class existed.
    let text = format!(
        "{}---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: d}}\nvalue: 300\nglobalDefault: true\n",
        CLUSTER.replace("  nodeName: small\n", "  nodeName: small\n  priority: 0\n")
    );
    let s = Scenario::from_text(&text, &options());
    assert_eq!(s.pods[0].priority, 0);
    assert!(s.pods[0].admitted());
    assert_eq!(admission_findings(&s), vec![]);
}

#[cfg(feature = "serde")]
#[test]
fn pasted_classes_cross_a_worker_boundary_and_old_snapshots_still_read() {
    let text = format!(
        "{HIGH}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  priorityClassName: high\n  containers: [{{name: c, image: nginx}}]\n"
    );
    let p = ParsedPane::parse(
        &text,
        PaneKind::Combined,
        taintlab_core::KubeVersion::NEWEST,
    );
    assert_eq!(p.parsed.priority_classes.len(), 1);
    let json = serde_json::to_string(&p).expect("serializes");
    let back: ParsedPane = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back.parsed.priority_classes, p.parsed.priority_classes);
    let s = Scenario::build(&[&back], &options());
    assert_eq!(s.pods[0].priority, 1000);
    // A snapshot written before PriorityClasses were read has no such field.
    let mut v: serde_json::Value = serde_json::from_str(&json).expect("json");
    if let Some(o) = v.as_object_mut() {
        o.remove("priority_classes");
    }
    let old: ParsedPane = serde_json::from_value(v).expect("old snapshot");
    assert!(old.parsed.priority_classes.is_empty());
    assert_eq!(old.parsed.workloads, p.parsed.workloads);
}

#[test]
fn a_policy_set_only_on_the_pod_counts_as_written() {
    // The npm API's plain pods set `pod.preemption_policy` without the written field.
    let mut w = taintlab_input::Workload {
        kind: "Pod".into(),
        name: "p".into(),
        ..Default::default()
    };
    w.pod.preemption_policy = taintlab_core::PreemptionPolicy::Never;
    let r = resolve_priority(Some(&w), &[]);
    assert_eq!(r.preemption_policy, taintlab_core::PreemptionPolicy::Never);
    assert_eq!(r.rejection, None);
    assert!(
        r.create_note
            .as_deref()
            .is_some_and(|n| n.contains("PreemptionPolicy (Never)"))
    );
    w.priority_class_name = "system-cluster-critical".into();
    let r = resolve_priority(Some(&w), &[]);
    assert_eq!(r.priority, 2_000_000_000);
    assert!(
        r.rejection
            .as_deref()
            .is_some_and(|m| m.starts_with("the string value of PreemptionPolicy (Never)"))
    );
}

#[test]
fn a_pending_pod_read_back_from_the_api_server_keeps_its_priority() {
    // `kubectl get pod web -o yaml` of a pending pod: status.qosClass says the API server
    // wrote it, so its priority was admitted already.
    let s = scenario(HIGH, "  priorityClassName: high\n  priority: 7\n");
    assert!(!s.pods[web(&s)].admitted());
    let text = format!(
        "{CLUSTER}---\n{HIGH}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  priorityClassName: high\n  priority: 7\n  containers: [{{name: c, image: nginx}}]\nstatus: {{phase: Pending, qosClass: BestEffort}}\n"
    );
    let s = Scenario::from_text(&text, &options());
    let w = web(&s);
    assert!(s.pods[w].admitted());
    assert_eq!(s.pods[w].priority, 7);
}

#[test]
fn a_pasted_priorityclass_table_resolves_the_class() {
    let table = "NAME   VALUE   GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\nhigh   1000    false            5d    PreemptLowerPriority\n\n";
    let s = scenario(table, "  priorityClassName: high\n");
    let w = web(&s);
    assert_eq!(s.pods[w].priority, 1000, "{:?}", s.findings);
    assert_eq!(
        s.pod_scheduling(w)
            .expect("pod")
            .nomination
            .map(|n| n.victims[0].name.clone()),
        Some("busy".to_string())
    );
}
