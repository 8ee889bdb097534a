//! [`Settings::validate`]: everything that cannot work, each problem with its JSON path.

use taintlab_core::labels::Selector;
use taintlab_core::validation::{GoUnicode, go_quote_with};
use taintlab_core::validation::{is_label_value, is_qualified_name, validate_tolerations};
use taintlab_core::{KubeVersion, Operator, TaintEffect, Toleration};

use super::{
    Action, AllowedToleration, DefaultTolerationSeconds, ExtendedResources,
    NodeSelectorRequirement, RuleView, Settings, TaintPattern, TolerationSpec,
};
use crate::glob::{self, Alphabet};
use crate::jsonread::with_suggestion;

impl Settings {
    /// Checks the settings; the error lists every problem, separated by `; `.
    pub fn validate(&self) -> Result<(), String> {
        // Values are quoted as the Go release that built the chosen Kubernetes release
        // prints them (`%q` with its Unicode tables); an unreadable version quotes as
        // the newest.
        let mut errors = Errors {
            list: Vec::new(),
            unicode: GoUnicode::for_release(super::kube_version(self)),
        };
        self.collect_errors(&mut errors);
        if errors.list.is_empty() {
            Ok(())
        } else {
            Err(errors.list.join("; "))
        }
    }

    fn collect_errors(&self, errors: &mut Errors) {
        let version = match self.kubernetes_version.as_deref() {
            None => KubeVersion::NEWEST,
            Some(v) => KubeVersion::parse(v).unwrap_or_else(|| {
                errors.push(format!(
                    "kubernetesVersion: {} is not a Kubernetes release like \"1.35\"",
                    errors.quote(v)
                ));
                KubeVersion::NEWEST
            }),
        };
        if self.comparison_operators && !version.at_least(35) {
            errors.push(format!(
                "comparisonOperators: the TaintTolerationComparisonOperators gate exists from 1.35 on, but kubernetesVersion is {version}"
            ));
        }
        for (i, p) in self.protected_taints.iter().enumerate() {
            p.validate(&format!("protectedTaints[{i}]"), errors);
        }
        if let Some(list) = &self.allowed_tolerations {
            for (i, a) in list.iter().enumerate() {
                a.validate(&format!("allowedTolerations[{i}]"), errors);
            }
        }
        check_seconds(self.max_toleration_seconds, "maxTolerationSeconds", errors);
        let any_max = self.max_toleration_seconds.is_some()
            || self
                .namespace_rules
                .iter()
                .any(|r| r.max_toleration_seconds.is_some());
        if self.clamp_toleration_seconds && !any_max {
            errors.push(String::from(
                "clampTolerationSeconds: needs maxTolerationSeconds (top level or in a namespace rule)",
            ));
        }
        check_globs(
            &self.exempt_namespaces,
            "exemptNamespaces",
            Alphabet::Namespace,
            errors,
        );
        check_globs(&self.exempt_users, "exemptUsers", Alphabet::Subject, errors);
        check_globs(
            &self.exempt_groups,
            "exemptGroups",
            Alphabet::Subject,
            errors,
        );
        check_service_accounts(
            &self.exempt_service_accounts,
            "exemptServiceAccounts",
            errors,
        );

        let global = RuleView::global(self);
        self.check_defaults(&global, "", version, errors);
        if let Some(d) = &self.default_toleration_seconds {
            check_default_seconds(d, "defaultTolerationSeconds", errors);
        }
        for (i, rule) in self.namespace_rules.iter().enumerate() {
            let path = format!("namespaceRules[{i}]");
            if rule.namespaces.is_empty() {
                errors.push(format!(
                    "{path}.namespaces: must list at least one namespace glob"
                ));
            }
            check_globs(
                &rule.namespaces,
                &format!("{path}.namespaces"),
                Alphabet::Namespace,
                errors,
            );
            if let Some(list) = &rule.allowed_tolerations {
                for (j, a) in list.iter().enumerate() {
                    a.validate(&format!("{path}.allowedTolerations[{j}]"), errors);
                }
            }
            check_seconds(
                rule.max_toleration_seconds,
                &format!("{path}.maxTolerationSeconds"),
                errors,
            );
            if let Some(d) = &rule.default_toleration_seconds {
                check_default_seconds(d, &format!("{path}.defaultTolerationSeconds"), errors);
            }
            let view = RuleView::for_rule(self, Some(rule));
            self.check_defaults(&view, &format!("{path}."), version, errors);
            if let Some(d) = &rule.dedicated_nodes {
                check_node_selector_requirement(
                    &d.node_selector_requirement,
                    &format!("{path}.dedicatedNodes.nodeSelectorRequirement"),
                    errors,
                );
            }
        }
        if let ExtendedResources::Only(globs) = &self.extended_resource_tolerations {
            check_globs(
                globs,
                "extendedResourceTolerations",
                Alphabet::QualifiedName,
                errors,
            );
        }

        let nc = &self.node_checks;
        for (field, sel) in [
            (
                "nodeChecks.protectTaintsOfNodes",
                &nc.protect_taints_of_nodes,
            ),
            ("nodeChecks.labelSelector", &nc.label_selector),
        ] {
            if let Some(s) = sel {
                if let Err(e) = Selector::parse(s) {
                    errors.push(format!("{field}: {e}"));
                }
                if !nc.enabled {
                    errors.push(format!(
                        "{field}: has no effect unless nodeChecks.enabled is true"
                    ));
                }
            }
        }
        if !nc.enabled {
            for (field, action) in [
                ("nodeChecks.unschedulable", nc.unschedulable),
                ("nodeChecks.unmatchedTolerations", nc.unmatched_tolerations),
                ("nodeChecks.onListError", nc.on_list_error),
            ] {
                if action == Action::Deny {
                    errors.push(format!("{field}: deny needs nodeChecks.enabled: true"));
                }
            }
        }
        if nc.on_list_error == Action::Ignore {
            errors.push(String::from(
                "nodeChecks.onListError: must be warn or deny (a failed list is never silent)",
            ));
        }

        let ng = &self.node_guard;
        check_globs(
            &ng.protected_taint_keys,
            "nodeGuard.protectedTaintKeys",
            Alphabet::QualifiedName,
            errors,
        );
        check_globs(
            &ng.allowed_users,
            "nodeGuard.allowedUsers",
            Alphabet::Subject,
            errors,
        );
        check_globs(
            &ng.allowed_groups,
            "nodeGuard.allowedGroups",
            Alphabet::Subject,
            errors,
        );
        check_service_accounts(
            &ng.allowed_service_accounts,
            "nodeGuard.allowedServiceAccounts",
            errors,
        );
        if ng.enabled && ng.protected_taint_keys.is_empty() && !ng.validate_taints {
            errors.push(String::from(
                "nodeGuard: enabled with no protectedTaintKeys and validateTaints false does nothing",
            ));
        }
    }

    /// Self-consistency: the tolerations the policy itself adds must be valid and must
    /// pass the rules that are not waived for policy-added tolerations (wildcard,
    /// seconds).
    fn check_defaults(
        &self,
        view: &RuleView<'_>,
        prefix: &str,
        version: KubeVersion,
        errors: &mut Errors,
    ) {
        let mut lists: Vec<(String, Vec<Toleration>)> = Vec::new();
        if let Some(defaults) = view.own_defaults {
            lists.push((
                format!("{prefix}defaultTolerations"),
                defaults.iter().map(TolerationSpec::to_toleration).collect(),
            ));
        }
        if let Some(d) = view.dedicated {
            lists.push((
                format!("{prefix}dedicatedNodes.toleration"),
                vec![d.toleration.to_toleration()],
            ));
        }
        let gate = self.semantics().comparison_operators_enabled();
        for (path, tolerations) in lists {
            for e in validate_tolerations(&tolerations, &path, gate, version) {
                errors.push(e.message());
            }
            let single = path.ends_with("toleration");
            for (i, t) in tolerations.iter().enumerate() {
                let at = if single {
                    path.clone()
                } else {
                    format!("{path}[{i}]")
                };
                if self.deny_wildcard_tolerations
                    && t.key.is_empty()
                    && t.operator == Operator::Exists
                {
                    errors.push(format!(
                        "{at}: wildcard toleration while denyWildcardTolerations is true"
                    ));
                }
                let tolerates_no_execute =
                    matches!(t.effect, TaintEffect::NoExecute | TaintEffect::Empty);
                if let Some(max) = view.max_seconds
                    && tolerates_no_execute
                    && t.toleration_seconds.is_none_or(|s| s > max)
                {
                    errors.push(format!(
                        "{at}: tolerationSeconds must be set and at most maxTolerationSeconds ({max})"
                    ));
                }
                if self.require_toleration_seconds
                    && t.effect == TaintEffect::NoExecute
                    && t.toleration_seconds.is_none()
                {
                    errors.push(format!(
                        "{at}: tolerationSeconds is required by requireTolerationSeconds"
                    ));
                }
            }
        }
    }
}

impl TaintPattern {
    fn validate(&self, path: &str, errors: &mut Errors) {
        check_key_choice(
            self.key.as_deref(),
            self.key_pattern.as_deref(),
            path,
            errors,
        );
        if let Some(v) = &self.value
            && !is_label_value(v)
        {
            errors.push(format!(
                "{path}.value: {} is not a valid taint value",
                errors.quote(v)
            ));
        }
        if let Some(e) = &self.effect {
            check_effect(e, &format!("{path}.effect"), errors);
        }
    }
}

impl AllowedToleration {
    fn validate(&self, path: &str, errors: &mut Errors) {
        check_key_choice(
            self.key.as_deref(),
            self.key_pattern.as_deref(),
            path,
            errors,
        );
        if let Some(values) = &self.values {
            if values.is_empty() {
                errors.push(format!(
                    "{path}.values: must not be empty (omit it to allow any value)"
                ));
            }
            for (i, v) in values.iter().enumerate() {
                if !is_label_value(v) {
                    errors.push(format!(
                        "{path}.values[{i}]: {} is not a valid taint value",
                        errors.quote(v)
                    ));
                }
            }
        }
        if let Some(effects) = &self.effects {
            if effects.is_empty() {
                errors.push(format!(
                    "{path}.effects: must not be empty (omit it to allow any effect)"
                ));
            }
            for (i, e) in effects.iter().enumerate() {
                check_effect(e, &format!("{path}.effects[{i}]"), errors);
            }
        }
        if let Some(s) = self.max_toleration_seconds
            && s < 0
        {
            errors.push(format!(
                "{path}.maxTolerationSeconds: must not be negative, got {s}"
            ));
        }
    }
}

fn check_key_choice(key: Option<&str>, pattern: Option<&str>, path: &str, errors: &mut Errors) {
    match (key, pattern) {
        (Some(_), Some(_)) => {
            errors.push(format!("{path}: give either key or keyPattern, not both"))
        }
        (None, None) => errors.push(format!("{path}: key or keyPattern is required")),
        (Some(k), None) => {
            if !is_qualified_name(k) {
                errors.push(format!(
                    "{path}.key: {} is not a valid taint key",
                    errors.quote(k)
                ));
            }
        }
        (None, Some(p)) => {
            if let Err(e) = glob::check(p, Alphabet::QualifiedName) {
                errors.push(format!("{path}.keyPattern: {}: {e}", errors.quote(p)));
            }
        }
    }
}

fn check_effect(effect: &str, path: &str, errors: &mut Errors) {
    if !TaintEffect::parse(effect).is_known() {
        errors.push(with_suggestion(
            format!(
                "{path}: {} is not one of NoSchedule, PreferNoSchedule, NoExecute",
                errors.quote(effect)
            ),
            effect,
            &["NoSchedule", "PreferNoSchedule", "NoExecute"],
        ));
    }
}

fn check_seconds(seconds: Option<i64>, path: &str, errors: &mut Errors) {
    if let Some(s) = seconds
        && s < 0
    {
        errors.push(format!("{path}: must not be negative, got {s}"));
    }
}

fn check_default_seconds(d: &DefaultTolerationSeconds, path: &str, errors: &mut Errors) {
    check_seconds(d.not_ready, &format!("{path}.notReady"), errors);
    check_seconds(d.unreachable, &format!("{path}.unreachable"), errors);
}

fn check_globs(globs: &[String], path: &str, alphabet: Alphabet, errors: &mut Errors) {
    for (i, g) in globs.iter().enumerate() {
        if let Err(e) = glob::check(g, alphabet) {
            errors.push(format!("{path}[{i}]: {}: {e}", errors.quote(g)));
        }
    }
}

fn check_service_accounts(globs: &[String], path: &str, errors: &mut Errors) {
    for (i, g) in globs.iter().enumerate() {
        match g.split_once(':') {
            Some((ns, name)) if !name.contains(':') => {
                if let Err(e) = glob::check(ns, Alphabet::Namespace) {
                    errors.push(format!("{path}[{i}]: namespace part of {}: {e}", errors.quote(g)));
                }
                if let Err(e) = glob::check(name, Alphabet::QualifiedName) {
                    errors.push(format!("{path}[{i}]: name part of {}: {e}", errors.quote(g)));
                }
            }
            _ => errors.push(format!(
                "{path}[{i}]: {} must have the form namespace:name (globs allowed, e.g. kube-system:*)", errors.quote(g)
            )),
        }
    }
}

fn check_node_selector_requirement(r: &NodeSelectorRequirement, path: &str, errors: &mut Errors) {
    if !is_qualified_name(&r.key) {
        errors.push(format!(
            "{path}.key: {} is not a valid label key",
            errors.quote(&r.key)
        ));
    }
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.is_empty() {
                errors.push(format!(
                    "{path}.values: {} needs at least one value",
                    r.operator
                ));
            }
            for (i, v) in r.values.iter().enumerate() {
                if !is_label_value(v) {
                    errors.push(format!(
                        "{path}.values[{i}]: {} is not a valid label value",
                        errors.quote(v)
                    ));
                }
            }
        }
        "Exists" | "DoesNotExist" => {
            if !r.values.is_empty() {
                errors.push(format!("{path}.values: must be empty for {}", r.operator));
            }
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 || r.values.first().is_some_and(|v| v.parse::<i64>().is_err()) {
                errors.push(format!(
                    "{path}.values: {} needs exactly one integer value",
                    r.operator
                ));
            }
        }
        other => errors.push(with_suggestion(
            format!(
                "{path}.operator: {} is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt",
                errors.quote(other)
            ),
            other,
            &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"],
        )),
    }
}

/// The problems found so far, and how values are quoted in them.
struct Errors {
    list: Vec<String>,
    unicode: GoUnicode,
}

impl Errors {
    fn push(&mut self, e: String) {
        self.list.push(e);
    }

    /// Go's `%q` with the tables of the chosen release's Go.
    fn quote(&self, s: &str) -> String {
        go_quote_with(s, self.unicode)
    }
}
