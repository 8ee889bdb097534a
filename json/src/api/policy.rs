//! `policyDecision` and `validatePolicySettings`: the Kubewarden policy's decision
//! (`taintlab-policy`), callable without a cluster.

use serde_json::{Map, Value};
use taintlab_core::Node;
use taintlab_core::admission::Operation;
use taintlab_policy::{Settings, evaluate, node_list_request, parse_node_list};
use taintlab_scenario::{Envelope, UserInfo, admission_request_around};

use crate::value::V;

use crate::error::{ApiError, ApiResult};
use crate::read::{self, Obj};
use crate::write::J;

/// Reads settings: an object, JSON text, or nothing (the defaults). The version options
/// fill in `kubernetesVersion` and `comparisonOperators` when the settings leave them out.
fn settings(o: &Obj<'_>, given: Option<&Value>) -> ApiResult<Settings> {
    let mut value = match given.filter(|v| !v.is_null()) {
        None => Value::Object(Map::new()),
        Some(Value::String(s)) => {
            serde_json::from_str(s).map_err(|e| json_error("options.settings", &e))?
        }
        Some(v) => v.clone(),
    };
    if let Value::Object(m) = &mut value {
        if let Some(v) = o.str("kubernetesVersion")? {
            read::kube_version(o)?;
            m.entry("kubernetesVersion").or_insert(Value::String(v));
        }
        if let Some(g) = o.bool("comparisonOperators")? {
            m.entry("comparisonOperators").or_insert(Value::Bool(g));
        }
    }
    let s = Settings::from_value(&value)
        .map_err(|e| ApiError::value("invalid-settings", "options", "options.settings", e))?;
    s.validate().map_err(|e| {
        ApiError::value(
            "invalid-settings",
            "options",
            "options.settings",
            format!("invalid settings: {e}"),
        )
    })?;
    Ok(s)
}

/// A `serde_json` syntax error with its line and column.
fn json_error(arg: &str, e: &serde_json::Error) -> ApiError {
    let mut err = ApiError::value("json-syntax", arg, "", format!("not JSON: {e}"));
    err.message = format!(
        "{arg}: line {}, column {}: not JSON: {e}",
        e.line(),
        e.column()
    );
    err.location.document = 1;
    err.location.line = e.line();
    err.location.column = e.column();
    err
}

/// The AdmissionRequest: given as such (or as an AdmissionReview), or built around a
/// Kubernetes object.
fn request(v: &Value, o: &Obj<'_>) -> ApiResult<Value> {
    let v = match v {
        Value::String(s) => serde_json::from_str(s).map_err(|e| json_error("request", &e))?,
        Value::Object(_) => v.clone(),
        other => {
            return Err(ApiError::value(
                "wrong-type",
                "request",
                "request",
                format!(
                    "must be an AdmissionRequest, an AdmissionReview or a Kubernetes object, got {}",
                    crate::value::V::from(other).type_name()
                ),
            ));
        }
    };
    let is_review = v.get("kind").and_then(Value::as_str) == Some("AdmissionReview");
    if is_review || v.get("operation").is_some() {
        for key in ["operation", "userInfo", "oldObject", "namespace"] {
            if o.has(key) {
                return Err(o.error(
                    key,
                    "invalid-argument",
                    "only applies when request is a Kubernetes object",
                ));
            }
        }
        return Ok(v);
    }
    if v.get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
    {
        return Err(ApiError::value(
            "missing-field",
            "request",
            "request.kind",
            "is required: a Kubernetes object (Pod, Deployment, Node, ...) or an AdmissionRequest",
        ));
    }
    let operation = o
        .choice("operation", &["CREATE", "UPDATE", "DELETE", "CONNECT"])?
        .and_then(Operation::parse)
        .unwrap_or(Operation::Create);
    let user = match o.get("userInfo") {
        None => UserInfo::default(),
        Some(u) => {
            let u = Obj::new(
                u,
                "options",
                &o.at("userInfo"),
                "{username, groups}",
                &["username", "groups"],
                &[],
                false,
            )?;
            UserInfo {
                username: u.str("username")?.unwrap_or_default(),
                groups: u.str_list("groups")?.unwrap_or_default(),
            }
        }
    };
    // The envelope is the scenario's, so a pasted object gets the same request here as
    // in the playground's Kubewarden tab.
    let envelope = Envelope {
        operation,
        user,
        namespace: o.str("namespace")?,
        old_object: o.get("oldObject").map(crate::value::to_serde),
        ..Envelope::default()
    };
    Ok(admission_request_around(v, &envelope))
}

/// The cluster's nodes for the node checks, read without the text reader (this module
/// does not carry it, to stay small): Kubernetes Node objects or a NodeList (objects or
/// JSON text, as the Kubewarden host returns them), or Taintlab's node shape with taint
/// objects.
fn nodes(v: &V) -> ApiResult<Vec<Node>> {
    const ARG: &str = "options.nodes";
    let parsed;
    let v = match v {
        V::Str(text) => {
            let value: Value = serde_json::from_str(text).map_err(|e| json_error(ARG, &e))?;
            parsed = V::from(&value);
            &parsed
        }
        other => other,
    };
    let items: &[V] = match v {
        V::Arr(items) => items,
        V::Obj(_) => match v.get("items") {
            Some(V::Arr(items)) => items,
            _ => std::slice::from_ref(v),
        },
        other => {
            return Err(ApiError::value(
                "wrong-type",
                ARG,
                ARG,
                format!(
                    "must be nodes (objects), a NodeList or its JSON, got {}",
                    other.type_name()
                ),
            ));
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = read::index(ARG, i);
        if read::is_kubernetes_object(item) {
            let list = format!("{{\"items\":[{}]}}", item.to_json());
            let mut n = parse_node_list(list.as_bytes())
                .map_err(|e| ApiError::value("wrong-type", ARG, &path, e))?;
            out.append(&mut n);
            continue;
        }
        let o = Obj::new(
            item,
            ARG,
            &path,
            "a node (this module reads taints as objects, not text)",
            &["name", "taints", "unschedulable", "labels"],
            &[
                "conditions",
                "location",
                "taintLocations",
                "unschedulableLocation",
                "kubeletVersion",
                "form",
            ],
            false,
        )?;
        let mut node = Node {
            name: o.str("name")?.unwrap_or_else(|| format!("node-{}", i + 1)),
            unschedulable: o.bool("unschedulable")?.unwrap_or(false),
            ..Node::default()
        };
        if let Some(t) = o.get("taints") {
            let V::Arr(taints) = t else {
                return Err(o.error(
                    "taints",
                    "wrong-type",
                    "must be an array of taint objects (read text with `parse` from \"taintlab\" first)",
                ));
            };
            for (k, taint) in taints.iter().enumerate() {
                let at = read::index(&o.at("taints"), k);
                node.taints.push(read::plain_taint(taint, ARG, &at)?);
            }
        }
        if let Some(V::Obj(labels)) = o.get("labels") {
            for (k, val) in labels {
                if let V::Str(s) = val {
                    node.labels.insert(k.clone(), s.clone());
                }
            }
        }
        out.push(node);
    }
    Ok(out)
}

/// `policyDecision(request, options?)`.
pub fn policy_decision(req: &Value, options: &Value) -> ApiResult {
    let ov = V::from(options);
    let o = Obj::options(
        &ov,
        &[
            "settings",
            "nodes",
            "operation",
            "userInfo",
            "oldObject",
            "namespace",
            "kubernetesVersion",
            "comparisonOperators",
        ],
    )?;
    let s = settings(&o, options.get("settings"))?;
    let request = request(req, &o)?;
    let needs = node_list_request(&request, &s).is_some();
    let nodes = match o.get("nodes") {
        Some(n) => Some(nodes(n)?),
        None => None,
    };
    let d = evaluate(&request, &s, nodes.as_deref());
    let node_checks = match (needs, nodes.is_some()) {
        (false, _) => "not-needed",
        (true, true) => "done",
        (true, false) => "skipped",
    };
    let mut j = J::new();
    j.open()
        .b("accepted", d.accepted)
        .os("message", d.message.as_deref())
        .on("code", d.code.map(i64::from))
        .strs("warnings", &d.warnings)
        .key("mutatedObject");
    match &d.mutated_object {
        Some(obj) => j.raw(&serde_json::to_string(obj).unwrap_or_else(|_| "null".into())),
        None => j.null(),
    };
    j.key("auditAnnotations").open();
    for (k, v) in &d.audit_annotations {
        j.key(k).str(v);
    }
    j.close().key("violations").arr();
    for v in &d.violations {
        j.open()
            .s("kind", v.kind.name())
            .s("message", &v.message)
            .close();
    }
    j.end()
        .strs("mutations", &d.mutations)
        .s("nodeChecks", node_checks)
        .key("request")
        .raw(&serde_json::to_string(&request).unwrap_or_else(|_| "null".into()))
        .close();
    Ok(j.finish())
}

/// `validatePolicySettings(settings)`: `{valid, message}`.
pub fn validate_policy_settings(settings: &Value) -> ApiResult {
    let value = match settings {
        Value::String(s) => serde_json::from_str(s).map_err(|e| json_error("settings", &e))?,
        other => other.clone(),
    };
    let r = Settings::from_value(&value)
        .and_then(|s| s.validate().map_err(|e| format!("invalid settings: {e}")));
    let mut j = J::new();
    j.open()
        .b("valid", r.is_ok())
        .os("message", r.as_ref().err().map(String::as_str))
        .close();
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::v;
    use serde_json::json;

    fn pod(tolerations: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "apps"},
            "spec": {"containers": [{"name": "c", "image": "nginx"}], "tolerations": tolerations}})
    }

    #[test]
    fn wildcard_is_denied_by_default() {
        let d = v(policy_decision(
            &pod(json!([{"operator": "Exists"}])),
            &Value::Null,
        ));
        assert_eq!(d["accepted"], false);
        assert_eq!(d["code"], 403);
        assert_eq!(d["violations"][0]["kind"], "wildcard");
        let ok = v(policy_decision(
            &pod(json!([{"key": "a", "operator": "Exists"}])),
            &Value::Null,
        ));
        assert_eq!(ok["accepted"], true);
        assert_eq!(ok["nodeChecks"], "not-needed");
    }

    #[test]
    fn settings_errors_are_thrown() {
        let e = policy_decision(
            &pod(json!([])),
            &json!({"settings": {"denyWildcard": true}}),
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid-settings");
        let e = policy_decision(&json!("{\"kind\": "), &Value::Null).unwrap_err();
        assert_eq!(e.code, "json-syntax");
        assert_eq!(e.location.line, 1);
        let bad = v(validate_policy_settings(
            &json!({"maxTolerationSeconds": "x"}),
        ));
        assert_eq!(bad["valid"], false);
        assert_eq!(v(validate_policy_settings(&json!({})))["valid"], true);
    }

    #[test]
    fn nodes_as_objects_lists_and_json() {
        let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "k"}, "spec": {"taints": [{"key": "a", "effect": "NoSchedule"}]}});
        let list = json!({"kind": "NodeList", "items": [node.clone()]});
        let plain = json!([{"name": "p", "taints": [{"key": "a", "effect": "NoSchedule"}]}]);
        for n in [
            json!([node.clone()]),
            list.clone(),
            json!(list.to_string()),
            plain,
        ] {
            let got = nodes(&V::from(&n)).unwrap();
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].taints[0].key, "a");
        }
        let text = json!([{"name": "p", "taints": "a:NoSchedule"}]);
        let e = nodes(&V::from(&text)).unwrap_err();
        assert_eq!(e.location.path, "options.nodes[0].taints");
    }

    #[test]
    fn node_checks_use_the_given_nodes() {
        let s = json!({"nodeChecks": {"enabled": true, "unschedulable": "deny"}});
        let skipped = v(policy_decision(&pod(json!([])), &json!({"settings": s})));
        assert_eq!(skipped["nodeChecks"], "skipped");
        let done = v(policy_decision(
            &pod(json!([])),
            &json!({"settings": s, "nodes": [{"name": "n", "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]}]}),
        ));
        assert_eq!(done["nodeChecks"], "done");
        assert_eq!(done["accepted"], false);
    }
}
