//! Errors that kubectl, the API server or a tool printed about a toleration or a taint,
//! found in a paste and explained: which field, why it was rejected, and the fix.
//!
//! Read: kubectl's client-side validation (`error validating data:
//! ValidationError(Pod.spec.tolerations[0]): unknown field "efect" in
//! io.k8s.api.core.v1.Toleration`), server-side strict decoding (`strict decoding error:
//! unknown field "spec.tolerations[0].efect"`), decoding (`json: cannot unmarshal bool
//! into Go struct field Toleration.spec.tolerations.value of type string`) and
//! validation (`The Pod "x" is invalid: spec.tolerations[0].effect: Unsupported value:
//! ...`, `Invalid value: ...: effect must be 'NoExecute' when `tolerationSeconds` is
//! set`), also inside Helm, Terraform or Ansible output and with JSON-escaped quotes.

use std::fmt::Write as _;
use taintlab_core::suggest::suggest;

const TOLERATION_FIELDS: [&str; 5] = ["key", "operator", "value", "effect", "tolerationSeconds"];
const TAINT_FIELDS: [&str; 4] = ["key", "value", "effect", "timeAdded"];
const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const OPERATORS: [&str; 2] = ["Exists", "Equal"];

/// The text between the first pair of quotes after `from` (`\"` counts as a quote).
fn quoted_after<'a>(line: &'a str, from: &str) -> Option<&'a str> {
    let i = line.find(from)? + from.len();
    let rest = line[i..].trim_start_matches('\\');
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(rest[..end].trim_end_matches('\\'))
}

/// The field path a message is about (`spec.tolerations[0].effect`; a space a terminal
/// or a web page put before the index, `tolerations [0]`, is dropped).
fn field_path(line: &str) -> Option<String> {
    let line = &line
        .replace("tolerations [", "tolerations[")
        .replace("taints [", "taints[");
    for marker in [
        "spec.template.spec.tolerations[",
        "spec.tolerations[",
        "spec.taints[",
    ] {
        if let Some(i) = line.find(marker) {
            let rest = &line[i..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']' | '_')))
                .unwrap_or(rest.len());
            return Some(rest[..end].trim_end_matches('.').to_string());
        }
    }
    None
}

/// The fix for a field `known` does not hold: `; write "K" instead of "FIELD"` when
/// `field` is near one of them (K), else the list of them.
fn field_hint(msg: &mut String, field: &str, known: &[&str]) {
    match suggest(field, known) {
        Some(k) => {
            let _ = write!(msg, "; write \"{k}\" instead of \"{field}\"");
        }
        None => {
            let _ = write!(msg, "; its fields are {}", known.join(", "));
        }
    }
}

/// An explanation of a tool's error about a toleration or taint in this line, if it
/// holds one.
pub(crate) fn explain(line: &str) -> Option<String> {
    // Tool messages are lines of text, not megabytes of minified JSON.
    if line.len() > 100_000 {
        return None;
    }
    if let Some(msg) = terraform_unexpected(line.trim_start().trim_start_matches('│').trim()) {
        return Some(msg);
    }
    let about_taints = line.contains("toleration")
        || line.contains("Toleration")
        || line.contains("taints")
        || line.contains("Taint")
        || line.contains(".taint.");
    if !about_taints {
        return None;
    }
    let is_taint = line.contains("spec.taints")
        || line.contains("v1.Taint")
        || line.contains("Taint.spec")
        || line.contains(".taint.");
    let (what, known): (&str, &[&str]) = if is_taint {
        ("a taint", &TAINT_FIELDS)
    } else {
        ("a toleration", &TOLERATION_FIELDS)
    };
    // Unknown fields: client-side validation and strict decoding.
    if let Some(name) = quoted_after(line, "unknown field ") {
        let field = name.rsplit('.').next().unwrap_or(name);
        let at = if line.contains("ValidationError(") {
            line.split("ValidationError(")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .map(|p| p.split_once('.').map_or(p, |x| x.1).to_string())
        } else {
            name.rsplit_once('.').map(|x| x.0.to_string())
        };
        let who = if line.contains("strict decoding error") {
            "the API server's strict field validation (kubectl apply's default) rejected the object"
        } else if line.contains("ValidationError(") {
            "kubectl's client-side validation rejected the file"
        } else {
            "the object was rejected"
        };
        if field == "tolerations" || field == "taints" {
            let home = if field == "taints" {
                "a Node's spec (spec.taints)"
            } else {
                "the pod spec (spec.tolerations, or spec.template.spec.tolerations in a workload)"
            };
            return Some(format!(
                "{who}: \"{field}\" is not a field of {}; it belongs in {home}: move it there",
                at.unwrap_or_else(|| "this object".to_string())
            ));
        }
        let mut msg = format!(
            "{who}: {what} has no field \"{field}\"{}",
            at.map(|a| format!(" (at {a})")).unwrap_or_default()
        );
        field_hint(&mut msg, field, known);
        return Some(msg);
    }
    // kubectl's validation before 1.8: `found invalid field efect for v1.Toleration`.
    if let Some(rest) = line.split("found invalid field ").nth(1) {
        let mut it = rest.split_whitespace();
        let field = it.next()?;
        let ty = (it.next() == Some("for")).then(|| it.next()).flatten()?;
        let ty = ty.trim_end_matches(['.', ',', ';', '"', '`', ')']);
        if field == "tolerations" && ty.ends_with("PodSpec") {
            return Some(format!(
                "kubectl's client-side validation used the schema of an API server before 1.6, whose {ty} has no \"tolerations\" field: tolerations were then the alpha annotation scheduler.alpha.kubernetes.io/tolerations; upgrade the cluster (or kubectl's target), or write the annotation"
            ));
        }
        let mut msg = format!(
            "kubectl's client-side validation rejected the file: {ty} has no field \"{field}\""
        );
        field_hint(&mut msg, field, known);
        return Some(msg);
    }
    if let Some(msg) = terraform_choice(line, what) {
        return Some(msg);
    }
    let path = field_path(line);
    let at = path
        .as_deref()
        .map(|p| format!(" at {p}"))
        .unwrap_or_default();
    // Decoding: a YAML boolean or number where a string is wanted.
    if line.contains("cannot unmarshal") {
        let ty = line
            .split("cannot unmarshal ")
            .nth(1)?
            .split_whitespace()
            .next()?;
        let field = line
            .split("Go struct field ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|f| f.rsplit('.').next())
            .unwrap_or("the field");
        let fix = match ty {
            "bool" => format!(
                "quote it (`{field}: \"true\"`): YAML reads yes/no/true/false/on/off unquoted as a boolean"
            ),
            "number" => format!("quote it (`{field}: \"1\"`): an unquoted number is not a string"),
            _ => "write it as a string".to_string(),
        };
        return Some(format!(
            "the API server could not decode {what}: \"{field}\" must be a string, the file has a {ty}; {fix}"
        ));
    }
    // The end of the message may be wrapped or quoted differently
    // (`when 'tolerationSe` / `conds' is set`).
    if line.contains("effect must be 'NoExecute' when") {
        return Some(format!(
            "the API server rejected {what}{at}: tolerationSeconds only applies to NoExecute taints; set effect: NoExecute or remove tolerationSeconds"
        ));
    }
    if line.contains("value must be empty when `operator` is 'Exists'")
        || line.contains("value must be empty when operator is 'Exists'")
    {
        return Some(format!(
            "the API server rejected {what}{at}: operator Exists matches any value, so value must be empty; remove the value or use operator: Equal"
        ));
    }
    if line.contains("operator must be Exists when `key` is empty") {
        return Some(format!(
            "the API server rejected {what}{at}: an empty key matches every taint only with operator: Exists; set operator: Exists or give a key"
        ));
    }
    if let Some(v) = quoted_after(line, "Unsupported value: ") {
        let field = path
            .as_deref()
            .and_then(|p| p.rsplit('.').next())
            .unwrap_or("");
        let choices: &[&str] = if field == "operator" {
            &OPERATORS
        } else {
            &EFFECTS
        };
        let mut msg = format!(
            "the API server rejected {what}{at}: \"{v}\" is not one of {}",
            choices.join(", ")
        );
        crate::did_you_mean(&mut msg, v, choices);
        return Some(msg);
    }
    if line.contains("is invalid:") && path.is_some() {
        let reason = line
            .split(path.as_deref()?)
            .nth(1)
            .unwrap_or("")
            .trim_start_matches(':')
            .trim();
        return Some(format!("the API server rejected {what}{at}: {reason}"));
    }
    None
}

/// The arguments of the blocks a Terraform name is about, for the explanation.
fn terraform_block_args(names: &[&str]) -> Option<(&'static str, &'static str)> {
    let about = |w: &str| names.iter().any(|n| n.contains(w));
    if about("toleration") || names.contains(&"operator") {
        Some((
            "toleration",
            "effect, key, operator, toleration_seconds, value",
        ))
    } else if about("taint") {
        Some(("taint", "key, value, effect"))
    } else if names.contains(&"effect") {
        Some((
            "toleration or taint",
            "key, value, effect (and operator, toleration_seconds in a toleration)",
        ))
    } else {
        None
    }
}

/// The detail of Terraform's "Unsupported argument" and "Unsupported block type" errors
/// (hcl/v2 hclsyntax/structure.go `Body.PartialContent`: `An argument named "X" is not
/// expected here.` and `Blocks of type "X" are not expected here.`, each with hcl's
/// "Did you mean" when there is one) and of "Insufficient taint blocks", explained when
/// the name is about tolerations or taints.
fn terraform_unexpected(line: &str) -> Option<String> {
    let quoted = |s: &str| -> Option<String> {
        let r = s.trim_start().strip_prefix('"')?;
        Some(r[..r.find('"')?].to_string())
    };
    if let Some(r) = line.split("At least 1 \"").nth(1)
        && let Some(block) = r.split('"').next()
        && (block == "taint" || block == "toleration")
        && line.contains("blocks are required")
    {
        return Some(format!(
            "Terraform rejected the configuration: this resource needs at least one {block} block, and none is written (or its name is misspelt); write \"{block}\" blocks ({block} {{ key = ... }})"
        ));
    }
    let (is_block, rest) = if let Some(r) = line.split("An argument named ").nth(1) {
        (false, r)
    } else {
        (true, line.split("Blocks of type ").nth(1)?)
    };
    let name = quoted(rest)?;
    let after = &rest[name.len() + 2..];
    let expected = if is_block {
        " are not expected here."
    } else {
        " is not expected here."
    };
    let hint = after.strip_prefix(expected)?.trim();
    let mean = hint.strip_prefix("Did you mean ");
    let other_kind = mean.is_some_and(|m| m.starts_with("to define"));
    let suggestion = mean.filter(|_| !other_kind).and_then(quoted);
    let mut names = vec![name.as_str()];
    if let Some(s) = &suggestion {
        names.push(s);
    }
    let (block, args) = terraform_block_args(&names)?;
    let what = if is_block { "block" } else { "argument" };
    let mut msg =
        format!("Terraform rejected the configuration: there is no {what} \"{name}\" here");
    if other_kind {
        if is_block {
            let _ = write!(
                msg,
                "; \"{name}\" is an argument, not a block: write \"{name}\" = [...] with the equals sign"
            );
        } else {
            let _ = write!(
                msg,
                "; \"{name}\" is a nested block, not an argument: write \"{name}\" {{ ... }} as a block, one per item, without the equals sign"
            );
        }
    } else if let Some(s) = &suggestion {
        if !is_block {
            let _ = write!(msg, " (a {block} block's arguments are {args})");
        }
        let _ = write!(msg, "; write \"{s}\" instead of \"{name}\"");
    } else if !is_block
        && (name == "tolerations" || name == "toleration" || name == "taints" || name == "taint")
    {
        let _ = write!(
            msg,
            "; this provider takes each {block} as its own nested block, not a list argument: write \"{block}\" blocks ({block} {{ {args} }}) without the equals sign"
        );
    } else if !is_block {
        let _ = write!(
            msg,
            "; a {block} block's arguments are {args}: remove it or use one of them"
        );
    } else {
        let _ = write!(
            msg,
            "; remove it, or check the resource's documentation for where {block}s go"
        );
    }
    Some(msg)
}

/// A Terraform error block (`Error: Unsupported argument`, its `on FILE line N, in
/// resource "T" "N":` and source lines, then the detail, wrapped or not, inside the
/// `╷ │ ╵` box or bare) starting at the first of `lines`, about a toleration or taint
/// block: its explanation (naming the resource and line) and how many lines it spans.
pub(crate) fn terraform_diagnostic(lines: &[(usize, &str)]) -> Option<(String, usize)> {
    let strip = |l: &str| -> String {
        let t = l.trim_end_matches('\r').trim_start();
        t.strip_prefix('│').unwrap_or(t).trim().to_string()
    };
    let first = strip(lines.first()?.1);
    let summary = first.strip_prefix("Error: ")?;
    if !matches!(
        summary,
        "Unsupported argument"
            | "Unsupported block type"
            | "Insufficient taint blocks"
            | "Insufficient toleration blocks"
    ) {
        return None;
    }
    let mut at = String::new();
    let mut j = 1;
    // The context lines, up to the detail.
    while j < lines.len() && j < 8 {
        let l = strip(lines[j].1);
        if l.is_empty() || l == "╷" {
            j += 1;
            continue;
        }
        if let Some(r) = l.strip_prefix("on ")
            && let Some((file, rest)) = r.split_once(" line ")
        {
            let mut end = 0;
            while rest.as_bytes().get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
            let n = &rest[..end];
            let res = rest.split("in resource \"").nth(1).and_then(|r| {
                let (t, r) = r.split_once('"')?;
                let n = r.trim_start().strip_prefix('"')?.split('"').next()?;
                Some(format!("{t}.{n}"))
            });
            at = match res {
                Some(r) => format!(" (in {r}, {file} line {n})"),
                None => format!(" ({file} line {n})"),
            };
            j += 1;
            continue;
        }
        if l.split_once(':')
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            j += 1;
            continue;
        }
        break;
    }
    if j >= lines.len() {
        return None;
    }
    // The detail: up to three lines, to the end of its sentence.
    let mut detail = strip(lines[j].1);
    let mut end = j + 1;
    while end < lines.len() && end < j + 3 {
        let done = detail.ends_with('.') || detail.ends_with('?');
        let l = strip(lines[end].1);
        if done || l.is_empty() || l == "╵" {
            break;
        }
        detail.push(' ');
        detail.push_str(&l);
        end += 1;
    }
    let why = terraform_unexpected(&detail)?;
    if end < lines.len() && strip(lines[end].1) == "╵" {
        end += 1;
    }
    Some((format!("{why}{at}"), end))
}

/// The Kubernetes path of a Terraform attribute path: `spec.0.template.0.spec.0.
/// toleration.0.effect` is `spec.template.spec.tolerations[0].effect`
/// (`toleration_seconds` is `tolerationSeconds`).
fn terraform_to_k8s_path(path: &str) -> String {
    let mut out = String::new();
    let mut parts = path.split('.').peekable();
    while let Some(p) = parts.next() {
        let name = match p {
            "toleration" => "tolerations",
            "taint" => "taints",
            "toleration_seconds" => "tolerationSeconds",
            other => other,
        };
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(name);
        if let Some(i) = parts.peek().filter(|i| i.parse::<usize>().is_ok()) {
            // A block that is one object in Kubernetes (`spec.0`, `template.0`) drops its
            // index; a list (`toleration.0`) keeps it.
            if matches!(name, "tolerations" | "taints") {
                let _ = write!(out, "[{i}]");
            }
            parts.next();
        }
    }
    out
}

/// Terraform's schema validation of a toleration or taint attribute (the kubernetes
/// provider, and cloud node-pool resources): `Error: expected spec.0.template.0.spec.0.
/// toleration.0.effect to be one of ["NoSchedule" "PreferNoSchedule" "NoExecute"], got
/// NoSchedul`.
fn terraform_choice(line: &str, what: &str) -> Option<String> {
    let rest = &line[line.find("expected ")? + "expected ".len()..];
    let (key, rest) = rest.split_once(" to be one of ")?;
    if !(key.contains("toleration") || key.contains("taint")) || key.contains(' ') {
        return None;
    }
    let (list, got) = crate::rsplit_once_str(rest, ", got ")?;
    let got = got
        .trim()
        .trim_end_matches(['"', '\'', '`'])
        .trim_matches('"');
    let mut choices: Vec<&str> = Vec::new();
    for c in list
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split([' ', ','])
    {
        let c = c.trim_matches(['"', '\\']);
        if !c.is_empty() {
            choices.push(c);
        }
    }
    if choices.is_empty() {
        return None;
    }
    let k8s = terraform_to_k8s_path(key);
    let mut msg = format!(
        "Terraform rejected {what} before sending it: {key} (the object's {k8s}) is \"{got}\", not one of {}",
        choices.join(", ")
    );
    // Cloud node-pool resources take the cloud API's enum names.
    let cloud = match got {
        "NoSchedule" => Some("NO_SCHEDULE"),
        "PreferNoSchedule" => Some("PREFER_NO_SCHEDULE"),
        "NoExecute" => Some("NO_EXECUTE"),
        _ => None,
    }
    .filter(|c| choices.contains(c));
    if let Some(c) = cloud {
        let _ = write!(
            msg,
            "; this resource takes the cloud API's names, not Kubernetes': write \"{c}\""
        );
    } else {
        crate::did_you_mean(&mut msg, got, &choices);
    }
    Some(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explains_each_kind() {
        let e = explain(r#"error: error validating "pod.yaml": error validating data: ValidationError(Pod.spec.tolerations[0]): unknown field "efect" in io.k8s.api.core.v1.Toleration; if you choose to ignore these errors, turn validation off with --validate=false"#).unwrap();
        assert!(e.contains("client-side validation"), "{e}");
        assert!(e.contains("(at spec.tolerations[0])"), "{e}");
        assert!(e.contains("write \"effect\" instead of \"efect\""), "{e}");
        let e = explain(r#"Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.tolerations[0].tolerationSecond""#).unwrap();
        assert!(e.contains("strict field validation"), "{e}");
        assert!(e.contains("\"tolerationSeconds\""), "{e}");
        let e = explain(r#"Error from server (BadRequest): error when creating "p.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field Toleration.spec.tolerations.value of type string"#).unwrap();
        assert!(e.contains("\"value\" must be a string"), "{e}");
        assert!(e.contains("quote it"), "{e}");
        let e = explain(r#"The Pod "web" is invalid: spec.tolerations[1].effect: Unsupported value: "NoSchedul": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute""#).unwrap();
        assert!(e.contains("at spec.tolerations[1].effect"), "{e}");
        assert!(e.contains("did you mean \"NoSchedule\""), "{e}");
        let e = explain(r#"The Deployment "api" is invalid: spec.template.spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when `tolerationSeconds` is set"#).unwrap();
        assert!(e.contains("set effect: NoExecute"), "{e}");
        // Wrapped by a terminal inside the last word, with a space before the index.
        let e = explain(r#"is invalid: spec.template.spec.tolerations [0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when 'tolerationSe"#).unwrap();
        assert!(
            e.contains("at spec.template.spec.tolerations[0].effect"),
            "{e}"
        );
        assert!(e.contains("set effect: NoExecute"), "{e}");
        assert!(explain("error: the server doesn't have a resource type \"nodez\"").is_none());
        let e = explain(r#"Error from server (BadRequest): error when creating "x.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].tolerations""#).unwrap();
        assert!(
            e.contains("not a field of spec.template.spec.containers[0]"),
            "{e}"
        );
    }

    #[test]
    fn terraform_errors() {
        let e = explain(r#"│ Error: expected spec.0.template.0.spec.0.toleration.0.effect to be one of ["NoSchedule" "PreferNoSchedule" "NoExecute"], got NoSchedul"#).unwrap();
        assert!(e.contains("Terraform rejected a toleration"), "{e}");
        assert!(
            e.contains("spec.template.spec.tolerations[0].effect"),
            "{e}"
        );
        assert!(e.contains("did you mean \"NoSchedule\""), "{e}");
        let e = explain(r#"Error: expected node_config.0.taint.1.effect to be one of [NO_SCHEDULE PREFER_NO_SCHEDULE NO_EXECUTE], got NoSchedule"#).unwrap();
        assert!(e.contains("rejected a taint"), "{e}");
        assert!(e.contains("node_config.taints[1].effect"), "{e}");
        assert!(
            e.contains("cloud API's names, not Kubernetes': write \"NO_SCHEDULE\""),
            "{e}"
        );
        let e = explain(r#"│ Error: Failed to create deployment: Deployment.apps "api" is invalid: spec.template.spec.tolerations[0].effect: Unsupported value: "NoSchedul": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule""#).unwrap();
        assert!(e.contains("did you mean \"NoSchedule\""), "{e}");
        assert!(
            e.contains("at spec.template.spec.tolerations[0].effect"),
            "{e}"
        );
        // Not about tolerations, or not a path: not claimed.
        assert!(explain("Error: expected replicas to be one of [1 2], got 3").is_none());
        assert!(
            terraform_choice("expected toleration to be one of , got x", "a toleration").is_none()
        );
        assert!(
            terraform_choice(
                "expected toleration.0.effect to be one of [], got ",
                "a toleration"
            )
            .is_none()
        );
    }

    #[test]
    fn terraform_unsupported_names() {
        let box_ = [
            "╷",
            "│ Error: Unsupported argument",
            "│ ",
            "│   on main.tf line 31, in resource \"kubernetes_deployment\" \"api\":",
            "│   31:             tolerations_seconds = 300",
            "│ ",
            "│ An argument named \"tolerations_seconds\" is not expected here. Did you mean \"toleration_seconds\"?",
            "╵",
            "next",
        ];
        let lines: Vec<(usize, &str)> = box_.iter().copied().enumerate().collect();
        assert!(terraform_diagnostic(&lines).is_none());
        let (e, used) = terraform_diagnostic(&lines[1..]).unwrap();
        assert_eq!(used, 7);
        assert!(e.contains("no argument \"tolerations_seconds\""), "{e}");
        assert!(e.contains("write \"toleration_seconds\" instead"), "{e}");
        assert!(
            e.contains("(in kubernetes_deployment.api, main.tf line 31)"),
            "{e}"
        );
        // Terraform 0.12's layout: no box, the detail wrapped at 78 columns.
        let old = [
            "Error: Unsupported argument",
            "",
            "  on nodes.tf line 10, in resource \"rancher2_node_pool\" \"this\":",
            "  10:   node_taints      = []",
            "",
            "An argument named \"node_taints\" is not expected here. Did you mean to define a",
            "block of type \"node_taints\"?",
            "",
        ];
        let lines: Vec<(usize, &str)> = old.iter().copied().enumerate().collect();
        let (e, used) = terraform_diagnostic(&lines).unwrap();
        assert_eq!(used, 7);
        assert!(e.contains("is a nested block, not an argument"), "{e}");
        let e = explain(
            "Blocks of type \"tolerations\" are not expected here. Did you mean \"toleration\"?",
        )
        .unwrap();
        assert!(
            e.contains("write \"toleration\" instead of \"tolerations\""),
            "{e}"
        );
        let e =
            explain("An argument named \"efect\" is not expected here. Did you mean \"effect\"?")
                .unwrap();
        assert!(
            e.contains("a toleration or taint block's arguments are key, value, effect"),
            "{e}"
        );
        let e = explain("│ An argument named \"tolerations\" is not expected here.").unwrap();
        assert!(e.contains("its own nested block"), "{e}");
        let e = explain("At least 1 \"taint\" blocks are required.").unwrap();
        assert!(e.contains("at least one taint block"), "{e}");
        // Not about tolerations or taints: not claimed.
        assert!(explain("An argument named \"dspm\" is not expected here.").is_none());
        assert!(explain("An argument named \"x").is_none());
        let other = [
            "Error: Unsupported argument",
            "",
            "An argument named \"host\" is not expected here.",
        ];
        let lines: Vec<(usize, &str)> = other.iter().copied().enumerate().collect();
        assert!(terraform_diagnostic(&lines).is_none());
    }

    #[test]
    fn old_kubectl_validation() {
        let e = explain("error: error validating \"ds.yaml\": error validating data: found invalid field tolerations for v1.PodSpec; if you choose to ignore these errors, turn validation off with --validate=false").unwrap();
        assert!(e.contains("before 1.6"), "{e}");
        assert!(
            e.contains("scheduler.alpha.kubernetes.io/tolerations"),
            "{e}"
        );
        let e =
            explain("error validating data: found invalid field efect for v1.Toleration").unwrap();
        assert!(e.contains("write \"effect\" instead of \"efect\""), "{e}");
        assert!(explain("found invalid field").is_none());
        assert!(explain("found invalid field x toleration").is_none());
    }
}
