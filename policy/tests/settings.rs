//! Settings reading and validation: "did you mean" hints and label selectors as
//! apimachinery's `labels.Parse` reads them.

use serde_json::json;
use taintlab_policy::Settings;

fn read_error(v: serde_json::Value) -> String {
    Settings::from_value(&v).err().unwrap_or_default()
}

fn validate_error(v: serde_json::Value) -> String {
    match Settings::from_value(&v) {
        Ok(s) => s.validate().err().unwrap_or_default(),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn unknown_fields_suggest_the_field_meant() {
    let e = read_error(json!({"nodeChecks": {"enable": true}}));
    assert!(
        e.starts_with("invalid settings: nodeChecks.enable: unknown field, expected one of "),
        "{e}"
    );
    assert!(e.ends_with("; did you mean \"enabled\"?"), "{e}");
    let e = read_error(json!({"denyWildcardToleration": true}));
    assert!(
        e.ends_with("; did you mean \"denyWildcardTolerations\"?"),
        "{e}"
    );
    // Nothing close: no hint.
    let e = read_error(json!({"colour": "blue"}));
    assert!(!e.contains("did you mean"), "{e}");
}

#[test]
fn bad_effects_and_operators_suggest_the_value_meant() {
    let e = validate_error(json!({"protectedTaints": [{"key": "k", "effect": "NoSchedul"}]}));
    assert_eq!(
        e,
        "protectedTaints[0].effect: \"NoSchedul\" is not one of NoSchedule, PreferNoSchedule, NoExecute; did you mean \"NoSchedule\"?"
    );
}

#[test]
fn label_selectors_are_read_as_upstream_reads_them() {
    let ok = |sel: &str| {
        let s =
            Settings::from_value(&json!({"nodeChecks": {"enabled": true, "labelSelector": sel}}));
        s.map(|s| s.validate())
    };
    assert_eq!(ok("pool in (gpu, tpu),!spot"), Ok(Ok(())));
    assert_eq!(ok("node-role.kubernetes.io/control-plane"), Ok(Ok(())));
    assert_eq!(
        ok("pool in gpu"),
        Ok(Err(String::from(
            "nodeChecks.labelSelector: unable to parse requirement: found 'gpu' expected: '('"
        )))
    );
    assert_eq!(
        ok("pool=gpu,"),
        Ok(Err(String::from(
            "nodeChecks.labelSelector: found '', expected: identifier after ','"
        )))
    );
}

#[test]
fn values_are_quoted_with_the_chosen_releases_unicode_tables() {
    // U+1FAE0 was assigned in Unicode 14.0: Go 1.20 (Kubernetes 1.27 - 1.28, Unicode
    // 13.0) escapes it in `%q`, Go 1.21 on (Kubernetes 1.29 on) prints it.
    let at = |version: &str| {
        validate_error(json!({"kubernetesVersion": version,
            "protectedTaints": [{"key": "a", "effect": "x\u{1fae0}"}]}))
    };
    assert!(
        at("1.28").contains("\"x\\U0001fae0\" is not one of"),
        "{}",
        at("1.28")
    );
    assert!(
        at("1.29").contains("\"x\u{1fae0}\" is not one of"),
        "{}",
        at("1.29")
    );
    // Decisions quote the same way: the namespace in an allow-list rejection.
    let s = |version: &str| {
        Settings::from_value(&json!({"kubernetesVersion": version, "allowedTolerations": []}))
            .unwrap()
    };
    let req = json!({"kind": {"kind": "Pod"}, "operation": "CREATE", "namespace": "ns\u{1fae0}",
        "object": {"metadata": {"name": "p"}, "spec": {"tolerations": [{"key": "k", "operator": "Exists"}]}}});
    let message = |version: &str| {
        taintlab_policy::evaluate(&req, &s(version), None)
            .message
            .unwrap_or_default()
    };
    assert!(
        message("1.28").contains("namespace \"ns\\U0001fae0\""),
        "{}",
        message("1.28")
    );
    assert!(
        message("1.35").contains("namespace \"ns\u{1fae0}\""),
        "{}",
        message("1.35")
    );
}
