//! The error every function throws: a message with its context, a stable code, the
//! argument it is about and the location inside it (document, line, column, field path),
//! plus the input layer's diagnostics when the argument was text.

use taintlab_input::{Diagnostic, Location};

use crate::write::{self, J};

/// A failed call. On the JavaScript side it becomes an `Error` named `TaintlabError`.
/// Boxed, so that results stay small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError(Box<ErrorDetails>);

/// What an [`ApiError`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorDetails {
    /// Stable, kebab-case: the input layer's codes (`yaml-syntax`, `wrong-type`, ...) or
    /// `unknown-field`, `missing-field`, `invalid-argument`, `invalid-version`,
    /// `invalid-settings`, `not-found`, `ambiguous`.
    pub code: String,
    /// The whole message, starting with where the problem is.
    pub message: String,
    /// Which argument (with indexes), e.g. `pods[1]` or `options.kubernetesVersion`.
    pub argument: String,
    /// Where inside that argument: for text, the document, line and column; for objects,
    /// only the field path.
    pub location: Location,
    /// Every diagnostic of the text the error comes from (errors and warnings).
    pub diagnostics: Vec<Diagnostic>,
}

impl std::ops::Deref for ApiError {
    type Target = ErrorDetails;
    fn deref(&self) -> &ErrorDetails {
        &self.0
    }
}

impl std::ops::DerefMut for ApiError {
    fn deref_mut(&mut self) -> &mut ErrorDetails {
        &mut self.0
    }
}

impl ApiError {
    fn new(details: ErrorDetails) -> Self {
        Self(Box::new(details))
    }

    /// An error about a JavaScript value (not text): `path` is the full path from the
    /// argument (`pods[1].tolerations[0].tolerationSeconds`).
    pub fn value(code: &str, argument: &str, path: &str, what: impl AsRef<str>) -> Self {
        Self::value_str(code, argument, path, what.as_ref())
    }

    /// [`ApiError::value`] written once, whatever the type of `what`.
    fn value_str(code: &str, argument: &str, path: &str, what: &str) -> Self {
        let message = format!("{path}: {what}");
        Self::new(ErrorDetails {
            code: code.to_string(),
            message,
            argument: argument.to_string(),
            location: Location::default().with_path(path),
            diagnostics: Vec::new(),
        })
    }

    /// An error reported by the input layer while reading text (or a Kubernetes object)
    /// passed as `argument`. `positions` is false for objects, whose line and column
    /// refer to text the caller never saw.
    pub fn diagnostic(argument: &str, d: &Diagnostic, all: &[Diagnostic], positions: bool) -> Self {
        let mut location = d.location.clone();
        if !positions {
            location.document = 0;
            location.line = 0;
            location.column = 0;
        }
        let code = write::code_name(d.code);
        let at = location.to_string();
        let message = if at.is_empty() {
            format!("{argument}: {}", d.message)
        } else {
            format!("{argument}: {at}: {}", d.message)
        };
        Self::new(ErrorDetails {
            code,
            message,
            argument: argument.to_string(),
            location,
            diagnostics: all.to_vec(),
        })
    }

    /// An error about text as a whole (nothing found, too many found).
    pub fn text(code: &str, argument: &str, what: impl AsRef<str>, all: &[Diagnostic]) -> Self {
        Self::text_str(code, argument, what.as_ref(), all)
    }

    /// [`ApiError::text`] written once, whatever the type of `what`.
    fn text_str(code: &str, argument: &str, what: &str, all: &[Diagnostic]) -> Self {
        Self::new(ErrorDetails {
            code: code.to_string(),
            message: format!("{argument}: {what}"),
            argument: argument.to_string(),
            location: Location::default(),
            diagnostics: all.to_vec(),
        })
    }

    /// The error's extra properties as JSON (everything but `message`).
    pub fn props_json(&self) -> String {
        let mut j = J::new();
        j.open()
            .s("code", &self.code)
            .s("argument", &self.argument)
            .key("location");
        write::location(&mut j, &self.location);
        j.key("diagnostics");
        write::diagnostics(&mut j, &self.diagnostics);
        j.close();
        j.finish()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Result of every API function: the JSON text of the result.
pub type ApiResult<T = String> = Result<T, ApiError>;
