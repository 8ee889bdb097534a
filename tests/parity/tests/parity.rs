//! The committed summaries in `expected/` are what the playground's path and npm's
//! path compute natively for each paste in `pastes/`; the Node test
//! (`wasm/js/test/node/parity.test.mjs`) checks that the npm package gives the same.
//!
//! `PARITY_BLESS=1 cargo test -p taintlab-parity` rewrites the expected files.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use taintlab_parity::{cluster, default_options, expected, playground, summary, text};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn pastes() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fs::read_dir(dir("pastes"))
        .expect("pastes/")
        .map(|e| e.expect("entry").path())
        .map(|p| {
            let name = p
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("name")
                .to_string();
            (name, fs::read_to_string(&p).expect("paste"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn there_are_at_least_thirty_pastes_each_with_an_expected_summary() {
    let pastes = pastes();
    assert!(pastes.len() >= 30, "{} pastes", pastes.len());
    let expected: Vec<String> = fs::read_dir(dir("expected"))
        .expect("expected/")
        .filter_map(|e| {
            let p = e.ok()?.path();
            Some(p.file_stem()?.to_str()?.to_string())
        })
        .collect();
    for (name, _) in &pastes {
        assert!(
            expected.contains(name),
            "expected/{name}.json is missing (PARITY_BLESS=1)"
        );
    }
    assert_eq!(expected.len(), pastes.len(), "stale files in expected/");
}

#[test]
fn the_committed_summaries_are_what_the_scenario_computes() {
    let bless = std::env::var_os("PARITY_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, paste) in pastes() {
        let got = expected(&paste);
        let file = dir("expected").join(format!("{name}.json"));
        if bless {
            let mut text = serde_json::to_string_pretty(&got).expect("json");
            text.push('\n');
            fs::write(&file, text).expect("write");
            continue;
        }
        let committed: Value = fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null);
        if committed != got {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "expected/ differs from what the scenario computes for {stale:?} (PARITY_BLESS=1 to rewrite after checking the change)"
    );
}

/// "Open in playground" opens the same cluster the documentation example shows: the
/// same nodes, pods, verdicts, scores, eviction times and messages, whether the text is
/// read as one combined pane or split into the two panes.
#[test]
fn the_playground_opens_the_cluster_the_example_shows() {
    let options = default_options();
    for (name, paste) in pastes() {
        let (_, _, p) = playground(&paste, &options);
        let t = text(&paste, &options);
        assert_eq!(
            cluster(&summary(&p)),
            cluster(&summary(&t)),
            "{name}: the playground's panes and the combined text differ"
        );
    }
}

/// The summaries see what they claim to: a paste of each kind of problem is reported.
#[test]
fn broken_pastes_are_reported_with_locations() {
    let all: Vec<(String, Value)> = pastes()
        .into_iter()
        .map(|(n, p)| (n, expected(&p)))
        .collect();
    let get = |prefix: &str| -> &Value {
        &all.iter()
            .find(|(n, _)| n.starts_with(prefix))
            .unwrap_or_else(|| panic!("paste {prefix}"))
            .1
    };
    // A refused kubectl line is reported where it is; the other lines keep their effects.
    let k = &get("03-")["text"];
    assert_eq!(k["commands"][1]["rejected"], true);
    assert_eq!(
        k["nodes"][0]["taints"],
        serde_json::json!(["a|b|NoSchedule"])
    );
    assert_eq!(k["nodes"][1]["taints"], serde_json::json!(["e||NoExecute"]));
    assert!(
        k["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["location"][1] == 2 && d["severity"] == "error")
    );
    // Two bare taint documents and two bare toleration documents: 2 nodes x 2 pods.
    let b = &get("04-")["playground"];
    assert_eq!(b["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(b["pods"].as_array().unwrap().len(), 2);
    // A PodTemplate's invalid toleration, at the PodTemplate's own path.
    let t = &get("05-")["text"];
    assert!(
        t["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "validation"
                && d["location"][3] == "template.spec.tolerations[0].operator"
                && d["location"][1] == 8),
        "{}",
        t["diagnostics"]
    );
    // The alias bomb is refused by the input layer's limits.
    assert!(
        get("14-")["text"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "alias-bomb"),
        "{}",
        get("14-")["text"]["diagnostics"]
    );
}
