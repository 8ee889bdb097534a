//! A config file for default flags: `--config FILE`, else `$TAINTLAB_CONFIG`, else
//! `$XDG_CONFIG_HOME/taintlab/config.yaml` (`~/.config/taintlab/config.yaml`) when it
//! exists. Flags given on the command line win.
//!
//! ```yaml
//! kubernetesVersion: "1.33"
//! comparisonOperators: false
//! admission: true          # false: like --no-admission
//! daemonSet: auto          # auto | all | none
//! color: auto              # auto | always | never
//! ```

use std::path::PathBuf;

use serde_json::Value;

use crate::{Color, Common, DaemonSet};

const KEYS: [&str; 5] = [
    "kubernetesVersion",
    "comparisonOperators",
    "admission",
    "daemonSet",
    "color",
];

/// The config file to read, if any.
fn path(c: &Common) -> Option<(PathBuf, bool)> {
    if let Some(p) = &c.config {
        return Some((p.clone(), true));
    }
    if let Some(p) = std::env::var_os("TAINTLAB_CONFIG").filter(|p| !p.is_empty()) {
        return Some((PathBuf::from(p), true));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some((base.join("taintlab/config.yaml"), false))
}

/// Fills the flags not given from the config file.
pub fn apply(c: &mut Common) -> Result<(), String> {
    let Some((path, required)) = path(c) else {
        return Ok(());
    };
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) if !required => return Ok(()),
        Err(e) => return Err(format!("{name}: cannot read: {e}")),
    };
    if text.trim().is_empty() {
        return Ok(());
    }
    let v = crate::input::read_document(&name, &text)?;
    let Value::Object(m) = v else {
        return Err(format!("{name}: must be a mapping of {}", KEYS.join(", ")));
    };
    for (k, v) in &m {
        let bad = |what: &str| format!("{name}: {k}: must be {what}, got {v}");
        match k.as_str() {
            "kubernetesVersion" => {
                let s = v.as_str().ok_or_else(|| bad("a string such as \"1.33\""))?;
                c.kubernetes_version.get_or_insert_with(|| s.to_string());
            }
            "comparisonOperators" => {
                c.comparison_operators |= v.as_bool().ok_or_else(|| bad("true or false"))?;
            }
            "admission" => {
                c.no_admission |= !v.as_bool().ok_or_else(|| bad("true or false"))?;
            }
            "daemonSet" => {
                let d = match v.as_str() {
                    Some("auto") => DaemonSet::Auto,
                    Some("all") => DaemonSet::All,
                    Some("none") => DaemonSet::None,
                    _ => return Err(bad("auto, all or none")),
                };
                c.daemonset.get_or_insert(d);
            }
            "color" => {
                let col = match v.as_str() {
                    Some("auto") => Color::Auto,
                    Some("always") => Color::Always,
                    Some("never") => Color::Never,
                    _ => return Err(bad("auto, always or never")),
                };
                c.color.get_or_insert(col);
            }
            other => {
                return Err(format!(
                    "{name}: unknown key {other:?}; the keys are {}",
                    KEYS.join(", ")
                ));
            }
        }
    }
    Ok(())
}
