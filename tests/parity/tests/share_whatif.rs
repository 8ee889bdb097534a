//! The share-link contract's what-if cases, between the `<taint-check>` element's
//! JavaScript (`wasm/js/element/share.js`) and the playground's decoder
//! (`web/src/share.rs`), on fixtures both sides read (`share/`); the Node side is
//! `wasm/js/test/node/share_contract.test.mjs`.
//!
//! * `whatif-element-stored.txt` is the fragment the element builds (stored deflate,
//!   deterministic) for the what-if case named in `whatif-element.json`; the Node test
//!   checks the element still builds it. Here it must open that state with the actions in
//!   `scenario.actions` and `scenario.until` on the What-if tab, and the playground's
//!   simulation of it must be the case's committed timeline (`whatif/expected/`).
//! * `whatif-playground.txt` is the fragment the playground's encoder builds for the case
//!   named in `whatif-playground.json`; the Node test opens it with the element's reader
//!   and runs npm `whatIf` on it.
//!
//! `SHARE_BLESS=1 cargo test -p taintlab-parity --test share_whatif` rewrites
//! `whatif-playground.txt`.

use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;
use taintlab_parity::what_if;
use taintlab_scenario::{PaneKind, Panes, Scenario};
use taintlab_web::analysis::state_options;
use taintlab_web::share::{b64_encode, decode_fragment, encode_fragment};
use taintlab_web::store::{State, Tab};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn read(name: &str) -> String {
    fs::read_to_string(dir("share").join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn json(path: PathBuf) -> Value {
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A case of `whatif/cases.json` and its committed result.
fn case(name: &str) -> (Value, Value) {
    let cases = json(dir("whatif").join("cases.json"));
    let c = cases["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("case {name}"))
        .clone();
    let expected = json(dir("whatif").join("expected").join(format!("{name}.json")));
    (c, expected)
}

/// The scenario the playground builds from a state, as its worker does.
fn playground_scenario(state: &State) -> Scenario {
    let version = state.kube_version();
    let mut panes = Panes::new();
    panes.set(PaneKind::Nodes, &state.nodes, version);
    panes.set(PaneKind::Pods, &state.pods, version);
    panes.scenario(&state_options(state))
}

#[test]
fn what_if_fragments_built_by_the_element_open_the_simulation_in_the_playground() {
    let fixture = json(dir("share").join("whatif-element.json"));
    let want = &fixture["state"];
    let (c, expected) = case(fixture["case"].as_str().expect("case"));
    let fragment = read("whatif-element-stored.txt");
    let state = decode_fragment(fragment.trim())
        .expect("decodes")
        .expect("carries a state");
    assert_eq!(&*state.nodes, want["nodes"].as_str().unwrap());
    assert_eq!(&*state.pods, want["pods"].as_str().unwrap());
    assert_eq!(state.version, want["version"].as_str().unwrap());
    // The actions as the playground's Actions box holds them, the simulated second,
    // and the What-if tab.
    assert_eq!(state.scenario.actions, c["actions"].as_str().unwrap());
    assert_eq!(state.scenario.until, c["until"].as_i64().unwrap());
    assert_eq!(state.tab, Tab::Timeline);
    // Everything the element leaves out takes the playground's defaults.
    assert!(state.scenario.steps.is_empty() && state.scenario.failure.is_none());
    assert_eq!(state.admission.not_ready_seconds, 300);
    // The playground's simulation of the opened state is the case's committed one,
    // which npm `whatIf` gives too (whatif_parity.test.mjs).
    let opened = playground_scenario(&state);
    let run = what_if(&opened, &state.scenario.actions, state.scenario.until);
    assert_eq!(run, expected["playground"]);
    assert!(
        run["timeline"]["summary"]["evicted"].as_u64().unwrap() > 0,
        "{run}"
    );
}

#[test]
fn what_if_fragments_built_by_the_playground_are_what_the_element_reads() {
    let fixture = json(dir("share").join("whatif-playground.json"));
    let (c, expected) = case(fixture["case"].as_str().expect("case"));
    let mut state = State {
        nodes: Rc::from(expected["panes"]["nodes"].as_str().unwrap()),
        pods: Rc::from(expected["panes"]["pods"].as_str().unwrap()),
        version: fixture["version"].as_str().unwrap().to_string(),
        tab: Tab::Timeline,
        ..State::default()
    };
    state.scenario.actions = c["actions"].as_str().unwrap().to_string();
    state.scenario.until = c["until"].as_i64().unwrap();
    let fragment = encode_fragment(&state).expect("short enough");
    if std::env::var_os("SHARE_BLESS").is_some() {
        fs::write(
            dir("share").join("whatif-playground.txt"),
            format!("{fragment}\n"),
        )
        .expect("write");
    }
    assert_eq!(
        fragment,
        read("whatif-playground.txt").trim(),
        "the playground's encoder changed (SHARE_BLESS=1 after checking the element still reads it)"
    );
    let back = decode_fragment(&fragment).expect("decodes").expect("state");
    assert_eq!(back, state);
    let run = what_if(
        &playground_scenario(&back),
        &back.scenario.actions,
        back.scenario.until,
    );
    assert_eq!(run, expected["playground"]);
}

#[test]
fn a_link_without_actions_opens_no_what_if() {
    // The element's links for examples without the mode carry no `scenario`: the
    // playground opens with no actions and on its default tab.
    let fragment = read("element-stored.txt");
    let state = decode_fragment(fragment.trim())
        .expect("decodes")
        .expect("state");
    assert_eq!(state.scenario.actions, "");
    assert_eq!(state.scenario.until, 0);
    assert_eq!(state.tab, Tab::Results);
}

/// A fragment carrying `json` as the element builds it without CompressionStream: one
/// stored deflate block, base64url (`deflateRawStored` in share.js).
fn stored_fragment(json: &str) -> String {
    let bytes = json.as_bytes();
    let n = u16::try_from(bytes.len()).expect("one stored block");
    let mut packed = vec![1, n as u8, (n >> 8) as u8, !n as u8, (!n >> 8) as u8];
    packed.extend_from_slice(bytes);
    format!("v=1&s={}", b64_encode(&packed))
}

/// The decoder reads every what-if field as the element's `whatIfFromState` does, or
/// refuses the link where it throws (`whatif-fields.json`, read by the Node test too).
#[test]
fn what_if_fields_are_read_as_the_element_reads_them() {
    let fixture = json(dir("share").join("whatif-fields.json"));
    let cases = fixture["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10);
    for c in cases {
        let got = decode_fragment(&stored_fragment(&c["state"].to_string()));
        match c["read"].as_object() {
            Some(read) => {
                let state = got
                    .unwrap_or_else(|e| panic!("{}: {e:?}", c["state"]))
                    .expect("a state");
                assert_eq!(
                    state.scenario.actions,
                    read["actions"].as_str().unwrap(),
                    "{}",
                    c["state"]
                );
                assert_eq!(
                    state.scenario.until,
                    read["until"].as_i64().unwrap(),
                    "{}",
                    c["state"]
                );
            }
            None => assert!(got.is_err(), "{} should be refused", c["state"]),
        }
    }
}
