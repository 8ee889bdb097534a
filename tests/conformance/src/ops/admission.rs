//! Admission plugins: `defaultTolerationSeconds`, `extendedResourceToleration`,
//! `isSuperset`, `isSupersetPair`, `verifyAgainstWhitelist`, `mergeTolerations`,
//! `podTolerationRestriction`, plus `taintNodesByCondition` and `admitPod` (no vectors
//! yet).
//!
//! The namespace annotations of `podTolerationRestriction` are JSON strings; they are
//! parsed here (core is `no_std` and takes parsed tolerations) the way Go's
//! `encoding/json` fills a `[]v1.Toleration`: see [`parse_annotation_tolerations`].

use serde_json::{Map, Value, json};
use taintlab_core::admission::default_toleration_seconds::{self, DefaultTolerationSecondsConfig};
use taintlab_core::admission::pod_toleration_restriction::{
    self as ptr, NS_DEFAULT_TOLERATIONS, NS_TOLERATIONS_WHITELIST, NamespaceAnnotation,
    NamespaceTolerations, PodTolerationRestrictionConfig,
};
use taintlab_core::admission::{
    self, Operation, PodAdmissionPlugins, PodAdmissionRequest, TolerationOrigin,
    extended_resource_toleration,
};
use taintlab_core::{Operator, QosClass, TaintEffect, Toleration};

use super::OpResult;
use crate::convert::*;

pub fn run(op: &str, input: &Value, expected: &Value) -> OpResult {
    let result = match op {
        "defaultTolerationSeconds" => default_tolerations(input),
        "extendedResourceToleration" => extended_resource(input),
        "isSuperset" => is_superset_row(input),
        "isSupersetPair" => (|| {
            let ss = toleration(field(input, "superset")?)?;
            let t = toleration(field(input, "toleration")?)?;
            Ok(json!({"isSuperset": ptr::is_superset(&ss, &t)}))
        })(),
        "verifyAgainstWhitelist" => (|| {
            let t = tolerations_field(input, "tolerations")?;
            let w = tolerations_field(input, "whitelist")?;
            Ok(json!({"allowed": ptr::verify_against_whitelist(&t, &w)}))
        })(),
        "mergeTolerations" => (|| {
            let a = tolerations_field(input, "first")?;
            let b = tolerations_field(input, "second")?;
            Ok(json!({"merged": tolerations_json(&ptr::merge_tolerations(&a, &b))}))
        })(),
        "podTolerationRestriction" => pod_toleration_restriction(input, expected),
        "taintNodesByCondition" => (|| {
            let mut taints = taints_field(input, "taints")?;
            let added = admission::taint_nodes_by_condition(operation(input)?, &mut taints);
            Ok(json!({"added": added, "taints": taints_json(&taints)}))
        })(),
        "admitPod" => admit_pod(input),
        _ => return None,
    };
    Some(result)
}

fn operation(input: &Value) -> R<Operation> {
    let s = str_field(input, "operation")?;
    Operation::parse(s).ok_or_else(|| format!("unknown operation {s:?}"))
}

fn default_tolerations(input: &Value) -> R<Value> {
    let config = DefaultTolerationSecondsConfig {
        not_ready_seconds: i64_field(input, "defaultNotReadyTolerationSeconds")?,
        unreachable_seconds: i64_field(input, "defaultUnreachableTolerationSeconds")?,
    };
    let mut tols = tolerations_field(input, "tolerations")?;
    default_toleration_seconds::admit(operation(input)?, &mut tols, &config);
    Ok(json!({"tolerations": tolerations_json(&tols)}))
}

/// All resource names of a `[[name, ...], ...]` list (one inner list per container).
fn request_names(input: &Value, key: &str) -> R<Vec<String>> {
    let containers = match field(input, key)? {
        Value::Null => return Ok(Vec::new()),
        Value::Array(a) => a,
        other => return Err(format!("{key:?} is not a list: {other}")),
    };
    let mut names = Vec::new();
    for container in containers {
        let list = container
            .as_array()
            .ok_or_else(|| format!("{key:?}: not a list of names: {container}"))?;
        for name in list {
            let name = name
                .as_str()
                .ok_or_else(|| format!("{key:?}: not a resource name: {name}"))?;
            names.push(name.to_string());
        }
    }
    Ok(names)
}

fn all_request_names(input: &Value) -> R<Vec<String>> {
    let mut names = request_names(input, "containerRequests")?;
    names.extend(request_names(input, "initContainerRequests")?);
    Ok(names)
}

fn extended_resource(input: &Value) -> R<Value> {
    let mut tols = tolerations_field(input, "tolerations")?;
    // The vectors test CREATE/UPDATE behaviour; an explicit operation may be given.
    let op = match input.get("operation") {
        None => Operation::Create,
        Some(_) => operation(input)?,
    };
    extended_resource_toleration::admit(op, &mut tols, all_request_names(input)?);
    Ok(json!({"tolerations": tolerations_json(&tols)}))
}

fn is_superset_row(input: &Value) -> R<Value> {
    let ss = toleration(field(input, "superset")?)?;
    let candidates = field(input, "candidates")?
        .as_object()
        .ok_or("\"candidates\" is not an object")?;
    let mut out = Map::new();
    for (name, t) in candidates {
        out.insert(name.clone(), json!(ptr::is_superset(&ss, &toleration(t)?)));
    }
    Ok(json!({"isSupersetOf": out}))
}

/// The namespace's two annotations from `{annotation key: JSON string}`.
fn namespace_tolerations(input: &Value) -> R<NamespaceTolerations> {
    let annotations = match input.get("namespaceAnnotations") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => return Err(format!("namespaceAnnotations is not an object: {other}")),
    };
    let read = |key: &str| -> R<NamespaceAnnotation> {
        let value = match annotations.get(key) {
            None => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(other) => return Err(format!("annotation {key} is not a string: {other}")),
        };
        Ok(NamespaceAnnotation::from_annotation_value(
            value,
            parse_annotation_tolerations,
        ))
    };
    Ok(NamespaceTolerations {
        default_tolerations: read(NS_DEFAULT_TOLERATIONS)?,
        tolerations_whitelist: read(NS_TOLERATIONS_WHITELIST)?,
    })
}

fn cluster_config(input: &Value) -> R<PodTolerationRestrictionConfig> {
    let list = |key: &str| match input.get(key) {
        None => Ok(Vec::new()),
        Some(v) => tolerations(v),
    };
    Ok(PodTolerationRestrictionConfig {
        default: list("clusterDefault")?,
        whitelist: list("clusterWhitelist")?,
    })
}

fn qos(input: &Value) -> R<QosClass> {
    match input.get("podQOSClass").and_then(Value::as_str) {
        None => Ok(QosClass::BestEffort),
        Some(s @ ("BestEffort" | "Burstable" | "Guaranteed")) => Ok(QosClass::parse(s)),
        Some(other) => Err(format!("unknown QoS class {other:?}")),
    }
}

fn pod_toleration_restriction(input: &Value, expected: &Value) -> R<Value> {
    let outcome = ptr::admit(
        operation(input)?,
        qos(input)?,
        &tolerations_field(input, "podTolerations")?,
        &namespace_tolerations(input)?,
        &cluster_config(input)?,
    );
    // Presentation flag only: upstream compares these rows order-insensitively.
    let order_significant = expected
        .get("tolerationsOrderSignificant")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    Ok(json!({
        "admitted": outcome.is_admitted(),
        "tolerations": outcome.tolerations().map(tolerations_json),
        "tolerationsOrderSignificant": order_significant,
        "error": outcome.message(),
    }))
}

/// `admitPod`: input `{operation, podQOSClass, podTolerations, containerRequests,
/// initContainerRequests, namespaceAnnotations, plugins: {defaultTolerationSeconds:
/// null | {notReady, unreachable}, podTolerationRestriction: null | {default, whitelist},
/// extendedResourceToleration: bool}}` (absent `plugins`: the apiserver defaults).
fn admit_pod(input: &Value) -> R<Value> {
    let mut plugins = PodAdmissionPlugins::default();
    if let Some(p) = input.get("plugins") {
        plugins.default_toleration_seconds = match p.get("defaultTolerationSeconds") {
            None | Some(Value::Null) => None,
            Some(c) => Some(DefaultTolerationSecondsConfig {
                not_ready_seconds: i64_field(c, "notReady")?,
                unreachable_seconds: i64_field(c, "unreachable")?,
            }),
        };
        plugins.pod_toleration_restriction = match p.get("podTolerationRestriction") {
            None | Some(Value::Null) => None,
            Some(c) => Some(PodTolerationRestrictionConfig {
                default: tolerations(c.get("default").unwrap_or(&Value::Null))?,
                whitelist: tolerations(c.get("whitelist").unwrap_or(&Value::Null))?,
            }),
        };
        plugins.extended_resource_toleration = bool_field(p, "extendedResourceToleration")?;
    }
    let pod_tolerations = tolerations_field(input, "podTolerations")?;
    let requested = match (
        input.get("containerRequests"),
        input.get("initContainerRequests"),
    ) {
        (None, None) => Vec::new(),
        _ => all_request_names(input)?,
    };
    let namespace = namespace_tolerations(input)?;
    let request = PodAdmissionRequest {
        operation: operation(input)?,
        tolerations: &pod_tolerations,
        qos_class: qos(input)?,
        requested_resources: &requested,
        namespace: &namespace,
    };
    Ok(match admission::admit_pod(&plugins, &request) {
        Ok(pod) => json!({
            "admitted": true,
            "tolerations": tolerations_json(&pod.final_tolerations()),
            "origins": pod.tolerations.iter().map(|t| origin_name(t.origin)).collect::<Vec<_>>(),
            "error": null,
        }),
        Err(rejection) => json!({
            "admitted": false,
            "tolerations": null,
            "rejectedBy": rejection.plugin.name(),
            "error": rejection.to_string(),
        }),
    })
}

fn origin_name(origin: TolerationOrigin) -> &'static str {
    match origin {
        TolerationOrigin::Pod => "pod",
        TolerationOrigin::DefaultTolerationSeconds => "defaultTolerationSeconds",
        TolerationOrigin::NamespaceDefault => "namespaceDefault",
        TolerationOrigin::ClusterDefault => "clusterDefault",
        TolerationOrigin::MemoryPressure => "memoryPressure",
        TolerationOrigin::ExtendedResource { replaced: false } => "extendedResource",
        TolerationOrigin::ExtendedResource { replaced: true } => "extendedResourceReplaced",
    }
}

/// Parses a namespace annotation value the way upstream's `json.Unmarshal` into
/// `[]v1.Toleration` does:
///
/// * `null` is a nil list (so, after `extractNSTolerations`, an explicitly empty one);
///   a `null` element is the zero toleration; a `null` field keeps the zero value.
/// * Field names match case-insensitively (Go folds them: `"KEY"`, `"tolerationseconds"`;
///   non-ASCII letters are compared by their upper case, so `"ſ"` counts as `"s"`). When
///   several spellings of a field occur, the last one wins. Unknown fields are ignored.
/// * A wrongly typed value fails with Go's `UnmarshalTypeError` text. Syntax errors are
///   reported with `serde_json`'s text (Go words them differently, e.g. `invalid
///   character 'x' looking for beginning of value`), except that truncated input gives
///   Go's `unexpected end of JSON input`.
pub fn parse_annotation_tolerations(text: &str) -> Result<Vec<Toleration>, String> {
    let go_error = |e: serde_json::Error| {
        if e.is_eof() {
            "unexpected end of JSON input".to_string()
        } else {
            e.to_string()
        }
    };
    let value: Value = serde_json::from_str(text).map_err(go_error)?;
    match value {
        Value::Null => Ok(Vec::new()),
        // Read again with each object's members in the text's order, which serde_json's
        // `Map` keeps only with its `preserve_order` feature.
        Value::Array(_) => serde_json::from_str::<Vec<GoJson>>(text)
            .map_err(go_error)?
            .iter()
            .map(toleration_from_go_json)
            .collect(),
        other => Err(type_error(&other, None, "[]v1.Toleration")),
    }
}

/// An element of the annotation's list as Go's decoder sees it: an object's members in
/// the order of the text (a later spelling of a field overrides an earlier one).
enum GoJson {
    Null,
    Object(Vec<(String, Value)>),
    Other(Value),
}

impl<'de> serde::Deserialize<'de> for GoJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = GoJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<GoJson, E> {
                Ok(GoJson::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<GoJson, E> {
                Ok(GoJson::Other(Value::Bool(b)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<GoJson, E> {
                Ok(GoJson::Other(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<GoJson, E> {
                Ok(GoJson::Other(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<GoJson, E> {
                Ok(GoJson::Other(n.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<GoJson, E> {
                Ok(GoJson::Other(s.into()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<GoJson, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = a.next_element::<Value>()? {
                    items.push(v);
                }
                Ok(GoJson::Other(Value::Array(items)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<GoJson, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = a.next_entry::<String, Value>()? {
                    members.push(member);
                }
                Ok(GoJson::Object(members))
            }
        }
        d.deserialize_any(Members)
    }
}

/// Go's `UnmarshalTypeError` message.
fn type_error(value: &Value, field: Option<&str>, go_type: &str) -> String {
    let what = match value {
        Value::Null => "null".to_string(),
        Value::Bool(_) => "bool".to_string(),
        Value::Number(n) => format!("number {n}"),
        Value::String(_) => "string".to_string(),
        Value::Array(_) => "array".to_string(),
        Value::Object(_) => "object".to_string(),
    };
    // Go only names the literal for numbers that do not fit the target.
    let what = match (value, go_type) {
        (Value::Number(_), "int64") => what,
        (Value::Number(_), _) => "number".to_string(),
        _ => what,
    };
    match field {
        Some(f) => format!(
            "json: cannot unmarshal {what} into Go struct field Toleration.{f} of type {go_type}"
        ),
        None => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
    }
}

/// Go's case folding for JSON field names (ASCII letters upper-cased, other letters by
/// their simple upper case).
fn fold(name: &str) -> String {
    name.chars()
        .map(|c| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(u), None) => u,
                _ => c,
            }
        })
        .collect()
}

fn toleration_from_go_json(value: &GoJson) -> Result<Toleration, String> {
    let object = match value {
        GoJson::Null => return Ok(Toleration::default()),
        GoJson::Object(o) => o,
        GoJson::Other(other) => return Err(type_error(other, None, "v1.Toleration")),
    };
    let mut t = Toleration::default();
    for (name, v) in object {
        let folded = fold(name);
        let string = |go_type: &str, field: &str| -> Result<Option<String>, String> {
            match v {
                Value::Null => Ok(None),
                Value::String(s) => Ok(Some(s.clone())),
                other => Err(type_error(other, Some(field), go_type)),
            }
        };
        match folded.as_str() {
            "KEY" => {
                if let Some(s) = string("string", "key")? {
                    t.key = s;
                }
            }
            "OPERATOR" => {
                if let Some(s) = string("v1.TolerationOperator", "operator")? {
                    t.operator = Operator::parse(&s);
                }
            }
            "VALUE" => {
                if let Some(s) = string("string", "value")? {
                    t.value = s;
                }
            }
            "EFFECT" => {
                if let Some(s) = string("v1.TaintEffect", "effect")? {
                    t.effect = TaintEffect::parse(&s);
                }
            }
            "TOLERATIONSECONDS" => match v {
                Value::Null => t.toleration_seconds = None,
                Value::Number(n) => match n.as_i64() {
                    Some(secs) => t.toleration_seconds = Some(secs),
                    None => return Err(type_error(v, Some("tolerationSeconds"), "int64")),
                },
                other => return Err(type_error(other, Some("tolerationSeconds"), "int64")),
            },
            _ => {}
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_parsing_follows_go() {
        let t = parse_annotation_tolerations(
            r#"[{"KEY": "k", "Operator": "Exists", "EFFECT": "NoSchedule", "tolerationseconds": 5, "extra": 1}, null]"#,
        )
        .unwrap();
        assert_eq!(
            t,
            vec![
                Toleration::new("k", Operator::Exists, "", TaintEffect::NoSchedule)
                    .with_seconds(Some(5)),
                Toleration::default(),
            ]
        );
        // Last spelling wins.
        let t = parse_annotation_tolerations(r#"[{"key": "a", "Key": "b"}]"#).unwrap();
        assert_eq!(t[0].key, "b");
        // Go folds U+017F (long s) to S.
        let t = parse_annotation_tolerations(r#"[{"tolerationſeconds": 7}]"#).unwrap();
        assert_eq!(t[0].toleration_seconds, Some(7));
        assert_eq!(parse_annotation_tolerations("null").unwrap(), vec![]);
        assert_eq!(
            parse_annotation_tolerations("[").unwrap_err(),
            "unexpected end of JSON input"
        );
        assert_eq!(
            parse_annotation_tolerations("{}").unwrap_err(),
            "json: cannot unmarshal object into Go value of type []v1.Toleration"
        );
        assert_eq!(
            parse_annotation_tolerations(r#"[{"key": 5}]"#).unwrap_err(),
            "json: cannot unmarshal number into Go struct field Toleration.key of type string"
        );
        assert_eq!(
            parse_annotation_tolerations(r#"[{"tolerationSeconds": 1.5}]"#).unwrap_err(),
            "json: cannot unmarshal number 1.5 into Go struct field Toleration.tolerationSeconds of type int64"
        );
    }
}
