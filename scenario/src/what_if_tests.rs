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
    // The Deployment's pods keep their ReplicaSet, which names its new pods.
    assert_eq!(w.replica_set.as_deref(), Some("web-5d8f7"));
    for p in &c.cluster.pods {
        let o = p.owner.as_ref().expect("owner");
        assert_eq!(
            (o.kind, o.name.as_str()),
            (ControllerKind::ReplicaSet, "web-5d8f7")
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

/// Drains n1 at 0 and n2 at 60 (two nodes: the first drain's replacements land on n2,
/// the second's stay Pending, and a budget that selects them holds the last pod); checks
/// that every replacement is `<rs>-<5 characters>`, that every SuccessfulCreate is the
/// ReplicaSet's, and that the second drain's lines name the first drain's replacements.
fn replacements_are_named_after(text: &str, rs: &str) {
    let s = scenario(text);
    let start = s.what_if_cluster();
    let deployments: Vec<_> = start
        .cluster
        .workloads
        .iter()
        .filter(|w| w.kind == ControllerKind::Deployment)
        .collect();
    assert_eq!(deployments.len(), 1, "{:?}", start.cluster.workloads);
    assert_eq!(deployments[0].replica_set.as_deref(), Some(rs));
    let actions = parse_actions("at 0 drain n1\nat 60 drain n2 --force", V).unwrap();
    let t = s.what_if(&actions, 120).expect("runs");
    let replacements: Vec<&str> = t
        .pods
        .iter()
        .filter(|p| p.replaces.is_some())
        .map(|p| p.name.as_str())
        .collect();
    assert!(replacements.len() >= 3, "{replacements:?}");
    for name in &replacements {
        let suffix = name
            .strip_prefix(rs)
            .and_then(|n| n.strip_prefix('-'))
            .unwrap_or_else(|| panic!("{name} is not {rs}-<suffix>"));
        assert_eq!(suffix.len(), 5, "{name}");
    }
    for e in t.events.iter().filter(|e| e.reason == "SuccessfulCreate") {
        assert_eq!(
            (e.object.kind.as_str(), e.object.name.as_str()),
            ("ReplicaSet", rs),
            "{e:?}"
        );
        assert!(
            e.message.starts_with(&format!("Created pod: {rs}-")),
            "{e:?}"
        );
    }
    let second: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.at == 60 && e.reason == "drain")
        .map(|e| e.message.as_str())
        .collect();
    let evicting = format!("evicting pod shop/{}", replacements[0]);
    let refused = format!("error when evicting pods/\"{}\"", replacements[1]);
    assert!(
        second
            .iter()
            .any(|l| *l == evicting || l.starts_with(&refused)),
        "{second:?}"
    );
}

#[test]
fn replacements_take_the_replica_set_of_the_pods_owner_references() {
    replacements_are_named_after(CLUSTER, "web-5d8f7");
}

#[test]
fn replacements_take_the_replica_set_of_the_pods_template_hash_label() {
    let text = CLUSTER
        .replace(
            "  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f7, controller: true}]\n",
            "",
        )
        .replace(
            "  labels: {app: web}\n",
            "  labels: {app: web, pod-template-hash: 6b4d9f7c8}\n",
        );
    let c = scenario(&text).what_if_cluster();
    // The orphans are adopted (and said so), not left unmanaged.
    assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
    assert!(
        c.notes[0]
            .message
            .starts_with("pod web-5d8f7-a is taken to be owned by ReplicaSet web-6b4d9f7c8: "),
        "{:?}",
        c.notes
    );
    for p in &c.cluster.pods {
        let o = p.owner.as_ref().expect("adopted");
        assert_eq!(
            (o.kind, o.name.as_str()),
            (ControllerKind::ReplicaSet, "web-6b4d9f7c8")
        );
    }
    replacements_are_named_after(&text, "web-6b4d9f7c8");
    // Labels that are not the Deployment's template's: no owner.
    let other = text.replace(
        "{app: web, pod-template-hash",
        "{app: api, pod-template-hash",
    );
    let c = scenario(&other).what_if_cluster();
    assert!(c.cluster.pods.iter().all(|p| p.owner.is_none()));
}

/// A ReplicaSet of the Deployment `web`, with this hash, replicas and cpu request.
fn replica_set_doc(hash: &str, replicas: i32, cpu: &str) -> String {
    format!(
        "---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-{hash}
  namespace: shop
  labels: {{app: web, pod-template-hash: {hash}}}
  ownerReferences: [{{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}}]
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web, pod-template-hash: {hash}}}}}
  template:
    metadata: {{labels: {{app: web, pod-template-hash: {hash}}}}}
    spec:
      terminationGracePeriodSeconds: 10
      containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: {cpu}}}}}}}]
"
    )
}

#[test]
fn replacements_take_the_pasted_replica_set_that_keeps_the_replicas() {
    // The pods are still the old ReplicaSet's (web-5d8f7); of the two pasted ReplicaSets,
    // the one a finished rollout left with the replicas is current.
    let text = format!(
        "{CLUSTER}{}{}",
        replica_set_doc("f9c6d8b47", 0, "250m"),
        replica_set_doc("7d9f8c6b5", 2, "500m")
    );
    let c = scenario(&text).what_if_cluster();
    // The ReplicaSets are the Deployment's, not workloads of their own.
    assert_eq!(c.cluster.workloads.len(), 1, "{:?}", c.cluster.workloads);
    assert!(c.notes.is_empty(), "{:?}", c.notes);
    replacements_are_named_after(&text, "web-7d9f8c6b5");
    // Equal replicas: the first pasted.
    let text = format!(
        "{CLUSTER}{}{}",
        replica_set_doc("f9c6d8b47", 2, "250m"),
        replica_set_doc("7d9f8c6b5", 2, "500m")
    );
    replacements_are_named_after(&text, "web-f9c6d8b47");
    // Without the hash label (or an owner reference) a ReplicaSet is its own workload.
    let text = format!(
        "{CLUSTER}{}",
        replica_set_doc("7d9f8c6b5", 2, "500m").replace(
            "metadata: {labels: {app: web, pod-template-hash: 7d9f8c6b5}}",
            "metadata: {labels: {app: web}}"
        )
    );
    let c = scenario(&text).what_if_cluster();
    assert_eq!(c.cluster.workloads.len(), 2, "{:?}", c.cluster.workloads);
    assert_eq!(
        c.cluster.workloads[0].replica_set.as_deref(),
        Some("web-5d8f7")
    );
}

/// Two nodes and the Deployment `web` of [`CLUSTER`], then `pods` as pasted.
/// The name of each starting pod's owner, in order.
fn owner_names(c: &WhatIfCluster) -> Vec<Option<&str>> {
    c.cluster
        .pods
        .iter()
        .map(|p| p.owner.as_ref().map(|o| o.name.as_str()))
        .collect()
}

fn cluster_with_pods(pods: &str) -> String {
    let end = CLUSTER.find("---\napiVersion: v1\nkind: Pod").unwrap();
    let budget = CLUSTER.find("---\napiVersion: policy/v1").unwrap();
    format!("{}{}{pods}", &CLUSTER[..end], &CLUSTER[budget..])
}

#[test]
fn replacements_take_the_replica_set_of_pod_names_in_kubectl_get_pods() {
    let text = cluster_with_pods(
        "---
NAMESPACE   NAME                   READY   STATUS    RESTARTS   AGE   IP         NODE   NOMINATED NODE   READINESS GATES
shop        web-7d9f8c6b5d-x2k4q   1/1     Running   0          5m    10.0.0.4   n1     <none>           <none>
shop        web-7d9f8c6b5d-q7m4z   1/1     Running   0          5m    10.0.0.5   n1     <none>           <none>
shop        web-abc-x2k4q          1/1     Running   0          5m    10.0.0.6   n2     <none>           <none>
",
    );
    let c = scenario(&text).what_if_cluster();
    assert_eq!(c.cluster.pods.len(), 3, "{:?}", c.cluster.pods);
    let owners = owner_names(&c);
    // `abc` is no pod-template-hash (upstream's only hold 4-9, b, c, d, f).
    assert_eq!(
        owners,
        [Some("web-7d9f8c6b5d"), Some("web-7d9f8c6b5d"), None]
    );
    assert!(
        c.notes[0]
            .message
            .contains("kubectl get pods prints no owners"),
        "{:?}",
        c.notes
    );
    replacements_are_named_after(&text, "web-7d9f8c6b5d");
}

#[test]
fn a_deployment_without_pods_keeps_a_made_up_replica_set() {
    let text = cluster_with_pods("");
    let c = scenario(&text).what_if_cluster();
    assert_eq!(c.cluster.workloads[0].replica_set, None);
    let t = scenario(&text).what_if(&[], 10).expect("runs");
    assert_eq!(t.pods.len(), 2);
    for p in &t.pods {
        // web-<hash>-<5>: a hash upstream could print (its value is not upstream's).
        let (rs, suffix) = p.name.rsplit_once('-').expect("suffix");
        let hash = rs.strip_prefix("web-").expect("web-");
        assert_eq!(suffix.len(), 5, "{}", p.name);
        assert!(is_template_hash(hash), "{}", p.name);
    }
}

#[test]
fn replacements_take_the_replica_set_of_a_described_pods_name() {
    let text = cluster_with_pods(
        "---
Name:             web-7d9f8c6b5d-qv2lx
Namespace:        shop
Priority:         0
Node:             n1/10.0.0.4
Labels:           app=web
Status:           Running
Containers:
  c:
    Image:      nginx
    Requests:
      cpu:        500m
Tolerations:      <none>
Events:           <none>
",
    );
    let c = scenario(&text).what_if_cluster();
    assert_eq!(c.cluster.pods.len(), 1, "{:?}", c.cluster.pods);
    let o = c.cluster.pods[0].owner.as_ref().expect("adopted");
    assert_eq!(o.name, "web-7d9f8c6b5d");
    assert!(
        c.notes[0]
            .message
            .contains("kubectl describe pod shows no Controlled By line"),
        "{:?}",
        c.notes
    );
    // The Deployment keeps 2 replicas: the second pod is created at 0, by that ReplicaSet.
    let t = scenario(&text).what_if(&[], 10).expect("runs");
    let created: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulCreate")
        .map(|e| e.object.name.as_str())
        .collect();
    assert_eq!(created, ["web-7d9f8c6b5d"]);
    assert!(
        t.pods[1].name.starts_with("web-7d9f8c6b5d-"),
        "{:?}",
        t.pods[1]
    );
}

/// `kubectl describe pod` output of pods on n1, as kubectl 1.30 prints it: `controlled`
/// adds a `Controlled By:` line, `volume` a volume of that type.
fn described_pod(name: &str, controlled: Option<&str>, annotations: &str, volume: &str) -> String {
    let mut s = format!(
        "Name:             {name}\nNamespace:        shop\nPriority:         0\nNode:             n1/10.0.0.4\nLabels:           app=web\nAnnotations:      {annotations}\nStatus:           Running\n"
    );
    if let Some(owner) = controlled {
        s.push_str(&format!("Controlled By:    {owner}\n"));
    }
    s.push_str("Containers:\n  c:\n    Image:      nginx\n    Requests:\n      cpu:        100m\n");
    s.push_str(&format!(
        "Volumes:\n  data:\n    Type:       {volume}\nQoS Class:        Burstable\nTolerations:      <none>\nEvents:           <none>\n"
    ));
    s
}

#[test]
fn described_pods_keep_their_controller_mirror_and_local_storage() {
    let nodes = &CLUSTER[..CLUSTER.find("---\napiVersion: apps/v1").unwrap()];
    let managed = described_pod(
        "api-6c9f7b8d4f-k2x7q",
        Some("ReplicaSet/api-6c9f7b8d4f"),
        "<none>",
        "ConfigMap (a volume populated by a ConfigMap)",
    );
    let mirror = described_pod(
        "etcd-n1",
        Some("Node/n1"),
        "kubernetes.io/config.hash: 1f2e\n                  kubernetes.io/config.mirror: 1f2e",
        "HostPath (bare host directory volume)",
    );
    let text = format!("{nodes}---\n{managed}---\n{mirror}");
    let c = scenario(&text).what_if_cluster();
    assert_eq!(c.cluster.pods.len(), 2, "{:?}", c.cluster.pods);
    let o = c.cluster.pods[0].owner.as_ref().expect("owner");
    assert_eq!(
        (o.kind, o.name.as_str()),
        (ControllerKind::ReplicaSet, "api-6c9f7b8d4f")
    );
    assert_eq!(
        c.cluster.pods[0].labels.get("app").map(String::as_str),
        Some("web")
    );
    assert!(c.cluster.pods[1].mirror);
    // The ReplicaSet was not pasted: made up from its pod. The mirror pod's Node owner
    // is not reported as an unmodelled controller.
    assert_eq!(c.notes.len(), 1, "{:?}", c.notes);
    assert!(
        c.notes[0]
            .message
            .contains("ReplicaSet shop/api-6c9f7b8d4f was not pasted")
    );
    // Without --force the drain evicts the managed pod, leaves the mirror pod, and the
    // ReplicaSet's replacement lands on n2.
    let actions = parse_actions("at 0 drain n1", V).unwrap();
    let t = scenario(&text).what_if(&actions, 60).expect("runs");
    let evicted: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.reason == "drain" && e.message.starts_with("evicting pod"))
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(
        evicted,
        ["evicting pod shop/api-6c9f7b8d4f-k2x7q"],
        "{:?}",
        t.events
    );
    let replacement = t
        .pods
        .iter()
        .find(|p| p.replaces.is_some())
        .expect("replaced");
    assert!(
        replacement.name.starts_with("api-6c9f7b8d4f-"),
        "{replacement:?}"
    );
    // An emptyDir volume makes the same drain refuse without --delete-emptydir-data.
    let local = described_pod(
        "api-6c9f7b8d4f-k2x7q",
        Some("ReplicaSet/api-6c9f7b8d4f"),
        "<none>",
        "EmptyDir (a temporary directory that shares a pod's lifetime)",
    );
    let text = format!("{nodes}---\n{local}");
    let t = scenario(&text).what_if(&actions, 60).expect("runs");
    assert!(
        t.events.iter().any(|e| e.reason == "drain"
            && e.message.contains("--delete-emptydir-data")
            && e.message.contains("shop/api-6c9f7b8d4f-k2x7q")),
        "{:?}",
        t.events
    );
    assert!(t.pods.iter().all(|p| p.replaces.is_none()));
}

#[test]
fn pods_table_rows_without_their_deployment_are_owned_by_their_names_or_noted() {
    let text = "NAME     STATUS   ROLES    AGE   VERSION
n1       Ready    <none>   20d   v1.29.2
n2       Ready    <none>   20d   v1.29.2
---
NAMESPACE     NAME                   READY   STATUS    RESTARTS   AGE   IP         NODE   NOMINATED NODE   READINESS GATES
shop          web-7d9f8c6b5d-x2k4q   1/1     Running   0          5m    10.0.0.4   n1     <none>           <none>
shop          web-7d9f8c6b5d-q7m4z   1/1     Running   0          5m    10.0.0.5   n1     <none>           <none>
kube-system   kube-proxy-8xk2p       1/1     Running   0          20d   10.0.0.1   n1     <none>           <none>
shop          lonely                 1/1     Running   0          5m    10.0.0.6   n1     <none>           <none>
";
    let c = scenario(text).what_if_cluster();
    let owners = owner_names(&c);
    assert_eq!(
        owners,
        [Some("web-7d9f8c6b5d"), Some("web-7d9f8c6b5d"), None, None]
    );
    let notes: Vec<&str> = c.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("(Deployment web was not pasted)")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.starts_with(
            "kubectl get pods and kubectl describe node print no owners: 2 pod(s) they show are taken to be unmanaged"
        ) && n.contains(": kube-system/kube-proxy-8xk2p, shop/lonely;")),
        "{notes:?}"
    );
    // A budget in their namespace cannot see their labels: a note says so.
    let budget = format!(
        "{text}---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: web, namespace: shop}}\nspec: {{minAvailable: 2, selector: {{matchLabels: {{app: web}}}}}}\n"
    );
    let c = scenario(&budget).what_if_cluster();
    assert!(
        c.notes.iter().any(|n| n.message.starts_with(
            "PodDisruptionBudget shop/web: the labels of 3 pod(s) in shop are unknown"
        ) && n
            .message
            .contains(": shop/web-7d9f8c6b5d-x2k4q, shop/web-7d9f8c6b5d-q7m4z, shop/lonely;")),
        "{:?}",
        c.notes
    );
    // With --force the drain evicts all four; the ReplicaSet replaces its two.
    let actions = parse_actions("at 0 drain n1 --force", V).unwrap();
    let t = scenario(text).what_if(&actions, 60).expect("runs");
    let replaced: Vec<&str> = t
        .pods
        .iter()
        .filter(|p| p.replaces.is_some())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(replaced.len(), 2, "{replaced:?}");
    assert!(replaced.iter().all(|n| n.starts_with("web-7d9f8c6b5d-")));
    // kubectl describe node's pods table prints no owners either.
    let text = "Name:               n1
Roles:              <none>
Labels:             kubernetes.io/hostname=n1
Taints:             <none>
Unschedulable:      false
Allocatable:
  cpu:                4
  memory:             8Gi
  pods:               110
Non-terminated Pods:          (2 in total)
  Namespace                   Name                      CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                      ------------  ----------  ---------------  -------------  ---
  shop                        web-7d9f8c6b5d-x2k4q      100m (2%)     0 (0%)      0 (0%)           0 (0%)         5m
  kube-system                 kube-proxy-8xk2p          0 (0%)        0 (0%)      0 (0%)           0 (0%)         20d
";
    let c = scenario(text).what_if_cluster();
    let owners = owner_names(&c);
    assert_eq!(owners, [Some("web-7d9f8c6b5d"), None]);
    assert!(
        c.notes.iter().any(
            |n| n.message.contains("kubectl describe node prints no owners")
                && n.message.contains("(Deployment web was not pasted)")
        ),
        "{:?}",
        c.notes
    );
    assert!(
        c.notes.iter().any(|n| n.message.ends_with(
            ": kube-system/kube-proxy-8xk2p; paste kubectl get pods -o yaml to read their owners"
        )),
        "{:?}",
        c.notes
    );
}

#[test]
fn a_daemon_sets_pod_whose_daemon_set_was_not_pasted_is_daemon_set_managed_for_drain() {
    let text = "apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata:
  name: agent-8k2xq
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: agent}]
";
    let c = scenario(text).what_if_cluster();
    assert_eq!(
        c.cluster.daemon_sets_without_spec,
        [("kube-system".to_string(), "agent".to_string())]
    );
    let lines = |action: &str| -> Vec<String> {
        let actions = parse_actions(action, V).unwrap();
        let t = scenario(text).what_if(&actions, 60).expect("runs");
        t.events
            .iter()
            .filter(|e| e.reason == "drain")
            .map(|e| e.message.clone())
            .collect()
    };
    // kubectl finds the DaemonSet: skipped with --ignore-daemonsets, refused without;
    // never the "daemonsets.apps not found" of a DaemonSet that is gone.
    assert_eq!(
        lines("at 0 drain n1 --ignore-daemonsets"),
        [
            "node/n1 cordoned",
            "Warning: ignoring DaemonSet-managed Pods: kube-system/agent-8k2xq",
            "node/n1 drained"
        ]
    );
    let refused = lines("at 0 drain n1");
    assert!(
        refused.iter().any(|l| l.contains(
            "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/agent-8k2xq"
        )),
        "{refused:?}"
    );
}
