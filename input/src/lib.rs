//! # taintlab-input
//!
//! Reads what people paste, for the npm package, the playground, the policy's tests and
//! anything else that reads text: YAML and JSON objects and lists (`kubectl get -o
//! yaml|json`), `kubectl taint` command lines, `kubectl describe` output and
//! FailedScheduling event messages. The form is detected automatically and one paste may
//! mix several of them.
//!
//! ```
//! let paste = r#"
//! kubectl taint nodes worker-1 dedicated=gpu:NoSchedule
//! ---
//! apiVersion: v1
//! kind: Pod
//! metadata: {name: web}
//! spec:
//!   tolerations:
//!   - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
//! "#;
//! let parsed = taintlab_input::parse(paste);
//! assert_eq!(parsed.taint_commands.len(), 1);
//! assert_eq!(parsed.workloads[0].pod.tolerations[0].key, "dedicated");
//! assert_eq!(parsed.workloads[0].toleration_locations[0].line, 9);
//! ```
//!
//! Every value keeps its [`Location`] (document, line, column, field path); every
//! problem is a [`Diagnostic`] with a location and a plain-words message. One bad
//! document never hides the good ones. Plain YAML scalars resolve with the YAML 1.1
//! rules kubectl uses (`yes`, `on`, `0x1F`, `1.0`), and a boolean or a number where
//! Kubernetes wants a string is an error that quotes kubectl's own message and the fix.
//! Limits ([`Limits`]) keep alias bombs, deep nesting and oversized inputs in bounded
//! time and memory.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod commands;
mod describe;
mod detect;
pub mod diag;
mod document;
pub mod emit;
pub mod event;
mod hcl;
mod json;
pub mod kubectl;
pub mod model;
pub mod quantity;
mod reduce;
pub mod sample;
mod table;
mod tool;
mod tree;
mod yaml;
mod yaml11;
mod yaml_events;

use taintlab_core::KubeVersion;

pub use diag::{Code, Diagnostic, Location, Severity};
pub use document::{Document, DocumentNode, DocumentValue, document};
pub use event::{FitMessage, Preemption, ReasonCount, ReasonKind, SchedulingEvent, VersionRange};
pub use kubectl::{CommandResult, Outcome, TaintCommandLine};
pub use model::{
    ContainerResources, DisruptionBudget, DocumentInfo, Form, InputNode, IntOrString, Lifecycle,
    OwnerRef, Parsed, PriorityClass, TaintList, TolerationList, Workload,
};
pub use reduce::Prefer;
pub use tree::Limits;

/// Forces YAML or JSON for the structured parts of a paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// YAML (a superset of JSON, but slower).
    Yaml,
    /// JSON.
    Json,
}

/// How to read a paste.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Size, depth, alias and document limits.
    pub limits: Limits,
    /// How an ambiguous bare `{key, value, effect}` object is read.
    pub prefer: Prefer,
    /// The kubectl release whose messages `kubectl taint` errors use.
    pub kubectl_version: KubeVersion,
    /// Force YAML or JSON for structured text; `None` detects it (`{` or `[` first
    /// means JSON).
    pub syntax: Option<Syntax>,
}

/// Reads a paste in any of the accepted forms, with default options.
pub fn parse(text: &str) -> Parsed {
    parse_with(text, &Options::default())
}

/// Reads a paste in any of the accepted forms.
pub fn parse_with(text: &str, opts: &Options) -> Parsed {
    if let Some(p) = too_large(text, opts) {
        return p;
    }
    detect::parse_auto(text, opts)
}

/// Reads YAML only (a stream of `---` separated documents).
pub fn parse_yaml(text: &str, opts: &Options) -> Parsed {
    structured(text, opts, Syntax::Yaml)
}

/// Reads JSON only (one or more JSON values).
pub fn parse_json(text: &str, opts: &Options) -> Parsed {
    structured(text, opts, Syntax::Json)
}

fn structured(text: &str, opts: &Options, syntax: Syntax) -> Parsed {
    if let Some(p) = too_large(text, opts) {
        return p;
    }
    let mut out = Parsed::default();
    let mut next = 1;
    let lines = text.lines().count();
    let opts = Options {
        syntax: Some(syntax),
        ..*opts
    };
    detect::read_structured(text, 0, syntax, 1, lines, &opts, &mut out, &mut next);
    out
}

/// Reads a FailedScheduling event message (or a line that contains one).
pub fn parse_event(text: &str) -> SchedulingEvent {
    event::parse_message(text, Location::at(1, 1, 1))
}

fn too_large(text: &str, opts: &Options) -> Option<Parsed> {
    if text.len() <= opts.limits.max_input_bytes {
        return None;
    }
    let mut p = Parsed::default();
    p.push_error(
        Code::InputTooLarge,
        Location::default(),
        format!(
            "the input is {} bytes, more than the limit of {} bytes ({} MiB); nothing was read",
            text.len(),
            opts.limits.max_input_bytes,
            opts.limits.max_input_bytes / (1024 * 1024)
        ),
    );
    Some(p)
}

/// `s` as `str::parse::<i32>` reads it, through the one `i64` parse the readers use
/// everywhere else (each integer type's parse is its own copy of the code in the npm
/// module).
pub(crate) fn parse_i32(s: &str) -> Option<i32> {
    s.parse::<i64>().ok().and_then(|v| i32::try_from(v).ok())
}

/// `s` as `str::parse::<u32>` reads it (no sign but `+`), through the `i64` parse.
pub(crate) fn parse_u32(s: &str) -> Option<u32> {
    if s.starts_with('-') {
        return None;
    }
    s.parse::<i64>().ok().and_then(|v| u32::try_from(v).ok())
}

/// Appends `; did you mean "K"?` to `msg` when `word` is near one of `known` (K);
/// whether it did. One writer for the readers' many "did you mean" hints.
pub(crate) fn did_you_mean(msg: &mut String, word: &str, known: &[&str]) -> bool {
    let Some(k) = taintlab_core::suggest::suggest(word, known) else {
        return false;
    };
    msg.push_str("; did you mean \"");
    msg.push_str(k);
    msg.push_str("\"?");
    true
}

/// `s.rfind(pat)`: the start of the last occurrence of `pat`. A byte scan from the end,
/// so that the standard library's reverse substring searcher (about 1 KB of the npm
/// module for four short lines) is not linked. A match of whole UTF-8 characters
/// starts and ends on character boundaries.
pub(crate) fn rfind_str(s: &str, pat: &str) -> Option<usize> {
    let (s, pat) = (s.as_bytes(), pat.as_bytes());
    (0..=s.len().checked_sub(pat.len())?)
        .rev()
        .find(|&i| s[i..].starts_with(pat))
}

/// `s.rsplit_once(pat)` through [`rfind_str`].
pub(crate) fn rsplit_once_str<'a>(s: &'a str, pat: &str) -> Option<(&'a str, &'a str)> {
    let i = rfind_str(s, pat)?;
    Some((s.get(..i)?, s.get(i + pat.len()..)?))
}

#[cfg(test)]
mod int_tests {
    #[test]
    fn integer_parses_read_as_the_standard_library_does() {
        let cases = [
            "",
            "+",
            "-",
            "0",
            "-0",
            "+0",
            "+7",
            "-7",
            "007",
            "12",
            " 1",
            "1 ",
            "1.0",
            "1e3",
            "x",
            "+-1",
            "--1",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
            "٣",
        ];
        for c in cases {
            assert_eq!(super::parse_i32(c), c.parse::<i32>().ok(), "{c:?}");
            assert_eq!(super::parse_u32(c), c.parse::<u32>().ok(), "{c:?}");
        }
    }
}
