//! The admission helpers: `admitPod` (DefaultTolerationSeconds, PodTolerationRestriction,
//! ExtendedResourceToleration in apiserver order), `admitNode` (TaintNodesByCondition)
//! and `daemonSet` (the DaemonSet controller's tolerations and node checks).

use crate::value::{self, V};
use taintlab_core::admission::default_toleration_seconds::DefaultTolerationSecondsConfig;
use taintlab_core::admission::pod_toleration_restriction::{
    NamespaceAnnotation, NamespaceTolerations, PodTolerationRestrictionConfig,
};
use taintlab_core::admission::{
    AdmissionPhase, AdmissionRejection, AdmittedPod, DropReason, Operation, PodAdmissionPlugins,
    PodAdmissionRequest, TolerationOrigin, admit_pod as core_admit_pod, taint_nodes_by_condition,
};
use taintlab_core::daemonset::{add_or_update_daemon_pod_tolerations, daemon_taint_check};
use taintlab_core::{KubeVersion, Operator, QosClass, TaintEffect, Toleration};

use crate::error::ApiResult;
use crate::read::{self, Obj, PodIn, VERSION_OPTIONS};
use crate::write::{self, J};

const OPERATIONS: [&str; 4] = ["CREATE", "UPDATE", "DELETE", "CONNECT"];

/// The kebab-case name of a toleration's origin.
pub fn origin_name(o: TolerationOrigin) -> &'static str {
    match o {
        TolerationOrigin::Pod => "pod",
        TolerationOrigin::DefaultTolerationSeconds => "default-toleration-seconds",
        TolerationOrigin::NamespaceDefault => "namespace-default",
        TolerationOrigin::ClusterDefault => "cluster-default",
        TolerationOrigin::MemoryPressure => "memory-pressure",
        TolerationOrigin::ExtendedResource { .. } => "extended-resource",
    }
}

/// The admission configuration read from options.
pub struct AdmissionConfig {
    /// Enabled plugins.
    pub plugins: PodAdmissionPlugins,
    /// The namespace annotations.
    pub namespace: NamespaceTolerations,
    /// The operation.
    pub operation: Operation,
    /// Overrides of the pod's QoS class and requested resources.
    pub qos_class: Option<QosClass>,
    /// Resource names requested, overriding the pod's.
    pub requested_resources: Option<Vec<String>>,
}

/// Option names of [`admission_config`].
pub const ADMISSION_OPTIONS: [&str; 7] = [
    "operation",
    "defaultTolerationSeconds",
    "podTolerationRestriction",
    "extendedResourceToleration",
    "namespace",
    "qosClass",
    "requestedResources",
];

fn annotation(o: &Obj<'_>, key: &str, version: KubeVersion) -> ApiResult<NamespaceAnnotation> {
    Ok(match o.get(key) {
        None => NamespaceAnnotation::Absent,
        // The annotation's own text: a JSON list, read as the apiserver reads it (an
        // invalid value is only an error when the plugin reads it).
        Some(V::Str(s)) => NamespaceAnnotation::from_annotation_value(Some(s), go_tolerations),
        Some(v) => {
            NamespaceAnnotation::Tolerations(read::tolerations(v, &o.arg, &o.at(key), version)?)
        }
    })
}

/// Go's `UnmarshalTypeError` text.
fn go_type_error(v: &V, field: Option<&str>, go_type: &str) -> String {
    let what = match v {
        V::Null => "null",
        V::Bool(_) => "bool",
        V::Num(_) | V::Int(_) => "number",
        V::Str(_) => "string",
        V::Arr(_) => "array",
        V::Obj(_) => "object",
    };
    match field {
        Some(f) => format!(
            "json: cannot unmarshal {what} into Go struct field Toleration.{f} of type {go_type}"
        ),
        None => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
    }
}

/// A namespace annotation's JSON list as the API server decodes it into
/// `[]v1.Toleration` (Go's `encoding/json`): field names match without regard to ASCII
/// case, unknown fields are ignored, `null` is the zero value. Syntax errors use the
/// JSON parser's wording (the JavaScript engine's), not Go's.
pub fn go_tolerations(json: &str) -> Result<Vec<Toleration>, String> {
    let items = match value::parse_json(json)? {
        V::Null => return Ok(Vec::new()),
        V::Arr(items) => items,
        other => return Err(go_type_error(&other, None, "[]v1.Toleration")),
    };
    let mut out = Vec::with_capacity(items.len());
    for item in &items {
        let mut t = Toleration::default();
        match item {
            V::Null => {}
            V::Obj(m) => {
                for (name, v) in m {
                    let field = ["key", "operator", "value", "effect", "tolerationSeconds"]
                        .into_iter()
                        .find(|f| f.eq_ignore_ascii_case(name));
                    let Some(field) = field else { continue };
                    if field == "tolerationSeconds" {
                        t.toleration_seconds = match v {
                            V::Null => None,
                            n => Some(
                                n.as_int()
                                    .ok_or_else(|| go_type_error(n, Some(field), "int64"))?,
                            ),
                        };
                        continue;
                    }
                    let text = match v {
                        V::Null => continue,
                        V::Str(s) => s.as_str(),
                        other => {
                            let go = match field {
                                "operator" => "v1.TolerationOperator",
                                "effect" => "v1.TaintEffect",
                                _ => "string",
                            };
                            return Err(go_type_error(other, Some(field), go));
                        }
                    };
                    match field {
                        "key" => t.key = text.to_string(),
                        "operator" => t.operator = Operator::parse(text),
                        "value" => t.value = text.to_string(),
                        _ => t.effect = TaintEffect::parse(text),
                    }
                }
            }
            other => return Err(go_type_error(other, None, "v1.Toleration")),
        }
        out.push(t);
    }
    Ok(out)
}

/// Reads the admission options (`o` is the options object or a nested one).
pub fn admission_config(o: &Obj<'_>, version: KubeVersion) -> ApiResult<AdmissionConfig> {
    let operation = match o.choice("operation", &OPERATIONS)? {
        Some(s) => Operation::parse(s).unwrap_or(Operation::Create),
        None => Operation::Create,
    };
    let dts = match o.get("defaultTolerationSeconds") {
        None | Some(V::Bool(true)) => Some(DefaultTolerationSecondsConfig::default()),
        Some(V::Bool(false)) => None,
        Some(v) => {
            let d = Obj::new(
                v,
                &o.arg,
                &o.at("defaultTolerationSeconds"),
                "true, false or {notReadySeconds, unreachableSeconds}",
                &["notReadySeconds", "unreachableSeconds"],
                &[],
                false,
            )?;
            let base = DefaultTolerationSecondsConfig::default();
            Some(DefaultTolerationSecondsConfig {
                not_ready_seconds: d.int("notReadySeconds")?.unwrap_or(base.not_ready_seconds),
                unreachable_seconds: d
                    .int("unreachableSeconds")?
                    .unwrap_or(base.unreachable_seconds),
            })
        }
    };
    let ptr = match o.get("podTolerationRestriction") {
        None | Some(V::Bool(false)) => None,
        Some(V::Bool(true)) => Some(PodTolerationRestrictionConfig::default()),
        Some(v) => {
            let c = Obj::new(
                v,
                &o.arg,
                &o.at("podTolerationRestriction"),
                "true, false or {default, whitelist}",
                &["default", "whitelist"],
                &[],
                false,
            )?;
            Some(PodTolerationRestrictionConfig {
                default: match c.get("default") {
                    Some(t) => read::tolerations(t, &c.arg, &c.at("default"), version)?,
                    None => Vec::new(),
                },
                whitelist: match c.get("whitelist") {
                    Some(t) => read::tolerations(t, &c.arg, &c.at("whitelist"), version)?,
                    None => Vec::new(),
                },
            })
        }
    };
    let ns = match o.get("namespace") {
        None => NamespaceTolerations::default(),
        Some(v) => {
            let n = Obj::new(
                v,
                &o.arg,
                &o.at("namespace"),
                "the namespace annotations {defaultTolerations, tolerationsWhitelist}",
                &["defaultTolerations", "tolerationsWhitelist"],
                &[],
                false,
            )?;
            NamespaceTolerations {
                default_tolerations: annotation(&n, "defaultTolerations", version)?,
                tolerations_whitelist: annotation(&n, "tolerationsWhitelist", version)?,
            }
        }
    };
    Ok(AdmissionConfig {
        plugins: PodAdmissionPlugins {
            default_toleration_seconds: dts,
            pod_toleration_restriction: ptr,
            extended_resource_toleration: o.bool("extendedResourceToleration")?.unwrap_or(false),
        },
        namespace: ns,
        operation,
        qos_class: o
            .choice("qosClass", &["BestEffort", "Burstable", "Guaranteed"])?
            .map(QosClass::parse),
        requested_resources: o.str_list("requestedResources")?,
    })
}

/// Runs admission on one pod.
pub fn admit(pod: &PodIn, c: &AdmissionConfig) -> Result<AdmittedPod, AdmissionRejection> {
    let requested = c
        .requested_resources
        .clone()
        .unwrap_or_else(|| pod.requested_resources.clone());
    let request = PodAdmissionRequest {
        operation: c.operation,
        tolerations: &pod.pod.tolerations,
        qos_class: c.qos_class.unwrap_or(pod.qos_class),
        requested_resources: &requested,
        namespace: &c.namespace,
    };
    core_admit_pod(&c.plugins, &request)
}

/// The tolerations dropped during admission.
pub fn dropped(j: &mut J, a: &AdmittedPod) {
    j.arr();
    for d in &a.dropped {
        j.open().key("toleration");
        write::toleration(j, &d.toleration);
        j.s("origin", origin_name(d.origin))
            .s(
                "reason",
                match d.reason {
                    DropReason::Superseded => "superseded",
                    DropReason::Overwritten => "overwritten",
                },
            )
            .close();
    }
    j.end();
}

/// The phase name of a rejection.
pub fn phase_name(r: &AdmissionRejection) -> &'static str {
    match r.phase {
        AdmissionPhase::Mutating => "mutating",
        AdmissionPhase::Validating => "validating",
    }
}

/// `admitPod(pod, options?)`.
pub fn admit_pod(pod: &V, options: &V) -> ApiResult {
    let mut known: Vec<&str> = VERSION_OPTIONS.to_vec();
    known.extend(ADMISSION_OPTIONS);
    let o = Obj::options(options, &known)?;
    let sem = read::semantics(&o)?;
    let c = admission_config(&o, sem.version)?;
    let pod = read::pod(pod, "pod", sem.version)?;
    let mut j = J::new();
    match admit(&pod, &c) {
        Ok(a) => {
            j.open().b("admitted", true).key("tolerations").arr();
            for t in &a.tolerations {
                j.open().key("toleration");
                write::toleration(&mut j, &t.toleration);
                j.s("origin", origin_name(t.origin))
                    .os("plugin", t.origin.plugin().map(|p| p.name()))
                    .close();
            }
            j.end().key("dropped");
            dropped(&mut j, &a);
            j.key("finalTolerations");
            write::tolerations(&mut j, &a.final_tolerations());
            j.close();
        }
        Err(r) => {
            j.open()
                .b("admitted", false)
                .s("plugin", r.plugin.name())
                .s("phase", phase_name(&r))
                .s("message", &r.to_string())
                .close();
        }
    }
    Ok(j.finish())
}

/// `admitNode(node, options?)`: TaintNodesByCondition.
pub fn admit_node(node: &V, options: &V) -> ApiResult {
    let o = Obj::options(options, &["operation", "kubernetesVersion"])?;
    let version = read::kube_version(&o)?;
    let op = o
        .choice("operation", &OPERATIONS)?
        .and_then(Operation::parse)
        .unwrap_or(Operation::Create);
    let mut node = read::core_node(node, "node", version)?;
    let added = taint_nodes_by_condition(op, &mut node.taints);
    let mut j = J::new();
    j.open().key("taints");
    write::taints(&mut j, &node.taints);
    j.b("added", added).close();
    Ok(j.finish())
}

/// `daemonSet(pod, nodes?, options?)`.
pub fn daemon_set(pod: &V, nodes: &V, options: &V) -> ApiResult {
    let mut known: Vec<&str> = VERSION_OPTIONS.to_vec();
    known.push("hostNetwork");
    let o = Obj::options(options, &known)?;
    let sem = read::semantics(&o)?;
    let pod = read::pod(pod, "pod", sem.version)?;
    let host_network = o.bool("hostNetwork")?.unwrap_or(pod.host_network);
    let nodes = read::nodes(nodes, "nodes", sem.version)?;
    let before = pod.pod.tolerations.clone();
    let mut tolerations = before.clone();
    add_or_update_daemon_pod_tolerations(&mut tolerations, host_network);
    let mut added: Vec<Toleration> = Vec::new();
    for t in &tolerations {
        if !before.contains(t) {
            added.push(t.clone());
        }
    }
    let gate = sem.comparison_operators_enabled();
    let mut j = J::new();
    j.open().key("tolerations");
    write::tolerations(&mut j, &tolerations);
    j.key("added");
    write::tolerations(&mut j, &added);
    j.b("hostNetwork", host_network).key("nodes").arr();
    for n in &nodes {
        let c = daemon_taint_check(&n.node.taints, &tolerations, gate);
        j.open()
            .s("node", &n.node.name)
            .b("shouldRun", c.should_run)
            .b("shouldContinueRunning", c.should_continue_running)
            .key("blockingTaint");
        write::opt_taint(&mut j, c.blocking_taint.as_ref());
        j.key("evictingTaint");
        write::opt_taint(&mut j, c.evicting_taint.as_ref());
        j.close();
    }
    j.end().close();
    Ok(j.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tests::{v, val};
    use serde_json::json;

    #[test]
    fn default_toleration_seconds_runs_by_default() {
        let r = v(admit_pod(&val(json!({"name": "web"})), &V::Null));
        assert_eq!(r["admitted"], true);
        assert_eq!(r["finalTolerations"].as_array().unwrap().len(), 2);
        assert_eq!(r["tolerations"][0]["origin"], "default-toleration-seconds");
        assert_eq!(r["tolerations"][0]["plugin"], "DefaultTolerationSeconds");
        assert_eq!(r["finalTolerations"][1]["tolerationSeconds"], 300);
        let off = v(admit_pod(
            &val(json!({"name": "web"})),
            &val(json!({"defaultTolerationSeconds": false})),
        ));
        assert_eq!(off["finalTolerations"], serde_json::json!([]));
    }

    #[test]
    fn whitelist_rejects_with_upstream_text() {
        let pod = val(json!({"name": "web", "tolerations": [{"key": "x", "operator": "Exists"}]}));
        let opts = val(
            json!({"podTolerationRestriction": {"whitelist": "[{key: zone, operator: Exists}]"}}),
        );
        let r = v(admit_pod(&pod, &opts));
        assert_eq!(r["admitted"], false);
        assert_eq!(r["phase"], "mutating");
        assert_eq!(
            r["message"],
            "pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist"
        );
        let ns = val(
            json!({"namespace": {"defaultTolerations": "[{\"key\": \"team\", \"operator\": \"Exists\"}]"}, "podTolerationRestriction": true}),
        );
        let r = v(admit_pod(&val(json!({"name": "w"})), &ns));
        let origins: Vec<&str> = r["tolerations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["origin"].as_str().unwrap())
            .collect();
        assert_eq!(
            origins,
            [
                "default-toleration-seconds",
                "default-toleration-seconds",
                "namespace-default"
            ]
        );
    }

    #[test]
    fn daemon_sets_tolerate_node_problems() {
        let r = v(daemon_set(
            &val(json!({"name": "agent"})),
            &val(
                json!([{"name": "n1", "taints": "node.kubernetes.io/unreachable:NoExecute dedicated=gpu:NoSchedule"}]),
            ),
            &V::Null,
        ));
        assert_eq!(r["added"].as_array().unwrap().len(), 6);
        assert_eq!(r["nodes"][0]["shouldRun"], false);
        assert_eq!(r["nodes"][0]["shouldContinueRunning"], true);
        assert_eq!(r["nodes"][0]["blockingTaint"]["key"], "dedicated");
        let host = v(daemon_set(
            &val(json!({"name": "cni"})),
            &V::Null,
            &val(json!({"hostNetwork": true})),
        ));
        assert_eq!(host["added"].as_array().unwrap().len(), 7);
    }

    #[test]
    fn annotations_decode_like_go() {
        let t =
            go_tolerations(r#"[{"KEY": "a", "Operator": "Exists", "effect": null, "x": 1}, null]"#)
                .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].key, "a");
        assert_eq!(t[0].operator, Operator::Exists);
        assert_eq!(go_tolerations("null").unwrap(), vec![]);
        assert_eq!(
            go_tolerations(r#"[{"key": 1}]"#).unwrap_err(),
            "json: cannot unmarshal number into Go struct field Toleration.key of type string"
        );
        assert_eq!(
            go_tolerations("{}").unwrap_err(),
            "json: cannot unmarshal object into Go value of type []v1.Toleration"
        );
    }

    #[test]
    fn new_nodes_get_the_not_ready_taint() {
        let r = v(admit_node(&val(json!({"name": "n"})), &V::Null));
        assert_eq!(r["added"], true);
        assert_eq!(r["taints"][0]["key"], "node.kubernetes.io/not-ready");
        let r = v(admit_node(
            &val(json!({"name": "n"})),
            &val(json!({"operation": "UPDATE"})),
        ));
        assert_eq!(r["added"], false);
    }
}
