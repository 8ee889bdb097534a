//! The policy settings (camelCase JSON, unknown fields rejected) and their validation.
//!
//! Every field is optional; [`Settings::default`] is a useful policy on its own (deny
//! wildcard tolerations, API validation, warnings). [`Settings::validate`] rejects what
//! cannot work: bad globs and selectors, invalid tolerations, impossible combinations,
//! and default tolerations that the same settings would reject.
//!
//! * this module: the settings types and their defaults;
//! * `read`: reading them from JSON (unknown fields rejected, errors with JSON paths);
//! * `validate`: [`Settings::validate`] and its checks;
//! * `rule_view`: [`RuleView`], the settings in force for one namespace.

use serde::Serialize;
use serde_json::Value;
use taintlab_core::{KubeVersion, Operator, Semantics, TaintEffect, Toleration};

use crate::glob;

mod read;
mod rule_view;
mod validate;

pub use rule_view::RuleView;

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
        read::read_settings(value).map_err(|e| format!("invalid settings: {e}"))
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
}
