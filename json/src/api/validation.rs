//! `validate`: the API server's toleration and taint validation, with upstream's field
//! paths and messages, pointed back at the input text when there is one.

use crate::value::V;
use taintlab_core::validation::{
    FieldError, NODE_TAINTS_PATH, POD_TOLERATIONS_PATH, aggregate_message,
    allow_comparison_operators, api_status_message, validate_node_taints,
    validate_pod_tolerations_update, validate_tolerations,
};
use taintlab_core::{KubeVersion, Semantics, Toleration, WorkloadKind};
use taintlab_input::{Location, Prefer};

use crate::error::ApiResult;
use crate::read::{self, NodeIn, NodeText, Obj, PodIn, VERSION_OPTIONS};
use crate::write::{self, J};

/// The tolerations path of a workload kind, and its group-qualified kind (core's
/// workload-kind table; anything else is read as a Pod).
pub fn pod_paths(kind: &str) -> (&'static str, &'static str) {
    let k = WorkloadKind::from_name(kind).unwrap_or(WorkloadKind::Pod);
    (k.tolerations_path(), k.qualified_name())
}

/// The item index right after `prefix` in `field` (`spec.tolerations[3].key` -> 3).
fn item_index(field: &str, prefix: &str) -> Option<usize> {
    let rest = field.strip_prefix(prefix)?.strip_prefix('[')?;
    rest.split(']').next()?.parse().ok()
}

/// The validation of one object, before it is written.
struct Checked {
    kind: &'static str,
    name: String,
    errors: Vec<FieldError>,
    /// The list's path, to find each error's item.
    prefix: String,
    /// Where each item is in the text.
    locations: Vec<Option<Location>>,
}

impl Checked {
    fn message(&self) -> Option<String> {
        if self.kind.is_empty() {
            aggregate_message(&self.errors)
        } else {
            api_status_message(self.kind, &self.name, &self.errors)
        }
    }
}

fn field_error(j: &mut J, e: &FieldError, c: &Checked) {
    let location = item_index(&e.field, &c.prefix)
        .and_then(|i| c.locations.get(i).cloned().flatten())
        .map(|l| l.with_path(e.field.clone()));
    j.open()
        .s("type", e.error_type.name())
        .s("reason", e.error_type.reason())
        .s("field", &e.field)
        .os("badValue", e.bad_value.render_at(e.version).as_deref())
        .s("detail", &e.detail)
        .s("message", &e.message())
        .key("location");
    write::opt_location(j, location.as_ref());
    j.close();
}

fn validate_pod(p: &PodIn, old: Option<&[Toleration]>, sem: Semantics) -> Checked {
    let (path, kind) = pod_paths(&p.kind);
    let allow = allow_comparison_operators(sem.comparison_operators, old);
    let errors = match old {
        Some(old) => {
            validate_pod_tolerations_update(old, &p.pod.tolerations, path, allow, sem.version)
        }
        None => validate_tolerations(&p.pod.tolerations, path, allow, sem.version),
    };
    Checked {
        kind,
        name: p.pod.name.clone(),
        errors,
        prefix: path.to_string(),
        locations: p.toleration_locations.clone(),
    }
}

fn validate_node(n: &NodeIn, version: KubeVersion) -> Checked {
    Checked {
        kind: "Node",
        name: n.node.name.clone(),
        errors: validate_node_taints(&n.node.taints, NODE_TAINTS_PATH, version),
        prefix: NODE_TAINTS_PATH.to_string(),
        locations: n.taint_locations.iter().cloned().map(Some).collect(),
    }
}

fn combine(results: &[Checked]) -> String {
    let messages: Vec<String> = results.iter().filter_map(Checked::message).collect();
    let mut j = J::new();
    j.open()
        .b("valid", results.iter().all(|r| r.errors.is_empty()))
        .key("errors")
        .arr();
    for r in results {
        for e in &r.errors {
            field_error(&mut j, e, r);
        }
    }
    let joined = messages.join("\n");
    j.end()
        .os("message", (!messages.is_empty()).then_some(joined.as_str()))
        .key("results")
        .arr();
    for r in results {
        j.open()
            .s("kind", r.kind)
            .s("name", &r.name)
            .b("valid", r.errors.is_empty())
            .key("errors")
            .arr();
        for e in &r.errors {
            field_error(&mut j, e, r);
        }
        j.end().os("message", r.message().as_deref()).close();
    }
    j.end().close();
    j.finish()
}

/// `validate(subject, options?)`.
pub fn validate(subject: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &VERSION_OPTIONS)?;
    let sem = read::semantics(&o)?;
    let v = sem.version;
    // Text or Kubernetes objects: every pod and node in them.
    if matches!(subject, V::Str(_)) || read::is_kubernetes_object(subject) {
        let text = match subject {
            V::Str(s) => s.clone(),
            other => other.to_json(),
        };
        let mut p = read::parse_text(
            &text,
            "subject",
            Prefer::Tolerations,
            v,
            !matches!(subject, V::Str(_)),
        )?;
        let nodes = read::nodes_from_text(
            &mut p,
            "subject",
            NodeText {
                default_name: "node",
                version: v,
            },
        )?;
        let pods = read::pods_from_text(&mut p, "subject", "pod");
        let mut results: Vec<Checked> = pods.iter().map(|p| validate_pod(p, None, sem)).collect();
        results.extend(nodes.iter().map(|n| validate_node(n, v)));
        return Ok(combine(&results));
    }
    let s = Obj::new(
        subject,
        "subject",
        "subject",
        "{pod, oldPod}, {node}, {tolerations, oldTolerations, path}, {taints, path}, a Kubernetes object or text",
        &[
            "pod",
            "oldPod",
            "node",
            "tolerations",
            "oldTolerations",
            "taints",
            "path",
        ],
        &[],
        false,
    )?;
    let mut results = Vec::new();
    if let Some(pod) = s.get("pod") {
        let p = read::pod(pod, &s.at("pod"), v)?;
        let old = match s.get("oldPod") {
            Some(old) => Some(read::pod(old, &s.at("oldPod"), v)?.pod.tolerations),
            None => None,
        };
        results.push(validate_pod(&p, old.as_deref(), sem));
    }
    if let Some(node) = s.get("node") {
        results.push(validate_node(&read::node(node, &s.at("node"), v)?, v));
    }
    let path = s.str("path")?;
    if let Some(t) = s.get("tolerations") {
        let (tols, locs) = read::tolerations_located(t, "subject", &s.at("tolerations"), v)?;
        let old = match s.get("oldTolerations") {
            Some(old) => Some(read::tolerations(
                old,
                "subject",
                &s.at("oldTolerations"),
                v,
            )?),
            None => None,
        };
        let path = path.as_deref().unwrap_or(POD_TOLERATIONS_PATH);
        let allow = allow_comparison_operators(sem.comparison_operators, old.as_deref());
        let errors = match &old {
            Some(old) => validate_pod_tolerations_update(old, &tols, path, allow, v),
            None => validate_tolerations(&tols, path, allow, v),
        };
        results.push(Checked {
            kind: "",
            name: String::new(),
            errors,
            prefix: path.to_string(),
            locations: locs,
        });
    }
    if let Some(t) = s.get("taints") {
        let taints = read::taints(t, "subject", &s.at("taints"), v)?;
        let path = s
            .str("path")?
            .unwrap_or_else(|| NODE_TAINTS_PATH.to_string());
        let errors = validate_node_taints(&taints, &path, v);
        results.push(Checked {
            kind: "",
            name: String::new(),
            errors,
            prefix: path,
            locations: Vec::new(),
        });
    }
    if results.is_empty() {
        return Err(s.error(
            "pod",
            "missing-field",
            "give pod, node, tolerations or taints",
        ));
    }
    Ok(combine(&results))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    #[test]
    fn pod_errors_use_upstream_paths_and_point_at_the_text() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  tolerations:\n  - key: a\n    operator: Exists\n    value: b\n";
        let r = v(validate(&val(json!(text)), &V::Null));
        assert_eq!(r["valid"], false);
        assert_eq!(
            r["message"],
            "Pod \"web\" is invalid: spec.tolerations[0].operator: Invalid value: \"b\": value must be empty when `operator` is 'Exists'"
        );
        assert_eq!(r["errors"][0]["location"]["line"], 7);
        assert_eq!(
            r["errors"][0]["location"]["path"],
            "spec.tolerations[0].operator"
        );
    }

    #[test]
    fn plain_subjects_and_versions() {
        let lt = val(
            json!({"tolerations": [{"key": "sla", "operator": "Lt", "value": "950", "effect": "NoSchedule"}]}),
        );
        let off = v(validate(&lt, &V::Null));
        assert_eq!(off["errors"][0]["type"], "NotSupported");
        let on = v(validate(&lt, &val(json!({"comparisonOperators": true}))));
        assert_eq!(on["valid"], true);
        let old = v(validate(
            &lt,
            &val(json!({"comparisonOperators": true, "kubernetesVersion": "1.34"})),
        ));
        assert_eq!(
            old["errors"][0]["detail"],
            "supported values: \"Equal\", \"Exists\""
        );
        let dup = v(validate(
            &val(json!({"node": {"name": "n", "taints": "a=1:NoSchedule a=2:NoSchedule"}})),
            &V::Null,
        ));
        assert_eq!(dup["errors"][0]["type"], "Duplicate");
        assert!(
            dup["message"]
                .as_str()
                .unwrap()
                .starts_with("Node \"n\" is invalid: metadata.taints[1]")
        );
        let upd = v(validate(
            &val(
                json!({"tolerations": [], "oldTolerations": [{"key": "a", "operator": "Exists"}]}),
            ),
            &V::Null,
        ));
        assert_eq!(upd["errors"][0]["type"], "Forbidden");
        let deploy = val(
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
            "spec": {"template": {"spec": {"tolerations": [{"operator": "Equal", "value": "x"}]}}}}),
        );
        let r = v(validate(&deploy, &V::Null));
        assert!(r["message"].as_str().unwrap().starts_with("Deployment.apps \"d\" is invalid: spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\""), "{}", r["message"]);
    }
}
