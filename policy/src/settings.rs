//! The policy settings (camelCase JSON, unknown fields rejected) and their validation.
//!
//! Every field is optional; [`Settings::default`] is a useful policy on its own (deny
//! wildcard tolerations, API validation, warnings). [`Settings::validate`] rejects what
//! cannot work: bad globs and selectors, invalid tolerations, impossible combinations,
//! and default tolerations that the same settings would reject.

use crate::quote;
use serde::Serialize;
use serde_json::Value;
use taintlab_core::validation::{is_label_value, is_qualified_name, validate_tolerations};
use taintlab_core::{KubeVersion, Operator, Semantics, TaintEffect, Toleration};

use crate::glob::{self, Alphabet};
use crate::jsonread::{Obj, Read};
use taintlab_core::labels::Selector;

/// All policy settings. See the policy README for the reference with examples.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    // --- validation -----------------------------------------------------------------
    /// Deny tolerations with an empty key and `Exists` (they tolerate every taint, or
    /// every taint of one effect). Default true.
    pub deny_wildcard_tolerations: bool,
    /// Taints that only exempt subjects may tolerate.
    pub protected_taints: Vec<TaintPattern>,
    /// Allow-list mode: `None` disables it; `Some([])` allows only system tolerations.
    pub allowed_tolerations: Option<Vec<AllowedToleration>>,
    /// Whether the tolerations Kubernetes adds itself pass the allow-list, protected-taint
    /// and seconds checks automatically (`allow`, the default) or are judged like any
    /// other (`validate`).
    pub system_tolerations: SystemTolerations,
    /// Upper bound for `tolerationSeconds` of tolerations that tolerate NoExecute taints;
    /// a missing value means "forever" and exceeds it.
    pub max_toleration_seconds: Option<i64>,
    /// NoExecute tolerations must set `tolerationSeconds`.
    pub require_toleration_seconds: bool,
    /// Instead of rejecting, lower `tolerationSeconds` to the maximum (mutation).
    pub clamp_toleration_seconds: bool,
    /// On UPDATE, judge only tolerations that were not in the old object. Default true.
    pub only_new_tolerations_on_update: bool,
    /// Run the apiserver's toleration validation (upstream messages). Default true.
    pub validate_tolerations: bool,
    /// Emit warnings for suspicious but valid tolerations. Default true.
    pub warnings: bool,
    /// Kubernetes release whose messages and rules to reproduce (`"1.35"`); default the
    /// newest modelled release.
    pub kubernetes_version: Option<String>,
    /// The `TaintTolerationComparisonOperators` feature gate (`Lt`/`Gt`, 1.35+).
    pub comparison_operators: bool,

    // --- scope and exemptions ---------------------------------------------------------
    /// Namespaces the policy ignores entirely (globs).
    pub exempt_namespaces: Vec<String>,
    /// Users exempt from the governance checks (globs on `userInfo.username`).
    pub exempt_users: Vec<String>,
    /// Groups exempt from the governance checks (globs on `userInfo.groups`).
    pub exempt_groups: Vec<String>,
    /// Service accounts exempt from the governance checks, as `namespace:name` globs.
    pub exempt_service_accounts: Vec<String>,
    /// Per-namespace overrides; the first rule whose namespaces match applies.
    pub namespace_rules: Vec<NamespaceRule>,

    // --- mutation ---------------------------------------------------------------------
    /// Tolerations added when nothing present already tolerates what they tolerate.
    pub default_tolerations: Vec<TolerationSpec>,
    /// ExtendedResourceToleration: `true` for every extended resource, or a list of
    /// resource-name globs.
    pub extended_resource_tolerations: ExtendedResources,
    /// DefaultTolerationSeconds-style not-ready / unreachable tolerations with these
    /// seconds (useful on pod templates and per namespace).
    pub default_toleration_seconds: Option<DefaultTolerationSeconds>,
    /// Also mutate on UPDATE (default: CREATE only, so that unrelated updates of a
    /// workload never change its pod template).
    pub mutate_on_update: bool,

    // --- context-aware ----------------------------------------------------------------
    /// Checks against the cluster's nodes (needs Node list access).
    pub node_checks: NodeChecks,

    // --- nodes ------------------------------------------------------------------------
    /// Node guard mode: who may add or remove protected taints on Nodes.
    pub node_guard: NodeGuard,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            deny_wildcard_tolerations: true,
            protected_taints: Vec::new(),
            allowed_tolerations: None,
            system_tolerations: SystemTolerations::Allow,
            max_toleration_seconds: None,
            require_toleration_seconds: false,
            clamp_toleration_seconds: false,
            only_new_tolerations_on_update: true,
            validate_tolerations: true,
            warnings: true,
            kubernetes_version: None,
            comparison_operators: false,
            exempt_namespaces: Vec::new(),
            exempt_users: Vec::new(),
            exempt_groups: Vec::new(),
            exempt_service_accounts: Vec::new(),
            namespace_rules: Vec::new(),
            default_tolerations: Vec::new(),
            extended_resource_tolerations: ExtendedResources::Off,
            default_toleration_seconds: None,
            mutate_on_update: false,
            node_checks: NodeChecks::default(),
            node_guard: NodeGuard::default(),
        }
    }
}

/// A taint (or a family of taints) that only exempt subjects may tolerate.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaintPattern {
    /// Exact taint key (give this or `keyPattern`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Glob over taint keys, e.g. `node-role.kubernetes.io/*`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_pattern: Option<String>,
    /// Only this taint value (default: any value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Only this effect (default: any effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
}

impl TaintPattern {
    /// The key part as written (`key` or `keyPattern`).
    pub fn key_text(&self) -> &str {
        self.key
            .as_deref()
            .or(self.key_pattern.as_deref())
            .unwrap_or("")
    }

    /// Human-readable form: `key[=value][:effect]`.
    pub fn describe(&self) -> String {
        let mut s = String::from(self.key_text());
        if let Some(v) = &self.value {
            s.push('=');
            s.push_str(v);
        }
        if let Some(e) = &self.effect {
            s.push(':');
            s.push_str(e);
        }
        s
    }

    /// Whether a taint key is covered by this pattern.
    pub fn key_matches(&self, key: &str) -> bool {
        match (&self.key, &self.key_pattern) {
            (Some(k), _) => k == key,
            (None, Some(p)) => glob::matches(p, key),
            (None, None) => false,
        }
    }

    fn validate(&self, path: &str, errors: &mut Vec<String>) {
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
                quote(v)
            ));
        }
        if let Some(e) = &self.effect {
            check_effect(e, &format!("{path}.effect"), errors);
        }
    }
}

/// One entry of the allow-list. A toleration is allowed when a single entry permits
/// every taint it tolerates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllowedToleration {
    /// Exact taint key (give this or `keyPattern`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Glob over taint keys; `*` alone also permits tolerations with an empty key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_pattern: Option<String>,
    /// Permitted taint values; when set, only `Equal` tolerations with one of these
    /// values pass (an `Exists` toleration tolerates every value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// Permitted effects; when set, a toleration with an empty effect passes only if all
    /// three effects are listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Vec<String>>,
    /// Cap on `tolerationSeconds` for tolerations of NoExecute taints under this entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_toleration_seconds: Option<i64>,
}

impl AllowedToleration {
    fn validate(&self, path: &str, errors: &mut Vec<String>) {
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
                        quote(v)
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

/// A toleration written in the settings (defaults, dedicated nodes). Same fields as
/// `core/v1.Toleration`; unknown fields are rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TolerationSpec {
    /// Taint key; empty means every key (only with `Exists`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// `Equal` (default when empty), `Exists`, `Lt`, `Gt`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub operator: String,
    /// Taint value for `Equal`, threshold for `Lt`/`Gt`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// Effect; empty means every effect.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub effect: String,
    /// Seconds a NoExecute taint is tolerated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl TolerationSpec {
    /// The core toleration.
    pub fn to_toleration(&self) -> Toleration {
        Toleration::new(
            &self.key,
            Operator::parse(&self.operator),
            &self.value,
            TaintEffect::parse(&self.effect),
        )
        .with_seconds(self.toleration_seconds)
    }
}

/// `allow` (default) or `validate`; see [`Settings::system_tolerations`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SystemTolerations {
    /// System tolerations always pass.
    #[default]
    Allow,
    /// System tolerations are judged like any other.
    Validate,
}

/// What to do with a finding: nothing, a warning, or a rejection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Ignore the finding.
    Ignore,
    /// Accept with a warning.
    #[default]
    Warn,
    /// Reject.
    Deny,
}

/// `extendedResourceTolerations`: `false`, `true` or a list of resource-name globs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ExtendedResources {
    /// Off (default).
    #[default]
    Off,
    /// Every extended resource.
    All,
    /// Only resources matching one of these globs.
    Only(Vec<String>),
}

impl ExtendedResources {
    /// Whether a (valid extended) resource name gets a toleration.
    pub fn selects(&self, name: &str) -> bool {
        match self {
            Self::Off => false,
            Self::All => true,
            Self::Only(globs) => glob::any_matches(globs, name),
        }
    }
}

impl Serialize for ExtendedResources {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Off => s.serialize_bool(false),
            Self::All => s.serialize_bool(true),
            Self::Only(v) => v.serialize(s),
        }
    }
}

/// Seconds for the not-ready / unreachable NoExecute tolerations the policy adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultTolerationSeconds {
    /// For `node.kubernetes.io/not-ready` (`null`: do not add).
    pub not_ready: Option<i64>,
    /// For `node.kubernetes.io/unreachable` (`null`: do not add).
    pub unreachable: Option<i64>,
}

impl Default for DefaultTolerationSeconds {
    fn default() -> Self {
        Self {
            not_ready: Some(300),
            unreachable: Some(300),
        }
    }
}

/// A per-namespace rule. Fields left out inherit the top-level setting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceRule {
    /// Namespace globs this rule applies to (required).
    pub namespaces: Vec<String>,
    /// Overrides `allowedTolerations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_tolerations: Option<Vec<AllowedToleration>>,
    /// Overrides `defaultTolerations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_tolerations: Option<Vec<TolerationSpec>>,
    /// Overrides `maxTolerationSeconds`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_toleration_seconds: Option<i64>,
    /// Overrides `defaultTolerationSeconds`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_toleration_seconds: Option<DefaultTolerationSeconds>,
    /// Dedicated nodes: pods of these namespaces get the toleration and a required node
    /// affinity to the node group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedicated_nodes: Option<DedicatedNodes>,
}

/// The dedicated-nodes pattern: a toleration for the group's taint plus a required node
/// affinity term that keeps the pods on the group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DedicatedNodes {
    /// The toleration for the group's taint.
    pub toleration: TolerationSpec,
    /// The node selector requirement added to every required node selector term.
    pub node_selector_requirement: NodeSelectorRequirement,
}

/// `core/v1.NodeSelectorRequirement`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    /// Label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`.
    pub operator: String,
    /// Values (none for `Exists`/`DoesNotExist`, one integer for `Gt`/`Lt`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// Context-aware checks against the cluster's nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeChecks {
    /// Turn node checks on (needs `contextAwareResources` and Node list RBAC).
    pub enabled: bool,
    /// When no listed node accepts the pod's tolerations: the scheduler's
    /// "0/N nodes are available" text as a warning or a rejection.
    pub unschedulable: Action,
    /// A toleration that tolerates no taint of any listed node (typo guard).
    pub unmatched_tolerations: Action,
    /// Label selector: every taint found on matching nodes is protected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protect_taints_of_nodes: Option<String>,
    /// Label selector passed to the list call (restricts which nodes are considered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
    /// When the node list cannot be obtained: `warn` (accept, checks skipped) or `deny`.
    pub on_list_error: Action,
    /// Skip Pods that have a controller owner (their template was checked at the
    /// workload). Default true.
    pub skip_controlled_pods: bool,
}

impl Default for NodeChecks {
    fn default() -> Self {
        Self {
            enabled: false,
            unschedulable: Action::Warn,
            unmatched_tolerations: Action::Warn,
            protect_taints_of_nodes: None,
            label_selector: None,
            on_list_error: Action::Warn,
            skip_controlled_pods: true,
        }
    }
}

/// Node guard mode: on Node CREATE/UPDATE only allowed subjects may add or remove taints
/// whose key matches a protected glob; taints are validated with upstream's messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeGuard {
    /// Judge Node requests at all.
    pub enabled: bool,
    /// Globs over taint keys, e.g. `node-role.kubernetes.io/*`.
    pub protected_taint_keys: Vec<String>,
    /// Users allowed to change protected taints (globs).
    pub allowed_users: Vec<String>,
    /// Groups allowed to change protected taints (globs).
    pub allowed_groups: Vec<String>,
    /// Service accounts allowed to change protected taints (`namespace:name` globs).
    pub allowed_service_accounts: Vec<String>,
    /// Validate `spec.taints` like the apiserver. Default true.
    pub validate_taints: bool,
}

impl Default for NodeGuard {
    fn default() -> Self {
        Self {
            enabled: false,
            protected_taint_keys: Vec::new(),
            allowed_users: Vec::new(),
            allowed_groups: Vec::new(),
            allowed_service_accounts: Vec::new(),
            validate_taints: true,
        }
    }
}

/// The Kubernetes release the settings name, or the newest one.
pub fn kube_version(settings: &Settings) -> KubeVersion {
    settings
        .kubernetes_version
        .as_deref()
        .and_then(KubeVersion::parse)
        .unwrap_or(KubeVersion::NEWEST)
}

impl Settings {
    /// Parses settings JSON. Errors carry the JSON path of the offending field, e.g.
    /// `invalid settings: nodeChecks.unschedulable: "x" is not one of ignore, warn, deny`.
    /// Empty input or `null` means the defaults.
    pub fn from_json(json: &[u8]) -> Result<Self, String> {
        let trimmed = json.trim_ascii();
        if trimmed.is_empty() {
            return Ok(Self::default());
        }
        let value: Value = serde_json::from_slice(trimmed)
            .map_err(|e| format!("invalid settings: not JSON: {e}"))?;
        Self::from_value(&value)
    }

    /// Parses settings from an already parsed JSON value (`null` means defaults).
    pub fn from_value(value: &Value) -> Result<Self, String> {
        if value.is_null() {
            return Ok(Self::default());
        }
        read_settings(value).map_err(|e| format!("invalid settings: {e}"))
    }

    /// The semantics (release and gate) the settings select.
    pub fn semantics(&self) -> Semantics {
        Semantics::at(kube_version(self)).with_comparison_operators(self.comparison_operators)
    }

    /// The namespace rule that applies to a namespace (first match).
    pub fn rule_for(&self, namespace: &str) -> Option<&NamespaceRule> {
        self.namespace_rules
            .iter()
            .find(|r| glob::any_matches(&r.namespaces, namespace))
    }

    /// Checks the settings; the error lists every problem, separated by `; `.
    pub fn validate(&self) -> Result<(), String> {
        let mut errors = Vec::new();
        self.collect_errors(&mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    fn collect_errors(&self, errors: &mut Vec<String>) {
        let version = match self.kubernetes_version.as_deref() {
            None => KubeVersion::NEWEST,
            Some(v) => KubeVersion::parse(v).unwrap_or_else(|| {
                errors.push(format!(
                    "kubernetesVersion: {} is not a Kubernetes release like \"1.35\"",
                    quote(v)
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
        errors: &mut Vec<String>,
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

/// The effective settings for one namespace: top level merged with the matching rule.
#[derive(Clone, Copy, Debug)]
pub struct RuleView<'a> {
    /// The rule, if one matched.
    pub rule: Option<&'a NamespaceRule>,
    /// Effective allow-list.
    pub allowed: Option<&'a [AllowedToleration]>,
    /// Effective default tolerations.
    pub defaults: &'a [TolerationSpec],
    /// Default tolerations defined at this level (for settings validation).
    own_defaults: Option<&'a [TolerationSpec]>,
    /// Effective maximum seconds.
    pub max_seconds: Option<i64>,
    /// Effective DefaultTolerationSeconds-style seconds.
    pub default_seconds: Option<&'a DefaultTolerationSeconds>,
    /// Dedicated nodes of the rule.
    pub dedicated: Option<&'a DedicatedNodes>,
}

impl<'a> RuleView<'a> {
    /// The top-level settings alone.
    pub fn global(settings: &'a Settings) -> Self {
        Self::for_rule(settings, None)
    }

    /// Top level overridden by `rule`.
    pub fn for_rule(settings: &'a Settings, rule: Option<&'a NamespaceRule>) -> Self {
        let own_defaults = match rule {
            Some(r) => r.default_tolerations.as_deref(),
            None => Some(settings.default_tolerations.as_slice()),
        };
        Self {
            rule,
            allowed: rule
                .and_then(|r| r.allowed_tolerations.as_deref())
                .or(settings.allowed_tolerations.as_deref()),
            defaults: rule
                .and_then(|r| r.default_tolerations.as_deref())
                .unwrap_or(&settings.default_tolerations),
            own_defaults,
            max_seconds: rule
                .and_then(|r| r.max_toleration_seconds)
                .or(settings.max_toleration_seconds),
            default_seconds: rule
                .and_then(|r| r.default_toleration_seconds.as_ref())
                .or(settings.default_toleration_seconds.as_ref()),
            dedicated: rule.and_then(|r| r.dedicated_nodes.as_ref()),
        }
    }
}

fn check_key_choice(
    key: Option<&str>,
    pattern: Option<&str>,
    path: &str,
    errors: &mut Vec<String>,
) {
    match (key, pattern) {
        (Some(_), Some(_)) => {
            errors.push(format!("{path}: give either key or keyPattern, not both"))
        }
        (None, None) => errors.push(format!("{path}: key or keyPattern is required")),
        (Some(k), None) => {
            if !is_qualified_name(k) {
                errors.push(format!("{path}.key: {} is not a valid taint key", quote(k)));
            }
        }
        (None, Some(p)) => {
            if let Err(e) = glob::check(p, Alphabet::QualifiedName) {
                errors.push(format!("{path}.keyPattern: {}: {e}", quote(p)));
            }
        }
    }
}

fn check_effect(effect: &str, path: &str, errors: &mut Vec<String>) {
    if !TaintEffect::parse(effect).is_known() {
        errors.push(format!(
            "{path}: {} is not one of NoSchedule, PreferNoSchedule, NoExecute",
            quote(effect)
        ));
    }
}

fn check_seconds(seconds: Option<i64>, path: &str, errors: &mut Vec<String>) {
    if let Some(s) = seconds
        && s < 0
    {
        errors.push(format!("{path}: must not be negative, got {s}"));
    }
}

fn check_default_seconds(d: &DefaultTolerationSeconds, path: &str, errors: &mut Vec<String>) {
    check_seconds(d.not_ready, &format!("{path}.notReady"), errors);
    check_seconds(d.unreachable, &format!("{path}.unreachable"), errors);
}

fn check_globs(globs: &[String], path: &str, alphabet: Alphabet, errors: &mut Vec<String>) {
    for (i, g) in globs.iter().enumerate() {
        if let Err(e) = glob::check(g, alphabet) {
            errors.push(format!("{path}[{i}]: {}: {e}", quote(g)));
        }
    }
}

fn check_service_accounts(globs: &[String], path: &str, errors: &mut Vec<String>) {
    for (i, g) in globs.iter().enumerate() {
        match g.split_once(':') {
            Some((ns, name)) if !name.contains(':') => {
                if let Err(e) = glob::check(ns, Alphabet::Namespace) {
                    errors.push(format!("{path}[{i}]: namespace part of {}: {e}", quote(g)));
                }
                if let Err(e) = glob::check(name, Alphabet::QualifiedName) {
                    errors.push(format!("{path}[{i}]: name part of {}: {e}", quote(g)));
                }
            }
            _ => errors.push(format!(
                "{path}[{i}]: {} must have the form namespace:name (globs allowed, e.g. kube-system:*)", quote(g)
            )),
        }
    }
}

fn check_node_selector_requirement(
    r: &NodeSelectorRequirement,
    path: &str,
    errors: &mut Vec<String>,
) {
    if !is_qualified_name(&r.key) {
        errors.push(format!(
            "{path}.key: {} is not a valid label key",
            quote(&r.key)
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
                        quote(v)
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
        other => errors.push(format!(
            "{path}.operator: {} is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt",
            quote(other)
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

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

fn read_settings(v: &Value) -> Read<Settings> {
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
