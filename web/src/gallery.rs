//! The examples gallery: classic taint and toleration cases, each with a sentence of
//! explanation. Loading one replaces the whole state.

use std::rc::Rc;

use yew::prelude::*;

use crate::i18n::{K, use_t};
use crate::store::{Action, Admission, Failure, Scenario, State, Step, StepOp, Tab};

/// One example.
pub struct Example {
    /// Stable identifier (used by tests and the e2e suite).
    pub id: &'static str,
    /// Title.
    pub title: K,
    /// The sentence of explanation.
    pub text: K,
    /// The state it loads.
    pub build: fn() -> State,
}

fn state(nodes: &str, pods: &str) -> State {
    State {
        nodes: Rc::from(nodes),
        pods: Rc::from(pods),
        ..State::default()
    }
}

const DEDICATED_NODES: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: payments-1
    labels: {team: payments}
  spec:
    taints:
    - key: dedicated
      value: payments
      effect: NoSchedule
- apiVersion: v1
  kind: Node
  metadata:
    name: payments-2
    labels: {team: payments}
  spec:
    taints:
    - key: dedicated
      value: payments
      effect: NoSchedule
- apiVersion: v1
  kind: Node
  metadata:
    name: general-1
  spec: {}
"#;

const DEDICATED_PODS: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments-api
  namespace: payments
spec:
  template:
    spec:
      containers:
      - name: api
        image: registry.example/payments-api:1.4
      tolerations:
      - key: dedicated
        operator: Equal
        value: payments
        effect: NoSchedule
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
"#;

fn dedicated() -> State {
    state(DEDICATED_NODES, DEDICATED_PODS)
}

fn gpu() -> State {
    let mut s = state(
        "kubectl taint nodes gpu-1 nvidia.com/gpu=present:NoSchedule\nkubectl taint nodes gpu-2 nvidia.com/gpu=present:NoSchedule\nkubectl taint nodes cpu-1 spot=true:PreferNoSchedule\n",
        r#"apiVersion: batch/v1
kind: Job
metadata:
  name: trainer
  namespace: ml
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: train
        image: registry.example/trainer:2.0
        resources:
          limits:
            nvidia.com/gpu: "1"
          requests:
            nvidia.com/gpu: "1"
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
"#,
    );
    s.admission.extended_resource_toleration = true;
    s
}

fn eviction() -> State {
    let mut s = state(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nspec: {}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-2\nspec: {}\n",
        r#"apiVersion: v1
kind: Pod
metadata:
  name: default-toleration
spec:
  nodeName: worker-1
  containers: [{name: app, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: fast-failover
spec:
  nodeName: worker-1
  containers: [{name: app, image: nginx}]
  tolerations:
  - key: node.kubernetes.io/unreachable
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 30
---
apiVersion: v1
kind: Pod
metadata:
  name: stays-forever
spec:
  nodeName: worker-1
  containers: [{name: app, image: nginx}]
  tolerations:
  - key: node.kubernetes.io/unreachable
    operator: Exists
    effect: NoExecute
"#,
    );
    s.scenario = Scenario {
        steps: vec![Step {
            at: 60,
            node: "worker-1".into(),
            op: StepOp::Add,
            taint: "node.kubernetes.io/unreachable:NoExecute".into(),
        }],
        failure: None,
    };
    s.tab = Tab::Timeline;
    s
}

fn wildcard() -> State {
    let mut s = state(
        "kubectl taint nodes cp-1 node-role.kubernetes.io/control-plane:NoSchedule\nkubectl taint nodes db-1 dedicated=database:NoExecute\nkubectl taint nodes worker-1 maintenance=true:PreferNoSchedule\n",
        r#"apiVersion: v1
kind: Pod
metadata:
  name: anywhere
  namespace: tools
spec:
  containers: [{name: debug, image: busybox}]
  tolerations:
  - operator: Exists
---
apiVersion: v1
kind: Pod
metadata:
  name: ordinary
  namespace: tools
spec:
  containers: [{name: app, image: nginx}]
"#,
    );
    s.tab = Tab::Kubewarden;
    s
}

fn daemonset() -> State {
    state(
        r#"apiVersion: v1
kind: Node
metadata:
  name: cordoned-1
spec:
  unschedulable: true
  taints:
  - key: node.kubernetes.io/unschedulable
    effect: NoSchedule
---
apiVersion: v1
kind: Node
metadata:
  name: failing-1
spec:
  taints:
  - key: node.kubernetes.io/not-ready
    effect: NoExecute
---
apiVersion: v1
kind: Node
metadata:
  name: pressured-1
spec:
  taints:
  - key: node.kubernetes.io/memory-pressure
    effect: NoSchedule
"#,
        r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  namespace: monitoring
spec:
  template:
    spec:
      hostNetwork: true
      containers:
      - name: exporter
        image: quay.io/prometheus/node-exporter:v1.8.2
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
"#,
    )
}

fn thresholds() -> State {
    let mut s = state(
        "kubectl taint nodes reliable-1 reliability=95:NoSchedule\nkubectl taint nodes flaky-1 reliability=80:NoSchedule\nkubectl taint nodes odd-1 reliability=high:NoSchedule\n",
        r#"apiVersion: v1
kind: Pod
metadata:
  name: critical
spec:
  containers: [{name: app, image: nginx}]
  tolerations:
  - key: reliability
    operator: Gt
    value: "90"
    effect: NoSchedule
"#,
    );
    s.version = "1.35.0".into();
    s.comparison_operators = true;
    s
}

fn event() -> State {
    let mut s = state(
        r#"kubectl taint nodes cp-1 node-role.kubernetes.io/control-plane:NoSchedule
kubectl taint nodes cp-2 node-role.kubernetes.io/control-plane:NoSchedule
kubectl taint nodes payments-1 dedicated=payments:NoSchedule
---
Warning  FailedScheduling  12s   default-scheduler  0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: payments}, 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
"#,
        r#"apiVersion: v1
kind: Pod
metadata:
  name: checkout
spec:
  containers: [{name: app, image: registry.example/checkout:3.1}]
"#,
    );
    s.version = "1.33.0".into();
    s
}

fn node_failure() -> State {
    let mut s = eviction();
    s.scenario = Scenario {
        steps: Vec::new(),
        failure: Some(Failure {
            node: "worker-1".into(),
            ..Failure::default()
        }),
    };
    s
}

/// Every example, in gallery order.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "dedicated",
        title: K::ExDedicatedTitle,
        text: K::ExDedicatedText,
        build: dedicated,
    },
    Example {
        id: "gpu",
        title: K::ExGpuTitle,
        text: K::ExGpuText,
        build: gpu,
    },
    Example {
        id: "eviction",
        title: K::ExEvictionTitle,
        text: K::ExEvictionText,
        build: eviction,
    },
    Example {
        id: "node-failure",
        title: K::ExFailureTitle,
        text: K::ExFailureText,
        build: node_failure,
    },
    Example {
        id: "wildcard",
        title: K::ExWildcardTitle,
        text: K::ExWildcardText,
        build: wildcard,
    },
    Example {
        id: "daemonset",
        title: K::ExDaemonSetTitle,
        text: K::ExDaemonSetText,
        build: daemonset,
    },
    Example {
        id: "thresholds",
        title: K::ExThresholdTitle,
        text: K::ExThresholdText,
        build: thresholds,
    },
    Example {
        id: "event",
        title: K::ExEventTitle,
        text: K::ExEventText,
        build: event,
    },
];

/// The state a first visit starts with.
pub fn first_visit() -> State {
    dedicated()
}

/// Admission settings of an example (for tests).
pub fn admission_of(id: &str) -> Option<Admission> {
    EXAMPLES
        .iter()
        .find(|e| e.id == id)
        .map(|e| (e.build)().admission)
}

/// Properties of [`Gallery`].
#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// State changes.
    pub dispatch: Callback<Action>,
    /// Close the gallery.
    pub on_close: Callback<()>,
}

/// The gallery.
#[function_component(Gallery)]
pub fn gallery(props: &GalleryProps) -> Html {
    let t = use_t();
    let onkeydown = {
        let close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                close.emit(());
            }
        })
    };
    html! {
        <section class="gallery" id="gallery" aria-labelledby="gallery-heading" {onkeydown}>
            <div class="gallery-head">
                <h2 id="gallery-heading">{t.s(K::GalleryTitle)}</h2>
                <button type="button" class="button subtle" onclick={{ let c = props.on_close.clone(); Callback::from(move |_| c.emit(())) }}>{t.s(K::Close)}</button>
            </div>
            <p class="muted">{t.s(K::GalleryIntro)}</p>
            <ul class="examples">
                { for EXAMPLES.iter().map(|ex| {
                    let onclick = {
                        let dispatch = props.dispatch.clone();
                        let close = props.on_close.clone();
                        let build = ex.build;
                        Callback::from(move |_| {
                            crate::perf::note_edit();
                            dispatch.emit(Action::Replace(Box::new(build())));
                            close.emit(());
                        })
                    };
                    html!{
                        <li class="example" data-example={ex.id}>
                            <h3>{t.s(ex.title)}</h3>
                            <p>{t.s(ex.text)}</p>
                            <button type="button" class="button" {onclick} aria-label={format!("{}: {}", t.s(K::Load), t.s(ex.title))}>{t.s(K::Load)}</button>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse, state_options};
    use crate::parse::parse_pane;
    use taintlab_scenario::PaneKind;

    fn run(s: &State) -> crate::analysis::Analysis {
        let n = parse_pane(&s.nodes, PaneKind::Nodes);
        let p = parse_pane(&s.pods, PaneKind::Pods);
        assert_eq!(n.errors().count(), 0, "{:?}", n.parsed.diagnostics);
        assert_eq!(p.errors().count(), 0, "{:?}", p.parsed.diagnostics);
        analyse(&n, &p, &state_options(s))
    }

    #[test]
    fn every_example_reads_cleanly() {
        for ex in EXAMPLES {
            let a = run(&(ex.build)());
            assert!(!a.nodes.is_empty(), "{}", ex.id);
            assert!(!a.pods.is_empty(), "{}", ex.id);
        }
    }

    #[test]
    fn the_event_example_is_exactly_the_computed_message() {
        let a = run(&event());
        assert_eq!(a.events.len(), 1);
        assert_eq!(a.pods_with_message(&a.events[0].event.message), vec![0]);
    }

    #[test]
    fn gpu_example_adds_the_extended_resource_toleration() {
        let a = run(&gpu());
        assert!(
            a.pods[0]
                .pod
                .tolerations
                .iter()
                .any(|t| t.key == "nvidia.com/gpu")
        );
        assert_eq!(
            a.cell(0, 0).map(|c| c.kind),
            Some(crate::analysis::CellKind::Schedulable)
        );
        assert_eq!(
            a.cell(1, 0).map(|c| c.kind),
            Some(crate::analysis::CellKind::Blocked)
        );
    }

    #[test]
    fn threshold_example_uses_gt() {
        let a = run(&thresholds());
        assert_eq!(
            a.cell(0, 0).map(|c| c.kind),
            Some(crate::analysis::CellKind::Schedulable)
        );
        assert_eq!(
            a.cell(0, 1).map(|c| c.kind),
            Some(crate::analysis::CellKind::Blocked)
        );
        assert_eq!(
            a.cell(0, 2).map(|c| c.kind),
            Some(crate::analysis::CellKind::Blocked)
        );
    }
}
