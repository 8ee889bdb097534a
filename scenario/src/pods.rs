//! The pods: every pod and workload, one anonymous pod per bare toleration list, each
//! validated as the API server validates it, given the DaemonSet controller's
//! tolerations when it is a DaemonSet pod, and admitted by the admission plugins.

use taintlab_core::admission::pod_toleration_restriction::{
    NamespaceTolerations, PodTolerationRestrictionConfig,
};
use taintlab_core::admission::{
    DropReason, Operation, PodAdmissionPlugins, PodAdmissionRequest, TolerationOrigin, admit_pod,
};
use taintlab_core::daemonset::add_or_update_daemon_pod_tolerations;
use taintlab_core::validation::{FieldError, api_status_message, validate_tolerations};
use taintlab_core::{Pod, PreemptionPolicy, QosClass, Semantics, Toleration, WorkloadKind};
use taintlab_input::{Form, Location, PriorityClass, Workload};

use crate::options::{AdmissionOptions, Options};
use crate::pane::ParsedPane;
use crate::{Source, by_position};

/// Where a toleration of a pod came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Written in the paste.
    Pod,
    /// Added by the DaemonSet controller.
    DaemonSet,
    /// Added by an admission plugin.
    Admission(TolerationOrigin),
}

impl Origin {
    /// A stable kebab-case name: `pod`, `daemonset`, `default-toleration-seconds`,
    /// `namespace-default`, `cluster-default`, `memory-pressure`, `extended-resource`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pod | Self::Admission(TolerationOrigin::Pod) => "pod",
            Self::DaemonSet => "daemonset",
            Self::Admission(TolerationOrigin::DefaultTolerationSeconds) => {
                "default-toleration-seconds"
            }
            Self::Admission(TolerationOrigin::NamespaceDefault) => "namespace-default",
            Self::Admission(TolerationOrigin::ClusterDefault) => "cluster-default",
            Self::Admission(TolerationOrigin::MemoryPressure) => "memory-pressure",
            Self::Admission(TolerationOrigin::ExtendedResource { .. }) => "extended-resource",
        }
    }
}

/// A toleration of a pod's final list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TolerationEntry {
    /// The toleration.
    pub toleration: Toleration,
    /// Where it came from.
    pub origin: Origin,
    /// Where it is in the paste, for written ones.
    pub location: Option<Location>,
}

/// A toleration that admission dropped or overwrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedEntry {
    /// The toleration.
    pub toleration: Toleration,
    /// Where it had come from.
    pub origin: Origin,
    /// Why it is gone.
    pub reason: DropReason,
}

/// How a pod came to be in the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PodOrigin {
    /// A pod or workload object (or `kubectl describe pod` output).
    Object,
    /// A bare toleration list: an anonymous pod named `pod-<n>` in `default`.
    TolerationList,
}

/// A pod of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodEntry {
    /// The pod with its final tolerations (after the DaemonSet controller and admission;
    /// when admission rejects it, after the DaemonSet controller).
    pub pod: Pod,
    /// `kind` of the object (`Pod`, `Deployment`, ...; `Pod` for a bare list).
    pub kind: String,
    /// `apiVersion` of the object (`v1` for a bare list).
    pub api_version: String,
    /// The kind in the workload-kind table, when it is one.
    pub workload_kind: Option<WorkloadKind>,
    /// How it came to be.
    pub origin: PodOrigin,
    /// Where it was pasted.
    pub source: Source,
    /// The object as read (`None` for a bare list).
    pub workload: Option<Workload>,
    /// The tolerations as written.
    pub submitted: Vec<Toleration>,
    /// Where each written toleration is.
    pub submitted_locations: Vec<Location>,
    /// Treated as a DaemonSet pod.
    pub daemon: bool,
    /// The final tolerations with their origin.
    pub tolerations: Vec<TolerationEntry>,
    /// Tolerations admission dropped or overwrote.
    pub dropped: Vec<DroppedEntry>,
    /// Admission's rejection (the pod would not be created); its text is upstream's.
    pub rejection: Option<String>,
    /// API validation of the written tolerations, at upstream's field paths
    /// (`template.spec.tolerations[0].operator` for a PodTemplate).
    pub validation: Vec<FieldError>,
    /// The API server's status message for those errors
    /// (`Deployment.apps "web" is invalid: ...`).
    pub status_message: Option<String>,
    /// `spec.priority` as the Priority admission plugin resolves it (see
    /// [`resolve_priority`]); the scheduler and preemption use it. `pod.preemption_policy`
    /// is resolved with it.
    pub priority: i32,
    /// The PriorityClass the priority came from (the written `priorityClassName`, or the
    /// pasted `globalDefault` class admission sets); empty without one.
    pub priority_class_name: String,
    /// A warning about the priority: the class is not in the paste, or the written
    /// priority may be rejected by a cluster whose classes are not pasted.
    pub priority_note: Option<String>,
}

impl PodEntry {
    /// `namespace/name`, or `name` in the default namespace.
    pub fn label(&self) -> String {
        if self.pod.namespace.is_empty() || self.pod.namespace == "default" {
            self.pod.name.clone()
        } else {
            format!("{}/{}", self.pod.namespace, self.pod.name)
        }
    }

    /// False when admission rejected the pod.
    pub fn admitted(&self) -> bool {
        self.rejection.is_none()
    }

    /// The dotted path of the pod's tolerations in its object, as API errors give it.
    pub fn tolerations_path(&self) -> &'static str {
        tolerations_path(self.workload_kind)
    }

    /// The kind qualified by its group, as API errors name it (`Deployment.apps`).
    pub fn qualified_kind(&self) -> String {
        qualified_kind(self.workload_kind, &self.kind, &self.api_version)
    }
}

fn tolerations_path(kind: Option<WorkloadKind>) -> &'static str {
    kind.unwrap_or(WorkloadKind::Pod).tolerations_path()
}

fn qualified_kind(kind: Option<WorkloadKind>, name: &str, api_version: &str) -> String {
    if let Some(k) = kind {
        return k.qualified_name().to_string();
    }
    match api_version.rsplit_once('/') {
        Some((group, _)) if !group.is_empty() => format!("{name}.{group}"),
        _ => name.to_string(),
    }
}

/// The admission plugins, configured; problems of the configuration are returned.
pub(crate) struct Plugins {
    plugins: PodAdmissionPlugins,
    namespace: NamespaceTolerations,
    options: AdmissionOptions,
}

pub(crate) fn plugins(a: &AdmissionOptions, errors: &mut Vec<String>) -> Plugins {
    let pod_toleration_restriction = a.pod_toleration_restriction.as_ref().map(|r| {
        let mut read = |what: &str, t: &crate::TolerationsInput| {
            t.read().unwrap_or_else(|e| {
                errors.push(format!("PodTolerationRestriction {what}: {e}"));
                Vec::new()
            })
        };
        PodTolerationRestrictionConfig {
            default: read("default", &r.default),
            whitelist: read("whitelist", &r.whitelist),
        }
    });
    Plugins {
        plugins: PodAdmissionPlugins {
            default_toleration_seconds: a.default_toleration_seconds,
            pod_toleration_restriction,
            extended_resource_toleration: a.extended_resource_toleration,
        },
        namespace: NamespaceTolerations {
            default_tolerations: a.namespace_default.clone(),
            tolerations_whitelist: a.namespace_whitelist.clone(),
        },
        options: a.clone(),
    }
}

/// The built-in classes the API server creates (`SystemPriorityClasses`,
/// `pkg/apis/scheduling/types.go`): `SystemCriticalPriority` (2,000,000,000) for
/// `system-cluster-critical`, 1,000 more for `system-node-critical`.
pub const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-cluster-critical", 2_000_000_000),
    ("system-node-critical", 2_000_001_000),
];

/// What the Priority admission plugin makes of a pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriorityResolution {
    /// `spec.priority`.
    pub priority: i32,
    /// `spec.preemptionPolicy`.
    pub preemption_policy: PreemptionPolicy,
    /// `spec.priorityClassName` after admission (the default class's name when the pod
    /// names none and a `globalDefault` class is pasted).
    pub class_name: String,
    /// The plugin's rejection on CREATE, in upstream's words.
    pub rejection: Option<String>,
    /// What the answer cannot know: the class is not pasted.
    pub note: Option<String>,
    /// What a create may meet: a written priority or policy without a class when no
    /// `globalDefault` class is pasted.
    pub create_note: Option<String>,
}

/// Resolves a pod's priority as the Priority admission plugin does on CREATE
/// (`admitPod`, `establishPriority` and `getDefaultPriorityClass` in
/// `plugin/pkg/admission/priority/admission.go`), with `classes` the pasted
/// PriorityClasses:
///
/// * a `priorityClassName` resolves to the class's value and preemption policy (the
///   built-in `system-cluster-critical` and `system-node-critical` are always there);
/// * no `priorityClassName`: the `globalDefault` class (the lowest value when several
///   are), whose name the pod then gets; without one, priority 0 and
///   `PreemptLowerPriority`;
/// * a written `spec.priority` that differs from the computed one, or a written
///   `spec.preemptionPolicy` that differs from the class's, is rejected (Forbidden).
///
/// A pod that already exists (bound to a node by `spec.nodeName`, or read back from the
/// API server: `status.qosClass` set, `kubectl describe pod` output, a pods table) and
/// states `spec.priority` was admitted when it was created: its written priority and
/// policy stand.
///
/// A class that is not pasted may exist in the cluster, so it is not rejected: the
/// written `spec.priority` is kept when there is one (a pod read back from the API server
/// has it), 0 otherwise, with a note saying so. Likewise without a pasted default class
/// a written priority other than 0 (or `preemptionPolicy: Never`) only gets a note.
pub fn resolve_priority(w: Option<&Workload>, classes: &[PriorityClass]) -> PriorityResolution {
    // The placement's priority stands for `spec.priority` when the object's is unset
    // (callers that build placements directly).
    let written = w.and_then(|w| {
        w.priority
            .or_else(|| (w.placement.priority != 0).then_some(w.placement.priority))
    });
    // A pod built without the input layer (the npm API's plain pods) carries its
    // policy on `pod` only; `Never` there can only have been written.
    let written_policy = w.and_then(|w| {
        w.preemption_policy_written
            .as_deref()
            .or((w.pod.preemption_policy == PreemptionPolicy::Never).then_some("Never"))
    });
    let name = w.map_or("", |w| w.priority_class_name.as_str());
    let label = w.map_or_else(String::new, |w| format!("{} {}: ", w.kind, w.name));
    let mut out = PriorityResolution {
        priority: written.unwrap_or(0),
        preemption_policy: written_policy.map_or(
            PreemptionPolicy::PreemptLowerPriority,
            PreemptionPolicy::parse,
        ),
        class_name: name.to_string(),
        rejection: None,
        note: None,
        create_note: None,
    };
    let computed: Option<(i32, PreemptionPolicy)> = if name.is_empty() {
        match classes
            .iter()
            .filter(|c| c.global_default)
            .min_by_key(|c| c.value)
        {
            Some(d) => {
                out.class_name = d.name.clone();
                Some((d.value, d.effective_preemption_policy()))
            }
            None => {
                let mut odd = Vec::new();
                if let Some(p) = written.filter(|&p| p != 0) {
                    odd.push(format!(
                        "the integer value of priority ({p}) must not be provided in pod spec; \
                         priority admission controller computed 0 from the given PriorityClass name"
                    ));
                }
                if let Some(p) = written_policy.filter(|&p| p != "PreemptLowerPriority") {
                    odd.push(format!(
                        "the string value of PreemptionPolicy ({p}) must not be provided in pod \
                         spec; priority admission controller computed PreemptLowerPriority from \
                         the given PriorityClass name"
                    ));
                }
                if !odd.is_empty() {
                    out.create_note = Some(format!(
                        "{label}no priorityClassName and no globalDefault PriorityClass in the \
                         paste: unless the cluster has a globalDefault class that computes these \
                         values, the Priority admission plugin rejects the pod on create: {}",
                        odd.join("; ")
                    ));
                }
                None
            }
        }
    } else if let Some((_, v)) = SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _)| *n == name) {
        Some((*v, PreemptionPolicy::PreemptLowerPriority))
    } else if let Some(c) = classes.iter().find(|c| c.name == name) {
        Some((c.value, c.effective_preemption_policy()))
    } else {
        if written.is_none() {
            out.note = Some(format!(
                "{label}priorityClassName \"{name}\": the PriorityClass is not in the paste, so \
                 the priority is taken as 0 here; in the cluster the Priority admission plugin \
                 gives the pod the class's value (and rejects it if no such class exists: no \
                 PriorityClass with name {name} was found). Paste the class (kubectl get \
                 priorityclass {name} -o yaml) to use its value"
            ));
        }
        None
    };
    // A pod that exists (bound, or read back from the API server: `status.qosClass`,
    // describe output, a pods table) and states its priority was admitted when it was
    // created (its class may have been set as default since): its spec is what the
    // scheduler sees.
    let existing = w.is_some_and(|w| {
        !w.pod.node_name.is_empty()
            || w.stated_qos_class.is_some()
            || matches!(w.form, Form::DescribePod | Form::PodTable)
    });
    if existing && written.is_some() {
        out.class_name = name.to_string();
        out.create_note = None;
        return out;
    }
    if let Some((value, policy)) = computed {
        if let Some(p) = written.filter(|&p| p != value) {
            out.rejection = Some(format!(
                "the integer value of priority ({p}) must not be provided in pod spec; priority \
                 admission controller computed {value} from the given PriorityClass name"
            ));
        } else if let Some(p) = written_policy.filter(|&p| p != policy.as_str()) {
            out.rejection = Some(format!(
                "the string value of PreemptionPolicy ({p}) must not be provided in pod spec; \
                 priority admission controller computed {} from the given PriorityClass name",
                policy.as_str()
            ));
        }
        out.priority = value;
        out.preemption_policy = policy;
    }
    out
}

/// One pod before the pipeline.
struct Raw<'a> {
    workload: Option<&'a Workload>,
    pod: Pod,
    kind: String,
    api_version: String,
    origin: PodOrigin,
    source: Source,
    locations: Vec<Location>,
}

/// The pods of every pane, in pane order and, within a pane, in paste order.
pub(crate) fn build(
    panes: &[&ParsedPane],
    options: &Options,
    plugins: Option<&Plugins>,
    next_anonymous: &mut usize,
) -> Vec<PodEntry> {
    let mut pods = Vec::new();
    // Nested loops rather than `flat_map(..).collect()` (here and in `Scenario::derive`):
    // the flattening iterator cost the npm engine module code of its own.
    let mut classes: Vec<PriorityClass> = Vec::new();
    for p in panes {
        classes.extend_from_slice(&p.parsed.priority_classes);
    }
    for pane in panes {
        let p = &pane.parsed;
        let mut here: Vec<(Location, Raw<'_>)> = Vec::new();
        for w in &p.workloads {
            let mut pod = w.pod.clone();
            if pod.namespace.is_empty() {
                pod.namespace = "default".into();
            }
            here.push((
                w.location.clone(),
                Raw {
                    workload: Some(w),
                    pod,
                    kind: w.kind.clone(),
                    api_version: w.api_version.clone(),
                    origin: PodOrigin::Object,
                    source: Source::new(pane.kind, w.location.clone()),
                    locations: w.toleration_locations.clone(),
                },
            ));
        }
        for l in &p.toleration_lists {
            here.push((
                l.location.clone(),
                Raw {
                    workload: None,
                    pod: Pod {
                        namespace: "default".into(),
                        tolerations: l.tolerations.clone(),
                        ..Pod::default()
                    },
                    kind: "Pod".into(),
                    api_version: "v1".into(),
                    origin: PodOrigin::TolerationList,
                    source: Source::new(pane.kind, l.location.clone()),
                    locations: l.locations.clone(),
                },
            ));
        }
        by_position(&mut here);
        for (_, mut raw) in here {
            if raw.origin == PodOrigin::TolerationList {
                *next_anonymous += 1;
                raw.pod.name = format!("pod-{next_anonymous}");
            }
            pods.push(entry(raw, options, plugins, &classes));
        }
    }
    pods
}

/// The resource names a pod requests after API defaulting (a limit without a request
/// sets the request, `SetDefaults_Pod`), as ExtendedResourceToleration reads them: a
/// GPU written only under `limits` is requested.
fn requested_resources(w: &Workload) -> Vec<String> {
    let mut names = w.requested_resources();
    for c in w.containers.iter().chain(&w.init_containers) {
        names.extend(c.limits.keys().cloned());
    }
    for c in w
        .placement
        .containers
        .iter()
        .chain(&w.placement.init_containers)
    {
        names.extend(c.resources.requests.keys().cloned());
        names.extend(c.resources.limits.keys().cloned());
    }
    taintlab_core::sort::names_from(names)
}

fn entry(
    raw: Raw<'_>,
    options: &Options,
    plugins: Option<&Plugins>,
    classes: &[PriorityClass],
) -> PodEntry {
    let Raw {
        workload,
        mut pod,
        kind,
        api_version,
        origin,
        source,
        locations,
    } = raw;
    let semantics: Semantics = options.semantics;
    let workload_kind = WorkloadKind::from_api_version_kind(&api_version, &kind)
        .or_else(|| WorkloadKind::from_name(&kind));
    let submitted = pod.tolerations.clone();
    let validation = validate_tolerations(
        &submitted,
        tolerations_path(workload_kind),
        semantics.comparison_operators_enabled(),
        semantics.version,
    );
    let status_message = api_status_message(
        &qualified_kind(workload_kind, &kind, &api_version),
        workload.map_or(&pod.name, |w| &w.name),
        &validation,
    );
    let daemon = options
        .daemon_set
        .unwrap_or(workload_kind.is_some_and(WorkloadKind::is_daemon_set));
    // Written tolerations keep their location; a written one is matched once, in order.
    let mut unclaimed: Vec<Option<(&Toleration, &Location)>> =
        submitted.iter().zip(&locations).map(Some).collect();
    let mut written_location = |t: &Toleration| -> Option<Option<Location>> {
        let slot = unclaimed
            .iter_mut()
            .find(|s| s.is_some_and(|(w, _)| w == t))?;
        let (_, l) = slot.take()?;
        Some(Some(l.clone()))
    };
    let mut list = submitted.clone();
    if daemon {
        add_or_update_daemon_pod_tolerations(&mut list, workload.is_some_and(|w| w.host_network));
    }
    let mut tolerations: Vec<TolerationEntry> = Vec::with_capacity(list.len());
    for t in &list {
        let (origin, location) = match written_location(t) {
            Some(l) => (Origin::Pod, l),
            None if submitted.contains(t) => (Origin::Pod, None),
            None => (Origin::DaemonSet, None),
        };
        tolerations.push(TolerationEntry {
            toleration: t.clone(),
            origin,
            location,
        });
    }
    let mut dropped = Vec::new();
    let mut rejection = None;
    // Priority runs before the toleration plugins (`AllOrderedPlugins`); its rejection
    // is the pod's. Its resolution is kept even without admission: the scheduler needs
    // the priority every created pod has.
    let resolved = resolve_priority(workload, classes);
    pod.preemption_policy = resolved.preemption_policy.clone();
    let create = plugins.is_some_and(|pl| pl.options.operation == Operation::Create);
    let priority_rejection = resolved.rejection.clone().filter(|_| create);
    if let Some(pl) = plugins.filter(|_| priority_rejection.is_none()) {
        let requested: Vec<String> = match &pl.options.requested_resources {
            Some(r) => r.clone(),
            None => workload.map(requested_resources).unwrap_or_default(),
        };
        let qos = pl.options.qos_class.unwrap_or_else(|| {
            workload
                .map(Workload::qos_class)
                .unwrap_or(QosClass::BestEffort)
        });
        let request = PodAdmissionRequest {
            operation: pl.options.operation,
            tolerations: &list,
            qos_class: qos,
            requested_resources: &requested,
            namespace: &pl.namespace,
        };
        let before = tolerations.clone();
        let origin_of = |o: TolerationOrigin, t: &Toleration| -> (Origin, Option<Location>) {
            match o {
                TolerationOrigin::Pod => before
                    .iter()
                    .find(|e| &e.toleration == t)
                    .map_or((Origin::Pod, None), |e| (e.origin, e.location.clone())),
                other => (Origin::Admission(other), None),
            }
        };
        match admit_pod(&pl.plugins, &request) {
            Ok(admitted) => {
                // Loops rather than `map(..).collect()`: the in-place collects cost the
                // npm engine module code of their own.
                tolerations = Vec::with_capacity(admitted.tolerations.len());
                for a in admitted.tolerations {
                    let (origin, location) = origin_of(a.origin, &a.toleration);
                    tolerations.push(TolerationEntry {
                        toleration: a.toleration,
                        origin,
                        location,
                    });
                }
                for d in admitted.dropped {
                    dropped.push(DroppedEntry {
                        origin: origin_of(d.origin, &d.toleration).0,
                        toleration: d.toleration,
                        reason: d.reason,
                    });
                }
            }
            Err(e) => rejection = Some(e.to_string()),
        }
    }
    if priority_rejection.is_some() {
        rejection = priority_rejection;
    }
    let priority_note = resolved
        .note
        .clone()
        .or_else(|| resolved.create_note.clone().filter(|_| create));
    pod.tolerations = Vec::with_capacity(tolerations.len());
    for t in &tolerations {
        pod.tolerations.push(t.toleration.clone());
    }
    PodEntry {
        pod,
        kind,
        api_version,
        workload_kind,
        origin,
        source,
        workload: workload.cloned(),
        submitted,
        submitted_locations: locations,
        daemon,
        tolerations,
        dropped,
        rejection,
        validation,
        status_message,
        priority: resolved.priority,
        priority_class_name: resolved.class_name,
        priority_note,
    }
}
