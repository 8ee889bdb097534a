//! Source locations and diagnostics.
//!
//! Every value the parsers keep, every warning and every error carries a [`Location`]:
//! the document of the paste, the line and column where the value starts, and the field
//! path inside its object, so a UI can point at the exact spot.

use core::fmt;

use serde::Serialize;

/// Where something is in the pasted text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct Location {
    /// 1-based index of the document in the paste (`---` separated YAML documents,
    /// JSON values, text blocks); 0 when the problem concerns the whole paste.
    pub document: usize,
    /// 1-based line; 0 when unknown.
    pub line: usize,
    /// 1-based column, counted in characters; 0 when unknown.
    pub column: usize,
    /// Field path inside the object (`spec.tolerations[0].value`); empty when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
}

impl Location {
    /// A location without a field path.
    pub fn at(document: usize, line: usize, column: usize) -> Self {
        Self {
            document,
            line,
            column,
            path: String::new(),
        }
    }

    /// The same place with a field path.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.document > 0 {
            parts.push(format!("document {}", self.document));
        }
        if self.line > 0 {
            parts.push(format!("line {}", self.line));
        }
        if self.column > 0 {
            parts.push(format!("column {}", self.column));
        }
        f.write_str(&parts.join(", "))?;
        if !self.path.is_empty() {
            if !parts.is_empty() {
                f.write_str(", ")?;
            }
            write!(f, "at {}", self.path)?;
        }
        Ok(())
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// kubectl or the API server would reject this input, or it could not be read.
    Error,
    /// Accepted, but probably not what was meant (an ignored field, a lossy format).
    Warning,
}

/// What kind of problem a diagnostic reports; stable identifiers for UIs and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    /// The text is not valid YAML.
    YamlSyntax,
    /// The text is not valid JSON.
    JsonSyntax,
    /// The input is larger than [`crate::Limits::max_input_bytes`].
    InputTooLarge,
    /// Nesting deeper than [`crate::Limits::max_depth`].
    TooDeep,
    /// Aliases expand to more than [`crate::Limits::max_alias_nodes`] nodes.
    AliasBomb,
    /// An alias names an anchor that does not exist (yet).
    UnknownAnchor,
    /// More documents than [`crate::Limits::max_documents`].
    TooManyDocuments,
    /// A value of the wrong type: a YAML 1.1 boolean or number where Kubernetes wants a
    /// string, a string where it wants a number, a list where it wants an object.
    WrongType,
    /// A field Kubernetes does not know (a typo such as `efect`).
    UnknownField,
    /// A key appears twice in one mapping.
    DuplicateKey,
    /// A map key YAML cannot turn into a JSON string (null, a list, an object).
    BadKey,
    /// An effect, operator or other enumerated value that Kubernetes rejects.
    InvalidValue,
    /// A required field is missing.
    MissingField,
    /// An object kind this library does not read; ignored.
    IgnoredKind,
    /// Text that matches none of the accepted forms.
    Unrecognized,
    /// An invalid or unsupported `kubectl taint` command line.
    KubectlCommand,
    /// A `kubectl describe` block that could not be read.
    Describe,
    /// A FailedScheduling message that could not be read in full.
    Event,
    /// Information lost by the input format (for example describe output, which does not
    /// distinguish `Equal` from `Lt`/`Gt`).
    Lossy,
    /// Lines of kubectl's own output (warnings, results) found in the paste and skipped.
    SkippedLine,
    /// An error kubectl, the API server or a tool printed about a toleration or taint,
    /// found in the paste and explained (the field, why, the fix). A warning: the paste
    /// itself is not wrong.
    ToolError,
    /// A field that changes where a pod may run but that Taintlab does not model (pod
    /// affinity, topology spread, resource claims, volumes bound through
    /// PersistentVolumeClaims, another scheduler): the real answer may differ.
    NotModelled,
}

/// A warning or an error, with its location and a plain-words explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem.
    pub code: Code,
    /// Where.
    pub location: Location,
    /// What is wrong and what was expected, in plain words.
    pub message: String,
}

impl Diagnostic {
    /// An error.
    pub fn error(code: Code, location: Location, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, location, message.into())
    }

    /// A warning.
    pub fn warning(code: Code, location: Location, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, location, message.into())
    }

    /// Built out of line: the readers create diagnostics in a hundred places, and one
    /// constructor keeps a copy of the struct's layout out of each in the wasm modules.
    #[inline(never)]
    fn new(severity: Severity, code: Code, location: Location, message: String) -> Self {
        Self {
            severity,
            code,
            location,
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let loc = self.location.to_string();
        if loc.is_empty() {
            write!(f, "{what}: {}", self.message)
        } else {
            write!(f, "{what}: {loc}: {}", self.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let d = Diagnostic::error(
            Code::InvalidValue,
            Location::at(2, 7, 13).with_path("spec.taints[0].effect"),
            "bad",
        );
        assert_eq!(
            d.to_string(),
            "error: document 2, line 7, column 13, at spec.taints[0].effect: bad"
        );
    }
}
