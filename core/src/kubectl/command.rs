//! The whole `kubectl taint` command (k8s.io/kubectl `pkg/cmd/taint/taint.go`): flag
//! parsing as cobra/pflag does it, `Complete`, `Validate`, and `RunTaint` against a set
//! of nodes, with kubectl's stdout, stderr and exit code.
//!
//! Simplifications, each documented where it matters: the resource-type check uses a
//! fixed table instead of API discovery; the label selector is parsed here
//! ([`LabelSelector`], `labels.Parse`) rather than by the API server's list call; output
//! flags (`-o`, `--template`) and `--help` are reported as
//! unsupported; klog warnings (deprecated `--dry-run` forms) go to
//! [`TaintRun::warnings`] instead of stderr, since their timestamp prefix cannot be
//! reproduced.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub(crate) use super::lower::go_to_lower;
use super::selector::LabelSelector;
use super::taint::{
    Operation, aggregate_error, check_conflicts, check_if_taints_already_exist, parse_taints,
    reorganize_taints, validate_flags,
};
use crate::model::{Node, Taint};
use crate::validation::{GoUnicode, go_quote_with, go_sprintf_no_args};
use crate::version::KubeVersion;

/// Release whose `kubectl taint` passes the taint-spec error to `cmdutil.UsageErrorf` as an
/// argument (`"%s"`) rather than as the format (k8s.io/kubectl `pkg/cmd/taint/taint.go`
/// `Complete`).
const USAGE_MESSAGE_AS_ARGUMENT_MINOR: u16 = 32;

/// The `--dry-run` strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DryRunStrategy {
    /// Changes are sent and persisted.
    #[default]
    None,
    /// Nothing is sent; the name printer appends ` (dry run)`.
    Client,
    /// The server validates but does not persist; ` (server dry run)`.
    Server,
}

impl DryRunStrategy {
    /// The suffix the name printer appends to `node/<name> <operation>`.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::None => "",
            Self::Client => " (dry run)",
            Self::Server => " (server dry run)",
        }
    }

    /// Whether the change is stored.
    pub fn persists(self) -> bool {
        matches!(self, Self::None)
    }
}

/// A command-level failure (before any node is touched), classified by how kubectl
/// prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// A flag parsing error from pflag, printed with cobra's
    /// `See 'kubectl taint --help' for usage.` line.
    Flag(String),
    /// A usage error (`cmdutil.UsageErrorf`, the taint-spec errors), printed with
    /// `See 'kubectl taint -h' for help and examples`.
    Usage(String),
    /// Any other error: `error: <msg>`.
    Plain(String),
    /// Something real kubectl accepts but this simulation does not model (output formats,
    /// help). The text is this crate's own.
    Unsupported(String),
}

impl CommandError {
    /// The error text without kubectl's decoration.
    pub fn message(&self) -> &str {
        match self {
            Self::Flag(m) | Self::Usage(m) | Self::Plain(m) | Self::Unsupported(m) => m,
        }
    }

    /// Exactly what kubectl writes to stderr (each line ends in `\n`).
    pub fn stderr(&self) -> String {
        match self {
            Self::Flag(m) => format!("error: {m}\nSee 'kubectl taint --help' for usage.\n"),
            Self::Usage(m) => {
                format!("error: {m}\nSee 'kubectl taint -h' for help and examples\n")
            }
            Self::Plain(m) | Self::Unsupported(m) => format!("error: {m}\n"),
        }
    }

    /// The exit code (always 1, `cmdutil.DefaultErrorExitCode`).
    pub fn exit_code(&self) -> i32 {
        1
    }
}

/// Which nodes the command visits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeTarget {
    /// The named nodes, in the order given (repeats are visited again).
    Names(Vec<String>),
    /// `--all`: every node, by name.
    All,
    /// `-l`: the matching nodes, by name. Upstream quirk: node names given together with
    /// `-l` (or `--all`) are ignored.
    Selector(LabelSelector),
}

/// A parsed and validated `kubectl taint` command (after `Complete` and `Validate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintCommand {
    /// Positional arguments before the first taint spec: the resource type, then names.
    pub resources: Vec<String>,
    /// Taints to add, in command order.
    pub taints_to_add: Vec<Taint>,
    /// Taints to remove (key and effect only; an empty effect removes every effect).
    pub taints_to_remove: Vec<Taint>,
    /// `--overwrite`.
    pub overwrite: bool,
    /// `--all`.
    pub all: bool,
    /// `-l` / `--selector`, trimmed.
    pub selector: String,
    /// `--dry-run`.
    pub dry_run: DryRunStrategy,
    /// The nodes to visit.
    pub target: NodeTarget,
    /// Warnings kubectl would log (deprecated `--dry-run` forms).
    pub warnings: Vec<String>,
    /// The kubectl (and cluster) release: it decides how `%q` quotes names in messages.
    pub version: KubeVersion,
}

/// Why one node was not updated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeError {
    /// No node with this name (`Error from server (NotFound): nodes "<name>" not found`).
    NotFound,
    /// Without `--overwrite`, some taint to add has the key and effect of an existing one;
    /// the keys are joined with `,`.
    AlreadyHasTaints(String),
    /// Removals that matched nothing: one `taint "<key[:Effect]>" not found` each.
    TaintsNotFound(Vec<String>),
}

impl NodeError {
    /// The error text for a node (`Error()` of the Go error), as the newest release
    /// quotes it.
    pub fn message(&self, node: &str) -> String {
        self.message_with(node, GoUnicode::V15_0)
    }

    /// [`NodeError::message`] with the `%q` tables of a given Go release (the API
    /// server's `NotFound` text quotes the name).
    pub fn message_with(&self, node: &str, unicode: GoUnicode) -> String {
        match self {
            Self::NotFound => format!("nodes {} not found", go_quote_with(node, unicode)),
            Self::AlreadyHasTaints(keys) => format!(
                "node {node} already has {keys} taint(s) with same effect(s) and --overwrite is false"
            ),
            Self::TaintsNotFound(msgs) => aggregate_error(msgs).unwrap_or_default(),
        }
    }
}

/// A successful update of one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintUpdate {
    /// What kubectl prints.
    pub operation: Operation,
    /// The node's taints after the patch (also computed under `--dry-run`).
    pub taints: Vec<Taint>,
}

/// What happened to one visited node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeResult {
    /// Node name.
    pub node: String,
    /// The update, or why there was none.
    pub outcome: Result<TaintUpdate, NodeError>,
}

/// The result of running a `kubectl taint` command against a set of nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaintRun {
    /// One entry per visited node, in visit order (empty on a command-level error).
    pub results: Vec<NodeResult>,
    /// The nodes after the command; unchanged under `--dry-run` or on a command error.
    pub nodes: Vec<Node>,
    /// What kubectl prints on stdout (`node/<name> <operation>[ (dry run)]` lines).
    pub stdout: String,
    /// What kubectl prints on stderr.
    pub stderr: String,
    /// Process exit code: 0 or 1.
    pub exit_code: i32,
    /// Warnings kubectl would log (not included in `stderr`).
    pub warnings: Vec<String>,
    /// The command-level error, if the command never reached the nodes.
    pub command_error: Option<CommandError>,
}

impl TaintRun {
    /// The last result for a node name, if it was visited.
    pub fn result_for(&self, node: &str) -> Option<&NodeResult> {
        self.results.iter().rev().find(|r| r.node == node)
    }
}

// ---------------------------------------------------------------------------------------
// Flags (pflag)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlagKind {
    /// A boolean flag (`--x`, `--x=false`).
    Bool,
    /// A string flag that needs a value (`--x v`, `--x=v`).
    Value,
    /// A string flag with a default when written bare (`--dry-run`, `--validate`).
    OptionalValue(&'static str),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlagUse {
    Overwrite,
    All,
    Selector,
    DryRun,
    /// Accepted and ignored (global connection flags, field manager, validation mode).
    Ignored,
    /// Known to kubectl but not modelled here.
    Unsupported,
    /// A subcommand's own flag: its value is kept in [`ParsedFlags::extra`] under the
    /// flag's name (booleans as `true` / `false`).
    Extra,
}

pub(crate) struct FlagDef {
    name: &'static str,
    shorthand: Option<char>,
    kind: FlagKind,
    usage: FlagUse,
}

pub(crate) const fn flag(
    name: &'static str,
    shorthand: Option<char>,
    kind: FlagKind,
    usage: FlagUse,
) -> FlagDef {
    FlagDef {
        name,
        shorthand,
        kind,
        usage,
    }
}

/// The flags of `kubectl taint` and the global kubectl flags people paste most.
const FLAGS: &[FlagDef] = &[
    flag("overwrite", None, FlagKind::Bool, FlagUse::Overwrite),
    flag("all", None, FlagKind::Bool, FlagUse::All),
    flag("selector", Some('l'), FlagKind::Value, FlagUse::Selector),
    flag(
        "dry-run",
        None,
        FlagKind::OptionalValue("unchanged"),
        FlagUse::DryRun,
    ),
    flag("field-manager", None, FlagKind::Value, FlagUse::Ignored),
    flag(
        "validate",
        None,
        FlagKind::OptionalValue("strict"),
        FlagUse::Ignored,
    ),
    flag(
        "allow-missing-template-keys",
        None,
        FlagKind::Bool,
        FlagUse::Ignored,
    ),
    flag(
        "show-managed-fields",
        None,
        FlagKind::Bool,
        FlagUse::Ignored,
    ),
    flag("output", Some('o'), FlagKind::Value, FlagUse::Unsupported),
    flag("template", None, FlagKind::Value, FlagUse::Unsupported),
    flag("help", Some('h'), FlagKind::Bool, FlagUse::Unsupported),
    flag("namespace", Some('n'), FlagKind::Value, FlagUse::Ignored),
    flag("server", Some('s'), FlagKind::Value, FlagUse::Ignored),
    flag("v", Some('v'), FlagKind::Value, FlagUse::Ignored),
    flag("kubeconfig", None, FlagKind::Value, FlagUse::Ignored),
    flag("context", None, FlagKind::Value, FlagUse::Ignored),
    flag("cluster", None, FlagKind::Value, FlagUse::Ignored),
    flag("user", None, FlagKind::Value, FlagUse::Ignored),
    flag("request-timeout", None, FlagKind::Value, FlagUse::Ignored),
    flag("token", None, FlagKind::Value, FlagUse::Ignored),
    flag("as", None, FlagKind::Value, FlagUse::Ignored),
    flag("as-group", None, FlagKind::Value, FlagUse::Ignored),
    flag("as-uid", None, FlagKind::Value, FlagUse::Ignored),
    flag("cache-dir", None, FlagKind::Value, FlagUse::Ignored),
    flag(
        "certificate-authority",
        None,
        FlagKind::Value,
        FlagUse::Ignored,
    ),
    flag(
        "client-certificate",
        None,
        FlagKind::Value,
        FlagUse::Ignored,
    ),
    flag("client-key", None, FlagKind::Value, FlagUse::Ignored),
    flag("tls-server-name", None, FlagKind::Value, FlagUse::Ignored),
    flag(
        "insecure-skip-tls-verify",
        None,
        FlagKind::Bool,
        FlagUse::Ignored,
    ),
    flag(
        "match-server-version",
        None,
        FlagKind::Bool,
        FlagUse::Ignored,
    ),
    flag("warnings-as-errors", None, FlagKind::Bool, FlagUse::Ignored),
    flag(
        "disable-compression",
        None,
        FlagKind::Bool,
        FlagUse::Ignored,
    ),
];

/// Go's `strconv.ParseBool`.
fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Flag values and positional arguments after pflag parsing.
#[derive(Default)]
pub(crate) struct ParsedFlags {
    pub(crate) positional: Vec<String>,
    pub(crate) overwrite: bool,
    pub(crate) all: bool,
    pub(crate) selector: String,
    pub(crate) dry_run: Option<String>,
    /// Values of [`FlagUse::Extra`] flags, by name; a repeated flag keeps the last.
    /// (`String` keys: the modules already hold that map type, not one of `&str`.)
    pub(crate) extra: alloc::collections::BTreeMap<String, String>,
    /// The subcommand, for the unsupported-flag message.
    command: &'static str,
    /// The `%q` tables of the kubectl release, for flag-value errors.
    unicode: GoUnicode,
}

impl ParsedFlags {
    fn set(&mut self, def: &FlagDef, value: &str) -> Result<(), CommandError> {
        if def.kind == FlagKind::Bool && parse_go_bool(value).is_none() {
            let name = match def.shorthand {
                Some(c) => format!("-{c}, --{}", def.name),
                None => format!("--{}", def.name),
            };
            return Err(CommandError::Flag(format!(
                "invalid argument {} for {} flag: strconv.ParseBool: parsing {}: invalid syntax",
                go_quote_with(value, self.unicode),
                go_quote_with(&name, self.unicode),
                go_quote_with(value, self.unicode)
            )));
        }
        let truth = parse_go_bool(value) == Some(true);
        match def.usage {
            FlagUse::Overwrite => self.overwrite = truth,
            FlagUse::All => self.all = truth,
            FlagUse::Selector => self.selector = String::from(value),
            FlagUse::DryRun => self.dry_run = Some(String::from(value)),
            FlagUse::Ignored => {}
            FlagUse::Extra => {
                let v = if def.kind == FlagKind::Bool {
                    String::from(if truth { "true" } else { "false" })
                } else {
                    String::from(value)
                };
                self.extra.insert(def.name.into(), v);
            }
            FlagUse::Unsupported => {
                return Err(CommandError::Unsupported(format!(
                    "flag --{} is not supported by this kubectl {} simulation",
                    def.name, self.command
                )));
            }
        }
        Ok(())
    }
}

/// pflag's parsing: flags may appear anywhere; `--` ends them.
fn parse_flags<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
) -> Result<ParsedFlags, CommandError> {
    parse_flags_with(args, version, &[], "taint")
}

/// [`parse_flags`] for a subcommand with its own flags besides the shared table.
pub(crate) fn parse_flags_with<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
    extra: &'static [FlagDef],
    command: &'static str,
) -> Result<ParsedFlags, CommandError> {
    parse_flags_excluding(args, version, extra, command, &[])
}

/// [`parse_flags_with`] for a subcommand that lacks some of the shared flags (`kubectl
/// drain` has no `--all` or `--overwrite`): those names are unknown flags.
pub(crate) fn parse_flags_excluding<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
    extra: &'static [FlagDef],
    command: &'static str,
    exclude: &[&str],
) -> Result<ParsedFlags, CommandError> {
    let mut rest = args.iter().map(AsRef::as_ref);
    flags_from(&mut rest, version, extra, command, exclude)
}

/// The body of [`parse_flags_excluding`] over any argument iterator, not generic, so the
/// wasm modules hold one copy of it rather than one per argument type.
fn flags_from(
    rest: &mut dyn Iterator<Item = &str>,
    version: KubeVersion,
    extra: &'static [FlagDef],
    command: &'static str,
    exclude: &[&str],
) -> Result<ParsedFlags, CommandError> {
    let mut out = ParsedFlags {
        unicode: GoUnicode::for_release(version),
        command,
        ..ParsedFlags::default()
    };
    let find = |pred: &dyn Fn(&FlagDef) -> bool| {
        FLAGS
            .iter()
            .filter(|f| !exclude.contains(&f.name))
            .chain(extra)
            .find(|f| pred(f))
    };
    while let Some(arg) = rest.next() {
        if arg == "--" {
            out.positional.extend(rest.map(String::from));
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            if long.is_empty() || long.starts_with(['-', '=']) {
                return Err(CommandError::Flag(format!("bad flag syntax: {arg}")));
            }
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let Some(def) = find(&|f| f.name == name) else {
                return Err(CommandError::Flag(format!("unknown flag: --{name}")));
            };
            let value: String = match (inline, def.kind) {
                (Some(v), _) => String::from(v),
                (None, FlagKind::Bool) => String::from("true"),
                (None, FlagKind::OptionalValue(default)) => String::from(default),
                (None, FlagKind::Value) => match rest.next() {
                    Some(v) => String::from(v),
                    None => {
                        return Err(CommandError::Flag(format!("flag needs an argument: {arg}")));
                    }
                },
            };
            out.set(def, &value)?;
        } else if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
            // A run of shorthands: `-l key=value`, `-lkey=value`, `-l=key=value`.
            let mut shorts = shorts;
            while let Some(c) = shorts.chars().next() {
                let after = &shorts[c.len_utf8()..];
                let Some(def) = find(&|f| f.shorthand == Some(c)) else {
                    return Err(CommandError::Flag(format!(
                        "unknown shorthand flag: '{c}' in -{shorts}"
                    )));
                };
                let value: String =
                    if let Some(v) = after.strip_prefix('=').filter(|_| after.len() > 1) {
                        shorts = "";
                        String::from(v)
                    } else {
                        match def.kind {
                            FlagKind::Bool => {
                                shorts = after;
                                String::from("true")
                            }
                            FlagKind::OptionalValue(default) => {
                                shorts = after;
                                String::from(default)
                            }
                            FlagKind::Value if !after.is_empty() => {
                                shorts = "";
                                String::from(after)
                            }
                            FlagKind::Value => match rest.next() {
                                Some(v) => {
                                    shorts = "";
                                    String::from(v)
                                }
                                None => {
                                    return Err(CommandError::Flag(format!(
                                        "flag needs an argument: '{c}' in -{shorts}"
                                    )));
                                }
                            },
                        }
                    };
                out.set(def, &value)?;
            }
        } else {
            out.positional.push(String::from(arg));
        }
    }
    Ok(out)
}

/// `cmdutil.GetDryRunStrategy`, with the klog warnings collected.
pub(crate) fn dry_run_strategy(
    value: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<DryRunStrategy, CommandError> {
    let Some(value) = value else {
        return Ok(DryRunStrategy::None);
    };
    if let Some(b) = parse_go_bool(value) {
        let replacement = if b { "client" } else { "none" };
        warnings.push(format!(
            "--dry-run={value} is deprecated (boolean value) and can be replaced with --dry-run={replacement}."
        ));
        return Ok(if b {
            DryRunStrategy::Client
        } else {
            DryRunStrategy::None
        });
    }
    match value {
        "unchanged" => {
            warnings.push(String::from(
                "--dry-run is deprecated and can be replaced with --dry-run=client.",
            ));
            Ok(DryRunStrategy::Client)
        }
        "client" => Ok(DryRunStrategy::Client),
        "server" => Ok(DryRunStrategy::Server),
        "none" => Ok(DryRunStrategy::None),
        other => Err(CommandError::Plain(format!(
            "Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
        ))),
    }
}

/// Resource names (and short names) that resolve to Node.
pub(crate) const NODE_RESOURCES: &[&str] = &["node", "nodes", "no"];

/// Other well-known resources: kubectl resolves them, then rejects them as not nodes.
pub(crate) const OTHER_RESOURCES: &[&str] = &[
    "pod",
    "pods",
    "po",
    "service",
    "services",
    "svc",
    "deployment",
    "deployments",
    "deploy",
    "replicaset",
    "replicasets",
    "rs",
    "statefulset",
    "statefulsets",
    "sts",
    "daemonset",
    "daemonsets",
    "ds",
    "job",
    "jobs",
    "cronjob",
    "cronjobs",
    "cj",
    "namespace",
    "namespaces",
    "ns",
    "configmap",
    "configmaps",
    "cm",
    "secret",
    "secrets",
    "serviceaccount",
    "serviceaccounts",
    "sa",
    "persistentvolume",
    "persistentvolumes",
    "pv",
    "persistentvolumeclaim",
    "persistentvolumeclaims",
    "pvc",
    "endpoints",
    "ep",
    "event",
    "events",
    "ev",
    "ingress",
    "ingresses",
    "ing",
    "replicationcontroller",
    "replicationcontrollers",
    "rc",
    "limitrange",
    "limitranges",
    "limits",
    "resourcequota",
    "resourcequotas",
    "quota",
    "storageclass",
    "storageclasses",
    "sc",
    "priorityclass",
    "priorityclasses",
    "pc",
    "runtimeclass",
    "runtimeclasses",
    "lease",
    "leases",
];

/// The resource-type part of `Validate`. Upstream asks API discovery; this uses fixed
/// tables, so custom resources count as unknown.
fn check_resource_type(resource: &str, version: KubeVersion) -> Result<(), CommandError> {
    // staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go Validate: strings.ToLower.
    let lower = go_to_lower(resource);
    if NODE_RESOURCES.contains(&lower.as_str()) {
        Ok(())
    } else if OTHER_RESOURCES.contains(&lower.as_str()) {
        Err(CommandError::Plain(format!(
            "invalid resource type {lower}, only node types are supported"
        )))
    } else {
        Err(CommandError::Plain(format!(
            "the server doesn't have a resource type {}",
            go_quote_with(&lower, GoUnicode::for_release(version))
        )))
    }
}

/// Parses a `kubectl taint` argument list (what follows `kubectl taint`), running
/// kubectl's `Complete` and `Validate` steps in upstream order:
///
/// 1. flags (anywhere in the list, `--` ends them);
/// 2. `--dry-run` value;
/// 3. positional split: an argument containing `=` or `:`, or ending in `-`, is a taint
///    spec; everything before the first spec is a resource (type, then names); a
///    non-spec after a spec is `all resources must be specified before taint changes`;
/// 4. `one or more resources ...`, `at least one taint update is required`;
/// 5. [`parse_taints`] (usage errors);
/// 6. resource type, add/remove conflicts, [`validate_flags`];
/// 7. the label selector (this crate's own check; upstream parses it later).
///
/// `version` is the kubectl release (it decides the label messages).
pub fn parse_taint_command<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
) -> Result<TaintCommand, CommandError> {
    taint_command(parse_flags(args, version)?, version)
}

/// [`parse_taint_command`] after the flags: not generic, one copy for every argument type.
fn taint_command(flags: ParsedFlags, version: KubeVersion) -> Result<TaintCommand, CommandError> {
    let mut warnings = Vec::new();
    let dry_run = dry_run_strategy(flags.dry_run.as_deref(), &mut warnings)?;

    let mut resources: Vec<String> = Vec::new();
    let mut specs: Vec<&str> = Vec::new();
    for arg in &flags.positional {
        let is_spec = arg.contains(['=', ':']) || arg.ends_with('-');
        match (is_spec, specs.is_empty()) {
            (true, _) => specs.push(arg),
            (false, true) => resources.push(arg.clone()),
            (false, false) => {
                return Err(CommandError::Plain(format!(
                    "all resources must be specified before taint changes: {arg}"
                )));
            }
        }
    }
    if resources.is_empty() {
        return Err(CommandError::Plain(String::from(
            "one or more resources must be specified as <resource> <name>",
        )));
    }
    if specs.is_empty() {
        return Err(CommandError::Plain(String::from(
            "at least one taint update is required",
        )));
    }
    let parsed = parse_taints(&specs, version).map_err(|m| {
        // Before 1.32, taint.go passed the message as UsageErrorf's format string, so
        // `%` in a spec went through fmt.Sprintf without operands.
        CommandError::Usage(if version.at_least(USAGE_MESSAGE_AS_ARGUMENT_MINOR) {
            m
        } else {
            go_sprintf_no_args(&m)
        })
    })?;

    let resource_type = resources.first().map(String::as_str).unwrap_or_default();
    check_resource_type(resource_type, version)?;
    check_conflicts(&parsed.to_add, &parsed.to_remove).map_err(CommandError::Plain)?;
    validate_flags(flags.all, &flags.selector, &resources).map_err(CommandError::Plain)?;

    // The builder trims the selector (`LabelSelectorParam`) and ignores names whenever
    // `-l` or `--all` is set.
    let selector = String::from(flags.selector.trim());
    let target = if flags.all {
        NodeTarget::All
    } else if !selector.is_empty() {
        NodeTarget::Selector(LabelSelector::parse(&selector).map_err(CommandError::Plain)?)
    } else if !flags.selector.is_empty() {
        // Upstream quirk: a blank `-l " "` passes validateFlags, so no name was required
        // and none is used; the builder then has a type but nothing to select.
        return Err(CommandError::Plain(String::from(
            "resource(s) were provided, but no name was specified",
        )));
    } else {
        NodeTarget::Names(resources.iter().skip(1).cloned().collect())
    };
    Ok(TaintCommand {
        resources,
        taints_to_add: parsed.to_add,
        taints_to_remove: parsed.to_remove,
        overwrite: flags.overwrite,
        all: flags.all,
        selector,
        dry_run,
        target,
        warnings,
        version,
    })
}

impl TaintCommand {
    /// `updateTaints` for one node: the overwrite check (unless `--overwrite`), then
    /// [`reorganize_taints`]; any removal that matched nothing fails the node.
    pub fn update_node_taints(&self, taints: &[Taint]) -> Result<TaintUpdate, NodeError> {
        if !self.overwrite {
            let keys = check_if_taints_already_exist(taints, &self.taints_to_add);
            if !keys.is_empty() {
                return Err(NodeError::AlreadyHasTaints(keys));
            }
        }
        let r = reorganize_taints(
            taints,
            self.overwrite,
            &self.taints_to_add,
            &self.taints_to_remove,
        );
        if !r.errors.is_empty() {
            return Err(NodeError::TaintsNotFound(r.errors));
        }
        Ok(TaintUpdate {
            operation: r.operation,
            taints: r.taints,
        })
    }

    /// The indices of `nodes` in visit order; `None` marks a name with no node.
    fn visit_order(&self, nodes: &[Node]) -> Vec<(String, Option<usize>)> {
        visit_order(&self.target, nodes)
    }
}

/// The indices of `nodes` a target visits, in order; `None` marks a name with no node.
pub(crate) fn visit_order(target: &NodeTarget, nodes: &[Node]) -> Vec<(String, Option<usize>)> {
    let by_name = |keep: &dyn Fn(&Node) -> bool| {
        let mut picked: Vec<(String, Option<usize>)> = nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| keep(n))
            .map(|(i, n)| (n.name.clone(), Some(i)))
            .collect();
        // A list comes back sorted by name.
        crate::sort::sort_by(&mut picked, |a, b| a.0.cmp(&b.0));
        picked
    };
    match target {
        NodeTarget::All => by_name(&|_| true),
        NodeTarget::Selector(sel) => by_name(&|n| sel.matches(&n.labels)),
        NodeTarget::Names(names) => names
            .iter()
            .map(|name| (name.clone(), nodes.iter().position(|n| &n.name == name)))
            .collect(),
    }
}

impl TaintCommand {
    /// `RunTaint` against `nodes`: visits the target nodes in order, updates each (later
    /// visits see earlier persisted changes), and renders kubectl's output.
    ///
    /// Errors do not stop the visit (`ContinueOnError`). kubectl then prints, as
    /// `cmdutil.CheckErr` does: a single error as `error: <msg>` (`Error from server
    /// (NotFound): ...` for a missing node); several errors, or one node with several
    /// missing removals, one per line without the `error: ` prefix.
    pub fn apply_to_nodes(&self, nodes: &[Node]) -> TaintRun {
        let mut state: Vec<Node> = nodes.to_vec();
        let mut results = Vec::new();
        let mut stdout = String::new();
        for (name, index) in self.visit_order(nodes) {
            let current = index.and_then(|i| state.get_mut(i));
            let outcome = match current {
                None => Err(NodeError::NotFound),
                Some(node) => {
                    let outcome = self.update_node_taints(&node.taints);
                    if let Ok(update) = &outcome {
                        stdout.push_str(&format!(
                            "node/{} {}{}\n",
                            node.name,
                            update.operation.as_str(),
                            self.dry_run.suffix()
                        ));
                        if self.dry_run.persists() {
                            node.taints.clone_from(&update.taints);
                        }
                    }
                    outcome
                }
            };
            results.push(NodeResult {
                node: name,
                outcome,
            });
        }
        let stderr = render_visit_errors(&results, GoUnicode::for_release(self.version));
        TaintRun {
            exit_code: i32::from(!stderr.is_empty()),
            results,
            nodes: state,
            stdout,
            stderr,
            warnings: self.warnings.clone(),
            command_error: None,
        }
    }
}

/// `cmdutil.CheckErr` applied to the errors `ContinueOnErrorVisitor` collected.
fn render_visit_errors(results: &[NodeResult], unicode: GoUnicode) -> String {
    let errors: Vec<(&str, &NodeError)> = results
        .iter()
        .filter_map(|r| r.outcome.as_ref().err().map(|e| (r.node.as_str(), e)))
        .collect();
    let not_found = |node: &str| {
        format!(
            "Error from server (NotFound): {}",
            NodeError::NotFound.message_with(node, unicode)
        )
    };
    let mut out = String::new();
    match errors.as_slice() {
        [] => {}
        // One error: an aggregate of one is unwrapped; a lone aggregate of several is
        // printed line by line.
        [(node, NodeError::NotFound)] => {
            out.push_str(&not_found(node));
            out.push('\n');
        }
        [(_, NodeError::TaintsNotFound(msgs))] if msgs.len() > 1 => {
            for m in msgs {
                out.push_str(m);
                out.push('\n');
            }
        }
        [(node, e)] => {
            out.push_str("error: ");
            out.push_str(&e.message_with(node, unicode));
            out.push('\n');
        }
        // Several errors: `MultipleErrors`, one line each, no prefix.
        many => {
            for (node, e) in many {
                let line = match e {
                    NodeError::NotFound => not_found(node),
                    other => other.message_with(node, unicode),
                };
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// Parses and runs a `kubectl taint` command (arguments after `kubectl taint`) against
/// `nodes`: [`parse_taint_command`] then [`TaintCommand::apply_to_nodes`]. A command
/// error gives its stderr and exit code 1 and leaves the nodes unchanged.
pub fn run_kubectl_taint<S: AsRef<str>>(
    args: &[S],
    nodes: &[Node],
    version: KubeVersion,
) -> TaintRun {
    match parse_taint_command(args, version) {
        Ok(cmd) => cmd.apply_to_nodes(nodes),
        Err(e) => TaintRun {
            results: Vec::new(),
            nodes: nodes.to_vec(),
            stdout: String::new(),
            stderr: e.stderr(),
            exit_code: e.exit_code(),
            warnings: Vec::new(),
            command_error: Some(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaintEffect;
    use alloc::collections::BTreeMap;
    use alloc::vec;
    use proptest::prelude::*;

    const V: KubeVersion = KubeVersion::NEWEST;

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint::new(k, v, TaintEffect::parse(e))
    }

    fn node(name: &str, labels: &[(&str, &str)], taints: Vec<Taint>) -> Node {
        Node {
            name: String::from(name),
            labels: labels
                .iter()
                .map(|(k, v)| (String::from(*k), String::from(*v)))
                .collect::<BTreeMap<_, _>>(),
            taints,
            ..Node::default()
        }
    }

    fn err(args: &[&str]) -> Option<CommandError> {
        parse_taint_command(args, V).err()
    }

    #[test]
    fn names_are_quoted_with_the_release_s_unicode_tables() {
        // U+1F6DC was assigned in Unicode 15.0: Go 1.20 (Kubernetes 1.28) escapes it.
        let args = ["node", "n\u{1f6dc}", "k=v:NoSchedule"];
        let old = run_kubectl_taint(&args, &[], KubeVersion::new(28, 0));
        assert_eq!(
            old.stderr,
            "Error from server (NotFound): nodes \"n\\U0001f6dc\" not found\n"
        );
        let new = run_kubectl_taint(&args, &[], KubeVersion::new(29, 0));
        assert_eq!(
            new.stderr,
            "Error from server (NotFound): nodes \"n\u{1f6dc}\" not found\n"
        );
        let flag = ["node", "n", "--overwrite=\u{1f6dc}", "k=v:NoSchedule"];
        let e = parse_taint_command(&flag, KubeVersion::new(28, 0)).err();
        assert!(
            e.as_ref()
                .is_some_and(|e| e.message().contains("invalid argument \"\\U0001f6dc\"")),
            "{e:?}"
        );
    }

    #[test]
    fn usage_errors_went_through_sprintf_before_1_32() {
        let args = ["node", "n1", "a%d=v:NoSchedule"];
        let at = |minor| {
            parse_taint_command(&args, KubeVersion::new(minor, 0))
                .err()
                .map(|e| String::from(e.message()))
                .unwrap_or_default()
        };
        assert!(at(32).starts_with("invalid taint spec: a%d=v:NoSchedule, "));
        assert!(at(31).starts_with("invalid taint spec: a%!d(MISSING)=v:NoSchedule, "));
        // The printed text carries the same mangling.
        let printed = parse_taint_command(&args, KubeVersion::new(31, 0))
            .err()
            .map(|e| e.stderr())
            .unwrap_or_default();
        assert!(printed.starts_with("error: invalid taint spec: a%!d(MISSING)=v"));
        assert!(printed.ends_with("See 'kubectl taint -h' for help and examples\n"));
    }

    #[test]
    fn flags_anywhere_and_forms() {
        let cmd = parse_taint_command(
            &[
                "--overwrite",
                "node",
                "n1",
                "k=v:NoSchedule",
                "--dry-run=server",
            ],
            V,
        );
        assert!(
            cmd.as_ref()
                .is_ok_and(|c| c.overwrite && c.dry_run == DryRunStrategy::Server)
        );
        let cmd = parse_taint_command(&["node", "-lrole=gpu", "k=v:NoSchedule"], V);
        assert!(
            cmd.is_ok_and(
                |c| c.selector == "role=gpu" && matches!(c.target, NodeTarget::Selector(_))
            )
        );
        let cmd = parse_taint_command(&["node", "-l=role=gpu", "k=v:NoSchedule"], V);
        assert!(cmd.is_ok_and(|c| c.selector == "role=gpu"));
        let cmd = parse_taint_command(&["node", "--selector", "role=gpu", "k=v:NoSchedule"], V);
        assert!(cmd.is_ok_and(|c| c.selector == "role=gpu"));
        // `--dry-run client`: the bare flag means client and `client` stays positional.
        let cmd = parse_taint_command(&["node", "n1", "--dry-run", "k=v:NoSchedule"], V);
        assert!(cmd.is_ok_and(|c| c.dry_run == DryRunStrategy::Client && c.warnings.len() == 1));
        assert_eq!(
            err(&["node", "n1", "k=v:NoSchedule", "--dry-run", "client"]),
            Some(CommandError::Plain(String::from(
                "all resources must be specified before taint changes: client"
            )))
        );
        // `--` ends the flags.
        let cmd = parse_taint_command(&["node", "--", "n1", "k=v:NoSchedule"], V);
        assert!(cmd.is_ok_and(|c| c.resources == vec![String::from("node"), String::from("n1")]));
        // Global flags are accepted.
        assert!(
            parse_taint_command(
                &["--context", "prod", "-n", "x", "node", "n1", "k:NoSchedule"],
                V
            )
            .is_ok()
        );
    }

    #[test]
    fn flag_errors() {
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "--bogus"]).map(|e| e.stderr()),
            Some(String::from(
                "error: unknown flag: --bogus\nSee 'kubectl taint --help' for usage.\n"
            ))
        );
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "-x"]).map(|e| String::from(e.message())),
            Some(String::from("unknown shorthand flag: 'x' in -x"))
        );
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "-l"]).map(|e| String::from(e.message())),
            Some(String::from("flag needs an argument: 'l' in -l"))
        );
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "--selector"]).map(|e| String::from(e.message())),
            Some(String::from("flag needs an argument: --selector"))
        );
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "--overwrite=maybe"])
                .map(|e| String::from(e.message())),
            Some(String::from(
                "invalid argument \"maybe\" for \"--overwrite\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax"
            ))
        );
        assert_eq!(
            err(&["node", "n1", "k:NoSchedule", "--dry-run=maybe"]),
            Some(CommandError::Plain(String::from(
                "Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\"."
            )))
        );
        assert!(matches!(
            err(&["node", "n1", "k:NoSchedule", "-o", "yaml"]),
            Some(CommandError::Unsupported(_))
        ));
        assert!(
            parse_taint_command(&["node", "n1", "k:NoSchedule", "--overwrite=false"], V)
                .is_ok_and(|c| !c.overwrite)
        );
    }

    #[test]
    fn complete_and_validate_errors() {
        assert_eq!(
            err(&["k=v:NoSchedule"]).map(|e| String::from(e.message())),
            Some(String::from(
                "one or more resources must be specified as <resource> <name>"
            ))
        );
        assert_eq!(
            err(&["node", "n1", "k=v:NoSchedule", "n2"]).map(|e| String::from(e.message())),
            Some(String::from(
                "all resources must be specified before taint changes: n2"
            ))
        );
        assert_eq!(
            err(&["node", "n1", "k=v:NoSchedule", "k-"]).map(|e| String::from(e.message())),
            Some(String::from(
                "can not both modify and remove the following taint(s) in the same command: k="
            ))
        );
        assert_eq!(
            err(&["node", "--all", "-l", "a=b", "k=v:NoSchedule"])
                .map(|e| String::from(e.message())),
            Some(String::from(
                "setting 'all' parameter with a non empty selector is prohibited"
            ))
        );
        assert_eq!(
            err(&["Pods", "p", "k=v:NoSchedule"]).map(|e| String::from(e.message())),
            Some(String::from(
                "invalid resource type pods, only node types are supported"
            ))
        );
        assert_eq!(
            err(&["widgets", "p", "k=v:NoSchedule"]).map(|e| String::from(e.message())),
            Some(String::from(
                "the server doesn't have a resource type \"widgets\""
            ))
        );
        assert!(matches!(
            err(&["node", "n1", "k=v"]),
            Some(CommandError::Usage(_))
        ));
        assert!(err(&["NODES", "n1", "k:NoSchedule"]).is_none());
        // Set-based selectors select; a malformed one is an error.
        assert!(err(&["node", "-l", "env in (a)", "k:NoSchedule"]).is_none());
        assert!(matches!(
            err(&["node", "-l", "env in a", "k:NoSchedule"]),
            Some(CommandError::Plain(_))
        ));
    }

    #[test]
    fn runs_against_several_nodes() {
        let nodes = vec![
            node("b", &[("role", "gpu")], vec![]),
            node("a", &[("role", "gpu")], vec![taint("k", "1", "NoSchedule")]),
            node("c", &[("role", "cpu")], vec![]),
        ];
        // Selector: matching nodes by name; one error among successes.
        let run = run_kubectl_taint(&["nodes", "-l", "role=gpu", "k=2:NoSchedule"], &nodes, V);
        assert_eq!(run.stdout, "node/b tainted\n");
        assert_eq!(
            run.stderr,
            "error: node a already has k taint(s) with same effect(s) and --overwrite is false\n"
        );
        assert_eq!(run.exit_code, 1);
        assert_eq!(run.nodes[0].taints, vec![taint("k", "2", "NoSchedule")]);
        assert_eq!(run.nodes[1].taints, vec![taint("k", "1", "NoSchedule")]);
        // --all with overwrite; names given with --all are ignored.
        let run = run_kubectl_taint(
            &["nodes", "zzz", "--all", "--overwrite", "k=3:NoSchedule"],
            &nodes,
            V,
        );
        assert_eq!(
            run.stdout,
            "node/a modified\nnode/b modified\nnode/c modified\n"
        );
        assert_eq!(run.exit_code, 0);
        // Names in order; missing nodes; repeated names see the earlier change.
        let run = run_kubectl_taint(&["node", "c", "x", "c", "j=1:NoExecute"], &nodes, V);
        assert_eq!(run.stdout, "node/c tainted\n");
        assert_eq!(
            run.stderr,
            "Error from server (NotFound): nodes \"x\" not found\nnode c already has j taint(s) with same effect(s) and --overwrite is false\n"
        );
        // Dry run does not persist, so the repeat succeeds too.
        let run = run_kubectl_taint(
            &["node", "c", "c", "j=1:NoExecute", "--dry-run=client"],
            &nodes,
            V,
        );
        assert_eq!(
            run.stdout,
            "node/c tainted (dry run)\nnode/c tainted (dry run)\n"
        );
        assert_eq!(run.nodes, nodes);
        // A single missing node.
        let run = run_kubectl_taint(&["node", "x", "j=1:NoExecute"], &nodes, V);
        assert_eq!(
            run.stderr,
            "Error from server (NotFound): nodes \"x\" not found\n"
        );
    }

    #[test]
    fn removal_error_printing() {
        let nodes = vec![node("a", &[], vec![taint("k", "", "NoSchedule")])];
        let run = run_kubectl_taint(&["node", "a", "x-"], &nodes, V);
        assert_eq!(run.stderr, "error: taint \"x\" not found\n");
        let run = run_kubectl_taint(&["node", "a", "x-", "y:NoExecute-"], &nodes, V);
        assert_eq!(
            run.stderr,
            "taint \"x\" not found\ntaint \"y:NoExecute\" not found\n"
        );
        assert_eq!(run.nodes, nodes);
        let run = run_kubectl_taint(&["node", "a", "k-"], &nodes, V);
        assert_eq!(
            (run.stdout.as_str(), run.exit_code),
            ("node/a untainted\n", 0)
        );
    }

    proptest! {
        #[test]
        fn never_panics(args in proptest::collection::vec("[-a-z=:,!/ ]{0,12}", 0..6)) {
            let nodes = vec![node("a", &[("x", "y")], vec![taint("k", "v", "NoSchedule")])];
            let run = run_kubectl_taint(&args, &nodes, V);
            prop_assert_eq!(run.exit_code == 0, run.stderr.is_empty());
        }
    }
}
