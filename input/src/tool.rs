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

/// The field path a message is about (`spec.tolerations[0].effect`).
fn field_path(line: &str) -> Option<String> {
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

/// An explanation of a tool's error about a toleration or taint in this line, if it
/// holds one.
pub(crate) fn explain(line: &str) -> Option<String> {
    // Tool messages are lines of text, not megabytes of minified JSON.
    if line.len() > 100_000 {
        return None;
    }
    let about_taints = line.contains("toleration")
        || line.contains("Toleration")
        || line.contains("taints")
        || line.contains("Taint");
    if !about_taints {
        return None;
    }
    let is_taint =
        line.contains("spec.taints") || line.contains("v1.Taint") || line.contains("Taint.spec");
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
        match suggest(field, known) {
            Some(k) => msg.push_str(&format!("; write \"{k}\" instead of \"{field}\"")),
            None => msg.push_str(&format!("; its fields are {}", known.join(", "))),
        }
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
    if line.contains("effect must be 'NoExecute' when `tolerationSeconds` is set")
        || line.contains("effect must be 'NoExecute' when tolerationSeconds is set")
    {
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
        if let Some(k) = suggest(v, choices) {
            msg.push_str(&format!("; did you mean \"{k}\"?"));
        }
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
        assert!(explain("error: the server doesn't have a resource type \"nodez\"").is_none());
        let e = explain(r#"Error from server (BadRequest): error when creating "x.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].tolerations""#).unwrap();
        assert!(
            e.contains("not a field of spec.template.spec.containers[0]"),
            "{e}"
        );
    }
}
