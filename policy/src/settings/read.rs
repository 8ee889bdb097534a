//! Reading the settings from JSON: every field optional, unknown fields rejected (with a
//! "did you mean"), every error naming its JSON path.

use serde_json::Value;

use super::*;
use crate::jsonread::{Obj, Read};

const SETTINGS_FIELDS: &[&str] = &[
    "denyWildcardTolerations",
    "protectedTaints",
    "allowedTolerations",
    "systemTolerations",
    "maxTolerationSeconds",
    "requireTolerationSeconds",
    "clampTolerationSeconds",
    "onlyNewTolerationsOnUpdate",
    "validateTolerations",
    "warnings",
    "kubernetesVersion",
    "comparisonOperators",
    "exemptNamespaces",
    "exemptUsers",
    "exemptGroups",
    "exemptServiceAccounts",
    "namespaceRules",
    "defaultTolerations",
    "extendedResourceTolerations",
    "defaultTolerationSeconds",
    "mutateOnUpdate",
    "nodeChecks",
    "nodeGuard",
];

pub(super) fn read_settings(v: &Value) -> Read<Settings> {
    let o = Obj::open(v, "", SETTINGS_FIELDS)?;
    let d = Settings::default();
    Ok(Settings {
        deny_wildcard_tolerations: o
            .bool("denyWildcardTolerations", d.deny_wildcard_tolerations)?,
        protected_taints: o.list("protectedTaints", read_taint_pattern)?,
        allowed_tolerations: o.opt_list("allowedTolerations", read_allowed)?,
        system_tolerations: [SystemTolerations::Allow, SystemTolerations::Validate][o
            .choice("systemTolerations", &["allow", "validate"], 0)?
            .min(1)],
        max_toleration_seconds: o.opt_i64("maxTolerationSeconds")?,
        require_toleration_seconds: o.bool("requireTolerationSeconds", false)?,
        clamp_toleration_seconds: o.bool("clampTolerationSeconds", false)?,
        only_new_tolerations_on_update: o.bool("onlyNewTolerationsOnUpdate", true)?,
        validate_tolerations: o.bool("validateTolerations", true)?,
        warnings: o.bool("warnings", true)?,
        kubernetes_version: o.opt_nonempty("kubernetesVersion")?,
        comparison_operators: o.bool("comparisonOperators", false)?,
        exempt_namespaces: o.strings("exemptNamespaces")?,
        exempt_users: o.strings("exemptUsers")?,
        exempt_groups: o.strings("exemptGroups")?,
        exempt_service_accounts: o.strings("exemptServiceAccounts")?,
        namespace_rules: o.list("namespaceRules", read_rule)?,
        default_tolerations: o.list("defaultTolerations", read_toleration)?,
        extended_resource_tolerations: read_extended(&o)?,
        default_toleration_seconds: o.opt_obj("defaultTolerationSeconds", read_default_seconds)?,
        mutate_on_update: o.bool("mutateOnUpdate", false)?,
        node_checks: o
            .opt_obj("nodeChecks", read_node_checks)?
            .unwrap_or_default(),
        node_guard: o.opt_obj("nodeGuard", read_node_guard)?.unwrap_or_default(),
    })
}

fn read_taint_pattern(v: &Value, path: &str) -> Read<TaintPattern> {
    let o = Obj::open(v, path, &["key", "keyPattern", "value", "effect"])?;
    Ok(TaintPattern {
        key: o.opt_nonempty("key")?,
        key_pattern: o.opt_nonempty("keyPattern")?,
        value: o.opt_nonempty("value")?,
        effect: o.opt_nonempty("effect")?,
    })
}

fn read_allowed(v: &Value, path: &str) -> Read<AllowedToleration> {
    let o = Obj::open(
        v,
        path,
        &[
            "key",
            "keyPattern",
            "values",
            "effects",
            "maxTolerationSeconds",
        ],
    )?;
    Ok(AllowedToleration {
        key: o.opt_nonempty("key")?,
        key_pattern: o.opt_nonempty("keyPattern")?,
        values: o.opt_nonempty_strings("values")?,
        effects: o.opt_nonempty_strings("effects")?,
        max_toleration_seconds: o.opt_i64("maxTolerationSeconds")?,
    })
}

fn read_toleration(v: &Value, path: &str) -> Read<TolerationSpec> {
    let o = Obj::open(
        v,
        path,
        &["key", "operator", "value", "effect", "tolerationSeconds"],
    )?;
    Ok(TolerationSpec {
        key: o.string("key")?,
        operator: o.string("operator")?,
        value: o.string("value")?,
        effect: o.string("effect")?,
        toleration_seconds: o.opt_i64("tolerationSeconds")?,
    })
}

fn read_extended(o: &Obj<'_>) -> Read<ExtendedResources> {
    Ok(match o.get("extendedResourceTolerations") {
        None | Some(Value::Bool(false)) => ExtendedResources::Off,
        Some(Value::Bool(true)) => ExtendedResources::All,
        Some(Value::Array(_)) => ExtendedResources::Only(o.strings("extendedResourceTolerations")?),
        Some(other) => {
            return Err(format!(
                "extendedResourceTolerations: expected true, false or a list of resource-name globs, got {}",
                crate::request::type_name(other)
            ));
        }
    })
}

fn read_default_seconds(v: &Value, path: &str) -> Read<DefaultTolerationSeconds> {
    let o = Obj::open(v, path, &["notReady", "unreachable"])?;
    Ok(DefaultTolerationSeconds {
        not_ready: o.opt_i64("notReady")?,
        unreachable: o.opt_i64("unreachable")?,
    })
}

fn read_rule(v: &Value, path: &str) -> Read<NamespaceRule> {
    let o = Obj::open(
        v,
        path,
        &[
            "namespaces",
            "allowedTolerations",
            "defaultTolerations",
            "maxTolerationSeconds",
            "defaultTolerationSeconds",
            "dedicatedNodes",
        ],
    )?;
    Ok(NamespaceRule {
        namespaces: o.strings("namespaces")?,
        allowed_tolerations: o.opt_list("allowedTolerations", read_allowed)?,
        default_tolerations: o.opt_list("defaultTolerations", read_toleration)?,
        max_toleration_seconds: o.opt_i64("maxTolerationSeconds")?,
        default_toleration_seconds: o.opt_obj("defaultTolerationSeconds", read_default_seconds)?,
        dedicated_nodes: o.opt_obj("dedicatedNodes", read_dedicated)?,
    })
}

fn read_dedicated(v: &Value, path: &str) -> Read<DedicatedNodes> {
    let o = Obj::open(v, path, &["toleration", "nodeSelectorRequirement"])?;
    let toleration = o
        .opt_obj("toleration", read_toleration)?
        .ok_or_else(|| format!("{}: required", o.at("toleration")))?;
    let node_selector_requirement = o
        .opt_obj("nodeSelectorRequirement", |v, path| {
            let r = Obj::open(v, path, &["key", "operator", "values"])?;
            Ok(NodeSelectorRequirement {
                key: r.string("key")?,
                operator: r.string("operator")?,
                values: r.strings("values")?,
            })
        })?
        .ok_or_else(|| format!("{}: required", o.at("nodeSelectorRequirement")))?;
    Ok(DedicatedNodes {
        toleration,
        node_selector_requirement,
    })
}

const ACTIONS: [Action; 3] = [Action::Ignore, Action::Warn, Action::Deny];
const ACTION_NAMES: &[&str] = &["ignore", "warn", "deny"];

fn read_action(o: &Obj<'_>, field: &str, default: Action) -> Read<Action> {
    let d = ACTIONS.iter().position(|a| *a == default).unwrap_or(1);
    let i = o.choice(field, ACTION_NAMES, d)?;
    Ok(ACTIONS.get(i).copied().unwrap_or(default))
}

fn read_node_checks(v: &Value, path: &str) -> Read<NodeChecks> {
    let o = Obj::open(
        v,
        path,
        &[
            "enabled",
            "unschedulable",
            "unmatchedTolerations",
            "protectTaintsOfNodes",
            "labelSelector",
            "onListError",
            "skipControlledPods",
        ],
    )?;
    let d = NodeChecks::default();
    Ok(NodeChecks {
        enabled: o.bool("enabled", d.enabled)?,
        unschedulable: read_action(&o, "unschedulable", d.unschedulable)?,
        unmatched_tolerations: read_action(&o, "unmatchedTolerations", d.unmatched_tolerations)?,
        protect_taints_of_nodes: o.opt_nonempty("protectTaintsOfNodes")?,
        label_selector: o.opt_nonempty("labelSelector")?,
        on_list_error: read_action(&o, "onListError", d.on_list_error)?,
        skip_controlled_pods: o.bool("skipControlledPods", d.skip_controlled_pods)?,
    })
}

fn read_node_guard(v: &Value, path: &str) -> Read<NodeGuard> {
    let o = Obj::open(
        v,
        path,
        &[
            "enabled",
            "protectedTaintKeys",
            "allowedUsers",
            "allowedGroups",
            "allowedServiceAccounts",
            "validateTaints",
        ],
    )?;
    Ok(NodeGuard {
        enabled: o.bool("enabled", false)?,
        protected_taint_keys: o.strings("protectedTaintKeys")?,
        allowed_users: o.strings("allowedUsers")?,
        allowed_groups: o.strings("allowedGroups")?,
        allowed_service_accounts: o.strings("allowedServiceAccounts")?,
        validate_taints: o.bool("validateTaints", true)?,
    })
}
