//! What-if parity: the cases of `whatif/cases.json` through the scenario's `what_if` (the
//! playground's worker and the command line), committed in `whatif/expected/`; the Node
//! test (`wasm/js/test/node/whatif_parity.test.mjs`) checks that npm `whatIf` gives the
//! same JSON for the text and for the panes.
//!
//! `PARITY_BLESS=1 cargo test -p taintlab-parity --test whatif` rewrites the expected files.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use taintlab_parity::what_if_expected;

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("whatif")
        .join(name)
}

struct Case {
    name: String,
    paste: String,
    actions: String,
    until: i64,
}

fn cases() -> Vec<Case> {
    let text = fs::read_to_string(dir("cases.json")).expect("whatif/cases.json");
    let v: Value = serde_json::from_str(&text).expect("cases.json is JSON");
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().expect("name").to_string(),
            paste: match c["paste"].as_str() {
                Some(file) => fs::read_to_string(dir("pastes").join(file))
                    .unwrap_or_else(|e| panic!("pastes/{file}: {e}")),
                None => String::new(),
            },
            actions: c["actions"].as_str().expect("actions").to_string(),
            until: c["until"].as_i64().expect("until"),
        })
        .collect()
}

fn all() -> Vec<(String, Value)> {
    cases()
        .into_iter()
        .map(|c| {
            (
                c.name.clone(),
                what_if_expected(&c.paste, &c.actions, c.until),
            )
        })
        .collect()
}

#[test]
fn the_committed_what_if_results_are_what_the_scenario_computes() {
    let bless = std::env::var_os("PARITY_BLESS").is_some();
    let all = all();
    assert!(all.len() >= 6, "{} cases", all.len());
    let mut stale = Vec::new();
    for (name, got) in &all {
        let file = dir("expected").join(format!("{name}.json"));
        if bless {
            fs::create_dir_all(dir("expected")).expect("expected/");
            let mut text = serde_json::to_string_pretty(got).expect("json");
            text.push('\n');
            fs::write(&file, text).expect("write");
            continue;
        }
        let committed: Value = fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null);
        if &committed != got {
            stale.push(name.clone());
        }
    }
    assert!(
        stale.is_empty(),
        "whatif/expected/ differs from what the scenario computes for {stale:?} (PARITY_BLESS=1 to rewrite after checking the change)"
    );
    let files = fs::read_dir(dir("expected")).expect("expected/").count();
    assert_eq!(files, all.len(), "stale files in whatif/expected/");
}

/// "Open in playground" from a what-if example runs the same simulation: the
/// playground's two panes and the combined text give the same timeline.
#[test]
fn the_playground_panes_and_the_text_give_the_same_timeline() {
    for (name, v) in all() {
        assert_eq!(v["playground"], v["text"], "{name}");
    }
}

/// The cases show what they are named for, so that parity is not checked on empty
/// timelines.
#[test]
fn each_case_shows_what_it_is_named_for() {
    let all = all();
    let get = |name: &str| -> &Value {
        &all.iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("case {name}"))
            .1["playground"]
    };
    let reasons = |v: &Value| -> Vec<String> {
        v["timeline"]["events"]
            .as_array()
            .map(|e| {
                e.iter()
                    .map(|e| e["reason"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let summary = |v: &Value, k: &str| v["timeline"]["summary"][k].clone();

    // A NoExecute taint evicts at once what does not tolerate it; the tolerating pod
    // goes 120 s after the second taint (30 s), the Deployment's pods are replaced.
    let t = get("taint-no-execute");
    assert!(
        reasons(t).iter().any(|r| r == "TaintManagerEviction"),
        "{t}"
    );
    assert!(summary(t, "evicted").as_u64().unwrap() >= 4, "{t}");
    assert!(summary(t, "replaced").as_u64().unwrap() >= 2, "{t}");
    // Removed before the 120 s ran out: nobody is evicted.
    assert_eq!(summary(get("untaint-before-toleration-ends"), "evicted"), 0);
    // The budget makes the drain wait for a replacement, which kubectl prints.
    let d = get("drain-with-budget");
    let lines: Vec<&str> = d["timeline"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] != "Event")
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert!(
        lines.iter().any(|l| l.contains("disruption budget")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("drained")), "{lines:?}");
    assert_eq!(summary(d, "drainsUnfinished"), false);
    // Without --ignore-daemonsets kubectl refuses the DaemonSet's pod and evicts nothing.
    let r = get("drain-refused-daemonset");
    assert_eq!(summary(r, "evicted"), 0, "{r}");
    assert_eq!(summary(r, "drainsUnfinished"), true, "{r}");
    // A node that stops reporting: its pods go after the 300 s default tolerations.
    let f = get("node-failure");
    assert!(
        reasons(f).iter().any(|r| r == "TaintManagerEviction"),
        "{f}"
    );
    // Cordon and scale: the new pods cannot use n1 and n2 runs out of cpu.
    let c = get("cordon-and-scale");
    let pending = c["timeline"]["summary"]["stillPending"].as_array().unwrap();
    assert!(!pending.is_empty(), "{c}");
    assert!(
        pending
            .iter()
            .all(|p| p["message"].as_str().unwrap().contains("unschedulable")),
        "{pending:?}"
    );
    // Errors name the line and the field.
    assert_eq!(
        get("bad-action-line")["error"]["path"],
        json!("actions"),
        "{}",
        get("bad-action-line")
    );
    assert!(
        get("bad-action-line")["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 2: ")
    );
    // A cluster the simulation cannot run: the error names the pasted input's field.
    let dup = &get("duplicate-pod")["error"];
    assert_eq!(dup["argument"], json!("input"), "{dup}");
    assert!(
        dup["path"].as_str().unwrap().starts_with("cluster.pods["),
        "{dup}"
    );
    // An empty cluster simulates nothing, without an error.
    let e = get("empty-cluster");
    assert_eq!(e["timeline"]["nodes"], json!([]), "{e}");
    assert_eq!(e["timeline"]["events"], json!([]), "{e}");
}
