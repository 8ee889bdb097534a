//! The taint-spec utilities of `kubectl taint` (k8s.io/kubectl `pkg/cmd/taint/utils.go`):
//! `parseTaint`, `parseTaints`, `reorganizeTaints`, `checkIfTaintsAlreadyExists`,
//! `deleteTaint`, `deleteTaintsByKey`, plus the flag and conflict checks of `taint.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::matching::{match_taint, taint_to_string};
use crate::model::{Taint, TaintEffect};
use crate::validation::{go_quote, label_value_errors, qualified_name_errors};
use crate::version::KubeVersion;

/// What `kubectl taint` reports it did to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Taints were only added.
    Tainted,
    /// Taints were only removed, or nothing changed without `--overwrite`.
    Untainted,
    /// Added and removed, or anything at all with `--overwrite`.
    Modified,
}

impl Operation {
    /// `tainted`, `untainted` or `modified`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tainted => "tainted",
            Self::Untainted => "untainted",
            Self::Modified => "modified",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Go's `%v` of a `corev1.Taint` without `timeAdded`: `{key value effect <nil>}` (two
/// spaces when the value is empty).
pub fn taint_go_value(taint: &Taint) -> String {
    format!(
        "{{{} {} {} <nil>}}",
        taint.key,
        taint.value,
        taint.effect.as_str()
    )
}

/// `utilerrors.NewAggregate(errs).Error()` for plain messages: duplicates removed, one
/// message as is, several as `[e1, e2]`. `None` when there are none.
pub fn aggregate_error(messages: &[String]) -> Option<String> {
    // A list searched for each message rather than a `BTreeSet<&str>`, a map type nothing
    // else in the wasm modules uses (about 4 KB of its own code); aggregates are short.
    let mut unique: Vec<&str> = Vec::new();
    for m in messages {
        if !unique.contains(&m.as_str()) {
            unique.push(m);
        }
    }
    match unique.as_slice() {
        [] => None,
        [one] => Some(String::from(*one)),
        many => Some(format!("[{}]", many.join(", "))),
    }
}

/// `invalid taint effect: <e>, unsupported taint effect` unless the effect is one of the
/// three known ones (case-sensitive; an empty effect is rejected too).
fn validate_taint_effect(effect: &str) -> Result<TaintEffect, String> {
    match TaintEffect::parse(effect) {
        e @ (TaintEffect::NoSchedule | TaintEffect::PreferNoSchedule | TaintEffect::NoExecute) => {
            Ok(e)
        }
        _ => Err(format!(
            "invalid taint effect: {effect}, unsupported taint effect"
        )),
    }
}

/// `parseTaint`: `key`, `key:Effect`, `key=value:Effect` (and `key=:Effect`).
///
/// Order of checks as upstream: split on `:`; with two parts the effect is checked first
/// (so `key:` fails on its empty effect), then `key=value` is split on `=` (more than two
/// pieces is an invalid spec) and the value is checked; finally the key must be a
/// qualified name. `key=value` without an effect therefore fails on the key, which then
/// contains `=`. Label messages depend on the kubectl release (`version`).
pub fn parse_taint(spec: &str, version: KubeVersion) -> Result<Taint, String> {
    let invalid = || format!("invalid taint spec: {spec}");
    let parts: Vec<&str> = spec.split(':').collect();
    let (key, value, effect) = match parts.as_slice() {
        [key] => (*key, "", TaintEffect::Empty),
        [kv, effect] => {
            let effect = validate_taint_effect(effect)?;
            let kv: Vec<&str> = kv.split('=').collect();
            match kv.as_slice() {
                [key] => (*key, "", effect),
                [key, value] => {
                    let errs = label_value_errors(value, version);
                    if !errs.is_empty() {
                        return Err(format!("{}, {}", invalid(), errs.join("; ")));
                    }
                    (*key, *value, effect)
                }
                _ => return Err(invalid()),
            }
        }
        _ => return Err(invalid()),
    };
    let errs = qualified_name_errors(key, version);
    if !errs.is_empty() {
        return Err(format!("{}, {}", invalid(), errs.join("; ")));
    }
    Ok(Taint::new(key, value, effect))
}

/// The result of [`parse_taints`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedTaints {
    /// Taints to add, in command order.
    pub to_add: Vec<Taint>,
    /// Taints to remove: only key and effect (an empty effect removes every effect).
    pub to_remove: Vec<Taint>,
}

/// `parseTaints`: sorts specs into additions and removals.
///
/// A spec ending in `-` is a removal: one `-` is stripped, the rest parsed by
/// [`parse_taint`], and only key and effect kept (upstream quirk: the value is dropped
/// but still validated; `key=value-` is invalid because the key becomes `key=value`).
/// An addition needs an effect (`invalid taint spec: <spec>`), and the same key and effect
/// twice gives `duplicated taints with the same key and effect: {k v e <nil>}` for the
/// second one.
pub fn parse_taints<S: AsRef<str>>(
    specs: &[S],
    version: KubeVersion,
) -> Result<ParsedTaints, String> {
    let mut parsed = ParsedTaints::default();
    // (effect, key) pairs as one string each: see `sort::pair_key`.
    let mut unique: Vec<String> = Vec::new();
    for spec in specs {
        let spec = spec.as_ref();
        if let Some(rest) = spec.strip_suffix('-') {
            let t = parse_taint(rest, version)?;
            parsed.to_remove.push(Taint::new(&t.key, "", t.effect));
        } else {
            let t = parse_taint(spec, version)?;
            if t.effect.is_empty() {
                return Err(format!("invalid taint spec: {spec}"));
            }
            if !crate::sort::insert_name(
                &mut unique,
                crate::sort::pair_key(t.effect.as_str(), &t.key),
            ) {
                return Err(format!(
                    "duplicated taints with the same key and effect: {}",
                    taint_go_value(&t)
                ));
            }
            parsed.to_add.push(t);
        }
    }
    Ok(parsed)
}

/// The outcome of [`reorganize_taints`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reorganized {
    /// What kubectl would print.
    pub operation: Operation,
    /// The node's new taint list: the added taints first (command order), then the old
    /// taints no added taint replaces, minus the removals.
    pub taints: Vec<Taint>,
    /// One `taint "<key[:Effect]>" not found` per removal that matched nothing.
    pub errors: Vec<String>,
}

impl Reorganized {
    /// The aggregate error text (`[e1, e2]` for several), `None` when every removal
    /// matched.
    pub fn error(&self) -> Option<String> {
        aggregate_error(&self.errors)
    }
}

/// `reorganizeTaints`: computes the new taint list and the operation name.
///
/// Upstream quirks kept: `added` is `len(old) != len(new)`, so replacing a value is not
/// an addition; `deleted` is the success of the **last** removal only; the operation is
/// `modified` if `(added && deleted) || overwrite`, else `tainted` if added, else
/// `untainted` (also when nothing changed).
pub fn reorganize_taints(
    node_taints: &[Taint],
    overwrite: bool,
    to_add: &[Taint],
    to_remove: &[Taint],
) -> Reorganized {
    let mut taints: Vec<Taint> = to_add.to_vec();
    for old in node_taints {
        if !to_add.iter().any(|t| match_taint(t, old)) {
            taints.push(old.clone());
        }
    }
    let added = node_taints.len() != taints.len();
    let mut errors = Vec::new();
    let mut deleted = false;
    for removal in to_remove {
        let (rest, removed) = if removal.effect.is_empty() {
            delete_taints_by_key(&taints, &removal.key)
        } else {
            delete_taint(&taints, removal)
        };
        taints = rest;
        deleted = removed;
        if !removed {
            errors.push(format!(
                "taint {} not found",
                go_quote(&taint_to_string(removal))
            ));
        }
    }
    let operation = if (added && deleted) || overwrite {
        Operation::Modified
    } else if added {
        Operation::Tainted
    } else {
        Operation::Untainted
    };
    Reorganized {
        operation,
        taints,
        errors,
    }
}

/// `checkIfTaintsAlreadyExists`: the keys (joined with `,`) of taints to add whose key
/// and effect a node taint already has, even with an identical value. Empty when none.
pub fn check_if_taints_already_exist(node_taints: &[Taint], to_add: &[Taint]) -> String {
    let mut keys: Vec<&str> = Vec::new();
    for t in to_add {
        for old in node_taints {
            if t.key == old.key && t.effect == old.effect {
                keys.push(&t.key);
            }
        }
    }
    keys.join(",")
}

/// `deleteTaint`: removes every taint with the same key and effect; the bool says
/// whether anything was removed.
pub fn delete_taint(taints: &[Taint], to_delete: &Taint) -> (Vec<Taint>, bool) {
    let rest: Vec<Taint> = taints
        .iter()
        .filter(|t| !match_taint(to_delete, t))
        .cloned()
        .collect();
    let removed = rest.len() != taints.len();
    (rest, removed)
}

/// `deleteTaintsByKey`: removes every taint with this key, whatever its effect.
pub fn delete_taints_by_key(taints: &[Taint], key: &str) -> (Vec<Taint>, bool) {
    let rest: Vec<Taint> = taints.iter().filter(|t| t.key != key).cloned().collect();
    let removed = rest.len() != taints.len();
    (rest, removed)
}

/// `validateFlags`: `--all` and `-l` are exclusive; with neither, a node name must follow
/// the resource type. `resources` is the resource type followed by the names.
pub fn validate_flags<S: AsRef<str>>(
    all: bool,
    selector: &str,
    resources: &[S],
) -> Result<(), String> {
    if all && !selector.is_empty() {
        return Err(String::from(
            "setting 'all' parameter with a non empty selector is prohibited",
        ));
    }
    if !all && selector.is_empty() && resources.len() < 2 {
        return Err(String::from(
            "at least one resource name must be specified since 'all' parameter is not set",
        ));
    }
    Ok(())
}

/// The add/remove conflict check of `Validate`: an added taint whose key is also removed
/// without an effect or with the same effect. Each conflict is listed as `key=effect`
/// (`key=` for a key-only removal).
pub fn check_conflicts(to_add: &[Taint], to_remove: &[Taint]) -> Result<(), String> {
    let mut conflicts: Vec<String> = Vec::new();
    for add in to_add {
        for remove in to_remove {
            if add.key == remove.key && (remove.effect.is_empty() || add.effect == remove.effect) {
                conflicts.push(format!("{}={}", remove.key, remove.effect.as_str()));
            }
        }
    }
    if conflicts.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "can not both modify and remove the following taint(s) in the same command: {}",
            conflicts.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;
    use alloc::vec;
    use proptest::prelude::*;

    const V: KubeVersion = KubeVersion::NEWEST;

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint::new(k, v, TaintEffect::parse(e))
    }

    #[test]
    fn spec_forms() {
        assert_eq!(parse_taint("k", V), Ok(taint("k", "", "")));
        assert_eq!(
            parse_taint("k:NoSchedule", V),
            Ok(taint("k", "", "NoSchedule"))
        );
        assert_eq!(
            parse_taint("k=v:NoExecute", V),
            Ok(taint("k", "v", "NoExecute"))
        );
        assert_eq!(
            parse_taint("k=:NoExecute", V),
            Ok(taint("k", "", "NoExecute"))
        );
        // Effect first: `key:` fails on the effect, with the empty effect printed.
        assert_eq!(
            parse_taint("k=bad value:", V),
            Err(String::from(
                "invalid taint effect: , unsupported taint effect"
            ))
        );
        assert_eq!(
            parse_taint("a=b=c:NoSchedule", V),
            Err(String::from("invalid taint spec: a=b=c:NoSchedule"))
        );
        assert_eq!(
            parse_taint("a:b:c", V),
            Err(String::from("invalid taint spec: a:b:c"))
        );
        assert!(
            parse_taint("k=v", V)
                .is_err_and(|e| e.starts_with("invalid taint spec: k=v, name part"))
        );
        // Version-dependent messages.
        let long = format!("k={}:NoSchedule", "a".repeat(64));
        assert!(
            parse_taint(&long, KubeVersion::new(34, 0))
                .is_err_and(|e| e.ends_with("63 characters"))
        );
    }

    #[test]
    fn removals_drop_the_value_but_validate_it() {
        let p = parse_taints(&["k=v:NoSchedule-", "j-"], V);
        assert_eq!(
            p.map(|p| p.to_remove),
            Ok(vec![taint("k", "", "NoSchedule"), taint("j", "", "")])
        );
        assert!(parse_taints(&["k=a b:NoSchedule-"], V).is_err());
        // `key=value-` is invalid: the key becomes `key=value`.
        assert!(
            parse_taints(&["k=v-"], V).is_err_and(|e| e.starts_with("invalid taint spec: k=v, "))
        );
        // Removal with an unknown effect.
        assert_eq!(
            parse_taints(&["k:Bogus-"], V),
            Err(String::from(
                "invalid taint effect: Bogus, unsupported taint effect"
            ))
        );
    }

    #[test]
    fn additions_need_an_effect_and_must_be_unique() {
        assert_eq!(
            parse_taints(&["k"], V),
            Err(String::from("invalid taint spec: k"))
        );
        assert_eq!(
            parse_taints(&["k=a:NoSchedule", "k:NoSchedule"], V),
            Err(String::from(
                "duplicated taints with the same key and effect: {k  NoSchedule <nil>}"
            ))
        );
        assert!(parse_taints(&["k=a:NoSchedule", "k=a:NoExecute"], V).is_ok());
    }

    #[test]
    fn reorganize_quirks() {
        let old = [taint("a", "1", "NoSchedule"), taint("b", "2", "NoSchedule")];
        // Replacing a value is not "added": untainted without --overwrite.
        let r = reorganize_taints(&old, false, &[taint("b", "3", "NoSchedule")], &[]);
        assert_eq!(r.operation, Operation::Untainted);
        assert_eq!(
            r.taints,
            vec![taint("b", "3", "NoSchedule"), taint("a", "1", "NoSchedule")]
        );
        // `deleted` is the last removal only: add + (found, missing) = tainted, not modified.
        let r = reorganize_taints(
            &old,
            false,
            &[taint("c", "", "NoSchedule")],
            &[taint("a", "", "NoSchedule"), taint("zz", "", "")],
        );
        assert_eq!(r.operation, Operation::Tainted);
        assert_eq!(r.error().as_deref(), Some("taint \"zz\" not found"));
        // Add + (missing, found) = modified.
        let r = reorganize_taints(
            &old,
            false,
            &[taint("c", "", "NoSchedule")],
            &[taint("zz", "", ""), taint("a", "", "NoSchedule")],
        );
        assert_eq!(r.operation, Operation::Modified);
        // Overwrite always says modified.
        assert_eq!(
            reorganize_taints(&old, true, &[], &[]).operation,
            Operation::Modified
        );
        // Identical errors are merged in the aggregate text.
        let r = reorganize_taints(&old, false, &[], &[taint("x", "", ""), taint("x", "", "")]);
        assert_eq!(r.error().as_deref(), Some("taint \"x\" not found"));
        let r = reorganize_taints(
            &old,
            false,
            &[],
            &[taint("x", "", "NoExecute"), taint("y", "", "")],
        );
        assert_eq!(
            r.error().as_deref(),
            Some("[taint \"x:NoExecute\" not found, taint \"y\" not found]")
        );
    }

    #[test]
    fn overwrite_check_and_conflicts() {
        let old = [taint("a", "1", "NoSchedule")];
        assert_eq!(
            check_if_taints_already_exist(&old, &[taint("a", "1", "NoSchedule")]),
            "a"
        );
        assert_eq!(
            check_if_taints_already_exist(&old, &[taint("a", "1", "NoExecute")]),
            ""
        );
        assert_eq!(
            check_conflicts(&[taint("a", "1", "NoSchedule")], &[taint("a", "", "")]),
            Err(String::from(
                "can not both modify and remove the following taint(s) in the same command: a="
            ))
        );
        assert!(
            check_conflicts(
                &[taint("a", "1", "NoSchedule")],
                &[taint("a", "", "NoExecute")]
            )
            .is_ok()
        );
        assert!(validate_flags(true, "x=y", &["node"]).is_err());
        assert!(validate_flags(false, "", &["node"]).is_err());
        assert!(validate_flags(false, "x=y", &["node"]).is_ok());
    }

    fn valid_taint() -> impl Strategy<Value = Taint> {
        (
            "([a-z0-9]([-a-z0-9]{0,8}[a-z0-9])?\\.[a-z]{2,3}/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?",
            "([A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?)?",
            prop_oneof![
                Just(TaintEffect::NoSchedule),
                Just(TaintEffect::PreferNoSchedule),
                Just(TaintEffect::NoExecute)
            ],
        )
            .prop_map(|(k, v, e)| Taint::new(&k, &v, e))
    }

    proptest! {
        #[test]
        fn parse_round_trips_taint_to_string(t in valid_taint()) {
            prop_assert_eq!(parse_taint(&taint_to_string(&t), V), Ok(t.clone()));
            let removal = format!("{}-", taint_to_string(&t));
            let parsed = parse_taints(&[removal], V);
            prop_assert_eq!(parsed.map(|p| p.to_remove), Ok(vec![Taint::new(&t.key, "", t.effect.clone())]));
        }

        #[test]
        fn parse_never_panics(spec in ".{0,80}") {
            let _ = parse_taints(&[spec.as_str()], V);
        }

        #[test]
        fn reorganize_keeps_key_effect_unique(
            old in proptest::collection::vec(valid_taint(), 0..5),
            add in proptest::collection::vec(valid_taint(), 0..4),
        ) {
            // Node taints are unique by (key, effect) once validated; so are additions.
            let mut seen = BTreeSet::new();
            let old: Vec<Taint> = old.into_iter().filter(|t| seen.insert((t.key.clone(), t.effect.clone()))).collect();
            let mut seen = BTreeSet::new();
            let add: Vec<Taint> = add.into_iter().filter(|t| seen.insert((t.key.clone(), t.effect.clone()))).collect();
            let r = reorganize_taints(&old, true, &add, &[]);
            let mut keys = BTreeSet::new();
            prop_assert!(r.taints.iter().all(|t| keys.insert((t.key.clone(), t.effect.clone()))));
            prop_assert!(add.iter().all(|a| r.taints.contains(a)));
        }
    }
}
