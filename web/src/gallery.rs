//! The examples gallery: classic taint, toleration and placement cases (dedicated nodes
//! with their label and nodeSelector, GPUs running out, a mixed taint and cpu event, a
//! tenant's node drained under a PodDisruptionBudget), each with a sentence of
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
    labels: {dedicated: payments}
  spec:
    taints:
    - key: dedicated
      value: payments
      effect: NoSchedule
- apiVersion: v1
  kind: Node
  metadata:
    name: payments-2
    labels: {dedicated: payments}
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
      nodeSelector:
        dedicated: payments
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

const GPU_NODES: &str = r#"apiVersion: v1
kind: Node
metadata:
  name: gpu-1
  labels: {accelerator: nvidia}
spec:
  taints:
  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}
status:
  allocatable: {cpu: "16", memory: 64Gi, pods: "110", nvidia.com/gpu: "2"}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-2
  labels: {accelerator: nvidia}
spec:
  taints:
  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}
status:
  allocatable: {cpu: "16", memory: 64Gi, pods: "110", nvidia.com/gpu: "1"}
---
apiVersion: v1
kind: Node
metadata:
  name: cpu-1
spec:
  taints:
  - {key: spot, value: "true", effect: PreferNoSchedule}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
"#;

const GPU_PODS: &str = r#"apiVersion: batch/v1
kind: Job
metadata:
  name: trainer
  namespace: ml
spec:
  template:
    spec:
      restartPolicy: Never
      nodeSelector: {accelerator: nvidia}
      containers:
      - name: train
        image: registry.example/trainer:2.0
        resources:
          requests: {cpu: "4"}
          limits: {nvidia.com/gpu: "1"}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: trainer-2gpu
  namespace: ml
spec:
  template:
    spec:
      restartPolicy: Never
      nodeSelector: {accelerator: nvidia}
      containers:
      - name: train
        image: registry.example/trainer:2.0
        resources:
          requests: {cpu: "4"}
          limits: {nvidia.com/gpu: "2"}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
---
# Already running: one GPU of gpu-1 and the only GPU of gpu-2 are taken.
apiVersion: v1
kind: Pod
metadata:
  name: train-a
  namespace: ml
spec:
  nodeName: gpu-1
  containers:
  - name: train
    image: registry.example/trainer:2.0
    resources:
      requests: {cpu: "4"}
      limits: {nvidia.com/gpu: "1"}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata:
  name: train-b
  namespace: ml
spec:
  nodeName: gpu-2
  containers:
  - name: train
    image: registry.example/trainer:2.0
    resources:
      requests: {cpu: "4"}
      limits: {nvidia.com/gpu: "1"}
status: {phase: Running}
"#;

fn gpu() -> State {
    let mut s = state(GPU_NODES, GPU_PODS);
    s.admission.extended_resource_toleration = true;
    s
}

const MIXED_NODES: &str = r#"Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
---
apiVersion: v1
kind: NodeList
items:
- apiVersion: v1
  kind: Node
  metadata: {name: infra-1}
  spec:
    taints: [{key: dedicated, value: infra, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata: {name: small-1}
  status:
    allocatable: {cpu: "1", memory: 4Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata: {name: small-2}
  status:
    allocatable: {cpu: "1", memory: 4Gi, pods: "110"}
"#;

const MIXED_PODS: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
# kubectl get pods -A -o yaml: what already runs on the nodes.
apiVersion: v1
kind: PodList
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: busy-1, namespace: batch}
  spec:
    nodeName: small-1
    containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: busy-2, namespace: batch}
  spec:
    nodeName: small-2
    containers: [{name: c, image: x, resources: {requests: {cpu: 900m}}}]
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: finished, namespace: batch}
  spec:
    nodeName: small-2
    containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
  status: {phase: Succeeded}
"#;

fn mixed() -> State {
    state(MIXED_NODES, MIXED_PODS)
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
        ..Scenario::default()
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
        ..Scenario::default()
    };
    s
}

const TENANT_NODES: &str = r#"# kubectl get nodes -o yaml: two tenants' pools and a shared node.
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: acme-1
    labels: {tenant: acme}
  spec:
    taints: [{key: tenant, value: acme, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: acme-2
    labels: {tenant: acme}
  spec:
    taints: [{key: tenant, value: acme, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: acme-3
    labels: {tenant: acme}
  spec:
    taints: [{key: tenant, value: acme, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: globex-1
    labels: {tenant: globex}
  spec:
    taints: [{key: tenant, value: globex, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: globex-2
    labels: {tenant: globex}
  spec:
    taints: [{key: tenant, value: globex, effect: NoSchedule}]
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
- apiVersion: v1
  kind: Node
  metadata:
    name: shared-1
  spec: {}
  status:
    allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
"#;

const TENANT_PODS: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata: {name: storefront, namespace: acme}
spec:
  replicas: 3
  selector: {matchLabels: {app: storefront}}
  template:
    metadata: {labels: {app: storefront}}
    spec:
      nodeSelector: {tenant: acme}
      tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
      containers:
      - name: web
        image: registry.example/acme/storefront:5.2
        resources: {requests: {cpu: 500m, memory: 512Mi}}
---
# At most one storefront replica may be down at a time.
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: storefront, namespace: acme}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: storefront}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout, namespace: acme}
spec:
  replicas: 1
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      nodeSelector: {tenant: acme}
      tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
      containers:
      - name: checkout
        image: registry.example/acme/checkout:1.9
        resources: {requests: {cpu: "1", memory: 1Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ledger, namespace: globex}
spec:
  replicas: 2
  selector: {matchLabels: {app: ledger}}
  template:
    metadata: {labels: {app: ledger}}
    spec:
      nodeSelector: {tenant: globex}
      tolerations: [{key: tenant, operator: Equal, value: globex, effect: NoSchedule}]
      containers:
      - name: ledger
        image: registry.example/globex/ledger:3.0
        resources: {requests: {cpu: "1", memory: 2Gi}}
---
# kubectl get pods -A -o yaml: what runs now (two storefront replicas and checkout on acme-1).
apiVersion: v1
kind: PodList
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: storefront-7c9d8b6f4-k2x8p
    namespace: acme
    labels: {app: storefront, pod-template-hash: 7c9d8b6f4}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: storefront-7c9d8b6f4, uid: 5b1e0f7a-2c44-4f0e-9a51-3f8d2b6c7e10, controller: true}]
  spec:
    nodeName: acme-1
    nodeSelector: {tenant: acme}
    tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
    containers:
    - name: web
      image: registry.example/acme/storefront:5.2
      resources: {requests: {cpu: 500m, memory: 512Mi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: storefront-7c9d8b6f4-q7m4z
    namespace: acme
    labels: {app: storefront, pod-template-hash: 7c9d8b6f4}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: storefront-7c9d8b6f4, uid: 5b1e0f7a-2c44-4f0e-9a51-3f8d2b6c7e10, controller: true}]
  spec:
    nodeName: acme-1
    nodeSelector: {tenant: acme}
    tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
    containers:
    - name: web
      image: registry.example/acme/storefront:5.2
      resources: {requests: {cpu: 500m, memory: 512Mi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: storefront-7c9d8b6f4-w9tl5
    namespace: acme
    labels: {app: storefront, pod-template-hash: 7c9d8b6f4}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: storefront-7c9d8b6f4, uid: 5b1e0f7a-2c44-4f0e-9a51-3f8d2b6c7e10, controller: true}]
  spec:
    nodeName: acme-2
    nodeSelector: {tenant: acme}
    tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
    containers:
    - name: web
      image: registry.example/acme/storefront:5.2
      resources: {requests: {cpu: 500m, memory: 512Mi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: checkout-5f6d7c8b9-r4nvx
    namespace: acme
    labels: {app: checkout, pod-template-hash: 5f6d7c8b9}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: checkout-5f6d7c8b9, uid: 0c7d41e2-8b3a-4d55-b1f9-6e2a9c0d4f83, controller: true}]
  spec:
    nodeName: acme-1
    nodeSelector: {tenant: acme}
    tolerations: [{key: tenant, operator: Equal, value: acme, effect: NoSchedule}]
    containers:
    - name: checkout
      image: registry.example/acme/checkout:1.9
      resources: {requests: {cpu: "1", memory: 1Gi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: ledger-84c5d9f7b-2hj6s
    namespace: globex
    labels: {app: ledger, pod-template-hash: 84c5d9f7b}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: ledger-84c5d9f7b, uid: 9e3f5a1c-6d72-4b08-8c2e-1a4b7d9e0f25, controller: true}]
  spec:
    nodeName: globex-1
    nodeSelector: {tenant: globex}
    tolerations: [{key: tenant, operator: Equal, value: globex, effect: NoSchedule}]
    containers:
    - name: ledger
      image: registry.example/globex/ledger:3.0
      resources: {requests: {cpu: "1", memory: 2Gi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: ledger-84c5d9f7b-xk5pw
    namespace: globex
    labels: {app: ledger, pod-template-hash: 84c5d9f7b}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: ledger-84c5d9f7b, uid: 9e3f5a1c-6d72-4b08-8c2e-1a4b7d9e0f25, controller: true}]
  spec:
    nodeName: globex-2
    nodeSelector: {tenant: globex}
    tolerations: [{key: tenant, operator: Equal, value: globex, effect: NoSchedule}]
    containers:
    - name: ledger
      image: registry.example/globex/ledger:3.0
      resources: {requests: {cpu: "1", memory: 2Gi}}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
"#;

/// The drain the multi-tenant example opens with (the What-if tab's action lines).
pub const TENANT_DRAIN: &str = "at 0 drain acme-1 --ignore-daemonsets\n";

fn multi_tenant() -> State {
    let mut s = state(TENANT_NODES, TENANT_PODS);
    s.scenario.actions = TENANT_DRAIN.to_string();
    s.tab = Tab::Timeline;
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
    Example {
        id: "multi-tenant",
        title: K::ExTenantsTitle,
        text: K::ExTenantsText,
        build: multi_tenant,
    },
    Example {
        id: "mixed",
        title: K::ExMixedTitle,
        text: K::ExMixedText,
        build: mixed,
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

    fn kinds(a: &crate::analysis::Analysis, p: usize) -> Vec<crate::analysis::CellKind> {
        (0..a.nodes.len())
            .filter_map(|n| a.cell(p, n).map(|c| c.kind))
            .collect()
    }

    #[test]
    fn dedicated_example_lands_only_on_its_pool() {
        use crate::analysis::CellKind::{Blocked, Schedulable};
        use taintlab_core::scheduling::filter::FilterPlugin;
        let a = run(&dedicated());
        // payments-api: both payments nodes, never general-1 (its nodeSelector).
        assert_eq!(kinds(&a, 0), [Schedulable, Schedulable, Blocked]);
        assert_eq!(
            a.cell(0, 2).and_then(|c| c.rejected_by),
            Some(FilterPlugin::NodeAffinity)
        );
        // web: general-1 only (the taint).
        assert_eq!(kinds(&a, 1), [Blocked, Blocked, Schedulable]);
        assert_eq!(
            a.cell(1, 0).and_then(|c| c.rejected_by),
            Some(FilterPlugin::TaintToleration)
        );
    }

    #[test]
    fn gpu_example_runs_out_of_gpus() {
        use crate::analysis::CellKind::{Blocked, Penalized, Schedulable};
        let a = run(&gpu());
        // ExtendedResourceToleration added the toleration.
        assert!(
            a.pods[0]
                .pod
                .tolerations
                .iter()
                .any(|t| t.key == "nvidia.com/gpu")
        );
        // trainer: gpu-1 has one GPU left, gpu-2 none, cpu-1 is off its pool.
        assert_eq!(kinds(&a, 0), [Schedulable, Blocked, Blocked]);
        let short = a.placement_cell(0, 1).expect("a cell").insufficient;
        assert_eq!(short.len(), 1);
        assert_eq!(short[0].reason, "Insufficient nvidia.com/gpu");
        assert_eq!(short[0].shortfall(), 1);
        // trainer-2gpu: no node has two GPUs left.
        let message = a.message(1).expect("pending");
        assert!(
            message.starts_with("0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient nvidia.com/gpu."),
            "{message}"
        );
        // web: only cpu-1 (the spot penalty).
        assert_eq!(kinds(&a, 2), [Blocked, Blocked, Penalized]);
        // The bars: gpu-1 holds 1 of 2 GPUs, gpu-2 1 of 1.
        let gpus = |n: usize| {
            a.node_resources(n)
                .expect("bars")
                .bars
                .into_iter()
                .find(|b| b.resource == "nvidia.com/gpu")
                .map(|b| (b.requested, b.allocatable))
        };
        assert_eq!(gpus(0), Some((1, 2)));
        assert_eq!(gpus(1), Some((1, 1)));
    }

    #[test]
    fn mixed_example_is_exactly_the_pasted_event() {
        let a = run(&mixed());
        assert_eq!(a.events.len(), 1);
        assert_eq!(
            a.pods_with_message(&a.events[0].event.message),
            vec![0],
            "{:?} vs {:?}",
            a.message(0),
            a.events[0].event.message
        );
        let short = a.placement_cell(0, 1).expect("a cell").insufficient;
        assert_eq!(short[0].reason, "Insufficient cpu");
        assert_eq!(short[0].shortfall(), 400);
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

    /// The drain the multi-tenant example opens with, run as the What-if tab runs it
    /// (the scenario's what-if with the options the state's settings imply).
    #[cfg(feature = "reader")]
    fn multi_tenant_drain() -> taintlab_core::simulation::Timeline {
        let s = multi_tenant();
        assert_eq!(s.scenario.actions, TENANT_DRAIN);
        assert_eq!(s.tab, Tab::Timeline);
        let a = run(&s);
        assert!(
            a.what_if_cluster().notes.is_empty(),
            "every owner was pasted: {:?}",
            a.what_if_cluster().notes
        );
        let actions =
            taintlab_scenario::parse_actions(&s.scenario.actions, a.semantics.version).unwrap();
        let until = crate::whatif::auto_until(actions.iter().map(|x| x.at).max().unwrap_or(0));
        a.what_if_with(
            &actions,
            until,
            taintlab_scenario::what_if::simulation_options(&state_options(&s)),
        )
        .expect("runs")
    }

    #[cfg(feature = "reader")]
    #[test]
    fn multi_tenant_drain_replaces_every_pod_on_its_own_pool_and_the_budget_makes_one_eviction_wait()
     {
        use taintlab_core::simulation::{PodSpan, PodState, Source};
        let v = multi_tenant_drain();
        assert_eq!(v.until, 600);
        let label = |p: usize| format!("{}/{}", v.pods[p].namespace, v.pods[p].name);
        let node = |name: &str| v.nodes.iter().position(|n| n == name).expect(name);
        let pod = |name: &str| (0..v.pods.len()).find(|&p| label(p) == name).expect(name);
        let (acme1, acme2, acme3) = (node("acme-1"), node("acme-2"), node("acme-3"));
        // The three pods on acme-1 go; each gets exactly one replacement.
        let evicted = [
            "acme/storefront-7c9d8b6f4-k2x8p",
            "acme/checkout-5f6d7c8b9-r4nvx",
            "acme/storefront-7c9d8b6f4-q7m4z",
        ];
        let sum = &v.summary;
        assert_eq!((sum.evicted, sum.replaced, sum.rescheduled), (3, 3, 3));
        assert!(sum.still_pending.is_empty(), "{:?}", sum.still_pending);
        assert!(!sum.drains_unfinished);
        // (replaced pod, the replacement's node, the second it was created and started).
        let expected = [
            (evicted[0], acme3, 0),
            (evicted[1], acme2, 0),
            (evicted[2], acme3, 5),
        ];
        let mut replacements = Vec::new();
        for (old, on, at) in expected {
            let old = pod(old);
            let new: Vec<usize> = (0..v.pods.len())
                .filter(|&p| v.pods[p].replaces == Some(old))
                .collect();
            assert_eq!(new.len(), 1, "one replacement of {}", label(old));
            let new = new[0];
            // Named after the pasted pod's ReplicaSet: `<replica set>-<5 characters>`.
            let old_label = label(old);
            let (rs, _) = old_label.rsplit_once('-').expect("<replica set>-<suffix>");
            let new_label = label(new);
            assert!(
                new_label.starts_with(&format!("{rs}-")) && new_label.len() == rs.len() + 6,
                "{new_label} for {rs}"
            );
            let created = format!("Created pod: {}", v.pods[new].name);
            assert!(
                v.events.iter().any(|e| e.reason == "SuccessfulCreate"
                    && e.message == created
                    && format!("{}/{}", e.object.namespace, e.object.name) == rs),
                "{created} by ReplicaSet {rs}"
            );
            let spans: Vec<&PodSpan> = v.spans_of(new).collect();
            assert_eq!(
                spans,
                [&PodSpan {
                    pod: new,
                    node: Some(on),
                    state: PodState::Running,
                    from: at,
                    to: None,
                }],
                "{} runs on {} from {at} s",
                label(new),
                v.nodes[on]
            );
            // The old pod: Running on acme-1, then Terminating for its 30 s grace period.
            let last = v.spans_of(old).last().expect("spans");
            assert_eq!(
                (last.node, last.from, last.to),
                (Some(acme1), at, Some(at + 30))
            );
            assert!(
                matches!(last.state, PodState::Terminating { .. }),
                "{last:?}"
            );
            replacements.push((new, on, at));
        }
        // Nothing ever runs on the other tenant's pool or the shared node but globex's own
        // pods, and no pod ever waits Pending.
        for s in &v.spans {
            assert_ne!(s.state, PodState::Pending, "{s:?}");
            let on = &v.nodes[s.node.expect("bound")];
            let name = label(s.pod);
            assert!(
                on.starts_with(if name.starts_with("globex/") {
                    "globex-"
                } else {
                    "acme-"
                }),
                "{name} on {on}"
            );
        }
        // The scheduler's events name the nodes, at the second each replacement started.
        for (new, on, at) in replacements {
            let message = format!("Successfully assigned {} to {}", label(new), v.nodes[on]);
            assert!(
                v.events
                    .iter()
                    .any(|e| e.at == at && e.reason == "Scheduled" && e.message == message),
                "{message} at {at} s: {:?}",
                v.events
            );
        }
        // kubectl drain's output: the second storefront eviction is refused by the budget,
        // retried 5 s later (once the first replacement runs), and the drain finishes when
        // the last pod's 30 s grace period ends.
        let drain: Vec<(i64, u8, &str)> = v
            .events
            .iter()
            .filter_map(|e| {
                let out = match e.source {
                    Source::Event => return None,
                    Source::DrainStdout => 1,
                    Source::DrainStderr => 2,
                };
                Some((e.at, out, e.message.as_str()))
            })
            .collect();
        assert_eq!(
            drain,
            [
                (0, 1, "node/acme-1 cordoned"),
                (0, 1, "evicting pod acme/checkout-5f6d7c8b9-r4nvx"),
                (0, 1, "evicting pod acme/storefront-7c9d8b6f4-k2x8p"),
                (0, 1, "evicting pod acme/storefront-7c9d8b6f4-q7m4z"),
                (
                    0,
                    2,
                    "error when evicting pods/\"storefront-7c9d8b6f4-q7m4z\" -n \"acme\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."
                ),
                (5, 1, "evicting pod acme/storefront-7c9d8b6f4-q7m4z"),
                (30, 1, "pod/checkout-5f6d7c8b9-r4nvx evicted"),
                (30, 1, "pod/storefront-7c9d8b6f4-k2x8p evicted"),
                (35, 1, "pod/storefront-7c9d8b6f4-q7m4z evicted"),
                (35, 1, "node/acme-1 drained"),
            ]
        );
        // At the end: acme-1 cordoned and empty, the pool holds all four acme pods.
        let end = v.at(v.until);
        assert!(end.pods.iter().all(|p| p.node.is_some()));
        let on = |n: usize| end.pods.iter().filter(|p| p.node == Some(n)).count();
        let acme_1 = end.nodes.iter().find(|n| n.node == acme1).expect("acme-1");
        assert!(acme_1.unschedulable && on(acme1) == 0, "{acme_1:?}");
        assert_eq!(on(acme2) + on(acme3), 4);
        assert_eq!(on(node("shared-1")), 0);
    }
}
