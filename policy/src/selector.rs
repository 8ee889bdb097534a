//! Kubernetes label selectors in their string form (`kubectl get -l` syntax), evaluated
//! locally against node labels.
//!
//! Supported: `key`, `!key`, `key=value`, `key==value`, `key!=value`,
//! `key in (a,b)`, `key notin (a,b)`, joined by `,` (all must hold). The same string is
//! what the Kubernetes list call takes as `labelSelector`, so one syntax serves both.

use crate::quote;
use std::collections::BTreeMap;

/// One requirement of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// `key`
    Exists(String),
    /// `!key`
    DoesNotExist(String),
    /// `key=value` / `key==value`
    Equals(String, String),
    /// `key!=value` (also true when the label is absent)
    NotEquals(String, String),
    /// `key in (a,b)`
    In(String, Vec<String>),
    /// `key notin (a,b)` (also true when the label is absent)
    NotIn(String, Vec<String>),
}

impl Requirement {
    fn matches<'l>(&self, get: &impl Fn(&str) -> Option<&'l str>) -> bool {
        match self {
            Self::Exists(k) => get(k).is_some(),
            Self::DoesNotExist(k) => get(k).is_none(),
            Self::Equals(k, v) => get(k) == Some(v.as_str()),
            Self::NotEquals(k, v) => get(k) != Some(v.as_str()),
            Self::In(k, vs) => get(k).is_some_and(|v| vs.iter().any(|x| x == v)),
            Self::NotIn(k, vs) => get(k).is_none_or(|v| !vs.iter().any(|x| x == v)),
        }
    }
}

/// A parsed selector: every requirement must hold. An empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    /// The requirements, in the order written.
    pub requirements: Vec<Requirement>,
}

impl Selector {
    /// Parses the string form. Errors name the offending part.
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut requirements = Vec::new();
        for part in split_top_level(s)? {
            let part = part.trim();
            if part.is_empty() {
                if s.trim().is_empty() {
                    continue;
                }
                return Err(format!("empty requirement in selector {}", quote(s)));
            }
            requirements.push(parse_requirement(part)?);
        }
        Ok(Self { requirements })
    }

    /// Whether the labels satisfy every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.matches_lookup(|k| labels.get(k).map(String::as_str))
    }

    /// Whether the labels that `get` looks up satisfy every requirement.
    pub fn matches_lookup<'l>(&self, get: impl Fn(&str) -> Option<&'l str>) -> bool {
        self.requirements.iter().all(|r| r.matches(&get))
    }
}

/// Splits at commas that are not inside parentheses.
fn split_top_level(s: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced ')' in selector {}", quote(s)));
                }
            }
            ',' if depth == 0 => {
                parts.push(s.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("unbalanced '(' in selector {}", quote(s)));
    }
    parts.push(s.get(start..).unwrap_or(""));
    Ok(parts)
}

fn parse_requirement(part: &str) -> Result<Requirement, String> {
    if let Some(key) = part.strip_prefix('!') {
        return Ok(Requirement::DoesNotExist(check_key(key.trim())?));
    }
    if let Some((k, v)) = part.split_once("!=") {
        return Ok(Requirement::NotEquals(
            check_key(k.trim())?,
            check_value(v.trim())?,
        ));
    }
    if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
        return Ok(Requirement::Equals(
            check_key(k.trim())?,
            check_value(v.trim())?,
        ));
    }
    let mut words = part.splitn(2, char::is_whitespace);
    let key = words.next().unwrap_or("").trim();
    let rest = words.next().unwrap_or("").trim();
    if rest.is_empty() {
        return Ok(Requirement::Exists(check_key(key)?));
    }
    let (op, list) = if let Some(list) = rest.strip_prefix("notin") {
        ("notin", list)
    } else if let Some(list) = rest.strip_prefix("in") {
        ("in", list)
    } else {
        return Err(format!(
            "cannot parse requirement {}: expected key, !key, key=value, key!=value, key in (...) or key notin (...)",
            quote(part)
        ));
    };
    let list = list.trim();
    let inner = list
        .strip_prefix('(')
        .and_then(|l| l.strip_suffix(')'))
        .ok_or_else(|| format!("{op} needs a parenthesised list in {}", quote(part)))?;
    let values = inner
        .split(',')
        .map(|v| check_value(v.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    let key = check_key(key)?;
    Ok(if op == "in" {
        Requirement::In(key, values)
    } else {
        Requirement::NotIn(key, values)
    })
}

fn check_key(key: &str) -> Result<String, String> {
    if taintlab_core::validation::is_qualified_name(key) {
        Ok(String::from(key))
    } else {
        Err(format!("invalid label key {} in selector", quote(key)))
    }
}

fn check_value(value: &str) -> Result<String, String> {
    if taintlab_core::validation::is_label_value(value) {
        Ok(String::from(value))
    } else {
        Err(format!("invalid label value {} in selector", quote(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    #[test]
    fn forms() {
        let l = labels(&[
            ("pool", "gpu"),
            ("node-role.kubernetes.io/control-plane", ""),
        ]);
        let t = |s: &str| Selector::parse(s).unwrap().matches(&l);
        assert!(t("pool=gpu"));
        assert!(t("pool==gpu"));
        assert!(!t("pool!=gpu"));
        assert!(t("zone!=a"));
        assert!(t("node-role.kubernetes.io/control-plane"));
        assert!(!t("!node-role.kubernetes.io/control-plane"));
        assert!(t("pool in (cpu, gpu)"));
        assert!(!t("pool notin (cpu,gpu)"));
        assert!(t("zone notin (a)"));
        assert!(!t("zone in (a)"));
        assert!(t("pool=gpu, node-role.kubernetes.io/control-plane"));
        assert!(!t("pool=gpu,zone"));
        assert!(t(""));
    }

    #[test]
    fn errors() {
        for bad in [
            "pool in gpu",
            "pool in (gpu",
            "=x",
            "pool=gpu,",
            "a b c",
            "p=Bad Value",
            "x)",
        ] {
            assert!(Selector::parse(bad).is_err(), "{bad}");
        }
    }
}
