//! Terraform configuration (HCL) pasted as source: the toleration and taint blocks are
//! checked as Terraform, its providers and then the API server would check them, and
//! each problem is reported at its line with the fix.
//!
//! Top-level blocks (`resource`, `data`, `module`, `provider`, `variable`, `output`,
//! `terraform`, `locals`) and bare `toleration` / `taint` blocks are read as Terraform
//! configuration. Blocks checked:
//! - `toleration { key operator value effect toleration_seconds }` in the kubernetes
//!   provider's pod specs (`kubernetes_pod`, `kubernetes_deployment`, ... and a bare
//!   `toleration` block): effect and operator are checked by the provider
//!   (`validation.StringInSlice`, case-sensitive), `toleration_seconds` is a string that
//!   must parse as an integer (`validateTypeStringNullableInt`: `"300"` and `300` are both
//!   accepted), then the API server's toleration rules (`validate_tolerations`);
//!   terraform-provider-kubernetes kubernetes/schema_pod_spec.go `podSpecFields`.
//! - `taint { key value effect }` of `kubernetes_node_taint`: no provider check on the
//!   effect, so the API server's node taint rules decide (`validate_node_taints`);
//!   kubernetes/resource_kubernetes_node_taint.go `nodeTaintFields`.
//! - `taint { key value effect }` in `node_config` of `google_container_cluster` /
//!   `google_container_node_pool` and in `aws_eks_node_group`: effect is one of the cloud
//!   API's names (`NO_SCHEDULE`, `PREFER_NO_SCHEDULE`, `NO_EXECUTE`).
//!
//! A misspelt argument or block name gets Terraform's own "did you mean" (hcl's
//! `nameSuggestion`: the first known name, not yet set in the block, within a
//! Levenshtein distance below 3; hcl/v2 hclsyntax/structure.go `Body.PartialContent`).
//! Values that are expressions (`var.effect`, `"${...}"`) are not judged.
//!
//! The reader is a line scanner for the block structure (blocks, `name = value`
//! arguments, multi-line lists and maps, heredocs, comments), hand-written: no crate
//! reads HCL within the wasm byte budget, and only these few blocks are needed.

use std::fmt::Write as _;
use taintlab_core::suggest::suggest;
use taintlab_core::validation::{go_parse_int64, validate_node_taints, validate_tolerations};
use taintlab_core::{Operator, Taint, TaintEffect, Toleration};

use crate::diag::{Code, Diagnostic, Location};

const TOLERATION_ARGS: [&str; 5] = ["effect", "key", "operator", "toleration_seconds", "value"];
const TAINT_ARGS: [&str; 3] = ["effect", "key", "value"];
const K8S_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const CLOUD_EFFECTS: [&str; 3] = ["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"];
const OPERATORS: [&str; 2] = ["Exists", "Equal"];

/// Which schema a block is checked against.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// The kubernetes provider's pod spec `toleration`.
    Toleration,
    /// `kubernetes_node_taint`'s `taint`.
    NodeTaint,
    /// A GKE or EKS node pool's `taint` (cloud effect names).
    CloudTaint,
}

/// A line that starts a Terraform block worth reading: `resource "T" "N" {` (also
/// `data`, `module`), or a bare `toleration {` / `taint {` block (or a near miss such as
/// `tolerations {`).
pub(crate) fn block_start(line: &str) -> bool {
    // Called on every line of a paste: most lines have no brace at all.
    if !line.contains('{') {
        return false;
    }
    // The block's name starts the line (see block_header): other lines, such as a
    // one-line JSON paste, are not scanned for a comment.
    if !line
        .trim_start()
        .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    {
        return false;
    }
    let Some((name, labels)) = block_header(strip_comment(line).trim()) else {
        return false;
    };
    match name {
        "resource" | "data" => labels.len() == 2,
        "module" | "provider" | "variable" | "output" => labels.len() == 1,
        "terraform" | "locals" => labels.is_empty(),
        _ => {
            labels.is_empty()
                && ((name.starts_with("tol") && near(name, "toleration"))
                    || (name.starts_with("ta") && near(name, "taint")))
        }
    }
}

/// `name "label" ... {` (the labels unquoted), or `None`.
fn block_header(t: &str) -> Option<(&str, Vec<&str>)> {
    let body = t.strip_suffix('{')?.trim_end();
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(body.len());
    let (name, mut rest) = body.split_at(end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let mut labels = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Some((name, labels));
        }
        let r = rest.strip_prefix('"')?;
        let close = r.find('"')?;
        labels.push(&r[..close]);
        rest = &r[close + 1..];
    }
}

/// hcl's Levenshtein rule for suggestions: a distance below 3.
fn near(given: &str, known: &str) -> bool {
    levenshtein(given, known) < 3
}

/// The Levenshtein distance in characters (inputs here are argument names; anything
/// longer than 64 characters is "far").
fn levenshtein(a: &str, b: &str) -> usize {
    let chars = |s: &str| {
        let mut v = Vec::new();
        for c in s.chars() {
            v.push(c);
        }
        v
    };
    let (a, b) = (chars(a), chars(b));
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let mut prev = vec![0; b.len() + 1];
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j;
    }
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The line without a `#` or `//` comment (outside strings).
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    let mut esc = false;
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'#' => return &line[..i],
            b'/' if b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Open minus closed brackets (`[{(`) outside strings.
fn bracket_balance(s: &str) -> i64 {
    let mut n = 0i64;
    let mut in_str = false;
    let mut esc = false;
    for c in s.chars() {
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '[' | '{' | '(' => n += 1,
            ']' | '}' | ')' => n -= 1,
            _ => {}
        }
    }
    n
}

/// A literal string (`"NoSchedule"`, without interpolation) or number (`300`), as text;
/// `None` for an expression.
fn literal(v: &str) -> Option<String> {
    let v = v.trim().trim_end_matches(',');
    if let Some(s) = v.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        if s.contains("${") || s.contains("%{") || s.contains('"') {
            return None;
        }
        return Some(s.replace("\\\\", "\\"));
    }
    if !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        && v.chars().any(|c| c.is_ascii_digit())
    {
        return Some(v.to_string());
    }
    match v {
        "true" | "false" => Some(v.to_string()),
        _ => None,
    }
}

struct Arg {
    name: String,
    value: String,
    line: usize,
    column: usize,
    value_column: usize,
}

struct Frame {
    name: String,
    labels: Vec<String>,
    line: usize,
    column: usize,
    /// The block's index among its parent's blocks of the same type.
    index: usize,
    args: Vec<Arg>,
    /// Blocks of each type seen so far inside this one.
    children: Vec<(String, usize)>,
}

/// What reading one block found.
pub(crate) struct Read {
    /// Lines the block spans (at least 1).
    pub lines: usize,
    /// Bytes the block spans, from the start of its first line.
    pub bytes: usize,
    /// Problems found, located in document `doc`.
    pub diagnostics: Vec<Diagnostic>,
    /// Toleration and taint blocks checked.
    pub checked: usize,
}

/// Reads the block that starts `text` (its first line numbered `first_line`) to its
/// closing brace (or the end of the text, or a line that is not HCL at the outermost
/// level), checking its toleration and taint blocks.
pub(crate) fn read_block(text: &str, first_line: usize, doc: usize) -> Read {
    let mut out = Read {
        lines: 0,
        bytes: 0,
        diagnostics: Vec::new(),
        checked: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    // Open brackets of a multi-line argument value, or the end marker of a heredoc.
    let mut value_depth = 0i64;
    let mut heredoc: Option<String> = None;
    let mut off = 0;
    let mut n = 0;
    // Lines and bytes that belong to the block.
    let (mut lines, mut bytes) = (0, 0);
    while off < text.len() {
        let rest = &text[off..];
        let (raw, next) = match rest.find('\n') {
            Some(i) => (&rest[..i], off + i + 1),
            None => (rest, text.len()),
        };
        let line_no = first_line + n;
        if stack.is_empty() && n > 0 {
            break;
        }
        n += 1;
        off = next;
        let raw = raw.trim_end_matches('\r');
        if let Some(end) = &heredoc {
            if raw.trim() == end {
                heredoc = None;
            }
            (lines, bytes) = (n, off);
            continue;
        }
        let line = strip_comment(raw);
        let t = line.trim();
        if value_depth > 0 {
            value_depth += bracket_balance(t);
            (lines, bytes) = (n, off);
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let column = raw[..raw.len() - raw.trim_start().len()].chars().count() + 1;
        if t.starts_with('}') {
            if let Some(f) = stack.pop() {
                check_frame(&f, &stack, doc, &mut out);
            }
            (lines, bytes) = (n, off);
            continue;
        }
        if let Some((name, labels)) = block_header(t) {
            let parent = stack.last_mut();
            let index = match parent {
                Some(p) => match p.children.iter_mut().find(|c| c.0 == name) {
                    Some(c) => {
                        c.1 += 1;
                        c.1 - 1
                    }
                    None => {
                        p.children.push((name.to_string(), 1));
                        0
                    }
                },
                None => 0,
            };
            stack.push(Frame {
                name: name.to_string(),
                labels: labels.iter().map(|l| l.to_string()).collect(),
                line: line_no,
                column,
                index,
                args: Vec::new(),
                children: Vec::new(),
            });
            (lines, bytes) = (n, off);
            continue;
        }
        if let Some((name, value)) = t.split_once('=')
            && !value.starts_with('=')
            && !name.trim().is_empty()
            && name
                .trim()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '"')
            && !stack.is_empty()
        {
            let value = value.trim();
            if let Some(marker) = value.strip_prefix("<<") {
                heredoc = Some(marker.trim_start_matches('-').trim().to_string());
            } else {
                value_depth = bracket_balance(value).max(0);
            }
            let name = name.trim().trim_matches('"');
            if let Some(f) = stack.last_mut() {
                f.args.push(Arg {
                    name: name.to_string(),
                    value: value.to_string(),
                    line: line_no,
                    column,
                    value_column: raw
                        .find(value)
                        .map_or(column, |i| raw[..i].chars().count() + 1),
                });
            }
            (lines, bytes) = (n, off);
            continue;
        }
        if stack.is_empty() {
            break;
        }
        // A one-line block (`toleration { key = "k" }`) or other syntax: skipped, its
        // brackets followed.
        value_depth = bracket_balance(t).max(0);
        (lines, bytes) = (n, off);
    }
    // A paste that stops before the closing braces: what was read is still checked.
    while let Some(f) = stack.pop() {
        check_frame(&f, &stack, doc, &mut out);
    }
    out.lines = lines.max(1);
    out.bytes = if lines == 0 {
        text.find('\n').map_or(text.len(), |i| i + 1)
    } else {
        bytes
    };
    out
}

/// The resource type of the outermost `resource "T" "N"` block.
fn resource_type<'a>(stack: &'a [Frame], f: &'a Frame) -> Option<&'a str> {
    let top = stack.first().unwrap_or(f);
    (top.name == "resource" || top.name == "data")
        .then(|| top.labels.first().map(String::as_str))
        .flatten()
}

/// Terraform's attribute path of an argument of `f` (`spec.0.toleration.1.effect`).
fn tf_path(stack: &[Frame], f: &Frame, arg: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (i, fr) in stack.iter().chain(std::iter::once(f)).enumerate() {
        if i == 0 && matches!(fr.name.as_str(), "resource" | "data" | "module") {
            continue;
        }
        parts.push(format!("{}.{}", fr.name, fr.index));
    }
    parts.push(arg.to_string());
    parts.join(".")
}

/// The schema a block is checked against, if it is a toleration or taint block.
fn kind_of(name: &str, resource: Option<&str>, f: &Frame) -> Option<Kind> {
    let cloud = |r: &str| {
        matches!(
            r,
            "google_container_cluster" | "google_container_node_pool" | "aws_eks_node_group"
        )
    };
    match (name, resource) {
        ("toleration", None) => Some(Kind::Toleration),
        ("toleration", Some(r)) if r.starts_with("kubernetes_") => Some(Kind::Toleration),
        ("taint", Some("kubernetes_node_taint")) => Some(Kind::NodeTaint),
        ("taint", Some(r)) if cloud(r) => Some(Kind::CloudTaint),
        ("taint", None) => {
            // A bare block: the effect's spelling tells the provider.
            let eff = f.args.iter().find(|a| a.name == "effect");
            let cloud_style = eff
                .and_then(|a| literal(&a.value))
                .is_some_and(|v| v.contains('_') || (v.len() > 1 && v == v.to_ascii_uppercase()));
            Some(if cloud_style {
                Kind::CloudTaint
            } else {
                Kind::NodeTaint
            })
        }
        _ => None,
    }
}

/// The block type expected where `name` stands, when `name` is a misspelling of it.
fn misspelt_block(name: &str, resource: Option<&str>) -> Option<&'static str> {
    let kubernetes = resource.is_none_or(|r| r.starts_with("kubernetes_"));
    let cloud = resource.is_none_or(|r| {
        matches!(
            r,
            "kubernetes_node_taint"
                | "google_container_cluster"
                | "google_container_node_pool"
                | "aws_eks_node_group"
        )
    });
    if name != "toleration"
        && kubernetes
        && resource != Some("kubernetes_node_taint")
        && near(name, "toleration")
    {
        return Some("toleration");
    }
    if name != "taint" && cloud && near(name, "taint") && name != "toleration" {
        return Some("taint");
    }
    None
}

fn check_frame(f: &Frame, stack: &[Frame], doc: usize, out: &mut Read) {
    let resource = resource_type(stack, f);
    if stack.is_empty() && matches!(f.name.as_str(), "resource" | "data" | "module") {
        return;
    }
    let loc =
        |line: usize, column: usize, path: String| Location::at(doc, line, column).with_path(path);
    let misspelt = misspelt_block(&f.name, resource);
    if let Some(want) = misspelt {
        let what = if want == "toleration" {
            "each toleration is its own `toleration { ... }` block"
        } else {
            "each taint is its own `taint { ... }` block"
        };
        out.diagnostics.push(Diagnostic::error(
            Code::UnknownField,
            loc(f.line, f.column, tf_path(stack, f, "").trim_end_matches('.').to_string()),
            format!(
                "Terraform rejects this block (Blocks of type \"{}\" are not expected here. Did you mean \"{want}\"?): {what}; write \"{want}\" instead of \"{}\"",
                f.name, f.name
            ),
        ));
    }
    // A misspelt block's arguments are checked as the block it was meant to be.
    let Some(kind) = kind_of(misspelt.unwrap_or(&f.name), resource, f) else {
        return;
    };
    out.checked += 1;
    let (what, args): (&str, &[&str]) = match kind {
        Kind::Toleration => ("toleration", &TOLERATION_ARGS),
        Kind::NodeTaint | Kind::CloudTaint => ("taint", &TAINT_ARGS),
    };
    let before = out.diagnostics.len();
    // Unknown argument names, with hcl's suggestion among the names not yet set.
    for a in &f.args {
        if args.contains(&a.name.as_str()) {
            continue;
        }
        let mut unset: Vec<&str> = Vec::new();
        for k in args {
            if !f.args.iter().any(|x| x.name == *k) {
                unset.push(k);
            }
        }
        let hcl_hint = unset.iter().find(|k| near(&a.name, k)).copied();
        let mut msg = format!(
            "Terraform rejects this {what} block: it has no argument \"{}\" (An argument named \"{}\" is not expected here.{})",
            a.name,
            a.name,
            hcl_hint
                .map(|k| format!(" Did you mean \"{k}\"?"))
                .unwrap_or_default()
        );
        match hcl_hint.or_else(|| suggest(&a.name, &unset)) {
            Some(k) => {
                let _ = write!(msg, "; write \"{k}\" instead of \"{}\"", a.name);
            }
            None => {
                let _ = write!(msg, "; its arguments are {}", args.join(", "));
            }
        }
        out.diagnostics.push(Diagnostic::error(
            Code::UnknownField,
            loc(a.line, a.column, tf_path(stack, f, &a.name)),
            msg,
        ));
    }
    let get = |k: &str| f.args.iter().find(|a| a.name == k);
    // The provider's checks of values.
    let effects: &[&str] = match kind {
        Kind::CloudTaint => &CLOUD_EFFECTS,
        _ => &K8S_EFFECTS,
    };
    if let Some(a) = get("effect")
        && let Some(v) = literal(&a.value)
        && !effects.contains(&v.as_str())
        && !(kind == Kind::Toleration && v.is_empty())
    {
        let path = tf_path(stack, f, "effect");
        let fix = match kind {
            Kind::CloudTaint => K8S_EFFECTS
                .iter()
                .position(|e| e.eq_ignore_ascii_case(&v))
                .map(|i| CLOUD_EFFECTS[i])
                .or_else(|| suggest(&v, effects)),
            _ => CLOUD_EFFECTS
                .iter()
                .position(|e| e.eq_ignore_ascii_case(&v))
                .map(|i| K8S_EFFECTS[i])
                .or_else(|| suggest(&v, effects)),
        };
        let who = match kind {
            Kind::Toleration => format!(
                "Terraform rejects this toleration before sending it (expected {path} to be one of {}, got {v})",
                quoted_list(effects)
            ),
            Kind::CloudTaint => format!(
                "Terraform rejects this taint before sending it (expected {path} to be one of {}, got {v}): node pools take the cloud API's effect names, not Kubernetes'",
                quoted_list(effects)
            ),
            Kind::NodeTaint => format!(
                "the API server will reject this taint (spec.taints[{}].effect: Unsupported value: \"{v}\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"); the provider sends the effect unchecked",
                f.index
            ),
        };
        let mut msg = who;
        match fix {
            Some(k) => {
                let _ = write!(msg, "; write \"{k}\" instead of \"{v}\"");
            }
            None => {
                let _ = write!(msg, "; the effect is one of {}", effects.join(", "));
            }
        }
        out.diagnostics.push(Diagnostic::error(
            Code::InvalidValue,
            loc(a.line, a.value_column, path),
            msg,
        ));
    }
    if kind == Kind::Toleration {
        if let Some(a) = get("operator")
            && let Some(v) = literal(&a.value)
            && !OPERATORS.contains(&v.as_str())
        {
            let path = tf_path(stack, f, "operator");
            let mut msg = format!(
                "Terraform rejects this toleration before sending it (expected {path} to be one of {}, got {v})",
                quoted_list(&OPERATORS)
            );
            match suggest(&v, &OPERATORS) {
                Some(k) => {
                    let _ = write!(msg, "; write \"{k}\" instead of \"{v}\"");
                }
                None => msg.push_str("; the operator is Exists or Equal"),
            }
            out.diagnostics.push(Diagnostic::error(
                Code::InvalidValue,
                loc(a.line, a.value_column, path),
                msg,
            ));
        }
        if let Some(a) = get("toleration_seconds")
            && let Some(v) = literal(&a.value)
            && !v.is_empty()
            && let Err(e) = go_parse_int64(&v)
        {
            let path = tf_path(stack, f, "toleration_seconds");
            // A duration written with its unit (`30s`, `5m`, `1h`) in seconds.
            let secs = v
                .strip_suffix(['s', 'm', 'h'])
                .and_then(|n| n.parse::<i64>().ok())
                .and_then(|n| {
                    n.checked_mul(match v.chars().last() {
                        Some('m') => 60,
                        Some('h') => 3600,
                        _ => 1,
                    })
                });
            let fix = match secs {
                Some(n) => format!("write \"{n}\" instead of \"{v}\""),
                None => "write a whole number such as \"300\"".to_string(),
            };
            out.diagnostics.push(Diagnostic::error(
                Code::WrongType,
                loc(a.line, a.value_column, path.clone()),
                format!(
                    "Terraform rejects this toleration before sending it ({path}: cannot parse '{v}' as int: {e}): toleration_seconds is a whole number of seconds, written 300 or \"300\"; {fix}"
                ),
            ));
        }
    }
    if out.diagnostics.len() > before {
        return;
    }
    // The provider accepts it: the API server's rules on the object it sends.
    let lit = |k: &str| -> Option<Option<String>> {
        match get(k) {
            None => Some(None),
            Some(a) => literal(&a.value).map(Some),
        }
    };
    let version = taintlab_core::KubeVersion::default();
    match kind {
        Kind::Toleration => {
            let (Some(key), Some(op), Some(value), Some(effect), Some(secs)) = (
                lit("key"),
                lit("operator"),
                lit("value"),
                lit("effect"),
                lit("toleration_seconds"),
            ) else {
                return;
            };
            let t = Toleration {
                key: key.unwrap_or_default(),
                // The provider's default operator is Equal.
                operator: Operator::parse(op.as_deref().unwrap_or("Equal")),
                value: value.unwrap_or_default(),
                effect: TaintEffect::parse(effect.as_deref().unwrap_or("")),
                toleration_seconds: secs
                    .filter(|s| !s.is_empty())
                    .and_then(|s| go_parse_int64(&s).ok()),
            };
            let path = format!("spec.tolerations[{}]", f.index);
            for e in
                validate_tolerations(std::slice::from_ref(&t), "spec.tolerations", false, version)
            {
                let msg = e.message().replacen("spec.tolerations[0]", &path, 1);
                let fix = api_fix(&msg);
                out.diagnostics.push(Diagnostic::error(
                    Code::InvalidValue,
                    loc(f.line, f.column, tf_path(stack, f, "").trim_end_matches('.').to_string()),
                    format!("Terraform accepts this toleration but the API server will reject it ({msg}){fix}"),
                ));
            }
        }
        Kind::NodeTaint => {
            let (Some(key), Some(value), Some(effect)) = (lit("key"), lit("value"), lit("effect"))
            else {
                return;
            };
            let t = Taint::new(
                &key.unwrap_or_default(),
                &value.unwrap_or_default(),
                TaintEffect::parse(effect.as_deref().unwrap_or("")),
            );
            let path = format!("spec.taints[{}]", f.index);
            for e in validate_node_taints(std::slice::from_ref(&t), "spec.taints", version) {
                let msg = e.message().replacen("spec.taints[0]", &path, 1);
                out.diagnostics.push(Diagnostic::error(
                    Code::InvalidValue,
                    loc(
                        f.line,
                        f.column,
                        tf_path(stack, f, "").trim_end_matches('.').to_string(),
                    ),
                    format!(
                        "Terraform accepts this taint but the API server will reject it ({msg})"
                    ),
                ));
            }
        }
        Kind::CloudTaint => {}
    }
}

/// The fix for an API server toleration error, in the block's own argument names.
fn api_fix(msg: &str) -> &'static str {
    if msg.contains("effect must be 'NoExecute'") {
        "; toleration_seconds only applies to NoExecute taints: set effect = \"NoExecute\" or remove toleration_seconds"
    } else if msg.contains("value must be empty when `operator` is 'Exists'") {
        "; operator Exists matches any value: remove value or set operator = \"Equal\""
    } else if msg.contains("operator must be Exists when `key` is empty") {
        "; an empty key matches every taint only with operator = \"Exists\" (the provider's default operator is Equal): set it, or give a key"
    } else {
        ""
    }
}

/// `["a" "b"]`, as Terraform's SDK prints the choices.
fn quoted_list(xs: &[&str]) -> String {
    let mut out = String::from("[");
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('"');
        out.push_str(x);
        out.push('"');
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Read {
        assert!(block_start(text.lines().next().unwrap()), "{text}");
        read_block(text, 1, 1)
    }

    #[test]
    fn block_starts() {
        assert!(block_start("resource \"kubernetes_pod\" \"p\" {"));
        assert!(block_start("  toleration {"));
        assert!(block_start("tolerations {"));
        assert!(block_start("taint { # gpu nodes"));
        assert!(!block_start("spec {"));
        assert!(!block_start("resource \"x\" {"));
        assert!(block_start("provider \"kubernetes\" {"));
        assert!(block_start("terraform {"));
        assert!(!block_start("terraform \"x\" {"));
        assert!(!block_start("the pod {"));
        assert!(!block_start("tolerations:"));
        assert!(!block_start("{"));
    }

    #[test]
    fn misspelt_argument_with_terraforms_suggestion() {
        let r = read(
            "resource \"kubernetes_deployment\" \"api\" {\n  spec {\n    template {\n      spec {\n        toleration {\n          key = \"gpu\"\n          efect = \"NoSchedule\"\n          tolerations_seconds = 300\n        }\n      }\n    }\n  }\n}\ntrailing prose\n",
        );
        assert_eq!(r.lines, 13);
        assert_eq!(r.checked, 1);
        assert_eq!(r.diagnostics.len(), 2, "{:?}", r.diagnostics);
        let d = &r.diagnostics[0];
        assert_eq!(d.code, Code::UnknownField);
        assert_eq!((d.location.line, d.location.column), (7, 11));
        assert_eq!(
            d.location.path,
            "spec.0.template.0.spec.0.toleration.0.efect"
        );
        assert!(
            d.message.contains("Did you mean \"effect\"?")
                && d.message.contains("write \"effect\" instead of \"efect\""),
            "{}",
            d.message
        );
        assert!(
            r.diagnostics[1]
                .message
                .contains("write \"toleration_seconds\"")
        );
    }

    #[test]
    fn values_checked_like_the_provider() {
        // Casing of the effect, an unknown operator, seconds that are not an integer.
        let r = read(
            "toleration {\n  key      = \"k\"\n  operator = \"exists\"\n  effect   = \"noschedule\"\n  toleration_seconds = \"5m\"\n}\n",
        );
        let m: Vec<&str> = r.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(m[0].contains("expected toleration.0.effect to be one of [\"NoSchedule\" \"PreferNoSchedule\" \"NoExecute\"], got noschedule"), "{}", m[0]);
        assert!(m[0].contains("write \"NoSchedule\""));
        assert!(m[1].contains("write \"Exists\""), "{}", m[1]);
        assert!(m[2].contains("cannot parse '5m' as int"), "{}", m[2]);
        assert!(m[2].contains("write \"300\" instead of \"5m\""), "{}", m[2]);
        assert_eq!(r.diagnostics[0].location.column, 14);
        // A quoted number is what the provider's string field wants; a bare one converts.
        for secs in ["\"300\"", "300"] {
            let r = read(&format!(
                "toleration {{\n  key = \"k\"\n  operator = \"Equal\"\n  value = \"v\"\n  effect = \"NoExecute\"\n  toleration_seconds = {secs}\n}}\n"
            ));
            assert!(r.diagnostics.is_empty(), "{secs}: {:?}", r.diagnostics);
            assert_eq!(r.checked, 1);
        }
        // Expressions are not judged.
        let r = read(
            "toleration {\n  key = var.key\n  effect = each.value.effect\n  operator = \"${var.op}\"\n}\n",
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn api_server_rules_after_the_provider() {
        let r = read(
            "toleration {\n  key = \"k\"\n  value = \"v\"\n  effect = \"NoSchedule\"\n  toleration_seconds = 60\n}\n",
        );
        assert_eq!(r.diagnostics.len(), 1);
        let m = &r.diagnostics[0].message;
        assert!(
            m.contains("effect must be 'NoExecute' when `tolerationSeconds` is set"),
            "{m}"
        );
        assert!(m.contains("set effect = \"NoExecute\""), "{m}");
        // No key and the provider's default operator (Equal).
        let r = read("toleration {\n  effect = \"NoSchedule\"\n}\n");
        assert_eq!(r.diagnostics.len(), 1);
        assert!(
            r.diagnostics[0]
                .message
                .contains("operator must be Exists when `key` is empty")
        );
        let r = read("toleration {\n  key = \"k\"\n  operator = \"Exists\"\n  value = \"v\"\n}\n");
        assert!(
            r.diagnostics[0].message.contains("remove value"),
            "{:?}",
            r.diagnostics
        );
    }

    #[test]
    fn node_taints_and_cloud_node_pools() {
        let r = read(
            "resource \"kubernetes_node_taint\" \"gpu\" {\n  metadata {\n    name = \"n1\"\n  }\n  taint {\n    key    = \"a\"\n    value  = \"b\"\n    effect = \"NoSchedule\"\n  }\n  taint {\n    key    = \"c\"\n    value  = \"d\"\n    effect = \"NoExecut\"\n  }\n}\n",
        );
        assert_eq!(r.checked, 2);
        assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
        let m = &r.diagnostics[0].message;
        assert!(
            m.contains("spec.taints[1].effect: Unsupported value: \"NoExecut\""),
            "{m}"
        );
        assert!(m.contains("write \"NoExecute\""), "{m}");
        assert_eq!(r.diagnostics[0].location.path, "taint.1.effect");
        let r = read(
            "resource \"google_container_node_pool\" \"gpu\" {\n  node_config {\n    taint {\n      key    = \"gpu\"\n      value  = \"true\"\n      effect = \"NoSchedule\"\n    }\n  }\n}\n",
        );
        let m = &r.diagnostics[0].message;
        assert!(
            m.contains("expected node_config.0.taint.0.effect to be one of [\"NO_SCHEDULE\""),
            "{m}"
        );
        assert!(
            m.contains("write \"NO_SCHEDULE\" instead of \"NoSchedule\""),
            "{m}"
        );
        let r = read(
            "resource \"aws_eks_node_group\" \"g\" {\n  taint {\n    key    = \"gpu\"\n    value  = \"true\"\n    effect = \"NO_SCHEDULE\"\n  }\n}\n",
        );
        assert!(r.diagnostics.is_empty());
        // A Kubernetes-style effect in the kubernetes provider's cloud spelling.
        let r = read(
            "toleration {\n  key = \"k\"\n  operator = \"Exists\"\n  effect = \"NO_EXECUTE\"\n}\n",
        );
        assert!(r.diagnostics[0].message.contains("write \"NoExecute\""));
    }

    #[test]
    fn misspelt_blocks() {
        let r = read(
            "resource \"kubernetes_pod\" \"p\" {\n  spec {\n    tolerations {\n      key = \"k\"\n      efect = \"x\"\n    }\n  }\n}\n",
        );
        assert_eq!(r.diagnostics.len(), 2, "{:?}", r.diagnostics);
        assert!(r.diagnostics[1].message.contains("write \"effect\""));
        let m = &r.diagnostics[0].message;
        assert!(
            m.contains(
                "Blocks of type \"tolerations\" are not expected here. Did you mean \"toleration\"?"
            ),
            "{m}"
        );
        assert!(
            m.contains("write \"toleration\" instead of \"tolerations\""),
            "{m}"
        );
        let r = read(
            "resource \"kubernetes_node_taint\" \"t\" {\n  taints {\n    key = \"k\"\n  }\n}\n",
        );
        assert!(
            r.diagnostics[0]
                .message
                .contains("write \"taint\" instead of \"taints\"")
        );
        // Other blocks and maps are left alone; heredocs and lists are skipped whole.
        let r = read(
            "resource \"kubernetes_manifest\" \"m\" {\n  manifest = {\n    spec = {\n      tolerations = [{ efect = \"x\" }]\n    }\n  }\n  x = <<EOF\n}\ntoleration {\nEOF\n  y = [\n    \"}\",\n  ]\n}\nafter\n",
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(r.lines, 14);
    }

    #[test]
    fn cut_and_odd_text_never_panics() {
        let text = "resource \"kubernetes_pod\" \"p\" {\n  spec {\n    toleration {\n      efect = \"é\"\n      toleration_seconds = \"99999999999999999999\"\n      operator = \"\"\n    }\n  }\n}\n";
        for cut in 0..text.len() {
            if text.is_char_boundary(cut) {
                let _ = read_block(&text[..cut], 1, 1);
                let _ = read_block(&text[cut..], 1, 1);
            }
        }
        assert_eq!(levenshtein("tolerations_seconds", "toleration_seconds"), 1);
    }
}
