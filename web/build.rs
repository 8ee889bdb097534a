//! Reads the first example (the state a first visit opens, `gallery::first_visit`) at
//! build time, so the page can show it without starting the worker that holds the input
//! layer's readers: a first visit then downloads only the page's own wasm.
//!
//! The example's texts are the `DEDICATED_NODES` and `DEDICATED_PODS` raw strings of
//! `src/gallery.rs`; the readings are written to `$OUT_DIR/presets.rs` as
//! `(kind, text, reading)` rows, the reading in the worker's wire format
//! (`src/glue/wire.rs`, included here). If the texts cannot be found, no row is written
//! and the page reads the example in the worker like any other text (a unit test in
//! `src/parse.rs` fails then, so it does not go unnoticed).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use taintlab_core::KubeVersion;
use taintlab_scenario::{PaneKind, ParsedPane};

#[path = "src/glue/wire.rs"]
#[allow(dead_code)]
mod wire;

/// The raw string `const NAME: &str = r#"..."#;` of `src`, if present.
fn raw_const<'a>(src: &'a str, name: &str) -> Option<&'a str> {
    let head = format!("const {name}: &str = r#\"");
    let start = src.find(&head)? + head.len();
    let len = src[start..].find("\"#;")?;
    Some(&src[start..start + len])
}

fn main() {
    println!("cargo:rerun-if-changed=src/gallery.rs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/glue/wire.rs");
    let gallery = fs::read_to_string("src/gallery.rs").unwrap_or_default();
    let mut out = String::from("&[\n");
    for (name, kind, kind_name) in [
        ("DEDICATED_NODES", PaneKind::Nodes, "Nodes"),
        ("DEDICATED_PODS", PaneKind::Pods, "Pods"),
    ] {
        let Some(text) = raw_const(&gallery, name) else {
            println!(
                "cargo:warning=src/gallery.rs has no raw string {name}; the first example will be read by the worker"
            );
            continue;
        };
        // The same reading as `parse::parse_pane`.
        let parsed = ParsedPane::parse(text, kind, KubeVersion::NEWEST);
        let reading = wire::to_string(&parsed).unwrap_or_default();
        let _ = writeln!(out, "    (PaneKind::{kind_name}, {text:?}, {reading:?}),");
    }
    out.push(']');
    let dir = env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    fs::write(Path::new(&dir).join("presets.rs"), out)
        .unwrap_or_else(|e| panic!("writing presets.rs: {e}"));
}
