#![no_main]
//! The auto-detecting entry point on arbitrary text.
use libfuzzer_sys::fuzz_target;
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let p = taintlab_input::parse_with(s, &common::opts());
        common::check(&p);
        for cmd in &p.taint_commands {
            let _ = cmd.apply(&[]);
        }
    }
});
