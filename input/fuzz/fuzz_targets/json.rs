#![no_main]
//! The JSON reader, checked against serde_json: both must accept and reject the same
//! texts (for a single value without duplicate-key subtleties).
use libfuzzer_sys::fuzz_target;
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let p = taintlab_input::parse_json(s, &common::opts());
        common::check(&p);
        let ours_ok = !p
            .diagnostics
            .iter()
            .any(|d| matches!(d.code, taintlab_input::Code::JsonSyntax));
        let limits_hit = p.diagnostics.iter().any(|d| {
            matches!(
                d.code,
                taintlab_input::Code::TooDeep
                    | taintlab_input::Code::TooManyDocuments
                    | taintlab_input::Code::InputTooLarge
            )
        });
        let serde_ok = serde_json::Deserializer::from_str(s)
            .into_iter::<serde::de::IgnoredAny>()
            .all(|r| r.is_ok());
        if !limits_hit {
            assert_eq!(ours_ok, serde_ok, "disagreement on {s:?}");
        }
    }
});
