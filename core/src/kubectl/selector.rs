//! Equality-based label selectors for `kubectl taint -l ...` (a subset of apimachinery
//! `labels.Parse`).
//!
//! Supported: `k=v`, `k==v`, `k!=v`, `k` (exists), `!k` (does not exist), joined with
//! commas; whitespace around keys, operators and values is ignored. Set-based syntax
//! (`in`, `notin`, parentheses) and `<`/`>` are rejected with a clear error instead of
//! being misread. Error texts are this crate's own, not kubectl's.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::validation::{label_value_errors, qualified_name_errors};
use crate::version::KubeVersion;

/// One requirement of a [`LabelSelector`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requirement {
    /// `k=v` / `k==v`: the label is present with this value.
    Equals(String, String),
    /// `k!=v`: the label is absent or has another value.
    NotEquals(String, String),
    /// `k`: the label is present (any value).
    Exists(String),
    /// `!k`: the label is absent.
    DoesNotExist(String),
}

impl Requirement {
    /// Whether a label set satisfies this requirement (as `labels.Requirement.Matches`).
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Self::Equals(k, v) => labels.get(k) == Some(v),
            Self::NotEquals(k, v) => labels.get(k) != Some(v),
            Self::Exists(k) => labels.contains_key(k),
            Self::DoesNotExist(k) => !labels.contains_key(k),
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Equals(k, v) => write!(f, "{k}={v}"),
            Self::NotEquals(k, v) => write!(f, "{k}!={v}"),
            Self::Exists(k) => f.write_str(k),
            Self::DoesNotExist(k) => write!(f, "!{k}"),
        }
    }
}

/// A parsed label selector: every requirement must hold. The empty selector matches
/// every node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LabelSelector {
    /// The requirements, in the order written.
    pub requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// Parses `k=v,k2!=v2,k3,!k4`. Keys must be qualified names and values label values
    /// (messages from [`crate::validation`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(Self::default());
        }
        let set_based = trimmed.contains(['(', ')', '<', '>'])
            || trimmed
                .split(|c: char| c.is_whitespace() || c == ',')
                .any(|w| w == "in" || w == "notin");
        if set_based {
            return Err(format!(
                "unsupported label selector {text:?}: only equality-based requirements \
                 (k=v, k==v, k!=v, k, !k, comma-separated) are supported, not set-based ones \
                 (in, notin) or comparisons"
            ));
        }
        let mut requirements = Vec::new();
        for term in trimmed.split(',') {
            requirements.push(parse_requirement(term.trim(), text)?);
        }
        Ok(Self { requirements })
    }

    /// Whether a node's labels satisfy every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// True when the selector has no requirements.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }
}

impl fmt::Display for LabelSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

fn parse_requirement(term: &str, whole: &str) -> Result<Requirement, String> {
    let bad = |why: String| format!("invalid label selector {whole:?}: {why}");
    if term.is_empty() {
        return Err(bad(String::from("empty requirement")));
    }
    let check_key = |key: &str| -> Result<String, String> {
        let errs = qualified_name_errors(key, KubeVersion::NEWEST);
        if errs.is_empty() {
            Ok(String::from(key))
        } else {
            Err(bad(format!("key {key:?}: {}", errs.join("; "))))
        }
    };
    let check_value = |value: &str| -> Result<String, String> {
        let errs = label_value_errors(value, KubeVersion::NEWEST);
        if errs.is_empty() {
            Ok(String::from(value))
        } else {
            Err(bad(format!("value {value:?}: {}", errs.join("; "))))
        }
    };
    if let Some(key) = term.strip_prefix('!') {
        if key.contains(['=', '!']) {
            return Err(bad(format!("{term:?} mixes '!' with an operator")));
        }
        return Ok(Requirement::DoesNotExist(check_key(key.trim())?));
    }
    if let Some((k, v)) = term.split_once("!=") {
        return Ok(Requirement::NotEquals(
            check_key(k.trim())?,
            check_value(v.trim())?,
        ));
    }
    if let Some((k, v)) = term.split_once("==") {
        return Ok(Requirement::Equals(
            check_key(k.trim())?,
            check_value(v.trim())?,
        ));
    }
    if let Some((k, v)) = term.split_once('=') {
        return Ok(Requirement::Equals(
            check_key(k.trim())?,
            check_value(v.trim())?,
        ));
    }
    Ok(Requirement::Exists(check_key(term)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    #[test]
    fn equality_requirements() {
        let s = LabelSelector::parse("role = gpu, zone!=a,ssd,!spot").unwrap_or_default();
        assert_eq!(s.to_string(), "role=gpu,zone!=a,ssd,!spot");
        assert!(s.matches(&labels(&[("role", "gpu"), ("ssd", "")])));
        assert!(s.matches(&labels(&[("role", "gpu"), ("ssd", ""), ("zone", "b")])));
        assert!(!s.matches(&labels(&[("role", "gpu"), ("ssd", ""), ("zone", "a")])));
        assert!(!s.matches(&labels(&[("role", "gpu"), ("ssd", ""), ("spot", "1")])));
        assert!(!s.matches(&labels(&[("role", "cpu"), ("ssd", "")])));
        let eq = LabelSelector::parse("a==1");
        assert_eq!(
            eq.map(|s| s.requirements),
            Ok(alloc::vec![Requirement::Equals(
                String::from("a"),
                String::from("1")
            )])
        );
        // `k=` requires the label with an empty value.
        let empty = LabelSelector::parse("k=").unwrap_or_default();
        assert!(empty.matches(&labels(&[("k", "")])));
        assert!(!empty.matches(&labels(&[])));
        assert!(LabelSelector::parse("  ").is_ok_and(|s| s.is_empty()));
    }

    #[test]
    fn rejects_set_based_and_garbage() {
        for bad in [
            "env in (a,b)",
            "env notin (a)",
            "x>1",
            "a,,b",
            "a b",
            "a=b c",
            "!a=b",
            "-a",
        ] {
            assert!(LabelSelector::parse(bad).is_err(), "{bad}");
        }
        assert!(LabelSelector::parse("env in (a)").is_err_and(|e| e.contains("set-based")));
    }
}
