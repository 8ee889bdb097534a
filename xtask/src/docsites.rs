//! `cargo xtask docsites`: real documentation sites built with `<taint-check>` widgets and
//! checked in headless Chromium (tests/docsites/, see its README).
//!
//! * mdBook: installs mdBook [`MDBOOK_VERSION`] from crates.io into
//!   `<target>/tools/` (guarded: skipped when that binary is there), builds the
//!   `mdbook-taintlab` preprocessor, builds the books in `tests/docsites/mdbook/` with the
//!   npm package (`target/npm/taintlab`) as their `node_modules/taintlab`, and runs
//!   `tests/docsites/mdbook/test.mjs` on them.
//!
//! Every site test uses [`package`], [`site_copy`] and [`browser_test`]; a generator adds
//! one function called from [`test`]. Each site also shows the what-if widget of
//! `tests/docsites/common/whatif.json`, which its test compares with the native command
//! line's answer ([`whatif_expected`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use crate::helpers::{cargo, io_err as io, root, run as step, target_dir};
use crate::npm;

/// The mdBook release the site test builds with. mdBook 0.4's JSON shape (`sections`,
/// `__non_exhaustive`) is covered by the preprocessor's unit tests on a book captured
/// from 0.4.52 (mdbook/tests/fixtures), so that CI compiles one mdBook (about 3.5 min of
/// CPU), not two; `TAINTLAB_MDBOOK=0.4.52 cargo xtask docsites` runs the same site test
/// with 0.4.52.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// The mdBook release to build with: `$TAINTLAB_MDBOOK`, or [`MDBOOK_VERSION`].
fn mdbook_version() -> String {
    std::env::var("TAINTLAB_MDBOOK")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| MDBOOK_VERSION.to_string())
}

/// Builds every documentation site and checks it in the browser.
pub fn test() -> Result<(), String> {
    let start = Instant::now();
    mdbook()?;
    hugo()?;
    docusaurus()?;
    println!(
        "<== doc sites: {:.1}s in all",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The assembled npm package (`target/npm/taintlab`), built first when its one-file
/// element is missing or older than a source it is built from ([`PACKAGE_SOURCES`]), so
/// that `cargo xtask docsites` after an edit never tests the previous build.
pub fn package() -> Result<PathBuf, String> {
    let pkg = npm::package_dir();
    let built = fs::metadata(pkg.join("web").join("taint-check.js")).and_then(|m| m.modified());
    let stale = match built {
        Ok(built) => PACKAGE_SOURCES
            .iter()
            .filter_map(|dir| newest_change(&root().join(dir)))
            .any(|changed| changed > built),
        Err(_) => true,
    };
    if stale {
        npm::build()?;
    }
    Ok(pkg)
}

/// What the npm package is built from: the sources and manifests of the crates its wasm
/// links (taintlab-js, the JSON functions, the scenario, the input layer, the policy,
/// core; not their tests, benchmarks or fuzz targets), its JavaScript, types and
/// package.json, and the workspace's manifest and lock file.
const PACKAGE_SOURCES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "core/Cargo.toml",
    "core/src",
    "input/Cargo.toml",
    "input/src",
    "policy/Cargo.toml",
    "policy/src",
    "scenario/Cargo.toml",
    "scenario/src",
    "json/Cargo.toml",
    "json/src",
    "wasm/js/Cargo.toml",
    "wasm/js/src",
    "wasm/js/element",
    "wasm/js/types",
    "wasm/js/npm",
];

/// The latest modification time of `path` or of any file below it; `None` when there is
/// nothing to read.
fn newest_change(path: &Path) -> Option<std::time::SystemTime> {
    let meta = fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    fs::read_dir(path)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| newest_change(&entry.path()))
        .max()
}

/// Where the sites are built: `<target>/docsites/<name>`.
pub fn site_dir(name: &str) -> PathBuf {
    target_dir().join("docsites").join(name)
}

/// A fresh copy of `tests/docsites/<from>` at `to`, with the npm package as its
/// `node_modules/taintlab` (a symbolic link), as a site that ran `npm install taintlab`.
pub fn site_copy(from: &str, to: &Path) -> Result<(), String> {
    if to.exists() {
        fs::remove_dir_all(to).map_err(io("cannot remove", to))?;
    }
    copy_tree(&root().join("tests").join("docsites").join(from), to)?;
    let modules = to.join("node_modules");
    fs::create_dir_all(&modules).map_err(io("cannot create", &modules))?;
    let link = modules.join("taintlab");
    let pkg = package()?;
    #[cfg(unix)]
    std::os::unix::fs::symlink(&pkg, &link).map_err(io("cannot link", &link))?;
    #[cfg(not(unix))]
    copy_tree(&pkg, &link)?;
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(io("cannot create", to))?;
    for entry in fs::read_dir(from).map_err(io("cannot read", from))? {
        let entry = entry.map_err(io("cannot read", from))?;
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &dest)?;
        } else {
            fs::copy(&path, &dest).map_err(io("cannot copy", &path))?;
        }
    }
    Ok(())
}

/// The native answer for the what-if widget every site shows: `taintlab what-if -o json`
/// (the command-line tool, built here) on `tests/docsites/common/whatif.yaml` with the
/// case's action lines as the command line's flags ([`cli_flags`]) and its `until`,
/// written to `<target>/docsites/whatif-expected.json` once per run. [`browser_test`]
/// gives its path to every site test as `TAINTLAB_WHATIF_EXPECTED`.
pub fn whatif_expected() -> Result<PathBuf, String> {
    static DONE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let common = root().join("tests").join("docsites").join("common");
        let spec_file = common.join("whatif.json");
        let bad = |what: &str| format!("{}: {what}", spec_file.display());
        let text = fs::read_to_string(&spec_file).map_err(io("cannot read", &spec_file))?;
        let spec: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let yaml = common.join(
            spec["yaml"]
                .as_str()
                .ok_or_else(|| bad("`yaml` is not a file name"))?,
        );
        let until = spec["until"]
            .as_u64()
            .ok_or_else(|| bad("`until` is not a number of seconds"))?;
        let lines: Vec<&str> = spec["actions"]
            .as_array()
            .and_then(|a| a.iter().map(serde_json::Value::as_str).collect())
            .ok_or_else(|| bad("`actions` is not a list of action lines"))?;
        let flags = cli_flags(&lines).map_err(|e| bad(&e))?;
        let bin = native_bins()?.join("taintlab");
        let out = Command::new(&bin)
            .arg("what-if")
            .arg("-f")
            .arg(&yaml)
            .args(&flags)
            .args(["--until", &until.to_string(), "-o", "json"])
            .output()
            .map_err(io("cannot run", &bin))?;
        // 0: every pod placed and every drain finished, 1: not; 2: unreadable input.
        if !matches!(out.status.code(), Some(0 | 1)) {
            return Err(format!(
                "taintlab what-if -f {} {}: {}\n{}",
                yaml.display(),
                flags.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let dir = target_dir().join("docsites");
        fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        let file = dir.join("whatif-expected.json");
        fs::write(&file, &out.stdout).map_err(io("cannot write", &file))?;
        println!(
            "    the what-if widgets' native answer: taintlab what-if {} --until {until}",
            flags.join(" ")
        );
        Ok(file)
    })
    .clone()
}

/// Builds the command-line tool (`taintlab`) and the mdBook preprocessor
/// (`mdbook-taintlab`) into `<target>/debug/`, once per run, as the integration tests named
/// `cli` of both crates need them: with the features `cargo test --workspace` resolves, so
/// that after CI's test step nothing is compiled again (`cargo build -p` of either would
/// resolve other features for serde, syn, the core and the CLI's progress bar, and
/// rebuild them). Returns that directory.
pub fn native_bins() -> Result<PathBuf, String> {
    static DONE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DONE.get_or_init(|| {
        step(
            "the taintlab and mdbook-taintlab binaries (cargo test --workspace --no-run --test cli)",
            cargo().args(["test", "--workspace", "--locked", "--no-run", "--test", "cli"]),
        )?;
        Ok(target_dir().join("debug"))
    })
    .clone()
}

/// `taintlab what-if`'s flags for action lines in the form the widgets take
/// (`at 0 drain node-a --ignore-daemonsets`, `at 60 uncordon node-a`, `taint n1
/// k=v:NoExecute`): each action as its flag with `@SECONDS`, the drain flags once (the
/// command line applies them to every drain). The node actions and taints only, which is
/// what the doc sites' case uses; anything else is an error naming the line.
pub fn cli_flags(lines: &[&str]) -> Result<Vec<String>, String> {
    let mut flags = Vec::new();
    let mut drain_flags: Option<Vec<String>> = None;
    for line in lines {
        let bad = |why: &str| format!("action line {line:?}: {why}");
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let mut at = "0";
        if words.first() == Some(&"at") {
            at = words
                .get(1)
                .copied()
                .ok_or_else(|| bad("no second after `at`"))?;
            if at.trim_end_matches('s').parse::<u64>().is_err() {
                return Err(bad("`at` takes a number of seconds"));
            }
            words.drain(..2);
        }
        let (verb, node, rest) = match words.as_slice() {
            [verb, node, rest @ ..] => (*verb, node.trim_start_matches("node/"), rest),
            _ => return Err(bad("an action and a node")),
        };
        let flag = match verb {
            "cordon" | "uncordon" | "drain" | "fail" | "recover" => verb,
            "delete" => "delete-node",
            "taint" | "untaint" => {
                let [spec] = rest else {
                    return Err(bad("one taint after the node"));
                };
                let spec = spec.trim_end_matches('-');
                flags.extend([format!("--{verb}"), format!("{node}={spec}@{at}")]);
                continue;
            }
            _ => return Err(bad("not an action the doc-site case turns into flags")),
        };
        if verb == "drain" {
            let given: Vec<String> = rest.iter().map(|f| f.to_string()).collect();
            if given.iter().any(|f| !f.starts_with("--")) {
                return Err(bad("drain takes flags after the node"));
            }
            if drain_flags.as_ref().is_some_and(|d| *d != given) {
                return Err(bad("every drain needs the same flags on the command line"));
            }
            drain_flags = Some(given);
        } else if !rest.is_empty() {
            return Err(bad("nothing may follow the node"));
        }
        flags.extend([format!("--{flag}"), format!("{node}@{at}")]);
    }
    flags.extend(drain_flags.unwrap_or_default());
    Ok(flags)
}

/// Runs a site's browser test (`tests/docsites/<script>`) with Node and Chromium, with
/// `TAINTLAB_WHATIF_EXPECTED` ([`whatif_expected`]) and `TAINTLAB_PKG` (the package the
/// site was built with) set.
pub fn browser_test(
    what: &str,
    script: &str,
    args: &[&Path],
    env: &[(&str, &str)],
) -> Result<(), String> {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .or_else(|| std::env::var_os("CHROMIUM").map(PathBuf::from))
        .ok_or("chromium not found (run `cargo xtask npm setup`)")?;
    let mut c = Command::new("node");
    c.arg(root().join("tests").join("docsites").join(script))
        .args(args)
        .env("CHROMIUM", chromium)
        .env("TAINTLAB_WHATIF_EXPECTED", whatif_expected()?)
        .env("TAINTLAB_PKG", package()?)
        .current_dir(root());
    for (k, v) in env {
        c.env(k, v);
    }
    step(what, &mut c)
}

/// `mdbook`, installed from crates.io at `version` into `<target>/tools/` when missing
/// (without mdBook's `serve` and `watch` features, which the build does not use).
pub fn mdbook_bin(version: &str) -> Result<PathBuf, String> {
    let dir = target_dir().join("tools").join(format!("mdbook-{version}"));
    let bin = dir.join("bin").join("mdbook");
    let have = Command::new(&bin)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if have.as_deref() == Some(&format!("mdbook v{version}")) {
        return Ok(bin);
    }
    let start = Instant::now();
    step(
        &format!("cargo install mdbook {version} (one time, a few minutes)"),
        Command::new("cargo")
            .args(["install", "mdbook", "--version", version, "--locked"])
            .args(["--no-default-features", "--features", "search", "--root"])
            .arg(&dir)
            .env("CARGO_TARGET_DIR", target_dir().join("tools").join("build")),
    )?;
    println!(
        "<== mdbook {version} installed in {:.0}s",
        start.elapsed().as_secs_f64()
    );
    Ok(bin)
}

/// The mdBook site test: the English book and the zh-CN book, built with the
/// preprocessor, checked in Chromium.
pub fn mdbook() -> Result<(), String> {
    let version = mdbook_version();
    let mdbook = mdbook_bin(&version)?;
    let bin_dir = native_bins()?;
    let path = std::env::join_paths(
        std::iter::once(bin_dir.clone()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .map_err(|e| format!("PATH: {e}"))?;
    let mut built = Vec::new();
    for book in ["book", "book-zh"] {
        let dir = site_dir("mdbook").join(book);
        site_copy(&format!("mdbook/{book}"), &dir)?;
        let start = Instant::now();
        step(
            &format!("mdbook build tests/docsites/mdbook/{book}"),
            Command::new(&mdbook)
                .arg("build")
                .arg(&dir)
                .env("PATH", &path),
        )?;
        println!("    built in {:.1}s", start.elapsed().as_secs_f64());
        built.push(dir.join("book"));
    }
    let args: Vec<&Path> = built.iter().map(PathBuf::as_path).collect();
    browser_test(
        "headless Chromium: the mdBook books",
        "mdbook/test.mjs",
        &args,
        &[("MDBOOK_VERSION", version.as_str())],
    )
}

/// The Hugo site test: the package's Hugo module in a site built with Debian's hugo (see
/// `hugo_site`).
pub fn hugo() -> Result<(), String> {
    crate::hugo_site::test(&package()?)
}

/// The Docusaurus site test: `taintlab/docusaurus` in a Docusaurus 3 site (see
/// `docusaurus_site`).
pub fn docusaurus() -> Result<(), String> {
    crate::docusaurus_site::test(&package()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_lines_become_the_command_lines_flags() {
        assert_eq!(
            cli_flags(&["at 0 drain node-a", "at 60 uncordon node-a"]).unwrap(),
            ["--drain", "node-a@0", "--uncordon", "node-a@60"]
        );
        assert_eq!(
            cli_flags(&[
                "drain node/n1 --ignore-daemonsets --force",
                "at 30 taint n2 k=v:NoExecute",
                "at 90 untaint n2 k:NoExecute-",
                "at 120 delete n3",
                "at 5s drain n4 --ignore-daemonsets --force",
            ])
            .unwrap(),
            [
                "--drain",
                "n1@0",
                "--taint",
                "n2=k=v:NoExecute@30",
                "--untaint",
                "n2=k:NoExecute@90",
                "--delete-node",
                "n3@120",
                "--drain",
                "n4@5s",
                "--ignore-daemonsets",
                "--force"
            ]
        );
        for (line, why) in [
            ("at soon fail n1", "number of seconds"),
            ("scale deployment/web 3", "not an action"),
            ("cordon", "an action and a node"),
            ("cordon n1 n2", "nothing may follow"),
            ("taint n1", "one taint"),
        ] {
            let e = cli_flags(&[line]).unwrap_err();
            assert!(e.contains(why) && e.contains(line), "{line}: {e}");
        }
        let e = cli_flags(&["drain n1 --force", "drain n2"]).unwrap_err();
        assert!(e.contains("the same flags"), "{e}");
    }

    #[test]
    fn the_doc_sites_what_if_case_is_readable() {
        let spec: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(root().join("tests/docsites/common/whatif.json")).unwrap(),
        )
        .unwrap();
        let lines: Vec<&str> = spec["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(!cli_flags(&lines).unwrap().is_empty());
        assert!(spec["until"].as_u64().is_some());
        let yaml = spec["yaml"].as_str().unwrap();
        assert!(root().join("tests/docsites/common").join(yaml).is_file());
    }

    #[test]
    fn the_newest_change_below_a_folder_counts() {
        use std::time::{Duration, SystemTime};
        let dir = target_dir().join("tmp").join("docsites-newest-change");
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let new = old + Duration::from_secs(60);
        for (file, when) in [("a.rs", old), ("sub/b.rs", new)] {
            let f = fs::File::create(dir.join(file)).unwrap();
            f.set_modified(when).unwrap();
        }
        assert_eq!(newest_change(&dir), Some(new));
        assert_eq!(newest_change(&dir.join("a.rs")), Some(old));
        assert_eq!(newest_change(&dir.join("missing")), None);
        fs::remove_dir_all(&dir).unwrap();
        // Every source named exists, so a renamed folder cannot drop out unnoticed.
        for source in PACKAGE_SOURCES {
            assert!(root().join(source).exists(), "{source}");
        }
    }
}
