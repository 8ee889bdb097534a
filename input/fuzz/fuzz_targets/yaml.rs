#![no_main]
//! The YAML reader, and the round trip of what it reads: serialized objects must read
//! back to the same objects.
use libfuzzer_sys::fuzz_target;
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let p = taintlab_input::parse_yaml(s, &common::opts());
        common::check(&p);
        for n in &p.nodes {
            let y = taintlab_input::emit::to_yaml(&taintlab_input::emit::node_json(&n.node));
            let back = taintlab_input::parse_yaml(&y, &common::opts());
            assert_eq!(back.nodes.len(), 1, "{y}");
            assert_eq!(back.nodes[0].node, n.node, "{y}");
        }
    }
});
