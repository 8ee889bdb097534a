//! What every task shares: the workspace root and target directory, running commands
//! (named steps with their duration), and the guarded installs.
//!
//! A task declares what it needs as a list of [`Need`]s (see `TASKS` in `main.rs`);
//! [`ensure`] installs whatever of that list the machine lacks, each kind of install
//! behind its own guard, so a machine that already has everything runs no install at all:
//!
//! * Rust targets and components: `rustup target add` / `rustup component add` for the
//!   ones `rustup ... list --installed` does not show.
//! * Debian packages: `apt-get install` (through `sudo` when not root) when one of the
//!   programs they provide is not on `PATH`.
//! * Binaries built by `cargo install`: when `<bin> --version` (found on `PATH`, in
//!   `$CARGO_HOME/bin` or `~/.cargo/bin`) does not print the pinned version.
//! * npm packages: `npm ci` in the directory holding the `package-lock.json` when
//!   `node_modules` lacks one of the declared packages or binaries, or was installed from
//!   another lockfile (a hash of the lockfile is kept next to `node_modules`).

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// A binary that `cargo install` builds, pinned to one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CargoTool {
    /// The crate to install.
    pub krate: &'static str,
    /// The binary it provides; `<bin> --version` must print `<bin> <version>`.
    pub bin: &'static str,
    /// The pinned version.
    pub version: &'static str,
    /// Whether to install with `--locked`.
    pub locked: bool,
    /// How long the install takes on a 2-core machine, shown while it runs.
    pub takes: &'static str,
}

/// Debian packages, installed together when one of their programs is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AptPackages {
    /// Package names for `apt-get install`.
    pub packages: &'static [&'static str],
    /// Programs the packages put on `PATH`; any one missing triggers the install.
    pub programs: &'static [&'static str],
}

/// `npm ci` in one directory of the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NpmPackages {
    /// Directory relative to the workspace root holding `package.json` and
    /// `package-lock.json` (`""` for the root).
    pub dir: &'static str,
    /// Packages the tasks use; each must be a dependency in that `package.json`.
    pub packages: &'static [&'static str],
    /// Binaries the tasks run from `node_modules/.bin`.
    pub bins: &'static [&'static str],
}

/// One thing a task needs before it can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A Rust target (`rustup target add`).
    Target(&'static str),
    /// A rustup component (`rustup component add`).
    Component(&'static str),
    /// Debian packages (`apt-get install`).
    Apt(AptPackages),
    /// A binary from `cargo install`.
    Cargo(CargoTool),
    /// npm packages (`npm ci`).
    Npm(NpmPackages),
}

/// trunk, which builds and serves the playground.
pub const TRUNK: CargoTool = CargoTool {
    krate: "trunk",
    bin: "trunk",
    version: "0.21.14",
    locked: true,
    takes: "about 12 minutes",
};

/// wasm-bindgen-cli; its version must equal the `wasm-bindgen` crate in Cargo.lock.
/// Not `--locked`: the CLI's lockfile names a webpki-roots release some mirrors lack.
pub const WASM_BINDGEN_CLI: CargoTool = CargoTool {
    krate: "wasm-bindgen-cli",
    bin: "wasm-bindgen",
    version: "0.2.130",
    locked: false,
    takes: "about 5 minutes",
};

/// Debian's Chromium and chromedriver for the headless browser tests.
pub const CHROMIUM: AptPackages = AptPackages {
    packages: &["chromium", "chromium-driver"],
    programs: &["chromium", "chromedriver"],
};

/// Node.js and npm.
pub const NODE: AptPackages = AptPackages {
    packages: &["nodejs", "npm"],
    programs: &["node", "npm"],
};

/// gzip, for the download-size budgets.
pub const GZIP: AptPackages = AptPackages {
    packages: &["gzip"],
    programs: &["gzip"],
};

/// The root `package.json`: binaryen 132 (wasm-opt for Trunk and the policy),
/// playwright-core (the playground's end-to-end suite) and axe-core (its accessibility
/// audit).
pub const NPM_ROOT: NpmPackages = NpmPackages {
    dir: "",
    packages: &["binaryen", "playwright-core", "axe-core"],
    bins: &["wasm-opt"],
};

/// `wasm/js/package.json`: binaryen, playwright-core, typescript and esbuild (the one-file
/// element) for the npm package.
pub const NPM_JS: NpmPackages = NpmPackages {
    dir: "wasm/js",
    packages: &["binaryen", "playwright-core", "typescript", "esbuild"],
    bins: &["wasm-opt", "tsc", "esbuild"],
};

/// Written next to `node_modules` after `npm ci`: a hash of the lockfile it used.
const NPM_STAMP: &str = ".taintlab-lock-hash";

/// The workspace root.
pub fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(parent) = manifest.parent()
        && parent.join("xtask").join("Cargo.toml").exists()
    {
        return parent.to_path_buf();
    }
    // Compiled elsewhere: find the workspace from the current directory.
    let mut dir = env::current_dir().unwrap_or_default();
    loop {
        if dir.join("xtask").join("Cargo.toml").exists() {
            return dir;
        }
        if !dir.pop() {
            return env::current_dir().unwrap_or_default();
        }
    }
}

/// The cargo target directory (`CARGO_TARGET_DIR`, relative to the root, or `target/`).
pub fn target_dir() -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root().join(d),
        None => root().join("target"),
    }
}

/// `cargo` (the one running xtask), in the workspace root.
pub fn cargo() -> Command {
    let mut c = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

/// `PATH` with the root `node_modules/.bin` and cargo's bin directory first, so tools
/// find npm's wasm-opt (binaryen 132) and freshly installed cargo binaries.
pub fn tool_path() -> OsString {
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

/// A program run in the workspace root with [`tool_path`] as `PATH`.
pub fn tool(program: &str) -> Command {
    let mut c = Command::new(program);
    c.current_dir(root()).env("PATH", tool_path());
    c
}

/// Runs a step to completion, printing its name and duration; fails with its name.
pub fn run(name: &str, cmd: &mut Command) -> Result<(), String> {
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

/// The command's stdout, trimmed, when it starts and succeeds (stderr discarded).
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The first `program` on `PATH`.
pub fn on_path(program: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// An error mapper naming the action and the file.
pub fn io_err(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> String {
    let p = path.display().to_string();
    let what = what.to_string();
    move |e| format!("{what} {p}: {e}")
}

/// A small stable hash (FNV-1a) of a file, to notice a changed lockfile.
fn file_hash(path: &Path) -> Option<String> {
    let bytes = fs::read(path).ok()?;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    Some(format!("{h:016x}"))
}

/// The union of several declarations, in first-seen order, without duplicates.
pub fn union<'a>(lists: impl IntoIterator<Item = &'a [Need]>) -> Vec<Need> {
    let mut out: Vec<Need> = Vec::new();
    for list in lists {
        for need in list {
            if !out.contains(need) {
                out.push(*need);
            }
        }
    }
    out
}

/// What a machine has, as far as [`plan`] asks.
pub trait Probe {
    /// `rustup <kind> list --installed` (`kind` is `target` or `component`).
    fn rustup_installed(&self, kind: &str) -> Option<String>;
    /// Whether `program` is on `PATH`.
    fn has_program(&self, program: &str) -> bool;
    /// What `<bin> --version` prints, trimmed.
    fn version(&self, bin: &str) -> Option<String>;
    /// Whether `npm ci` in that directory is up to date with the declared packages.
    fn npm_fresh(&self, npm: &NpmPackages) -> bool;
}

/// This machine.
pub struct Machine;

impl Probe for Machine {
    fn rustup_installed(&self, kind: &str) -> Option<String> {
        output(Command::new("rustup").args([kind, "list", "--installed"]))
    }
    fn has_program(&self, program: &str) -> bool {
        // `$CHROMIUM` names a browser the npm package's tests use instead of Debian's.
        if program == "chromium" && env::var_os("CHROMIUM").is_some_and(|p| Path::new(&p).is_file())
        {
            return true;
        }
        on_path(program).is_some()
    }
    fn version(&self, bin: &str) -> Option<String> {
        output(tool(bin).arg("--version"))
    }
    fn npm_fresh(&self, npm: &NpmPackages) -> bool {
        npm_fresh(npm, &root().join(npm.dir))
    }
}

/// One install [`ensure`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `apt-get install` these packages.
    Apt(Vec<&'static str>),
    /// `rustup <kind> add` these names.
    Rustup(&'static str, Vec<&'static str>),
    /// `cargo install` this binary.
    CargoInstall(CargoTool),
    /// `npm ci` in this directory.
    NpmCi(NpmPackages),
}

/// The installs `needs` calls for on a machine: Debian packages first (npm needs Node),
/// then Rust targets and components, cargo binaries, npm packages. Empty when
/// everything is there.
pub fn plan(needs: &[Need], probe: &dyn Probe) -> Result<Vec<Step>, String> {
    let mut apt: Vec<&'static str> = Vec::new();
    let mut targets = Vec::new();
    let mut components = Vec::new();
    let mut tools = Vec::new();
    let mut npm = Vec::new();
    for need in needs {
        match *need {
            Need::Apt(a) => {
                if a.programs.iter().any(|p| !probe.has_program(p)) {
                    for p in a.packages {
                        if !apt.contains(p) {
                            apt.push(p);
                        }
                    }
                }
            }
            Need::Target(t) => targets.push(t),
            Need::Component(c) => components.push(c),
            Need::Cargo(t) => {
                if probe.version(t.bin).as_deref() != Some(want_version(&t).as_str()) {
                    tools.push(Step::CargoInstall(t));
                }
            }
            Need::Npm(n) => {
                if !probe.npm_fresh(&n) {
                    npm.push(Step::NpmCi(n));
                }
            }
        }
    }
    let mut steps = Vec::new();
    if !apt.is_empty() {
        steps.push(Step::Apt(apt));
    }
    for (kind, wanted) in [("target", targets), ("component", components)] {
        if wanted.is_empty() {
            continue;
        }
        let installed = probe
            .rustup_installed(kind)
            .ok_or("rustup is needed to add Rust targets and components")?;
        let missing: Vec<&'static str> = wanted
            .into_iter()
            .filter(|w| !is_installed(&installed, w))
            .collect();
        if !missing.is_empty() {
            steps.push(Step::Rustup(kind, missing));
        }
    }
    steps.extend(tools);
    steps.extend(npm);
    Ok(steps)
}

/// Installs what `needs` lists and this machine lacks (see [`plan`]).
pub fn ensure(needs: &[Need]) -> Result<(), String> {
    for step in plan(needs, &Machine)? {
        match step {
            Step::Apt(packages) => apt_install(&packages)?,
            Step::Rustup(kind, names) => run(
                &format!("rustup {kind} add {}", names.join(" ")),
                Command::new("rustup").args([kind, "add"]).args(&names),
            )?,
            Step::CargoInstall(t) => cargo_install(t)?,
            Step::NpmCi(n) => npm_ci(n)?,
        }
    }
    Ok(())
}

/// Whether `rustup ... list --installed` output names `name` (components are listed
/// with their host triple: `clippy-x86_64-unknown-linux-gnu`).
fn is_installed(list: &str, name: &str) -> bool {
    list.lines().map(str::trim).any(|l| {
        l == name
            || l.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(is_triple)
    })
}

/// Whether `s` looks like a host triple (`x86_64-unknown-linux-gnu`).
fn is_triple(s: &str) -> bool {
    const ARCHES: [&str; 8] = [
        "x86_64",
        "aarch64",
        "i686",
        "arm",
        "riscv",
        "powerpc",
        "s390x",
        "loongarch",
    ];
    s.matches('-').count() >= 2 && ARCHES.iter().any(|a| s.starts_with(a))
}

/// The version line `<bin> --version` should print.
pub fn want_version(t: &CargoTool) -> String {
    format!("{} {}", t.bin, t.version)
}

fn cargo_install(t: CargoTool) -> Result<(), String> {
    let mut c = cargo();
    c.args(["install", t.krate, "--version", t.version, "--force"]);
    if t.locked {
        c.arg("--locked");
    }
    run(
        &format!("cargo install {} {} ({})", t.krate, t.version, t.takes),
        &mut c,
    )
}

/// Whether `node_modules` in `dir` was installed from the current lockfile and holds
/// the declared packages and binaries.
fn npm_fresh(n: &NpmPackages, dir: &Path) -> bool {
    let modules = dir.join("node_modules");
    let lock = dir.join("package-lock.json");
    let stamp = fs::read_to_string(modules.join(NPM_STAMP)).unwrap_or_default();
    let same_lock = match file_hash(&lock) {
        Some(h) if stamp.trim() == h => true,
        // Installed before the stamp existed: npm's own record is newer than the lock.
        _ if stamp.is_empty() => {
            match (
                fs::metadata(&lock).and_then(|m| m.modified()),
                fs::metadata(modules.join(".package-lock.json")).and_then(|m| m.modified()),
            ) {
                (Ok(l), Ok(i)) => i >= l,
                _ => false,
            }
        }
        _ => false,
    };
    same_lock
        && n.packages.iter().all(|p| modules.join(p).is_dir())
        && n.bins.iter().all(|b| modules.join(".bin").join(b).exists())
}

fn npm_ci(n: NpmPackages) -> Result<(), String> {
    let dir = root().join(n.dir);
    let lock = dir.join("package-lock.json");
    let hash = file_hash(&lock).ok_or_else(|| format!("{} is missing", lock.display()))?;
    let shown = if n.dir.is_empty() { "." } else { n.dir };
    run(
        &format!("npm ci in {shown} ({})", n.packages.join(", ")),
        tool("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .current_dir(&dir),
    )?;
    let stamp = dir.join("node_modules").join(NPM_STAMP);
    fs::write(&stamp, hash).map_err(io_err("cannot write", &stamp))
}

fn apt_install(packages: &[&str]) -> Result<(), String> {
    let is_root = output(Command::new("id").arg("-u")).as_deref() == Some("0");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_targets_and_components_are_recognised() {
        let targets = "wasm32-unknown-unknown\nwasm32-wasip1\nx86_64-unknown-linux-gnu\n";
        assert!(is_installed(targets, "wasm32-wasip1"));
        assert!(!is_installed(targets, "wasm32v1-none"));
        assert!(!is_installed(targets, "wasm32"));
        let comps = "cargo-x86_64-unknown-linux-gnu\nclippy-x86_64-unknown-linux-gnu\nrustfmt\n";
        assert!(is_installed(comps, "clippy"));
        assert!(is_installed(comps, "rustfmt"));
        assert!(!is_installed(comps, "rust-src"));
        // A prefix of another component's name is not that component.
        assert!(!is_installed(
            "rust-analyzer-x86_64-unknown-linux-gnu\n",
            "rust"
        ));
    }

    #[test]
    fn union_keeps_order_and_drops_duplicates() {
        let a = [Need::Target("a"), Need::Apt(GZIP)];
        let b = [Need::Apt(GZIP), Need::Target("b")];
        assert_eq!(
            union([&a[..], &b[..]]),
            vec![Need::Target("a"), Need::Apt(GZIP), Need::Target("b")]
        );
    }

    #[test]
    fn npm_freshness_needs_the_lock_hash_and_the_declared_packages() {
        let dir = env::temp_dir().join(format!("xtask-npm-fresh-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let modules = dir.join("node_modules");
        fs::create_dir_all(modules.join(".bin")).unwrap();
        fs::create_dir_all(modules.join("binaryen")).unwrap();
        fs::write(dir.join("package-lock.json"), "{\"lockfileVersion\": 3}").unwrap();
        fs::write(modules.join(".bin").join("wasm-opt"), "").unwrap();
        let n = NpmPackages {
            dir: "",
            packages: &["binaryen"],
            bins: &["wasm-opt"],
        };
        // No stamp and no npm record: not fresh.
        assert!(!npm_fresh(&n, &dir));
        let hash = file_hash(&dir.join("package-lock.json")).unwrap();
        fs::write(modules.join(NPM_STAMP), &hash).unwrap();
        assert!(npm_fresh(&n, &dir));
        // A package the task declares but node_modules lacks.
        let more = NpmPackages {
            packages: &["binaryen", "typescript"],
            ..n
        };
        assert!(!npm_fresh(&more, &dir));
        // The lockfile changed since the install.
        fs::write(dir.join("package-lock.json"), "{\"lockfileVersion\": 4}").unwrap();
        assert!(!npm_fresh(&n, &dir));
        let _ = fs::remove_dir_all(&dir);
    }
}
