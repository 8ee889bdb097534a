use super::*;
use crate::settings::{AllowedToleration, TaintPattern};

fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
    Toleration::new(key, Operator::parse(op), value, TaintEffect::parse(effect))
}

fn pattern(
    key: Option<&str>,
    key_pattern: Option<&str>,
    value: Option<&str>,
    effect: Option<&str>,
) -> TaintPattern {
    TaintPattern {
        key: key.map(String::from),
        key_pattern: key_pattern.map(String::from),
        value: value.map(String::from),
        effect: effect.map(String::from),
    }
}

#[test]
fn protected_pattern_is_judged_by_what_is_tolerated() {
    let cp = pattern(Some(keys::CONTROL_PLANE), None, None, Some("NoSchedule"));
    let cases = [
        (tol("", "Exists", "", ""), true),
        (tol("", "Exists", "", "NoSchedule"), true),
        (tol("", "Exists", "", "NoExecute"), false),
        (tol(keys::CONTROL_PLANE, "Exists", "", ""), true),
        (tol(keys::CONTROL_PLANE, "", "", "NoSchedule"), true),
        (tol(keys::CONTROL_PLANE, "Equal", "x", "NoSchedule"), true),
        (
            tol(keys::CONTROL_PLANE, "Exists", "", "PreferNoSchedule"),
            false,
        ),
        (
            tol("node-role.kubernetes.io/master", "Exists", "", ""),
            false,
        ),
        // Unknown operators tolerate nothing.
        (tol(keys::CONTROL_PLANE, "In", "", ""), false),
    ];
    for (t, want) in cases {
        assert_eq!(tolerates_pattern(&t, &cp, false), want, "{t:?}");
    }
}

#[test]
fn protected_value_and_glob() {
    let gpu = pattern(Some("dedicated"), None, Some("gpu"), None);
    assert!(tolerates_pattern(
        &tol("dedicated", "Equal", "gpu", ""),
        &gpu,
        false
    ));
    assert!(!tolerates_pattern(
        &tol("dedicated", "Equal", "cpu", ""),
        &gpu,
        false
    ));
    assert!(tolerates_pattern(
        &tol("dedicated", "Exists", "", "NoExecute"),
        &gpu,
        false
    ));
    let roles = pattern(None, Some("node-role.kubernetes.io/*"), None, None);
    assert!(tolerates_pattern(
        &tol("node-role.kubernetes.io/infra", "Exists", "", ""),
        &roles,
        false
    ));
    assert!(tolerates_pattern(
        &tol("", "Exists", "", "PreferNoSchedule"),
        &roles,
        false
    ));
    assert!(!tolerates_pattern(
        &tol("node-role.kubernetes.io", "Exists", "", ""),
        &roles,
        false
    ));
}

#[test]
fn protected_numeric_operators_follow_the_gate() {
    let p = pattern(Some("tier"), None, None, None);
    let lt = tol("tier", "Lt", "5", "NoSchedule");
    assert!(tolerates_pattern(&lt, &p, true));
    assert!(
        !tolerates_pattern(&lt, &p, false),
        "gate off: Lt tolerates nothing"
    );
    let p3 = pattern(Some("tier"), None, Some("3"), None);
    let p7 = pattern(Some("tier"), None, Some("7"), None);
    assert!(tolerates_pattern(&lt, &p3, true));
    assert!(!tolerates_pattern(&lt, &p7, true));
    // Lt with the smallest value tolerates no taint value at all.
    let min = tol("tier", "Lt", &i64::MIN.to_string(), "");
    assert!(!tolerates_pattern(&min, &p, true));
}

fn allowed(key: Option<&str>, key_pattern: Option<&str>) -> AllowedToleration {
    AllowedToleration {
        key: key.map(String::from),
        key_pattern: key_pattern.map(String::from),
        ..AllowedToleration::default()
    }
}

#[test]
fn allow_list_coverage() {
    let any_dedicated = allowed(Some("dedicated"), None);
    assert!(allowed_by(
        &tol("dedicated", "Exists", "", ""),
        &any_dedicated
    ));
    assert!(!allowed_by(&tol("", "Exists", "", ""), &any_dedicated));

    let star = allowed(None, Some("*"));
    assert!(allowed_by(&tol("", "Exists", "", ""), &star));
    let prefix = allowed(None, Some("example.com/*"));
    assert!(!allowed_by(&tol("", "Exists", "", ""), &prefix));
    assert!(allowed_by(
        &tol("example.com/a", "Equal", "x", "NoSchedule"),
        &prefix
    ));

    let values = AllowedToleration {
        values: Some(vec!["gpu".into()]),
        ..allowed(Some("dedicated"), None)
    };
    assert!(allowed_by(&tol("dedicated", "Equal", "gpu", ""), &values));
    assert!(
        allowed_by(&tol("dedicated", "", "gpu", ""), &values),
        "omitted operator is Equal"
    );
    assert!(
        !allowed_by(&tol("dedicated", "Exists", "", ""), &values),
        "Exists tolerates every value"
    );

    let effects = AllowedToleration {
        effects: Some(vec!["NoSchedule".into()]),
        ..allowed(Some("dedicated"), None)
    };
    assert!(allowed_by(
        &tol("dedicated", "Exists", "", "NoSchedule"),
        &effects
    ));
    assert!(!allowed_by(&tol("dedicated", "Exists", "", ""), &effects));
    let all_effects = AllowedToleration {
        effects: Some(vec![
            "NoSchedule".into(),
            "PreferNoSchedule".into(),
            "NoExecute".into(),
        ]),
        ..allowed(Some("dedicated"), None)
    };
    assert!(allowed_by(
        &tol("dedicated", "Exists", "", ""),
        &all_effects
    ));

    let capped = AllowedToleration {
        max_toleration_seconds: Some(60),
        ..allowed(Some("dedicated"), None)
    };
    assert!(allowed_by(
        &tol("dedicated", "Exists", "", "NoExecute").with_seconds(Some(60)),
        &capped
    ));
    assert!(!allowed_by(
        &tol("dedicated", "Exists", "", "NoExecute").with_seconds(Some(61)),
        &capped
    ));
    assert!(!allowed_by(
        &tol("dedicated", "Exists", "", "NoExecute"),
        &capped
    ));
    assert!(
        !allowed_by(&tol("dedicated", "Exists", "", ""), &capped),
        "empty effect tolerates NoExecute forever"
    );
    assert!(allowed_by(
        &tol("dedicated", "Exists", "", "NoSchedule"),
        &capped
    ));
}

#[test]
fn system_shapes() {
    let nr = tol(keys::NOT_READY, "Exists", "", "NoExecute");
    assert!(is_system_toleration(
        &nr.clone().with_seconds(Some(300)),
        false
    ));
    assert!(
        !is_system_toleration(&nr, false),
        "forever only for daemon pods"
    );
    assert!(is_system_toleration(&nr, true));
    assert!(is_system_toleration(
        &tol(keys::MEMORY_PRESSURE, "Exists", "", "NoSchedule"),
        false
    ));
    assert!(!is_system_toleration(
        &tol(keys::UNSCHEDULABLE, "Exists", "", "NoSchedule"),
        false
    ));
    assert!(is_system_toleration(
        &tol(keys::UNSCHEDULABLE, "Exists", "", "NoSchedule"),
        true
    ));
    assert!(
        !is_system_toleration(&tol(keys::UNSCHEDULABLE, "", "", "NoSchedule"), true),
        "operator must be Exists"
    );
    assert!(
        !is_system_toleration(&tol(keys::NOT_READY, "Exists", "", ""), true),
        "effect must be NoExecute"
    );
}

#[test]
fn short_forms() {
    assert_eq!(short(&tol("", "Exists", "", "")), "*:*");
    assert_eq!(
        short(&tol("a", "Equal", "b", "NoSchedule")),
        "a=b:NoSchedule"
    );
    assert_eq!(short(&tol("a", "", "", "")), "a=:*");
    assert_eq!(short(&tol("a", "Lt", "5", "NoExecute")), "a<5:NoExecute");
    assert_eq!(short(&tol("a", "Gt", "5", "")), "a>5:*");
    assert_eq!(short(&tol("a", "Exists", "", "NoSchedule")), "a:NoSchedule");
}
