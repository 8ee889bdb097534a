//! `kubectl drain` against the simulated cluster: the drain itself is
//! [`crate::kubectl::drain::DrainSession`] (filters, eviction loop with its 5 s retry,
//! wait for deletion, every printed line per release); the simulation is its
//! [`DrainWorld`]. An eviction goes through [`crate::disruption::evict`] after the
//! budgets it may touch are synced by [`crate::disruption::apply_sync`] (the disruption
//! controller is taken to have caught up with every change before each request).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::actions::DrainOptions;
use super::cluster::{ControllerKind, IntOrPercent};
use super::engine::{Phase, Work, World};
use super::timeline::TerminationCause;
use crate::disruption::{
    self, ApiError, EvictionOutcome, OwnerRef, PdbSpec, PodDisruptionBudget, PodPhase, PodRecord,
    Workloads,
};
use crate::kubectl::drain::{DrainSession, DrainWorld, Stream, parse_drain_command};

/// Budget indices by namespace, then one of their `matchLabels` key and value.
pub(super) type BudgetsByLabel = alloc::collections::BTreeMap<
    String,
    alloc::collections::BTreeMap<String, alloc::collections::BTreeMap<String, Vec<usize>>>,
>;

/// A drain in progress.
pub(super) struct DrainRun {
    pub session: Option<DrainSession>,
    /// Output lines already copied into the timeline.
    pub printed: usize,
    /// The second the session asked to be woken at.
    pub wake: Option<i64>,
    pub finished: bool,
    /// kubectl's exit code once it exited.
    pub exit: Option<i32>,
    /// The node, for the lines' object.
    pub node: String,
}

impl DrainRun {
    /// kubectl's exit code, once it exited.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit
    }
}

/// `apiVersion` of a controller kind.
fn api_version(kind: ControllerKind) -> &'static str {
    match kind {
        ControllerKind::Job => "batch/v1",
        ControllerKind::ReplicationController => "v1",
        _ => "apps/v1",
    }
}

/// A budget as the disruption module holds it.
fn budget(b: &super::cluster::DisruptionBudget) -> PodDisruptionBudget {
    let conv = |v: &IntOrPercent| match v {
        IntOrPercent::Int(i) => disruption::IntOrPercent::Int(*i),
        IntOrPercent::Percent(s) => disruption::IntOrPercent::Str(s.clone()),
    };
    let mut pdb = PodDisruptionBudget::new(&b.namespace, &b.name);
    pdb.spec = PdbSpec {
        min_available: b.min_available.as_ref().map(conv),
        max_unavailable: b.max_unavailable.as_ref().map(conv),
        selector: Some(b.selector.clone()),
        unhealthy_pod_eviction_policy: None,
    };
    pdb
}

/// The `kubectl drain` arguments for the flags.
fn drain_args(node: &str, o: &DrainOptions) -> Vec<String> {
    let mut args = alloc::vec![String::from(node)];
    if o.ignore_daemonsets {
        args.push(String::from("--ignore-daemonsets"));
    }
    if o.delete_emptydir_data {
        args.push(String::from("--delete-emptydir-data"));
    }
    if o.force {
        args.push(String::from("--force"));
    }
    if o.disable_eviction {
        args.push(String::from("--disable-eviction"));
    }
    if let Some(g) = o.grace_period {
        args.push(format!("--grace-period={g}"));
    }
    if let Some(t) = o.timeout {
        args.push(format!("--timeout={t}s"));
    }
    if let Some(s) = o.skip_wait_for_delete_timeout {
        args.push(format!("--skip-wait-for-delete-timeout={s}"));
    }
    args
}

impl World<'_> {
    /// The pod as the drain and the Eviction API read it.
    pub(super) fn pod_record(&self, id: usize) -> Option<PodRecord> {
        let p = self.pods.get(id)?;
        let node = p.node.and_then(|n| self.nodes.get(n));
        let (phase, deletion) = match p.phase {
            Phase::Pending => (PodPhase::Pending, None),
            Phase::Running => (PodPhase::Running, None),
            Phase::Terminating { since, .. } => (PodPhase::Running, Some(since + p.grace)),
            Phase::Gone => return None,
        };
        Some(PodRecord {
            namespace: p.pod.pod.namespace.clone(),
            name: p.pod.pod.name.clone(),
            uid: format!("uid-{id}"),
            labels: p.labels.as_ref().clone(),
            node_name: node.map(|n| n.spec.name.clone()).unwrap_or_default(),
            phase,
            // The kubelet's Ready condition; the node lifecycle controller marks the pods
            // of a node that is not Ready not Ready (`MarkPodsNotReady`).
            ready: matches!(p.phase, Phase::Running) && node.is_some_and(|n| n.ready),
            deletion_timestamp: deletion,
            controller: p
                .owner
                .as_ref()
                .map(|o| OwnerRef::new(api_version(o.kind), o.kind.as_str(), &o.name)),
            mirror: p.mirror,
            has_empty_dir: p.empty_dir,
            termination_grace_period_seconds: p.grace,
        })
    }

    /// The workloads as the disruption controller's finders read them.
    fn finder_workloads(&self) -> Workloads {
        let mut items = Vec::new();
        for w in &self.workloads {
            let s = &w.spec;
            let replicas = match s.kind {
                ControllerKind::Job | ControllerKind::DaemonSet => None,
                _ => Some(s.replicas.max(0)),
            };
            if s.kind == ControllerKind::Deployment {
                // Its current ReplicaSet, and any other its starting pods name (an older
                // one's pods are still the Deployment's).
                let mut names: Vec<&str> = alloc::vec![w.pod_prefix.as_str()];
                for o in w
                    .pods
                    .iter()
                    .filter_map(|&p| self.pods.get(p)?.owner.as_ref())
                {
                    if o.kind == ControllerKind::ReplicaSet && !names.contains(&o.name.as_str()) {
                        names.push(&o.name);
                    }
                }
                for name in names {
                    let mut rs = disruption::Workload::new(
                        "apps/v1",
                        "ReplicaSet",
                        &s.namespace,
                        name,
                        s.replicas.max(0),
                    );
                    rs.controller = Some(OwnerRef::new("apps/v1", "Deployment", &s.name));
                    items.push(rs);
                }
            }
            let mut item = disruption::Workload::new(
                api_version(s.kind),
                s.kind.as_str(),
                &s.namespace,
                &s.name,
                0,
            );
            item.replicas = replicas;
            items.push(item);
        }
        Workloads { items }
    }

    /// Budget `i` with its status, made from the input on first use (a run that evicts
    /// nothing never converts them).
    fn budget_mut(&mut self, i: usize) -> Option<&mut PodDisruptionBudget> {
        let slot = self.budgets.get_mut(i)?;
        if slot.is_none() {
            *slot = Some(budget(self.input.cluster.disruption_budgets.get(i)?));
        }
        slot.as_mut()
    }

    /// Brings the status of the budgets that select `pod` up to date (the others play
    /// no part in its eviction).
    fn sync_budgets(&mut self, pod: usize) {
        let mine = self.budgets_of(pod);
        if mine.is_empty() {
            return;
        }
        // The finders' view changes only when a workload is added, scaled or renamed.
        let workloads = match self.finder.take() {
            Some(w) => w,
            None => self.finder_workloads(),
        };
        let now = self.now;
        for i in mine {
            let records: Vec<PodRecord> = self
                .budget_pods
                .get(i)
                .map(|ids| ids.iter().filter_map(|&id| self.pod_record(id)).collect())
                .unwrap_or_default();
            if let Some(b) = self.budget_mut(i) {
                disruption::apply_sync(b, &records, &workloads, now);
            }
        }
        self.finder = Some(workloads);
    }

    /// Records which budgets select a new pod (`PodDisruptionBudget::selects`, with the
    /// selectors converted once and looked up by one of their `matchLabels` pairs).
    pub(super) fn index_budgets(&mut self, id: usize) {
        if self.budgets.is_empty() {
            return;
        }
        if self.budget_index.is_none() {
            let mut by_label: BudgetsByLabel = alloc::collections::BTreeMap::new();
            let mut general = Vec::new();
            let mut selectors = Vec::new();
            for (i, b) in self.input.cluster.disruption_budgets.iter().enumerate() {
                let sel = Some(&b.selector);
                selectors.push(sel.and_then(|s| s.to_selector().ok()));
                match sel.and_then(|s| s.match_labels.iter().next()) {
                    Some((k, v)) => by_label
                        .entry(b.namespace.clone())
                        .or_default()
                        .entry(k.clone())
                        .or_default()
                        .entry(v.clone())
                        .or_default()
                        .push(i),
                    None => general.push(i),
                }
            }
            self.budget_index = Some((by_label, general, selectors));
        }
        let Some(p) = self.pods.get(id) else {
            return;
        };
        // The budgets that select a pod depend only on its namespace and labels: a pod
        // with those of the pod admitted just before it (the next pod of one workload)
        // shares that pod's list.
        if let Some(prev) = id.checked_sub(1).and_then(|q| self.pods.get(q))
            && prev.pod.pod.namespace == p.pod.pod.namespace
            && prev.labels == p.labels
        {
            let range = prev.budgets;
            for &i in self.budget_lists.get(range.0..range.1).unwrap_or_default() {
                if let Some(v) = self.budget_pods.get_mut(i) {
                    v.push(id);
                }
            }
            if let Some(p) = self.pods.get_mut(id) {
                p.budgets = range;
            }
            return;
        }
        let Some((by_label, general, selectors)) = self.budget_index.as_ref() else {
            return;
        };
        let ns = &p.pod.pod.namespace;
        // The candidates go through a scratch list kept between pods, and the budgets
        // that select the pod are appended to one list shared by every pod.
        let mut hits = core::mem::take(&mut self.budget_scratch);
        hits.clear();
        if let Some(in_ns) = by_label.get(ns.as_str()) {
            for (k, v) in p.labels.iter() {
                if let Some(c) = in_ns.get(k.as_str()).and_then(|m| m.get(v.as_str())) {
                    hits.extend(c.iter().copied());
                }
            }
        }
        hits.extend(general.iter().copied());
        hits.sort_unstable();
        hits.dedup();
        let start = self.budget_lists.len();
        for &i in &hits {
            let selected = (self.input.cluster.disruption_budgets.get(i))
                .is_some_and(|b| b.namespace == *ns)
                && selectors
                    .get(i)
                    .and_then(Option::as_ref)
                    .is_some_and(|s| s.matches(&p.labels));
            if selected && let Some(v) = self.budget_pods.get_mut(i) {
                v.push(id);
                self.budget_lists.push(i);
            }
        }
        self.budget_scratch = hits;
        let end = self.budget_lists.len();
        if let Some(p) = self.pods.get_mut(id) {
            p.budgets = (start, end);
        }
    }

    /// The budgets that select the pod, in budget order.
    pub(super) fn budgets_of(&self, id: usize) -> Vec<usize> {
        self.pods
            .get(id)
            .and_then(|p| self.budget_lists.get(p.budgets.0..p.budgets.1))
            .map(<[usize]>::to_vec)
            .unwrap_or_default()
    }

    pub(super) fn start_drain(&mut self, slot: usize, options: DrainOptions) {
        let node = String::from(self.node_name(slot));
        let id = self.drains.len();
        match parse_drain_command(&drain_args(&node, &options), self.sem.version) {
            Ok(cmd) => {
                self.drains.push(DrainRun {
                    session: Some(DrainSession::new(cmd, alloc::vec![node.clone()])),
                    printed: 0,
                    wake: None,
                    finished: false,
                    exit: None,
                    node,
                });
                self.drain_step(id);
            }
            Err(e) => {
                self.drains.push(DrainRun {
                    session: None,
                    printed: 0,
                    wake: None,
                    finished: true,
                    exit: Some(1),
                    node: node.clone(),
                });
                for line in e.stderr().lines() {
                    self.print(true, &node, String::from(line));
                }
            }
        }
    }

    /// Runs the drain's session at this second and copies what it printed.
    pub(super) fn drain_step(&mut self, id: usize) {
        let Some(mut session) = self.drains.get_mut(id).and_then(|d| d.session.take()) else {
            return;
        };
        let now = self.now;
        // kubectl prints each line before the request it reports on ("evicting pod" before
        // the eviction), and the kubelet's Killing and the controllers' events follow the
        // API call: what the step printed goes before the events the step caused.
        let mark = self.out.events.len();
        let next = session.step(self, now);
        let caused = self.out.events.split_off(mark);
        let (printed, node) = self
            .drains
            .get(id)
            .map_or((0, String::new()), |d| (d.printed, d.node.clone()));
        let lines: Vec<(i64, bool, String)> = session
            .output()
            .iter()
            .skip(printed)
            .map(|l| (l.t, l.stream == Stream::Stderr, l.text.clone()))
            .collect();
        for (t, stderr, text) in lines {
            let saved = self.now;
            self.now = t.max(0).min(saved);
            self.print(stderr, &node, text);
            self.now = saved;
        }
        self.out.events.extend(caused);
        let total = session.output().len();
        let done = session.is_done();
        let exit = session.exit_code();
        if let Some(d) = self.drains.get_mut(id) {
            d.exit = exit;
            d.printed = total;
            d.finished = done;
            d.session = Some(session);
            d.wake = next;
        }
        if let Some(at) = next {
            self.push(at.max(now), Work::Drain(id));
        }
    }

    /// Wakes the drain at its requested second only (earlier queued wakes are stale).
    pub(super) fn drain_work(&mut self, id: usize) {
        if self
            .drains
            .get(id)
            .is_some_and(|d| !d.finished && d.wake.is_some_and(|w| w <= self.now))
        {
            self.drain_step(id);
        }
    }

    fn live_pod(&self, namespace: &str, name: &str) -> Option<usize> {
        self.pod_by_key
            .get(namespace, name)
            .filter(|&id| self.pods.get(id).is_some_and(|p| p.exists()))
    }
}

fn not_found(name: &str) -> ApiError {
    ApiError {
        code: 404,
        reason: "NotFound",
        message: format!("pods {} not found", crate::validation::go_quote(name)),
        causes: Vec::new(),
    }
}

impl DrainWorld for World<'_> {
    fn set_unschedulable(&mut self, node: &str, unschedulable: bool, server_dry_run: bool) {
        if server_dry_run {
            return;
        }
        if let Some(&slot) = self.node_by_name.get(node)
            && let Some(n) = self.nodes.get_mut(slot)
            && n.spec.unschedulable != unschedulable
        {
            n.spec.unschedulable = unschedulable;
            self.node_spec_changed(slot);
        }
    }

    fn is_unschedulable(&self, node: &str) -> bool {
        self.node_by_name
            .get(node)
            .and_then(|&s| self.nodes.get(s))
            .is_some_and(|n| n.spec.unschedulable)
    }

    fn pods_on_node(&self, node: &str) -> Vec<PodRecord> {
        let Some(n) = self.node_by_name.get(node).and_then(|&s| self.nodes.get(s)) else {
            return Vec::new();
        };
        let mut pods: Vec<PodRecord> = n
            .pods
            .iter()
            .filter_map(|&id| self.pod_record(id))
            .collect();
        pods.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        pods
    }

    fn daemon_set_exists(&self, namespace: &str, name: &str) -> bool {
        self.workloads.iter().any(|w| {
            w.spec.kind == ControllerKind::DaemonSet
                && w.spec.namespace == namespace
                && w.spec.name == name
        }) || self
            .input
            .cluster
            .daemon_sets_without_spec
            .iter()
            .any(|(ns, n)| ns == namespace && n == name)
    }

    fn evict(
        &mut self,
        namespace: &str,
        name: &str,
        now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let Some(id) = self.live_pod(namespace, name) else {
            return Err(not_found(name));
        };
        self.sync_budgets(id);
        let Some(record) = self.pod_record(id) else {
            return Err(not_found(name));
        };
        let version = self.sem.version;
        // Only the budgets that select the pod can match it: the Eviction API's check
        // runs on those (in their order), which answers as it would on all of them.
        let mine = self.budgets_of(id);
        let mut selecting: Vec<PodDisruptionBudget> = mine
            .iter()
            .filter_map(|&i| {
                let b = self.budget_mut(i)?;
                Some(core::mem::replace(b, PodDisruptionBudget::new("", "")))
            })
            .collect();
        let outcome = disruption::evict(&record, &mut selecting, now, dry_run, version);
        for (&i, b) in mine.iter().zip(selecting) {
            if let Some(slot) = self.budgets.get_mut(i) {
                *slot = Some(b);
            }
        }
        match outcome {
            EvictionOutcome::Rejected(e) => Err(e),
            EvictionOutcome::Evicted { .. } => {
                if !dry_run {
                    self.start_termination(id, TerminationCause::DrainEviction, grace_period);
                }
                Ok(())
            }
        }
    }

    fn delete(
        &mut self,
        namespace: &str,
        name: &str,
        _now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let Some(id) = self.live_pod(namespace, name) else {
            return Err(not_found(name));
        };
        if !dry_run {
            self.start_termination(id, TerminationCause::DrainDeletion, grace_period);
        }
        Ok(())
    }

    fn get_pod(&self, namespace: &str, name: &str) -> Option<PodRecord> {
        self.live_pod(namespace, name)
            .and_then(|id| self.pod_record(id))
    }
}
