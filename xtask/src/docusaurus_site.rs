//! The Docusaurus test site (`tests/docsites/docusaurus`): `taintlab/docusaurus` (the
//! remark plugin, the component and the plugin) in a real Docusaurus 3 site, checked in
//! headless Chromium.
//!
//! Docusaurus and its dependencies come from the lockfile committed in
//! `tests/docsites/docusaurus/site` (`npm ci`, guarded like every npm install: skipped
//! while `node_modules` matches the lockfile, so a reused machine installs nothing).
//! `build.mjs` copies the freshly built package into that `node_modules` and builds both
//! locales under `baseUrl: "/sub/"`; `test.mjs` checks every widget's verdict, editing,
//! console errors, one wasm download per page, client-side navigation both ways, dark
//! mode, the stylesheet under the base URL, the pt-BR locale, the server-rendered
//! fallback and the shared fence cases, and reports bytes per page and the first
//! widget's render time.

use std::path::Path;
use std::process::Command;

use crate::helpers::{NpmPackages, root, run, target_dir};

/// The test site's npm packages (Docusaurus 3.10.2, React 19, pinned in its lockfile).
pub const NPM_DOCUSAURUS: NpmPackages = NpmPackages {
    dir: "tests/docsites/docusaurus/site",
    packages: &[
        "@docusaurus/core",
        "@docusaurus/preset-classic",
        "react",
        "react-dom",
    ],
    bins: &["docusaurus"],
};

/// Builds the Docusaurus test site with the package in `pkg` and runs its browser checks.
pub fn test(pkg: &Path, chromium: &Path) -> Result<(), String> {
    let dir = root().join("tests").join("docsites").join("docusaurus");
    let out = target_dir().join("docsites").join("docusaurus");
    run(
        "Docusaurus test site: build (en, pt-BR)",
        Command::new("node")
            .arg(dir.join("build.mjs"))
            .env("TAINTLAB_PKG", pkg)
            .env("OUT", &out)
            .current_dir(root()),
    )?;
    run(
        "Docusaurus test site: headless Chromium",
        Command::new("node")
            .arg(dir.join("test.mjs"))
            .env("DOCUSAURUS_BUILD", out.join("build"))
            .env("CHROMIUM", chromium)
            .current_dir(root()),
    )
}
