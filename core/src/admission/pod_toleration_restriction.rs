//! The `PodTolerationRestriction` admission plugin
//! (`plugin/pkg/admission/podtolerationrestriction`) and the toleration set algebra it
//! uses (`pkg/util/tolerations`: `isSuperset`, `VerifyAgainstWhitelist`,
//! `MergeTolerations`). Not enabled by default.
//!
//! * Mutating part ([`mutate`]), on pod CREATE and UPDATE: on CREATE the namespace's
//!   default tolerations (annotation, else the cluster configuration) are merged into the
//!   pod; on CREATE *and* UPDATE, pods that are not BestEffort also get
//!   `node.kubernetes.io/memory-pressure:NoSchedule`.
//! * Validating part ([`validate`]): a pod with tolerations must fit the namespace
//!   whitelist (annotation, else the cluster whitelist).
//!
//! Upstream's `Admit` ends by calling `Validate`, and the apiserver calls `Validate` again
//! in the validating phase, after every plugin's mutation; [`admit`] is the former,
//! [`crate::admission::admit_pod`] runs both.
//!
//! The core crate does not parse JSON. Callers read the namespace annotations with
//! [`NamespaceAnnotation::from_annotation_value`], passing a parser for the JSON list of
//! v1 tolerations. That parser must behave like Go's `encoding/json` into
//! `[]v1.Toleration`: field names match case-insensitively (`"KEY"`, `"Operator"`),
//! unknown fields are ignored, `null` (whole value, an element or a field) yields the zero
//! value, so `"null"` is an explicitly empty list. The conformance runner's handler
//! (`tests/conformance/src/ops/admission.rs`) is such a parser.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::Operation;
use crate::model::{Operator, QosClass, TaintEffect, Toleration, keys};

/// Namespace annotation holding the default tolerations (a JSON list of v1 tolerations).
pub const NS_DEFAULT_TOLERATIONS: &str = "scheduler.alpha.kubernetes.io/defaultTolerations";
/// Namespace annotation holding the tolerations whitelist (a JSON list of v1 tolerations).
pub const NS_TOLERATIONS_WHITELIST: &str = "scheduler.alpha.kubernetes.io/tolerationsWhitelist";

/// The cluster-wide configuration
/// (`podtolerationrestriction.admission.k8s.io/v1alpha1 Configuration`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodTolerationRestrictionConfig {
    /// `default`: merged into pods on CREATE when the namespace has no default annotation.
    pub default: Vec<Toleration>,
    /// `whitelist`: checked when the namespace has no whitelist annotation; empty allows
    /// everything.
    pub whitelist: Vec<Toleration>,
}

/// One of the two namespace annotations, as upstream's `extractNSTolerations` reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NamespaceAnnotation {
    /// The key is absent (or the namespace has no annotations): use the cluster
    /// configuration.
    #[default]
    Absent,
    /// The key is present. `""` gives an empty list, which overrides the cluster value
    /// with "none".
    Tolerations(Vec<Toleration>),
    /// The key is present but its value is not a JSON list of tolerations. The text is
    /// the parser's error; upstream rejects the request with it, verbatim, but only when
    /// the annotation is actually read.
    Invalid(String),
}

impl NamespaceAnnotation {
    /// `extractNSTolerations`: `None` (key absent) is [`NamespaceAnnotation::Absent`];
    /// `""` is an explicitly empty list without calling `parse`; anything else goes
    /// through `parse`, whose error becomes [`NamespaceAnnotation::Invalid`].
    pub fn from_annotation_value<F>(value: Option<&str>, parse: F) -> Self
    where
        F: FnOnce(&str) -> Result<Vec<Toleration>, String>,
    {
        match value {
            None => Self::Absent,
            Some("") => Self::Tolerations(Vec::new()),
            Some(json) => match parse(json) {
                Ok(tolerations) => Self::Tolerations(tolerations),
                Err(message) => Self::Invalid(message),
            },
        }
    }

    /// The tolerations: `Ok(None)` when absent, `Err(message)` when invalid.
    pub fn get(&self) -> Result<Option<&[Toleration]>, &str> {
        match self {
            Self::Absent => Ok(None),
            Self::Tolerations(t) => Ok(Some(t)),
            Self::Invalid(message) => Err(message),
        }
    }
}

impl From<Option<Vec<Toleration>>> for NamespaceAnnotation {
    fn from(value: Option<Vec<Toleration>>) -> Self {
        match value {
            None => Self::Absent,
            Some(t) => Self::Tolerations(t),
        }
    }
}

/// The namespace's two annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceTolerations {
    /// [`NS_DEFAULT_TOLERATIONS`]
    pub default_tolerations: NamespaceAnnotation,
    /// [`NS_TOLERATIONS_WHITELIST`]
    pub tolerations_whitelist: NamespaceAnnotation,
}

/// Where the whitelist that rejected a pod came from; named in the error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhitelistScope {
    /// The namespace's [`NS_TOLERATIONS_WHITELIST`] annotation.
    Namespace,
    /// The cluster configuration's `whitelist`.
    Cluster,
}

impl WhitelistScope {
    /// `namespace` or `cluster`, as the message spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Namespace => "namespace",
            Self::Cluster => "cluster",
        }
    }
}

/// Why the plugin rejected a pod. [`fmt::Display`] gives upstream's error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodTolerationRestrictionError {
    /// A namespace annotation did not parse; the message is the parser's, verbatim.
    InvalidAnnotation {
        /// [`NS_DEFAULT_TOLERATIONS`] or [`NS_TOLERATIONS_WHITELIST`].
        annotation: &'static str,
        /// The parse error text.
        message: String,
    },
    /// The pod's tolerations are not all covered by the whitelist.
    WhitelistConflict {
        /// Which whitelist applied.
        scope: WhitelistScope,
    },
}

impl fmt::Display for PodTolerationRestrictionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidAnnotation { message, .. } => f.write_str(message),
            // The scope word arrived with PR #87582 (1.18); before, it always said
            // "namespace". Every release modelled here (1.25+) has it.
            Self::WhitelistConflict { scope } => write!(
                f,
                "pod tolerations (possibly merged with namespace default tolerations) \
                 conflict with its {} whitelist",
                scope.as_str()
            ),
        }
    }
}

/// The outcome of the plugin on one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodTolerationRestrictionOutcome {
    /// Admitted; the pod's resulting `spec.tolerations`.
    Admitted(Vec<Toleration>),
    /// Rejected; upstream returns a plain Go error (HTTP 500, reason Unknown), whose text
    /// is this error's [`fmt::Display`].
    Rejected(PodTolerationRestrictionError),
}

impl PodTolerationRestrictionOutcome {
    /// True when admitted.
    pub fn is_admitted(&self) -> bool {
        matches!(self, Self::Admitted(_))
    }

    /// The resulting tolerations when admitted.
    pub fn tolerations(&self) -> Option<&[Toleration]> {
        match self {
            Self::Admitted(t) => Some(t),
            Self::Rejected(_) => None,
        }
    }

    /// The error text when rejected.
    pub fn message(&self) -> Option<String> {
        match self {
            Self::Admitted(_) => None,
            Self::Rejected(e) => Some(alloc::format!("{e}")),
        }
    }
}

/// Where an extra toleration of the mutating part came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtraSource {
    /// The namespace's [`NS_DEFAULT_TOLERATIONS`] annotation (CREATE only).
    NamespaceDefault,
    /// The cluster configuration's `default` (CREATE only, no namespace annotation).
    ClusterDefault,
    /// `node.kubernetes.io/memory-pressure:NoSchedule` for pods that are not BestEffort.
    MemoryPressure,
}

/// The toleration added for pods that are not BestEffort.
pub fn memory_pressure_toleration() -> Toleration {
    Toleration::new(
        keys::MEMORY_PRESSURE,
        Operator::Exists,
        "",
        TaintEffect::NoSchedule,
    )
}

/// `isSuperset(ss, t)`: whether `ss` tolerates everything `t` tolerates, as upstream
/// decides it.
///
/// Upstream quirks kept here: an empty-operator `t` is never covered by an `Equal` or
/// empty-operator `ss` unless the two are identical (the check wants `t.operator` to be
/// literally `Equal`); the `tolerationSeconds` limit only applies when `ss.effect` is
/// exactly `NoExecute`; `Lt`/`Gt` (and unknown) operators in `ss` cover only an identical
/// toleration.
pub fn is_superset(ss: &Toleration, t: &Toleration) -> bool {
    if ss == t {
        return true;
    }
    let wildcard_key = ss.key.is_empty() && ss.operator == Operator::Exists;
    if t.key != ss.key && !wildcard_key {
        return false;
    }
    if t.effect != ss.effect && !ss.effect.is_empty() {
        return false;
    }
    // The seconds limit applies only when the entry's effect is exactly NoExecute.
    let within_limit = match (&ss.effect, ss.toleration_seconds) {
        (TaintEffect::NoExecute, Some(limit)) => t.toleration_seconds.is_some_and(|s| s <= limit),
        _ => true,
    };
    if !within_limit {
        return false;
    }
    match ss.operator {
        Operator::Equal | Operator::Empty => t.operator == Operator::Equal && t.value == ss.value,
        Operator::Exists => true,
        // Upstream logs "Unknown toleration operator" and answers false.
        Operator::Lt | Operator::Gt | Operator::Other(_) => false,
    }
}

/// `VerifyAgainstWhitelist`: true when either list is empty, otherwise when every
/// toleration has a whitelist entry that [`is_superset`] of it.
pub fn verify_against_whitelist(tolerations: &[Toleration], whitelist: &[Toleration]) -> bool {
    tolerations
        .iter()
        .all(|t| whitelist.is_empty() || whitelist.iter().any(|w| is_superset(w, t)))
}

/// `MergeTolerations(first, second)`: the concatenation in order, minus every toleration
/// that an already kept one is a superset of, or that a *later*, non-identical one is a
/// superset of. Between identical duplicates the first is kept. The result never holds
/// two tolerations one of which covers the other.
pub fn merge_tolerations(first: &[Toleration], second: &[Toleration]) -> Vec<Toleration> {
    merge_kept_indices(first, second)
        .into_iter()
        .filter_map(|i| concat_get(first, second, i).cloned())
        .collect()
}

/// Element `i` of `first ++ second`.
fn concat_get<'a>(
    first: &'a [Toleration],
    second: &'a [Toleration],
    i: usize,
) -> Option<&'a Toleration> {
    match i.checked_sub(first.len()) {
        None => first.get(i),
        Some(j) => second.get(j),
    }
}

/// [`merge_tolerations`] as the indices into `first ++ second` that are kept, in order.
pub(crate) fn merge_kept_indices(first: &[Toleration], second: &[Toleration]) -> Vec<usize> {
    let all: Vec<&Toleration> = first.iter().chain(second).collect();
    let mut kept: Vec<usize> = Vec::new();
    for (i, t) in all.iter().enumerate() {
        let covered_by_kept = kept
            .iter()
            .any(|&k| all.get(k).is_some_and(|m| is_superset(m, t)));
        if covered_by_kept {
            continue;
        }
        let covered_by_later = all
            .iter()
            .skip(i + 1)
            .any(|later| *later != *t && is_superset(later, t));
        if covered_by_later {
            continue;
        }
        kept.push(i);
    }
    kept
}

/// The extra tolerations the mutating part merges into the pod, with their source:
/// on CREATE the namespace default (or, when the annotation is absent, the cluster
/// default); then, on CREATE and UPDATE, the memory-pressure toleration for pods that are
/// not BestEffort. Fails only when the default annotation is read (CREATE) and invalid.
pub fn extra_tolerations(
    operation: Operation,
    qos: QosClass,
    namespace: &NamespaceTolerations,
    config: &PodTolerationRestrictionConfig,
) -> Result<Vec<(Toleration, ExtraSource)>, PodTolerationRestrictionError> {
    let mut extra = Vec::new();
    if !operation.is_create_or_update() {
        return Ok(extra);
    }
    if operation == Operation::Create {
        match namespace.default_tolerations.get() {
            Err(message) => {
                return Err(PodTolerationRestrictionError::InvalidAnnotation {
                    annotation: NS_DEFAULT_TOLERATIONS,
                    message: String::from(message),
                });
            }
            Ok(Some(ns)) => extra.extend(
                ns.iter()
                    .cloned()
                    .map(|t| (t, ExtraSource::NamespaceDefault)),
            ),
            Ok(None) => extra.extend(
                config
                    .default
                    .iter()
                    .cloned()
                    .map(|t| (t, ExtraSource::ClusterDefault)),
            ),
        }
    }
    if qos != QosClass::BestEffort {
        extra.push((memory_pressure_toleration(), ExtraSource::MemoryPressure));
    }
    Ok(extra)
}

/// The mutating part alone: `MergeTolerations(pod, extra)` when there are extra
/// tolerations (see [`extra_tolerations`]), otherwise the pod's tolerations unchanged.
pub fn mutate(
    operation: Operation,
    qos: QosClass,
    tolerations: &[Toleration],
    namespace: &NamespaceTolerations,
    config: &PodTolerationRestrictionConfig,
) -> Result<Vec<Toleration>, PodTolerationRestrictionError> {
    let extra: Vec<Toleration> = extra_tolerations(operation, qos, namespace, config)?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    if extra.is_empty() {
        return Ok(tolerations.to_vec());
    }
    Ok(merge_tolerations(tolerations, &extra))
}

/// The validating part (`Validate`): on CREATE and UPDATE, a pod with tolerations must
/// pass [`verify_against_whitelist`] against the namespace whitelist annotation, or the
/// cluster whitelist when the annotation is absent. A present but empty annotation allows
/// everything. The annotation is only read when the pod has tolerations, so an invalid
/// one only rejects such pods.
pub fn validate(
    operation: Operation,
    tolerations: &[Toleration],
    namespace: &NamespaceTolerations,
    config: &PodTolerationRestrictionConfig,
) -> Result<(), PodTolerationRestrictionError> {
    if !operation.is_create_or_update() || tolerations.is_empty() {
        return Ok(());
    }
    let (whitelist, scope) = match namespace.tolerations_whitelist.get() {
        Err(message) => {
            return Err(PodTolerationRestrictionError::InvalidAnnotation {
                annotation: NS_TOLERATIONS_WHITELIST,
                message: String::from(message),
            });
        }
        Ok(Some(ns)) => (ns, WhitelistScope::Namespace),
        Ok(None) => (config.whitelist.as_slice(), WhitelistScope::Cluster),
    };
    if !whitelist.is_empty() && !verify_against_whitelist(tolerations, whitelist) {
        return Err(PodTolerationRestrictionError::WhitelistConflict { scope });
    }
    Ok(())
}

/// Upstream `Admit`: [`mutate`] then [`validate`] on the result.
pub fn admit(
    operation: Operation,
    qos: QosClass,
    tolerations: &[Toleration],
    namespace: &NamespaceTolerations,
    config: &PodTolerationRestrictionConfig,
) -> PodTolerationRestrictionOutcome {
    let merged = match mutate(operation, qos, tolerations, namespace, config) {
        Ok(m) => m,
        Err(e) => return PodTolerationRestrictionOutcome::Rejected(e),
    };
    match validate(operation, &merged, namespace, config) {
        Ok(()) => PodTolerationRestrictionOutcome::Admitted(merged),
        Err(e) => PodTolerationRestrictionOutcome::Rejected(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration::new(key, Operator::parse(op), value, TaintEffect::parse(effect))
    }

    fn ns(
        default: Option<Vec<Toleration>>,
        whitelist: Option<Vec<Toleration>>,
    ) -> NamespaceTolerations {
        NamespaceTolerations {
            default_tolerations: default.into(),
            tolerations_whitelist: whitelist.into(),
        }
    }

    #[test]
    fn superset_empty_operator_quirk() {
        let empty_op = tol("foo", "", "bar", "NoSchedule");
        let equal = tol("foo", "Equal", "bar", "NoSchedule");
        // An empty operator in the superset covers only a literal `Equal`...
        assert!(is_superset(&empty_op, &equal));
        // ...so an empty-operator candidate is not covered by `Equal`...
        assert!(!is_superset(&equal, &empty_op));
        // ...and only covered by an empty-operator entry through deep equality.
        assert!(is_superset(&empty_op, &empty_op.clone()));
        let empty_op_other_secs = empty_op.clone().with_seconds(Some(1));
        assert!(!is_superset(&empty_op, &empty_op_other_secs));
    }

    #[test]
    fn superset_seconds_only_for_exact_no_execute() {
        let limit = tol("foo", "Exists", "", "NoExecute").with_seconds(Some(300));
        let shorter = tol("foo", "Exists", "", "NoExecute").with_seconds(Some(300));
        let longer = tol("foo", "Exists", "", "NoExecute").with_seconds(Some(301));
        let forever = tol("foo", "Exists", "", "NoExecute");
        assert!(is_superset(&limit, &shorter));
        assert!(!is_superset(&limit, &longer));
        assert!(!is_superset(&limit, &forever));
        // A wildcard-effect entry with seconds does not limit anything.
        let any_effect = tol("foo", "Exists", "", "").with_seconds(Some(10));
        assert!(is_superset(&any_effect, &longer));
        assert!(is_superset(&any_effect, &forever));
    }

    #[test]
    fn superset_keys_and_operators() {
        let wildcard = tol("", "Exists", "", "");
        assert!(is_superset(
            &wildcard,
            &tol("anything", "Equal", "x", "NoExecute").with_seconds(Some(5))
        ));
        // An empty key only means "every key" with Exists.
        let empty_key_equal = tol("", "Equal", "", "");
        assert!(!is_superset(&empty_key_equal, &tol("foo", "Equal", "", "")));
        // Lt/Gt entries cover only identical tolerations.
        let lt = tol("sla", "Lt", "5", "NoSchedule");
        assert!(is_superset(&lt, &lt.clone()));
        assert!(!is_superset(&lt, &tol("sla", "Lt", "4", "NoSchedule")));
        assert!(!is_superset(
            &tol("sla", "Bogus", "", ""),
            &tol("sla", "Exists", "", "")
        ));
        // Effect mismatch.
        assert!(!is_superset(
            &tol("foo", "Exists", "", "NoSchedule"),
            &tol("foo", "Exists", "", "")
        ));
    }

    #[test]
    fn whitelist_empty_lists_allow() {
        let t = vec![tol("foo", "Equal", "bar", "")];
        assert!(verify_against_whitelist(&t, &[]));
        assert!(verify_against_whitelist(&[], &t));
        assert!(!verify_against_whitelist(
            &t,
            &[tol("foo", "Exists", "", "NoSchedule")]
        ));
    }

    #[test]
    fn merge_prefers_supersets_and_first_duplicate() {
        let a = tol("foo", "Equal", "bar", "NoSchedule");
        let b = tol("foo", "Exists", "", "NoSchedule");
        // The earlier, narrower one is dropped because a later one covers it.
        assert_eq!(
            merge_tolerations(core::slice::from_ref(&a), core::slice::from_ref(&b)),
            vec![b.clone()]
        );
        assert_eq!(
            merge_tolerations(core::slice::from_ref(&b), core::slice::from_ref(&a)),
            vec![b.clone()]
        );
        // Identical duplicates: the first one stays, in its position.
        let c = tol("x", "Exists", "", "");
        assert_eq!(
            merge_tolerations(&[c.clone(), b.clone()], core::slice::from_ref(&c)),
            vec![c, b]
        );
    }

    #[test]
    fn absent_empty_and_invalid_annotations() {
        let parse_never = |_: &str| -> Result<Vec<Toleration>, String> { panic!("not parsed") };
        assert_eq!(
            NamespaceAnnotation::from_annotation_value(None, parse_never),
            NamespaceAnnotation::Absent
        );
        assert_eq!(
            NamespaceAnnotation::from_annotation_value(Some(""), parse_never),
            NamespaceAnnotation::Tolerations(Vec::new())
        );
        assert_eq!(
            NamespaceAnnotation::from_annotation_value(Some("{"), |_| Err(String::from(
                "unexpected end of JSON input"
            ))),
            NamespaceAnnotation::Invalid(String::from("unexpected end of JSON input"))
        );
    }

    #[test]
    fn cluster_default_used_only_when_annotation_absent() {
        let cluster = PodTolerationRestrictionConfig {
            default: vec![tol("c", "Exists", "", "")],
            whitelist: Vec::new(),
        };
        let absent = admit(
            Operation::Create,
            QosClass::BestEffort,
            &[],
            &ns(None, None),
            &cluster,
        );
        assert_eq!(absent.tolerations(), Some(&cluster.default[..]));
        let empty = admit(
            Operation::Create,
            QosClass::BestEffort,
            &[],
            &ns(Some(vec![]), None),
            &cluster,
        );
        assert_eq!(empty.tolerations(), Some(&[][..]));
        // Defaults only apply on CREATE.
        let update = admit(
            Operation::Update,
            QosClass::BestEffort,
            &[],
            &ns(None, None),
            &cluster,
        );
        assert_eq!(update.tolerations(), Some(&[][..]));
    }

    #[test]
    fn memory_pressure_on_create_and_update_for_non_best_effort() {
        let cfg = PodTolerationRestrictionConfig::default();
        for op in [Operation::Create, Operation::Update] {
            for qos in [QosClass::Burstable, QosClass::Guaranteed] {
                let out = admit(op, qos, &[], &ns(None, None), &cfg);
                assert_eq!(out.tolerations(), Some(&[memory_pressure_toleration()][..]));
            }
            let out = admit(op, QosClass::BestEffort, &[], &ns(None, None), &cfg);
            assert_eq!(out.tolerations(), Some(&[][..]));
        }
        let out = admit(
            Operation::Delete,
            QosClass::Burstable,
            &[],
            &ns(None, None),
            &cfg,
        );
        assert_eq!(out.tolerations(), Some(&[][..]));
    }

    #[test]
    fn whitelist_scope_in_message() {
        let pod = [tol("k", "Equal", "b", "NoSchedule")];
        let wl = vec![tol("k", "Equal", "a", "NoSchedule")];
        let cluster = PodTolerationRestrictionConfig {
            default: Vec::new(),
            whitelist: wl.clone(),
        };
        let out = admit(
            Operation::Create,
            QosClass::BestEffort,
            &pod,
            &ns(None, None),
            &cluster,
        );
        assert_eq!(
            out.message().as_deref(),
            Some(
                "pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist"
            )
        );
        let out = admit(
            Operation::Create,
            QosClass::BestEffort,
            &pod,
            &ns(None, Some(wl)),
            &PodTolerationRestrictionConfig::default(),
        );
        assert_eq!(
            out.message().as_deref(),
            Some(
                "pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist"
            )
        );
        // An explicitly empty namespace whitelist overrides the cluster one.
        let out = admit(
            Operation::Create,
            QosClass::BestEffort,
            &pod,
            &ns(None, Some(vec![])),
            &cluster,
        );
        assert!(out.is_admitted());
    }

    #[test]
    fn invalid_annotations_only_matter_when_read() {
        let bad = || NamespaceAnnotation::Invalid(String::from("boom"));
        let cfg = PodTolerationRestrictionConfig::default();
        let bad_default = NamespaceTolerations {
            default_tolerations: bad(),
            tolerations_whitelist: NamespaceAnnotation::Absent,
        };
        // The default annotation is read on CREATE only.
        let out = admit(
            Operation::Create,
            QosClass::BestEffort,
            &[],
            &bad_default,
            &cfg,
        );
        assert_eq!(
            out,
            PodTolerationRestrictionOutcome::Rejected(
                PodTolerationRestrictionError::InvalidAnnotation {
                    annotation: NS_DEFAULT_TOLERATIONS,
                    message: String::from("boom"),
                }
            )
        );
        assert_eq!(out.message().as_deref(), Some("boom"));
        assert!(
            admit(
                Operation::Update,
                QosClass::BestEffort,
                &[],
                &bad_default,
                &cfg
            )
            .is_admitted()
        );
        // The whitelist annotation is read only for pods that end up with tolerations.
        let bad_wl = NamespaceTolerations {
            default_tolerations: NamespaceAnnotation::Absent,
            tolerations_whitelist: bad(),
        };
        assert!(admit(Operation::Create, QosClass::BestEffort, &[], &bad_wl, &cfg).is_admitted());
        assert!(!admit(Operation::Create, QosClass::Burstable, &[], &bad_wl, &cfg).is_admitted());
    }

    fn arb_toleration() -> impl Strategy<Value = Toleration> {
        (
            prop::sample::select(vec!["", "foo", "bar"]),
            prop::sample::select(vec!["", "Equal", "Exists", "Lt"]),
            prop::sample::select(vec!["", "a", "5"]),
            prop::sample::select(vec!["", "NoSchedule", "NoExecute", "PreferNoSchedule"]),
            prop::option::of(0i64..4),
        )
            .prop_map(|(k, o, v, e, s)| tol(k, o, v, e).with_seconds(s))
    }

    fn is_subsequence(sub: &[Toleration], of: &[Toleration]) -> bool {
        let mut it = of.iter();
        sub.iter().all(|s| it.any(|o| o == s))
    }

    proptest! {
        #[test]
        fn merge_laws(
            first in prop::collection::vec(arb_toleration(), 0..6),
            second in prop::collection::vec(arb_toleration(), 0..6),
        ) {
            let all: Vec<Toleration> = first.iter().chain(&second).cloned().collect();
            let merged = merge_tolerations(&first, &second);
            // A subsequence (so a sub-multiset) of the concatenation.
            prop_assert!(is_subsequence(&merged, &all));
            // Every dropped toleration is covered by a kept one.
            let kept = merge_kept_indices(&first, &second);
            for (i, t) in all.iter().enumerate() {
                if !kept.contains(&i) {
                    prop_assert!(merged.iter().any(|m| is_superset(m, t)), "{:?} dropped without cover", t);
                }
            }
            // No kept toleration covers another kept one (so no duplicates either).
            for (i, a) in merged.iter().enumerate() {
                for (j, b) in merged.iter().enumerate() {
                    prop_assert!(i == j || !is_superset(a, b));
                }
            }
            // Hence merging again changes nothing.
            prop_assert_eq!(merge_tolerations(&merged, &[]), merged.clone());
            // And the merged list passes any whitelist the inputs passed.
            if verify_against_whitelist(&all, &second) {
                prop_assert!(verify_against_whitelist(&merged, &second));
            }
        }

        #[test]
        fn superset_is_reflexive_and_transitive(
            a in arb_toleration(), b in arb_toleration(), c in arb_toleration(),
        ) {
            prop_assert!(is_superset(&a, &a));
            if is_superset(&a, &b) && is_superset(&b, &c) {
                prop_assert!(is_superset(&a, &c));
            }
        }
    }
}
