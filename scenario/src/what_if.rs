//! What if: the pasted cluster handed to core's cluster simulation
//! ([`taintlab_core::simulation`]), and the one text form of its actions that every edge
//! shares (the command line's flags, npm, share links).
//!
//! [`Scenario::what_if_cluster`] turns the scenario into a simulation [`Cluster`]:
//!
//! * nodes as they are after the pasted `kubectl taint`/`label` lines, with their
//!   `status.allocatable`;
//! * pasted pods (not Succeeded or Failed ones) with their labels, controlling owner,
//!   grace period, `emptyDir` volumes and mirror annotation;
//! * pasted workloads (Deployment, ReplicaSet, StatefulSet, Job, DaemonSet,
//!   ReplicationController) with their `spec.replicas` (API default 1) and pod template;
//! * PodDisruptionBudgets.
//!
//! A pod owned by a ReplicaSet named `<deployment>-<hash>` belongs to a pasted Deployment
//! of that name (a Deployment's pods are owned by its current ReplicaSet) and keeps that
//! owner. The Deployment's new pods are named `<replica set>-<5 characters>` after the
//! ReplicaSet the paste shows (see [`Workload::replica_set`]), in this order: a pasted
//! ReplicaSet of the Deployment (named `<deployment>-<h>` with the template label
//! `pod-template-hash: h`; the one keeping the most replicas, as templates are not
//! compared), else the first pod that names one: by its owner reference, by its
//! `pod-template-hash` label and the Deployment's template labels (a pod without an owner
//! reference, which the ReplicaSet adopts), or, for a row of `kubectl get pods` (which
//! prints no owners) or a `kubectl describe pod` without a `Controlled By:` line, by a
//! name of the form
//! `<deployment>-<hash>-<5 characters>`. A row of `kubectl get pods` or of `kubectl
//! describe node`'s pods table (neither prints owners) whose name has that form is owned
//! by that ReplicaSet even when its Deployment was not pasted; the other rows are taken
//! to be unmanaged, and one [`WhatIfNote`] names them. A paste that shows none (a Deployment
//! without pods) leaves the core's made-up hash. A pod whose
//! ReplicaSet, StatefulSet, Job or ReplicationController was not pasted gets one made up
//! from the pods that name it: as many replicas as there are such pods, the first one's
//! spec as the template, and a [`WhatIfNote`] that says so. A pod whose DaemonSet was not
//! pasted keeps its owner (so `kubectl drain` treats it as DaemonSet-managed) but nothing
//! recreates it. Owners of other kinds (custom controllers) are not modelled: their pods
//! are treated as unmanaged, with a note.

use std::collections::BTreeMap;

use taintlab_core::kubectl::taint::parse_taint;
use taintlab_core::model::{SchedulingPod, TaintEffect};
use taintlab_core::simulation::{
    self, Action, ActionKind, Cluster, ClusterNode, ClusterPod, ControllerKind, DisruptionBudget,
    DrainOptions, InputError, IntOrPercent, Owner, PodReplacementPolicy, PodTemplate, Timeline,
    WhatIf, Workload,
};
use taintlab_core::version::KubeVersion;
use taintlab_input::{Form, IntOrString};

use crate::{PodEntry, Scenario, Source};

/// Something the simulation assumes about the pasted cluster, for the user to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatIfNote {
    /// Where the object it is about was pasted (`None` for the cluster as a whole).
    pub source: Option<Source>,
    /// What was assumed.
    pub message: String,
}

/// The simulation's starting cluster and what was assumed to build it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhatIfCluster {
    /// The cluster.
    pub cluster: Cluster,
    /// The assumptions, in paste order.
    pub notes: Vec<WhatIfNote>,
}

/// The namespace an empty one means.
fn namespace(ns: &str) -> String {
    if ns.is_empty() {
        "default".to_string()
    } else {
        ns.to_string()
    }
}

/// The pod as the scheduler sees it ([`crate::placement`]'s view), in its namespace.
fn scheduling_pod(e: &PodEntry) -> SchedulingPod {
    let mut p = crate::placement::scheduling_pod(e);
    p.pod.namespace = namespace(&p.pod.namespace);
    p
}

/// The label the Deployment controller adds to its ReplicaSets' templates
/// (`apps.DefaultDeploymentUniqueLabelKey`).
const POD_TEMPLATE_HASH: &str = "pod-template-hash";

/// True for a pod-template-hash as upstream prints it: `rand.SafeEncodeString` of a
/// decimal uint32 (pkg/controller/controller_utils.go `ComputeHash`), so 1 to 10 of
/// `4`-`9`, `b`, `c`, `d`, `f`.
fn is_template_hash(h: &str) -> bool {
    (1..=10).contains(&h.len()) && h.bytes().all(|b| b"456789bcdf".contains(&b))
}

/// For a pod named `<deployment>-<hash>-<5 characters>` as a Deployment's ReplicaSet
/// names its pods (GenerateName `<replica set>-` with `utilrand.String(5)`,
/// staging/src/k8s.io/apiserver/pkg/storage/names/generate.go): the ReplicaSet and the
/// Deployment.
fn replica_set_of_pod_name(name: &str) -> Option<(&str, &str)> {
    let (rs, suffix) = name.rsplit_once('-')?;
    let (deployment, hash) = rs.rsplit_once('-')?;
    let random = suffix.len() == 5
        && suffix
            .bytes()
            .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b));
    (random && is_template_hash(hash) && !deployment.is_empty()).then_some((rs, deployment))
}

/// What a form that prints pods without their owners is called in notes: a row of
/// `kubectl get pods` or of `kubectl describe node`'s Non-terminated Pods table.
fn shows_no_owners(form: Form) -> Option<&'static str> {
    match form {
        Form::PodTable => Some("kubectl get pods prints no owners"),
        Form::DescribeNode => Some("kubectl describe node prints no owners"),
        _ => None,
    }
}

/// A pasted ReplicaSet of a pasted Deployment: namespace, Deployment, name, replicas.
type DeploymentReplicaSet = (String, String, String, i32);

/// Pasted workloads (or only Deployments), by (kind, namespace, name); the one map type
/// of this module (each other one costs the npm what-if module bytes).
type Workloads = BTreeMap<(ControllerKind, String, String), usize>;

fn percent_or_int(v: &IntOrString) -> IntOrPercent {
    match v {
        IntOrString::Int(i) => IntOrPercent::Int(i32::try_from(*i).unwrap_or(i32::MAX)),
        IntOrString::String(s) => IntOrPercent::Percent(s.clone()),
    }
}

impl Scenario {
    /// The starting cluster of a what-if simulation (see the module documentation).
    pub fn what_if_cluster(&self) -> WhatIfCluster {
        let mut out = WhatIfCluster::default();
        out.cluster.nodes = self
            .nodes
            .iter()
            .map(|n| ClusterNode {
                node: n.node.clone(),
                allocatable: n.allocatable.clone(),
            })
            .collect();
        // Pasted Deployments: the index of their entry.
        let mut deployments = Workloads::new();
        for (i, e) in self.pods.iter().enumerate() {
            if let Some(w) = &e.workload
                && e.kind == "Deployment"
                && e.rejection.is_none()
            {
                deployments.insert(
                    (
                        ControllerKind::Deployment,
                        namespace(&w.namespace),
                        w.name.clone(),
                    ),
                    i,
                );
            }
        }
        // Their pasted ReplicaSets.
        let mut replica_sets: Vec<DeploymentReplicaSet> = Vec::new();
        // Pasted workloads, by (kind, namespace, name).
        let mut workloads = Workloads::new();
        for e in &self.pods {
            let Some(kind) = ControllerKind::parse(&e.kind) else {
                continue;
            };
            let Some(w) = &e.workload else { continue };
            // A ReplicaSet of a pasted Deployment: `<deployment>-<h>` with the template
            // label `pod-template-hash: h` (pkg/controller/deployment/sync.go
            // `getNewReplicaSet`), or its owner reference naming the Deployment. The
            // Deployment stands for it.
            if kind == ControllerKind::ReplicaSet
                && e.rejection.is_none()
                && let Some((dep, hash)) = w.name.rsplit_once('-')
                && deployments.contains_key(&(
                    ControllerKind::Deployment,
                    namespace(&w.namespace),
                    dep.to_string(),
                ))
                && (w
                    .lifecycle
                    .labels
                    .get(POD_TEMPLATE_HASH)
                    .map(String::as_str)
                    == Some(hash)
                    || w.lifecycle
                        .owner
                        .as_ref()
                        .is_some_and(|o| o.kind == "Deployment" && o.name == dep))
            {
                replica_sets.push((
                    namespace(&w.namespace),
                    dep.to_string(),
                    w.name.clone(),
                    w.lifecycle.replicas.unwrap_or(1),
                ));
                continue;
            }
            if e.rejection.is_some() {
                out.notes.push(WhatIfNote {
                    source: Some(e.source.clone()),
                    message: format!(
                        "{} {} is left out: admission rejects it, so it is never created",
                        e.kind, w.name
                    ),
                });
                continue;
            }
            let lc = &w.lifecycle;
            let mut spec = scheduling_pod(e);
            spec.pod.node_name.clear();
            let ns = namespace(&w.namespace);
            workloads.insert(
                (kind, ns.clone(), w.name.clone()),
                out.cluster.workloads.len(),
            );
            out.cluster.workloads.push(Workload {
                kind,
                namespace: ns,
                name: w.name.clone(),
                replicas: lc.replicas.unwrap_or(1),
                template: PodTemplate {
                    spec,
                    labels: lc.labels.clone(),
                    termination_grace_period_seconds: lc.termination_grace_period_seconds,
                    empty_dir: lc.empty_dir,
                    host_network: w.host_network,
                },
                pod_replacement_policy: match lc.pod_replacement_policy.as_deref() {
                    Some("Failed") => Some(PodReplacementPolicy::Failed),
                    Some("TerminatingOrFailed") => Some(PodReplacementPolicy::TerminatingOrFailed),
                    _ => None,
                },
                replica_set: None,
            });
        }
        // Pods of a `kubectl get pods` or `describe node` table taken to be unmanaged,
        // for one note.
        let mut unknown_owner: Vec<String> = Vec::new();
        // Pods those tables show without their labels: (namespace, name).
        let mut unlabelled: Vec<(String, String)> = Vec::new();
        // Owners that were not pasted, made up from their pods: (kind, ns, name) -> pods.
        let mut made_up: BTreeMap<(ControllerKind, String, String), Vec<usize>> = BTreeMap::new();
        for e in &self.pods {
            if e.kind != "Pod" {
                continue;
            }
            let phase = e
                .workload
                .as_ref()
                .map(|w| w.placement.phase.as_str())
                .unwrap_or("");
            if matches!(phase, "Succeeded" | "Failed") {
                continue;
            }
            let lc = e
                .workload
                .as_ref()
                .map(|w| w.lifecycle.clone())
                .unwrap_or_default();
            let ns = namespace(&e.pod.namespace);
            let owner = lc.owner.as_ref().and_then(|o| {
                let Some(kind) = ControllerKind::parse(&o.kind) else {
                    if !lc.mirror {
                        out.notes.push(WhatIfNote {
                            source: Some(e.source.clone()),
                            message: format!(
                                "pod {} is owned by {} {}, a controller Taintlab does not model: it is treated as unmanaged (kubectl drain needs --force, nothing recreates it)",
                                e.pod.name, o.kind, o.name
                            ),
                        });
                    }
                    return None;
                };
                Some(Owner {
                    kind,
                    name: o.name.clone(),
                })
            });
            // A pod without an owner reference that shows its Deployment's ReplicaSet.
            let owner = match owner {
                Some(o) => Some(o),
                None if lc.owner.is_none() && !lc.mirror => {
                    let adopted = self.adopting_replica_set(e, &ns, &deployments);
                    if let Some((rs, why)) = &adopted {
                        out.notes.push(WhatIfNote {
                            source: Some(e.source.clone()),
                            message: format!(
                                "pod {} is taken to be owned by ReplicaSet {rs}: {why}",
                                e.pod.name
                            ),
                        });
                    } else if e
                        .workload
                        .as_ref()
                        .is_some_and(|w| shows_no_owners(w.form).is_some())
                    {
                        unknown_owner.push(format!("{ns}/{}", e.pod.name));
                    }
                    adopted.map(|(name, _)| Owner {
                        kind: ControllerKind::ReplicaSet,
                        name,
                    })
                }
                None => None,
            };
            // A Deployment's pods are owned by its ReplicaSet `<name>-<hash>`; they keep
            // that owner, and the first such ReplicaSet names the Deployment's pods unless
            // a pasted ReplicaSet of it does.
            let mut of_deployment = false;
            if let Some(o) = &owner
                && o.kind == ControllerKind::ReplicaSet
                && !workloads.contains_key(&(o.kind, ns.clone(), o.name.clone()))
                && let Some((dep, _)) = o.name.rsplit_once('-')
                && let Some(&i) =
                    workloads.get(&(ControllerKind::Deployment, ns.clone(), dep.to_string()))
                && let Some(d) = out.cluster.workloads.get_mut(i)
            {
                of_deployment = true;
                d.replica_set.get_or_insert_with(|| o.name.clone());
            }
            if let Some(o) = &owner
                && !of_deployment
            {
                let key = (o.kind, ns.clone(), o.name.clone());
                if !workloads.contains_key(&key) {
                    made_up.entry(key).or_default().push(out.cluster.pods.len());
                }
            }
            if lc.labels.is_empty()
                && e.workload
                    .as_ref()
                    .is_some_and(|w| shows_no_owners(w.form).is_some())
            {
                unlabelled.push((ns.clone(), e.pod.name.clone()));
            }
            out.cluster.pods.push(ClusterPod {
                pod: scheduling_pod(e),
                labels: lc.labels.clone(),
                owner,
                termination_grace_period_seconds: lc.termination_grace_period_seconds,
                empty_dir: lc.empty_dir,
                mirror: lc.mirror,
            });
        }
        if !unknown_owner.is_empty() {
            out.notes.push(WhatIfNote {
                source: None,
                message: format!(
                    "kubectl get pods and kubectl describe node print no owners: {} pod(s) they show are taken to be unmanaged (kubectl drain needs --force for them, nothing recreates them): {}; paste kubectl get pods -o yaml to read their owners",
                    unknown_owner.len(),
                    unknown_owner.join(", ")
                ),
            });
        }
        for ((kind, ns, name), pods) in made_up {
            if kind == ControllerKind::DaemonSet {
                out.cluster
                    .daemon_sets_without_spec
                    .push((ns.clone(), name.clone()));
                out.notes.push(WhatIfNote {
                    source: None,
                    message: format!(
                        "DaemonSet {ns}/{name} was not pasted: its {} pod(s) count as DaemonSet-managed, but nothing recreates them",
                        pods.len()
                    ),
                });
                continue;
            }
            let first = &out.cluster.pods[pods[0]];
            let mut spec = first.pod.clone();
            spec.pod.node_name.clear();
            out.notes.push(WhatIfNote {
                source: None,
                message: format!(
                    "{} {ns}/{name} was not pasted: it is taken to keep its {} pasted pod(s), with the spec of {} as its template",
                    kind.as_str(),
                    pods.len(),
                    first.pod.pod.name
                ),
            });
            out.cluster.workloads.push(Workload {
                kind,
                namespace: ns,
                name,
                replicas: i32::try_from(pods.len()).unwrap_or(i32::MAX),
                template: PodTemplate {
                    spec,
                    labels: first.labels.clone(),
                    termination_grace_period_seconds: first.termination_grace_period_seconds,
                    empty_dir: first.empty_dir,
                    host_network: false,
                },
                pod_replacement_policy: None,
                replica_set: None,
            });
        }
        for w in &mut out.cluster.workloads {
            if w.kind != ControllerKind::Deployment {
                continue;
            }
            // The current ReplicaSet is the one keeping the most replicas (the first
            // pasted of equals): a finished rollout scales the others to 0. Upstream finds
            // it by comparing templates (pkg/controller/deployment/util/deployment_util.go
            // `FindNewReplicaSet`), which is not done here. Else the first its pods name.
            if let Some((_, _, name, _)) = replica_sets
                .iter()
                .rev()
                .filter(|(ns, dep, _, _)| *ns == w.namespace && *dep == w.name)
                .max_by_key(|r| r.3)
            {
                w.replica_set = Some(name.clone());
            }
        }
        for (pdb, source) in &self.disruption_budgets {
            let Some(selector) = &pdb.selector else {
                out.notes.push(WhatIfNote {
                    source: Some(source.clone()),
                    message: format!(
                        "PodDisruptionBudget {} has no selector: it selects no pod and is left out",
                        pdb.name
                    ),
                });
                continue;
            };
            let ns = namespace(&pdb.namespace);
            let unknown: Vec<String> = unlabelled
                .iter()
                .filter(|(pns, _)| *pns == ns)
                .map(|(pns, name)| format!("{pns}/{name}"))
                .collect();
            if !unknown.is_empty() {
                out.notes.push(WhatIfNote {
                    source: Some(source.clone()),
                    message: format!(
                        "PodDisruptionBudget {ns}/{}: the labels of {} pod(s) in {ns} are unknown (kubectl get pods and kubectl describe node print none), so it selects none of them here; in the cluster it may select them and make kubectl drain wait: {}; paste kubectl get pods -o yaml to read their labels",
                        pdb.name,
                        unknown.len(),
                        unknown.join(", ")
                    ),
                });
            }
            out.cluster.disruption_budgets.push(DisruptionBudget {
                namespace: ns,
                name: pdb.name.clone(),
                selector: selector.clone(),
                min_available: pdb.min_available.as_ref().map(percent_or_int),
                max_unavailable: pdb.max_unavailable.as_ref().map(percent_or_int),
            });
        }
        out
    }

    /// The ReplicaSet of a pasted Deployment that a pod without an owner reference shows,
    /// with the reason: its `pod-template-hash` label and the Deployment's template labels
    /// (the ReplicaSet controller adopts a matching orphan,
    /// pkg/controller/replicaset/replica_set.go `claimPods`), or, for a row of `kubectl
    /// get pods` or a `kubectl describe pod` without a `Controlled By:` line, a name
    /// `<deployment>-<hash>-<5 characters>`.
    fn adopting_replica_set(
        &self,
        e: &PodEntry,
        ns: &str,
        deployments: &Workloads,
    ) -> Option<(String, String)> {
        let w = e.workload.as_ref()?;
        if let Some(hash) = w.lifecycle.labels.get(POD_TEMPLATE_HASH) {
            let dep = deployments.iter().find(|((_, dns, _), i)| {
                let labels = self
                    .pods
                    .get(**i)
                    .and_then(|d| d.workload.as_ref())
                    .map(|d| &d.lifecycle.labels);
                dns == ns
                    && labels.is_some_and(|l| {
                        !l.is_empty() && l.iter().all(|(k, v)| w.lifecycle.labels.get(k) == Some(v))
                    })
            });
            if let Some(((_, _, dep), _)) = dep {
                return Some((
                    format!("{dep}-{hash}"),
                    format!(
                        "it has no owner reference, and its labels are Deployment {dep}'s template's with {POD_TEMPLATE_HASH}: {hash}, so that ReplicaSet adopts it"
                    ),
                ));
            }
        }
        let output = match shows_no_owners(w.form) {
            Some(output) => output,
            None if w.form == Form::DescribePod => {
                "kubectl describe pod shows no Controlled By line"
            }
            None => return None,
        };
        let (rs, dep) = replica_set_of_pod_name(&e.pod.name)?;
        if deployments.contains_key(&(ControllerKind::Deployment, ns.to_string(), dep.to_string()))
        {
            return Some((
                rs.to_string(),
                format!(
                    "{output}, and its name has the form of Deployment {dep}'s pods, <deployment>-<pod-template-hash>-<5 characters>"
                ),
            ));
        }
        // A pods table shows no owner at all: a name of that form is taken at its word.
        // Describe output without a Controlled By line says the pod has none.
        shows_no_owners(w.form).is_some().then(|| {
            (
                rs.to_string(),
                format!(
                    "{output}, and its name has the form of a Deployment's pods, <deployment>-<pod-template-hash>-<5 characters> (Deployment {dep} was not pasted)"
                ),
            )
        })
    }

    /// Runs the what-if simulation of `actions` on [`Scenario::what_if_cluster`] from
    /// second 0 to `until`, with the scenario's release and the release's control-plane
    /// defaults.
    pub fn what_if(&self, actions: &[Action], until: i64) -> Result<Timeline, InputError> {
        self.what_if_with(
            actions,
            until,
            simulation::Options::defaults(self.semantics),
        )
    }

    /// As [`Scenario::what_if`], with the control plane's `options` (see
    /// [`simulation_options`] for the ones a scenario's [`crate::Options`] imply).
    pub fn what_if_with(
        &self,
        actions: &[Action],
        until: i64,
        options: simulation::Options,
    ) -> Result<Timeline, InputError> {
        let start = self.what_if_cluster();
        let mut w = WhatIf::new(start.cluster, self.semantics, actions.to_vec(), until);
        w.options = options;
        simulation::simulate(&w)
    }
}

/// The control plane's options for a what-if on a scenario read with `options`: the
/// release's node-monitor timing, and DefaultTolerationSeconds as the admission
/// configuration sets it for the pods the controllers create. With admission on, its
/// seconds, or none when the configuration turns the plugin off (kube-apiserver
/// `--disable-admission-plugins=DefaultTolerationSeconds`); with admission not run here
/// (pods read back from a cluster), upstream's 300 s, since that cluster's API server
/// runs the plugin on every pod it creates
/// (plugin/pkg/admission/defaulttolerationseconds/admission.go `Admit`).
pub fn simulation_options(options: &crate::Options) -> simulation::Options {
    let mut out = simulation::Options::defaults(options.semantics);
    if let Some(a) = &options.admission {
        out.default_toleration_seconds = a.default_toleration_seconds.as_ref().map(|c| {
            taintlab_core::node_lifecycle::DefaultTolerationSeconds {
                not_ready: c.not_ready_seconds,
                unreachable: c.unreachable_seconds,
            }
        });
    }
    out
}

/// The words of an action line, for help texts and error messages.
pub const ACTION_FORMS: [&str; 9] = [
    "taint NODE KEY[=VALUE]:EFFECT",
    "untaint NODE KEY[:EFFECT]",
    "cordon NODE",
    "uncordon NODE",
    "drain NODE [--ignore-daemonsets] [--delete-emptydir-data] [--force] [--disable-eviction] [--grace-period=N] [--timeout=N]",
    "fail NODE",
    "recover NODE",
    "delete NODE",
    "scale KIND/NAME REPLICAS [-n NAMESPACE]",
];

/// Reads one action line: `[at SECONDS] VERB ARGS...`, e.g. `at 60 taint node-1
/// dedicated=gpu:NoExecute`, `drain node-2 --ignore-daemonsets`, `at 0 fail node-3`,
/// `scale deployment/web 5 -n shop` (see [`ACTION_FORMS`]). Taint specs are read as
/// `kubectl taint` reads them, with `version`'s messages. The error names the word that
/// is wrong.
pub fn parse_action(line: &str, version: KubeVersion) -> Result<Action, String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    let mut at = 0;
    if words.first() == Some(&"at") {
        let Some(t) = words.get(1) else {
            return Err("\"at\" needs a number of seconds".into());
        };
        at = t
            .trim_end_matches('s')
            .parse::<i64>()
            .ok()
            .filter(|t| *t >= 0)
            .ok_or_else(|| format!("\"{t}\" is not a number of seconds (0 or more)"))?;
        words.drain(..2);
    }
    let Some((&verb, args)) = words.split_first() else {
        return Err(format!("no action; one of: {}", ACTION_FORMS.join("; ")));
    };
    let node = |what: &str| -> Result<String, String> {
        match args.first() {
            Some(n) if !n.starts_with('-') => Ok(n.trim_start_matches("node/").to_string()),
            _ => Err(format!("\"{verb}\" needs {what}")),
        }
    };
    let only = |n: usize, form: &str| -> Result<(), String> {
        if args.len() > n {
            Err(format!("unexpected \"{}\"; the form is: {form}", args[n]))
        } else {
            Ok(())
        }
    };
    let kind = match verb {
        "taint" => {
            only(2, ACTION_FORMS[0])?;
            let node = node("a node name")?;
            let spec = args.get(1).ok_or_else(|| {
                format!("\"taint\" needs a taint; the form is: {}", ACTION_FORMS[0])
            })?;
            let taint = parse_taint(spec, version)?;
            if taint.effect.is_empty() {
                return Err(format!(
                    "invalid taint spec: {spec} (the effect is missing)"
                ));
            }
            ActionKind::AddTaint { node, taint }
        }
        "untaint" => {
            only(2, ACTION_FORMS[1])?;
            let node = node("a node name")?;
            let spec = args.get(1).ok_or_else(|| {
                format!(
                    "\"untaint\" needs a taint key; the form is: {}",
                    ACTION_FORMS[1]
                )
            })?;
            let taint = parse_taint(spec.trim_end_matches('-'), version)?;
            ActionKind::RemoveTaint {
                node,
                key: taint.key,
                effect: taint.effect,
            }
        }
        "cordon" | "uncordon" | "fail" | "recover" | "delete" => {
            let form = match verb {
                "cordon" => ACTION_FORMS[2],
                "uncordon" => ACTION_FORMS[3],
                "fail" => ACTION_FORMS[5],
                "recover" => ACTION_FORMS[6],
                _ => ACTION_FORMS[7],
            };
            only(1, form)?;
            let node = node("a node name")?;
            match verb {
                "cordon" => ActionKind::Cordon { node },
                "uncordon" => ActionKind::Uncordon { node },
                "fail" => ActionKind::NodeStopsReporting { node },
                "recover" => ActionKind::NodeReturns { node },
                _ => ActionKind::DeleteNode { node },
            }
        }
        "drain" => {
            let node = node("a node name")?;
            let mut options = DrainOptions::default();
            for flag in &args[1..] {
                let (name, value) = match flag.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (*flag, None),
                };
                let seconds = |v: Option<&str>| -> Result<i64, String> {
                    v.and_then(|v| v.trim_end_matches('s').parse::<i64>().ok())
                        .ok_or_else(|| format!("{name} needs a number of seconds, as {name}=30"))
                };
                match name {
                    "--ignore-daemonsets" => options.ignore_daemonsets = true,
                    "--delete-emptydir-data" | "--delete-local-data" => {
                        options.delete_emptydir_data = true
                    }
                    "--force" => options.force = true,
                    "--disable-eviction" => options.disable_eviction = true,
                    "--grace-period" => {
                        let s = seconds(value)?;
                        options.grace_period = (s >= 0).then_some(s);
                    }
                    "--timeout" => {
                        let s = seconds(value)?;
                        options.timeout = (s > 0).then_some(s);
                    }
                    _ => {
                        return Err(format!(
                            "unknown drain flag \"{flag}\"; the form is: {}",
                            ACTION_FORMS[4]
                        ));
                    }
                }
            }
            ActionKind::Drain { node, options }
        }
        "scale" => {
            let mut rest: Vec<&str> = args.to_vec();
            let mut ns = "default".to_string();
            if let Some(i) = rest.iter().position(|w| *w == "-n" || *w == "--namespace") {
                let v = rest
                    .get(i + 1)
                    .ok_or_else(|| format!("{} needs a namespace", rest[i]))?;
                ns = v.to_string();
                rest.drain(i..i + 2);
            }
            let [target, count] = rest.as_slice() else {
                return Err(format!("the form is: {}", ACTION_FORMS[8]));
            };
            let count = count.trim_start_matches("--replicas=");
            let (k, name) = target
                .split_once('/')
                .ok_or_else(|| format!("\"{target}\" is not KIND/NAME, as deployment/web"))?;
            let kind = ControllerKind::scale_target(k).ok_or_else(|| {
                format!(
                    "\"{k}\" cannot be scaled here: {}",
                    ControllerKind::SCALE_TARGETS
                )
            })?;
            let replicas = count
                .parse::<i32>()
                .ok()
                .filter(|r| *r >= 0)
                .ok_or_else(|| format!("\"{count}\" is not a replica count (0 or more)"))?;
            ActionKind::Scale {
                kind,
                namespace: ns,
                name: name.to_string(),
                replicas,
            }
        }
        _ => {
            return Err(format!(
                "unknown action \"{verb}\"; one of: {}",
                ACTION_FORMS.join("; ")
            ));
        }
    };
    Ok(Action::new(at, kind))
}

/// Writes an action as a line [`parse_action`] reads back (share links, `--help`
/// examples). `None` for actions that carry whole objects (a node, pod or workload
/// created), which have no line form.
pub fn format_action(action: &Action) -> Option<String> {
    let body = match &action.kind {
        ActionKind::AddTaint { node, taint } => {
            let kv = if taint.value.is_empty() {
                taint.key.clone()
            } else {
                format!("{}={}", taint.key, taint.value)
            };
            format!("taint {node} {kv}:{}", taint.effect.as_str())
        }
        ActionKind::RemoveTaint { node, key, effect } => match effect {
            TaintEffect::Empty => format!("untaint {node} {key}"),
            e => format!("untaint {node} {key}:{}", e.as_str()),
        },
        ActionKind::Cordon { node } => format!("cordon {node}"),
        ActionKind::Uncordon { node } => format!("uncordon {node}"),
        ActionKind::NodeStopsReporting { node } => format!("fail {node}"),
        ActionKind::NodeReturns { node } => format!("recover {node}"),
        ActionKind::DeleteNode { node } => format!("delete {node}"),
        ActionKind::Drain { node, options } => {
            let mut s = format!("drain {node}");
            for (on, flag) in [
                (options.ignore_daemonsets, "--ignore-daemonsets"),
                (options.delete_emptydir_data, "--delete-emptydir-data"),
                (options.force, "--force"),
                (options.disable_eviction, "--disable-eviction"),
            ] {
                if on {
                    s.push(' ');
                    s.push_str(flag);
                }
            }
            if let Some(g) = options.grace_period {
                s.push_str(&format!(" --grace-period={g}"));
            }
            if let Some(t) = options.timeout {
                s.push_str(&format!(" --timeout={t}"));
            }
            s
        }
        ActionKind::Scale {
            kind,
            namespace,
            name,
            replicas,
        } => {
            let mut s = format!(
                "scale {}/{name} {replicas}",
                kind.as_str().to_ascii_lowercase()
            );
            if namespace != "default" {
                s.push_str(&format!(" -n {namespace}"));
            }
            s
        }
        ActionKind::AddNode { .. }
        | ActionKind::CreatePod { .. }
        | ActionKind::CreateWorkload { .. } => {
            return None;
        }
    };
    Some(format!("at {} {body}", action.at))
}

/// Reads action lines (one per line; blank lines and `#` comments skipped). Errors name
/// the line (1-based).
pub fn parse_actions(text: &str, version: KubeVersion) -> Result<Vec<Action>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_action(line, version).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

#[cfg(test)]
#[path = "what_if_tests.rs"]
mod tests;
