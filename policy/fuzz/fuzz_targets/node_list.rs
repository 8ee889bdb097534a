//! The NodeList reader on arbitrary bytes: never panics, never accepts what is not JSON
//! (whenever it succeeds, serde_json must parse the same bytes), and the grouped reader
//! agrees with the plain one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let plain = taintlab_policy::nodelist::read(data, false);
    let grouped = taintlab_policy::nodelist::read_cluster(data, None);
    assert_eq!(plain.is_ok(), grouped.is_ok());
    if let (Ok(nodes), Ok(cluster)) = (&plain, &grouped) {
        assert_eq!(nodes.len(), cluster.nodes);
        assert!(
            serde_json::from_slice::<serde_json::Value>(data).is_ok(),
            "reader accepted non-JSON"
        );
    }
    // With labels the reader is stricter (label values must be strings), never laxer.
    if taintlab_policy::nodelist::read(data, true).is_ok() {
        assert!(plain.is_ok());
    }
});
