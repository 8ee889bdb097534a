#![no_main]
//! kubectl command lines: tokenizer, command classification and kubectl's own rules,
//! then applying the commands to a few nodes.
use libfuzzer_sys::fuzz_target;
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let text = format!("kubectl taint {s}");
        let p = taintlab_input::parse_with(&text, &common::opts());
        common::check(&p);
        let nodes = vec![
            taintlab_core::Node {
                name: "a".into(),
                ..Default::default()
            },
            taintlab_core::Node {
                name: "b".into(),
                ..Default::default()
            },
        ];
        for cmd in &p.taint_commands {
            let _ = cmd.apply(&nodes);
        }
    }
});
