#![no_main]
//! kubectl describe output: the input is placed after a `Taints:` or `Tolerations:`
//! header so the describe reader sees it.
use libfuzzer_sys::fuzz_target;
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        for head in [
            "Name: n\nTaints:  ",
            "Tolerations:  ",
            "Name: p\nNamespace: d\nTolerations: ",
        ] {
            let p = taintlab_input::parse_with(&format!("{head}{s}"), &common::opts());
            common::check(&p);
        }
    }
});
