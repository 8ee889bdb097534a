//! `taintlab check`: the CI gate.

use serde_json::{Value, json};
use taintlab_input::Severity;
use taintlab_scenario::{FindingKind, Scenario, UserInfo};

use super::load;
use crate::load::Loaded;
use crate::out::{Style, print_error};
use crate::{CheckArgs, EXIT_INPUT, EXIT_NO, GateFormat};

/// Why a workload fails the gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The API server would reject it.
    Invalid,
    /// An admission plugin rejects it.
    Admission,
    /// The Kubewarden policy rejects it.
    Policy,
    /// It fits no node.
    NoFit,
}

impl Failure {
    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Self::Invalid => "invalid",
            Self::Admission => "admission",
            Self::Policy => "policy",
            Self::NoFit => "no-fit",
        }
    }
}

/// One workload's result.
pub struct Outcome {
    /// Index in the scenario's pods.
    pub pod: usize,
    /// Failures with their messages.
    pub failures: Vec<(Failure, String)>,
}

/// `file:line:col` of pod `p`, as parts.
pub fn pod_place(l: &Loaded, s: &Scenario, p: usize) -> (String, usize, usize) {
    let e = &s.pods[p];
    match l.locate(Some(e.source.pane), &e.source.location) {
        Some(a) => (a.file.name.clone(), a.line, a.column),
        None => (String::new(), 0, 0),
    }
}

/// `kind/namespace/name` of pod `p`.
pub fn pod_name(s: &Scenario, p: usize) -> String {
    format!(
        "{}/{}",
        s.pods[p].kind.to_ascii_lowercase(),
        s.pods[p].label()
    )
}

/// A GitHub workflow command's data, escaped.
pub fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A GitHub workflow command's property value, escaped.
pub fn gh_prop(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=..,line=..,col=..,title=..::message`.
pub fn gh_annotation(level: &str, file: &str, line: usize, col: usize, title: &str, msg: &str) {
    let mut props = Vec::new();
    if !file.is_empty() {
        props.push(format!("file={}", gh_prop(file)));
    }
    if line > 0 {
        props.push(format!("line={line}"));
    }
    if col > 0 {
        props.push(format!("col={col}"));
    }
    props.push(format!("title={}", gh_prop(title)));
    crate::sayln!("::{level} {}::{}", props.join(","), gh_data(msg));
}

/// One SARIF result.
pub struct SarifResult {
    /// The rule: `no-fit`, `invalid`, `admission`, `policy`, `policy-warning`.
    pub rule: &'static str,
    /// `error` or `warning`.
    pub level: &'static str,
    /// The message.
    pub message: String,
    /// The file, empty when none.
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
}

/// The rules SARIF results name.
const SARIF_RULES: [(&str, &str); 5] = [
    ("no-fit", "The workload fits no node (FailedScheduling)"),
    (
        "invalid",
        "The API server rejects the workload (validation)",
    ),
    ("admission", "An admission plugin rejects the workload"),
    ("policy", "The Kubewarden policy rejects the workload"),
    (
        "policy-warning",
        "The Kubewarden policy warns about the workload",
    ),
];

/// A SARIF 2.1.0 log of `results`.
pub fn sarif(results: &[SarifResult]) -> String {
    let rules: Vec<Value> = SARIF_RULES
        .iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let results: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut region = serde_json::Map::new();
            if r.line > 0 {
                region.insert("startLine".into(), json!(r.line));
            }
            if r.column > 0 {
                region.insert("startColumn".into(), json!(r.column));
            }
            let mut physical = json!({"artifactLocation": {"uri": r.file}});
            if !region.is_empty() {
                physical["region"] = Value::Object(region);
            }
            let mut v = json!({
                "ruleId": r.rule,
                "level": r.level,
                "message": {"text": r.message},
            });
            if !r.file.is_empty() {
                v["locations"] = json!([{"physicalLocation": physical}]);
            }
            v
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "taintlab",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// Runs `check`.
pub fn run(a: &CheckArgs) -> u8 {
    let settings = match &a.settings {
        None => None,
        Some(path) => match super::policy::read_settings_file(path) {
            Ok(s) => Some(s),
            Err(e) => {
                print_error(&Style::stderr(a.common.color), &e);
                return EXIT_INPUT;
            }
        },
    };
    let (l, s) = match load(&a.common) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let decisions = settings
        .as_ref()
        .map(|st| s.policy(st, &UserInfo::default()));
    let outcomes: Vec<Outcome> = (0..s.pods.len())
        .map(|p| {
            let e = &s.pods[p];
            let mut failures = Vec::new();
            if !e.validation.is_empty() {
                let m = e.status_message.clone().unwrap_or_else(|| {
                    e.validation
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                });
                failures.push((Failure::Invalid, m));
            }
            if let Some(r) = &e.rejection {
                failures.push((Failure::Admission, r.clone()));
            }
            if let Some(d) = decisions.as_ref().and_then(|d| d.get(p))
                && !d.decision.accepted
            {
                failures.push((
                    Failure::Policy,
                    d.decision.message.clone().unwrap_or_default(),
                ));
            }
            if let Some(m) = s.message(p) {
                failures.push((Failure::NoFit, m.to_string()));
            }
            Outcome { pod: p, failures }
        })
        .collect();
    // Errors the input layer or kubectl reported outside any workload also fail the gate.
    let other_errors = s
        .findings
        .iter()
        .filter(|f| {
            f.severity == Severity::Error
                && matches!(f.kind, FindingKind::Input(_) | FindingKind::Kubectl)
        })
        .count();
    let failed = outcomes.iter().filter(|o| !o.failures.is_empty()).count();
    let count = |k: Failure| {
        outcomes
            .iter()
            .filter(|o| o.failures.iter().any(|(f, _)| *f == k))
            .count()
    };
    let summary = format!(
        "taintlab check: {} workload(s) on {} node(s): {} passed, {failed} failed ({} fit nowhere, {} invalid, {} rejected by admission{}){}",
        outcomes.len(),
        s.nodes.len(),
        outcomes.len() - failed,
        count(Failure::NoFit),
        count(Failure::Invalid),
        count(Failure::Admission),
        if settings.is_some() {
            format!(", {} rejected by the policy", count(Failure::Policy))
        } else {
            String::new()
        },
        if other_errors > 0 {
            format!("; {other_errors} input error(s)")
        } else {
            String::new()
        }
    );
    let code = if failed > 0 || other_errors > 0 {
        EXIT_NO
    } else {
        0
    };
    match a.output {
        GateFormat::Text => {
            let style = Style::stdout(a.common.color);
            for o in &outcomes {
                let (file, line, col) = pod_place(&l, &s, o.pod);
                let at = if line > 0 {
                    format!("{file}:{line}:{col}: ")
                } else {
                    String::new()
                };
                if o.failures.is_empty() {
                    crate::sayln!("{} {}", style.green("ok  "), pod_name(&s, o.pod));
                }
                for (f, m) in &o.failures {
                    crate::sayln!(
                        "{}{}: {} {}: {m}",
                        at,
                        style.red(&style.bold("error")),
                        pod_name(&s, o.pod),
                        match f {
                            Failure::Invalid => "is invalid",
                            Failure::Admission => "is rejected by admission",
                            Failure::Policy => "is rejected by the policy",
                            Failure::NoFit => "fits no node",
                        }
                    );
                }
            }
            crate::sayln!("{summary}");
        }
        GateFormat::Sarif => {
            let mut results = Vec::new();
            for o in &outcomes {
                let (file, line, column) = pod_place(&l, &s, o.pod);
                for (f, m) in &o.failures {
                    results.push(SarifResult {
                        rule: f.name(),
                        level: "error",
                        message: format!("{}: {m}", pod_name(&s, o.pod)),
                        file: file.clone(),
                        line,
                        column,
                    });
                }
            }
            crate::sayln!("{}", sarif(&results));
        }
        GateFormat::Github => {
            for o in &outcomes {
                let (file, line, col) = pod_place(&l, &s, o.pod);
                for (f, m) in &o.failures {
                    gh_annotation(
                        "error",
                        &file,
                        line,
                        col,
                        &format!("taintlab check: {} ({})", pod_name(&s, o.pod), f.name()),
                        m,
                    );
                }
            }
            crate::sayln!("{summary}");
        }
        GateFormat::Json => {
            let workloads: Vec<Value> = outcomes
                .iter()
                .map(|o| {
                    let e = &s.pods[o.pod];
                    let (file, line, col) = pod_place(&l, &s, o.pod);
                    json!({
                        "kind": e.kind,
                        "name": e.pod.name,
                        "namespace": e.pod.namespace,
                        "file": file,
                        "line": line,
                        "column": col,
                        "passed": o.failures.is_empty(),
                        "failures": o.failures.iter().map(|(f, m)| json!({"reason": f.name(), "message": m})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let v = json!({
                "apiVersion": "taintlab.dev/v1",
                "kind": "CheckResult",
                "nodes": s.nodes.len(),
                "workloads": workloads,
                "passed": outcomes.len() - failed,
                "failed": failed,
                "inputErrors": other_errors,
                "summary": summary,
            });
            crate::sayln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
    code
}
