//! The command-line tool's release archives and its krew plugin manifest.
//!
//! * `cargo xtask cli-archive TARGET` builds `taintlab` for one of [`PLATFORMS`] and packs
//!   it the way krew installs it: `kubectl-taintlab` (`kubectl-taintlab.exe` on Windows)
//!   and `LICENSE` at the top of `<target dir>/cli-dist/<archive>`, where the archive is
//!   `kubectl-taintlab_v<version>_<os>_<arch>.tar.gz` ([`Platform::archive`]).
//! * `cargo xtask krew-manifest [DIR]` reads [`MANIFEST`], where each platform's sha256
//!   is the placeholder `{{sha256 ARCHIVE}}`, checks each archive in DIR (default that
//!   `cli-dist`) holds exactly the binary and `LICENSE`, fills in their sha256, validates
//!   the result with krew's rules and writes `DIR/taintlab.yaml` and `DIR/SHA256SUMS`.
//!   The release workflow attaches those to the GitHub release.
//! * [`check`] (part of `cargo xtask release-check`): the manifest agrees with
//!   `Cargo.toml` (version, repository), with [`PLATFORMS`] (selectors, URIs, archive
//!   names, binary names, files), with the release workflow's build matrix and with the
//!   binary's plugin name, and passes krew's validation.
//!
//! krew's rules, as its validator applies them (kubernetes-sigs/krew):
//! internal/index/validation/validate.go `ValidatePlugin`, `validatePlatform`,
//! `validateFiles`, `validateSelector`; internal/installation/semver `Parse`;
//! cmd/validate-krew-manifest/main.go `validateManifestFile` (file name, every selector
//! matches a platform of `allPlatforms`, no platform matched twice, a license file
//! among the installed files).

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_yaml::Value;
use sha2::{Digest, Sha256};

use crate::helpers::{Need, cargo, ensure, io_err, root, run, target_dir};
use crate::release::{self, Release};

/// The plugin's name in krew's index (`kubectl krew install taintlab`).
pub const PLUGIN: &str = "taintlab";
/// The executable kubectl runs for `kubectl taintlab`.
pub const BIN: &str = "kubectl-taintlab";
/// The manifest template in the repository.
pub const MANIFEST: &str = "plugins/taintlab.yaml";
/// The license file every archive carries.
pub const LICENSE: &str = "LICENSE";
/// The directory under the target dir the archives are written to.
pub const DIST: &str = "cli-dist";
/// The workspace-relative directory the release workflow's archives land in.
pub const DIST_IN_WORKFLOW: &str = "target/cli-dist";
/// The filled manifest's file name (in the archives' directory and on the release).
pub const FILLED: &str = "taintlab.yaml";
/// The checksum list next to the archives.
pub const SUMS: &str = "SHA256SUMS";
/// The cargo package and binary the archives ship.
const PACKAGE: &str = "taintlab-cli";
const CARGO_BIN: &str = "taintlab";
/// krew's `CurrentAPIVersion` and `PluginKind` (pkg/constants/constants.go).
pub const API_VERSION: &str = "krew.googlecontainertools.github.com/v1alpha2";
const KIND: &str = "Plugin";

/// One release platform: a Rust target and krew's `os`/`arch` labels for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    /// The Rust target triple the release workflow builds.
    pub target: &'static str,
    /// krew's `os` (Go's GOOS).
    pub os: &'static str,
    /// krew's `arch` (Go's GOARCH).
    pub arch: &'static str,
}

/// Every platform the release builds, in the manifest's order. Linux builds are static
/// (musl), so they run on any distribution.
pub const PLATFORMS: &[Platform] = &[
    Platform {
        target: "x86_64-unknown-linux-musl",
        os: "linux",
        arch: "amd64",
    },
    Platform {
        target: "aarch64-unknown-linux-musl",
        os: "linux",
        arch: "arm64",
    },
    Platform {
        target: "x86_64-apple-darwin",
        os: "darwin",
        arch: "amd64",
    },
    Platform {
        target: "aarch64-apple-darwin",
        os: "darwin",
        arch: "arm64",
    },
    Platform {
        target: "x86_64-pc-windows-msvc",
        os: "windows",
        arch: "amd64",
    },
];

impl Platform {
    /// The platform of a Rust target.
    pub fn of_target(target: &str) -> Result<&'static Platform, String> {
        PLATFORMS
            .iter()
            .find(|p| p.target == target)
            .ok_or_else(|| {
                let known: Vec<&str> = PLATFORMS.iter().map(|p| p.target).collect();
                format!(
                    "no release platform for target {target:?} (known: {})",
                    known.join(", ")
                )
            })
    }

    fn exe(&self) -> &'static str {
        if self.os == "windows" { ".exe" } else { "" }
    }

    /// The plugin binary's name inside the archive.
    pub fn bin(&self) -> String {
        format!("{BIN}{}", self.exe())
    }

    /// The archive's file name for a version.
    pub fn archive(&self, version: &str) -> String {
        archive_name(version, self.os, self.arch)
    }
}

/// `kubectl-taintlab_v<version>_<os>_<arch>.tar.gz`.
fn archive_name(version: &str, os: &str, arch: &str) -> String {
    format!("{BIN}_v{version}_{os}_{arch}.tar.gz")
}

/// `{{sha256 ARCHIVE}}`: the template's stand-in for an archive's checksum.
pub fn placeholder(archive: &str) -> String {
    format!("{{{{sha256 {archive}}}}}")
}

/// The `<os>/<arch>` pairs krew supports (cmd/validate-krew-manifest `allPlatforms`).
const KREW_PLATFORMS: &[(&str, &str)] = &[
    ("windows", "386"),
    ("windows", "amd64"),
    ("windows", "arm64"),
    ("linux", "386"),
    ("linux", "amd64"),
    ("linux", "arm"),
    ("linux", "arm64"),
    ("linux", "ppc64le"),
    ("darwin", "386"),
    ("darwin", "amd64"),
    ("darwin", "arm64"),
];

/// Windows' reserved names, which a plugin may not be called (validate.go
/// `windowsForbidden`).
const WINDOWS_FORBIDDEN: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// validate.go `IsSafePluginName`: `^[\w-]+$` and not a Windows reserved name.
pub fn is_safe_plugin_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !WINDOWS_FORBIDDEN
            .iter()
            .any(|f| f.eq_ignore_ascii_case(name))
}

/// semver `Parse`: a leading `v`, then a semantic version as apimachinery's
/// `ParseSemantic` reads it (three numbers without leading zeros, an optional
/// `-pre.release` and `+build`).
pub fn is_krew_version(s: &str) -> bool {
    let Some(v) = s.strip_prefix('v') else {
        return false;
    };
    let (v, build) = match v.split_once('+') {
        Some((v, b)) => (v, Some(b)),
        None => (v, None),
    };
    let (core, pre) = match v.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (v, None),
    };
    let number = |n: &str| {
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n == "0" || !n.starts_with('0'))
    };
    let ident =
        |i: &str| !i.is_empty() && i.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| number(p))
        && pre.is_none_or(|p| {
            p.split('.')
                .all(|i| ident(i) && (!i.bytes().all(|b| b.is_ascii_digit()) || number(i)))
        })
        && build.is_none_or(|b| b.split('.').all(ident))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Whether a platform selector (`metav1.LabelSelector`) selects `os`/`arch`, as
/// apimachinery's `LabelSelectorAsSelector(...).Matches` does for the operators In,
/// NotIn, Exists and DoesNotExist.
pub fn selects(selector: &Value, os: &str, arch: &str) -> Result<bool, String> {
    let label = |k: &str| match k {
        "os" => Some(os),
        "arch" => Some(arch),
        _ => None,
    };
    if let Some(m) = selector["matchLabels"].as_mapping() {
        for (k, v) in m {
            if label(s(k)) != Some(s(v)) {
                return Ok(false);
            }
        }
    }
    for e in selector["matchExpressions"]
        .as_sequence()
        .cloned()
        .unwrap_or_default()
    {
        let got = label(s(&e["key"]));
        let values: Vec<&str> = e["values"]
            .as_sequence()
            .map(|v| v.iter().map(s).collect())
            .unwrap_or_default();
        let ok = match s(&e["operator"]) {
            "In" => got.is_some_and(|g| values.contains(&g)),
            "NotIn" => got.is_none_or(|g| !values.contains(&g)),
            "Exists" => got.is_some(),
            "DoesNotExist" => got.is_none(),
            other => return Err(format!("{other:?} is not a valid label selector operator")),
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// krew's validation of a manifest file named `file_name` (the plugin's name is the
/// file's stem). `filled`: the sha256 values must be checksums; otherwise each may be
/// the template's [`placeholder`]. Returns every problem found.
pub fn validate(file_name: &str, text: &str, filled: bool) -> Vec<String> {
    let mut out = Vec::new();
    let Some(name) = file_name.strip_suffix(".yaml") else {
        return vec![format!(
            "expected manifest extension \".yaml\" but found {file_name:?}"
        )];
    };
    let p: Value = match serde_yaml::from_str(text) {
        Ok(p) => p,
        Err(e) => return vec![format!("failed to read plugin file: {e}")],
    };
    // ValidatePlugin
    let api = s(&p["apiVersion"]);
    if api != API_VERSION {
        out.push(format!(
            "plugin manifest has apiVersion={api:?}, not supported in this version of krew"
        ));
    }
    let kind = s(&p["kind"]);
    if kind != KIND {
        out.push(format!(
            "plugin manifest has kind={kind:?}, but only {KIND:?} is supported"
        ));
    }
    if !is_safe_plugin_name(name) {
        out.push(format!(
            "the plugin name {name:?} is not allowed, must match \"^[\\w-]+$\""
        ));
    }
    let meta_name = s(&p["metadata"]["name"]);
    if meta_name != name {
        out.push(format!(
            "plugin should be named {name:?}, not {meta_name:?}"
        ));
    }
    let spec = &p["spec"];
    let short = s(&spec["shortDescription"]);
    if short.is_empty() {
        out.push("should have a short description".into());
    }
    if short.contains(['\r', '\n']) {
        out.push("should not have line breaks in short description".into());
    }
    let platforms = spec["platforms"].as_sequence().cloned().unwrap_or_default();
    if platforms.is_empty() {
        out.push("should have a platform specified".into());
    }
    let version = s(&spec["version"]);
    if version.is_empty() {
        out.push("should have a version specified".into());
    } else if !is_krew_version(version) {
        out.push(format!(
            "failed to parse plugin version: {version:?} is not v<semantic version>"
        ));
    }
    for (i, pl) in platforms.iter().enumerate() {
        for problem in validate_platform(pl, filled) {
            out.push(format!("platform {i} is badly constructed: {problem}"));
        }
    }
    // validate-krew-manifest: every platform matches a supported one, none overlap.
    for (i, pl) in platforms.iter().enumerate() {
        let any = KREW_PLATFORMS
            .iter()
            .any(|(os, arch)| selects(&pl["selector"], os, arch).unwrap_or(false));
        if !any {
            out.push(format!(
                "spec.platform[{i}]'s selector doesn't match any supported platforms"
            ));
        }
    }
    for (os, arch) in KREW_PLATFORMS {
        let matching: Vec<usize> = platforms
            .iter()
            .enumerate()
            .filter(|(_, pl)| selects(&pl["selector"], os, arch).unwrap_or(false))
            .map(|(i, _)| i)
            .collect();
        if matching.len() > 1 {
            out.push(format!(
                "overlapping platform selectors found: multiple spec.platforms (at indexes {matching:?}) have overlapping selectors that select {os}/{arch}"
            ));
        }
    }
    out
}

/// validate.go `isValidSHA256`: `^[a-f0-9]{64}$`.
fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// validate.go `validatePlatform`, `validateFiles`, `validateSelector`.
fn validate_platform(pl: &Value, filled: bool) -> Vec<String> {
    let mut out = Vec::new();
    let uri = s(&pl["uri"]);
    if uri.is_empty() {
        out.push("`uri` has to be set".into());
    }
    let sha = s(&pl["sha256"]);
    let archive = uri.rsplit('/').next().unwrap_or("");
    let is_placeholder = !filled && sha == placeholder(archive);
    if sha.is_empty() {
        out.push("`sha256` sum has to be set".into());
    } else if !is_placeholder && !is_sha256(sha) {
        out.push(format!(
            "`sha256` value {sha} is not valid, must match pattern ^[a-f0-9]{{64}}$"
        ));
    }
    if s(&pl["bin"]).is_empty() {
        out.push("`bin` has to be set".into());
    }
    match &pl["files"] {
        Value::Null => {}
        Value::Sequence(ops) if ops.is_empty() => {
            out.push("`files` is invalid: `files` has to be unspecified or non-empty".into());
        }
        Value::Sequence(ops) => {
            for op in ops {
                if s(&op["from"]).is_empty() {
                    out.push("`files` is invalid: `from` field has to be set".into());
                } else if s(&op["to"]).is_empty() {
                    out.push("`files` is invalid: `to` field has to be set".into());
                }
            }
        }
        _ => out.push("`files` is invalid: not a list".into()),
    }
    let sel = &pl["selector"];
    if sel.is_null() {
        out.push("invalid platform selector: nil selector is not supported".into());
        return out;
    }
    let labels = &sel["matchLabels"];
    let exprs = &sel["matchExpressions"];
    let exprs_len = exprs.as_sequence().map_or(0, Vec::len);
    if labels.is_null() && exprs_len == 0 {
        out.push("invalid platform selector: empty selector is not supported".into());
        return out;
    }
    let mut keys: Vec<String> = labels
        .as_mapping()
        .map(|m| m.keys().map(|k| s(k).to_string()).collect())
        .unwrap_or_default();
    keys.extend(
        exprs
            .as_sequence()
            .map(|e| {
                e.iter()
                    .map(|x| s(&x["key"]).to_string())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
    );
    if let Some(k) = keys.iter().find(|k| *k != "os" && *k != "arch") {
        out.push(format!(
            "invalid platform selector: key {k:?} not supported"
        ));
    } else if labels.as_mapping().is_some_and(|m| m.is_empty()) {
        out.push("invalid platform selector: `matchLabels` specified but empty".into());
    } else if !exprs.is_null() && exprs_len == 0 {
        out.push("invalid platform selector: `matchExpressions` specified but empty".into());
    }
    if let Err(e) = selects(sel, "", "") {
        out.push(format!("invalid platform selector: {e}"));
    }
    out
}

/// What this project's manifest must say beyond krew's rules: the release's version,
/// homepage, and one platform per entry of [`PLATFORMS`], in order, with its selector,
/// URI, placeholder (unless `filled`), binary and files.
pub fn check_manifest(r: &Release, text: &str, filled: bool) -> Vec<String> {
    let file = MANIFEST;
    let mut out: Vec<String> = validate(FILLED, text, filled)
        .into_iter()
        .map(|p| format!("{file}: krew: {p}"))
        .collect();
    let Ok(p) = serde_yaml::from_str::<Value>(text) else {
        return out;
    };
    let mut expect = |what: &str, got: &str, want: &str| {
        if got != want {
            out.push(format!("{file}: {what} is {got:?}, want {want:?}"));
        }
    };
    expect("metadata.name", s(&p["metadata"]["name"]), PLUGIN);
    expect("spec.version", s(&p["spec"]["version"]), &r.tag());
    expect("spec.homepage", s(&p["spec"]["homepage"]), &r.repository);
    let platforms = p["spec"]["platforms"]
        .as_sequence()
        .cloned()
        .unwrap_or_default();
    if platforms.len() != PLATFORMS.len() {
        out.push(format!(
            "{file}: {} platforms, the release builds {} ({})",
            platforms.len(),
            PLATFORMS.len(),
            PLATFORMS
                .iter()
                .map(|p| format!("{}/{}", p.os, p.arch))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (i, (pl, want)) in platforms.iter().zip(PLATFORMS).enumerate() {
        let at = |what: &str| format!("platform {i} ({}/{}): {what}", want.os, want.arch);
        let labels = &pl["selector"]["matchLabels"];
        let mut expect = |what: &str, got: &str, want: &str| {
            if got != want {
                out.push(format!("{file}: {} is {got:?}, want {want:?}", at(what)));
            }
        };
        expect("selector os", s(&labels["os"]), want.os);
        expect("selector arch", s(&labels["arch"]), want.arch);
        let archive = want.archive(&r.version);
        expect("uri", s(&pl["uri"]), &r.download_url(&archive));
        if !filled {
            expect("sha256", s(&pl["sha256"]), &placeholder(&archive));
        }
        expect("bin", s(&pl["bin"]), &want.bin());
        let files: Vec<(String, String)> = pl["files"]
            .as_sequence()
            .map(|ops| {
                ops.iter()
                    .map(|o| (s(&o["from"]).to_string(), s(&o["to"]).to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let want_files = vec![
            (want.bin(), ".".to_string()),
            (LICENSE.to_string(), ".".to_string()),
        ];
        if files != want_files {
            out.push(format!(
                "{file}: {}: files are {files:?}, the archive holds {want_files:?}",
                at("files")
            ));
        }
    }
    out
}

/// The release workflow builds every platform with `cargo xtask cli-archive` (its build
/// matrix's targets are exactly [`PLATFORMS`]'), fills the manifest with `cargo xtask
/// krew-manifest` and attaches the archives and the filled manifest to the release;
/// every archive name it spells out is one of the release's.
pub fn check_workflow(r: &Release, text: &str) -> Vec<String> {
    let w = release::WORKFLOW;
    let mut out = Vec::new();
    let Ok(y) = serde_yaml::from_str::<Value>(text) else {
        return vec![format!("{w}: not YAML")];
    };
    let jobs = y["jobs"].as_mapping().cloned().unwrap_or_default();
    let runs = |job: &Value, needle: &str| {
        job["steps"]
            .as_sequence()
            .is_some_and(|steps| steps.iter().any(|st| s(&st["run"]).contains(needle)))
    };
    let builders: Vec<&Value> = jobs
        .values()
        .filter(|j| runs(j, "cargo xtask cli-archive"))
        .collect();
    match builders.as_slice() {
        [job] => {
            let targets: Vec<&str> = job["strategy"]["matrix"]["include"]
                .as_sequence()
                .map(|inc| inc.iter().map(|i| s(&i["target"])).collect())
                .unwrap_or_default();
            let want: Vec<&str> = PLATFORMS.iter().map(|p| p.target).collect();
            if targets != want {
                out.push(format!(
                    "{w}: the CLI build matrix's targets are {targets:?}, the release platforms {want:?}"
                ));
            }
            if !runs(job, "cargo xtask cli-archive ${{ matrix.target }}") {
                out.push(format!(
                    "{w}: the CLI build does not run `cargo xtask cli-archive ${{{{ matrix.target }}}}`"
                ));
            }
        }
        [] => out.push(format!("{w}: no job runs `cargo xtask cli-archive`")),
        _ => out.push(format!(
            "{w}: more than one job runs `cargo xtask cli-archive`"
        )),
    }
    let fill = format!("cargo xtask krew-manifest {DIST_IN_WORKFLOW}");
    if !jobs.values().any(|j| runs(j, &fill)) {
        out.push(format!("{w}: no job runs `{fill}`"));
    }
    for needed in [
        format!("{DIST_IN_WORKFLOW}/*.tar.gz"),
        format!("{DIST_IN_WORKFLOW}/{FILLED}"),
        format!("{DIST_IN_WORKFLOW}/{SUMS}"),
        "gh release upload".to_string(),
    ] {
        if !text.contains(&needed) {
            out.push(format!("{w}: does not mention {needed:?}"));
        }
    }
    let mut archives: Vec<String> = PLATFORMS.iter().map(|p| p.archive(&r.version)).collect();
    // The generic name, in comments.
    archives.push(archive_name("<version>", "<os>", "<arch>"));
    for (at, _) in text.match_indices(&format!("{BIN}_")) {
        let rest = &text[at..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "\"'`)]|,".contains(c))
            .unwrap_or(rest.len());
        let token = &rest[..end];
        if !token.contains('*') && !token.contains("${{") && !archives.iter().any(|a| a == token) {
            out.push(format!(
                "{w}: names the archive {token:?}, which is none of the release's ({})",
                archives.join(", ")
            ));
        }
    }
    out
}

/// The binary is the plugin: cli/ builds `taintlab` and answers to `kubectl-taintlab`.
fn check_binary(out: &mut Vec<String>) -> Result<(), String> {
    if BIN != format!("kubectl-{PLUGIN}") {
        out.push(format!("the plugin binary {BIN:?} is not kubectl-{PLUGIN}"));
    }
    let manifest = read_text("cli/Cargo.toml")?;
    if !manifest.contains(&format!("[[bin]]\nname = \"{CARGO_BIN}\"")) {
        out.push(format!(
            "cli/Cargo.toml: the binary is not named {CARGO_BIN:?}"
        ));
    }
    let main = read_text("cli/src/main.rs")?;
    if !main.contains(&format!("\"{BIN}\"")) {
        out.push(format!(
            "cli/src/main.rs: does not recognise being run as {BIN:?} (the kubectl plugin)"
        ));
    }
    if !root().join(LICENSE).is_file() {
        out.push(format!("{LICENSE}: missing (every archive carries it)"));
    }
    Ok(())
}

fn read_text(rel: &str) -> Result<String, String> {
    let path = root().join(rel);
    fs::read_to_string(&path).map_err(io_err("cannot read", &path))
}

/// Everything of the CLI's release that must agree (part of `release-check`).
pub fn check(r: &Release) -> Result<Vec<String>, String> {
    let mut out = check_manifest(r, &read_text(MANIFEST)?, false);
    out.extend(check_workflow(r, &read_text(release::WORKFLOW)?));
    check_binary(&mut out)?;
    Ok(out)
}

fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Packs `binary` as `platform`'s plugin binary and `license` as `LICENSE` into a
/// gzipped tar at `out` (fixed times and owners, so the same inputs give the same bytes).
pub fn pack(platform: &Platform, binary: &[u8], license: &[u8], out: &Path) -> Result<(), String> {
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::best(),
    ));
    for (name, bytes, mode) in [
        (platform.bin(), binary, 0o755),
        (LICENSE.to_string(), license, 0o644),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(mode);
        h.set_mtime(0);
        h.set_uid(0);
        h.set_gid(0);
        h.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut h, &name, bytes)
            .map_err(|e| format!("{}: cannot add {name}: {e}", out.display()))?;
    }
    let gz = tar
        .into_inner()
        .and_then(|gz| gz.finish())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    if let Some(dir) = out.parent() {
        fs::create_dir_all(dir).map_err(io_err("cannot create", dir))?;
    }
    fs::write(out, gz).map_err(io_err("cannot write", out))
}

/// The entries of a gzipped tar: name, mode, and whether it is a regular file.
pub fn entries(archive: &[u8]) -> Result<Vec<(String, u32, bool)>, String> {
    let mut a = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    let mut out = Vec::new();
    for e in a.entries().map_err(|e| e.to_string())? {
        let mut e = e.map_err(|e| e.to_string())?;
        let name = e
            .path()
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .into_owned();
        let mode = e.header().mode().map_err(|e| e.to_string())?;
        let regular = e.header().entry_type() == tar::EntryType::Regular;
        // Read it through, so a truncated archive fails here.
        std::io::copy(&mut e, &mut std::io::sink()).map_err(|e| e.to_string())?;
        out.push((name, mode, regular));
    }
    Ok(out)
}

/// An archive holds exactly the platform's executable binary and `LICENSE`, at the top.
fn check_layout(platform: &Platform, name: &str, bytes: &[u8]) -> Result<(), String> {
    let got = entries(bytes).map_err(|e| format!("{name}: not a gzipped tar: {e}"))?;
    let names: Vec<&str> = got.iter().map(|(n, _, _)| n.as_str()).collect();
    let bin = platform.bin();
    if names != [bin.as_str(), LICENSE] {
        return Err(format!(
            "{name}: holds {names:?}, krew's manifest installs [{bin:?}, {LICENSE:?}]"
        ));
    }
    if let Some((_, mode, regular)) = got.first()
        && (!regular || mode & 0o111 == 0)
    {
        return Err(format!("{name}: {bin} is not an executable file"));
    }
    Ok(())
}

/// Fills the template's placeholders with the sha256 of the archives in `dir`, after
/// checking each archive's layout; the result passes krew's validation. Returns the
/// filled manifest and the `SHA256SUMS` text.
pub fn fill(r: &Release, template: &str, dir: &Path) -> Result<(String, String), String> {
    let problems = check_manifest(r, template, false);
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    let mut text = template.to_string();
    let mut sums = String::new();
    for p in PLATFORMS {
        let name = p.archive(&r.version);
        let path = dir.join(&name);
        let mut bytes = Vec::new();
        fs::File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(io_err("cannot read the archive", &path))?;
        check_layout(p, &name, &bytes)?;
        let sha = sha256_hex(&bytes);
        text = text.replace(&placeholder(&name), &sha);
        sums.push_str(&format!("{sha}  {name}\n"));
    }
    let problems = check_manifest(r, &text, true);
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    Ok((text, sums))
}

/// Where `cli-archive` writes and `krew-manifest` reads by default.
pub fn dist_dir() -> PathBuf {
    target_dir().join(DIST)
}

/// `cargo xtask cli-archive TARGET`.
pub fn cli_archive(args: &[String]) -> Result<(), String> {
    let target = args
        .first()
        .ok_or("usage: cargo xtask cli-archive TARGET (a Rust target triple)")?;
    let p = Platform::of_target(target)?;
    let r = release::read()?;
    ensure(&[Need::Target(p.target)])?;
    run(
        &format!("build {CARGO_BIN} for {}", p.target),
        cargo().args([
            "build",
            "--locked",
            "--release",
            "-p",
            PACKAGE,
            "--bin",
            CARGO_BIN,
            "--target",
            p.target,
        ]),
    )?;
    let built = target_dir()
        .join(p.target)
        .join("release")
        .join(format!("{CARGO_BIN}{}", p.exe()));
    let binary = fs::read(&built).map_err(io_err("cannot read", &built))?;
    let license_path = root().join(LICENSE);
    let license = fs::read(&license_path).map_err(io_err("cannot read", &license_path))?;
    let out = dist_dir().join(p.archive(&r.version));
    pack(p, &binary, &license, &out)?;
    let bytes = fs::read(&out).map_err(io_err("cannot read", &out))?;
    check_layout(p, &p.archive(&r.version), &bytes)?;
    println!("{}  {}", sha256_hex(&bytes), out.display());
    Ok(())
}

/// `cargo xtask krew-manifest [DIR]`.
pub fn krew_manifest(args: &[String]) -> Result<(), String> {
    let dir = args.first().map_or_else(dist_dir, |d| root().join(d));
    let r = release::read()?;
    let (text, sums) = fill(&r, &read_text(MANIFEST)?, &dir)?;
    for (name, body) in [(FILLED, &text), (SUMS, &sums)] {
        let path = dir.join(name);
        fs::File::create(&path)
            .and_then(|mut f| f.write_all(body.as_bytes()))
            .map_err(io_err("cannot write", &path))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template() -> String {
        read_text(MANIFEST).unwrap()
    }

    #[test]
    fn the_manifest_the_workflow_and_the_binary_agree() {
        let r = release::read().unwrap();
        let problems = check(&r).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        // Another version is caught in the manifest.
        let mut other = release::read().unwrap();
        other.version = "9.9.9".into();
        let problems = check_manifest(&other, &template(), false);
        for what in ["spec.version", "uri", "sha256"] {
            assert!(
                problems.iter().any(|p| p.contains(what)),
                "{what}: {problems:?}"
            );
        }
    }

    #[test]
    fn archive_names_and_binaries_per_platform() {
        let names: Vec<String> = PLATFORMS.iter().map(|p| p.archive("1.2.3")).collect();
        assert_eq!(
            names,
            [
                "kubectl-taintlab_v1.2.3_linux_amd64.tar.gz",
                "kubectl-taintlab_v1.2.3_linux_arm64.tar.gz",
                "kubectl-taintlab_v1.2.3_darwin_amd64.tar.gz",
                "kubectl-taintlab_v1.2.3_darwin_arm64.tar.gz",
                "kubectl-taintlab_v1.2.3_windows_amd64.tar.gz",
            ]
        );
        let bins: Vec<String> = PLATFORMS.iter().map(Platform::bin).collect();
        assert_eq!(bins[0], "kubectl-taintlab");
        assert_eq!(bins[4], "kubectl-taintlab.exe");
        assert_eq!(
            Platform::of_target("aarch64-apple-darwin").unwrap().arch,
            "arm64"
        );
        assert!(Platform::of_target("riscv64gc-unknown-linux-gnu").is_err());
        // Every release platform is one krew installs on.
        for p in PLATFORMS {
            assert!(KREW_PLATFORMS.contains(&(p.os, p.arch)), "{p:?}");
        }
    }

    #[test]
    fn krew_rules() {
        assert!(is_safe_plugin_name("taintlab"));
        assert!(is_safe_plugin_name("view_secret-2"));
        assert!(!is_safe_plugin_name("a/b"));
        assert!(!is_safe_plugin_name("con"));
        assert!(!is_safe_plugin_name(""));
        for ok in [
            "v0.1.0",
            "v1.2.3-rc.1",
            "v1.0.0+build.5",
            "v10.20.30-alpha-1",
        ] {
            assert!(is_krew_version(ok), "{ok}");
        }
        for bad in [
            "0.1.0",
            "v1.2",
            "v01.2.3",
            "v1.2.3-01",
            "v1.2.3-",
            "vx.y.z",
            "v1.2.3.4",
        ] {
            assert!(!is_krew_version(bad), "{bad}");
        }
        let t = template();
        assert!(validate("taintlab.yaml", &t, false).is_empty());
        // The unfilled template is not a manifest krew would take.
        assert!(
            validate("taintlab.yaml", &t, true)
                .iter()
                .any(|p| p.contains("`sha256` value {{sha256 kubectl-taintlab_v"))
        );
        let broken = |from: &str, to: &str| {
            assert!(t.contains(from), "{from}");
            validate("taintlab.yaml", &t.replacen(from, to, 1), false)
        };
        let has = |problems: Vec<String>, want: &str| {
            assert!(
                problems.iter().any(|p| p.contains(want)),
                "{want}: {problems:?}"
            );
        };
        has(
            validate("taint-lab.yaml", &t, false),
            "plugin should be named \"taint-lab\", not \"taintlab\"",
        );
        has(
            validate("taintlab.yml", &t, false),
            "expected manifest extension",
        );
        has(broken("kind: Plugin", "kind: Plugins"), "kind=\"Plugins\"");
        has(
            broken("v1alpha2", "v1alpha1"),
            "apiVersion=\"krew.googlecontainertools.github.com/v1alpha1\"",
        );
        has(
            broken("version: v", "version: "),
            "failed to parse plugin version",
        );
        has(
            broken("arch: amd64", "cpu: amd64"),
            "key \"cpu\" not supported",
        );
        has(
            broken("os: darwin", "os: plan9"),
            "doesn't match any supported platforms",
        );
        // Two platforms selecting linux/amd64.
        has(
            broken("arch: arm64", "arch: amd64"),
            "have overlapping selectors that select linux/amd64",
        );
        has(
            broken("bin: kubectl-taintlab\n", "bin: \"\"\n"),
            "`bin` has to be set",
        );
        has(
            broken(
                "- from: LICENSE\n          to: .",
                "- from: LICENSE\n          to: \"\"",
            ),
            "`to` field has to be set",
        );
        has(
            broken("shortDescription: ", "shortDescription: \"a\\nb\" #"),
            "line breaks in short description",
        );
    }

    #[test]
    fn selectors_match_like_apimachinery() {
        let sel = |y: &str| serde_yaml::from_str::<Value>(y).unwrap();
        let labels = sel("matchLabels: {os: linux, arch: arm64}");
        assert!(selects(&labels, "linux", "arm64").unwrap());
        assert!(!selects(&labels, "linux", "amd64").unwrap());
        let exprs = sel(
            "matchExpressions: [{key: os, operator: In, values: [darwin, linux]}, \
             {key: arch, operator: NotIn, values: [\"386\"]}]",
        );
        assert!(selects(&exprs, "darwin", "arm64").unwrap());
        assert!(!selects(&exprs, "linux", "386").unwrap());
        assert!(!selects(&exprs, "windows", "amd64").unwrap());
        let exists = sel("matchExpressions: [{key: os, operator: Exists}]");
        assert!(selects(&exists, "windows", "amd64").unwrap());
        assert!(
            selects(
                &sel("matchExpressions: [{key: os, operator: Gt}]"),
                "a",
                "b"
            )
            .is_err()
        );
    }

    #[test]
    fn the_workflow_builds_and_attaches_every_archive() {
        let r = release::read().unwrap();
        let text = read_text(release::WORKFLOW).unwrap();
        assert!(check_workflow(&r, &text).is_empty());
        // A platform dropped from the build matrix.
        let dropped = text.replace(
            "          - target: aarch64-apple-darwin\n            runner: macos-14\n",
            "",
        );
        assert_ne!(dropped, text);
        let problems = check_workflow(&r, &dropped);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("build matrix's targets")),
            "{problems:?}"
        );
        // An archive name spelt out that the build does not write.
        let spelt = text.replace(
            "gh release upload",
            "echo kubectl-taintlab_v0.0.1_linux_amd64.tar.gz; gh release upload",
        );
        let problems = check_workflow(&r, &spelt);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("kubectl-taintlab_v0.0.1_linux_amd64.tar.gz")),
            "{problems:?}"
        );
        let no_fill = text.replace("cargo xtask krew-manifest target/cli-dist", "true");
        assert!(!check_workflow(&r, &no_fill).is_empty());
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("xtask-krew-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn archives_are_packed_as_krew_installs_them_and_fill_the_manifest() {
        let r = release::read().unwrap();
        let dir = temp_dir("fill");
        let license = fs::read(root().join(LICENSE)).unwrap();
        for p in PLATFORMS {
            let binary = format!("binary for {}", p.target).into_bytes();
            pack(p, &binary, &license, &dir.join(p.archive(&r.version))).unwrap();
        }
        let linux = &PLATFORMS[0];
        let bytes = fs::read(dir.join(linux.archive(&r.version))).unwrap();
        assert_eq!(
            entries(&bytes).unwrap(),
            [
                ("kubectl-taintlab".to_string(), 0o755, true),
                ("LICENSE".to_string(), 0o644, true)
            ]
        );
        // A standard gzipped tar: GNU tar (Debian's, essential) lists it the same way.
        let listed = std::process::Command::new("tar")
            .arg("-tvzf")
            .arg(dir.join(linux.archive(&r.version)))
            .output()
            .expect("tar runs");
        assert!(listed.status.success());
        let listed = String::from_utf8_lossy(&listed.stdout);
        let lines: Vec<&str> = listed.lines().collect();
        assert_eq!(lines.len(), 2, "{listed}");
        assert!(
            lines[0].starts_with("-rwxr-xr-x") && lines[0].ends_with(" kubectl-taintlab"),
            "{listed}"
        );
        assert!(
            lines[1].starts_with("-rw-r--r--") && lines[1].ends_with(" LICENSE"),
            "{listed}"
        );
        // The same inputs give the same bytes.
        let again = dir.join("again.tar.gz");
        pack(
            linux,
            b"binary for x86_64-unknown-linux-musl",
            &license,
            &again,
        )
        .unwrap();
        assert_eq!(fs::read(&again).unwrap(), bytes);
        let windows = fs::read(dir.join(PLATFORMS[4].archive(&r.version))).unwrap();
        assert_eq!(entries(&windows).unwrap()[0].0, "kubectl-taintlab.exe");

        let (filled, sums) = fill(&r, &template(), &dir).unwrap();
        assert!(!filled.contains("{{sha256"));
        assert!(validate(FILLED, &filled, true).is_empty());
        let sha = sha256_hex(&bytes);
        assert!(filled.contains(&format!("sha256: \"{sha}\"")), "{filled}");
        assert!(sums.starts_with(&format!("{sha}  {}\n", linux.archive(&r.version))));
        assert_eq!(sums.lines().count(), PLATFORMS.len());
        let y: Value = serde_yaml::from_str(&filled).unwrap();
        let uri = s(&y["spec"]["platforms"][0]["uri"]);
        assert!(
            uri.ends_with(&format!("/{}", linux.archive(&r.version))),
            "{uri}"
        );

        // An archive without LICENSE, or with a binary of another name, is refused.
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        ));
        let mut h = tar::Header::new_gnu();
        h.set_size(3);
        h.set_mode(0o755);
        tar.append_data(&mut h, "taintlab", &b"bin"[..]).unwrap();
        let bad = tar.into_inner().unwrap().finish().unwrap();
        fs::write(dir.join(linux.archive(&r.version)), &bad).unwrap();
        let e = fill(&r, &template(), &dir).unwrap_err();
        assert!(e.contains("holds [\"taintlab\"]"), "{e}");
        // A missing archive is named.
        fs::remove_file(dir.join(linux.archive(&r.version))).unwrap();
        let e = fill(&r, &template(), &dir).unwrap_err();
        assert!(e.contains(&linux.archive(&r.version)), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
