//! `kubectl drain` run against the simulated cluster (kubernetes/kubectl
//! `pkg/cmd/drain/drain.go` `RunDrain`, `pkg/drain` `GetPodsForDeletion`, `evictPods`,
//! `waitForDelete`) and the Eviction API's PodDisruptionBudget check
//! (`pkg/registry/core/pod/storage/eviction.go` `EvictionREST.Create`,
//! `checkAndDecrement`; the budget's numbers as `pkg/controller/disruption/disruption.go`
//! `trySync` computes them).
//!
//! A drain calls [`World::drain_filter`] once per pod and [`World::eviction_check`] once
//! per eviction attempt. Evictions of all pods start in the same second (kubectl runs
//! one goroutine per pod); a refused eviction is retried every 5 s
//! (`EvictErrorRetryDelay`). The PodDisruptionBudget's status is taken to be up to date
//! at every attempt (the disruption controller's sync latency is not modelled).
//! Not modelled: `--skip-wait-for-delete-timeout`, `--pod-selector`, the timeout of the
//! wait for deletion (only eviction retries time out).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::actions::DrainOptions;
use super::cluster::{ControllerKind, IntOrPercent};
use super::engine::{Phase, Work, World};
use super::timeline::TerminationCause;

/// `EvictErrorRetryDelay`.
pub(super) const EVICT_RETRY_DELAY: i64 = 5;

/// A drain in progress.
pub(super) struct DrainRun {
    pub node: usize,
    pub options: DrainOptions,
    pub deadline: Option<i64>,
    /// Pods whose eviction is refused for now, retried at `retry_at`.
    pub retrying: Vec<usize>,
    pub retry_at: Option<i64>,
    /// Pods evicted, waiting to be gone.
    pub waiting: Vec<usize>,
    /// Pods whose eviction failed for good, with the error.
    pub failed: Vec<(usize, String)>,
    pub finished: bool,
}

/// What the drain does with one pod (`makeFilters`, in filter order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum DrainDecision {
    /// Evict (or delete), with the warning group it is listed under, if any.
    Delete(Option<&'static str>),
    /// Leave it, listed under a warning or silently.
    Skip(Option<&'static str>),
    /// Refuse the drain, under this error group.
    Error(&'static str),
}

/// The Eviction API's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum EvictionAnswer {
    /// 201: the pod is deleted.
    Allowed,
    /// 429: retry later, with the server's message.
    TooManyRequests(String),
    /// Any other error: the pod fails.
    Failed(String),
}

/// The server's 429 message when a budget allows no disruption.
pub(super) const PDB_VIOLATION: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";
/// The server's 500 message for a pod under several budgets.
pub(super) const MULTIPLE_PDBS: &str = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

/// Go's `time.Duration.String()` for whole seconds: `30s`, `1m0s`, `1h0m0s`.
pub(super) fn go_duration(seconds: i64) -> String {
    if seconds == 0 {
        return String::from("0s");
    }
    let neg = if seconds < 0 { "-" } else { "" };
    let s = seconds.unsigned_abs();
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    if h > 0 {
        format!("{neg}{h}h{m}m{sec}s")
    } else if m > 0 {
        format!("{neg}{m}m{sec}s")
    } else {
        format!("{neg}{sec}s")
    }
}

/// `GetScaledValueFromIntOrPercent(v, total, roundUp=true)`; `None` for a malformed
/// percentage.
fn scaled(v: &IntOrPercent, total: i64) -> Option<i64> {
    match v {
        IntOrPercent::Int(i) => Some(i64::from(*i)),
        IntOrPercent::Percent(s) => {
            let p: i64 = s.strip_suffix('%')?.parse().ok()?;
            Some((p * total + 99).div_euclid(100))
        }
    }
}

impl World<'_> {
    /// `kubectl drain`'s filters for one pod.
    pub(super) fn drain_filter(&self, pod: usize, o: &DrainOptions) -> DrainDecision {
        let Some(p) = self.pods.get(pod) else {
            return DrainDecision::Skip(None);
        };
        if p.owner
            .as_ref()
            .is_some_and(|o| o.kind == ControllerKind::DaemonSet)
        {
            return if o.ignore_daemonsets {
                DrainDecision::Skip(Some("ignoring DaemonSet-managed Pods"))
            } else {
                DrainDecision::Error("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)")
            };
        }
        if p.mirror {
            return DrainDecision::Skip(None);
        }
        let mut warning = None;
        if p.empty_dir {
            if !o.delete_emptydir_data {
                return DrainDecision::Error(
                    "Pods with local storage (use --delete-emptydir-data to override)",
                );
            }
            warning = Some("deleting Pods with local storage");
        }
        if p.owner.is_none() {
            if !o.force {
                return DrainDecision::Error(
                    "Pods that declare no controller (use --force to override)",
                );
            }
            warning = Some("deleting Pods that declare no controller");
        }
        DrainDecision::Delete(warning)
    }

    /// Whether the pod counts as healthy for a budget: bound, not terminating, on a
    /// Ready node (the node lifecycle controller marks the pods of a node that is not
    /// Ready not Ready).
    fn healthy(&self, pod: usize) -> bool {
        self.pods.get(pod).is_some_and(|p| {
            matches!(p.phase, Phase::Running)
                && p.node
                    .and_then(|n| self.nodes.get(n))
                    .is_some_and(|n| n.ready)
        })
    }

    /// The Eviction API's decision for one pod.
    pub(super) fn eviction_check(&self, pod: usize) -> EvictionAnswer {
        let Some(p) = self.pods.get(pod) else {
            return EvictionAnswer::Allowed;
        };
        // canIgnorePDB: Pending, or already terminating.
        if !matches!(p.phase, Phase::Running) {
            return EvictionAnswer::Allowed;
        }
        let ns = &p.pod.pod.namespace;
        let version = self.sem.version;
        let matching: Vec<&super::cluster::DisruptionBudget> = self
            .input
            .cluster
            .disruption_budgets
            .iter()
            .filter(|b| {
                b.namespace == *ns
                    && !(b.selector.match_labels.is_empty()
                        && b.selector.match_expressions.is_empty())
                    && b.selector
                        .to_selector_for_version(version)
                        .is_ok_and(|s| s.matches(&p.labels))
            })
            .collect();
        let budget = match matching.as_slice() {
            [] => return EvictionAnswer::Allowed,
            [one] => *one,
            _ => return EvictionAnswer::Failed(String::from(MULTIPLE_PDBS)),
        };
        let selector = budget.selector.to_selector_for_version(version).ok();
        let covered: Vec<usize> = self
            .pod_by_key
            .range((ns.clone(), String::new())..)
            .take_while(|((n, _), _)| n == ns)
            .map(|(_, &id)| id)
            .filter(|&id| {
                self.pods
                    .get(id)
                    .is_some_and(|q| selector.as_ref().is_some_and(|s| s.matches(&q.labels)))
            })
            .collect();
        let current_healthy = covered.iter().filter(|&&id| self.healthy(id)).count() as i64;
        // getExpectedScale: the replicas of the distinct controllers of the pods.
        let expected_scale = || {
            let mut seen: Vec<usize> = Vec::new();
            let mut sum = 0i64;
            for &id in &covered {
                if let Some(w) = self.pods.get(id).and_then(|q| q.workload)
                    && !seen.contains(&w)
                {
                    seen.push(w);
                    sum += self
                        .workloads
                        .get(w)
                        .map_or(0, |s| i64::from(s.spec.replicas.max(0)));
                }
            }
            sum
        };
        let (expected, desired) = match (&budget.max_unavailable, &budget.min_available) {
            (Some(max), _) => {
                let expected = expected_scale();
                let max = scaled(max, expected).unwrap_or(0);
                (expected, (expected - max).max(0))
            }
            (None, Some(IntOrPercent::Int(min))) => (covered.len() as i64, i64::from(*min)),
            (None, Some(min)) => {
                let expected = expected_scale();
                (expected, scaled(min, expected).unwrap_or(0))
            }
            (None, None) => (covered.len() as i64, 0),
        };
        // A pod that is not Ready may go while the budget is met.
        if !self.healthy(pod) && current_healthy >= desired && desired > 0 {
            return EvictionAnswer::Allowed;
        }
        let allowed = if expected <= 0 {
            0
        } else {
            (current_healthy - desired).max(0)
        };
        if allowed == 0 {
            EvictionAnswer::TooManyRequests(String::from(PDB_VIOLATION))
        } else {
            EvictionAnswer::Allowed
        }
    }

    pub(super) fn start_drain(&mut self, slot: usize, options: DrainOptions) {
        let name = String::from(self.node_name(slot));
        let already = self.nodes.get(slot).is_some_and(|n| n.spec.unschedulable);
        if already {
            self.print(false, &name, format!("node/{name} already cordoned"));
        } else {
            if let Some(n) = self.nodes.get_mut(slot) {
                n.spec.unschedulable = true;
            }
            self.node_spec_changed(slot);
            self.print(false, &name, format!("node/{name} cordoned"));
        }
        // GetPodsForDeletion: the node's pods in the API's list order (namespace, name).
        let mut pods: Vec<usize> = self
            .nodes
            .get(slot)
            .map(|n| n.pods.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|&p| self.pods.get(p).is_some_and(|pp| pp.exists()))
            .collect();
        pods.sort_by(|&a, &b| {
            let ka = self.pods.get(a).map(|p| p.key());
            let kb = self.pods.get(b).map(|p| p.key());
            ka.cmp(&kb)
        });
        let mut errors: Vec<(&'static str, Vec<String>)> = Vec::new();
        let mut warnings: Vec<(&'static str, Vec<String>)> = Vec::new();
        let mut to_delete = Vec::new();
        for p in pods {
            let decision = self.drain_filter(p, &options);
            let label = self
                .pods
                .get(p)
                .map(|pp| format!("{}/{}", pp.pod.pod.namespace, pp.pod.pod.name))
                .unwrap_or_default();
            let group =
                |list: &mut Vec<(&'static str, Vec<String>)>, msg: &'static str, label: String| {
                    match list.iter_mut().find(|(m, _)| *m == msg) {
                        Some((_, v)) => v.push(label),
                        None => list.push((msg, alloc::vec![label])),
                    }
                };
            match decision {
                DrainDecision::Delete(w) => {
                    if let Some(w) = w {
                        group(&mut warnings, w, label);
                    }
                    to_delete.push(p);
                }
                DrainDecision::Skip(Some(w)) => group(&mut warnings, w, label),
                DrainDecision::Skip(None) => {}
                DrainDecision::Error(e) => group(&mut errors, e, label),
            }
        }
        let id = self.drains.len();
        let deadline = options.timeout.filter(|&t| t > 0).map(|t| self.now + t);
        self.drains.push(DrainRun {
            node: slot,
            options: options.clone(),
            deadline,
            retrying: Vec::new(),
            retry_at: None,
            waiting: Vec::new(),
            failed: Vec::new(),
            finished: false,
        });
        if !errors.is_empty() {
            let parts: Vec<String> = errors
                .iter()
                .map(|(m, pods)| format!("cannot delete {m}: {}", pods.join(", ")))
                .collect();
            let err = if parts.len() == 1 {
                parts.concat()
            } else {
                format!("[{}]", parts.join(", "))
            };
            self.drain_failed(id, &err, &[]);
            return;
        }
        if !warnings.is_empty() {
            let text: Vec<String> = warnings
                .iter()
                .map(|(m, pods)| format!("{m}: {}", pods.join(", ")))
                .collect();
            self.print(true, &name, format!("Warning: {}", text.join("; ")));
        }
        if options.disable_eviction {
            for &p in &to_delete {
                self.start_termination(p, TerminationCause::DrainDeletion, options.grace_period);
                if let Some(d) = self.drains.get_mut(id) {
                    d.waiting.push(p);
                }
            }
        } else {
            for &p in &to_delete {
                self.evict_attempt(id, p);
            }
        }
        self.drain_check_done(id);
    }

    fn evict_attempt(&mut self, id: usize, pod: usize) {
        let Some(d) = self.drains.get(id) else {
            return;
        };
        let node = String::from(self.node_name(d.node));
        let grace = d.options.grace_period;
        let deadline = d.deadline;
        let timeout = d.options.timeout.unwrap_or(0);
        let Some(p) = self.pods.get(pod) else {
            return;
        };
        if !p.exists() {
            return; // 404: nothing to wait for, no "evicted" line.
        }
        let (ns, name) = p.key();
        self.print(false, &node, format!("evicting pod {ns}/{name}"));
        if deadline.is_some_and(|dl| self.now >= dl) {
            let err = format!(
                "error when evicting pods/{name:?} -n {ns:?}: global timeout reached: {}",
                go_duration(timeout)
            );
            if let Some(d) = self.drains.get_mut(id) {
                d.failed.push((pod, err));
            }
            return;
        }
        match self.eviction_check(pod) {
            EvictionAnswer::Allowed => {
                self.start_termination(pod, TerminationCause::DrainEviction, grace);
                if let Some(d) = self.drains.get_mut(id) {
                    d.waiting.push(pod);
                }
            }
            EvictionAnswer::TooManyRequests(msg) => {
                self.print(
                    true,
                    &node,
                    format!(
                        "error when evicting pods/{name:?} -n {ns:?} (will retry after {}): {msg}",
                        go_duration(EVICT_RETRY_DELAY)
                    ),
                );
                let at = self.now + EVICT_RETRY_DELAY;
                if let Some(d) = self.drains.get_mut(id) {
                    d.retrying.push(pod);
                    if d.retry_at.is_none() {
                        d.retry_at = Some(at);
                        self.push(at, Work::Drain(id));
                    }
                }
            }
            EvictionAnswer::Failed(msg) => {
                let err = format!("error when evicting pods/{name:?} -n {ns:?}: {msg}");
                if let Some(d) = self.drains.get_mut(id) {
                    d.failed.push((pod, err));
                }
            }
        }
    }

    /// The 5 s retry of refused evictions.
    pub(super) fn drain_step(&mut self, id: usize) {
        let Some(d) = self.drains.get_mut(id) else {
            return;
        };
        if d.finished || d.retry_at != Some(self.now) {
            return;
        }
        d.retry_at = None;
        let retry = core::mem::take(&mut d.retrying);
        for p in retry {
            self.evict_attempt(id, p);
        }
        self.drain_check_done(id);
    }

    /// A pod is gone: the drain waiting for it prints its line.
    pub(super) fn drain_pod_gone(&mut self, pod: usize) {
        for id in 0..self.drains.len() {
            let Some(d) = self.drains.get(id) else {
                continue;
            };
            if d.finished || !d.waiting.contains(&pod) {
                continue;
            }
            let verb = if d.options.disable_eviction {
                "deleted"
            } else {
                "evicted"
            };
            let node = String::from(self.node_name(d.node));
            if let Some(d) = self.drains.get_mut(id) {
                d.waiting.retain(|&p| p != pod);
            }
            let name = self
                .pods
                .get(pod)
                .map(|p| p.pod.pod.name.clone())
                .unwrap_or_default();
            self.print(false, &node, format!("pod/{name} {verb}"));
            self.drain_check_done(id);
        }
    }

    fn drain_check_done(&mut self, id: usize) {
        let Some(d) = self.drains.get(id) else {
            return;
        };
        if d.finished || !d.waiting.is_empty() || !d.retrying.is_empty() {
            return;
        }
        if d.failed.is_empty() {
            let node = String::from(self.node_name(d.node));
            if let Some(d) = self.drains.get_mut(id) {
                d.finished = true;
            }
            self.print(false, &node, format!("node/{node} drained"));
        } else {
            let failed = d.failed.clone();
            let errs: Vec<&str> = failed.iter().map(|(_, e)| e.as_str()).collect();
            let err = if errs.len() == 1 {
                errs.concat()
            } else {
                format!("[{}]", errs.join(", "))
            };
            let pods: Vec<usize> = failed.iter().map(|(p, _)| *p).collect();
            self.drain_failed(id, &err, &pods);
        }
    }

    fn drain_failed(&mut self, id: usize, err: &str, pending: &[usize]) {
        let Some(slot) = self.drains.get(id).map(|d| d.node) else {
            return;
        };
        let node = String::from(self.node_name(slot));
        if let Some(d) = self.drains.get_mut(id) {
            d.finished = true;
        }
        if !pending.is_empty() {
            self.print(
                true,
                &node,
                format!("There are pending pods in node {node:?} when an error occurred: {err}"),
            );
            for &p in pending {
                let name = self
                    .pods
                    .get(p)
                    .map(|pp| pp.pod.pod.name.clone())
                    .unwrap_or_default();
                self.print(true, &node, format!("pod/{name}"));
            }
        }
        self.print(
            true,
            &node,
            format!(
                "error: unable to drain node {node:?} due to error: {err}, continuing command..."
            ),
        );
        self.print(
            true,
            &node,
            String::from("There are pending nodes to be drained:"),
        );
        self.print(true, &node, format!(" {node}"));
    }
}
