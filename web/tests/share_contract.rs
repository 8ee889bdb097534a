//! The share-link contract between the `<taint-check>` element's JavaScript
//! (`wasm/js/element/share.js`) and the playground's decoder (`src/share.rs`), checked
//! with fixtures both sides read (`tests/parity/share/`):
//!
//! * `element-stored.txt` and `element-deflate.txt` are fragments the element's
//!   `shareFragment` built (stored and compressed deflate) for the state in
//!   `element.json`; the Node test (`wasm/js/test/node/share_contract.test.mjs`)
//!   checks the element still builds them. Here they must open that state, and the
//!   scenario the playground builds from it must be the one the example shows.
//! * `playground.txt` is the fragment this decoder's encoder builds for the state in
//!   `playground.json`; the Node test reads it with the element's `stateFromFragment`.
//!
//! `SHARE_BLESS=1 cargo test -p taintlab-web --test share_contract` rewrites
//! `playground.txt`.

use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;
use taintlab_core::{KubeVersion, Semantics};
use taintlab_scenario::{AdmissionOptions, Options, PaneKind, Panes, Scenario};
use taintlab_web::analysis::state_options;
use taintlab_web::share::{decode_fragment, encode_fragment};
use taintlab_web::store::State;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/parity/share")
}

fn read(name: &str) -> String {
    fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn json(name: &str) -> Value {
    serde_json::from_str(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What a user sees of a scenario: nodes and taints, pods and final tolerations, every
/// verdict.
fn seen(s: &Scenario) -> Vec<String> {
    let mut out: Vec<String> = s
        .nodes
        .iter()
        .map(|n| format!("node {} {:?}", n.node.name, n.node.taints))
        .collect();
    for (p, e) in s.pods.iter().enumerate() {
        out.push(format!("pod {} {:?}", e.label(), e.pod.tolerations));
        for n in 0..s.nodes.len() {
            out.push(format!("cell {p} {n} {:?}", s.cell(p, n)));
        }
    }
    out
}

fn playground_scenario(state: &State) -> Scenario {
    let version = state.kube_version();
    let mut panes = Panes::new();
    panes.set(PaneKind::Nodes, &state.nodes, version);
    panes.set(PaneKind::Pods, &state.pods, version);
    panes.scenario(&state_options(state))
}

#[test]
fn fragments_built_by_the_element_open_the_example_in_the_playground() {
    let element = json("element.json");
    let want = &element["state"];
    let paste_name = element["paste"].as_str().expect("paste");
    let paste = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/parity/pastes")
            .join(format!("{paste_name}.yaml")),
    )
    .expect("paste");
    for file in ["element-stored.txt", "element-deflate.txt"] {
        let fragment = read(file);
        let state = decode_fragment(fragment.trim())
            .unwrap_or_else(|e| panic!("{file}: {e:?}"))
            .unwrap_or_else(|| panic!("{file}: no state"));
        assert_eq!(&*state.nodes, want["nodes"].as_str().unwrap(), "{file}");
        assert_eq!(&*state.pods, want["pods"].as_str().unwrap(), "{file}");
        assert_eq!(state.version, want["version"].as_str().unwrap(), "{file}");
        assert_eq!(
            state.comparison_operators,
            want["comparisonOperators"].as_bool().unwrap()
        );
        assert_eq!(
            state.admission.enabled,
            want["admission"]["enabled"].as_bool().unwrap()
        );
        // Everything the element leaves out takes the playground's defaults.
        assert_eq!(state.admission.not_ready_seconds, 300);
        // The scenario the playground opens is the one the example shows (npm
        // `analyze(text)` with the same release, gate and admission).
        let version = KubeVersion::parse(&state.version).expect("version");
        let example = Scenario::from_text(
            &paste,
            &Options {
                semantics: Semantics::at(version).with_comparison_operators(true),
                admission: Some(AdmissionOptions::default()),
                daemon_set: None,
            },
        );
        let opened = playground_scenario(&state);
        assert_eq!(seen(&opened), seen(&example), "{file}");
        assert_eq!((opened.nodes.len(), opened.pods.len()), (2, 2), "{file}");
    }
}

#[test]
fn fragments_built_by_the_playground_are_what_the_element_reads() {
    let want = json("playground.json");
    let s = |k: &str| {
        want[k]
            .as_str()
            .unwrap_or_else(|| panic!("{k}"))
            .to_string()
    };
    let mut state = State {
        nodes: Rc::from(s("nodes")),
        pods: Rc::from(s("pods")),
        version: s("version"),
        comparison_operators: want["comparisonOperators"].as_bool().unwrap(),
        ..State::default()
    };
    state.admission.enabled = want["admission"]["enabled"].as_bool().unwrap();
    let fragment = encode_fragment(&state).expect("short enough");
    if std::env::var_os("SHARE_BLESS").is_some() {
        fs::write(dir().join("playground.txt"), format!("{fragment}\n")).expect("write");
    }
    assert_eq!(
        fragment,
        read("playground.txt").trim(),
        "the playground's encoder changed (SHARE_BLESS=1 after checking the element still reads it)"
    );
    let back = decode_fragment(&fragment).expect("decodes").expect("state");
    assert_eq!(back, state);
    let opened = playground_scenario(&back);
    let names: Vec<&str> = opened.nodes.iter().map(|n| n.node.name.as_str()).collect();
    let expect: Vec<&str> = want["expect"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names, expect);
}

#[test]
fn damaged_fragments_are_refused_without_panicking() {
    let good = read("element-stored.txt");
    let good = good.trim();
    assert!(decode_fragment(&good.replace("v=1", "v=2")).is_err());
    assert!(decode_fragment(&format!("{good}!")).is_err());
    assert!(decode_fragment(&good[..good.len() - 8]).is_err());
    assert_eq!(decode_fragment("#section-2"), Ok(None));
}
