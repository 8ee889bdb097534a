//! `validate_settings` on arbitrary bytes: always `{"valid": bool, "message"?: string}`,
//! and settings it accepts must also be usable by `validate` without a settings error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let response = taintlab_policy::payload::validate_settings(data);
    let valid = response
        .get("valid")
        .and_then(serde_json::Value::as_bool)
        .expect("valid field");
    if !valid {
        assert!(
            response
                .get("message")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|m| !m.is_empty())
        );
        return;
    }
    let Ok(settings) = taintlab_policy::Settings::from_json(data) else {
        panic!("validate_settings accepted settings that do not parse");
    };
    let request = serde_json::json!({"kind": {"group": "", "version": "v1", "kind": "Pod"}, "operation": "CREATE",
        "namespace": "ns", "object": {"spec": {"tolerations": [{"operator": "Exists"}, {"key": "a", "effect": "NoExecute"}]}}});
    let _ = taintlab_policy::evaluate(&request, &settings, Some(&[]));
});
