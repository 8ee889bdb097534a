//! `kubectl drain`, `kubectl cordon` and `kubectl uncordon` (k8s.io/kubectl
//! `pkg/cmd/drain/drain.go` and `pkg/drain`), per release from 1.25.
//!
//! * [`filters`]: the pod filters and their warning and error texts.
//! * [`parse_drain_command`] / [`parse_cordon_command`]: flags and arguments
//!   (`Complete`), with kubectl's errors.
//! * [`run_cordon`]: `RunCordonOrUncordon` (`node/x cordoned`, `already cordoned`, ...).
//! * [`DrainSession`]: `RunDrain` as a clock-driven state machine over a [`DrainWorld`]
//!   (the API server as the caller models it): cordon, list and filter each node's pods,
//!   evict them all in parallel, retry refused evictions every 5 s, poll every 1 s until
//!   each pod is gone, then `node/x drained`, or the failure lines. The caller advances
//!   the clock and calls [`DrainSession::step`] at the seconds it asks for.
//! * [`world::StaticCluster`]: a small [`DrainWorld`] (pods terminate after their grace
//!   period, PodDisruptionBudgets resynced after every change) and
//!   [`run_kubectl_drain`], which runs a whole drain on it.
//!
//! Releases differ in: the unmanaged-pod error text ([`filters::unmanaged_fatal`]), the
//! DaemonSet check (kind only before 1.34), the space after `due to error:` (from 1.31),
//! the deprecated `--delete-local-data` flag (until 1.30), the wait-for-delete error texts
//! (1.27, 1.32) and `eviction failed` / `deletion failed` (from 1.29, only on a failed
//! GET, which this model never produces).
//!
//! Simplifications: evictions of one node run in parallel upstream, so lines of different
//! pods printed in the same second come in an order that varies between runs; here they
//! follow the pod list (pods in namespace/name order). Timeouts fire at whole seconds:
//! a retry or poll at or after `--timeout` has elapsed sees the deadline. The eviction
//! API is always available (`policy/v1`); `-v=2` lines are not printed.

pub mod filters;
pub mod session;
pub mod world;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use filters::{FilterOptions, PodDeleteList, PodDeleteStatus, filter_pod, filter_pods};
pub use session::{DrainSession, DrainWorld, OutputLine, Stream};
pub use world::{DrainRun, StaticCluster, run_kubectl_drain};

use super::command::{
    CommandError, DryRunStrategy, FlagDef, FlagKind, FlagUse, NodeTarget, dry_run_strategy, flag,
    parse_flags_excluding, visit_order,
};
use super::selector::LabelSelector;
use crate::model::Node;
use crate::validation::go_quote;
use crate::version::KubeVersion;

/// Last release that still accepts the deprecated `--delete-local-data` flag.
pub const DELETE_LOCAL_DATA_LAST_MINOR: u16 = 30;

/// Release from which `unable to drain node "x" due to error: <err>` has a space after
/// the colon (1.25 to 1.30 printed `error:<err>`).
pub const DUE_TO_ERROR_SPACE_MINOR: u16 = 31;

/// `EvictErrorRetryDelay`: seconds between two eviction attempts of a pod after a 429.
pub const EVICT_RETRY_SECONDS: i64 = 5;

/// The interval of `waitForDelete`'s poll.
pub const WAIT_FOR_DELETE_POLL_SECONDS: i64 = 1;

const DRAIN_FLAGS: &[FlagDef] = &[
    flag("force", None, FlagKind::Bool, FlagUse::Extra),
    flag("ignore-daemonsets", None, FlagKind::Bool, FlagUse::Extra),
    flag("delete-emptydir-data", None, FlagKind::Bool, FlagUse::Extra),
    flag("delete-local-data", None, FlagKind::Bool, FlagUse::Extra),
    flag("grace-period", None, FlagKind::Value, FlagUse::Extra),
    flag("timeout", None, FlagKind::Value, FlagUse::Extra),
    flag("pod-selector", None, FlagKind::Value, FlagUse::Extra),
    flag("disable-eviction", None, FlagKind::Bool, FlagUse::Extra),
    flag(
        "skip-wait-for-delete-timeout",
        None,
        FlagKind::Value,
        FlagUse::Extra,
    ),
    flag("chunk-size", None, FlagKind::Value, FlagUse::Extra),
];

const CORDON_FLAGS: &[FlagDef] = &[];

/// Which of the three commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeCommand {
    /// `kubectl drain`
    Drain,
    /// `kubectl cordon`
    Cordon,
    /// `kubectl uncordon`
    Uncordon,
}

impl NodeCommand {
    /// `drain`, `cordon` or `uncordon`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Drain => "drain",
            Self::Cordon => "cordon",
            Self::Uncordon => "uncordon",
        }
    }
}

/// A command-level error with the command it belongs to, for kubectl's help hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainCommandError {
    /// The command.
    pub command: NodeCommand,
    /// The error.
    pub error: CommandError,
}

impl DrainCommandError {
    /// What kubectl writes to stderr.
    pub fn stderr(&self) -> String {
        let name = self.command.name();
        match &self.error {
            CommandError::Flag(m) => {
                format!("error: {m}\nSee 'kubectl {name} --help' for usage.\n")
            }
            CommandError::Usage(m) => {
                let m = if m.starts_with("error: ") {
                    m.clone()
                } else {
                    format!("error: {m}")
                };
                format!("{m}\nSee 'kubectl {name} -h' for help and examples\n")
            }
            CommandError::Plain(m) | CommandError::Unsupported(m) => {
                if m.starts_with("error: ") || m.starts_with("Error from server") {
                    format!("{m}\n")
                } else {
                    format!("error: {m}\n")
                }
            }
        }
    }
}

/// The drain flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainOptions {
    /// The filter flags.
    pub filter: FilterOptions,
    /// `--disable-eviction`: DELETE instead of the Eviction API (no budgets).
    pub disable_eviction: bool,
    /// `--grace-period` (default -1: the pod's own).
    pub grace_period_seconds: i64,
    /// `--timeout` in milliseconds (0: none).
    pub timeout_ms: i64,
    /// `--pod-selector`, parsed.
    pub pod_selector: Option<LabelSelector>,
}

impl Default for DrainOptions {
    fn default() -> Self {
        Self {
            filter: FilterOptions::default(),
            disable_eviction: false,
            grace_period_seconds: -1,
            timeout_ms: 0,
            pod_selector: None,
        }
    }
}

/// A parsed `kubectl drain`, `cordon` or `uncordon`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainCommand {
    /// Which command.
    pub command: NodeCommand,
    /// The nodes: names (in order) or `-l`.
    pub target: NodeTarget,
    /// The drain flags (defaults for cordon and uncordon).
    pub options: DrainOptions,
    /// `--dry-run`
    pub dry_run: DryRunStrategy,
    /// Lines pflag prints to stderr before anything else (deprecated flags).
    pub notices: Vec<String>,
    /// klog warnings (deprecated `--dry-run` forms), not part of stderr.
    pub warnings: Vec<String>,
    /// The kubectl release.
    pub version: KubeVersion,
}

/// Go's `time.ParseDuration`, in milliseconds (sub-millisecond parts are dropped, as
/// `Duration.Milliseconds` does). src/time/format.go ParseDuration, leadingInt and
/// leadingFraction: whole numbers in unsigned 64-bit nanoseconds, only the fraction
/// through a float multiplication, so no decimal-to-float parsing is involved.
pub fn parse_go_duration(s: &str) -> Result<i64, String> {
    const LIMIT: u64 = 1 << 63;
    let err = || format!("time: invalid duration {}", go_quote(s));
    let b = s.as_bytes();
    let mut i = 0;
    let mut neg = false;
    if let Some(&c @ (b'-' | b'+')) = b.first() {
        neg = c == b'-';
        i = 1;
    }
    if &s[i..] == "0" {
        return Ok(0);
    }
    if i == b.len() {
        return Err(err());
    }
    let mut d: u64 = 0;
    while i < b.len() {
        if !(b[i] == b'.' || b[i].is_ascii_digit()) {
            return Err(err());
        }
        // leadingInt: an overflow is an error.
        let int_start = i;
        let mut v: u64 = 0;
        while let Some(&c) = b.get(i)
            && c.is_ascii_digit()
        {
            if v > LIMIT / 10 {
                return Err(err());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(err());
            }
            i += 1;
        }
        let pre = i != int_start;
        // leadingFraction: digits past what fits only stop adding precision.
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if b.get(i) == Some(&b'.') {
            i += 1;
            let frac_start = i;
            let mut overflow = false;
            while let Some(&c) = b.get(i)
                && c.is_ascii_digit()
            {
                i += 1;
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = i != frac_start;
        }
        if !pre && !post {
            return Err(err());
        }
        // The unit runs to the next digit or '.' (both ASCII, so a char boundary).
        let unit_start = i;
        while let Some(&c) = b.get(i)
            && !(c == b'.' || c.is_ascii_digit())
        {
            i += 1;
        }
        let unit = &s[unit_start..i];
        let ns: u64 = match unit {
            "" => return Err(format!("time: missing unit in duration {}", go_quote(s))),
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    go_quote(unit),
                    go_quote(s)
                ));
            }
        };
        if v > LIMIT / ns {
            return Err(err());
        }
        v *= ns;
        if f > 0 {
            // Go: v += uint64(float64(f) * (float64(unit) / scale))
            v += (f as f64 * (ns as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(err());
            }
        }
        // Go's uint64 addition wraps (only 2^63 + 2^63 can): kept as it is.
        d = d.wrapping_add(v);
        if d > LIMIT {
            return Err(err());
        }
    }
    if !neg && d > LIMIT - 1 {
        return Err(err());
    }
    let ms = (d / 1_000_000) as i64;
    Ok(if neg { -ms } else { ms })
}

/// Go's `time.Duration.String()` for a whole number of milliseconds (`5s`, `1m30s`,
/// `1h0m0s`, `500ms`, `0s`).
pub fn go_duration_string(ms: i64) -> String {
    if ms == 0 {
        return String::from("0s");
    }
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    if ms < 1000 {
        return format!("{sign}{ms}ms");
    }
    let secs = ms / 1000;
    let frac = ms % 1000;
    let mut s_part = format!("{}", secs % 60);
    if frac != 0 {
        let f = format!("{frac:03}");
        s_part.push('.');
        s_part.push_str(f.trim_end_matches('0'));
    }
    let mins = secs / 60;
    if mins == 0 {
        return format!("{sign}{s_part}s");
    }
    let hours = mins / 60;
    if hours == 0 {
        return format!("{sign}{}m{s_part}s", mins % 60);
    }
    format!("{sign}{hours}h{}m{s_part}s", mins % 60)
}

/// pflag's `strconv.ParseInt` error for an int flag.
fn int_flag(name: &str, value: &str) -> Result<i64, CommandError> {
    let parsed = {
        let (neg, digits) = match value.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, value.strip_prefix('+').unwrap_or(value)),
        };
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse::<i64>().ok().map(|v| if neg { -v } else { v })
        } else {
            None
        }
    };
    parsed.ok_or_else(|| {
        CommandError::Flag(format!(
            "invalid argument {} for {} flag: strconv.ParseInt: parsing {}: invalid syntax",
            go_quote(value),
            go_quote(&format!("--{name}")),
            go_quote(value)
        ))
    })
}

/// Parses the arguments of `kubectl drain` (what follows `drain`): pflag, then
/// `Complete`'s checks in order (no node and no `-l`: `USAGE: drain NODE [flags]`; both:
/// `error: cannot specify both a node name and a --selector option`; `--dry-run`;
/// `--pod-selector`).
pub fn parse_drain_command<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
) -> Result<DrainCommand, DrainCommandError> {
    parse_node_command(NodeCommand::Drain, args, version)
}

/// Parses `kubectl cordon` (`cordon: true`) or `kubectl uncordon` arguments.
pub fn parse_cordon_command<S: AsRef<str>>(
    args: &[S],
    cordon: bool,
    version: KubeVersion,
) -> Result<DrainCommand, DrainCommandError> {
    let command = if cordon {
        NodeCommand::Cordon
    } else {
        NodeCommand::Uncordon
    };
    parse_node_command(command, args, version)
}

fn parse_node_command<S: AsRef<str>>(
    command: NodeCommand,
    args: &[S],
    version: KubeVersion,
) -> Result<DrainCommand, DrainCommandError> {
    let fail = |error| DrainCommandError { command, error };
    let extra = if command == NodeCommand::Drain {
        DRAIN_FLAGS
    } else {
        CORDON_FLAGS
    };
    let flags = parse_flags_excluding(args, version, extra, command.name(), &["all", "overwrite"])
        .map_err(fail)?;
    let mut notices = Vec::new();
    if flags.extra.contains_key("delete-local-data") {
        if version.at_least(DELETE_LOCAL_DATA_LAST_MINOR + 1) {
            return Err(fail(CommandError::Flag(String::from(
                "unknown flag: --delete-local-data",
            ))));
        }
        notices.push(String::from(
            "Flag --delete-local-data has been deprecated, This option is deprecated and will be deleted. Use --delete-emptydir-data.",
        ));
    }
    let use_ = format!("{} NODE", command.name());
    if flags.positional.is_empty() && flags.selector.is_empty() {
        // `!cmd.Flags().Changed("selector")`; an explicitly empty -l passes here.
        let selector_given = args.iter().any(|a| {
            let a = a.as_ref();
            a == "-l" || a.starts_with("-l") || a == "--selector" || a.starts_with("--selector=")
        });
        if !selector_given {
            return Err(fail(CommandError::Usage(format!("USAGE: {use_} [flags]"))));
        }
    }
    if !flags.positional.is_empty() && !flags.selector.is_empty() {
        return Err(fail(CommandError::Usage(String::from(
            "error: cannot specify both a node name and a --selector option",
        ))));
    }
    let mut warnings = Vec::new();
    let dry_run = dry_run_strategy(flags.dry_run.as_deref(), &mut warnings).map_err(fail)?;
    let get = |k: &str| flags.extra.get(k).map(String::as_str);
    let truth = |k: &str| get(k) == Some("true");
    let mut options = DrainOptions {
        filter: FilterOptions {
            force: truth("force"),
            ignore_daemonsets: truth("ignore-daemonsets"),
            // Both flags write the same field; the last one parsed wins.
            delete_emptydir_data: truth("delete-emptydir-data") || truth("delete-local-data"),
            skip_wait_for_delete_timeout_seconds: 0,
        },
        disable_eviction: truth("disable-eviction"),
        ..DrainOptions::default()
    };
    if let Some(v) = get("grace-period") {
        options.grace_period_seconds = int_flag("grace-period", v).map_err(fail)?;
    }
    if let Some(v) = get("skip-wait-for-delete-timeout") {
        options.filter.skip_wait_for_delete_timeout_seconds =
            int_flag("skip-wait-for-delete-timeout", v).map_err(fail)?;
    }
    if let Some(v) = get("chunk-size") {
        int_flag("chunk-size", v).map_err(fail)?;
    }
    if let Some(v) = get("timeout") {
        options.timeout_ms = parse_go_duration(v).map_err(|e| {
            fail(CommandError::Flag(format!(
                "invalid argument {} for \"--timeout\" flag: {e}",
                go_quote(v)
            )))
        })?;
    }
    if let Some(v) = get("pod-selector").filter(|v| !v.is_empty()) {
        options.pod_selector =
            Some(LabelSelector::parse_for_version(v, version).map_err(|_| {
                fail(CommandError::Plain(String::from(
                    "--pod-selector=<pod_selector> must be a valid label selector",
                )))
            })?);
    }
    let selector = flags.selector.trim();
    let target = if !selector.is_empty() {
        NodeTarget::Selector(
            LabelSelector::parse_for_version(selector, version)
                .map_err(|e| fail(CommandError::Plain(e)))?,
        )
    } else if flags.positional.is_empty() {
        // `-l ""`: Complete accepts it (the flag was given), the builder then has a type
        // and nothing to select.
        return Err(fail(CommandError::Plain(String::from(
            "resource(s) were provided, but no name was specified",
        ))));
    } else {
        let mut names = Vec::new();
        for arg in &flags.positional {
            // ResourceNames("nodes", args...): `node/x` and `nodes/x` name a node too.
            let name = match arg.split_once('/') {
                Some((kind, name)) if ["node", "nodes", "no"].contains(&kind) => name,
                Some((kind, _)) => {
                    return Err(fail(CommandError::Plain(format!(
                        "the server doesn't have a resource type {}",
                        go_quote(kind)
                    ))));
                }
                None => arg.as_str(),
            };
            names.push(String::from(name));
        }
        NodeTarget::Names(names)
    };
    Ok(DrainCommand {
        command,
        target,
        options,
        dry_run,
        notices,
        warnings,
        version,
    })
}

impl DrainCommand {
    /// The nodes to visit, in order (the builder's `Visit`); `Err` is kubectl's output
    /// for a missing node: `Error from server (NotFound): nodes "x" not found`, before
    /// anything is changed.
    pub fn resolve_nodes(&self, nodes: &[Node]) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for (name, index) in visit_order(&self.target, nodes) {
            if index.is_none() {
                return Err(format!(
                    "Error from server (NotFound): nodes {} not found\n",
                    go_quote(&name)
                ));
            }
            out.push(name);
        }
        Ok(out)
    }
}

/// `RunCordonOrUncordon(desired)` on `nodes` (changed in place unless a client dry run):
/// `node/x cordoned`, `node/x already cordoned` (and `uncordoned` forms), each with the
/// dry-run suffix. Returns stdout.
pub fn cordon_nodes(
    names: &[String],
    nodes: &mut [Node],
    desired: bool,
    dry_run: DryRunStrategy,
) -> String {
    let mut out = String::new();
    // The builder fetched every node before the first patch, so a node named twice is
    // judged twice on its state before the command.
    let before: Vec<Option<bool>> = names
        .iter()
        .map(|name| {
            nodes
                .iter()
                .find(|n| &n.name == name)
                .map(|n| n.unschedulable)
        })
        .collect();
    for (name, was) in names.iter().zip(before) {
        let (Some(node), Some(was)) = (nodes.iter_mut().find(|n| &n.name == name), was) else {
            continue;
        };
        let op = if was == desired {
            if desired {
                "already cordoned"
            } else {
                "already uncordoned"
            }
        } else {
            if dry_run.persists() {
                node.unschedulable = desired;
            }
            if desired { "cordoned" } else { "uncordoned" }
        };
        out.push_str(&format!("node/{name} {op}{}\n", dry_run.suffix()));
    }
    out
}

/// The result of `kubectl cordon` / `uncordon`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CordonRun {
    /// The nodes afterwards.
    pub nodes: Vec<Node>,
    /// stdout
    pub stdout: String,
    /// stderr
    pub stderr: String,
    /// 0 or 1
    pub exit_code: i32,
}

/// Runs `kubectl cordon ARGS` (`cordon: true`) or `kubectl uncordon ARGS` on `nodes`.
pub fn run_cordon<S: AsRef<str>>(
    args: &[S],
    cordon: bool,
    nodes: &[Node],
    version: KubeVersion,
) -> CordonRun {
    let mut state = nodes.to_vec();
    let fail = |stderr: String| CordonRun {
        nodes: nodes.to_vec(),
        stdout: String::new(),
        stderr,
        exit_code: 1,
    };
    let cmd = match parse_cordon_command(args, cordon, version) {
        Ok(c) => c,
        Err(e) => return fail(e.stderr()),
    };
    let names = match cmd.resolve_nodes(nodes) {
        Ok(n) => n,
        Err(e) => return fail(e),
    };
    let stdout = cordon_nodes(&names, &mut state, cordon, cmd.dry_run);
    CordonRun {
        nodes: state,
        stdout,
        stderr: cmd.notices.iter().map(|n| format!("{n}\n")).collect(),
        exit_code: 0,
    }
}

#[cfg(test)]
mod tests;
