//! Pod resource requests as the scheduler computes them, per release.
//!
//! Upstream: `component-helpers/resource/helpers.go` (`PodRequests`, 1.32 on; before
//! that the same function in `pkg/api/v1/resource/helpers.go`),
//! `pkg/scheduler/framework/types.go` (`Resource`, `NewResource`, `Add`,
//! `SetMaxResource`, `calculateResource`), `plugins/noderesources/fit.go`
//! (`computePodResourceRequest`), `resource_allocation.go`
//! (`calculatePodResourceRequest`), `pkg/scheduler/util` (`GetNonzeroRequests`,
//! `IsScalarResourceName`), and the API defaulting that copies limits into missing
//! requests (`SetDefaults_Pod`).
//!
//! What differs by release (read at the `cluster-autoscaler-1.25.0` … `1.30.0` tags):
//! * 1.25 – 1.26: `computePodResourceRequest` / `calculateResource` convert each
//!   container's quantities to integers before adding (`Resource.Add`), so rounding is
//!   per container (two containers of `0.5m` cpu request 2m). From 1.27 `PodRequests`
//!   sums quantities first and converts once (1m).
//! * 1.25 – 1.26 scoring adds `spec.overhead` with `Quantity.Value()` for cpu too
//!   (`calculatePodResourceRequest`), i.e. in whole cores, rounded up, added to a
//!   milli-CPU total; from 1.27 overhead goes through `PodRequests` (milli-CPU).
//! * Restartable init containers (sidecars, `restartPolicy: Always`) count from 1.29
//!   (SidecarContainers beta). In 1.28 the gate is alpha and off, so the API server drops
//!   the field and the container counts as a classic init container; 1.25 – 1.27 have
//!   no such field.
//! * Pod-level `spec.resources` (cpu, memory, `hugepages-*`) replace the containers'
//!   aggregate from 1.34 (PodLevelResources beta, on by default); before, the alpha gate
//!   is off and the API server drops the field.
//! * `NodeInfo.NonZeroRequested` of a bound pod: 1.25 – 1.26 per container, 1.27 – 1.30
//!   through `PodRequests`' `ContainerFn` (a sidecar's non-zero values count only in
//!   the init-container maximum, not in the sum), 1.31 on `PodRequests` with the
//!   non-missing defaults, which with pod-level requests set apply only to cpu /
//!   memory missing from the aggregate (`getNonMissingContainerRequests`; read in a
//!   1.3x tree, the 1.31 start is inferred). The incoming pod's scoring request uses the
//!   same rule here.
//!
//! Not modelled: in-place resize (`status.containerStatuses[].resources` /
//! `allocatedResources`): every pod's requests come from its spec.

use alloc::string::String;
use alloc::vec::Vec;

use crate::name_map::NameMap;
use crate::quantity::Quantity;
use crate::version::KubeVersion;

/// `core/v1.ResourceList`: resource name → quantity, in name order (a [`NameMap`], so
/// the modules hold no `BTreeMap<String, Quantity>` code).
pub type ResourceList = NameMap<Quantity>;

/// `pods`
pub const PODS: &str = "pods";
/// `cpu`
pub const CPU: &str = "cpu";
/// `memory`
pub const MEMORY: &str = "memory";
/// `ephemeral-storage`
pub const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
/// `DefaultMilliCPURequest`: 0.1 core, for scoring only.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`: 200 MiB, for scoring only.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// `core/v1.ResourceRequirements` (requests and limits).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct ResourceRequirements {
    /// `requests`
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "ResourceList::is_empty")
    )]
    pub requests: ResourceList,
    /// `limits`
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "ResourceList::is_empty")
    )]
    pub limits: ResourceList,
}

impl ResourceRequirements {
    /// The requests after API defaulting: every quantity rounded up to milli units
    /// (`SetDefaults_ResourceList`), and a resource with a limit and no request
    /// requests its limit (`SetDefaults_Pod`). Idempotent, so objects read back from
    /// the API server are unchanged.
    pub fn defaulted_requests(&self) -> ResourceList {
        let mut r = defaulted(&self.requests);
        for (k, v) in &self.limits {
            r.get_or_insert(k, v.round_up_milli());
        }
        r
    }

    /// True when neither requests nor limits are set.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.limits.is_empty()
    }
}

/// One container's resources (`spec.containers[]` or `spec.initContainers[]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct ContainerResources {
    /// `name`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub name: String,
    /// `resources`
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "ResourceRequirements::is_empty")
    )]
    pub resources: ResourceRequirements,
    /// `restartPolicy`: `Always` on an init container makes it a sidecar.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "String::is_empty"))]
    pub restart_policy: String,
}

impl ContainerResources {
    /// A container requesting `requests` (name, quantity string); unparsable
    /// quantities are skipped.
    pub fn requesting(requests: &[(&str, &str)]) -> Self {
        Self {
            resources: ResourceRequirements {
                requests: list(requests),
                limits: ResourceList::new(),
            },
            ..Self::default()
        }
    }

    /// The same container as a sidecar (`restartPolicy: Always`).
    pub fn sidecar(mut self) -> Self {
        self.restart_policy = String::from("Always");
        self
    }

    /// True for `restartPolicy: Always`.
    pub fn is_restartable(&self) -> bool {
        self.restart_policy == "Always"
    }
}

/// A resource list from (name, quantity string) pairs; unparsable quantities are
/// skipped.
pub fn list(pairs: &[(&str, &str)]) -> ResourceList {
    pairs
        .iter()
        .filter_map(|(k, v)| Some((String::from(*k), Quantity::parse(v)?)))
        .collect()
}

/// `SetDefaults_ResourceList`: every quantity rounded up to milli units, as the API
/// server stores any resource list (requests, limits, overhead, allocatable).
pub fn defaulted(list: &ResourceList) -> ResourceList {
    list.iter()
        .map(|(k, v)| (k.clone(), v.round_up_milli()))
        .collect()
}

/// The resource fields of a pod spec.
#[derive(Clone, Copy, Debug)]
pub struct PodSpecResources<'a> {
    /// `spec.containers`
    pub containers: &'a [ContainerResources],
    /// `spec.initContainers`
    pub init_containers: &'a [ContainerResources],
    /// `spec.overhead`
    pub overhead: &'a ResourceList,
    /// Pod-level `spec.resources`.
    pub pod_level: Option<&'a ResourceRequirements>,
}

/// Which `PodRequests` rules a release applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RequestRules {
    /// Restartable init containers are sidecars (1.29 on).
    pub sidecars: bool,
    /// Pod-level requests replace the aggregate (1.34 on).
    pub pod_level: bool,
    /// Quantities are summed before conversion (1.27 on).
    pub quantity_sums: bool,
    /// Containers' missing requests take their limits first, as API defaulting does
    /// for every stored pod (`SetDefaults_Pod`); off to evaluate `PodRequests` on a
    /// pod object that skipped defaulting, as upstream's unit tests do.
    pub api_defaulting: bool,
}

impl RequestRules {
    /// The rules of a release with default gates.
    pub fn for_version(v: KubeVersion) -> Self {
        Self {
            sidecars: v.at_least(29),
            pod_level: v.at_least(34),
            quantity_sums: v.at_least(27),
            api_defaulting: true,
        }
    }
}

fn add_list(into: &mut ResourceList, from: &ResourceList) {
    for (k, v) in from {
        let e = into.get_or_insert(k, Quantity::ZERO);
        *e = e.plus(*v);
    }
}

fn max_list(into: &mut ResourceList, from: &ResourceList) {
    for (k, v) in from {
        let e = into.get_or_insert(k, *v);
        if v.cmp_value(*e).is_gt() {
            *e = *v;
        }
    }
}

/// `NonMissingContainerRequests`: which scoring defaults a container without a cpu or
/// memory request gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NonMissing {
    /// 100m of cpu.
    pub cpu: bool,
    /// 200Mi of memory.
    pub memory: bool,
}

impl NonMissing {
    /// No defaults (the filter's view).
    pub const NONE: NonMissing = NonMissing {
        cpu: false,
        memory: false,
    };
    /// Both defaults (scoring).
    pub const BOTH: NonMissing = NonMissing {
        cpu: true,
        memory: true,
    };
}

fn non_missing(mut r: ResourceList, d: NonMissing) -> ResourceList {
    if d.cpu {
        r.get_or_insert(CPU, Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST));
    }
    if d.memory {
        r.get_or_insert(MEMORY, Quantity::from_int(DEFAULT_MEMORY_REQUEST));
    }
    r
}

/// `IsSupportedPodLevelResource` as of 1.33: cpu, memory and `hugepages-*`.
pub fn is_supported_pod_level_resource(name: &str) -> bool {
    name == CPU || name == MEMORY || name.starts_with("hugepages-")
}

/// `PodRequests(pod, opts)` (1.27 on): containers summed, sidecars added, the
/// maximum with each init container's use, pod-level requests, then overhead.
/// `defaults` applies the scoring defaults (100m, 200Mi) to containers without a cpu /
/// memory request. `container_fn` sees each container's list as upstream's
/// `ContainerFn` does (`true` for init containers).
pub fn pod_requests_with(
    pod: PodSpecResources<'_>,
    rules: RequestRules,
    defaults: NonMissing,
    mut container_fn: impl FnMut(&ResourceList, bool),
) -> ResourceList {
    requests_of(pod, rules, defaults, &mut container_fn)
}

/// The body of [`pod_requests_with`], not generic over the callback, so the modules hold
/// one copy of it rather than one per caller.
fn requests_of(
    pod: PodSpecResources<'_>,
    rules: RequestRules,
    defaults: NonMissing,
    container_fn: &mut dyn FnMut(&ResourceList, bool),
) -> ResourceList {
    let prep = |c: &ContainerResources| {
        let r = if rules.api_defaulting {
            c.resources.defaulted_requests()
        } else {
            c.resources.requests.clone()
        };
        non_missing(r, defaults)
    };
    let mut reqs = ResourceList::new();
    for c in pod.containers {
        let r = prep(c);
        container_fn(&r, false);
        add_list(&mut reqs, &r);
    }
    let mut sidecars = ResourceList::new();
    let mut init_max = ResourceList::new();
    for c in pod.init_containers {
        let r = prep(c);
        let used = if rules.sidecars && c.is_restartable() {
            add_list(&mut reqs, &r);
            add_list(&mut sidecars, &r);
            sidecars.clone()
        } else {
            let mut t = r;
            add_list(&mut t, &sidecars);
            t
        };
        container_fn(&used, true);
        max_list(&mut init_max, &used);
    }
    max_list(&mut reqs, &init_max);
    if rules.pod_level
        && let Some(pl) = pod.pod_level
    {
        let requests = if rules.api_defaulting {
            pl.defaulted_requests()
        } else {
            pl.requests.clone()
        };
        for (k, v) in requests {
            if is_supported_pod_level_resource(&k) {
                reqs.insert(k, v);
            }
        }
    }
    if rules.api_defaulting {
        add_list(&mut reqs, &defaulted(pod.overhead));
    } else {
        add_list(&mut reqs, pod.overhead);
    }
    reqs
}

/// [`pod_requests_with`] without a container callback.
pub fn pod_requests(
    pod: PodSpecResources<'_>,
    rules: RequestRules,
    non_missing_defaults: bool,
) -> ResourceList {
    let d = if non_missing_defaults {
        NonMissing::BOTH
    } else {
        NonMissing::NONE
    };
    pod_requests_with(pod, rules, d, |_, _| {})
}

/// `IsScalarResourceName`: extended resources, `hugepages-*`, prefixed native
/// resources (`kubernetes.io/…`) and `attachable-volumes-*`.
pub fn is_scalar_resource_name(name: &str) -> bool {
    is_extended_resource_name(name)
        || name.starts_with("hugepages-")
        || name.contains("kubernetes.io/")
        || name.starts_with("attachable-volumes-")
}

/// `IsExtendedResourceName`: has a domain that is not `kubernetes.io`, does not start
/// with `requests.`, and `requests.<name>` is a qualified name.
pub fn is_extended_resource_name(name: &str) -> bool {
    if !name.contains('/') || name.contains("kubernetes.io/") || name.starts_with("requests.") {
        return false;
    }
    let mut full = String::from("requests.");
    full.push_str(name);
    crate::validation::is_qualified_name(&full)
}

/// `framework.Resource`: what the scheduler compares, in integers (cpu in milli-cores,
/// the rest in units).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct Resource {
    /// `MilliCPU`
    pub milli_cpu: i64,
    /// `Memory` (bytes)
    pub memory: i64,
    /// `EphemeralStorage` (bytes)
    pub ephemeral_storage: i64,
    /// `AllowedPodNumber` (only meaningful for allocatable)
    pub allowed_pod_number: i64,
    /// `ScalarResources`
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Scalars::is_empty"))]
    pub scalar: Scalars,
}

/// `Resource.ScalarResources`: resource name → amount, in name order (a [`NameMap`], so
/// the modules hold no `BTreeMap<String, i64>` code; a pod or node holds a handful of
/// scalar resources).
pub type Scalars = NameMap<i64>;

impl Resource {
    /// `NewResource(list)`.
    pub fn from_list(list: &ResourceList) -> Self {
        let mut r = Self::default();
        r.add(list);
        r
    }

    /// `Resource.Add(list)`: each quantity converted, then added; unknown un-prefixed
    /// names are dropped.
    pub fn add(&mut self, list: &ResourceList) {
        for (name, q) in list {
            match name.as_str() {
                CPU => self.milli_cpu = self.milli_cpu.saturating_add(q.milli_value()),
                MEMORY => self.memory = self.memory.saturating_add(q.value()),
                EPHEMERAL_STORAGE => {
                    self.ephemeral_storage = self.ephemeral_storage.saturating_add(q.value())
                }
                PODS => self.allowed_pod_number = self.allowed_pod_number.saturating_add(q.value()),
                n if is_scalar_resource_name(n) => {
                    let e = self.scalar.get_or_insert(n, 0);
                    *e = e.saturating_add(q.value());
                }
                _ => {}
            }
        }
    }

    /// `Resource.SetMaxResource(list)`.
    pub fn set_max(&mut self, list: &ResourceList) {
        for (name, q) in list {
            match name.as_str() {
                CPU => self.milli_cpu = self.milli_cpu.max(q.milli_value()),
                MEMORY => self.memory = self.memory.max(q.value()),
                EPHEMERAL_STORAGE => self.ephemeral_storage = self.ephemeral_storage.max(q.value()),
                PODS => {}
                n if is_scalar_resource_name(n) => {
                    let e = self.scalar.get_or_insert(n, 0);
                    *e = (*e).max(q.value());
                }
                _ => {}
            }
        }
    }

    /// Adds another resource (node totals).
    pub fn add_resource(&mut self, o: &Resource) {
        self.milli_cpu = self.milli_cpu.saturating_add(o.milli_cpu);
        self.memory = self.memory.saturating_add(o.memory);
        self.ephemeral_storage = self.ephemeral_storage.saturating_add(o.ephemeral_storage);
        self.allowed_pod_number = self.allowed_pod_number.saturating_add(o.allowed_pod_number);
        for (k, v) in &o.scalar {
            let e = self.scalar.get_or_insert(k, 0);
            *e = e.saturating_add(*v);
        }
    }

    /// Subtracts another resource (victims leaving a node).
    pub fn sub_resource(&mut self, o: &Resource) {
        self.milli_cpu = self.milli_cpu.saturating_sub(o.milli_cpu);
        self.memory = self.memory.saturating_sub(o.memory);
        self.ephemeral_storage = self.ephemeral_storage.saturating_sub(o.ephemeral_storage);
        self.allowed_pod_number = self.allowed_pod_number.saturating_sub(o.allowed_pod_number);
        for (k, v) in &o.scalar {
            let e = self.scalar.get_or_insert(k, 0);
            *e = e.saturating_sub(*v);
        }
    }

    /// A scalar resource's value (0 when absent).
    pub fn scalar(&self, name: &str) -> i64 {
        self.scalar.get(name).copied().unwrap_or(0)
    }

    /// The value for any resource name, as the filter reads it.
    pub fn get(&self, name: &str) -> i64 {
        match name {
            CPU => self.milli_cpu,
            MEMORY => self.memory,
            EPHEMERAL_STORAGE => self.ephemeral_storage,
            PODS => self.allowed_pod_number,
            n => self.scalar(n),
        }
    }
}

/// What the scheduler derives from one pod's resources, for one release: its request
/// (`Resource`, used by the filter and `NodeInfo.Requested`) and the non-zero cpu and
/// memory values (`NodeInfo.NonZeroRequested` for a bound pod).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PodResourceSummary {
    /// The request as the filter compares it.
    pub request: Resource,
    /// Non-zero milli-CPU as `NodeInfo.NonZeroRequested` counts it.
    pub non_zero_milli_cpu: i64,
    /// Non-zero memory as `NodeInfo.NonZeroRequested` counts it.
    pub non_zero_memory: i64,
    /// The pod's cpu (milli) and memory requests for scoring, with the non-zero
    /// defaults (NodeResourcesFit's LeastAllocated).
    pub score_non_zero: (i64, i64),
    /// The pod's cpu (milli) and memory requests for scoring, without defaults
    /// (BalancedAllocation).
    pub score_requested: (i64, i64),
}

fn non_zero_of(list: &ResourceList) -> (i64, i64) {
    // `GetNonzeroRequests`: a missing key takes the default, an explicit 0 stays 0.
    let cpu = list
        .get(CPU)
        .map_or(DEFAULT_MILLI_CPU_REQUEST, |q| q.milli_value());
    let mem = list
        .get(MEMORY)
        .map_or(DEFAULT_MEMORY_REQUEST, |q| q.value());
    (cpu, mem)
}

/// 1.25 – 1.26 `calculatePodResourceRequest` for cpu and memory: per container,
/// missing keys defaulted when `non_zero`, init maximum, overhead by `Value()`.
fn classic_score_request(pod: PodSpecResources<'_>, non_zero: bool) -> (i64, i64) {
    let one = |c: &ContainerResources| {
        let r = c.resources.defaulted_requests();
        if non_zero {
            non_zero_of(&r)
        } else {
            (
                r.get(CPU).map_or(0, |q| q.milli_value()),
                r.get(MEMORY).map_or(0, |q| q.value()),
            )
        }
    };
    let (mut cpu, mut mem) = (0i64, 0i64);
    for c in pod.containers {
        let (a, b) = one(c);
        cpu = cpu.saturating_add(a);
        mem = mem.saturating_add(b);
    }
    for c in pod.init_containers {
        let (a, b) = one(c);
        cpu = cpu.max(a);
        mem = mem.max(b);
    }
    if let Some(q) = pod.overhead.get(CPU) {
        cpu = cpu.saturating_add(q.value());
    }
    if let Some(q) = pod.overhead.get(MEMORY) {
        mem = mem.saturating_add(q.value());
    }
    (cpu, mem)
}

fn cpu_mem(list: &ResourceList) -> (i64, i64) {
    (
        list.get(CPU).map_or(0, |q| q.milli_value()),
        list.get(MEMORY).map_or(0, |q| q.value()),
    )
}

/// Everything the scheduler of `version` derives from a pod's resources.
pub fn summarize(pod: PodSpecResources<'_>, version: KubeVersion) -> PodResourceSummary {
    let rules = RequestRules::for_version(version);
    if !rules.quantity_sums {
        // 1.25 – 1.26: computePodResourceRequest / calculateResource.
        let mut request = Resource::default();
        let (mut nz_cpu, mut nz_mem) = (0i64, 0i64);
        for c in pod.containers {
            let r = c.resources.defaulted_requests();
            request.add(&r);
            let (a, b) = non_zero_of(&r);
            nz_cpu = nz_cpu.saturating_add(a);
            nz_mem = nz_mem.saturating_add(b);
        }
        for c in pod.init_containers {
            let r = c.resources.defaulted_requests();
            request.set_max(&r);
            let (a, b) = non_zero_of(&r);
            nz_cpu = nz_cpu.max(a);
            nz_mem = nz_mem.max(b);
        }
        request.add(pod.overhead);
        if let Some(q) = pod.overhead.get(CPU) {
            nz_cpu = nz_cpu.saturating_add(q.milli_value());
        }
        if let Some(q) = pod.overhead.get(MEMORY) {
            nz_mem = nz_mem.saturating_add(q.value());
        }
        return PodResourceSummary {
            request,
            non_zero_milli_cpu: nz_cpu,
            non_zero_memory: nz_mem,
            score_non_zero: classic_score_request(pod, true),
            score_requested: classic_score_request(pod, false),
        };
    }
    let plain = if version.at_least(31) {
        pod_requests(pod, rules, false)
    } else {
        let with_defaults = pod_requests(pod, rules, true);
        // 1.27 – 1.30 `calculateResource`: non-zero values through `ContainerFn`.
        let (mut app, mut init) = ((0i64, 0i64), (0i64, 0i64));
        let reqs = pod_requests_with(pod, rules, NonMissing::NONE, |r, is_init| {
            let (a, b) = non_zero_of(r);
            if is_init {
                init = (init.0.max(a), init.1.max(b));
            } else {
                app = (app.0.saturating_add(a), app.1.saturating_add(b));
            }
        });
        let mut nz = (app.0.max(init.0), app.1.max(init.1));
        if let Some(q) = pod.overhead.get(CPU) {
            nz.0 = nz.0.saturating_add(q.milli_value());
        }
        if let Some(q) = pod.overhead.get(MEMORY) {
            nz.1 = nz.1.saturating_add(q.value());
        }
        return PodResourceSummary {
            request: Resource::from_list(&reqs),
            non_zero_milli_cpu: nz.0,
            non_zero_memory: nz.1,
            score_non_zero: cpu_mem(&with_defaults),
            score_requested: cpu_mem(&reqs),
        };
    };
    // `getNonMissingContainerRequests`: with pod-level requests set, containers get a
    // default only for cpu / memory missing from the pod's aggregate.
    let pod_level_set = rules.pod_level
        && pod.pod_level.is_some_and(|pl| {
            pl.defaulted_requests()
                .keys()
                .any(|k| is_supported_pod_level_resource(k))
        });
    let defaults = if pod_level_set {
        NonMissing {
            cpu: !plain.contains_key(CPU),
            memory: !plain.contains_key(MEMORY),
        }
    } else {
        NonMissing::BOTH
    };
    let with_defaults = if defaults == NonMissing::NONE {
        plain.clone()
    } else {
        pod_requests_with(pod, rules, defaults, |_, _| {})
    };
    let nz = cpu_mem(&with_defaults);
    PodResourceSummary {
        request: Resource::from_list(&plain),
        non_zero_milli_cpu: nz.0,
        non_zero_memory: nz.1,
        score_non_zero: nz,
        score_requested: cpu_mem(&plain),
    }
}

/// The pod requests as a list, for display: [`pod_requests`] with the release's rules.
pub fn effective_requests(pod: PodSpecResources<'_>, version: KubeVersion) -> ResourceList {
    pod_requests(pod, RequestRules::for_version(version), false)
}

/// The resource names requested by the containers and init containers after API
/// defaulting (limits copied into missing requests), as ExtendedResourceToleration
/// reads them (`admit`'s `requested`), in container order with duplicates.
pub fn requested_names(pod: PodSpecResources<'_>) -> Vec<String> {
    pod.containers
        .iter()
        .chain(pod.init_containers)
        .flat_map(|c| c.resources.defaulted_requests().into_keys())
        .collect()
}

/// The names a list mentions, sorted (for display).
pub fn names(list: &ResourceList) -> Vec<&str> {
    list.keys().map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_resources_merges_scalars_by_name() {
        let mut r = Resource::from_list(&list(&[("example.com/b", "2"), ("cpu", "1")]));
        r.add_resource(&Resource::from_list(&list(&[
            ("example.com/a", "1"),
            ("example.com/b", "3"),
        ])));
        let pairs: Vec<(&str, i64)> = r.scalar.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(pairs, [("example.com/a", 1), ("example.com/b", 5)]);
        r.sub_resource(&Resource::from_list(&list(&[("example.com/c", "1")])));
        assert_eq!(r.scalar("example.com/c"), -1);
        assert_eq!(r.get("example.com/b"), 5);
        assert_eq!(r.milli_cpu, 1000);
    }
}
