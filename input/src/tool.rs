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
        match suggest(field, known) {
            Some(k) => msg.push_str(&format!("; write \"{k}\" instead of \"{field}\"")),
            None => msg.push_str(&format!("; its fields are {}", known.join(", "))),
        }
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
        match suggest(field, known) {
            Some(k) => msg.push_str(&format!("; write \"{k}\" instead of \"{field}\"")),
            None => msg.push_str(&format!("; its fields are {}", known.join(", "))),
        }
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
                out.push_str(&format!("[{i}]"));
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
    let (list, got) = rest.rsplit_once(", got ")?;
    let got = got
        .trim()
        .trim_end_matches(['"', '\'', '`'])
        .trim_matches('"');
    let choices: Vec<&str> = list
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split([' ', ','])
        .map(|c| c.trim_matches(['"', '\\']))
        .filter(|c| !c.is_empty())
        .collect();
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
        msg.push_str(&format!(
            "; this resource takes the cloud API's names, not Kubernetes': write \"{c}\""
        ));
    } else if let Some(k) = suggest(got, &choices) {
        msg.push_str(&format!("; did you mean \"{k}\"?"));
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
