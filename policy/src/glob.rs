//! Shell-style globs for namespaces, subjects, taint keys and resource names.
//!
//! Only two metacharacters exist: `*` (any run of characters, including none and
//! including `/` and `:`) and `?` (exactly one character). Everything else matches
//! itself. Brackets and backslashes are rejected by [`check`] so that a pattern written
//! for another glob dialect fails loudly in `validate_settings` instead of silently
//! matching nothing.

/// Whether `pattern` matches the whole of `text`.
///
/// Greedy matching with a single backtrack point: linear in practice and never
/// exponential, whatever the pattern.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    // Position of the last `*` seen and the text position it was tried at.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || Some(&c) == t.get(ti) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p.get(pi..)
        .is_some_and(|rest| rest.iter().all(|&c| c == '*'))
}

/// Whether any of `patterns` matches `text`.
pub fn any_matches(patterns: &[String], text: &str) -> bool {
    patterns.iter().any(|p| matches(p, text))
}

/// True when the pattern contains a metacharacter.
pub fn is_pattern(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

/// Which characters a pattern may contain besides `*` and `?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// Namespace names: lower-case alphanumerics, `-` (DNS-1123 labels).
    Namespace,
    /// Taint keys and resource names: alphanumerics, `-`, `_`, `.`, `/`.
    QualifiedName,
    /// User and group names: anything printable.
    Subject,
}

impl Alphabet {
    fn allows(self, c: char) -> bool {
        match self {
            Self::Namespace => c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-',
            Self::QualifiedName => c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'),
            Self::Subject => !c.is_control(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::Namespace => "lower-case letters, digits and '-'",
            Self::QualifiedName => "letters, digits, '-', '_', '.' and '/'",
            Self::Subject => "printable characters",
        }
    }
}

/// Checks a pattern: not empty, no bracket or backslash syntax, and only characters that
/// can occur in what it is matched against. The error says what is wrong.
pub fn check(pattern: &str, alphabet: Alphabet) -> Result<(), String> {
    if pattern.is_empty() {
        return Err(String::from("must not be empty"));
    }
    for c in pattern.chars() {
        if matches!(c, '[' | ']' | '{' | '}' | '\\') {
            return Err(format!(
                "unsupported glob syntax '{c}': only '*' and '?' are special"
            ));
        }
        if c != '*' && c != '?' && !alphabet.allows(c) {
            return Err(format!(
                "character '{c}' can never match (allowed: {}, plus '*' and '?')",
                alphabet.describe()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_and_wildcards() {
        assert!(matches("kube-system", "kube-system"));
        assert!(!matches("kube-system", "kube-system2"));
        assert!(matches("team-*", "team-a"));
        assert!(matches("team-*", "team-"));
        assert!(!matches("team-*", "team"));
        assert!(matches("*", ""));
        assert!(matches("*", "anything/at:all"));
        assert!(matches(
            "node-role.kubernetes.io/*",
            "node-role.kubernetes.io/control-plane"
        ));
        assert!(!matches(
            "node-role.kubernetes.io/*",
            "node-role.kubernetes.io"
        ));
        assert!(matches("?-a", "x-a"));
        assert!(!matches("?-a", "-a"));
        assert!(matches(
            "*.reserved.example.com/*",
            "gpu.reserved.example.com/owner"
        ));
        assert!(!matches(
            "*.reserved.example.com/*",
            "reserved.example.com/owner"
        ));
        assert!(matches("a*b*c", "aXXbYYc"));
        assert!(matches("a*b*c", "abcbc"));
        assert!(!matches("a*b*c", "abcb"));
        assert!(matches("**", "x"));
        assert!(matches("é?", "éü"));
    }

    #[test]
    fn no_exponential_blowup() {
        let text = "a".repeat(5000);
        let pattern = format!("{}b", "*a".repeat(50));
        assert!(!matches(&pattern, &text));
    }

    #[test]
    fn checks() {
        assert!(check("team-*", Alphabet::Namespace).is_ok());
        assert!(check("", Alphabet::Namespace).is_err());
        assert!(
            check("Team-*", Alphabet::Namespace)
                .unwrap_err()
                .contains("'T'")
        );
        assert!(
            check("team-[ab]", Alphabet::Namespace)
                .unwrap_err()
                .contains("unsupported")
        );
        assert!(check("example.com/*", Alphabet::QualifiedName).is_ok());
        assert!(check("example.com/ x", Alphabet::QualifiedName).is_err());
        assert!(check("system:masters", Alphabet::Subject).is_ok());
    }
}
