//! The Hugo test site (`tests/docsites/hugo`): the taintlab Hugo module (`docs/hugo`)
//! in a real site built with Debian's hugo, checked in headless Chromium.
//!
//! `tests/docsites/hugo/build.mjs` sets the site up the way `wasm/js/README.md` tells a
//! writer to (the module as the theme component `themes/taintlab`, the package's files
//! for a static site in `static/taintlab/`) and runs `hugo`; `test.mjs` serves the result
//! under `/docs/` and checks every widget's verdict, editing, console errors, one wasm
//! download per page, dark mode, the page's language on the `zh-cn` page, the fallback
//! without JavaScript and the shared fence cases, and reports bytes per page and the
//! first widget's render time.

use std::path::Path;
use std::process::Command;

use crate::docsites::browser_test;
use crate::helpers::{AptPackages, output, root, run, target_dir};

/// Debian's hugo (bookworm: 0.111.3, extended). The module needs at least 0.110.
pub const HUGO: AptPackages = AptPackages {
    packages: &["hugo"],
    programs: &["hugo"],
};

/// The oldest hugo the module supports (`docs/hugo/hugo.toml`): `findRESubmatch`.
pub const HUGO_MIN: (u32, u32) = (0, 110);

/// `hugo v0.111.3+extended linux/amd64 ...` -> (0, 111).
pub fn hugo_version(line: &str) -> Option<(u32, u32)> {
    let v = line.split_whitespace().nth(1)?.strip_prefix('v')?;
    let mut parts = v.split(['.', '+', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Builds the Hugo test site with the package in `pkg` and runs its browser checks.
pub fn test(pkg: &Path) -> Result<(), String> {
    let line = output(Command::new("hugo").arg("version")).ok_or("hugo does not run")?;
    println!("    {line}");
    match hugo_version(&line) {
        Some(v) if v >= HUGO_MIN => {}
        _ => {
            return Err(format!(
                "the Hugo module needs hugo {}.{} or newer; found: {line}",
                HUGO_MIN.0, HUGO_MIN.1
            ));
        }
    }
    let dir = root().join("tests").join("docsites").join("hugo");
    let out = target_dir().join("docsites").join("hugo");
    run(
        "Hugo test site: build",
        Command::new("node")
            .arg(dir.join("build.mjs"))
            .env("TAINTLAB_PKG", pkg)
            .env("OUT", &out)
            .current_dir(root()),
    )?;
    let built = out.join("public");
    browser_test(
        "headless Chromium: the Hugo site",
        "hugo/test.mjs",
        &[],
        &[("HUGO_PUBLIC", &built.to_string_lossy())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_versions_are_read() {
        let debian = "hugo v0.111.3+extended linux/amd64 BuildDate=2023-03-16T08:41:31Z VendorInfo=debian:0.111.3-1";
        assert_eq!(hugo_version(debian), Some((0, 111)));
        assert!(hugo_version(debian).unwrap() >= HUGO_MIN);
        assert_eq!(hugo_version("hugo v0.92.2 linux/amd64"), Some((0, 92)));
        assert!(hugo_version("hugo v0.92.2 linux/amd64").unwrap() < HUGO_MIN);
        assert_eq!(hugo_version("not hugo"), None);
    }

    #[test]
    fn the_module_states_the_same_minimum() {
        let config = std::fs::read_to_string(root().join("docs/hugo/hugo.toml")).unwrap();
        assert!(
            config.contains(&format!("min = \"{}.{}.0\"", HUGO_MIN.0, HUGO_MIN.1)),
            "docs/hugo/hugo.toml"
        );
    }
}
