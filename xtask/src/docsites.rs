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
//! one function called from [`test`].

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
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
/// element is missing.
pub fn package() -> Result<PathBuf, String> {
    let pkg = npm::package_dir();
    if !pkg.join("web").join("taint-check.js").is_file() {
        npm::build()?;
    }
    Ok(pkg)
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

/// Runs a site's browser test (`tests/docsites/<script>`) with Node and Chromium.
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
    step(
        "cargo build -p mdbook-taintlab",
        cargo().args(["build", "-p", "mdbook-taintlab", "--locked"]),
    )?;
    let bin_dir = target_dir().join("debug");
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
