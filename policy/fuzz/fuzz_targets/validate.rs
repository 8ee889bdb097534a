//! The `validate` entry point exactly as the waPC glue calls it: arbitrary bytes as the
//! ValidationRequest. The node list, when one is requested, is either a small valid
//! cluster or the tail of the input (after a NUL byte), so the list reader is exercised
//! too. Every answer must be a well-formed ValidationResponse.
#![no_main]

use libfuzzer_sys::fuzz_target;

const NODES: &[u8] = br#"{"items":[
  {"metadata":{"name":"cp","labels":{"node-role.kubernetes.io/control-plane":""}},"spec":{"taints":[{"key":"node-role.kubernetes.io/control-plane","effect":"NoSchedule"}]}},
  {"metadata":{"name":"w1"},"spec":{"taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}],"unschedulable":true}}]}"#;

fuzz_target!(|data: &[u8]| {
    let (payload, list) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let out = taintlab_policy::payload::validate_bytes(payload, |_request| match list {
        Some(bytes) => Ok(bytes.to_vec()),
        None => Ok(NODES.to_vec()),
    });
    let response: serde_json::Value = serde_json::from_slice(&out).expect("response is JSON");
    let accepted = response
        .get("accepted")
        .and_then(serde_json::Value::as_bool);
    assert!(accepted.is_some(), "no accepted field: {response}");
    if accepted == Some(false) {
        assert!(
            response
                .get("message")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|m| !m.is_empty())
        );
        assert!(response.get("mutated_object").is_none());
    }
});
