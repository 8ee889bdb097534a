//! Conformance runner: executes the JSON test vectors (format described in
//! `vectors/README.md`) against `taintlab-core` and reports per file and in total.
//!
//! Each case names an `op` (or, in single-function files, the function named at the start
//! of the file's `call`). The op's handler computes the actual output from `input`; every
//! key of `expected` (except free-text `note*` keys) must then equal the actual output.

pub mod convert;
mod ops;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The vectors shipped with this crate.
pub fn shipped_vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors")
}

/// The outcome of one case.
#[derive(Debug)]
pub enum CaseOutcome {
    /// Every expected key matched.
    Passed,
    /// Some expected key differed; the text lists the differences.
    Failed(String),
    /// No handler knows the op.
    UnknownOp(String),
    /// The input could not be read into core types, or the case is malformed.
    Error(String),
}

/// One case and its outcome.
#[derive(Debug)]
pub struct CaseResult {
    /// The case name.
    pub name: String,
    /// The op run.
    pub op: String,
    /// What happened.
    pub outcome: CaseOutcome,
}

/// The results of one vector file.
#[derive(Debug)]
pub struct FileReport {
    /// File name.
    pub file: String,
    /// A file-level error (unreadable, not JSON, no `cases`).
    pub error: Option<String>,
    /// Per-case results, in file order.
    pub cases: Vec<CaseResult>,
}

impl FileReport {
    /// Number of passed cases.
    pub fn passed(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| matches!(c.outcome, CaseOutcome::Passed))
            .count()
    }
    /// Number of cases that did not pass.
    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed()
    }
}

/// The results of a directory.
#[derive(Debug)]
pub struct Report {
    /// The directory.
    pub dir: PathBuf,
    /// One entry per `*.json` file, sorted by name.
    pub files: Vec<FileReport>,
}

impl Report {
    /// Total passed cases.
    pub fn passed(&self) -> usize {
        self.files.iter().map(FileReport::passed).sum()
    }
    /// Total failed cases (including unknown ops and malformed cases).
    pub fn failed(&self) -> usize {
        self.files.iter().map(FileReport::failed).sum()
    }
    /// True when there was at least one case, every case passed and every file was read.
    pub fn all_passed(&self) -> bool {
        self.failed() == 0 && self.passed() > 0 && self.files.iter().all(|f| f.error.is_none())
    }

    /// A human-readable report: one line per file, the failures with their differences
    /// (when `details`), and a closing `N passed, N failed` line.
    pub fn render(&self, details: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "conformance vectors in {}", self.dir.display());
        for f in &self.files {
            match &f.error {
                Some(e) => {
                    let _ = writeln!(out, "  {:<44} ERROR {e}", f.file);
                }
                None => {
                    let _ = writeln!(
                        out,
                        "  {:<44} {:>4} passed {:>4} failed",
                        f.file,
                        f.passed(),
                        f.failed()
                    );
                }
            }
            if details {
                for c in &f.cases {
                    let (kind, text) = match &c.outcome {
                        CaseOutcome::Passed => continue,
                        CaseOutcome::Failed(d) => ("FAIL", d.as_str()),
                        CaseOutcome::UnknownOp(d) => ("UNKNOWN OP", d.as_str()),
                        CaseOutcome::Error(d) => ("ERROR", d.as_str()),
                    };
                    let _ = writeln!(out, "    {kind} [{}] {}", c.op, c.name);
                    for line in text.lines() {
                        let _ = writeln!(out, "        {line}");
                    }
                }
            }
        }
        let _ = writeln!(
            out,
            "conformance: {} passed, {} failed",
            self.passed(),
            self.failed()
        );
        out
    }
}

/// Runs every `*.json` file of `dir` (sorted by name; `README.md` and other files are
/// ignored).
pub fn run_dir(dir: &Path) -> Report {
    let mut files = Vec::new();
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            paths.sort();
            for p in paths {
                files.push(run_file(&p));
            }
            if files.is_empty() {
                files.push(FileReport {
                    file: dir.display().to_string(),
                    error: Some("no *.json vector files in this directory".into()),
                    cases: Vec::new(),
                });
            }
        }
        Err(e) => files.push(FileReport {
            file: dir.display().to_string(),
            error: Some(format!("cannot read directory: {e}")),
            cases: Vec::new(),
        }),
    }
    Report {
        dir: dir.to_path_buf(),
        files,
    }
}

/// Runs one vector file.
pub fn run_file(path: &Path) -> FileReport {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            return FileReport {
                file,
                error: Some(format!("cannot read: {e}")),
                cases: Vec::new(),
            };
        }
    };
    let doc: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            return FileReport {
                file,
                error: Some(format!("not JSON: {e}")),
                cases: Vec::new(),
            };
        }
    };
    let Some(cases) = doc.get("cases").and_then(Value::as_array) else {
        return FileReport {
            file,
            error: Some("no \"cases\" array".into()),
            cases: Vec::new(),
        };
    };
    // Single-function files name the function at the start of `call`.
    let default_op = doc
        .get("call")
        .and_then(Value::as_str)
        .and_then(|c| c.split(|ch: char| ch == '(' || ch.is_whitespace()).next())
        .unwrap_or("")
        .to_string();
    let results = cases
        .iter()
        .enumerate()
        .map(|(i, case)| run_case(i, case, &default_op))
        .collect();
    FileReport {
        file,
        error: None,
        cases: results,
    }
}

fn run_case(index: usize, case: &Value, default_op: &str) -> CaseResult {
    let name = case
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("case #{index}"));
    let op = case
        .get("op")
        .and_then(Value::as_str)
        .unwrap_or(default_op)
        .to_string();
    let (Some(input), Some(expected)) = (case.get("input"), case.get("expected")) else {
        return CaseResult {
            name,
            op,
            outcome: CaseOutcome::Error("case lacks input or expected".into()),
        };
    };
    let outcome = match ops::run(&op, input, expected) {
        None => CaseOutcome::UnknownOp(format!("no handler for op {op:?}")),
        Some(Err(e)) => CaseOutcome::Error(e),
        Some(Ok(actual)) => compare(expected, &actual),
    };
    CaseResult { name, op, outcome }
}

/// Compares every key of `expected` (except `note*`) with `actual`.
fn compare(expected: &Value, actual: &Value) -> CaseOutcome {
    let Some(exp) = expected.as_object() else {
        return if expected == actual {
            CaseOutcome::Passed
        } else {
            CaseOutcome::Failed(format!("expected {expected}\n     got {actual}"))
        };
    };
    let mut diff = String::new();
    for (k, v) in exp {
        if k.starts_with("note") {
            continue;
        }
        match actual.get(k) {
            None => {
                let _ = writeln!(diff, "{k}: expected {v}\n{k}: not produced");
            }
            Some(a) if a != v => {
                let _ = writeln!(diff, "{k}: expected {v}\n{k}:      got {a}");
            }
            Some(_) => {}
        }
    }
    if diff.is_empty() {
        CaseOutcome::Passed
    } else {
        CaseOutcome::Failed(diff)
    }
}
