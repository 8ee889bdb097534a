//! # taintlab-parity
//!
//! The same paste must give the same answer in the playground and in the npm package
//! (`analyze`, the engine of the `<taint-check>` element). This crate runs a paste
//! through both paths natively and writes what each shows as a canonical summary:
//!
//! * the playground's path ([`playground`]): the text split into the Nodes and Pods
//!   panes as "Open in playground" does ([`split_combined`]), each pane read on its own
//!   ([`Panes`]), the scenario built with the playground's default settings;
//! * npm's path for a documentation example ([`text`]): the text read as one combined
//!   pane ([`Scenario::from_text`]).
//!
//! [`summary`] keeps what a user sees: nodes and their taints, pods and their final
//! tolerations with origins, admission, API validation, each pod × node verdict (the
//! taint filters'), TaintToleration score, NoExecute eviction time, the plugin of the
//! full filter chain that rejected the node (`rejectedBy`) and why the scheduler does
//! not evaluate it (`hold`), FailedScheduling messages (full chain), `kubectl taint` results and
//! every diagnostic with its pane and location. The Node test in
//! `wasm/js/test/node/parity.test.mjs` maps the npm package's output to the same shape
//! and compares it with the summaries committed in `expected/`.
//!
//! What-if ([`what_if`], [`what_if_expected`]): the cases of `whatif/cases.json` (a
//! paste, action lines, the last second) through the scenario's `what_if` as the
//! playground's worker and the command line run it, from the playground's two panes and
//! from the combined text; the result (the actions in their line form, the notes on the
//! starting cluster and core's `Timeline` as serde writes it, or the error) is committed
//! in `whatif/expected/`, and `wasm/js/test/node/whatif_parity.test.mjs` checks that npm
//! `whatIf` gives the same JSON.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use serde_json::{Value, json};
use taintlab_core::scheduling::Verdict;
use taintlab_core::{KubeVersion, Semantics, Taint, Toleration};
use taintlab_input::{Location, Severity};
use taintlab_scenario::{
    AdmissionOptions, FindingKind, NodeOrigin, Options, PaneKind, Panes, ParsedPane, PodOrigin,
    Scenario, format_action, parse_actions, split_combined,
};

/// The options of a fresh playground and of `analyze` without options: the newest
/// release, the comparison-operator gate off, admission on with the kube-apiserver
/// defaults (DefaultTolerationSeconds, 300 s), DaemonSet tolerations for DaemonSet
/// workloads only.
pub fn default_options() -> Options {
    Options {
        semantics: Semantics::at(KubeVersion::NEWEST).with_comparison_operators(false),
        admission: Some(AdmissionOptions::default()),
        daemon_set: None,
    }
}

/// The playground's path: the two panes "Open in playground" fills, and the scenario
/// the playground builds from them.
pub fn playground(text: &str, options: &Options) -> (String, String, Scenario) {
    let version = options.semantics.version;
    let combined = ParsedPane::parse(text, PaneKind::Combined, version);
    let (nodes, pods) = split_combined(text, &combined.parsed);
    let mut panes = Panes::new();
    panes.set(PaneKind::Nodes, &nodes, version);
    panes.set(PaneKind::Pods, &pods, version);
    let scenario = panes.scenario(options);
    (nodes, pods, scenario)
}

/// npm's path for one text (`analyze(text)`).
pub fn text(text: &str, options: &Options) -> Scenario {
    Scenario::from_text(text, options)
}

/// `[document, line, column, path]`, or `null` for no line (as npm writes `null`).
fn location(l: &Location) -> Value {
    if l.line == 0 {
        return Value::Null;
    }
    json!([l.document, l.line, l.column, l.path])
}

fn pane(p: PaneKind) -> &'static str {
    match p {
        PaneKind::Nodes => "nodes",
        PaneKind::Pods => "pods",
        PaneKind::Combined => "text",
    }
}

/// `key|value|effect`.
fn taint(t: &Taint) -> String {
    format!("{}|{}|{}", t.key, t.value, t.effect.as_str())
}

/// `key|operator|value|effect|seconds` (`-` for no seconds).
fn toleration(t: &Toleration) -> String {
    format!(
        "{}|{}|{}|{}|{}",
        t.key,
        t.operator.as_str(),
        t.value,
        t.effect.as_str(),
        t.toleration_seconds
            .map_or_else(|| "-".to_string(), |s| s.to_string())
    )
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Schedulable => "schedulable",
        Verdict::Penalized { .. } => "penalized",
        Verdict::Unschedulable => "unschedulable",
        Verdict::Untolerated { .. } => "untolerated",
        Verdict::Bypassed => "bypassed",
    }
}

/// What a user sees of a scenario, in a shape both sides can produce.
pub fn summary(s: &Scenario) -> Value {
    let nodes: Vec<Value> = s
        .nodes
        .iter()
        .map(|n| {
            json!({
                "name": n.node.name,
                "taints": n.node.taints.iter().map(taint).collect::<Vec<_>>(),
                "unschedulable": n.node.unschedulable,
                "origin": match n.origin {
                    NodeOrigin::Object => "object",
                    NodeOrigin::TaintList => "taint-list",
                    NodeOrigin::Command => "command",
                },
                "pane": pane(n.source.pane),
                "location": location(&n.source.location),
            })
        })
        .collect();
    let pods: Vec<Value> = s
        .pods
        .iter()
        .enumerate()
        .map(|(pi, p)| {
            let cells: Vec<Value> = (0..s.nodes.len())
                .map(|ni| {
                    let cell = s.result.cell(pi, ni);
                    let full = s.placement_cell(pi, ni);
                    let evicted = s
                        .eviction(pi, ni)
                        .and_then(|r| r.pods.first().and_then(|k| r.eviction_time(k)));
                    json!({
                        "verdict": cell.map(|c| verdict(c.verdict)),
                        "score": cell.and_then(|c| c.score),
                        "evictedAt": evicted,
                        "rejectedBy": full.as_ref().and_then(|c| c.rejected_by).map(|p| p.name()),
                        "hold": full.as_ref().and_then(|c| c.hold).map(|h| h.name()),
                    })
                })
                .collect();
            json!({
                "name": p.pod.name,
                "namespace": p.pod.namespace,
                "kind": p.kind,
                "origin": match p.origin {
                    PodOrigin::Object => "object",
                    PodOrigin::TolerationList => "toleration-list",
                },
                "pane": pane(p.source.pane),
                "location": location(&p.source.location),
                "admitted": p.admitted(),
                "rejection": p.rejection,
                "tolerations": p.tolerations.iter().map(|t| json!({
                    "toleration": toleration(&t.toleration),
                    "origin": t.origin.name(),
                    "location": t.location.as_ref().map_or(Value::Null, location),
                })).collect::<Vec<_>>(),
                "dropped": p.dropped.iter().map(|d| toleration(&d.toleration)).collect::<Vec<_>>(),
                "validation": p.validation.iter().map(|e| e.message()).collect::<Vec<_>>(),
                "statusMessage": p.status_message,
                "message": s.message(pi),
                "nodes": cells,
            })
        })
        .collect();
    let commands: Vec<Value> = s
        .commands
        .iter()
        .map(|c| {
            json!({
                "command": c.text,
                "pane": pane(c.source.pane),
                "location": location(&c.source.location),
                "rejected": c.rejected,
                "exitCode": c.exit_code,
                "stdout": c.stdout,
                "stderr": c.stderr,
                "created": c.created,
            })
        })
        .collect();
    let diagnostics: Vec<Value> = s
        .findings
        .iter()
        .map(|f| {
            json!({
                "severity": match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                "code": match f.kind {
                    FindingKind::Input(c) => code_name(c),
                    FindingKind::Kubectl => "kubectl".into(),
                    FindingKind::Validation => "validation".into(),
                    FindingKind::Admission => "admission".into(),
                    FindingKind::Configuration => "configuration".into(),
                    FindingKind::Scheduling => "scheduling".into(),
                },
                "pane": f.pane.map(pane),
                "location": [f.location.document, f.location.line, f.location.column, f.location.path],
                "message": f.message,
            })
        })
        .collect();
    json!({
        "nodes": nodes,
        "pods": pods,
        "commands": commands,
        "diagnostics": diagnostics,
        "errors": s.errors().count(),
    })
}

/// The part of a summary that does not depend on how the text was split into panes:
/// the cluster (node names, taints, cordons), the pods (names, kinds, final
/// tolerations and their origins, admission, validation) and every verdict, score,
/// eviction time and FailedScheduling message. Locations, panes and diagnostics are
/// left out: a pane's lines are not the combined text's.
pub fn cluster(summary: &Value) -> Value {
    let strip = |items: &Value, keep: &[&str]| -> Value {
        Value::Array(
            items
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|item| {
                            let mut m = serde_json::Map::new();
                            for k in keep {
                                m.insert((*k).to_string(), item[*k].clone());
                            }
                            if let Some(t) = item.get("tolerations").and_then(Value::as_array) {
                                let t: Vec<Value> = t
                                    .iter()
                                    .map(|t| json!([t["toleration"], t["origin"]]))
                                    .collect();
                                m.insert("tolerations".into(), Value::Array(t));
                            }
                            Value::Object(m)
                        })
                        .collect()
                })
                .unwrap_or_default(),
        )
    };
    json!({
        "nodes": strip(&summary["nodes"], &["name", "taints", "unschedulable", "origin"]),
        "pods": strip(&summary["pods"], &[
            "name", "namespace", "kind", "origin", "admitted", "rejection", "dropped",
            "validation", "statusMessage", "message", "nodes",
        ]),
    })
}

/// Everything committed for one paste: the panes "Open in playground" fills, the
/// playground's summary of them and npm's summary of the text.
pub fn expected(paste: &str) -> Value {
    let options = default_options();
    let (nodes, pods, scenario) = playground(paste, &options);
    json!({
        "panes": {"nodes": nodes, "pods": pods},
        "playground": summary(&scenario),
        "text": summary(&text(paste, &options)),
    })
}

/// What a what-if run shows: `{actions, notes, timeline}` (the actions in their line
/// form, `null` for one without a line; the messages of the notes on the starting
/// cluster; core's `Timeline` as its serde derives write it, which npm `whatIf` returns
/// too), or `{error: {argument, path, message}}` when the action lines cannot be read
/// (`path` "actions", the message naming the line) or the simulation refuses them (core's
/// field and message). npm throws the error as a `TaintlabError` whose message is
/// `path: message`.
pub fn what_if(scenario: &Scenario, actions: &str, until: i64) -> Value {
    let list = match parse_actions(actions, scenario.semantics.version) {
        Ok(list) => list,
        Err(message) => {
            return json!({"error": {"argument": "actions", "path": "actions", "message": message}});
        }
    };
    match scenario.what_if(&list, until) {
        Ok(timeline) => json!({
            "actions": list.iter().map(format_action).collect::<Vec<_>>(),
            "notes": scenario
                .what_if_cluster()
                .notes
                .iter()
                .map(|n| n.message.clone())
                .collect::<Vec<_>>(),
            "timeline": serde_json::to_value(&timeline).unwrap_or(Value::Null),
        }),
        Err(e) => json!({"error": {
            "argument": if e.field.starts_with("actions") { "actions" } else { "input" },
            "path": e.field,
            "message": e.message,
        }}),
    }
}

/// Everything committed for one what-if case: the panes "Open in playground" fills, the
/// run on the playground's panes and the run on the combined text (npm `whatIf(text)`).
pub fn what_if_expected(paste: &str, actions: &str, until: i64) -> Value {
    let options = default_options();
    let (nodes, pods, scenario) = playground(paste, &options);
    json!({
        "panes": {"nodes": nodes, "pods": pods},
        "playground": what_if(&scenario, actions, until),
        "text": what_if(&text(paste, &options), actions, until),
    })
}

/// The code's name as the input layer serializes it (`yaml-syntax`), which is what npm
/// writes too.
fn code_name(c: taintlab_input::Code) -> String {
    serde_json::to_value(c)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
