//! `taintlab policy run` and `taintlab policy check`: the Kubewarden policy's decision
//! offline, through the function the policy module runs (`taintlab_policy::evaluate`).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use taintlab_policy::Settings;
use taintlab_scenario::{Options, PaneKind, ParsedPane, Scenario, UserInfo};

use super::check::{SarifResult, gh_annotation, pod_name, pod_place, sarif};
use super::load;
use crate::input::{read_all, read_document};
use crate::out::{Style, pretty_json, print_error};
use crate::{EXIT_INPUT, EXIT_NO, GateFormat, PolicyCheckArgs, PolicyRunArgs};

fn read_one(path: &Path) -> Result<(String, String), String> {
    let files = read_all(&[path.to_path_buf()])?;
    let f = files
        .into_iter()
        .next()
        .ok_or_else(|| format!("{}: nothing to read", path.display()))?;
    Ok((f.name, f.text))
}

/// Reads and validates policy settings (JSON or YAML), as the policy's
/// `validate_settings` does.
pub fn read_settings_file(path: &Path) -> Result<Settings, String> {
    let (name, text) = read_one(path)?;
    let v = read_document(&name, &text)?;
    taintlab_scenario::read_settings(&v.to_string()).map_err(|e| format!("{name}: {e}"))
}

/// The nodes of `paths` in any form the input layer reads, as the plain objects npm
/// `policyDecision` takes in `options.nodes`.
fn plain_nodes(paths: &[PathBuf]) -> Result<Vec<Value>, String> {
    let files = read_all(paths)?;
    let joined = crate::input::Joined::new(files);
    let pane = ParsedPane::parse(
        &joined.text,
        PaneKind::Nodes,
        taintlab_core::KubeVersion::NEWEST,
    );
    if let Some(e) = pane.errors().next() {
        let at = joined
            .locate(&e.location)
            .map(|a| format!("{}:{}:{}: ", a.file.name, a.line, a.column))
            .unwrap_or_default();
        return Err(format!("{at}{}", e.message));
    }
    let s = Scenario::build(&[&pane], &Options::default());
    Ok(s.nodes
        .iter()
        .map(|n| {
            let taints: Vec<Value> = n
                .node
                .taints
                .iter()
                .map(|t| json!({"key": t.key, "value": t.value, "effect": t.effect.as_str()}))
                .collect();
            json!({
                "name": n.node.name,
                "unschedulable": n.node.unschedulable,
                "taints": taints,
                "labels": n.node.labels,
            })
        })
        .collect())
}

/// Runs `policy run`.
pub fn run(a: &PolicyRunArgs) -> u8 {
    let err = Style::stderr(a.color);
    let fail = |m: String| {
        print_error(&err, &m);
        EXIT_INPUT
    };
    let settings = match &a.settings {
        None => Value::Object(Map::new()),
        Some(p) => match read_one(p).and_then(|(n, t)| read_document(&n, &t)) {
            Ok(v) => v,
            Err(e) => return fail(e),
        },
    };
    let (name, text) = match read_one(&a.request) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let request = match read_document(&name, &text) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let mut options = json!({"settings": settings});
    if !a.nodes.is_empty() {
        match plain_nodes(&a.nodes) {
            Ok(n) => options["nodes"] = Value::Array(n),
            Err(e) => return fail(e),
        }
    }
    let decision = match taintlab_json::api::policy_decision(&request, &options) {
        Ok(d) => d,
        Err(e) => return fail(format!("{name}: {}", e.message)),
    };
    let v: Value = match serde_json::from_str(&decision) {
        Ok(v) => v,
        Err(e) => return fail(e.to_string()),
    };
    let accepted = v["accepted"].as_bool().unwrap_or(false);
    let code = if accepted { 0 } else { EXIT_NO };
    let strs = |k: &str| -> Vec<String> {
        v[k].as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    match a.output {
        GateFormat::Json => crate::say!("{}", pretty_json(&decision)),
        GateFormat::Sarif => {
            let mut results = Vec::new();
            if !accepted {
                results.push(SarifResult {
                    rule: "policy",
                    level: "error",
                    message: v["message"].as_str().unwrap_or("").to_string(),
                    file: name.clone(),
                    line: 0,
                    column: 0,
                });
            }
            for w in strs("warnings") {
                results.push(SarifResult {
                    rule: "policy-warning",
                    level: "warning",
                    message: w,
                    file: name.clone(),
                    line: 0,
                    column: 0,
                });
            }
            crate::sayln!("{}", sarif(&results));
        }
        GateFormat::Github => {
            if !accepted {
                gh_annotation(
                    "error",
                    &name,
                    0,
                    0,
                    "taintlab policy: rejected",
                    v["message"].as_str().unwrap_or(""),
                );
            }
            for w in strs("warnings") {
                gh_annotation("warning", &name, 0, 0, "taintlab policy: warning", &w);
            }
            crate::sayln!(
                "taintlab policy: {name}: {}",
                if accepted { "accepted" } else { "rejected" }
            );
        }
        GateFormat::Text => {
            let style = Style::stdout(a.color);
            if accepted {
                crate::sayln!("{}", style.green(&style.bold("accepted")));
            } else {
                crate::sayln!(
                    "{} ({}): {}",
                    style.red(&style.bold("rejected")),
                    v["code"].as_i64().unwrap_or_default(),
                    v["message"].as_str().unwrap_or("")
                );
            }
            for w in strs("warnings") {
                crate::sayln!("{} {w}", style.yellow("warning:"));
            }
            for m in strs("mutations") {
                crate::sayln!("{} {m}", style.bold("mutation:"));
            }
            if !v["patch"].is_null() && v.get("patch").is_some() {
                crate::sayln!("patch: {}", v["patch"]);
            }
            if let Some(nc) = v["nodeChecks"].as_str() {
                crate::sayln!("{}", style.dim(&format!("node checks: {nc}")));
            }
        }
    }
    code
}

/// Runs `policy check`.
pub fn check(a: &PolicyCheckArgs) -> u8 {
    let settings = match &a.settings {
        None => match taintlab_scenario::read_settings("{}") {
            Ok(s) => s,
            Err(e) => {
                print_error(&Style::stderr(a.common.color), &e);
                return EXIT_INPUT;
            }
        },
        Some(p) => match read_settings_file(p) {
            Ok(s) => s,
            Err(e) => {
                print_error(&Style::stderr(a.common.color), &e);
                return EXIT_INPUT;
            }
        },
    };
    let (l, s) = match load(&a.common) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let answers = s.policy(&settings, &UserInfo::default());
    let rejected = answers.iter().filter(|x| !x.decision.accepted).count();
    let summary = format!(
        "taintlab policy check: {} workload(s): {} accepted, {rejected} rejected",
        answers.len(),
        answers.len() - rejected
    );
    match a.output {
        GateFormat::Text => {
            let style = Style::stdout(a.common.color);
            for x in &answers {
                let (file, line, col) = pod_place(&l, &s, x.pod);
                let d = &x.decision;
                if d.accepted {
                    let mutated = if x.patch.is_some() { " (mutated)" } else { "" };
                    crate::sayln!("{} {}{mutated}", style.green("ok  "), pod_name(&s, x.pod));
                } else {
                    let at = if line > 0 {
                        format!("{file}:{line}:{col}: ")
                    } else {
                        String::new()
                    };
                    crate::sayln!(
                        "{at}{}: {} is rejected by the policy: {}",
                        style.red(&style.bold("error")),
                        pod_name(&s, x.pod),
                        d.message.as_deref().unwrap_or("")
                    );
                }
                for w in &d.warnings {
                    crate::sayln!("{} {}: {w}", style.yellow("warning:"), pod_name(&s, x.pod));
                }
            }
            crate::sayln!("{summary}");
        }
        GateFormat::Sarif => {
            let mut results = Vec::new();
            for x in &answers {
                let (file, line, column) = pod_place(&l, &s, x.pod);
                let who = pod_name(&s, x.pod);
                if !x.decision.accepted {
                    results.push(SarifResult {
                        rule: "policy",
                        level: "error",
                        message: format!("{who}: {}", x.decision.message.as_deref().unwrap_or("")),
                        file: file.clone(),
                        line,
                        column,
                    });
                }
                for w in &x.decision.warnings {
                    results.push(SarifResult {
                        rule: "policy-warning",
                        level: "warning",
                        message: format!("{who}: {w}"),
                        file: file.clone(),
                        line,
                        column,
                    });
                }
            }
            crate::sayln!("{}", sarif(&results));
        }
        GateFormat::Github => {
            for x in &answers {
                let (file, line, col) = pod_place(&l, &s, x.pod);
                let title = format!("taintlab policy: {}", pod_name(&s, x.pod));
                if !x.decision.accepted {
                    let m = x.decision.message.as_deref().unwrap_or("");
                    gh_annotation("error", &file, line, col, &title, m);
                }
                for w in &x.decision.warnings {
                    gh_annotation("warning", &file, line, col, &title, w);
                }
            }
            crate::sayln!("{summary}");
        }
        GateFormat::Json => {
            let items: Vec<Value> = answers
                .iter()
                .map(|x| {
                    let e = &s.pods[x.pod];
                    let (file, line, col) = pod_place(&l, &s, x.pod);
                    json!({
                        "kind": e.kind,
                        "name": e.pod.name,
                        "namespace": e.pod.namespace,
                        "file": file,
                        "line": line,
                        "column": col,
                        "accepted": x.decision.accepted,
                        "message": x.decision.message,
                        "code": x.decision.code,
                        "warnings": x.decision.warnings,
                        "mutations": x.decision.mutations,
                        "patch": x.patch,
                    })
                })
                .collect();
            let v = json!({
                "apiVersion": "taintlab.dev/v1",
                "kind": "PolicyCheckResult",
                "workloads": items,
                "accepted": answers.len() - rejected,
                "rejected": rejected,
                "summary": summary,
            });
            crate::sayln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
    if rejected > 0 { EXIT_NO } else { 0 }
}
