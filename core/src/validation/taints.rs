//! `validateNodeTaints` (`pkg/apis/core/validation/validation.go`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::field::{BadValue, FieldError, TaintRendering};
use super::names::{label_value_errors, qualified_name_errors};
use super::tolerations::SUPPORTED_EFFECTS;
use crate::model::Taint;
use crate::version::KubeVersion;

/// `validateNodeTaints(taints, path)`: the errors in upstream order. `path` is usually
/// [`NODE_TAINTS_PATH`](super::NODE_TAINTS_PATH).
///
/// Per taint: key checks (always, so an empty key gives two errors), value checks joined
/// with `;` into one error, the effect (`Required` when empty), then uniqueness by
/// (effect, key) against earlier taints, empty effects included. A duplicate is reported
/// at `<path>[i]` with the whole taint as bad value, rendered by version
/// ([`TaintRendering`]).
pub fn validate_node_taints(taints: &[Taint], path: &str, version: KubeVersion) -> Vec<FieldError> {
    let mut errs = Vec::new();
    // (effect, key) pairs as one string each: see `sort::pair_key`.
    let mut seen: Vec<String> = Vec::new();
    for (i, t) in taints.iter().enumerate() {
        let at = |child: &str| format!("{path}[{i}].{child}");
        for msg in qualified_name_errors(&t.key, version) {
            errs.push(FieldError::invalid(
                at("key"),
                BadValue::String(t.key.clone()),
                msg,
            ));
        }
        let msgs = label_value_errors(&t.value, version);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                at("value"),
                BadValue::String(t.value.clone()),
                msgs.join(";"),
            ));
        }
        if t.effect.is_empty() {
            errs.push(FieldError::required(at("effect"), ""));
        } else if !t.effect.is_known() {
            errs.push(FieldError::not_supported(
                at("effect"),
                BadValue::Named(String::from(t.effect.as_str())),
                &SUPPORTED_EFFECTS,
            ));
        }
        if !crate::sort::insert_name(&mut seen, crate::sort::pair_key(t.effect.as_str(), &t.key)) {
            errs.push(FieldError::duplicate(
                format!("{path}[{i}]"),
                BadValue::Taint {
                    taint: t.clone(),
                    rendering: TaintRendering::for_version(version),
                },
                "taints must be unique by key and effect pair",
            ));
        }
    }
    errs.into_iter().map(|e| e.at(version)).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{NODE_TAINTS_PATH, api_status_message};
    use super::*;
    use crate::model::TaintEffect;
    use alloc::vec;
    use proptest::prelude::*;

    const V35: KubeVersion = KubeVersion::new(35, 0);
    const V34: KubeVersion = KubeVersion::new(34, 0);
    const V33: KubeVersion = KubeVersion::new(33, 0);

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint::new(k, v, TaintEffect::parse(e))
    }
    fn any_taint() -> impl Strategy<Value = Taint> {
        (
            ".{0,70}",
            ".{0,70}",
            prop_oneof![
                Just(String::new()),
                Just(String::from("NoSchedule")),
                Just(String::from("NoExecute")),
                ".{0,12}"
            ],
            proptest::option::of(".{0,30}"),
        )
            .prop_map(|(k, v, e, ta)| {
                let mut t = Taint::new(&k, &v, TaintEffect::parse(&e));
                t.time_added = ta;
                t
            })
    }

    #[test]
    fn node_taint_rules() {
        let errs = validate_node_taints(&[taint("", "", "")], NODE_TAINTS_PATH, V35);
        assert_eq!(
            errs.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(),
            vec![
                "metadata.taints[0].key",
                "metadata.taints[0].key",
                "metadata.taints[0].effect"
            ]
        );
        // Duplicate covers empty effects too, and skips nothing before it.
        let dup = validate_node_taints(
            &[taint("k", "", ""), taint("k", "x", "")],
            NODE_TAINTS_PATH,
            V35,
        );
        let last = dup.last().map(FieldError::message);
        assert_eq!(
            last.as_deref(),
            Some(
                "metadata.taints[1]: Duplicate value: {\"Key\":\"k\",\"Value\":\"x\",\"Effect\":\"\",\"TimeAdded\":null}: taints must be unique by key and effect pair"
            )
        );
        // Value errors joined with ";" (no space).
        let both = validate_node_taints(&[taint("k", &"-".repeat(64), "NoSchedule")], "t", V35);
        assert_eq!(both.len(), 1);
        assert!(
            both[0]
                .detail
                .starts_with("must be no more than 63 bytes;a valid label")
        );
        let unknown = validate_node_taints(&[taint("k", "", "Bogus")], "t", V35);
        assert_eq!(
            unknown[0].message(),
            "t[0].effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
        );
    }

    #[test]
    fn duplicate_rendering_by_version() {
        let mut t = taint("foo", "baz", "NoSchedule");
        let pair = [t.clone(), t.clone()];
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V33)[0]
                .message()
                .contains(
                    "core.Taint{Key:\"foo\", Value:\"baz\", Effect:\"NoSchedule\", TimeAdded:<nil>}"
                )
        );
        t.time_added = Some(String::from("2024-05-01T01:30:00.25+02:00"));
        let pair = [t.clone(), t];
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V34)[0]
                .message()
                .contains("\"TimeAdded\":\"2024-04-30T23:30:00Z\"}")
        );
        assert!(
            validate_node_taints(&pair, NODE_TAINTS_PATH, V33)[0]
                .message()
                .contains(
                    "TimeAdded:time.Date(2024, time.April, 30, 23, 30, 0, 250000000, time.Local)}"
                )
        );
    }

    proptest! {
        #[test]
        fn node_taint_validation_never_panics(taints in proptest::collection::vec(any_taint(), 0..6)) {
            for v in [V33, V34, V35] {
                let errs = validate_node_taints(&taints, NODE_TAINTS_PATH, v);
                for e in &errs {
                    prop_assert!(e.message().starts_with(NODE_TAINTS_PATH));
                }
                prop_assert_eq!(errs.is_empty(), api_status_message("Node", "n", &errs).is_none());
            }
        }
    }
}
