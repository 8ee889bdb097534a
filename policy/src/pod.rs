//! Pods and pod templates: mutation, API validation, the governance rules, warnings and
//! the node checks.
//!
//! Tolerations are judged by what they tolerate (`taintlab_core::matching::tolerates`
//! against witness taints), never by how they are spelled, so `{operator: Exists}`,
//! key-only `Exists` and effect-less tolerations cannot slip past a rule.

use crate::quote_for;
use std::collections::{HashMap, HashSet};

use serde_json::Value;
use taintlab_core::matching::{
    describe_toleration, match_toleration, parse_decimal_int64, tolerates,
};
use taintlab_core::model::keys;
use taintlab_core::validation::{
    allow_comparison_operators, validate_pod_tolerations_update, validate_tolerations,
};
use taintlab_core::{Operator, Taint, TaintEffect, Toleration, WorkloadKind};

use crate::mutate;
use crate::nodes;
use crate::request::{self, Kind, Operation, Request};
pub use crate::review::{PodReview, effective_tolerations, is_system_toleration, short};
use crate::settings::{AllowedToleration, RuleView, Settings, TaintPattern, kube_version};
use crate::{Decision, Violation, ViolationKind, glob, subject_exemption};

/// The pod-bearing kinds.
pub fn evaluate_pod(
    req: &Request<'_>,
    kind: Kind,
    settings: &Settings,
    cluster: Option<&crate::cluster::Cluster>,
) -> Decision {
    let mut decision = Decision::default();
    if glob::any_matches(&settings.exempt_namespaces, &req.namespace) {
        decision.audit_annotations.insert(
            String::from("exempt"),
            format!("namespace {}", req.namespace),
        );
        return decision.finish();
    }
    let Some(object) = req.object else {
        return Decision::malformed(request::Malformed(format!(
            "request.object is missing for {} of {}",
            req.operation.as_str(),
            kind.name()
        )));
    };
    let (Some(_), Some(spec_path)) = (kind.pod_spec_pointer(), kind.pod_spec_path()) else {
        return Decision::accept();
    };
    let view = RuleView::for_rule(settings, settings.rule_for(&req.namespace));
    let needs = request::SpecNeeds {
        containers: settings.extended_resource_tolerations
            != crate::settings::ExtendedResources::Off,
        affinity: view.dedicated.is_some() || settings.node_checks.enabled,
    };
    let pre_read = req
        .object_parts
        .clone()
        .filter(|p| p.kind() == Some(kind))
        .map(request::ObjectParts::into_result);
    let parts = match pre_read.unwrap_or_else(|| request::object_parts(object, kind)) {
        Ok(p) => p,
        Err(m) => return Decision::malformed(m),
    };
    let spec_value = match parts.spec(needs, spec_path) {
        Ok(s) => s,
        Err(m) => return Decision::malformed(m),
    };
    let spec = spec_value.as_ref();
    let original = match request::tolerations(spec, spec_path) {
        Ok(t) => t,
        Err(m) => return Decision::malformed(m),
    };
    // An unreadable old object only means every toleration counts as new.
    let old_tolerations = match (req.operation, req.old_object) {
        (Operation::Update, Some(old)) => {
            request::pod_spec_raw(old, kind, request::SpecNeeds::default())
                .ok()
                .and_then(|s| request::tolerations(s.as_ref(), spec_path).ok())
        }
        _ => None,
    };
    let exemption = subject_exemption(
        &req.user,
        &settings.exempt_users,
        &settings.exempt_groups,
        &settings.exempt_service_accounts,
    );
    if let Some(why) = &exemption {
        decision
            .audit_annotations
            .insert(String::from("exempt"), why.clone());
    }
    let semantics = settings.semantics();
    let provided = policy_provided(settings, &view, spec);
    let old_set: Option<HashSet<Fields<'_>>> =
        match (&old_tolerations, settings.only_new_tolerations_on_update) {
            (Some(old), true) => Some(old.iter().map(fields).collect()),
            _ => None,
        };
    let judged: Vec<bool> = original
        .iter()
        .map(|t| {
            let new = old_set.as_ref().is_none_or(|set| !set.contains(&fields(t)));
            new && !provided.iter().any(|p| identical(p, t))
        })
        .collect();
    let mut review = PodReview {
        req,
        kind,
        settings,
        view,
        spec_path,
        tolerations_path: format!("{spec_path}.tolerations"),
        system: Vec::new(),
        tolerations: original,
        judged,
        old_tolerations,
        exemption,
        spec,
        controller: parts.controller_kind(),
        gate: semantics.comparison_operators_enabled(),
    };

    if req.operation == Operation::Create || settings.mutate_on_update {
        mutate::mutate(&mut review, object, &mut decision);
    }
    let daemon = review.is_daemon();
    review.system = review
        .tolerations
        .iter()
        .map(|t| is_system_toleration(t, daemon))
        .collect();

    if settings.validate_tolerations {
        api_validation(&review, semantics.version, &mut decision);
    }
    if review.exemption.is_none() {
        governance(&review, &mut decision);
    }
    if settings.warnings {
        warnings(&review, &mut decision);
    }
    if let Some(cluster) = cluster
        && settings.node_checks.enabled
    {
        nodes::check(&review, cluster, semantics, &mut decision);
    }
    decision.finish()
}

/// The tolerations this policy itself adds in the namespace (defaults, the dedicated-nodes
/// toleration, extended-resource tolerations for resources the pod requests). When they
/// come back (re-admission, or the same policy deployed again as validating) they are
/// not judged by the governance rules: the settings put them there, and
/// `validate_settings` already checked them.
fn policy_provided(
    settings: &Settings,
    view: &RuleView<'_>,
    spec: Option<&Value>,
) -> Vec<Toleration> {
    let mut out: Vec<Toleration> = view
        .defaults
        .iter()
        .map(crate::settings::TolerationSpec::to_toleration)
        .collect();
    if let Some(d) = view.dedicated {
        out.push(d.toleration.to_toleration());
    }
    if settings.extended_resource_tolerations != crate::settings::ExtendedResources::Off {
        let names = crate::mutate::requested_resources(spec);
        for name in taintlab_core::admission::extended_resource_toleration::extended_resource_names(
            names.iter(),
        ) {
            if settings.extended_resource_tolerations.selects(&name) {
                out.push(
                    taintlab_core::admission::extended_resource_toleration::toleration_for(&name),
                );
            }
        }
    }
    out
}

/// A toleration's fields as a hashable key (`seconds` is `None` in [`match_fields`]).
type Fields<'a> = (&'a str, &'a str, &'a str, &'a str, Option<i64>);

fn fields(t: &Toleration) -> Fields<'_> {
    (
        &t.key,
        t.operator.as_str(),
        &t.value,
        t.effect.as_str(),
        t.toleration_seconds,
    )
}

/// The fields `MatchToleration` compares.
fn match_fields(t: &Toleration) -> Fields<'_> {
    (
        &t.key,
        t.operator.as_str(),
        &t.value,
        t.effect.as_str(),
        None,
    )
}

/// Equal in all five fields.
pub fn identical(a: &Toleration, b: &Toleration) -> bool {
    match_toleration(a, b) && a.toleration_seconds == b.toleration_seconds
}

fn api_validation(
    review: &PodReview<'_>,
    version: taintlab_core::KubeVersion,
    decision: &mut Decision,
) {
    let allow_cmp = allow_comparison_operators(review.gate, review.old_tolerations.as_deref());
    let errors = match (&review.old_tolerations, review.kind) {
        (Some(old), Kind::Workload(WorkloadKind::Pod)) => {
            // `validate_pod_tolerations_update` compares every old toleration with every
            // new one; with tens of thousands of each that is too slow for an admission
            // deadline. Find a removed or modified toleration through a hash set first
            // and let core render the error for it: the same answer in linear time.
            let kept: HashSet<Fields<'_>> = review.tolerations.iter().map(match_fields).collect();
            match old.iter().find(|o| !kept.contains(&match_fields(o))) {
                Some(gone) => validate_pod_tolerations_update(
                    std::slice::from_ref(gone),
                    &[],
                    &review.tolerations_path,
                    allow_cmp,
                    version,
                ),
                None => validate_tolerations(
                    &review.tolerations,
                    &review.tolerations_path,
                    allow_cmp,
                    version,
                ),
            }
        }
        _ => validate_tolerations(
            &review.tolerations,
            &review.tolerations_path,
            allow_cmp,
            version,
        ),
    };
    let mut seen = HashSet::new();
    for e in errors {
        let message = e.message();
        // Like the apiserver's aggregate: identical messages once.
        if seen.insert(message.clone()) {
            decision.violations.push(Violation {
                kind: ViolationKind::Api,
                message,
            });
        }
    }
}

/// The three effects a taint can have.
const EFFECTS: [TaintEffect; 3] = [
    TaintEffect::NoSchedule,
    TaintEffect::PreferNoSchedule,
    TaintEffect::NoExecute,
];

/// Taint values the toleration tolerates for sure, one per operator family: the value
/// itself for `Equal`, anything for `Exists`, a number just past the bound for `Lt`/`Gt`.
fn witness_values(t: &Toleration) -> Vec<String> {
    match t.operator {
        Operator::Empty | Operator::Equal => vec![t.value.clone()],
        Operator::Exists => vec![String::new()],
        Operator::Lt => parse_decimal_int64(&t.value)
            .and_then(|v| v.checked_sub(1))
            .map(|v| vec![v.to_string()])
            .unwrap_or_default(),
        Operator::Gt => parse_decimal_int64(&t.value)
            .and_then(|v| v.checked_add(1))
            .map(|v| vec![v.to_string()])
            .unwrap_or_default(),
        Operator::Other(_) => Vec::new(),
    }
}

/// Whether the toleration tolerates at least one taint the pattern describes.
pub fn tolerates_pattern(t: &Toleration, p: &TaintPattern, gate: bool) -> bool {
    let key = if t.key.is_empty() {
        // Only `Exists` with an empty key tolerates anything; it then ignores the key.
        String::from(p.key_text())
    } else if p.key_matches(&t.key) {
        t.key.clone()
    } else {
        return false;
    };
    let effects: Vec<TaintEffect> = match &p.effect {
        Some(e) => vec![TaintEffect::parse(e)],
        None => EFFECTS.to_vec(),
    };
    let values = match &p.value {
        Some(v) => vec![v.clone()],
        None => witness_values(t),
    };
    effects.iter().any(|effect| {
        values.iter().any(|value| {
            let taint = Taint::new(&key, value, effect.clone());
            tolerates(t, &taint, gate)
        })
    })
}

/// Whether the toleration tolerates NoExecute taints (effect NoExecute or empty).
fn tolerates_no_execute(t: &Toleration) -> bool {
    matches!(t.effect, TaintEffect::NoExecute | TaintEffect::Empty)
}

/// Whether one allow-list entry permits every taint the toleration tolerates.
pub fn allowed_by(t: &Toleration, a: &AllowedToleration) -> bool {
    let key_ok = if t.key.is_empty() {
        t.operator == Operator::Exists && a.key_pattern.as_deref() == Some("*")
    } else {
        match (&a.key, &a.key_pattern) {
            (Some(k), _) => *k == t.key,
            (None, Some(p)) => glob::matches(p, &t.key),
            (None, None) => false,
        }
    };
    if !key_ok {
        return false;
    }
    if let Some(effects) = &a.effects {
        let listed = |e: &TaintEffect| effects.iter().any(|x| x == e.as_str());
        let ok = if t.effect.is_empty() {
            EFFECTS.iter().all(listed)
        } else {
            listed(&t.effect)
        };
        if !ok {
            return false;
        }
    }
    if let Some(values) = &a.values {
        let ok =
            matches!(t.operator, Operator::Empty | Operator::Equal) && values.contains(&t.value);
        if !ok {
            return false;
        }
    }
    if let Some(max) = a.max_toleration_seconds
        && tolerates_no_execute(t)
        && t.toleration_seconds.is_none_or(|s| s > max)
    {
        return false;
    }
    true
}

fn governance(review: &PodReview<'_>, decision: &mut Decision) {
    let s = review.settings;
    for i in review.judged_indices() {
        let Some(t) = review.tolerations.get(i) else {
            continue;
        };
        let at = review.at(i);
        let desc = describe_toleration(t);
        if s.deny_wildcard_tolerations && t.key.is_empty() && t.operator == Operator::Exists {
            let scope = if t.effect.is_empty() {
                String::from("every taint")
            } else {
                format!("every {} taint", t.effect)
            };
            decision.violations.push(Violation {
                kind: ViolationKind::Wildcard,
                message: format!("{at}: wildcard toleration {desc} tolerates {scope}"),
            });
        }
        let hit: Vec<String> = s
            .protected_taints
            .iter()
            .filter(|p| tolerates_pattern(t, p, review.gate))
            .map(TaintPattern::describe)
            .collect();
        if !hit.is_empty() {
            let plural = if hit.len() == 1 { "" } else { "s" };
            decision.violations.push(Violation {
                kind: ViolationKind::Protected,
                message: format!(
                    "{at}: toleration {desc} tolerates protected taint{plural} {}",
                    hit.join(", ")
                ),
            });
        }
        if let Some(allowed) = review.view.allowed
            && !allowed.iter().any(|a| allowed_by(t, a))
        {
            decision.violations.push(Violation {
                kind: ViolationKind::NotAllowed,
                message: format!(
                    "{at}: toleration {desc} is not in the allowed tolerations for namespace {}",
                    quote_for(&review.req.namespace, kube_version(review.settings))
                ),
            });
        }
        seconds_rules(review, t, &at, &desc, decision);
    }
}

fn seconds_rules(
    review: &PodReview<'_>,
    t: &Toleration,
    at: &str,
    desc: &str,
    decision: &mut Decision,
) {
    let mut push = |message: String| {
        decision.violations.push(Violation {
            kind: ViolationKind::Seconds,
            message,
        })
    };
    if let Some(max) = review.view.max_seconds {
        match (&t.effect, t.toleration_seconds) {
            (TaintEffect::NoExecute, None) => push(format!(
                "{at}: NoExecute toleration {desc} must set tolerationSeconds (at most {max})"
            )),
            (TaintEffect::NoExecute, Some(secs)) if secs > max => push(format!(
                "{at}.tolerationSeconds: {secs} exceeds the maximum of {max}"
            )),
            (TaintEffect::Empty, _) => push(format!(
                "{at}: toleration {desc} tolerates NoExecute taints forever; give it an effect, and tolerationSeconds (at most {max}) if it is NoExecute"
            )),
            _ => {}
        }
    } else if review.settings.require_toleration_seconds
        && t.effect == TaintEffect::NoExecute
        && t.toleration_seconds.is_none()
    {
        push(format!(
            "{at}: NoExecute toleration {desc} must set tolerationSeconds"
        ));
    }
}

fn warnings(review: &PodReview<'_>, decision: &mut Decision) {
    let daemon = review.is_daemon();
    let indices: Vec<usize> = review.judged_indices().collect();
    // Indices named by a violation (`<path>[i].` or `<path>[i]:`), found once.
    let prefix = format!("{}[", review.tolerations_path);
    let violated: HashSet<usize> = decision
        .violations
        .iter()
        .filter_map(|v| {
            let rest = v.message.strip_prefix(&prefix)?;
            let (digits, tail) = rest.split_once(']')?;
            tail.starts_with([':', '.'])
                .then(|| digits.parse().ok())
                .flatten()
        })
        .collect();
    // First index of every distinct toleration (seconds aside), for the duplicate warning
    // without a quadratic scan.
    let mut first_seen: HashMap<Fields<'_>, usize> = HashMap::new();
    for (i, t) in review.tolerations.iter().enumerate() {
        first_seen.entry(match_fields(t)).or_insert(i);
    }
    for i in indices {
        let Some(t) = review.tolerations.get(i) else {
            continue;
        };
        let at = review.at(i);
        // A toleration that is already rejected gets no extra warnings.
        if violated.contains(&i) {
            continue;
        }
        if !t.key.is_empty()
            && matches!(t.operator, Operator::Empty | Operator::Equal)
            && t.value.is_empty()
        {
            decision.warn(format!(
                "{at}: {} matches only taints with an empty value; use operator Exists for any value",
                short(t)
            ));
        }
        if let Some(&j) = first_seen.get(&match_fields(t))
            && j < i
        {
            decision.warn(format!("{at}: duplicates {}", review.at(j)));
        }
        if t.effect == TaintEffect::NoExecute
            && let Some(secs) = t.toleration_seconds
            && secs <= 0
        {
            decision.warn(format!(
                "{at}: tolerationSeconds {secs} evicts the pod as soon as the taint appears"
            ));
        }
        if !daemon {
            let cordon = Taint::new(keys::UNSCHEDULABLE, "", TaintEffect::NoSchedule);
            if tolerates(t, &cordon, review.gate) {
                decision.warn(format!(
                    "{at}: {} ignores cordons (node.kubernetes.io/unschedulable)",
                    short(t)
                ));
            }
            let not_ready = Taint::new(keys::NOT_READY, "", TaintEffect::NoExecute);
            if t.toleration_seconds.is_none() && tolerates(t, &not_ready, review.gate) {
                decision.warn(format!(
                    "{at}: {} keeps the pod on failed nodes forever (no tolerationSeconds)",
                    short(t)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests;
