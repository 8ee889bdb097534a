//! The playground's tasks: install its tools, build it with Trunk, serve it on
//! localhost, and test it (component tests in headless Chromium, the download-size
//! budget, the end-to-end suite).
//!
//! Every install is guarded, so a machine that already has the right version skips it:
//! trunk 0.21.14 and wasm-bindgen-cli 0.2.130 (which must equal the `wasm-bindgen`
//! crate in Cargo.lock), the wasm32 target, Debian's chromium and chromedriver, and the
//! npm packages (binaryen 132 for wasm-opt, playwright-core for the end-to-end suite).

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Trunk release that builds with the project's Rust.
const TRUNK_VERSION: &str = "0.21.14";
/// Must equal the `wasm-bindgen` crate version pinned in web/Cargo.toml.
const WASM_BINDGEN_VERSION: &str = "0.2.130";
/// Initial download budget: wasm, JS and CSS that index.html loads, gzip -9.
const BUDGET_GZ_BYTES: u64 = 450_000;
/// Where `cargo xtask serve` listens unless TAINTLAB_PORT says otherwise.
const DEFAULT_PORT: &str = "8080";
/// Written next to node_modules after `npm ci`: a hash of the package-lock.json it used.
const NPM_STAMP: &str = "node_modules/.taintlab-lock-hash";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Runs a command to completion, printing its name and duration.
fn run(name: &str, cmd: &mut Command) -> Result<(), String> {
    println!("==> {name}");
    let start = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("{name}: could not start {:?}: {e}", cmd.get_program()))?;
    println!("<== {name}: {:.1}s", start.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}

/// The command's stdout, trimmed, when it runs and succeeds.
fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// PATH with node_modules/.bin first, so Trunk finds npm's wasm-opt (binaryen 132).
fn tool_path() -> OsString {
    let mut dirs = vec![root().join("node_modules").join(".bin")];
    if let Some(home) = env::var_os("CARGO_HOME") {
        dirs.push(PathBuf::from(home).join("bin"));
    } else if let Some(home) = env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo").join("bin"));
    }
    if let Some(path) = env::var_os("PATH") {
        dirs.extend(env::split_paths(&path));
    }
    env::join_paths(dirs).unwrap_or_default()
}

fn cargo() -> Command {
    let mut c = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn tool(program: &str) -> Command {
    let mut c = Command::new(program);
    c.current_dir(root()).env("PATH", tool_path());
    c
}

/// A small stable hash (FNV-1a) of a file, to notice a changed package-lock.json.
fn file_hash(path: &Path) -> Option<String> {
    let bytes = fs::read(path).ok()?;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    Some(format!("{h:016x}"))
}

fn apt_install(packages: &[&str]) -> Result<(), String> {
    let is_root = output("id", &["-u"]).as_deref() == Some("0");
    let (program, prefix): (&str, &[&str]) = if is_root {
        ("apt-get", &[])
    } else {
        ("sudo", &["apt-get"])
    };
    run(
        "apt-get update",
        Command::new(program).args(prefix).arg("update"),
    )?;
    run(
        &format!("apt-get install {}", packages.join(" ")),
        Command::new(program)
            .args(prefix)
            .args(["install", "-y", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// Installs what the playground needs and the machine lacks.
pub fn setup() -> Result<(), String> {
    let targets = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !targets
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        run(
            "rustup target add wasm32-unknown-unknown",
            Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]),
        )?;
    }

    let want_trunk = format!("trunk {TRUNK_VERSION}");
    if output_in_tool_path("trunk", &["--version"]).as_deref() != Some(want_trunk.as_str()) {
        run(
            &format!("cargo install trunk {TRUNK_VERSION} (about 12 minutes)"),
            cargo().args(["install", "trunk", "--version", TRUNK_VERSION, "--locked"]),
        )?;
    }

    let want_bindgen = format!("wasm-bindgen {WASM_BINDGEN_VERSION}");
    if output_in_tool_path("wasm-bindgen", &["--version"]).as_deref() != Some(want_bindgen.as_str())
    {
        // Not --locked: the CLI's lockfile names a webpki-roots release some mirrors lack.
        run(
            &format!("cargo install wasm-bindgen-cli {WASM_BINDGEN_VERSION} (about 5 minutes)"),
            cargo().args([
                "install",
                "wasm-bindgen-cli",
                "--version",
                WASM_BINDGEN_VERSION,
            ]),
        )?;
    }

    let mut apt = Vec::new();
    if on_path("chromium").is_none() || on_path("chromedriver").is_none() {
        apt.extend(["chromium", "chromium-driver"]);
    }
    if on_path("node").is_none() || on_path("npm").is_none() {
        apt.extend(["nodejs", "npm"]);
    }
    if on_path("gzip").is_none() {
        apt.push("gzip");
    }
    if !apt.is_empty() {
        apt_install(&apt)?;
    }

    let lock = root().join("package-lock.json");
    let stamp = root().join(NPM_STAMP);
    let want = file_hash(&lock).ok_or("package-lock.json is missing")?;
    let have = fs::read_to_string(&stamp).unwrap_or_default();
    if !root().join("node_modules").is_dir() || have.trim() != want {
        run(
            "npm ci (binaryen, playwright-core)",
            tool("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"),
        )?;
        fs::write(&stamp, &want).map_err(|e| format!("writing {}: {e}", stamp.display()))?;
    }
    Ok(())
}

fn output_in_tool_path(program: &str, args: &[&str]) -> Option<String> {
    let out = tool(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Builds the playground into dist/ (release, offline, wasm-opt from npm).
pub fn build() -> Result<(), String> {
    setup()?;
    run(
        "trunk build --release (playground into dist/)",
        tool("trunk").args(["build", "--release", "--offline", "--skip-version-check"]),
    )
}

/// Builds and serves the playground on 127.0.0.1 until stopped.
pub fn serve() -> Result<(), String> {
    setup()?;
    let port = env::var("TAINTLAB_PORT").unwrap_or_else(|_| DEFAULT_PORT.into());
    println!();
    println!("    Taintlab playground: http://127.0.0.1:{port}/");
    println!("    (built first; it reloads on changes; Ctrl+C stops it)");
    println!();
    run(
        "trunk serve",
        tool("trunk").args([
            "serve",
            "--release",
            "--offline",
            "--skip-version-check",
            "--address",
            "127.0.0.1",
            "--port",
            &port,
        ]),
    )
}

/// gzip -9 size of a file.
fn gzip_size(path: &Path) -> Result<u64, String> {
    let out = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(path)
        .output()
        .map_err(|e| format!("gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip failed on {}", path.display()));
    }
    Ok(out.stdout.len() as u64)
}

/// The wasm, JS and CSS files dist/index.html loads (the worker is loaded on demand).
fn initial_files(dist: &Path) -> Result<Vec<PathBuf>, String> {
    let html = fs::read_to_string(dist.join("index.html"))
        .map_err(|e| format!("reading dist/index.html: {e}"))?;
    let mut files = Vec::new();
    for chunk in html.split(['"', '\'', '(', ')', ' ', '>', '<']) {
        let name = chunk.trim_start_matches("./").trim_start_matches('/');
        if (name.ends_with(".wasm") || name.ends_with(".js") || name.ends_with(".css"))
            && !name.contains('/')
        {
            let p = dist.join(name);
            if p.is_file() && !files.contains(&p) {
                files.push(p);
            }
        }
    }
    if !files
        .iter()
        .any(|f| f.extension().is_some_and(|e| e == "wasm"))
    {
        return Err("dist/index.html loads no .wasm file".into());
    }
    Ok(files)
}

/// Asserts the initial download budget.
pub fn check_budget() -> Result<(), String> {
    let dist = root().join("dist");
    println!("==> initial download (gzip -9), budget {BUDGET_GZ_BYTES} bytes");
    let mut total = 0;
    for f in initial_files(&dist)? {
        let raw = fs::metadata(&f).map(|m| m.len()).unwrap_or(0);
        let gz = gzip_size(&f)?;
        total += gz;
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!("    {name:<48} {raw:>9} B raw {gz:>8} B gz");
    }
    println!("    {:<48} {:>24} B gz", "total", total);
    if total > BUDGET_GZ_BYTES {
        return Err(format!(
            "the initial download is {total} bytes gzipped, over the {BUDGET_GZ_BYTES}-byte budget"
        ));
    }
    Ok(())
}

/// Component tests in headless Chromium, the size budget, and the end-to-end suite.
pub fn test() -> Result<(), String> {
    setup()?;
    let chromedriver = on_path("chromedriver").ok_or("chromedriver is not on PATH")?;
    run(
        "component tests (wasm-bindgen-test, headless Chromium)",
        cargo()
            .env("PATH", tool_path())
            .env("CHROMEDRIVER", &chromedriver)
            .args([
                "test",
                "-p",
                "taintlab-web",
                "--target",
                "wasm32-unknown-unknown",
                "--locked",
            ]),
    )?;
    run(
        "trunk build --release (playground into dist/)",
        tool("trunk").args(["build", "--release", "--offline", "--skip-version-check"]),
    )?;
    check_budget()?;
    run(
        "end-to-end suite (playwright-core, headless Chromium)",
        tool("node").args(["tests/browser/run.mjs", "dist"]),
    )
}
