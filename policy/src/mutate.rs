//! Mutation on the raw JSON object: only the tolerations array (and, for dedicated
//! nodes, the required node affinity) is touched, so the host's JSON Patch holds exactly
//! the intended operations. Every step is idempotent: re-admitting the mutated object
//! changes nothing.

use serde_json::{Map, Value, json};
use taintlab_core::admission::default_toleration_seconds as dts;
use taintlab_core::admission::extended_resource_toleration as ert;
use taintlab_core::matching::{match_toleration, parse_decimal_int64};
use taintlab_core::{Operator, TaintEffect, Toleration};

use crate::Decision;
use crate::review::{PodReview, is_system_toleration, short};
use crate::settings::{NodeSelectorRequirement, SystemTolerations, TolerationSpec};

/// Whether `e` tolerates every taint `d` tolerates (ignoring `tolerationSeconds`: with
/// several matching tolerations eviction uses the shortest, so adding `d` next to `e`
/// would change nothing `e` does not already decide).
pub fn covers(e: &Toleration, d: &Toleration) -> bool {
    let key_ok = (e.key.is_empty() && e.operator == Operator::Exists) || e.key == d.key;
    let effect_ok = e.effect.is_empty() || e.effect == d.effect;
    if !key_ok || !effect_ok {
        return false;
    }
    let normal = |o: &Operator| match o {
        Operator::Empty => Operator::Equal,
        other => other.clone(),
    };
    match normal(&e.operator) {
        Operator::Exists => true,
        Operator::Equal => normal(&d.operator) == Operator::Equal && e.value == d.value,
        Operator::Lt | Operator::Gt => {
            normal(&d.operator) == normal(&e.operator)
                && parse_decimal_int64(&e.value).is_some()
                && e.value == d.value
        }
        Operator::Empty | Operator::Other(_) => false,
    }
}

/// JSON of a toleration in the API's field order, empty fields left out.
pub fn toleration_json(t: &Toleration) -> Value {
    let mut m = Map::new();
    if !t.key.is_empty() {
        m.insert("key".into(), Value::String(t.key.clone()));
    }
    if !t.operator.is_empty() {
        m.insert("operator".into(), Value::String(t.operator.as_str().into()));
    }
    if !t.value.is_empty() {
        m.insert("value".into(), Value::String(t.value.clone()));
    }
    if !t.effect.is_empty() {
        m.insert("effect".into(), Value::String(t.effect.as_str().into()));
    }
    if let Some(s) = t.toleration_seconds {
        m.insert("tolerationSeconds".into(), Value::from(s));
    }
    Value::Object(m)
}

/// Runs every configured mutation on `review.tolerations` and, when something changed,
/// stores the edited copy of `object` in `decision.mutated_object`.
pub fn mutate(review: &mut PodReview<'_>, object: &[u8], decision: &mut Decision) {
    let original_len = review.tolerations.len();
    let mut clamped: Vec<(usize, i64)> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let view = review.view;
    let settings = review.settings;

    // Clamping is a governance rule: exempt subjects keep their values.
    if settings.clamp_toleration_seconds
        && review.exemption.is_none()
        && let Some(max) = view.max_seconds
    {
        let daemon = review.is_daemon();
        let auto = settings.system_tolerations == SystemTolerations::Allow;
        for i in 0..original_len {
            let judged = review.judged.get(i).copied().unwrap_or(false);
            let Some(t) = review.tolerations.get_mut(i) else {
                continue;
            };
            if !judged
                || t.effect != TaintEffect::NoExecute
                || (auto && is_system_toleration(t, daemon))
            {
                continue;
            }
            if t.toleration_seconds.is_none_or(|s| s > max) {
                let before = t
                    .toleration_seconds
                    .map_or_else(|| String::from("forever"), |s| format!("{s}s"));
                t.toleration_seconds = Some(max);
                clamped.push((i, max));
                lines.push(format!(
                    "{}[{i}].tolerationSeconds: clamped from {before} to {max}",
                    review.tolerations_path
                ));
            }
        }
    }

    let mut added: Vec<Toleration> = Vec::new();
    let mut add_covered =
        |review: &mut PodReview<'_>, t: Toleration, why: &str, lines: &mut Vec<String>| {
            if review.tolerations.iter().any(|e| covers(e, &t)) {
                return;
            }
            lines.push(format!(
                "{}: added {} ({why})",
                review.tolerations_path,
                short(&t)
            ));
            review.tolerations.push(t.clone());
            added.push(t);
        };

    for d in view.defaults.iter().map(TolerationSpec::to_toleration) {
        add_covered(review, d, "defaultTolerations", &mut lines);
    }
    if let Some(d) = view.dedicated {
        add_covered(
            review,
            d.toleration.to_toleration(),
            "dedicatedNodes",
            &mut lines,
        );
    }
    if let Some(seconds) = view.default_seconds {
        // DefaultTolerationSeconds' own notion of "already covered".
        let missing = dts::missing_defaults(&review.tolerations);
        for (wanted, secs, make) in [
            (
                missing.not_ready,
                seconds.not_ready,
                dts::not_ready_toleration as fn(i64) -> Toleration,
            ),
            (
                missing.unreachable,
                seconds.unreachable,
                dts::unreachable_toleration,
            ),
        ] {
            if let (true, Some(s)) = (wanted, secs) {
                let t = make(s);
                lines.push(format!(
                    "{}: added {} for {s}s (defaultTolerationSeconds)",
                    review.tolerations_path,
                    short(&t)
                ));
                review.tolerations.push(t.clone());
                added.push(t);
            }
        }
    }
    if settings.extended_resource_tolerations != crate::settings::ExtendedResources::Off {
        let names = requested_resources(review.spec);
        for name in ert::extended_resource_names(names.iter()) {
            if !settings.extended_resource_tolerations.selects(&name) {
                continue;
            }
            let t = ert::toleration_for(&name);
            // Upstream's AddOrUpdate: an identical entry (seconds aside) is reused, so the
            // object is left alone; otherwise the toleration is appended.
            if review.tolerations.iter().any(|e| match_toleration(e, &t)) {
                continue;
            }
            lines.push(format!(
                "{}: added {} (extended resource {name})",
                review.tolerations_path,
                short(&t)
            ));
            review.tolerations.push(t.clone());
            added.push(t);
        }
    }
    review.judged.resize(review.tolerations.len(), false);

    let affinity = view
        .dedicated
        .map(|d| &d.node_selector_requirement)
        .filter(|r| !affinity_present(review.spec, r));

    if clamped.is_empty() && added.is_empty() && affinity.is_none() {
        return;
    }
    // Only now is the whole object parsed: most requests are not mutated.
    let Ok(mut out) = crate::request::full_object(object) else {
        return;
    };
    let Some(spec) = review
        .kind
        .pod_spec_pointer()
        .and_then(|p| ensure_object_at(&mut out, p))
    else {
        return;
    };
    if !clamped.is_empty() || !added.is_empty() {
        let Some(list) = ensure_array(spec, "tolerations") else {
            return;
        };
        for (i, secs) in &clamped {
            if let Some(Value::Object(item)) = list.get_mut(*i) {
                item.insert("tolerationSeconds".into(), Value::from(*secs));
            }
        }
        list.extend(added.iter().map(toleration_json));
    }
    if let Some(r) = affinity {
        add_required_affinity(spec, r);
        lines.push(format!(
            "{}.affinity.nodeAffinity: required {} {} [{}] (dedicatedNodes)",
            review.spec_path,
            r.key,
            r.operator,
            r.values.join(", ")
        ));
    }
    decision.mutations.extend(lines);
    decision.mutated_object = Some(out);
}

/// Resource names in `resources.requests` of containers and init containers.
pub fn requested_resources(spec: Option<&Value>) -> Vec<String> {
    let mut names = Vec::new();
    let Some(spec) = spec else { return names };
    for field in ["containers", "initContainers"] {
        let Some(list) = spec.get(field).and_then(Value::as_array) else {
            continue;
        };
        for c in list {
            if let Some(req) = c
                .get("resources")
                .and_then(|r| r.get("requests"))
                .and_then(Value::as_object)
            {
                names.extend(req.keys().cloned());
            }
        }
    }
    names
}

/// Makes every step of `pointer` an object (creating missing or `null` steps) and
/// returns the last one. `None` when a step exists but is not an object.
fn ensure_object_at<'v>(root: &'v mut Value, pointer: &str) -> Option<&'v mut Map<String, Value>> {
    let mut cur = root;
    for step in pointer.split('/').skip(1) {
        let map = cur.as_object_mut()?;
        let slot = map.entry(step).or_insert(Value::Null);
        if slot.is_null() {
            *slot = Value::Object(Map::new());
        }
        cur = slot;
    }
    cur.as_object_mut()
}

fn ensure_array<'v>(map: &'v mut Map<String, Value>, field: &str) -> Option<&'v mut Vec<Value>> {
    let slot = map.entry(field).or_insert(Value::Null);
    if slot.is_null() {
        *slot = Value::Array(Vec::new());
    }
    slot.as_array_mut()
}

fn requirement_json(r: &NodeSelectorRequirement) -> Value {
    let mut v = json!({"key": r.key, "operator": r.operator});
    if !r.values.is_empty()
        && let Some(m) = v.as_object_mut()
    {
        m.insert("values".into(), json!(r.values));
    }
    v
}

fn same_requirement(v: &Value, r: &NodeSelectorRequirement) -> bool {
    let values: Vec<&str> = v
        .get("values")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    v.get("key").and_then(Value::as_str) == Some(r.key.as_str())
        && v.get("operator").and_then(Value::as_str) == Some(r.operator.as_str())
        && values.len() == r.values.len()
        && r.values.iter().all(|x| values.contains(&x.as_str()))
}

fn required_terms(spec: Option<&Value>) -> Option<&Vec<Value>> {
    spec?
        .get("affinity")?
        .get("nodeAffinity")?
        .get("requiredDuringSchedulingIgnoredDuringExecution")?
        .get("nodeSelectorTerms")?
        .as_array()
}

/// Whether every required node selector term already carries the requirement.
fn affinity_present(spec: Option<&Value>, r: &NodeSelectorRequirement) -> bool {
    required_terms(spec).is_some_and(|terms| {
        !terms.is_empty()
            && terms.iter().all(|term| {
                term.get("matchExpressions")
                    .and_then(Value::as_array)
                    .is_some_and(|exprs| exprs.iter().any(|e| same_requirement(e, r)))
            })
    })
}

/// Required terms are ORed, expressions inside a term ANDed: to confine the pod, the
/// requirement goes into every term (a new single term when there is none).
fn add_required_affinity(spec: &mut Map<String, Value>, r: &NodeSelectorRequirement) {
    let mut cur: &mut Map<String, Value> = spec;
    for step in [
        "affinity",
        "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution",
    ] {
        let slot = cur.entry(step).or_insert(Value::Null);
        if slot.is_null() {
            *slot = Value::Object(Map::new());
        }
        let Some(next) = slot.as_object_mut() else {
            return;
        };
        cur = next;
    }
    let Some(terms) = ensure_array(cur, "nodeSelectorTerms") else {
        return;
    };
    if terms.is_empty() {
        terms.push(json!({"matchExpressions": [requirement_json(r)]}));
        return;
    }
    for term in terms.iter_mut() {
        let Some(term) = term.as_object_mut() else {
            continue;
        };
        let Some(exprs) = ensure_array(term, "matchExpressions") else {
            continue;
        };
        if !exprs.iter().any(|e| same_requirement(e, r)) {
            exprs.push(requirement_json(r));
        }
    }
}
