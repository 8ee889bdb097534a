//! The Docusaurus test site (`tests/docsites/docusaurus`): `taintlab/docusaurus` (the
//! remark plugin, the component and the plugin) in a real Docusaurus 3 site, checked in
//! headless Chromium.
//!
//! Docusaurus and its dependencies come from the lockfile committed in
//! `tests/docsites/docusaurus/site`, installed with `npm ci` into
//! `<target>/docsites/docusaurus-modules` (outside the clone, like the compiled Rust
//! dependencies: a fresh clone on a reused machine installs nothing and keeps webpack's
//! cache); the install is skipped while the lockfile there equals the committed one.
//! `build.mjs` copies the freshly built package into that `node_modules` and builds both
//! locales under `baseUrl: "/sub/"`; `test.mjs` checks every widget's verdict, editing,
//! console errors, one wasm download per page, client-side navigation both ways, dark
//! mode, the stylesheet under the base URL, the pt-BR locale, the server-rendered
//! fallback and the shared fence cases, and reports bytes per page and the first
//! widget's render time.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::docsites::browser_test;
use crate::helpers::{io_err as io, root, run, target_dir, tool};

/// The test site's sources, with its `package.json` and `package-lock.json`
/// (Docusaurus 3.10.2, React 19).
pub const SITE: &str = "tests/docsites/docusaurus/site";

/// The test site's `node_modules`: `npm ci` from the committed lockfile into
/// `<target>/docsites/docusaurus-modules`, unless that directory holds a finished install
/// from the same lockfile (a copy of it is written there after `npm ci` succeeds).
pub fn ensure_modules() -> Result<PathBuf, String> {
    let site = root().join(SITE);
    let dir = target_dir().join("docsites").join("docusaurus-modules");
    let lock = site.join("package-lock.json");
    let want = fs::read(&lock).map_err(io("cannot read", &lock))?;
    let stamp = dir.join("installed-from.package-lock.json");
    let modules = dir.join("node_modules");
    if fs::read(&stamp).ok().as_deref() == Some(&want[..])
        && modules.join("@docusaurus").join("core").is_dir()
    {
        return Ok(modules);
    }
    fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
    let _ = fs::remove_file(&stamp);
    for name in ["package.json", "package-lock.json"] {
        let from = site.join(name);
        fs::copy(&from, dir.join(name)).map_err(io("cannot copy", &from))?;
    }
    let start = Instant::now();
    run(
        "npm ci: the Docusaurus test site's packages (once per lockfile)",
        tool("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir),
    )?;
    fs::write(&stamp, &want).map_err(io("cannot write", &stamp))?;
    println!(
        "    Docusaurus packages installed in {:.0}s",
        start.elapsed().as_secs_f64()
    );
    Ok(modules)
}

/// Builds the Docusaurus test site with the package in `pkg` and runs its browser checks.
pub fn test(pkg: &Path) -> Result<(), String> {
    let n = check_recipes()?;
    println!("    wasm/js/README.md: {n} recipe blocks are the test sites' files");
    let modules = ensure_modules()?;
    let dir = root().join("tests").join("docsites").join("docusaurus");
    let out = target_dir().join("docsites").join("docusaurus");
    run(
        "Docusaurus test site: build (en, pt-BR)",
        Command::new("node")
            .arg(dir.join("build.mjs"))
            .env("TAINTLAB_PKG", pkg)
            .env("DOCUSAURUS_MODULES", &modules)
            .env("OUT", &out)
            .current_dir(root()),
    )?;
    let built = out.join("build");
    browser_test(
        "headless Chromium: the Docusaurus site",
        "docusaurus/test.mjs",
        &[],
        &[("DOCUSAURUS_BUILD", &built.to_string_lossy())],
    )
}

/// Checks the recipes of `wasm/js/README.md` marked `<!-- checked: PATH -->` against the
/// test sites' files: each must be there as written (see [`missing_part`]).
pub fn check_recipes() -> Result<usize, String> {
    let path = root().join("wasm").join("js").join("README.md");
    let readme = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let recipes = checked_recipes(&readme)?;
    for (file, block) in &recipes {
        let text = std::fs::read_to_string(root().join(file))
            .map_err(|e| format!("wasm/js/README.md names {file}: {e}"))?;
        if let Some(part) = missing_part(block, &text) {
            return Err(format!(
                "wasm/js/README.md: this part of a recipe is not in {file}:\n{part}"
            ));
        }
    }
    Ok(recipes.len())
}

/// The README recipes checked against the test sites: each `<!-- checked: PATH -->`
/// line of `wasm/js/README.md` and the fenced block after it (PATH, the block's lines).
pub fn checked_recipes(readme: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("<!-- checked:") else {
            continue;
        };
        let path = rest.trim_end_matches("-->").trim().to_string();
        let open = lines.get(i + 1).copied().unwrap_or_default();
        let ticks = open.chars().take_while(|&c| c == '`').count();
        if ticks < 3 {
            return Err(format!(
                "README line {}: a fenced block must follow `checked: {path}`",
                i + 1
            ));
        }
        let close = "`".repeat(ticks);
        let body: Vec<String> = lines[i + 2..]
            .iter()
            .take_while(|l| l.trim_end() != close)
            .map(|l| l.trim_end().to_string())
            .collect();
        if i + 2 + body.len() >= lines.len() {
            return Err(format!("README line {}: the block is not closed", i + 2));
        }
        out.push((path, body));
    }
    Ok(out)
}

/// Whether `block` is in `file`: its parts between `// ...` and `# ...` lines, each as
/// consecutive lines (trailing spaces aside), in order. Returns the first part missing.
pub fn missing_part(block: &[String], file: &str) -> Option<String> {
    let file: Vec<&str> = file.lines().map(str::trim_end).collect();
    let mut from = 0;
    for part in block.split(|l| matches!(l.trim(), "// ..." | "# ...")) {
        let start = part
            .iter()
            .position(|l| !l.is_empty())
            .unwrap_or(part.len());
        let end = part
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(start, |e| e + 1);
        let part = &part[start..end];
        if part.is_empty() {
            continue;
        }
        let found = (from..=file.len().saturating_sub(part.len()))
            .find(|&at| file.len() >= part.len() && file[at..at + part.len()] == *part);
        match found {
            Some(at) => from = at + part.len(),
            None => return Some(part.join("\n")),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_recipes_are_in_the_test_sites() {
        let readme = std::fs::read_to_string(root().join("wasm/js/README.md")).unwrap();
        let recipes = checked_recipes(&readme).unwrap();
        for site in ["tests/docsites/hugo/", "tests/docsites/docusaurus/"] {
            assert!(
                recipes.iter().any(|(p, _)| p.starts_with(site)),
                "no README recipe is checked against {site}"
            );
        }
        assert_eq!(check_recipes(), Ok(recipes.len()));
    }

    #[test]
    fn recipe_parts_must_be_whole_and_in_order() {
        let file = "a\nb\nc\nd\n";
        let block = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
        assert_eq!(missing_part(&block("b\nc"), file), None);
        assert_eq!(missing_part(&block("a\n// ...\nd"), file), None);
        assert_eq!(missing_part(&block("a\nc"), file), Some("a\nc".into()));
        assert_eq!(missing_part(&block("c\n# ...\na"), file), Some("a".into()));
        let readme = "x\n<!-- checked: f.txt -->\n```js\na\n```\n";
        assert_eq!(
            checked_recipes(readme).unwrap(),
            vec![("f.txt".to_string(), vec!["a".to_string()])]
        );
        assert!(checked_recipes("<!-- checked: f -->\ntext\n").is_err());
        assert!(checked_recipes("<!-- checked: f -->\n```\na\n").is_err());
    }
}
