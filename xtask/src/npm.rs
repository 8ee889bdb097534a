//! The npm package `taintlab` (crate `wasm/js`): set-up, build and test.
//!
//! * `cargo xtask npm setup` installs what the build and the tests need, each step only
//!   when missing (declared in `TASKS`, main.rs): the `wasm32-unknown-unknown` target,
//!   `wasm-bindgen-cli` at the crate's version, Debian's chromium (headless browser
//!   tests), and `npm ci` in `wasm/js` (wasm-opt from npm `binaryen`, `playwright-core`,
//!   `typescript`).
//! * [`build`] compiles the crate with the `npm` profile, runs wasm-bindgen for the
//!   `web`, `bundler` and `nodejs` targets, shrinks each module with wasm-opt `-Oz`,
//!   assembles the package in `target/npm/taintlab/` and packs it into
//!   `target/npm/taintlab-<version>.tgz`.
//! * [`test`] builds, checks the size budget, installs the tarball into a fresh Node
//!   project (ES module, CommonJS and TypeScript consumers) and a fresh web page, and runs
//!   the Node tests, `tsc --noEmit` and the headless Chromium tests of the docs page.
//!
//! Only `std`: everything else is a command (cargo, wasm-bindgen, node, npm, gzip).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Instant;

use crate::helpers::{cargo, io_err as io, root, run as step, target_dir};

/// The wasm-bindgen targets shipped, each in its own folder of the package.
pub const TARGETS: [&str; 3] = ["web", "bundler", "nodejs"];
/// Largest gzipped wasm module the package should ship (250 KB), YAML parsing included.
pub const MAX_WASM_GZIP_BYTES: u64 = 250_000;
/// What is asserted meanwhile for the engine module (`taintlab`), over the target: the
/// input layer's recognisers for real-world pastes and the scenario pipeline took it to
/// about 292 KB, the scheduler's full filter chain (node affinity, ports, resources,
/// preemption, their explanations) to 367,243 B, the readers of pods tables,
/// go-template taint lines and Terraform errors to 375,439 B, and `kubectl label` lines
/// with PriorityClass resolution to 387,578 B. The Terraform configuration reader and
/// its error explanations add about 12.5 KB gz to the module cargo writes (measured before
/// wasm-bindgen and wasm-opt, about 8 KB after them at this module's usual ratio); with
/// the per-block view and the input fields what-if reads (owners, replicas, grace periods,
/// PodDisruptionBudgets) the engine measured 407,458 B. One shared sort
/// (`taintlab_core::sort`: 17 copies of the standard library's sort became one) and maps
/// and sets built by insertion instead of a sorting `collect` took it to 381,037 B
/// (-27,444 B); with the scheduler changes that landed alongside it measured 382,798 B,
/// and the QoS class summed in two fixed slots instead of a map of its own 381,556 B.
/// Then (each step measured on the engine as shipped): no serde_json in the input layer
/// (its own JSON reader reads Ansible results and jsonpath taint lists) 370,796 B; Go's
/// rune-wise lowercasing instead of `str::to_lowercase` 368,470 B; the exact
/// decimal-to-float conversion of `taintlab_core::float` instead of `str::parse::<f64>`
/// 355,063 B; its shortest float printing instead of the standard library's 344,710 B;
/// the lowercase mapping as 185 runs instead of `char::to_lowercase`'s table 340,064 B;
/// two map types fewer (kubectl's extra flags, the node-name check) 339,334 B; NodePorts'
/// used ports as one sorted list instead of a map of sets 337,347 B; kubectl's flag loop
/// and taint parsing no longer generic over the argument type 334,592 B; the
/// taint-eviction simulator's timers in a binary heap and two more B-tree types fewer
/// 328,410 B. In the input and JSON layers (each measured against the build before it):
/// the YAML reader's anchors in a sorted list, so the input layer holds no hash table
/// (-1,095 B); nodes and pods given as text or objects read through one path (-523 B);
/// text read for nodes or pods lent to the scenario's object reader instead of copied
/// (-2,346 B); ApiError's constructors and the taint and toleration lists written once
/// (-227 B); the input layer's i32 and u32 fields read through its one i64 parse
/// (-228 B). Together with the rest that landed alongside: 324,858 B measured. Then
/// fewer monomorphised collection types in core and the scenario (each step measured on
/// the engine as shipped, against the build before it): the eviction simulator's keys in
/// a small open-addressing table instead of a `BTreeMap<u64, usize>` (-1,657 B);
/// resource scalars, FitError's reason counts and NodeAffinity's PreFilter names in
/// sorted lists instead of `BTreeMap<String, i64>`, `BTreeMap<String, usize>` and
/// `BTreeSet<String>` (-1,405 B, -851 B, -1,457 B); the shared sort's positions ordered
/// by a merge sort written out instead of the standard library's driftsort (-1,899 B);
/// the scenario's node-name lookups in sorted lists instead of two `HashMap` types
/// (-338 B); `PodRequests` built once instead of once per callback (-432 B):
/// 316,599 B measured. Then wasm-opt's settings (`SINGLE_CALLER_INLINING`,
/// `FUNCTION_ORDER`: about -24 KB), Talc's allocator instead of dlmalloc (-2,907 B),
/// no `{:?}` string escaping (-620 B), the scheduler's and the scenario's class lookups
/// through one hash index (`taintlab_core::key_index`) instead of three map types
/// (-1,623 B, -1,476 B, -1,329 B), `ResourceList` a sorted list (-2,506 B), the npm
/// exports' arguments read by one function per argument count (-1,338 B), and in the
/// input, scenario and JSON layers collected iterator chains written as loops, shared
/// error writers and one constructor per repeated struct (about -8.9 KB, each commit
/// names its figure): 275,879 B at dd8e44f. Then core's `NameMap` as the one sorted
/// name list behind `ResourceList`, the scalar resources and FitError's reason counts
/// (-471 B), and the input layer's shared field and message helpers (-1,097 B):
/// 274,305 B at 4262bd5, and 273,982 B at 13662d5. Then the functions that documentation
/// pages do not call (`evictionTimeline`, `nodeFailure`, `admitPod`, `admitNode`,
/// `daemonSet`, `parse`) moved to the tools module: 259,397 B; YAML 1.1 integers printed
/// without 128-bit formatting: 258,874 B; the input layer's own YAML event reader instead
/// of yaml-rust2 (`input/src/yaml_events.rs`): 250,954 B; `kubectl label` without B-tree
/// removal: 249,061 B. Under the target, so the target itself is what is asserted.
pub const ENGINE_CEILING_GZIP_BYTES: u64 = MAX_WASM_GZIP_BYTES;
/// The same for the tools module (`taintlab/tools`): 283,338 B since the input layer
/// reads every placement and resource field of a pod, the new paste forms, PriorityClass
/// objects and `kubectl label` lines (it held 249,208 B before); the Terraform
/// configuration reader as above: 297,889 B. The shared sort and the insertion-built
/// maps (as for the engine) took it to 282,899 B; without serde_json's parser and the
/// standard library's float conversions and case tables (as for the engine) 242,129 B,
/// under the target, and with the engine's map changes 240,650 B; with the input and
/// JSON layers' changes listed for the engine (-3,603 B on this module) and the kubectl
/// parsing changes 234,293 B; with the collection-type changes listed for the engine
/// 231,085 B; with the engine's changes above (wasm-opt's settings about -13 KB of
/// them) 206,003 B at dd8e44f, and 205,145 B at 4262bd5; with the engine's functions
/// that documentation pages do not call (the eviction and node-failure timelines,
/// admission, DaemonSets, `parse`) 230,873 B; with the input layer's own YAML event
/// reader and the engine's other changes above 219,696 B. The ceiling leaves about 2 KB
/// for work in flight.
pub const TOOLS_CEILING_GZIP_BYTES: u64 = 222_000;
/// The same for the what-if module (`taintlab/whatif`): core's cluster simulation with
/// the input layer and the scenario pipeline that build its starting cluster, 473,951 B
/// after `wasm-opt -Oz` when it was added (568,945 B before), plus the Terraform
/// configuration reader as above: 489,718 B measured; with the shared sort and the
/// insertion-built maps (as for the engine) 470,696 B; without serde_json's parser and
/// the standard library's float conversions and case tables (as for the engine)
/// 447,081 B, with the engine's map changes 443,944 B, with the kubectl parsing, the
/// simulator's timers and the input and JSON layers' changes listed for the engine
/// (-3,783 B of them on this module) 434,377 B, with the collection-type changes listed
/// for the engine (and the simulation's own that landed alongside) 429,860 B, with the
/// engine's changes above (wasm-opt's settings about -45 KB of them) 372,189 B at
/// dd8e44f and 370,534 B at 4262bd5, with the input layer's own YAML event reader
/// 360,512 B; the ceiling leaves about 2 KB for work in flight. Its own module so that
/// documentation pages, which load the engine, never download the simulator.
pub const WHATIF_CEILING_GZIP_BYTES: u64 = 362_500;
/// Largest gzipped one-file element (`web/taint-check.js`: the element, its words in three
/// languages, the code-fence reader, the share-link format and the engine's glue, as
/// esbuild minifies them) a documentation page downloads besides the engine's wasm.
pub const ELEMENT_MAX_GZIP_BYTES: u64 = 20_000;
/// The package's wasm modules, each with the cargo features that select its exports, so
/// that a page downloads only what it uses: the engine (`taintlab`: matching, scheduling
/// and the documentation element's `analyze`), the tools (`taintlab/tools`: API
/// validation, `kubectl taint` and `describe`, admission, DaemonSets, the eviction and
/// node-failure timelines, `parse`), the Kubewarden policy decision (`taintlab/policy`)
/// and the what-if simulation (`taintlab/whatif`).
pub const MODULES: [(&str, &[&str]); 4] = [
    (
        "taintlab",
        &["--no-default-features", "--features", "engine"],
    ),
    (
        "taintlab_tools",
        &["--no-default-features", "--features", "tools"],
    ),
    (
        "taintlab_policy",
        &["--no-default-features", "--features", "policy"],
    ),
    (
        "taintlab_whatif",
        &["--no-default-features", "--features", "whatif"],
    ),
];
/// How large a function with a single caller may be for wasm-opt to inline it (binaryen's
/// default is any size). Inlining every such function builds a few very large functions
/// (the input layer's `parse_with` was 44 KB) that gzip compresses worse than the
/// functions they were made of: at e04bcf0, with binaryen 132, the engine measured
/// 316,748 B gz with the default, 299,730 B with 0, 299,164 B with 5, 298,973 B with
/// 10, 299,195 B with 20, 300,236 B with 40 and 309,610 B with 100 (raw bytes grow by
/// about 11 KB); the tools module 231,083 -> 220,807 B and the what-if module
/// 430,279 -> 400,727 B at 20. With the functions ordered by name ([`FUNCTION_ORDER`])
/// 20 is the best of 0, 5, 10, 15, 20, 25, 30 and 40 (engine at 4bfb93c: 278,129 B gz
/// at 10, 277,457 B at 20, 289,070 B with the default).
const SINGLE_CALLER_INLINING: [&str; 2] = ["--one-caller-inline-max-function-size", "20"];
/// After optimising, functions are ordered by name (their Rust path, which wasm-bindgen
/// keeps with `--keep-debug`), so that a module's functions sit together inside gzip's
/// 32 KB window and compress against each other (engine at e04bcf0 with the inlining
/// limit at 10: 298,987 -> 293,024 B gz; at 4bfb93c 283,312 -> 278,129 B gz). Orders
/// tried on top of it gained under 800 B: by crate then size, or greedily by what
/// compresses best after the previous function. The producers and target-features sections
/// (toolchain names and versions, features no loader reads) are dropped.
const FUNCTION_ORDER: [&str; 3] = [
    "--reorder-functions-by-name",
    "--strip-producers",
    "--strip-target-features",
];
/// What the Rust 1.95 wasm output uses; wasm-opt must accept all of it. The last two
/// tell wasm-opt what holds for a module that defines its own memory (it starts zeroed)
/// and whose data starts at 1 MiB (the first KiB is never used).
const WASM_FEATURES: [&str; 8] = [
    "--zero-filled-memory",
    "--low-memory-unused",
    "--enable-bulk-memory",
    "--enable-reference-types",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-multivalue",
];

fn js_dir() -> PathBuf {
    root().join("wasm").join("js")
}

/// Where the package is assembled and packed.
pub fn out_dir() -> PathBuf {
    target_dir().join("npm")
}

/// The assembled package.
pub fn package_dir() -> PathBuf {
    out_dir().join("taintlab")
}

fn bin(name: &str) -> PathBuf {
    js_dir().join("node_modules").join(".bin").join(name)
}

/// Debian's chromium, or `$CHROMIUM`.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// The workspace version (`[workspace.package] version`).
fn workspace_version() -> Result<String, String> {
    let path = root().join("Cargo.toml");
    let text = fs::read_to_string(&path).map_err(io("cannot read", &path))?;
    let mut in_package = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_package = l == "[workspace.package]";
            continue;
        }
        if in_package && let Some(v) = l.strip_prefix("version") {
            let v = v.trim().trim_start_matches('=').trim().trim_matches('"');
            return Ok(v.to_string());
        }
    }
    Err("no version in [workspace.package] of Cargo.toml".into())
}

/// The `"version"` of a package.json.
fn json_version(text: &str) -> Option<String> {
    let at = text.find("\"version\"")?;
    let rest = &text[at + "\"version\"".len()..];
    let start = rest.find('"')? + 1;
    let end = start + rest[start..].find('"')?;
    Some(rest[start..end].to_string())
}

fn copy_dir_files(from: &Path, to: &Path, exts: &[&str]) -> Result<(), String> {
    fs::create_dir_all(to).map_err(io("cannot create", to))?;
    for entry in fs::read_dir(from).map_err(io("cannot read", from))? {
        let path = entry.map_err(io("cannot read", from))?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_file() && exts.iter().any(|e| name.ends_with(e)) {
            fs::copy(&path, to.join(name)).map_err(io("cannot copy", &path))?;
        }
    }
    Ok(())
}

/// Copies a directory with everything under it.
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(io("cannot create", to))?;
    for entry in fs::read_dir(from).map_err(io("cannot read", from))? {
        let path = entry.map_err(io("cannot read", from))?.path();
        let dest = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_tree(&path, &dest)?;
        } else {
            fs::copy(&path, &dest).map_err(io("cannot copy", &path))?;
        }
    }
    Ok(())
}

/// Builds the package (three wasm-bindgen targets, wasm-opt -Oz) and packs it into
/// `target/npm/taintlab-<version>.tgz`.
pub fn build() -> Result<(), String> {
    build_package().map(|_| ())
}

/// [`build`], returning the tarball's path.
fn build_package() -> Result<PathBuf, String> {
    let version = workspace_version()?;
    let manifest = js_dir().join("npm").join("package.json");
    let manifest_text = fs::read_to_string(&manifest).map_err(io("cannot read", &manifest))?;
    match json_version(&manifest_text) {
        Some(v) if v == version => {}
        other => {
            return Err(format!(
                "wasm/js/npm/package.json has version {other:?}, the workspace {version:?}: make them equal"
            ));
        }
    }

    let pkg = package_dir();
    if pkg.exists() {
        fs::remove_dir_all(&pkg).map_err(io("cannot remove", &pkg))?;
    }
    let stash = out_dir().join("modules");
    fs::create_dir_all(&stash).map_err(io("cannot create", &stash))?;
    let built = target_dir()
        .join("wasm32-unknown-unknown")
        .join("npm")
        .join("taintlab_js.wasm");
    for (module, features) in MODULES {
        step(
            &format!("cargo build -p taintlab-js {features:?} (wasm32, profile npm)"),
            cargo()
                .args([
                    "build",
                    "--profile",
                    "npm",
                    "--target",
                    "wasm32-unknown-unknown",
                    "-p",
                    "taintlab-js",
                    "--locked",
                ])
                .args(features),
        )?;
        let wasm = stash.join(format!("{module}.wasm"));
        fs::copy(&built, &wasm).map_err(io("cannot copy", &built))?;
        for target in TARGETS {
            step(
                &format!("wasm-bindgen {module} --target {target}"),
                // `--keep-debug` keeps the function names for wasm-opt's ordering
                // ([`FUNCTION_ORDER`]); wasm-opt does not write them out.
                Command::new("wasm-bindgen")
                    .args(["--target", target, "--out-name", module, "--keep-debug"])
                    .arg("--out-dir")
                    .arg(pkg.join(target))
                    .arg(&wasm),
            )?;
        }
    }

    // Four modules per target. Targets often produce byte-identical modules: shrink each
    // distinct one once (two at a time) and copy the result to its twins.
    println!(
        "==> wasm-opt -Oz --converge {} {}",
        SINGLE_CALLER_INLINING.join(" "),
        FUNCTION_ORDER.join(" ")
    );
    let start = Instant::now();
    let opt = bin("wasm-opt");
    let mut distinct: Vec<(Vec<u8>, Vec<PathBuf>)> = Vec::new();
    for (module, _) in MODULES {
        for target in TARGETS {
            let file = pkg.join(target).join(format!("{module}_bg.wasm"));
            let bytes = fs::read(&file).map_err(io("cannot read", &file))?;
            match distinct.iter_mut().find(|(b, _)| *b == bytes) {
                Some((_, files)) => files.push(file),
                None => distinct.push((bytes, vec![file])),
            }
        }
    }
    for group in distinct.chunks(2) {
        let mut jobs: Vec<(&[PathBuf], Child)> = Vec::new();
        for (_, files) in group {
            let Some(file) = files.first() else { continue };
            // `--converge` repeats -Oz until the module stops shrinking (a few hundred
            // bytes gz per module, for seconds of build time).
            let child = Command::new(&opt)
                .args(["-Oz", "--converge"])
                .args(SINGLE_CALLER_INLINING)
                .args(FUNCTION_ORDER)
                .args(WASM_FEATURES)
                .arg(file)
                .arg("-o")
                .arg(file)
                .spawn()
                .map_err(|e| {
                    format!(
                        "could not start {}: {e} (run `cargo xtask npm setup`)",
                        opt.display()
                    )
                })?;
            jobs.push((files, child));
        }
        for (files, mut child) in jobs {
            let status = child.wait().map_err(|e| format!("wasm-opt: {e}"))?;
            let Some((first, twins)) = files.split_first() else {
                continue;
            };
            if !status.success() {
                return Err(format!("wasm-opt on {} failed ({status})", first.display()));
            }
            for twin in twins {
                fs::copy(first, twin).map_err(io("cannot copy", first))?;
            }
        }
    }
    println!(
        "<== wasm-opt ({} distinct modules): {:.1}s",
        distinct.len(),
        start.elapsed().as_secs_f64()
    );

    // The nodejs build is CommonJS inside a `"type": "module"` package.
    let cjs = pkg.join("nodejs").join("package.json");
    fs::write(&cjs, "{\n  \"type\": \"commonjs\"\n}\n").map_err(io("cannot write", &cjs))?;
    copy_dir_files(
        &js_dir().join("element"),
        &pkg.join("element"),
        &[".js", ".d.ts", ".css"],
    )?;
    // The Hugo module (docs/hugo): layouts a site mounts from node_modules/taintlab/hugo.
    copy_tree(&root().join("docs").join("hugo"), &pkg.join("hugo"))?;
    // The Docusaurus plugin, remark plugin and component (`taintlab/docusaurus`).
    copy_dir_files(
        &js_dir().join("docusaurus"),
        &pkg.join("docusaurus"),
        &[".js", ".d.ts"],
    )?;
    fs::copy(&manifest, pkg.join("package.json")).map_err(io("cannot copy", &manifest))?;
    // The one-file element for static sites, beside the engine's wasm (element/build.mjs).
    step(
        "esbuild: web/taint-check.js (the one-file element)",
        Command::new("node")
            .arg(js_dir().join("element").join("build.mjs"))
            .arg(&pkg)
            .current_dir(js_dir()),
    )?;
    let readme = js_dir().join("README.md");
    fs::copy(&readme, pkg.join("README.md")).map_err(io("cannot copy", &readme))?;

    step(
        "npm pack",
        Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(out_dir())
            .current_dir(&pkg),
    )?;
    let tarball = out_dir().join(format!("taintlab-{version}.tgz"));
    if !tarball.exists() {
        return Err(format!("npm pack did not write {}", tarball.display()));
    }
    for (module, _) in MODULES {
        for target in TARGETS {
            let (raw, gz) = wasm_sizes(&pkg.join(target).join(format!("{module}_bg.wasm")))?;
            println!("    {target}/{module}_bg.wasm: {raw} bytes, {gz} bytes gzipped");
        }
    }
    println!("    package: {}", tarball.display());
    Ok(tarball)
}

/// Raw and `gzip -9` sizes of a file.
pub fn wasm_sizes(file: &Path) -> Result<(u64, u64), String> {
    let raw = fs::metadata(file).map_err(io("cannot read", file))?.len();
    let out = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(file)
        .output()
        .map_err(|e| format!("could not run gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip {} failed", file.display()));
    }
    Ok((raw, out.stdout.len() as u64))
}

/// Builds, checks the size budget, installs the tarball into a fresh Node project and a
/// fresh web page, and runs the Node, TypeScript and browser tests.
pub fn test() -> Result<(), String> {
    let tarball = build_package()?;
    let pkg = package_dir();
    let js = js_dir();

    for (module, _) in MODULES {
        let ceiling = match module {
            "taintlab" => ENGINE_CEILING_GZIP_BYTES,
            "taintlab_tools" => TOOLS_CEILING_GZIP_BYTES,
            "taintlab_whatif" => WHATIF_CEILING_GZIP_BYTES,
            _ => MAX_WASM_GZIP_BYTES,
        };
        for target in TARGETS {
            let file = format!("{target}/{module}_bg.wasm");
            let (_, gz) = wasm_sizes(&pkg.join(&file))?;
            println!("    {file:<40} {gz:>8} B gz (target {MAX_WASM_GZIP_BYTES})");
            if gz > ceiling {
                return Err(format!(
                    "{file} is {gz} bytes gzipped, over the asserted {ceiling}-byte ceiling"
                ));
            }
        }
    }
    let (_, element_gz) = wasm_sizes(&pkg.join("web").join("taint-check.js"))?;
    println!(
        "    {:<40} {element_gz:>8} B gz (at most {ELEMENT_MAX_GZIP_BYTES})",
        "web/taint-check.js"
    );
    if element_gz > ELEMENT_MAX_GZIP_BYTES {
        return Err(format!(
            "web/taint-check.js is {element_gz} bytes gzipped, over {ELEMENT_MAX_GZIP_BYTES}"
        ));
    }
    println!(
        "    size: every module at most {MAX_WASM_GZIP_BYTES} bytes gzipped as the target; asserted: the engine at {ENGINE_CEILING_GZIP_BYTES}, the tools at {TOOLS_CEILING_GZIP_BYTES}, what-if at {WHATIF_CEILING_GZIP_BYTES}, the policy at the target"
    );

    step(
        "cargo test -p taintlab-json (the API layer, natively)",
        cargo().args(["test", "-q", "-p", "taintlab-json", "--locked"]),
    )?;
    step(
        "node --test (nodejs build)",
        Command::new("node")
            .arg("--test")
            .arg(js.join("test").join("node"))
            .env("TAINTLAB_PKG", &pkg)
            .current_dir(&js),
    )?;

    // A fresh project that installs the tarball the way a user does.
    let consumer = out_dir().join("consumer");
    if consumer.exists() {
        fs::remove_dir_all(&consumer).map_err(io("cannot remove", &consumer))?;
    }
    copy_dir_files(
        &js.join("test").join("consumer"),
        &consumer,
        &[".json", ".mjs", ".cjs", ".ts", ".html"],
    )?;
    step(
        "npm install <tarball> (fresh project)",
        Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--offline",
            ])
            .arg(&tarball)
            .current_dir(&consumer),
    )?;
    step(
        "fresh project: import (ES module)",
        Command::new("node").arg("esm.mjs").current_dir(&consumer),
    )?;
    step(
        "fresh project: require (CommonJS)",
        Command::new("node").arg("cjs.cjs").current_dir(&consumer),
    )?;
    for config in ["tsconfig.json", "tsconfig.bundler.json"] {
        step(
            &format!("tsc --noEmit -p {config}"),
            Command::new(bin("tsc"))
                .args(["--noEmit", "-p", config])
                .current_dir(&consumer),
        )?;
    }

    let browser = chromium().ok_or("chromium not found (run `cargo xtask npm setup`)")?;
    step(
        "headless Chromium: docs page and fresh web page",
        Command::new("node")
            .arg(js.join("test").join("browser").join("run.mjs"))
            .env("TAINTLAB_PKG", &pkg)
            .env("TAINTLAB_DOCS", root().join("docs"))
            .env("TAINTLAB_CONSUMER", &consumer)
            .env("CHROMIUM", browser)
            .current_dir(&js),
    )?;
    Ok(())
}
