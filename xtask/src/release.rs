//! The release settings and the files that must agree with them.
//!
//! The workspace `Cargo.toml` is the one place the release's version
//! (`[workspace.package] version`), repository address (`repository`) and the policy's
//! OCI repository and maintainer (`[workspace.metadata.release]`) are set. [`check`]
//! lists every place that disagrees: the policy's `metadata.yml` annotations, its
//! Artifact Hub package, the examples' module references, the READMEs and CHANGELOG,
//! and the release workflow (which must build and push the artifacts `cargo xtask
//! policy` writes), and the command-line tool's krew manifest, archives and build matrix
//! ([`crate::krew::check`]). `cargo xtask release-check [TAG]` runs it (the workflow
//! does, with the tag it releases), and so do xtask's unit tests.

use std::fs;
use std::path::Path;

use serde_yaml::Value;

use crate::helpers::{io_err, root};
use crate::{ANNOTATED_POLICY_WASM, POLICY_DIR, POLICY_OUT_DIR, POLICY_WASM};

/// Where the release workflow lives.
pub const WORKFLOW: &str = ".github/workflows/release.yml";

/// The release settings from `Cargo.toml`.
#[derive(Debug, PartialEq, Eq)]
pub struct Release {
    /// `[workspace.package] version`.
    pub version: String,
    /// `[workspace.package] repository`, e.g. `https://github.com/taintlab/taintlab`.
    pub repository: String,
    /// `[workspace.metadata.release] policy-oci`: the policy's OCI repository.
    pub policy_oci: String,
    /// `[workspace.metadata.release] maintainer-name`.
    pub maintainer_name: String,
    /// `[workspace.metadata.release] maintainer-email`.
    pub maintainer_email: String,
}

impl Release {
    /// The git tag and OCI tag of the release: `v<version>`.
    pub fn tag(&self) -> String {
        format!("v{}", self.version)
    }

    /// The policy's OCI reference for this release.
    pub fn policy_ref(&self) -> String {
        format!("{}:{}", self.policy_oci, self.tag())
    }

    /// Where the release workflow attaches a file to the GitHub release.
    pub fn download_url(&self, file: &str) -> String {
        format!(
            "{}/releases/download/{}/{file}",
            self.repository,
            self.tag()
        )
    }

    /// `Name <email>`, the form `kwctl scaffold artifacthub` requires.
    pub fn author(&self) -> String {
        format!("{} <{}>", self.maintainer_name, self.maintainer_email)
    }
}

/// The value of `key = "..."` in `[table]` of a TOML text (the simple string form the
/// workspace manifest uses).
fn toml_string(text: &str, table: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            inside = l == format!("[{table}]");
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = l.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            let v = v.trim();
            return v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(String::from);
        }
    }
    None
}

/// Reads the release settings from a workspace manifest's text.
pub fn parse(cargo_toml: &str) -> Result<Release, String> {
    let get = |table: &str, key: &str| {
        toml_string(cargo_toml, table, key)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("Cargo.toml: [{table}] {key} is not set"))
    };
    let r = Release {
        version: get("workspace.package", "version")?,
        repository: get("workspace.package", "repository")?,
        policy_oci: get("workspace.metadata.release", "policy-oci")?,
        maintainer_name: get("workspace.metadata.release", "maintainer-name")?,
        maintainer_email: get("workspace.metadata.release", "maintainer-email")?,
    };
    if r.repository.ends_with('/') || !r.repository.starts_with("https://") {
        return Err(format!(
            "Cargo.toml: repository {:?} must be an https address without a trailing slash",
            r.repository
        ));
    }
    if r.policy_oci.contains(':') || r.policy_oci.contains("://") {
        return Err(format!(
            "Cargo.toml: policy-oci {:?} must be a repository without a tag or scheme",
            r.policy_oci
        ));
    }
    Ok(r)
}

/// The release settings of this workspace.
pub fn read() -> Result<Release, String> {
    let path = root().join("Cargo.toml");
    parse(&fs::read_to_string(&path).map_err(io_err("cannot read", &path))?)
}

fn read_text(rel: &str) -> Result<String, String> {
    let path = root().join(rel);
    fs::read_to_string(&path).map_err(io_err("cannot read", &path))
}

fn yaml(rel: &str) -> Result<Value, String> {
    serde_yaml::from_str(&read_text(rel)?).map_err(|e| format!("{rel}: {e}"))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Collects a disagreement.
struct Problems(Vec<String>);

impl Problems {
    fn expect(&mut self, file: &str, what: &str, got: &str, want: &str) {
        if got != want {
            self.0.push(format!(
                "{file}: {what} is {got:?}, Cargo.toml says {want:?}"
            ));
        }
    }
}

/// Every `prefix...` token in a text (up to whitespace, quotes, brackets or backticks).
fn tokens<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &text[at..];
            let end = rest
                .find(|c: char| c.is_whitespace() || "\"'`)]|,".contains(c))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches(['.', ';', ':'])
        })
        .collect()
}

/// The places that disagree with the release settings; empty when all agree.
pub fn check(r: &Release) -> Result<Vec<String>, String> {
    let mut p = Problems(Vec::new());
    let dir = POLICY_DIR;

    // metadata.yml: what kwctl annotate embeds and `kwctl scaffold artifacthub` reads.
    let meta_file = format!("{dir}/metadata.yml");
    let meta = yaml(&meta_file)?;
    let a = &meta["annotations"];
    for (key, want) in [
        ("io.kubewarden.policy.version", r.version.clone()),
        ("io.kubewarden.policy.ociUrl", r.policy_oci.clone()),
        ("io.kubewarden.policy.url", r.repository.clone()),
        ("io.kubewarden.policy.source", r.repository.clone()),
        ("io.kubewarden.policy.author", r.author()),
    ] {
        p.expect(&meta_file, key, s(&a[key]), &want);
    }

    // artifacthub-pkg.yml
    let pkg_file = format!("{dir}/artifacthub-pkg.yml");
    let pkg = yaml(&pkg_file)?;
    p.expect(&pkg_file, "version", s(&pkg["version"]), &r.version);
    p.expect(&pkg_file, "homeURL", s(&pkg["homeURL"]), &r.repository);
    let images = pkg["containersImages"].as_sequence().cloned();
    if images.as_ref().is_none_or(|i| i.is_empty()) {
        p.0.push(format!("{pkg_file}: no containersImages"));
    }
    for image in images.unwrap_or_default() {
        p.expect(&pkg_file, "image", s(&image["image"]), &r.policy_ref());
    }
    for link in pkg["links"].as_sequence().cloned().unwrap_or_default() {
        match s(&link["name"]) {
            "policy" => p.expect(
                &pkg_file,
                "the policy link",
                s(&link["url"]),
                &r.download_url(POLICY_WASM),
            ),
            "source" => p.expect(&pkg_file, "the source link", s(&link["url"]), &r.repository),
            other => p.0.push(format!("{pkg_file}: unexpected link {other:?}")),
        }
    }
    let maintainer = &pkg["maintainers"][0];
    p.expect(
        &pkg_file,
        "maintainer name",
        s(&maintainer["name"]),
        &r.maintainer_name,
    );
    p.expect(
        &pkg_file,
        "maintainer email",
        s(&maintainer["email"]),
        &r.maintainer_email,
    );
    let install = s(&pkg["install"]);
    if !install.contains(&r.policy_ref()) {
        p.0.push(format!(
            "{pkg_file}: install does not name {}",
            r.policy_ref()
        ));
    }

    // Every text that names the registry, the repository or a placeholder.
    let mut texts = vec![
        "README.md".to_string(),
        "CHANGELOG.md".to_string(),
        WORKFLOW.to_string(),
        format!("{dir}/README.md"),
        format!("{dir}/DEVELOPMENT.md"),
        meta_file.clone(),
        pkg_file.clone(),
        crate::krew::MANIFEST.to_string(),
    ];
    let examples = root().join(dir).join("examples");
    let mut names: Vec<String> = fs::read_dir(&examples)
        .map_err(io_err("cannot read", &examples))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    names.sort();
    texts.extend(names.iter().map(|n| format!("{dir}/examples/{n}")));
    let registry_host = r.policy_oci.split('/').next().unwrap_or("");
    let owner = r.policy_oci.split('/').nth(1).unwrap_or("");
    let own_registry = format!("{registry_host}/{owner}/");
    // The repository owner's address: links under it must be links into the repository.
    let repo_owner = r
        .repository
        .rsplit_once('/')
        .map(|(h, _)| format!("{h}/"))
        .unwrap_or_default();
    let mut modules = 0;
    for rel in &texts {
        let text = read_text(rel)?;
        if text.contains("example.invalid") {
            p.0.push(format!("{rel}: names the placeholder example.invalid"));
        }
        for t in tokens(&text, "registry://") {
            modules += 1;
            p.expect(
                rel,
                "a module reference",
                t,
                &format!("registry://{}", r.policy_ref()),
            );
        }
        for t in tokens(&text, &own_registry) {
            // The reference of this release, or the generic `<oci>:v<version>`.
            let generic = format!("{}:v<version>", r.policy_oci);
            if t != r.policy_oci && t != r.policy_ref() && t != generic {
                p.0.push(format!(
                    "{rel}: {t:?} is neither {} nor {}",
                    r.policy_oci,
                    r.policy_ref()
                ));
            }
        }
        for t in tokens(&text, &repo_owner) {
            if !t.starts_with(&r.repository) {
                p.0.push(format!("{rel}: {t:?} is not under {}", r.repository));
            }
        }
    }
    if modules == 0 {
        p.0.push(format!("{dir}/examples: no registry:// module reference"));
    }

    // CHANGELOG.md has an entry for the version.
    let changelog = read_text("CHANGELOG.md")?;
    if !changelog
        .lines()
        .any(|l| l.starts_with(&format!("## [{}]", r.version)))
    {
        p.0.push(format!("CHANGELOG.md: no `## [{}]` entry", r.version));
    }

    check_workflow(&read_text(WORKFLOW)?, &mut p.0);
    p.0.extend(crate::krew::check(r)?);
    Ok(p.0)
}

/// The release workflow builds with `cargo xtask policy`, tests the annotated module,
/// pushes and signs exactly the artifacts the build writes, and reads the settings from
/// `Cargo.toml` instead of repeating them.
fn check_workflow(text: &str, problems: &mut Vec<String>) {
    let w = WORKFLOW;
    if let Err(e) = serde_yaml::from_str::<Value>(text) {
        problems.push(format!("{w}: not YAML: {e}"));
    }
    let annotated = format!("{POLICY_OUT_DIR}/{ANNOTATED_POLICY_WASM}");
    let plain = format!("{POLICY_OUT_DIR}/{POLICY_WASM}");
    for needed in [
        "cargo xtask release-check",
        "cargo xtask policy",
        "TAINTLAB_POLICY_WASM",
        "kwctl push",
        "cosign sign",
        "id-token: write",
        "artifacthub-pkg.yml",
        "cargo metadata",
        "policy-oci",
        &annotated,
        &plain,
    ] {
        if !text.contains(needed) {
            problems.push(format!("{w}: does not mention {needed:?}"));
        }
    }
    // Every build artifact it names is one the build writes (the policy's modules, or
    // the command-line tool's archives and krew manifest).
    for t in tokens(text, "target/") {
        if t != annotated
            && t != plain
            && t != "target"
            && !t.starts_with(crate::krew::DIST_IN_WORKFLOW)
        {
            problems.push(format!(
                "{w}: names {t:?}, which `cargo xtask policy` does not write (it writes {plain} and {annotated})"
            ));
        }
    }
    if text.contains("CARGO_TARGET_DIR") && !text.contains("CARGO_TARGET_DIR: target") {
        problems.push(format!(
            "{w}: CARGO_TARGET_DIR must be `target` so the artifacts land where it looks"
        ));
    }
    if !Path::new(POLICY_OUT_DIR).starts_with("target") {
        problems.push("POLICY_OUT_DIR is not under target/".into());
    }
}

/// `cargo xtask release-check [TAG]`: the files agree with `Cargo.toml`, and the tag
/// being released (if given) is `v<version>`.
pub fn run_check(args: &[String]) -> Result<(), String> {
    let r = read()?;
    let mut problems = check(&r)?;
    if let Some(tag) = args.first()
        && *tag != r.tag()
    {
        problems.push(format!(
            "the tag {tag:?} is not {:?} (Cargo.toml's version)",
            r.tag()
        ));
    }
    if problems.is_empty() {
        println!(
            "release {}: {} from {}, files agree",
            r.tag(),
            r.policy_ref(),
            r.repository
        );
        Ok(())
    } else {
        Err(format!(
            "release files disagree with Cargo.toml:\n  {}",
            problems.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_files_agree_with_cargo_toml() {
        let r = read().unwrap();
        assert_eq!(r.tag(), format!("v{}", r.version));
        let problems = check(&r).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_drifted_setting_is_caught() {
        let mut r = read().unwrap();
        r.version = "9.9.9".into();
        let problems = check(&r).unwrap();
        for file in [
            "metadata.yml",
            "artifacthub-pkg.yml",
            "examples/",
            "CHANGELOG.md",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(file)),
                "{file} not flagged: {problems:?}"
            );
        }
        let mut r = read().unwrap();
        r.policy_oci = "ghcr.io/taintlab/policies/other".into();
        let problems = check(&r).unwrap();
        assert!(
            problems.iter().any(|p| p.contains("README.md")),
            "{problems:?}"
        );
    }

    #[test]
    fn the_workflow_names_what_the_build_writes() {
        let text = read_text(WORKFLOW).unwrap();
        let mut problems = Vec::new();
        check_workflow(&text, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        // A renamed artifact is caught.
        let renamed = text.replace(ANNOTATED_POLICY_WASM, "annotated.wasm");
        let mut problems = Vec::new();
        check_workflow(&renamed, &mut problems);
        assert!(
            problems.iter().any(|p| p.contains("annotated.wasm")),
            "{problems:?}"
        );
        let mut problems = Vec::new();
        check_workflow(&text.replace("kwctl push", "kwctl pull"), &mut problems);
        assert!(!problems.is_empty());
    }

    #[test]
    fn settings_are_read_from_the_manifest() {
        let toml = "[workspace.package]\nversion = \"1.2.3\"\nrepository = \"https://github.com/o/r\"\n\n\
                    [workspace.metadata.release]\npolicy-oci = \"ghcr.io/o/p\"\n\
                    maintainer-name = \"N\"\nmaintainer-email = \"n@o.org\"\n";
        let r = parse(toml).unwrap();
        assert_eq!(r.policy_ref(), "ghcr.io/o/p:v1.2.3");
        assert_eq!(
            r.download_url("policy.wasm"),
            "https://github.com/o/r/releases/download/v1.2.3/policy.wasm"
        );
        assert_eq!(r.author(), "N <n@o.org>");
        assert!(parse(&toml.replace("ghcr.io/o/p", "ghcr.io/o/p:v1")).is_err());
        assert!(parse(&toml.replace("https://github.com/o/r", "github.com/o/r")).is_err());
        assert!(parse(&toml.replace("policy-oci", "policy_oci")).is_err());
    }
}
