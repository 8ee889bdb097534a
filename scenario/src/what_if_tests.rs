//! What-if through the scenario: the pasted cluster as the simulation's start, and the
//! action lines.

use taintlab_core::model::TaintEffect;
use taintlab_core::simulation::{ActionKind, ControllerKind, IntOrPercent, PodState};
use taintlab_core::version::KubeVersion;

use super::*;
use crate::Options;

const V: KubeVersion = KubeVersion::NEWEST;

const CLUSTER: &str = "\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 10
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-5d8f7-a
  namespace: shop
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f7, controller: true}]
spec:
  nodeName: n1
  terminationGracePeriodSeconds: 10
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-5d8f7-b
  namespace: shop
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f7, controller: true}]
spec:
  nodeName: n1
  terminationGracePeriodSeconds: 10
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
";

fn scenario(text: &str) -> Scenario {
    Scenario::from_text(text, &Options::default())
}

#[test]
fn pods_of_a_pasted_deployment_belong_to_it_and_budgets_are_kept() {
    let s = scenario(CLUSTER);
    let c = s.what_if_cluster();
    assert!(c.notes.is_empty(), "{:?}", c.notes);
    assert_eq!(c.cluster.nodes.len(), 2);
    assert_eq!(c.cluster.workloads.len(), 1);
    let w = &c.cluster.workloads[0];
    assert_eq!(
        (w.kind, w.namespace.as_str(), w.replicas),
        (ControllerKind::Deployment, "shop", 2)
    );
    assert_eq!(w.template.termination_grace_period_seconds, Some(10));
    assert!(w.template.spec.pod.node_name.is_empty());
    assert_eq!(c.cluster.pods.len(), 2);
    for p in &c.cluster.pods {
        let o = p.owner.as_ref().expect("owner");
        assert_eq!(
            (o.kind, o.name.as_str()),
            (ControllerKind::Deployment, "web")
        );
        assert_eq!(p.labels.get("app").map(String::as_str), Some("web"));
    }
    assert_eq!(c.cluster.disruption_budgets.len(), 1);
    assert_eq!(
        c.cluster.disruption_budgets[0].min_available,
        Some(IntOrPercent::Int(1))
    );
}

#[test]
fn an_owner_that_was_not_pasted_is_made_up_from_its_pods_and_said_so() {
    let text = CLUSTER.replace(
        "kind: Deployment\nmetadata: {name: web",
        "kind: Deployment\nmetadata: {name: other",
    );
    let c = scenario(&text).what_if_cluster();
    let rs = c
        .cluster
        .workloads
        .iter()
        .find(|w| w.kind == ControllerKind::ReplicaSet)
        .expect("a ReplicaSet made up from its pods");
    assert_eq!((rs.name.as_str(), rs.replicas), ("web-5d8f7", 2));
    assert!(
        c.notes.iter().any(|n| n
            .message
            .contains("ReplicaSet shop/web-5d8f7 was not pasted")),
        "{:?}",
        c.notes
    );
}

#[test]
fn draining_a_node_moves_the_deployment_and_waits_for_its_budget() {
    let s = scenario(CLUSTER);
    let actions = parse_actions("at 0 drain n1 --ignore-daemonsets\n", V).unwrap();
    let t = s.what_if(&actions, 120).expect("runs");
    // Both pods end up on n2, through the Deployment's replacements.
    let running_on_n2 = t
        .at(120)
        .pods
        .iter()
        .filter(|p| {
            p.state == PodState::Running && p.node.map(|n| t.nodes[n].as_str()) == Some("n2")
        })
        .count();
    assert_eq!(running_on_n2, 2, "{:#?}", t.events);
    // minAvailable 1 of 2 pods: the second eviction must wait for a replacement, so
    // kubectl prints the disruption-budget retry at least once.
    assert!(
        t.events
            .iter()
            .any(|e| e.message.contains("disruption budget")),
        "{:#?}",
        t.events
    );
    assert!(t.summary.still_pending.is_empty());
}

#[test]
fn a_failed_node_evicts_after_the_default_toleration() {
    let s = scenario(CLUSTER);
    let actions = parse_actions("fail n1", V).unwrap();
    let t = s.what_if(&actions, 900).expect("runs");
    assert!(
        t.events.iter().any(|e| e.reason == "TaintManagerEviction"),
        "{:#?}",
        t.events
    );
    let first_eviction = t
        .events
        .iter()
        .find(|e| e.reason == "TaintManagerEviction")
        .map(|e| e.at)
        .unwrap();
    // Not before the 300 s of DefaultTolerationSeconds after the node turned Unknown.
    assert!(first_eviction >= 300, "{first_eviction}");
}

#[test]
fn action_lines_read_and_write_back() {
    for line in [
        "at 60 taint n1 dedicated=gpu:NoExecute",
        "at 0 taint n1 maintenance:NoSchedule",
        "at 5 untaint n1 dedicated:NoExecute",
        "at 0 untaint n1 dedicated",
        "at 0 cordon n1",
        "at 0 uncordon n1",
        "at 30 drain n1 --ignore-daemonsets --delete-emptydir-data --force --grace-period=5 --timeout=120",
        "at 0 fail n2",
        "at 600 recover n2",
        "at 0 delete n2",
        "at 10 scale deployment/web 5 -n shop",
    ] {
        let a = parse_action(line, V).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(format_action(&a).as_deref(), Some(line));
    }
    let a = parse_action("taint node/n1 k=v:NoExecute", V).unwrap();
    assert_eq!(a.at, 0);
    let ActionKind::AddTaint { node, taint } = a.kind else {
        panic!()
    };
    assert_eq!(
        (node.as_str(), taint.effect),
        ("n1", TaintEffect::NoExecute)
    );
}

#[test]
fn bad_action_lines_name_what_is_wrong() {
    let err = |l: &str| parse_action(l, V).unwrap_err();
    assert!(err("at soon drain n1").contains("\"soon\" is not a number of seconds"));
    assert!(err("reboot n1").contains("unknown action \"reboot\""));
    assert!(
        err("taint n1 k=v").contains("the effect is missing")
            || err("taint n1 k=v").contains("invalid taint spec")
    );
    assert!(err("taint n1 k=v:Sometimes").contains("Sometimes"));
    assert!(err("drain n1 --yes").contains("unknown drain flag \"--yes\""));
    assert!(err("drain").contains("needs a node name"));
    assert!(err("scale pod/web 3").contains("\"pod\" cannot be scaled"));
    assert!(err("scale deployment/web lots").contains("\"lots\" is not a replica count"));
    assert!(err("cordon n1 n2").contains("unexpected \"n2\""));
    let many = parse_actions("cordon n1\n\n# comment\nexplode n2\n", V).unwrap_err();
    assert!(many.starts_with("line 4: "), "{many}");
}

#[test]
fn admission_settings_reach_the_simulation() {
    use taintlab_core::admission::default_toleration_seconds::DefaultTolerationSecondsConfig;
    use taintlab_core::node_lifecycle::DefaultTolerationSeconds;
    let with = |dts: Option<DefaultTolerationSecondsConfig>| Options {
        admission: Some(crate::AdmissionOptions {
            default_toleration_seconds: dts,
            ..Default::default()
        }),
        ..Options::default()
    };
    // Not run here: the cluster's own API server adds 300 s.
    assert_eq!(
        simulation_options(&Options::default()).default_toleration_seconds,
        Some(DefaultTolerationSeconds::default())
    );
    assert_eq!(
        simulation_options(&with(None)).default_toleration_seconds,
        None
    );
    let sixty = with(Some(DefaultTolerationSecondsConfig {
        not_ready_seconds: 60,
        unreachable_seconds: 60,
    }));
    assert_eq!(
        simulation_options(&sixty).default_toleration_seconds,
        Some(DefaultTolerationSeconds {
            not_ready: 60,
            unreachable: 60
        })
    );
    let first_eviction = |o: &Options| {
        let s = Scenario::from_text(CLUSTER, o);
        let actions = parse_actions("fail n1", V).unwrap();
        let t = s
            .what_if_with(&actions, 900, simulation_options(o))
            .expect("runs");
        t.events
            .iter()
            .find(|e| e.reason == "TaintManagerEviction")
            .map(|e| e.at)
    };
    let default = first_eviction(&Options::default()).expect("evicted");
    let short = first_eviction(&sixty).expect("evicted");
    assert!(default >= 300, "{default}");
    assert!(
        (60..default - 200).contains(&short),
        "60 s tolerations evict 240 s sooner: {short} vs {default}"
    );
}

#[test]
fn the_what_if_build_skips_the_matrix_and_starts_the_same_run() {
    let pane = crate::ParsedPane::parse(CLUSTER, crate::PaneKind::Combined, V);
    let options = Options::default();
    let full = Scenario::build(&[&pane], &options);
    let light = Scenario::build_for_what_if(&[&pane], &options);
    assert!(!full.placement.pods.is_empty());
    assert!(light.placement.pods.is_empty());
    assert_eq!(light.what_if_cluster(), full.what_if_cluster());
    let actions = parse_actions("at 0 drain n1 --ignore-daemonsets\nat 60 fail n2\n", V).unwrap();
    assert_eq!(
        light.what_if(&actions, 600).expect("runs"),
        full.what_if(&actions, 600).expect("runs")
    );
}
