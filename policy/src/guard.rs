//! Node guard mode: on Node CREATE and UPDATE, only allowed subjects may add or remove
//! taints whose key matches a protected glob, and `spec.taints` is validated with the
//! apiserver's messages.

use crate::quote_for;
use serde_json::Value;
use taintlab_core::matching::taint_to_string;
use taintlab_core::validation::{NODE_TAINTS_PATH, validate_node_taints};
use taintlab_core::{Taint, TaintEffect};

use crate::request::{Malformed, Request, type_name};
use crate::settings::{Settings, kube_version};
use crate::{Decision, Violation, ViolationKind, glob, subject_exemption};

/// Reads `spec.taints` of a raw Node object (missing or `null`: none).
pub fn node_taints(object: &[u8]) -> Result<Vec<Taint>, Malformed> {
    let taints = match crate::request::object_at_raw(object, "/spec", "spec")? {
        Some(spec) => crate::jsonscan::object_fields(spec, ["taints"], "the node spec")
            .map_err(Malformed)?[0]
            .map(|raw| serde_json::from_slice::<Value>(raw).unwrap_or(Value::Null)),
        None => None,
    };
    let list = match taints.as_ref() {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(Malformed(format!(
                "spec.taints must be an array, got {}",
                type_name(other)
            )));
        }
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let Some(map) = item.as_object() else {
            return Err(Malformed(format!(
                "spec.taints[{i}] must be an object, got {}",
                type_name(item)
            )));
        };
        let field = |f: &str| -> Result<&str, Malformed> {
            match map.get(f) {
                None | Some(Value::Null) => Ok(""),
                Some(Value::String(s)) => Ok(s),
                Some(other) => Err(Malformed(format!(
                    "spec.taints[{i}].{f} must be a string, got {}",
                    type_name(other)
                ))),
            }
        };
        let mut taint = Taint::new(
            field("key")?,
            field("value")?,
            TaintEffect::parse(field("effect")?),
        );
        let added = field("timeAdded")?;
        if !added.is_empty() {
            taint.time_added = Some(String::from(added));
        }
        out.push(taint);
    }
    Ok(out)
}

fn same(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.value == b.value && a.effect == b.effect
}

/// Node CREATE/UPDATE.
pub fn evaluate_node(req: &Request<'_>, settings: &Settings) -> Decision {
    let guard = &settings.node_guard;
    if !guard.enabled {
        return Decision::accept();
    }
    let Some(object) = req.object else {
        return Decision::malformed(Malformed(String::from(
            "request.object is missing for a Node request",
        )));
    };
    let new = match node_taints(object) {
        Ok(t) => t,
        Err(m) => return Decision::malformed(m),
    };
    let old = req
        .old_object
        .and_then(|o| node_taints(o).ok())
        .unwrap_or_default();
    let mut decision = Decision::default();
    if guard.validate_taints {
        // Upstream reports node taint errors under `metadata.taints` (its quirk).
        for e in validate_node_taints(&new, NODE_TAINTS_PATH, kube_version(settings)) {
            decision.violations.push(Violation {
                kind: ViolationKind::Api,
                message: e.message(),
            });
        }
    }
    let protected = |t: &Taint| glob::any_matches(&guard.protected_taint_keys, &t.key);
    let added: Vec<&Taint> = new
        .iter()
        .filter(|t| protected(t) && !old.iter().any(|o| same(o, t)))
        .collect();
    let removed: Vec<&Taint> = old
        .iter()
        .filter(|t| protected(t) && !new.iter().any(|n| same(n, t)))
        .collect();
    if !added.is_empty() || !removed.is_empty() {
        match subject_exemption(
            &req.user,
            &guard.allowed_users,
            &guard.allowed_groups,
            &guard.allowed_service_accounts,
        ) {
            Some(why) => {
                decision
                    .audit_annotations
                    .insert(String::from("protected-taints-changed-by"), why);
            }
            None => {
                let list = |ts: &[&Taint]| {
                    ts.iter()
                        .map(|t| taint_to_string(t))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let who = if req.user.username.is_empty() {
                    String::from("this user")
                } else {
                    format!(
                        "user {}",
                        quote_for(&req.user.username, kube_version(settings))
                    )
                };
                if !added.is_empty() {
                    decision.violations.push(Violation {
                        kind: ViolationKind::NodeGuard,
                        message: format!(
                            "spec.taints: {who} may not add protected taints: {}",
                            list(&added)
                        ),
                    });
                }
                if !removed.is_empty() {
                    decision.violations.push(Violation {
                        kind: ViolationKind::NodeGuard,
                        message: format!(
                            "spec.taints: {who} may not remove protected taints: {}",
                            list(&removed)
                        ),
                    });
                }
            }
        }
    }
    decision.finish()
}
