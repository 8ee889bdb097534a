// Shared by the fuzz targets: small limits keep each run fast, and every result must
// serialize (no panics anywhere on the way).
#![allow(dead_code)]

pub fn opts() -> taintlab_input::Options {
    taintlab_input::Options {
        limits: taintlab_input::Limits {
            max_input_bytes: 1 << 20,
            max_depth: 64,
            max_alias_nodes: 10_000,
            max_documents: 1_000,
        },
        ..Default::default()
    }
}

pub fn check(p: &taintlab_input::Parsed) {
    let _ = serde_json::to_string(p).expect("serializable");
    for d in &p.diagnostics {
        let _ = d.to_string();
    }
    let _ = taintlab_input::emit::to_yaml_stream(&taintlab_input::emit::objects(p));
}
