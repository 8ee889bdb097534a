//! A small cluster a drain can run against: nodes, pods, PodDisruptionBudgets,
//! workloads and DaemonSets. An evicted or deleted pod gets its `deletionTimestamp` and
//! is gone after its grace period (never, on a node whose kubelet is down); the
//! disruption controller resyncs every budget after each change. Nothing replaces a
//! pod: scripted [`ClusterEvent`]s stand in for controllers (the what-if simulation
//! drives [`super::DrainSession`] with its own world instead).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::session::{DrainSession, DrainWorld, OutputLine, Stream};
use super::{DrainCommand, parse_drain_command};
use crate::disruption::{ApiError, PodDisruptionBudget, PodRecord, Workloads, apply_sync, evict};
use crate::model::Node;
use crate::version::KubeVersion;

/// A change the caller scripts at a given second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterEvent {
    /// A pod appears (a controller's replacement).
    AddPod(PodRecord),
    /// A pod's Ready condition changes.
    SetReady {
        /// namespace
        namespace: String,
        /// name
        name: String,
        /// Ready
        ready: bool,
    },
    /// A pod is removed at once (force delete).
    RemovePod {
        /// namespace
        namespace: String,
        /// name
        name: String,
    },
}

/// The cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaticCluster {
    /// Nodes (`unschedulable` is the cordon).
    pub nodes: Vec<Node>,
    /// Names of nodes whose kubelet is down: their pods never finish terminating.
    pub kubelet_down: Vec<String>,
    /// Pods.
    pub pods: Vec<PodRecord>,
    /// When each terminating pod is gone, by `namespace/name`.
    pub gone_at: Vec<(String, i64)>,
    /// PodDisruptionBudgets.
    pub pdbs: Vec<PodDisruptionBudget>,
    /// Workloads (for the budgets' expected counts).
    pub workloads: Workloads,
    /// Existing DaemonSets as `namespace/name`.
    pub daemon_sets: Vec<String>,
    /// Scripted changes `(second, event)`.
    pub events: Vec<(i64, ClusterEvent)>,
    /// The kubectl / API server release.
    pub version: KubeVersion,
}

impl StaticCluster {
    /// Resyncs every budget (the disruption controller reacting at once).
    pub fn resync(&mut self, now: i64) {
        for pdb in &mut self.pdbs {
            apply_sync(pdb, &self.pods, &self.workloads, now);
        }
    }

    fn pod_index(&self, ns: &str, name: &str) -> Option<usize> {
        self.pods
            .iter()
            .position(|p| p.namespace == ns && p.name == name)
    }

    fn start_deletion(&mut self, idx: usize, now: i64, grace: Option<i64>) {
        let pod = &mut self.pods[idx];
        if pod.deletion_timestamp.is_some() {
            return;
        }
        let grace = grace.unwrap_or(pod.termination_grace_period_seconds).max(0);
        if grace == 0 {
            // A zero grace period removes the object at once.
            self.pods.remove(idx);
            return;
        }
        pod.deletion_timestamp = Some(now);
        pod.ready = false;
        let key = pod.key();
        if !self.kubelet_down.contains(&pod.node_name) {
            self.gone_at.push((key, now + grace));
        }
    }

    /// Applies what is due at or before `now`: pods whose grace period ended, scripted
    /// events; then resyncs the budgets. Returns the next second something is due.
    pub fn advance(&mut self, now: i64) -> Option<i64> {
        let mut changed = false;
        let due: Vec<String> = self
            .gone_at
            .iter()
            .filter(|(_, t)| *t <= now)
            .map(|(k, _)| k.clone())
            .collect();
        if !due.is_empty() {
            self.pods.retain(|p| !due.contains(&p.key()));
            self.gone_at.retain(|(_, t)| *t > now);
            changed = true;
        }
        let mut i = 0;
        while i < self.events.len() {
            if self.events[i].0 <= now {
                let (_, ev) = self.events.remove(i);
                match ev {
                    ClusterEvent::AddPod(p) => self.pods.push(p),
                    ClusterEvent::SetReady {
                        namespace,
                        name,
                        ready,
                    } => {
                        if let Some(j) = self.pod_index(&namespace, &name) {
                            self.pods[j].ready = ready;
                        }
                    }
                    ClusterEvent::RemovePod { namespace, name } => {
                        let key = format!("{namespace}/{name}");
                        self.pods.retain(|p| p.key() != key);
                        self.gone_at.retain(|(k, _)| *k != key);
                    }
                }
                changed = true;
            } else {
                i += 1;
            }
        }
        if changed {
            self.resync(now);
        }
        self.next_due()
    }

    fn next_due(&self) -> Option<i64> {
        self.gone_at
            .iter()
            .map(|(_, t)| *t)
            .chain(self.events.iter().map(|(t, _)| *t))
            .min()
    }
}

impl DrainWorld for StaticCluster {
    fn set_unschedulable(&mut self, node: &str, unschedulable: bool, server_dry_run: bool) {
        if server_dry_run {
            return;
        }
        if let Some(n) = self.nodes.iter_mut().find(|n| n.name == node) {
            n.unschedulable = unschedulable;
        }
    }

    fn is_unschedulable(&self, node: &str) -> bool {
        self.nodes.iter().any(|n| n.name == node && n.unschedulable)
    }

    fn pods_on_node(&self, node: &str) -> Vec<PodRecord> {
        let mut pods: Vec<PodRecord> = self
            .pods
            .iter()
            .filter(|p| p.node_name == node)
            .cloned()
            .collect();
        pods.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        pods
    }

    fn daemon_set_exists(&self, namespace: &str, name: &str) -> bool {
        self.daemon_sets.contains(&format!("{namespace}/{name}"))
    }

    fn evict(
        &mut self,
        namespace: &str,
        name: &str,
        now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let Some(idx) = self.pod_index(namespace, name) else {
            return Err(not_found(name));
        };
        let outcome = evict(&self.pods[idx], &mut self.pdbs, now, dry_run, self.version);
        match outcome {
            crate::disruption::EvictionOutcome::Rejected(e) => Err(e),
            crate::disruption::EvictionOutcome::Evicted { .. } => {
                if !dry_run {
                    self.start_deletion(idx, now, grace_period);
                    self.resync(now);
                }
                Ok(())
            }
        }
    }

    fn delete(
        &mut self,
        namespace: &str,
        name: &str,
        now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let Some(idx) = self.pod_index(namespace, name) else {
            return Err(not_found(name));
        };
        if !dry_run {
            self.start_deletion(idx, now, grace_period);
            self.resync(now);
        }
        Ok(())
    }

    fn get_pod(&self, namespace: &str, name: &str) -> Option<PodRecord> {
        self.pod_index(namespace, name)
            .map(|i| self.pods[i].clone())
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

/// A finished `kubectl drain` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainRun {
    /// Every line with its second and stream.
    pub lines: Vec<OutputLine>,
    /// stdout
    pub stdout: String,
    /// stderr
    pub stderr: String,
    /// 0 or 1; `None` when the drain had not ended by `until`.
    pub exit_code: Option<i32>,
    /// The cluster afterwards.
    pub cluster: StaticCluster,
    /// The second the command ended (or `until`).
    pub ended_at: i64,
}

/// Runs `kubectl drain ARGS` on `cluster` from second 0 until it exits or `until`
/// passes. Budgets are synced once before the command starts.
pub fn run_kubectl_drain<S: AsRef<str>>(
    args: &[S],
    mut cluster: StaticCluster,
    until: i64,
) -> DrainRun {
    let version = cluster.version;
    cluster.resync(0);
    let finish = |lines: Vec<OutputLine>, exit: Option<i32>, cluster, ended_at| {
        let render = |s: Stream| {
            lines
                .iter()
                .filter(|l| l.stream == s)
                .map(|l| format!("{}\n", l.text))
                .collect::<String>()
        };
        DrainRun {
            stdout: render(Stream::Stdout),
            stderr: render(Stream::Stderr),
            lines,
            exit_code: exit,
            cluster,
            ended_at,
        }
    };
    let command: DrainCommand = match parse_drain_command(args, version) {
        Ok(c) => c,
        Err(e) => {
            let lines = e
                .stderr()
                .lines()
                .map(|l| OutputLine {
                    t: 0,
                    stream: Stream::Stderr,
                    text: String::from(l),
                })
                .collect();
            return finish(lines, Some(1), cluster, 0);
        }
    };
    let mut lines: Vec<OutputLine> = command
        .notices
        .iter()
        .map(|n| OutputLine {
            t: 0,
            stream: Stream::Stderr,
            text: n.clone(),
        })
        .collect();
    let names = match command.resolve_nodes(&cluster.nodes) {
        Ok(n) => n,
        Err(e) => {
            lines.extend(e.lines().map(|l| OutputLine {
                t: 0,
                stream: Stream::Stderr,
                text: String::from(l),
            }));
            return finish(lines, Some(1), cluster, 0);
        }
    };
    let mut session = DrainSession::new(command, names);
    let mut now = 0;
    loop {
        let world_next = cluster.advance(now);
        let wake = session.step(&mut cluster, now);
        let Some(wake) = wake else { break };
        let next = match world_next {
            Some(w) if w > now => w.min(wake),
            _ => wake,
        };
        let next = next.max(now + 1);
        if next > until {
            now = until;
            break;
        }
        now = next;
    }
    lines.extend(session.output().iter().cloned());
    let exit = session.exit_code();
    finish(lines, exit, cluster, now)
}
