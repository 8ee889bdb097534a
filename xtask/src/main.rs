//! One entry point for every project task: `cargo xtask <task>`.
//!
//! Each task declares what it needs (Rust targets and components, Debian packages,
//! binaries built by `cargo install`, npm packages) in [`TASKS`]; before a task runs,
//! [`helpers::ensure`] installs whatever of that the machine lacks, each install guarded
//! so a machine that already has the tool skips it. The README's commands therefore work
//! on a fresh clone as they are, and the unit tests below check that every task the
//! READMEs name has a declaration covering what it runs.

mod annotate;
mod docsites;
mod docusaurus_site;
mod helpers;
mod hugo_site;
mod krew;
mod npm;
mod release;
mod web;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use helpers::{
    CHROMIUM, GZIP, NODE, NPM_JS, NPM_ROOT, Need, TRUNK, WASM_BINDGEN_CLI, cargo, io_err, root,
    run, target_dir, tool,
};

/// A task: its command line, what it does, what it needs installed, and the tasks it
/// runs (whose needs it inherits).
pub struct Task {
    /// The words after `cargo xtask`.
    pub name: &'static str,
    /// Arguments shown in the usage text.
    pub args: &'static str,
    /// One line for the usage text.
    pub about: &'static str,
    /// What must be installed before it runs.
    pub needs: &'static [Need],
    /// Tasks it runs as part of itself.
    pub includes: &'static [&'static str],
}

/// The playground's build: Trunk calls wasm-bindgen and npm's wasm-opt.
const WEB_NEEDS: &[Need] = &[
    Need::Target("wasm32-unknown-unknown"),
    Need::Cargo(TRUNK),
    Need::Cargo(WASM_BINDGEN_CLI),
    Need::Apt(NODE),
    Need::Npm(NPM_ROOT),
];

/// Every task, in the order of the usage text.
pub const TASKS: &[Task] = &[
    Task {
        name: "test",
        args: "",
        about: "everything CI runs: format check, clippy -D warnings, all tests (the \
                Kubewarden policy through a real waPC host, on the annotated module), the \
                no_std build, the conformance suite, the playground's component, budget \
                and end-to-end tests, the npm package's tests, the documentation sites",
        needs: &[
            Need::Component("rustfmt"),
            Need::Component("clippy"),
            Need::Target("wasm32v1-none"),
            // The playground's component tests and end-to-end suite.
            Need::Apt(CHROMIUM),
            Need::Apt(GZIP),
        ],
        includes: &["policy", "conformance", "web", "npm test", "docsites"],
    },
    Task {
        name: "conformance",
        args: " [DIR]",
        about: "run the conformance vectors (default: the shipped ones) or any directory \
                of vector files in the same format",
        needs: &[],
        includes: &[],
    },
    Task {
        name: "bench",
        args: " [-- ARGS]",
        about: "run the criterion benchmarks",
        needs: &[],
        includes: &[],
    },
    Task {
        name: "serve",
        args: "",
        about: "build and serve the playground on localhost",
        needs: WEB_NEEDS,
        includes: &[],
    },
    Task {
        name: "policy",
        args: "",
        about: "build the Kubewarden policy: policy.wasm (wasm32-wasip1, wasm-opt -O4) and \
                annotated-policy.wasm (with the io.kubewarden.metadata section)",
        needs: &[
            Need::Target("wasm32-wasip1"),
            Need::Apt(NODE),
            // binaryen: wasm-opt -O4
            Need::Npm(NPM_ROOT),
        ],
        includes: &[],
    },
    Task {
        name: "web",
        args: "",
        about: "build the playground into dist/",
        needs: WEB_NEEDS,
        includes: &[],
    },
    Task {
        name: "npm build",
        args: "",
        about: "build the npm package tarball (target/npm/); `cargo xtask npm` alone does \
                the same",
        needs: &[
            Need::Target("wasm32-unknown-unknown"),
            Need::Cargo(WASM_BINDGEN_CLI),
            Need::Apt(NODE),
            Need::Apt(GZIP),
            Need::Npm(NPM_JS),
        ],
        includes: &[],
    },
    Task {
        name: "npm test",
        args: "",
        about: "build the npm package and test it (Node, TypeScript, headless Chromium)",
        needs: &[Need::Apt(CHROMIUM)],
        includes: &["npm build"],
    },
    Task {
        name: "npm setup",
        args: "",
        about: "install what the npm package's build and tests need",
        needs: &[],
        includes: &["npm test"],
    },
    Task {
        name: "docsites",
        args: "",
        about: "build documentation sites with live <taint-check> examples (mdBook with \
                the mdbook-taintlab preprocessor, Hugo with the package's module, \
                Docusaurus with taintlab/docusaurus) and check them in headless Chromium",
        needs: &[
            Need::Apt(CHROMIUM),
            Need::Apt(NODE),
            Need::Npm(NPM_JS),
            Need::Apt(hugo_site::HUGO),
        ],
        includes: &["npm build"],
    },
    Task {
        name: "release-check",
        args: " [TAG]",
        about: "check that the release files agree with Cargo.toml's version, repository \
                and registry (and that TAG, if given, is v<version>)",
        needs: &[],
        includes: &[],
    },
    Task {
        name: "cli-archive",
        args: " TARGET",
        about: "build the command-line tool for a release platform (a Rust target triple) \
                and pack it as krew installs it: kubectl-taintlab and LICENSE in \
                <target dir>/cli-dist/kubectl-taintlab_v<version>_<os>_<arch>.tar.gz",
        needs: &[],
        includes: &[],
    },
    Task {
        name: "krew-manifest",
        args: " [DIR]",
        about: "fill plugins/taintlab.yaml's sha256 from the archives in DIR (default \
                <target dir>/cli-dist), check their layout, validate it with krew's \
                rules, write DIR/taintlab.yaml and DIR/SHA256SUMS",
        needs: &[],
        includes: &[],
    },
    Task {
        name: "setup",
        args: "",
        about: "install the Rust targets and tools every task needs",
        needs: &[],
        includes: &[
            "test",
            "conformance",
            "bench",
            "serve",
            "policy",
            "web",
            "npm build",
            "npm test",
            "npm setup",
            "docsites",
            "release-check",
        ],
    },
];

/// The task called `name`.
pub fn task(name: &str) -> Option<&'static Task> {
    TASKS.iter().find(|t| t.name == name)
}

/// What `name` needs, its included tasks' needs too.
pub fn needs(name: &str) -> Vec<Need> {
    let mut lists: Vec<&[Need]> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut todo = vec![name];
    while let Some(n) = todo.pop() {
        if seen.contains(&n) {
            continue;
        }
        seen.push(n);
        if let Some(t) = task(n) {
            lists.push(t.needs);
            todo.extend(t.includes.iter().rev());
        }
    }
    helpers::union(lists)
}

/// The task a command line names (`npm` alone is `npm build`), and its arguments.
pub fn parse(args: &[String]) -> Result<(&'static Task, &[String]), String> {
    let first = args.first().map(String::as_str).ok_or_else(usage)?;
    let (name, rest) = if first == "npm" {
        match args.get(1).map(String::as_str) {
            None => ("npm build".to_string(), &args[1..]),
            Some(sub @ ("setup" | "build" | "test")) => (format!("npm {sub}"), &args[2..]),
            Some(other) => {
                return Err(format!("unknown npm task {other:?} (setup, build or test)"));
            }
        }
    } else {
        (first.to_string(), &args[1..])
    };
    task(&name)
        .map(|t| (t, rest))
        .ok_or_else(|| format!("unknown task {first:?}\n\n{}", usage()))
}

fn usage() -> String {
    let mut out = String::from("usage: cargo xtask <task>\n\ntasks:\n");
    for t in TASKS {
        let head = format!("{}{}", t.name, t.args);
        let mut line = format!("  {head:<20}");
        for word in t.about.split_whitespace() {
            if line.len() + 1 + word.len() > 90 {
                out.push_str(&line);
                out.push('\n');
                line = " ".repeat(22);
            }
            line.push(' ');
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What a task runs once its needs are installed.
type TaskFn = fn(&[String]) -> Result<(), String>;

/// The code behind each task name.
fn implementation(name: &str) -> Option<TaskFn> {
    Some(match name {
        "test" => |_| test(),
        "conformance" => conformance,
        "bench" => bench,
        "serve" => |_| web::serve(),
        "policy" => |_| policy(),
        "web" => |_| web::build(),
        "npm build" => |_| npm::build(),
        "npm test" => |_| npm::test(),
        "docsites" => |_| docsites::test(),
        "release-check" => release::run_check,
        "cli-archive" => krew::cli_archive,
        "krew-manifest" => krew::krew_manifest,
        // Installing is all they do.
        "npm setup" | "setup" => |_| Ok(()),
        _ => return None,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    if matches!(
        args.first().map(String::as_str),
        Some("-h" | "--help" | "help")
    ) {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let result = parse(&args).and_then(|(t, rest)| {
        let run_task = implementation(t.name)
            .ok_or_else(|| format!("task {:?} has no implementation", t.name))?;
        helpers::ensure(&needs(t.name))?;
        run_task(rest)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace-relative directory the policy's modules are written to, when
/// `CARGO_TARGET_DIR` is unset (the release workflow builds there).
pub const POLICY_OUT_DIR: &str = "target/wasm32-wasip1/policy";
/// The optimised module.
pub const POLICY_WASM: &str = "policy.wasm";
/// The module to ship: `policy.wasm` plus the `io.kubewarden.metadata` section.
pub const ANNOTATED_POLICY_WASM: &str = "annotated-policy.wasm";
/// The policy's directory: metadata.yml, README.md (the usage text), artifacthub-pkg.yml.
pub const POLICY_DIR: &str = "wasm/kubewarden";

fn policy_out_dir() -> PathBuf {
    target_dir().join("wasm32-wasip1").join("policy")
}

/// The optimised policy module.
fn policy_wasm() -> PathBuf {
    policy_out_dir().join(POLICY_WASM)
}

/// The annotated policy module, the one to ship and the one the end-to-end suite loads.
fn annotated_policy_wasm() -> PathBuf {
    policy_out_dir().join(ANNOTATED_POLICY_WASM)
}

fn test() -> Result<(), String> {
    run(
        "format check",
        cargo().args(["fmt", "--all", "--", "--check"]),
    )?;
    run(
        "clippy",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ]),
    )?;

    // The policy's end-to-end tests load the annotated module, the one users deploy.
    policy()?;
    run(
        "tests",
        cargo()
            .args(["test", "--workspace", "--locked"])
            .env("TAINTLAB_POLICY_WASM", annotated_policy_wasm()),
    )?;
    run(
        "no_std build (wasm32v1-none)",
        cargo().args([
            "build",
            "-p",
            "taintlab-core",
            "--no-default-features",
            "--features",
            "serde",
            "--target",
            "wasm32v1-none",
            "--locked",
        ]),
    )?;

    conformance(&[])?;
    web::test()?;
    npm::test()?;
    docsites::test()?;
    println!("xtask test: all steps passed");
    Ok(())
}

fn conformance(dirs: &[String]) -> Result<(), String> {
    let mut c = cargo();
    c.args([
        "run",
        "--quiet",
        "--locked",
        "-p",
        "taintlab-conformance",
        "--",
    ]);
    for d in dirs {
        // Resolve relative to where the user ran the command, not the workspace root.
        let p = Path::new(d);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            env::current_dir().map_err(|e| e.to_string())?.join(p)
        };
        c.arg(abs);
    }
    run("conformance vectors", &mut c)
}

fn bench(extra: &[String]) -> Result<(), String> {
    let mut c = cargo();
    c.args([
        "bench",
        "--locked",
        "-p",
        "taintlab-core",
        "-p",
        "taintlab-input",
    ]);
    let extra = extra.strip_prefix(&["--".to_string()]).unwrap_or(extra);
    if !extra.is_empty() {
        c.arg("--").args(extra);
    }
    run("benchmarks", &mut c)
}

/// wasm-opt flags for what the Rust 1.95 wasip1 output uses.
const POLICY_WASM_OPT: &[&str] = &[
    "-O4",
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-call-indirect-overlong",
    "--enable-extended-const",
    "--enable-multivalue",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-sign-ext",
];

/// Builds the Kubewarden policy for wasm32-wasip1 with the `policy` profile, runs
/// wasm-opt -O4 (npm binaryen 132) into `policy.wasm`, and writes
/// `annotated-policy.wasm`: the same module with the `io.kubewarden.metadata` section
/// `kwctl annotate -m metadata.yml -u README.md` writes (see [`annotate`]), both in
/// `<target>/wasm32-wasip1/policy/`.
fn policy() -> Result<(), String> {
    run(
        "Kubewarden policy (wasm32-wasip1)",
        cargo().args([
            "build",
            "--locked",
            "-p",
            "taintlab-kubewarden",
            "--target",
            "wasm32-wasip1",
            "--profile",
            "policy",
        ]),
    )?;
    run(
        "wasm-opt -O4 (policy.wasm)",
        tool("wasm-opt")
            .args(POLICY_WASM_OPT)
            .arg(policy_out_dir().join("taintlab_kubewarden.wasm"))
            .arg("-o")
            .arg(policy_wasm()),
    )?;

    let dir = root().join(POLICY_DIR);
    let read = |name: &str| {
        let p = dir.join(name);
        fs::read_to_string(&p).map_err(io_err("cannot read", &p))
    };
    let metadata = annotate::metadata_json(&read("metadata.yml")?, &read("README.md")?)?;
    let module = fs::read(policy_wasm()).map_err(io_err("cannot read", &policy_wasm()))?;
    let annotated = annotate::annotate(&module, &metadata)?;
    let readback = annotate::custom_sections(&annotated)?;
    if !readback
        .iter()
        .any(|(name, data)| name == annotate::SECTION && *data == metadata)
    {
        return Err("the annotated module does not read back its metadata".into());
    }
    let out = annotated_policy_wasm();
    fs::write(&out, &annotated).map_err(io_err("cannot write", &out))?;
    println!(
        "    {}: {} bytes\n    {}: {} bytes ({} bytes of metadata)",
        policy_wasm().display(),
        module.len(),
        out.display(),
        annotated.len(),
        metadata.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use helpers::{NpmPackages, Probe, Step, plan};

    /// `cargo xtask ...` command lines in every README of the workspace.
    fn readme_commands() -> Vec<(PathBuf, Vec<String>)> {
        let mut readmes = Vec::new();
        let mut dirs = vec![root()];
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if path.is_dir() {
                    if !name.starts_with('.') && name != "target" && name != "node_modules" {
                        dirs.push(path);
                    }
                } else if name == "README.md" {
                    readmes.push(path);
                }
            }
        }
        let mut out = Vec::new();
        for readme in readmes {
            let text = fs::read_to_string(&readme).unwrap();
            for line in text.lines() {
                for (at, _) in line.match_indices("cargo xtask ") {
                    let rest = &line[at + "cargo xtask ".len()..];
                    // The command ends at a closing backtick or a shell comment.
                    let rest = rest.split(['`', '#']).next().unwrap_or("");
                    let words: Vec<String> = rest
                        .split_whitespace()
                        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()))
                        .take_while(|w| {
                            !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                        })
                        .take(2)
                        .map(String::from)
                        .collect();
                    if !words.is_empty() {
                        out.push((readme.clone(), words));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_task_the_readmes_name_is_declared_and_implemented() {
        let commands = readme_commands();
        let mut named = Vec::new();
        for (readme, words) in &commands {
            let (t, _) = parse(words).unwrap_or_else(|e| {
                panic!(
                    "{}: `cargo xtask {}`: {e}",
                    readme.display(),
                    words.join(" ")
                )
            });
            assert!(implementation(t.name).is_some(), "{}", t.name);
            named.push(t.name);
        }
        for t in [
            "test",
            "serve",
            "policy",
            "conformance",
            "bench",
            "npm build",
            "npm test",
        ] {
            assert!(named.contains(&t), "no README names `cargo xtask {t}`");
        }
        for t in TASKS {
            assert!(implementation(t.name).is_some(), "{}", t.name);
            for inc in t.includes {
                assert!(task(inc).is_some(), "{} includes unknown {inc}", t.name);
            }
        }
    }

    #[test]
    fn command_lines_resolve_to_tasks() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(parse(&args("npm")).unwrap().0.name, "npm build");
        assert_eq!(parse(&args("npm test")).unwrap().0.name, "npm test");
        let a = args("conformance some/dir");
        let (t, rest) = parse(&a).unwrap();
        assert_eq!((t.name, rest), ("conformance", &a[1..]));
        assert!(parse(&args("npm frob")).is_err());
        assert!(parse(&args("frob")).is_err());
        assert!(parse(&[]).is_err());
        for t in TASKS {
            assert!(usage().contains(t.name));
        }
    }

    #[test]
    fn the_policy_installs_its_target_and_wasm_opt() {
        let n = needs("policy");
        assert!(n.contains(&Need::Target("wasm32-wasip1")));
        assert!(n.iter().any(|n| matches!(n, Need::Npm(p)
            if p.packages.contains(&"binaryen") && p.bins.contains(&"wasm-opt"))));
        assert!(n.contains(&Need::Apt(NODE)));
    }

    #[test]
    fn tasks_declare_what_they_run() {
        let test = needs("test");
        for t in ["wasm32v1-none", "wasm32-wasip1", "wasm32-unknown-unknown"] {
            assert!(test.contains(&Need::Target(t)), "test lacks {t}");
        }
        for c in ["rustfmt", "clippy"] {
            assert!(test.contains(&Need::Component(c)), "test lacks {c}");
        }
        for t in ["test", "npm test", "npm setup"] {
            assert!(
                needs(t).contains(&Need::Apt(CHROMIUM)),
                "{t} lacks chromium"
            );
        }
        for t in ["serve", "web", "test"] {
            let n = needs(t);
            assert!(n.contains(&Need::Cargo(TRUNK)), "{t} lacks trunk");
            assert!(
                n.contains(&Need::Cargo(WASM_BINDGEN_CLI)),
                "{t} lacks wasm-bindgen"
            );
            assert!(n.contains(&Need::Target("wasm32-unknown-unknown")), "{t}");
        }
        let npm = needs("npm build");
        assert!(npm.contains(&Need::Npm(NPM_JS)));
        assert!(npm.contains(&Need::Cargo(WASM_BINDGEN_CLI)));
        assert!(npm.contains(&Need::Apt(GZIP)));
        // A task that runs others needs what they need.
        for t in TASKS {
            let all = needs(t.name);
            for inc in t.includes {
                for n in needs(inc) {
                    assert!(all.contains(&n), "{} lacks {n:?} of {inc}", t.name);
                }
            }
            for n in needs(t.name) {
                assert!(needs("setup").contains(&n), "setup lacks {n:?}");
            }
        }
    }

    #[test]
    fn npm_declarations_match_the_package_files() {
        for n in needs("setup") {
            let Need::Npm(NpmPackages { dir, packages, .. }) = n else {
                continue;
            };
            let dir = root().join(dir);
            let manifest = fs::read_to_string(dir.join("package.json")).unwrap();
            let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
            assert!(dir.join("package-lock.json").is_file(), "{}", dir.display());
            for p in packages {
                assert!(
                    manifest["devDependencies"].get(p).is_some()
                        || manifest["dependencies"].get(p).is_some(),
                    "{}/package.json lacks {p}",
                    dir.display()
                );
            }
        }
    }

    #[test]
    fn wasm_bindgen_cli_matches_the_crate() {
        let lock = fs::read_to_string(root().join("Cargo.lock")).unwrap();
        let at = lock
            .find("name = \"wasm-bindgen\"\n")
            .expect("wasm-bindgen in Cargo.lock");
        let version = lock[at..].lines().nth(1).unwrap();
        assert_eq!(
            version,
            format!("version = \"{}\"", WASM_BINDGEN_CLI.version)
        );
    }

    /// A machine with a given set of things installed.
    struct Fake {
        targets: &'static str,
        components: &'static str,
        programs: &'static [&'static str],
        versions: &'static [&'static str],
        npm_done: bool,
    }

    impl Probe for Fake {
        fn rustup_installed(&self, kind: &str) -> Option<String> {
            Some(
                if kind == "target" {
                    self.targets
                } else {
                    self.components
                }
                .to_string(),
            )
        }
        fn has_program(&self, program: &str) -> bool {
            self.programs.contains(&program)
        }
        fn version(&self, bin: &str) -> Option<String> {
            self.versions
                .iter()
                .find(|v| v.split(' ').next() == Some(bin))
                .map(|v| v.to_string())
        }
        fn npm_fresh(&self, _: &NpmPackages) -> bool {
            self.npm_done
        }
    }

    const FRESH: Fake = Fake {
        targets: "x86_64-unknown-linux-gnu\n",
        components: "cargo-x86_64-unknown-linux-gnu\nrustc-x86_64-unknown-linux-gnu\n",
        programs: &[],
        versions: &[],
        npm_done: false,
    };

    /// On a fresh machine every task plans an install of everything it declares; on a
    /// machine that has it all, none.
    #[test]
    fn fresh_machine_installs_what_each_task_declares() {
        let full = Fake {
            targets: "wasm32-unknown-unknown\nwasm32-wasip1\nwasm32v1-none\nx86_64-unknown-linux-gnu\n",
            components: "clippy-x86_64-unknown-linux-gnu\nrustfmt-x86_64-unknown-linux-gnu\n",
            programs: &["node", "npm", "gzip", "chromium", "chromedriver", "hugo"],
            versions: &["trunk 0.21.14", "wasm-bindgen 0.2.130"],
            npm_done: true,
        };
        for t in TASKS {
            let declared = needs(t.name);
            let steps = plan(&declared, &FRESH).unwrap();
            for n in &declared {
                let covered = steps.iter().any(|s| match (s, n) {
                    (Step::Rustup("target", names), Need::Target(x)) => names.contains(x),
                    (Step::Rustup("component", names), Need::Component(x)) => names.contains(x),
                    (Step::Apt(pkgs), Need::Apt(a)) => a.packages.iter().all(|p| pkgs.contains(p)),
                    (Step::CargoInstall(c), Need::Cargo(x)) => c == x,
                    (Step::NpmCi(p), Need::Npm(x)) => p == x,
                    _ => false,
                });
                assert!(covered, "{}: a fresh machine would not get {n:?}", t.name);
            }
            assert_eq!(plan(&declared, &full).unwrap(), vec![], "{}", t.name);
        }
        // The issue this structure prevents: `cargo xtask policy` on a fresh clone.
        let steps = plan(&needs("policy"), &FRESH).unwrap();
        assert!(steps.contains(&Step::Rustup("target", vec!["wasm32-wasip1"])));
        // Apt first: npm needs Node.
        assert!(matches!(steps.first(), Some(Step::Apt(_))));
        assert!(matches!(steps.last(), Some(Step::NpmCi(_))));
    }

    #[test]
    fn a_wrong_tool_version_is_reinstalled() {
        let old = Fake {
            versions: &["trunk 0.21.13", "wasm-bindgen 0.2.130"],
            ..FRESH
        };
        let steps = plan(&[Need::Cargo(TRUNK), Need::Cargo(WASM_BINDGEN_CLI)], &old).unwrap();
        assert_eq!(steps, vec![Step::CargoInstall(TRUNK)]);
    }
}
