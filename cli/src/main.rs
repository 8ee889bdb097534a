//! `taintlab`: the playground's answers in the terminal and in CI.
//!
//! Every answer comes from the scenario crate (`taintlab_scenario`), the one pipeline the
//! playground and the npm package render; `-o json` prints what the npm package's
//! `analyze` / `policyDecision` return for the same texts and options (the same native
//! functions, called here). This binary only reads files and renders.
//!
//! Exit codes: 0 success; 1 the answer is "no" (the pod fits no node, a check or a
//! validation failed, the policy rejects); 2 the input or the command line could not
//! be read.

mod cmd;
mod config;
mod input;
mod kube;
mod load;
mod out;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

/// Exit code: the answer is "no".
pub const EXIT_NO: u8 = 1;
/// Exit code: the input or the command line could not be read.
pub const EXIT_INPUT: u8 = 2;

const AFTER_HELP: &str = "\
Exit codes:
  0  success
  1  the answer is \"no\": a pod fits no node (why), a workload fails (check),
     validation errors (validate), the policy rejects (policy run/check)
  2  the input or the command line could not be read (errors are printed like a
     compiler's, file:line:col: error: ..., and nothing is printed to stdout)

Input: -f and --nodes take files, directories (read recursively: .yaml, .yml, .json)
and - for standard input, in every form the playground reads (objects and lists in
YAML or JSON, kubectl get -o yaml/json, kubectl describe, kubectl taint lines, bare
taint and toleration lists, FailedScheduling events). Without -f and --nodes, a piped
standard input is read.

As a kubectl plugin: install the binary as kubectl-taintlab on PATH (a symlink works).
`kubectl taintlab why web -n shop` then reads the cluster by running your own
`kubectl get nodes -o json` and `kubectl get pods -o json` (honouring --context,
--kubeconfig, -n and -A; -v prints the commands); -f and --nodes read files instead.
--cluster does the same from `taintlab`.";

/// The playground's answers in the terminal: why a pod is Pending, the scheduling
/// matrix, API validation, eviction timelines and the Kubewarden policy's decision.
#[derive(Parser, Debug)]
#[command(name = "taintlab", version, after_long_help = AFTER_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Why a pod is (or is not) Pending: per node, the first filter that rejects it and
    /// why, the exact FailedScheduling text, and what to change.
    #[command(after_long_help = "\
Examples:
  taintlab why web -f pods.yaml --nodes nodes.json
  kubectl get nodes -o json > nodes.json; taintlab why shop/web -f deploy/ --nodes nodes.json
  taintlab why deployment/web -f manifests/ --nodes nodes.json --node gpu-1
  cat scenario.yaml | taintlab why web -o json

POD is NAME, NAMESPACE/NAME or KIND/NAME (pod/web, deployment/web); -n narrows
the namespace. Anonymous toleration lists are pod-1, pod-2, ...

Exit codes: 0 the pod fits some node (with --node: that node), 1 it does not,
2 unreadable input or no such pod.")]
    Why(WhyArgs),
    /// The pod × node matrix: which pod fits which node, with scores, and the
    /// FailedScheduling message of every pod that fits nowhere.
    #[command(after_long_help = "\
Examples:
  taintlab schedule -f pods.yaml --nodes nodes.json
  kubectl get nodes -o json | taintlab schedule -f deploy.yaml --nodes -
  taintlab schedule -f scenario.yaml -o json     # npm analyze(text)'s JSON
  taintlab schedule -f pods.yaml --nodes nodes.json -o yaml

Cells: ✓ fits (TaintToleration score), ~ fits with untolerated PreferNoSchedule
taints (score), ✗ rejected (the first filter that rejected it), = bound here by
spec.nodeName, · bound elsewhere; ! a running pod would be evicted.
Colour only on a terminal; NO_COLOR is honoured. A matrix wider than the terminal
becomes one line per pod (--wide prints the matrix anyway).

Exit codes: 0 printed (even when pods fit nowhere; use `check` in CI), 2 unreadable input.")]
    Schedule(ScheduleArgs),
    /// API validation of every pod's tolerations in the API server's words (and the
    /// taint values the input layer checks), located like a compiler's errors.
    #[command(after_long_help = "\
Examples:
  taintlab validate -f manifests/
  taintlab validate -f deploy.yaml --kubernetes-version 1.31
  cat pod.yaml | taintlab validate

Output: file:line:col: error: <field path>: <message>, then the offending line, then
the API server's status message (Deployment.apps \"web\" is invalid: ...).

Exit codes: 0 valid, 1 validation errors, 2 unreadable input.")]
    Validate(ValidateArgs),
    /// CI gate: every workload must be valid, admitted, fit some node and (with
    /// --settings) be accepted by the Kubewarden policy; a summary line at the end.
    #[command(after_long_help = "\
Examples:
  taintlab check -f manifests/ --nodes nodes.json
  taintlab check -f manifests/ --nodes nodes.json --settings policy-settings.json
  taintlab check -f manifests/ --nodes nodes.json -o github   # GitHub annotations

Exit codes: 0 every workload passes, 1 some workload fails, 2 unreadable input.")]
    Check(CheckArgs),
    /// The Kubewarden policy's decision offline (the function policy.wasm runs).
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// The taint-eviction controller's timeline of every pod on every node with
    /// NoExecute taints, as if the taints appeared at second 0.
    #[command(after_long_help = "\
Examples:
  taintlab timeline -f scenario.yaml
  taintlab timeline -f pods.yaml --nodes nodes.json --pod web -o json

Exit codes: 0 printed, 2 unreadable input.")]
    Timeline(TimelineArgs),
    /// What happens, second by second, after timed actions: taints, cordon, drain, a
    /// node that stops reporting, returns or is deleted, a workload scaled.
    #[command(
        name = "what-if",
        after_long_help = "\
Examples:
  taintlab what-if -f cluster.yaml --taint node1=k=v:NoExecute --at 60 --drain node2 --fail node3 --until 1800
  taintlab what-if -f pods.yaml --nodes nodes.json --drain node2 --ignore-daemonsets --force
  taintlab what-if -f scenario.yaml --fail node1@0 --recover node1@400 -o json

Each action happens at its own @SECONDS, else at the last --at before it on the
command line (0 before any --at). Actions at the same second apply in command-line
order. --taint NODE=KEY[=VALUE]:EFFECT, --untaint NODE=KEY[:EFFECT], --cordon,
--uncordon, --drain, --fail (the kubelet stops reporting), --recover (it reports
Ready again), --delete-node take a node; --scale KIND/NAME=REPLICAS a workload.
The drain flags apply to every --drain.

The simulation runs the taint-eviction controller, the node lifecycle controller,
DefaultTolerationSeconds, the workload controllers, the scheduler (full filter chain,
preemption) and kubectl drain with the Eviction API. The starting cluster is the
input's nodes and pods; the input layer does not read ownerReferences, spec.replicas,
labels, terminationGracePeriodSeconds, emptyDir volumes or PodDisruptionBudgets yet,
so pods are unmanaged (drain needs --force; nothing recreates them), a workload runs
one replica, grace periods are 30 s and no budget applies.

Output: every Event and kubectl drain line with its second, then a summary.
-o json|yaml: {apiVersion: taintlab.dev/v1, kind: WhatIfResult, kubernetesVersion,
actions, timeline} where timeline is the core simulation's Timeline.

Exit codes: 0 every pod placed and every drain finished by --until, 1 a pod is
still Pending or a drain unfinished, 2 unreadable input or actions."
    )]
    WhatIf(Box<WhatIfArgs>),
    /// Shell completions: `taintlab completion bash > /etc/bash_completion.d/taintlab`.
    #[command(after_long_help = "\
Examples:
  taintlab completion bash > ~/.local/share/bash-completion/completions/taintlab
  taintlab completion zsh > \"${fpath[1]}/_taintlab\"
  taintlab completion fish > ~/.config/fish/completions/taintlab.fish")]
    Completion {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

impl Command {
    /// The input and modelling flags of the command, when it has them.
    fn common_mut(&mut self) -> Option<&mut Common> {
        match self {
            Command::Why(a) => Some(&mut a.common),
            Command::Schedule(a) => Some(&mut a.common),
            Command::Validate(a) => Some(&mut a.common),
            Command::Check(a) => Some(&mut a.common),
            Command::Timeline(a) => Some(&mut a.common),
            Command::WhatIf(a) => Some(&mut a.common),
            Command::Policy(PolicyCommand::Check(a)) => Some(&mut a.common),
            Command::Policy(PolicyCommand::Run(_)) | Command::Completion { .. } => None,
        }
    }
}

/// The Kubewarden policy's commands.
#[derive(Subcommand, Debug)]
pub enum PolicyCommand {
    /// Decide one AdmissionRequest, AdmissionReview or Kubernetes object.
    #[command(after_long_help = "\
Examples:
  taintlab policy run --settings settings.json request.json
  taintlab policy run --settings settings.json pod.yaml --nodes nodes.json
  kubectl get pod web -o json | taintlab policy run --settings settings.json -

A Kubernetes object is wrapped in a CREATE AdmissionRequest as the API server sends
it. -o json prints what npm policyDecision returns.

Exit codes: 0 accepted, 1 rejected, 2 unreadable input or settings.")]
    Run(PolicyRunArgs),
    /// Decide every workload of manifests as the API server would send them.
    #[command(after_long_help = "\
Examples:
  taintlab policy check -f manifests/ --settings settings.json
  taintlab policy check -f manifests/ --settings settings.json --nodes nodes.json -o github

Exit codes: 0 every workload accepted, 1 some rejected, 2 unreadable input or settings.")]
    Check(PolicyCheckArgs),
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `--daemonset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DaemonSet {
    /// DaemonSet workloads get the DaemonSet controller's tolerations.
    Auto,
    /// Every pod is treated as a DaemonSet pod.
    All,
    /// No pod is.
    None,
}

/// Where the scenario comes from and how it is modelled.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Workloads, or a whole scenario (files, directories, - for stdin). Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "PATH")]
    pub files: Vec<PathBuf>,
    /// Nodes (kubectl get nodes -o json, taint lists, kubectl taint lines...). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub nodes: Vec<PathBuf>,
    /// Kubernetes release modelled (1.25 to 1.37; default the newest).
    #[arg(long, value_name = "VERSION")]
    pub kubernetes_version: Option<String>,
    /// Turn the TaintTolerationComparisonOperators gate on (Lt/Gt, 1.35+).
    #[arg(long)]
    pub comparison_operators: bool,
    /// Skip admission (pods from `kubectl get -o yaml` already went through it).
    #[arg(long, conflicts_with = "admission")]
    pub no_admission: bool,
    /// Admission plugins and their configuration (YAML or JSON, npm's
    /// `options.admission`: defaultTolerationSeconds, podTolerationRestriction
    /// {default, whitelist}, extendedResourceToleration, namespace
    /// {defaultTolerations, tolerationsWhitelist}, operation, qosClass,
    /// requestedResources).
    #[arg(long, value_name = "FILE")]
    pub admission: Option<PathBuf>,
    /// Which pods get the DaemonSet controller's tolerations [default: auto].
    #[arg(long, value_enum)]
    pub daemonset: Option<DaemonSet>,
    /// Colour [default: auto].
    #[arg(long, value_enum)]
    pub color: Option<Color>,
    /// Defaults for these flags (YAML or JSON); without it $TAINTLAB_CONFIG, then
    /// $XDG_CONFIG_HOME/taintlab/config.yaml (~/.config/taintlab/config.yaml) when it exists.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print only errors on stderr (no warnings).
    #[arg(short, long)]
    pub quiet: bool,
    /// Read nodes and pods from the cluster by running your own `kubectl get ... -o json`
    /// (the default when run as `kubectl taintlab` without -f and --nodes).
    #[arg(long)]
    pub cluster: bool,
    /// Namespace: of the pod to find, and of the pods read from the cluster.
    #[arg(short, long)]
    pub namespace: Option<String>,
    /// With the cluster: read the pods of every namespace.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// With the cluster: kubectl's --context.
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// With the cluster: kubectl's --kubeconfig.
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// Print the kubectl commands run (on stderr).
    #[arg(short, long)]
    pub verbose: bool,
}

/// `-o` of the scenario commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// npm's JSON.
    Json,
    /// The same as YAML.
    Yaml,
}

/// `-o` of the gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GateFormat {
    /// For people.
    Text,
    /// JSON.
    Json,
    /// GitHub Actions workflow commands (`::error file=...,line=...::message`).
    Github,
    /// SARIF 2.1.0 (code scanning).
    Sarif,
}

/// `taintlab why`.
#[derive(Args, Debug)]
pub struct WhyArgs {
    /// The pod: NAME, NAMESPACE/NAME or KIND/NAME.
    pub pod: String,
    /// One node in depth: every taint, every toleration, the filters, the score, eviction.
    #[arg(long, value_name = "NODE")]
    pub node: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab schedule`.
#[derive(Args, Debug)]
pub struct ScheduleArgs {
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Print the whole matrix even when it is wider than the terminal.
    #[arg(long)]
    pub wide: bool,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Output format (json: npm analyze's diagnostics).
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Kubewarden policy settings (JSON): also require the policy to accept.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = GateFormat::Text)]
    pub output: GateFormat,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab policy run`.
#[derive(Args, Debug)]
pub struct PolicyRunArgs {
    /// Policy settings (JSON); none means the defaults.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// The AdmissionRequest, AdmissionReview or object (JSON or YAML; - for stdin).
    pub request: PathBuf,
    /// The cluster's nodes, for the policy's node checks (JSON or YAML in any form).
    #[arg(long, value_name = "PATH")]
    pub nodes: Vec<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = GateFormat::Text)]
    pub output: GateFormat,
    /// Colour [default: auto].
    #[arg(long, value_enum)]
    pub color: Option<Color>,
}

/// `taintlab policy check`.
#[derive(Args, Debug)]
pub struct PolicyCheckArgs {
    /// Policy settings (JSON); none means the defaults.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = GateFormat::Text)]
    pub output: GateFormat,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab timeline`.
#[derive(Args, Debug)]
pub struct TimelineArgs {
    /// Only this pod (NAME, NAMESPACE/NAME or KIND/NAME).
    #[arg(long)]
    pub pod: Option<String>,
    /// Only this node.
    #[arg(long)]
    pub node: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// `taintlab what-if`.
#[derive(Args, Debug)]
pub struct WhatIfArgs {
    /// From then on, actions without @SECONDS happen at this second. Repeatable.
    #[arg(long, value_name = "SECONDS")]
    pub at: Vec<String>,
    /// Taint a node: NODE=KEY[=VALUE]:EFFECT[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE=TAINT")]
    pub taint: Vec<String>,
    /// Remove a taint: NODE=KEY[:EFFECT][@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE=KEY")]
    pub untaint: Vec<String>,
    /// kubectl cordon NODE[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE")]
    pub cordon: Vec<String>,
    /// kubectl uncordon NODE[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE")]
    pub uncordon: Vec<String>,
    /// kubectl drain NODE[@SECONDS] (with the drain flags below). Repeatable.
    #[arg(long, value_name = "NODE")]
    pub drain: Vec<String>,
    /// The node's kubelet stops reporting: NODE[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE")]
    pub fail: Vec<String>,
    /// The node's kubelet reports Ready again: NODE[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE")]
    pub recover: Vec<String>,
    /// The Node object is deleted: NODE[@SECONDS]. Repeatable.
    #[arg(long, value_name = "NODE")]
    pub delete_node: Vec<String>,
    /// kubectl scale: KIND/[NAMESPACE/]NAME=REPLICAS[@SECONDS]. Repeatable.
    #[arg(long, value_name = "KIND/NAME=N")]
    pub scale: Vec<String>,
    /// The last simulated second.
    #[arg(long, value_name = "SECONDS", default_value = "600")]
    pub until: String,
    /// Drain: skip DaemonSet-managed pods.
    #[arg(long)]
    pub ignore_daemonsets: bool,
    /// Drain: evict pods with emptyDir volumes.
    #[arg(long)]
    pub delete_emptydir_data: bool,
    /// Drain: evict pods without a controller.
    #[arg(long)]
    pub force: bool,
    /// Drain: delete pods directly, bypassing PodDisruptionBudgets.
    #[arg(long)]
    pub disable_eviction: bool,
    /// Drain: seconds each pod gets to terminate (default: the pod's own).
    #[arg(long, value_name = "SECONDS")]
    pub grace_period: Option<i64>,
    /// Drain: give up after this many seconds (default: wait forever).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<i64>,
    /// Drain: pods deleted longer ago than this many seconds are not waited for.
    #[arg(long, value_name = "SECONDS")]
    pub skip_wait_for_delete_timeout: Option<i64>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    /// Input and modelling.
    #[command(flatten)]
    pub common: Common,
}

/// The name the binary was invoked as decides how help names it: `kubectl taintlab`
/// when installed as the kubectl plugin `kubectl-taintlab`.
pub(crate) fn bin_name() -> &'static str {
    let arg0 = std::env::args_os().next().unwrap_or_default();
    let stem = std::path::Path::new(&arg0)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("taintlab")
        .to_string();
    if stem == "kubectl-taintlab" {
        "kubectl taintlab"
    } else {
        "taintlab"
    }
}

fn main() -> ExitCode {
    let matches = Cli::command().bin_name(bin_name()).get_matches();
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let mut command = cli.command;
    if let Some(c) = command.common_mut() {
        if let Err(e) = config::apply(c) {
            out::print_error(&out::Style::stderr(c.color), &e);
            return ExitCode::from(EXIT_INPUT);
        }
        progress::configure(progress::Settings::detect(c.quiet, c.color));
    }
    let code = match command {
        Command::Why(a) => cmd::why::run(&a),
        Command::Schedule(a) => cmd::schedule::run(&a),
        Command::Validate(a) => cmd::validate::run(&a),
        Command::Check(a) => cmd::check::run(&a),
        Command::Policy(PolicyCommand::Run(a)) => cmd::policy::run(&a),
        Command::Policy(PolicyCommand::Check(a)) => cmd::policy::check(&a),
        Command::Timeline(a) => cmd::timeline::run(&a),
        Command::WhatIf(a) => cmd::whatif::run(&a, matches.subcommand_matches("what-if")),
        Command::Completion { shell } => {
            let mut c = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut c, "taintlab", &mut script);
            out::write_stdout(&String::from_utf8_lossy(&script));
            0
        }
    };
    progress::clear();
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
