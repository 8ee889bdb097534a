#![no_main]
//! FailedScheduling messages.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let e = taintlab_input::parse_event(s);
        let _ = serde_json::to_string(&e).expect("serializable");
        let _ = e.named_taints();
        let _ = e.versions.to_string();
        let e = taintlab_input::parse_event(&format!("0/3 nodes are available: {s}"));
        let _ = serde_json::to_string(&e).expect("serializable");
    }
});
