//! `kubectl label` on nodes (k8s.io/kubectl `pkg/cmd/label/label.go`): `Complete`
//! (`cmdutil.GetResourcesAndPairs`, `parseLabels`), `Validate`, the resource builder's
//! argument rules (`TYPE NAME...`, `TYPE/NAME`, `--all`, `-l`) and `RunLabel` against a
//! set of nodes, with kubectl's stdout, stderr and exit code.
//!
//! kubectl checks only label *values* (`validation.IsValidLabelValue`); label *keys* are
//! checked by the API server (`ValidateLabels` on `metadata.labels`), so a bad key fails
//! each node with the server's `The Node "n" is invalid: ...` unless the run is a client
//! dry run, which never reaches the server.
//!
//! Simplifications: only node resources are modelled (other known types are
//! [`CommandError::Unsupported`]); `--list`, `--local`, `-f`, `--field-selector`,
//! `--resource-version`, `-A` and output flags are unsupported; Go's random map order
//! (the order of several `already has a value` errors) is replaced by key order.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::command::{
    CommandError, DryRunStrategy, FlagDef, FlagKind, FlagUse, NODE_RESOURCES, NodeError,
    NodeTarget, OTHER_RESOURCES, ParsedFlags, dry_run_strategy, flag, go_to_lower,
    parse_flags_with, visit_order,
};
use super::selector::LabelSelector;
use crate::model::Node;
use crate::validation::{
    BadValue, FieldError, GoUnicode, api_status_message, go_quote_with, json_quote,
    label_value_errors, qualified_name_errors,
};
use crate::version::KubeVersion;

/// Release whose `kubectl label` names what actually changed (`labelFunc` returns the
/// keys added and removed): `modified` when both, otherwise `labeled` / `unlabeled`;
/// before, the message compared the object's JSON (k8s.io/kubectl `pkg/cmd/label`,
/// `updateDataChangeMsg`). From this release an unchanged node is not sent to the server.
const CHANGED_KEYS_MINOR: u16 = 36;
/// Release whose `kubectl label` appends the dry-run suffix (` (dry run)`): before, the
/// printer's operation was set after the suffix had been applied, which dropped it.
const DRY_RUN_SUFFIX_MINOR: u16 = 26;

/// `kubectl label` flags besides the shared table of [`super::command`].
const LABEL_FLAGS: &[FlagDef] = &[
    flag("list", None, FlagKind::Bool, FlagUse::Unsupported),
    flag("local", None, FlagKind::Bool, FlagUse::Unsupported),
    flag(
        "field-selector",
        None,
        FlagKind::Value,
        FlagUse::Unsupported,
    ),
    flag(
        "all-namespaces",
        Some('A'),
        FlagKind::Bool,
        FlagUse::Unsupported,
    ),
    flag(
        "resource-version",
        None,
        FlagKind::Value,
        FlagUse::Unsupported,
    ),
    flag("filename", Some('f'), FlagKind::Value, FlagUse::Unsupported),
    flag(
        "kustomize",
        Some('k'),
        FlagKind::Value,
        FlagUse::Unsupported,
    ),
    flag("recursive", Some('R'), FlagKind::Bool, FlagUse::Ignored),
    flag("record", None, FlagKind::Bool, FlagUse::Ignored),
];

/// What `kubectl label` prints for a node (`updateDataChangeMsg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelOperation {
    /// The object changed (and did not shrink, or `--overwrite` was given).
    Labeled,
    /// The object's JSON got shorter without `--overwrite`.
    Unlabeled,
    /// Nothing changed.
    NotLabeled,
    /// From 1.36: labels were both added (or changed) and removed.
    Modified,
}

impl LabelOperation {
    /// `labeled`, `unlabeled` or `not labeled`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Labeled => "labeled",
            Self::Unlabeled => "unlabeled",
            Self::NotLabeled => "not labeled",
            Self::Modified => "modified",
        }
    }
}

/// Why a node was not labeled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelNodeError {
    /// The node does not exist (`Error from server (NotFound): nodes "x" not found`).
    NotFound,
    /// `validateNoOverwrites`: each `(key, current value)` the command would overwrite
    /// without `--overwrite`, in key order.
    AlreadyHasValue(Vec<(String, String)>),
    /// The API server rejected a label key (`metadata.labels: Invalid value: ...`).
    Invalid(Vec<FieldError>),
}

/// A parsed and validated `kubectl label` command on nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelCommand {
    /// Positional arguments before the first label change: the resource arguments.
    pub resources: Vec<String>,
    /// Labels to set (a later `k=v` for the same key wins, as in a Go map).
    pub new_labels: BTreeMap<String, String>,
    /// Label keys to remove, in command order.
    pub remove_labels: Vec<String>,
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
    /// klog warnings (deprecated `--dry-run` forms).
    pub warnings: Vec<String>,
    /// The kubectl (and API server) release.
    pub version: KubeVersion,
}

/// The result of running `kubectl label` against a set of nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRun {
    /// One `(node, outcome)` per visited node, in visit order.
    pub results: Vec<(String, Result<LabelOperation, LabelNodeError>)>,
    /// The nodes after the command; unchanged under `--dry-run` or on a command error.
    pub nodes: Vec<Node>,
    /// kubectl's stdout (`label "k" not found.` lines and `node/<name> <operation>`).
    pub stdout: String,
    /// kubectl's stderr.
    pub stderr: String,
    /// Process exit code: 0 or 1.
    pub exit_code: i32,
    /// Warnings kubectl would log (not included in `stderr`).
    pub warnings: Vec<String>,
    /// The command-level error, if the command never reached the nodes.
    pub command_error: Option<CommandError>,
}

/// What kubectl writes to stderr for a command-level error of `kubectl label` (flag
/// errors name `kubectl label --help`).
pub fn label_error_stderr(e: &CommandError) -> String {
    match e {
        CommandError::Flag(m) => format!("error: {m}\nSee 'kubectl label --help' for usage.\n"),
        CommandError::Usage(m) => {
            format!("error: {m}\nSee 'kubectl label -h' for help and examples\n")
        }
        CommandError::Plain(m) | CommandError::Unsupported(m) => format!("error: {m}\n"),
    }
}

/// Whether the arguments after `kubectl label` name nodes (`node`, `nodes`, `no`, or
/// `node/NAME` forms) as their first resource: the commands this module models.
pub fn is_node_label_command<S: AsRef<str>>(args: &[S]) -> bool {
    let first = match parse_flags_with(args, KubeVersion::NEWEST, LABEL_FLAGS, "label") {
        Ok(f) => f.positional.into_iter().next(),
        Err(_) => args
            .iter()
            .map(AsRef::as_ref)
            .find(|a| !a.starts_with('-'))
            .map(String::from),
    };
    first.is_some_and(|r| {
        let ty = go_to_lower(r.split('/').next().unwrap_or_default());
        NODE_RESOURCES.contains(&ty.as_str())
    })
}

/// `cmdutil.GetResourcesAndPairs(args, "label")`: an argument containing `=` (not first)
/// or ending in `-` (other than `-` itself) is a label change; resources come first.
fn resources_and_pairs(args: &[String]) -> Result<(Vec<String>, Vec<String>), CommandError> {
    let mut resources = Vec::new();
    let mut pairs = Vec::new();
    for s in args {
        let pair = (s.contains('=') && !s.starts_with('=')) || (s.ends_with('-') && s != "-");
        match (pair, pairs.is_empty()) {
            (true, _) => pairs.push(s.clone()),
            (false, true) => resources.push(s.clone()),
            (false, false) => {
                return Err(CommandError::Plain(format!(
                    "all resources must be specified before label changes: {s}"
                )));
            }
        }
    }
    Ok((resources, pairs))
}

/// `parseLabels`: `k=v` to set (the value checked with `IsValidLabelValue`), `k-` to
/// remove; a key both set and removed is an error.
pub fn parse_labels<S: AsRef<str>>(
    specs: &[S],
    version: KubeVersion,
) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    labels_from(&mut specs.iter().map(AsRef::as_ref), version)
}

/// The body of [`parse_labels`], not generic, so the wasm modules hold one copy.
fn labels_from(
    specs: &mut dyn Iterator<Item = &str>,
    version: KubeVersion,
) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    let unicode = GoUnicode::for_release(version);
    let mut labels = BTreeMap::new();
    let mut remove = Vec::new();
    for spec in specs {
        if spec.contains('=') {
            let parts: Vec<&str> = spec.split('=').collect();
            let [key, value] = parts.as_slice() else {
                return Err(format!("invalid label spec: {spec}"));
            };
            let errs = label_value_errors(value, version);
            if !errs.is_empty() {
                return Err(format!(
                    "invalid label value: {}: {}",
                    go_quote_with(spec, unicode),
                    errs.join(";")
                ));
            }
            labels.insert(String::from(*key), String::from(*value));
        } else if let Some(key) = spec.strip_suffix('-') {
            remove.push(String::from(key));
        } else {
            return Err(format!("unknown label spec: {spec}"));
        }
    }
    if remove.iter().any(|k| labels.contains_key(k)) {
        return Err(String::from(
            "can not both modify and remove a label in the same command",
        ));
    }
    Ok((labels, remove))
}

/// Which nodes the builder visits (`ResourceTypeOrNameArgs`, `LabelSelectorParam`,
/// `visitorResult`), or its error, checked in the builder's order.
fn target_of(
    resources: &[String],
    all: bool,
    selector: &str,
    version: KubeVersion,
) -> Result<NodeTarget, CommandError> {
    let plain = |m: &str| Err(CommandError::Plain(String::from(m)));
    let slashed = resources.iter().filter(|r| r.contains('/')).count();
    let mut types: Vec<&str> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut tuples = false;
    if slashed > 0 {
        if slashed != resources.len() {
            return plain(
                "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
            );
        }
        for r in resources {
            let seg: Vec<&str> = r.split('/').collect();
            let [ty, name] = seg.as_slice() else {
                return plain("arguments in resource/name form may not have more than one slash");
            };
            if ty.is_empty() || name.is_empty() || ty.contains(',') {
                return plain(
                    "arguments in resource/name form must have a single resource and name",
                );
            }
            types.push(ty);
            names.push(String::from(*name));
        }
        tuples = true;
    } else if let Some((ty, rest)) = resources.split_first() {
        types.push(ty);
        names.extend(rest.iter().cloned());
    }
    // `--all` with only a type selects everything.
    let everything = all && !tuples && names.is_empty();
    if !selector.is_empty() {
        if tuples {
            return plain(
                "selectors and the all flag cannot be used when passing resource/name arguments",
            );
        }
        if !names.is_empty() {
            return plain("name cannot be provided when a selector is specified");
        }
    }
    for ty in &types {
        let lower = go_to_lower(ty);
        if NODE_RESOURCES.contains(&lower.as_str()) {
            continue;
        }
        return Err(if OTHER_RESOURCES.contains(&lower.as_str()) {
            CommandError::Unsupported(format!(
                "kubectl label on {lower} is not modelled: only nodes are"
            ))
        } else {
            CommandError::Plain(format!(
                "the server doesn't have a resource type {}",
                go_quote_with(&lower, GoUnicode::for_release(version))
            ))
        });
    }
    if !selector.is_empty() {
        return LabelSelector::parse(selector)
            .map(NodeTarget::Selector)
            .map_err(CommandError::Plain);
    }
    if everything {
        return Ok(NodeTarget::All);
    }
    if names.is_empty() {
        return plain("resource(s) were provided, but no name was specified");
    }
    Ok(NodeTarget::Names(names))
}

/// Parses a `kubectl label` argument list (what follows `kubectl label`) in upstream
/// order: flags, `--dry-run`, resources and label changes, [`parse_labels`], `Validate`
/// (`--all` with `-l`, no resources, no change), then the builder's argument checks.
pub fn parse_label_command<S: AsRef<str>>(
    args: &[S],
    version: KubeVersion,
) -> Result<LabelCommand, CommandError> {
    label_command(
        parse_flags_with(args, version, LABEL_FLAGS, "label")?,
        version,
    )
}

/// [`parse_label_command`] after the flags: not generic, one copy for every argument type.
fn label_command(flags: ParsedFlags, version: KubeVersion) -> Result<LabelCommand, CommandError> {
    let mut warnings = Vec::new();
    let dry_run = dry_run_strategy(flags.dry_run.as_deref(), &mut warnings)?;
    let (resources, pairs) = resources_and_pairs(&flags.positional)?;
    let (new_labels, remove_labels) = parse_labels(&pairs, version).map_err(CommandError::Plain)?;
    if flags.all && !flags.selector.is_empty() {
        return Err(CommandError::Plain(String::from(
            "cannot set --all and --selector at the same time",
        )));
    }
    if resources.is_empty() {
        return Err(CommandError::Plain(String::from(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>",
        )));
    }
    if new_labels.is_empty() && remove_labels.is_empty() {
        return Err(CommandError::Plain(String::from(
            "at least one label update is required",
        )));
    }
    let selector = String::from(flags.selector.trim());
    let target = target_of(&resources, flags.all, &selector, version)?;
    Ok(LabelCommand {
        resources,
        new_labels,
        remove_labels,
        overwrite: flags.overwrite,
        all: flags.all,
        selector,
        dry_run,
        target,
        warnings,
        version,
    })
}

/// The length of Go's `json.Marshal` of a label map (keys sorted).
fn labels_json_len(labels: &BTreeMap<String, String>) -> usize {
    2 + labels
        .iter()
        .map(|(k, v)| json_quote(k).len() + json_quote(v).len() + 1)
        .sum::<usize>()
        + labels.len().saturating_sub(1)
}

impl LabelCommand {
    /// `labelFunc` and `updateDataChangeMsg` for one node's labels: the new labels and
    /// what kubectl prints.
    ///
    /// From 1.36 the message names the keys that actually changed: `modified` (added or
    /// changed, and removed), `labeled`, `unlabeled` or `not labeled`. Before, it
    /// compared the object's JSON before and after: equal is `not labeled`; shorter
    /// without `--overwrite` is `unlabeled`; anything else `labeled` (so a removal with
    /// `--overwrite` prints `labeled`, and a node with no labels gets an empty `labels`
    /// map, printed `labeled`, even when nothing was removed).
    pub fn update_node_labels(
        &self,
        labels: &BTreeMap<String, String>,
    ) -> Result<(BTreeMap<String, String>, LabelOperation), LabelNodeError> {
        if !self.overwrite {
            let clashes: Vec<(String, String)> = self
                .new_labels
                .keys()
                .filter_map(|k| labels.get(k).map(|v| (k.clone(), v.clone())))
                .collect();
            if !clashes.is_empty() {
                return Err(LabelNodeError::AlreadyHasValue(clashes));
            }
        }
        // The labels, then the new ones over them, without the removed keys. Built by
        // insertion rather than cloned and then removed from: nothing else in the npm
        // engine removes from a B-tree map, and its removal code weighs about 1.5 KB gz
        // there.
        let mut new = BTreeMap::new();
        for (k, v) in labels.iter().chain(&self.new_labels) {
            if !self.remove_labels.contains(k) {
                new.insert(k.clone(), v.clone());
            }
        }
        if self.version.at_least(CHANGED_KEYS_MINOR) {
            let added = self
                .new_labels
                .iter()
                .any(|(k, v)| labels.get(k) != Some(v));
            let removed = self.remove_labels.iter().any(|k| labels.contains_key(k));
            let op = match (added, removed) {
                (true, true) => LabelOperation::Modified,
                (true, false) => LabelOperation::Labeled,
                (false, true) => LabelOperation::Unlabeled,
                (false, false) => LabelOperation::NotLabeled,
            };
            return Ok((new, op));
        }
        let op = if labels.is_empty() {
            // No `labels` field before; an (empty or not) map after.
            LabelOperation::Labeled
        } else if &new == labels {
            LabelOperation::NotLabeled
        } else if !self.overwrite && labels_json_len(&new) < labels_json_len(labels) {
            LabelOperation::Unlabeled
        } else {
            LabelOperation::Labeled
        };
        Ok((new, op))
    }

    /// The API server's label-key errors for the new labels (`ValidateLabels` on
    /// `metadata.labels`: one `Invalid value` per `IsQualifiedName` message).
    fn server_errors(&self) -> Vec<FieldError> {
        let mut errs = Vec::new();
        for k in self.new_labels.keys() {
            for msg in qualified_name_errors(k, self.version) {
                errs.push(
                    FieldError::invalid(
                        String::from("metadata.labels"),
                        BadValue::String(k.clone()),
                        msg,
                    )
                    .at(self.version),
                );
            }
        }
        errs
    }

    /// `RunLabel` against `nodes`: visits the target nodes in order (errors do not stop
    /// the visit), updates each (later visits see earlier persisted changes) and renders
    /// kubectl's output. Unless the run is a client dry run, each removal of a key the
    /// node does not have first prints `label "k" not found.` on stdout (not an error).
    pub fn apply_to_nodes(&self, nodes: &[Node]) -> LabelRun {
        let unicode = GoUnicode::for_release(self.version);
        let mut state: Vec<Node> = nodes.to_vec();
        let mut results = Vec::new();
        let mut stdout = String::new();
        let server = self.dry_run != DryRunStrategy::Client;
        let server_errors = if server {
            self.server_errors()
        } else {
            Vec::new()
        };
        for (name, index) in visit_order(&self.target, nodes) {
            let outcome = match index.and_then(|i| state.get_mut(i)) {
                None => Err(LabelNodeError::NotFound),
                Some(node) => {
                    if server {
                        for k in &self.remove_labels {
                            if !node.labels.contains_key(k) {
                                stdout.push_str(&format!(
                                    "label {} not found.\n",
                                    go_quote_with(k, unicode)
                                ));
                            }
                        }
                    }
                    // From 1.36 an unchanged node is not sent to the server.
                    let sent = |op: LabelOperation| {
                        !self.version.at_least(CHANGED_KEYS_MINOR)
                            || op != LabelOperation::NotLabeled
                    };
                    match self.update_node_labels(&node.labels) {
                        Err(e) => Err(e),
                        Ok((_, op)) if !server_errors.is_empty() && sent(op) => {
                            Err(LabelNodeError::Invalid(server_errors.clone()))
                        }
                        Ok((labels, op)) => {
                            let suffix = if self.version.at_least(DRY_RUN_SUFFIX_MINOR) {
                                self.dry_run.suffix()
                            } else {
                                ""
                            };
                            stdout.push_str(&format!(
                                "node/{} {}{suffix}\n",
                                node.name,
                                op.as_str(),
                            ));
                            if self.dry_run.persists() {
                                node.labels = labels;
                            }
                            Ok(op)
                        }
                    }
                }
            };
            results.push((name, outcome));
        }
        let stderr = render_errors(&results, unicode);
        LabelRun {
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

/// One flattened error of the visit.
enum Leaf<'a> {
    NotFound(&'a str),
    Plain(String),
    Invalid(&'a str, &'a [FieldError]),
}

/// `cmdutil.CheckErr` on the visit's errors (`ContinueOnError` aggregates them,
/// flattened, one left alone): a lone not-found node is `Error from server (NotFound):
/// ...`, a lone plain error `error: ...`, a lone invalid node `The Node "n" is invalid:
/// ...` (its causes on `* ` lines when several); several errors one per line.
fn render_errors(
    results: &[(String, Result<LabelOperation, LabelNodeError>)],
    unicode: GoUnicode,
) -> String {
    let mut leaves = Vec::new();
    for (node, r) in results {
        match r {
            Ok(_) => {}
            Err(LabelNodeError::NotFound) => leaves.push(Leaf::NotFound(node)),
            Err(LabelNodeError::AlreadyHasValue(kv)) => {
                for (k, v) in kv {
                    leaves.push(Leaf::Plain(format!(
                        "'{k}' already has a value ({v}), and --overwrite is false"
                    )));
                }
            }
            Err(LabelNodeError::Invalid(errs)) => leaves.push(Leaf::Invalid(node, errs)),
        }
    }
    let not_found = |node: &str| {
        format!(
            "Error from server (NotFound): {}",
            NodeError::NotFound.message_with(node, unicode)
        )
    };
    let mut out = String::new();
    match leaves.as_slice() {
        [] => {}
        [Leaf::NotFound(node)] => out.push_str(&format!("{}\n", not_found(node))),
        [Leaf::Plain(m)] => out.push_str(&format!("error: {m}\n")),
        [Leaf::Invalid(node, errs)] => {
            let prefix = format!("The Node {} is invalid: ", go_quote_with(node, unicode));
            if let [one] = errs {
                out.push_str(&format!("{prefix}{}\n", one.message()));
            } else {
                out.push_str(&format!("{prefix}\n"));
                for e in *errs {
                    out.push_str(&format!("* {}\n", e.message()));
                }
            }
        }
        many => {
            for leaf in many {
                let line = match leaf {
                    Leaf::NotFound(node) => not_found(node),
                    Leaf::Plain(m) => m.clone(),
                    Leaf::Invalid(node, errs) => format!(
                        "Error from server (Invalid): {}",
                        api_status_message("Node", node, errs).unwrap_or_default()
                    ),
                };
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// Parses and runs a `kubectl label` command (arguments after `kubectl label`) against
/// `nodes`. A command error gives its stderr and exit code 1 and leaves the nodes
/// unchanged.
pub fn run_kubectl_label<S: AsRef<str>>(
    args: &[S],
    nodes: &[Node],
    version: KubeVersion,
) -> LabelRun {
    match parse_label_command(args, version) {
        Ok(cmd) => cmd.apply_to_nodes(nodes),
        Err(e) => LabelRun {
            results: Vec::new(),
            nodes: nodes.to_vec(),
            stdout: String::new(),
            stderr: label_error_stderr(&e),
            exit_code: e.exit_code(),
            warnings: Vec::new(),
            command_error: Some(e),
        },
    }
}

#[cfg(test)]
mod tests;
