//! `RunDrain` as a clock-driven state machine (k8s.io/kubectl `pkg/cmd/drain/drain.go`
//! `RunDrain`, `deleteOrEvictPodsSimple`; `pkg/drain/drain.go` `GetPodsForDeletion`,
//! `evictPods`, `deletePods`, `waitForDelete`).

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::filters::{FilterContext, aggregate_error, filter_pods, should_skip_pod};
use super::{
    DUE_TO_ERROR_SPACE_MINOR, DrainCommand, EVICT_RETRY_SECONDS, WAIT_FOR_DELETE_POLL_SECONDS,
    go_duration_string,
};
use crate::disruption::{ApiError, PodRecord};
use crate::kubectl::command::DryRunStrategy;
use crate::validation::go_quote;

/// What the drain asks of the cluster (the API server and what stands behind it).
pub trait DrainWorld {
    /// Sets `spec.unschedulable` of a node (the cordon patch); not called on a client
    /// dry run.
    fn set_unschedulable(&mut self, node: &str, unschedulable: bool, server_dry_run: bool);
    /// Whether a node is unschedulable now.
    fn is_unschedulable(&self, node: &str) -> bool;
    /// The pods bound to a node (`spec.nodeName`), all namespaces, including terminating
    /// ones, in namespace/name order.
    fn pods_on_node(&self, node: &str) -> Vec<PodRecord>;
    /// Whether DaemonSet `namespace/name` exists.
    fn daemon_set_exists(&self, namespace: &str, name: &str) -> bool;
    /// `POST pods/<name>/eviction` at second `now` with the given `gracePeriodSeconds`
    /// (`None`: the pod's own). `Err` with code 404 when the pod is gone.
    fn evict(
        &mut self,
        namespace: &str,
        name: &str,
        now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError>;
    /// `DELETE pods/<name>` (`--disable-eviction`).
    fn delete(
        &mut self,
        namespace: &str,
        name: &str,
        now: i64,
        grace_period: Option<i64>,
        dry_run: bool,
    ) -> Result<(), ApiError>;
    /// `GET pods/<name>`: `None` when not found.
    fn get_pod(&self, namespace: &str, name: &str) -> Option<PodRecord>;
}

/// stdout or stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// stdout
    Stdout,
    /// stderr
    Stderr,
}

/// One line kubectl prints (without the newline), and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLine {
    /// The second it is printed.
    pub t: i64,
    /// Where.
    pub stream: Stream,
    /// The text.
    pub text: String,
}

/// How a node's drain failed, for the final `CheckErr`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum NodeFailure {
    /// An aggregate (filter errors, eviction errors): printed one per line.
    Aggregate(Vec<String>),
    /// A single error (the delete path).
    Single(String),
}

impl NodeFailure {
    fn message(&self) -> String {
        match self {
            Self::Aggregate(errs) => aggregate_error(errs),
            Self::Single(e) => e.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum TaskState {
    /// Next eviction attempt at this second.
    Evicting(i64),
    /// Next wait-for-delete poll at this second.
    Waiting(i64),
    Done,
}

#[derive(Clone, Debug)]
struct PodTask {
    pod: PodRecord,
    state: TaskState,
    /// An eviction of this pod was refused at least once.
    retried: bool,
}

#[derive(Clone, Debug)]
enum Phase {
    /// Not started.
    Start,
    /// Draining `node`: evictions (or deletions) under way since `t0`.
    Draining {
        node: String,
        t0: i64,
        tasks: Vec<PodTask>,
        errors: Vec<String>,
        using_eviction: bool,
    },
    /// Between nodes.
    NextNode,
    /// Finished.
    Done,
}

/// A running `kubectl drain`.
#[derive(Clone, Debug)]
pub struct DrainSession {
    command: DrainCommand,
    nodes: VecDeque<String>,
    phase: Phase,
    failed: Vec<(String, NodeFailure)>,
    output: Vec<OutputLine>,
    exit_code: Option<i32>,
}

impl DrainSession {
    /// A drain of `nodes` (from [`DrainCommand::resolve_nodes`]).
    pub fn new(command: DrainCommand, nodes: Vec<String>) -> Self {
        Self {
            command,
            nodes: nodes.into(),
            phase: Phase::Start,
            failed: Vec::new(),
            output: Vec::new(),
            exit_code: None,
        }
    }

    /// Everything printed so far, in order.
    pub fn output(&self) -> &[OutputLine] {
        &self.output
    }

    /// The exit code once finished.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit_code
    }

    /// True once kubectl has exited.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    fn out(&mut self, t: i64, stream: Stream, text: String) {
        self.output.push(OutputLine { t, stream, text });
    }

    /// The second at which the session next needs [`DrainSession::step`]; `None` once
    /// finished.
    pub fn next_wake(&self) -> Option<i64> {
        match &self.phase {
            Phase::Draining { tasks, .. } => tasks
                .iter()
                .filter_map(|t| match t.state {
                    TaskState::Evicting(at) | TaskState::Waiting(at) => Some(at),
                    TaskState::Done => None,
                })
                .min(),
            Phase::Done => None,
            Phase::Start | Phase::NextNode => Some(i64::MIN),
        }
    }

    /// Advances the drain at second `now`: does everything due at or before `now` and
    /// returns the next second it needs, or `None` when kubectl has exited. Call it
    /// after the world has applied its own changes for `now`.
    pub fn step(&mut self, world: &mut dyn DrainWorld, now: i64) -> Option<i64> {
        loop {
            match &mut self.phase {
                Phase::Start => {
                    let names: Vec<String> = self.nodes.iter().cloned().collect();
                    self.cordon(world, &names, now);
                    self.phase = Phase::NextNode;
                }
                Phase::NextNode => match self.nodes.pop_front() {
                    Some(node) => self.start_node(world, node, now),
                    None => {
                        self.finish(now);
                        return None;
                    }
                },
                Phase::Draining { .. } => {
                    self.advance_tasks(world, now);
                    if let Phase::Draining { tasks, .. } = &self.phase
                        && tasks.iter().any(|t| t.state != TaskState::Done)
                    {
                        return self.next_wake();
                    }
                    self.end_node(world, now);
                }
                Phase::Done => return None,
            }
        }
    }

    fn cordon(&mut self, world: &mut dyn DrainWorld, names: &[String], now: i64) {
        let dry = self.command.dry_run;
        // Judged on each node's state before the command (the builder fetched them all
        // before the first patch), so a node named twice is reported twice alike.
        let before: Vec<bool> = names.iter().map(|n| world.is_unschedulable(n)).collect();
        for (name, was) in names.iter().zip(before) {
            let op = if was {
                "already cordoned"
            } else {
                if dry != DryRunStrategy::Client {
                    world.set_unschedulable(name, true, dry == DryRunStrategy::Server);
                }
                "cordoned"
            };
            self.out(
                now,
                Stream::Stdout,
                format!("node/{name} {op}{}", dry.suffix()),
            );
        }
    }

    /// `GetPodsForDeletion`: the node's pods (restricted by `--pod-selector`), filtered.
    fn list(
        &self,
        world: &dyn DrainWorld,
        node: &str,
        now: i64,
    ) -> Result<super::PodDeleteList, (super::PodDeleteList, Vec<String>)> {
        let pods: Vec<PodRecord> = world
            .pods_on_node(node)
            .into_iter()
            .filter(|p| {
                self.command
                    .options
                    .pod_selector
                    .as_ref()
                    .is_none_or(|s| s.matches(&p.labels))
            })
            .collect();
        let exists = |ns: &str, name: &str| world.daemon_set_exists(ns, name);
        let ctx = FilterContext {
            now,
            daemon_set_exists: &exists,
            version: self.command.version,
        };
        filter_pods(&pods, &self.command.options.filter, &ctx)
    }

    fn start_node(&mut self, world: &mut dyn DrainWorld, node: String, now: i64) {
        let list = match self.list(world, &node, now) {
            Ok(list) => list,
            Err((_, errors)) => {
                self.fail_node(node, NodeFailure::Aggregate(errors), now);
                self.phase = Phase::NextNode;
                return;
            }
        };
        let warnings = list.warnings();
        if !warnings.is_empty() {
            self.out(now, Stream::Stderr, format!("Warning: {warnings}"));
        }
        let pods: Vec<PodRecord> = list.pods().into_iter().cloned().collect();
        let dry = self.command.dry_run;
        if dry == DryRunStrategy::Client {
            for p in &pods {
                self.out(
                    now,
                    Stream::Stdout,
                    format!("evicting pod {}/{} (dry run)", p.namespace, p.name),
                );
            }
            self.drained(&node, now);
            self.phase = Phase::NextNode;
            return;
        }
        if pods.is_empty() {
            self.drained(&node, now);
            self.phase = Phase::NextNode;
            return;
        }
        let using_eviction = !self.command.options.disable_eviction;
        let grace = (self.command.options.grace_period_seconds >= 0)
            .then_some(self.command.options.grace_period_seconds);
        let mut tasks: Vec<PodTask> = pods
            .into_iter()
            .map(|pod| PodTask {
                pod,
                state: TaskState::Evicting(now),
                retried: false,
            })
            .collect();
        let mut errors = Vec::new();
        if !using_eviction {
            // deletePods: every DELETE first, in order; the first error ends the drain
            // of the node.
            for task in &mut tasks {
                let r = world.delete(
                    &task.pod.namespace,
                    &task.pod.name,
                    now,
                    grace,
                    dry == DryRunStrategy::Server,
                );
                match r {
                    Err(e) if e.code != 404 => {
                        self.fail_node(node, NodeFailure::Single(e.message), now);
                        self.phase = Phase::NextNode;
                        return;
                    }
                    _ => task.state = TaskState::Waiting(now),
                }
            }
            if dry == DryRunStrategy::Server && self.command.version.at_least(37) {
                self.drained(&node, now);
                self.phase = Phase::NextNode;
                return;
            }
            errors.clear();
        }
        self.phase = Phase::Draining {
            node,
            t0: now,
            tasks,
            errors,
            using_eviction,
        };
    }

    fn advance_tasks(&mut self, world: &mut dyn DrainWorld, now: i64) {
        let version = self.command.version;
        let dry = self.command.dry_run;
        let timeout_ms = self.command.options.timeout_ms;
        let skip = self
            .command
            .options
            .filter
            .skip_wait_for_delete_timeout_seconds;
        let grace = (self.command.options.grace_period_seconds >= 0)
            .then_some(self.command.options.grace_period_seconds);
        let Phase::Draining {
            t0,
            tasks,
            errors,
            using_eviction,
            ..
        } = &mut self.phase
        else {
            return;
        };
        let t0 = *t0;
        let timed_out = |t: i64| timeout_ms > 0 && (t - t0) * 1000 >= timeout_ms;
        let timeout_text = go_duration_string(timeout_ms);
        let mut lines: Vec<OutputLine> = Vec::new();
        let mut line = |stream, text| {
            lines.push(OutputLine {
                t: now,
                stream,
                text,
            })
        };
        // Repeat until nothing more is due at `now` (a successful eviction polls at once).
        loop {
            let mut progressed = false;
            for task in tasks.iter_mut() {
                let (ns, name) = (task.pod.namespace.clone(), task.pod.name.clone());
                match task.state {
                    TaskState::Evicting(at) if at <= now => {
                        progressed = true;
                        // From 1.35 the loop re-reads the pod after the retry delay and
                        // later waits on that copy (its uid); before, a flag that was
                        // never set kept the original.
                        if task.retried
                            && version.at_least(35)
                            && let Some(fresh) = world.get_pod(&ns, &name)
                        {
                            task.pod = fresh;
                        }
                        let suffix = if dry == DryRunStrategy::Server {
                            " (server dry run)"
                        } else {
                            ""
                        };
                        line(Stream::Stdout, format!("evicting pod {ns}/{name}{suffix}"));
                        if timed_out(now) {
                            errors.push(format!(
                                "error when evicting pods/{} -n {}: global timeout reached: {timeout_text}",
                                go_quote(&name),
                                go_quote(&ns)
                            ));
                            task.state = TaskState::Done;
                            continue;
                        }
                        match world.evict(&ns, &name, now, grace, dry == DryRunStrategy::Server) {
                            Ok(()) if dry == DryRunStrategy::Server => {
                                task.state = TaskState::Done;
                            }
                            Ok(()) => task.state = TaskState::Waiting(now),
                            Err(e) if e.code == 404 => task.state = TaskState::Done,
                            Err(e) if e.code == 429 => {
                                line(
                                    Stream::Stderr,
                                    format!(
                                        "error when evicting pods/{} -n {} (will retry after {}s): {}",
                                        go_quote(&name),
                                        go_quote(&ns),
                                        EVICT_RETRY_SECONDS,
                                        e.message
                                    ),
                                );
                                task.retried = true;
                                task.state = TaskState::Evicting(now + EVICT_RETRY_SECONDS);
                            }
                            Err(e) => {
                                errors.push(format!(
                                    "error when evicting pods/{} -n {}: {}",
                                    go_quote(&name),
                                    go_quote(&ns),
                                    e.message
                                ));
                                task.state = TaskState::Done;
                            }
                        }
                    }
                    TaskState::Waiting(at) if at <= now => {
                        progressed = true;
                        let current = world.get_pod(&ns, &name);
                        let gone = match &current {
                            None => true,
                            Some(p) => p.uid != task.pod.uid,
                        };
                        if gone {
                            let verb = if *using_eviction {
                                "evicted"
                            } else {
                                "deleted"
                            };
                            line(Stream::Stdout, format!("pod/{name} {verb}"));
                            task.state = TaskState::Done;
                        } else if current
                            .as_ref()
                            .is_some_and(|p| should_skip_pod(p, skip, now))
                        {
                            line(
                                Stream::Stdout,
                                format!(
                                    "pod {} has DeletionTimestamp older than {skip} seconds, skipping",
                                    go_quote(&name)
                                ),
                            );
                            task.state = TaskState::Done;
                        } else if *using_eviction && timed_out(now) {
                            let cause = if version.at_least(32) {
                                String::from("context deadline exceeded")
                            } else {
                                format!("global timeout reached: {timeout_text}")
                            };
                            errors.push(if version.at_least(27) {
                                format!(
                                    "error when waiting for pod {} in namespace {} to terminate: {cause}",
                                    go_quote(&name),
                                    go_quote(&ns)
                                )
                            } else {
                                format!(
                                    "error when waiting for pod {} terminating: {cause}",
                                    go_quote(&name)
                                )
                            });
                            task.state = TaskState::Done;
                        } else {
                            task.state = TaskState::Waiting(now + WAIT_FOR_DELETE_POLL_SECONDS);
                        }
                    }
                    _ => {}
                }
            }
            if !progressed {
                break;
            }
        }
        // deletePods waits for all pods together, bounded by --timeout.
        if !*using_eviction && timed_out(now) && tasks.iter().any(|t| t.state != TaskState::Done) {
            errors.push(String::from(if version.at_least(32) {
                "context deadline exceeded"
            } else {
                "timed out waiting for the condition"
            }));
            for t in tasks.iter_mut() {
                t.state = TaskState::Done;
            }
        }
        self.output.extend(lines);
    }

    fn end_node(&mut self, world: &mut dyn DrainWorld, now: i64) {
        let Phase::Draining {
            node,
            errors,
            using_eviction,
            ..
        } = core::mem::replace(&mut self.phase, Phase::NextNode)
        else {
            return;
        };
        if errors.is_empty() {
            self.drained(&node, now);
            return;
        }
        let failure = if using_eviction {
            NodeFailure::Aggregate(errors)
        } else {
            NodeFailure::Single(errors.into_iter().next().unwrap_or_default())
        };
        // deleteOrEvictPodsSimple lists the node again and names what is left.
        let pending: Vec<String> = match self.list(world, &node, now) {
            Ok(list) => list.pods().iter().map(|p| p.name.clone()).collect(),
            Err((list, _)) => list.pods().iter().map(|p| p.name.clone()).collect(),
        };
        if !pending.is_empty() {
            self.out(
                now,
                Stream::Stderr,
                format!(
                    "There are pending pods in node {} when an error occurred: {}",
                    go_quote(&node),
                    failure.message()
                ),
            );
            for p in pending {
                self.out(now, Stream::Stderr, format!("pod/{p}"));
            }
        }
        self.fail_node(node, failure, now);
    }

    fn drained(&mut self, node: &str, now: i64) {
        let suffix = self.command.dry_run.suffix();
        self.out(now, Stream::Stdout, format!("node/{node} drained{suffix}"));
    }

    fn fail_node(&mut self, node: String, failure: NodeFailure, now: i64) {
        let sep = if self.command.version.at_least(DUE_TO_ERROR_SPACE_MINOR) {
            " "
        } else {
            ""
        };
        self.out(
            now,
            Stream::Stderr,
            format!(
                "error: unable to drain node {} due to error:{sep}{}, continuing command...",
                go_quote(&node),
                failure.message()
            ),
        );
        self.failed.push((node, failure));
    }

    fn finish(&mut self, now: i64) {
        self.phase = Phase::Done;
        if self.failed.is_empty() {
            self.exit_code = Some(0);
            return;
        }
        self.out(
            now,
            Stream::Stderr,
            String::from("There are pending nodes to be drained:"),
        );
        let names: Vec<String> = self.failed.iter().map(|(n, _)| n.clone()).collect();
        for n in names {
            self.out(now, Stream::Stderr, format!(" {n}"));
        }
        // cmdutil.CheckErr(utilerrors.NewAggregate(fatal)): an aggregate of one is
        // unwrapped; an aggregate prints one error per line without `error: `.
        let lines: Vec<String> = match self.failed.as_slice() {
            [(_, NodeFailure::Aggregate(errs))] => errs.clone(),
            [(_, NodeFailure::Single(e))] => alloc::vec![if e.starts_with("error: ") {
                e.clone()
            } else {
                format!("error: {e}")
            }],
            many => many.iter().map(|(_, f)| f.message()).collect(),
        };
        for l in lines {
            self.out(now, Stream::Stderr, l);
        }
        self.exit_code = Some(1);
    }
}
