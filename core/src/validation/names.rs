//! apimachinery's name and label checks (`k8s.io/apimachinery/pkg/util/validation`
//! `IsQualifiedName`, `IsValidLabelValue`, `IsDNS1123Subdomain`, and from 1.35 the
//! `content` package) with their message helpers.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{DNS1123_SUBDOMAIN_MAX_LENGTH, LABEL_MAX_LENGTH};
use crate::version::KubeVersion;

/// Release whose apimachinery moved the label checks to the `content` package: length
/// messages say `bytes` and the too-many-slashes message says `a valid label key`.
const CONTENT_PACKAGE_MINOR: u16 = 35;

/// `must be non-empty` (apimachinery `EmptyError`).
pub const EMPTY_ERROR: &str = "must be non-empty";

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// apimachinery `MaxLenError`: `must be no more than <n> bytes` since 1.35,
/// `... characters` before.
pub fn max_len_error(length: usize, version: KubeVersion) -> String {
    let unit = if version.at_least(CONTENT_PACKAGE_MINOR) {
        "bytes"
    } else {
        "characters"
    };
    format!("must be no more than {length} {unit}")
}

/// apimachinery `RegexError`. Upstream quirk: every example is followed by `', '`, so
/// `" or "` produces the double spaces (`'MyName',  or 'my.name'`).
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    let mut s = String::from(msg);
    if examples.is_empty() {
        let _ = write!(s, " (regex used for validation is '{regex}')");
        return s;
    }
    s.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        let _ = write!(s, "'{example}', ");
    }
    let _ = write!(s, "regex used for validation is '{regex}')");
    s
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored.
fn matches_label_key_regex(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`, anchored.
fn matches_dns1123_subdomain_regex(s: &str) -> bool {
    s.split('.').all(|label| {
        let b = label.as_bytes();
        let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        match (b.first(), b.last()) {
            (Some(first), Some(last)) => {
                alnum(first) && alnum(last) && b.iter().all(|c| alnum(c) || *c == b'-')
            }
            _ => false,
        }
    })
}

/// apimachinery `IsDNS1123Subdomain`: the messages for an invalid subdomain (empty when
/// valid).
pub fn dns1123_subdomain_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH, version));
    }
    if !matches_dns1123_subdomain_regex(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// apimachinery `IsQualifiedName` / `content.IsLabelKey`: the messages for an invalid
/// label key (a taint or toleration key), empty when valid.
///
/// Upstream quirks kept: an empty key gives two messages (`name part must be non-empty`
/// and the regex message); more than one `/` gives a single message, which names
/// `a valid label key` since 1.35 and `a qualified name` before.
pub fn qualified_name_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    let mut parts = value.splitn(3, '/');
    let first = parts.next().unwrap_or("");
    let name = match (parts.next(), parts.next()) {
        (None, _) => first,
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                errs.push(format!("prefix part {EMPTY_ERROR}"));
            } else {
                for msg in dns1123_subdomain_errors(prefix, version) {
                    errs.push(format!("prefix part {msg}"));
                }
            }
            name
        }
        (Some(_), Some(_)) => {
            let what = if version.at_least(CONTENT_PACKAGE_MINOR) {
                "a valid label key"
            } else {
                "a qualified name"
            };
            errs.push(format!(
                "{what} {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    LABEL_KEY_ERR_MSG,
                    LABEL_KEY_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {EMPTY_ERROR}"));
    } else if name.len() > LABEL_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(LABEL_MAX_LENGTH, version)
        ));
    }
    if !matches_label_key_regex(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_ERR_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// apimachinery `IsValidLabelValue` / `content.IsLabelValue`: the messages for an invalid
/// label value (a taint or toleration value), empty when valid. The empty string is valid.
pub fn label_value_errors(value: &str, version: KubeVersion) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX_LENGTH {
        errs.push(max_len_error(LABEL_MAX_LENGTH, version));
    }
    if !value.is_empty() && !matches_label_key_regex(value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// True when `value` is a valid label key (taint key): exactly when
/// [`qualified_name_errors`] finds nothing. The verdict does not depend on the release,
/// only the messages do. Checked without building the messages, as the scheduler's
/// node affinity and the resource names ask it often.
pub fn is_qualified_name(value: &str) -> bool {
    let (prefix, name) = match value.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, value),
    };
    prefix.is_none_or(|p| {
        p.len() <= DNS1123_SUBDOMAIN_MAX_LENGTH && matches_dns1123_subdomain_regex(p)
    }) && !name.contains('/')
        && name.len() <= LABEL_MAX_LENGTH
        && matches_label_key_regex(name)
}

/// True when `value` is a valid label value (taint value; `""` is valid).
pub fn is_label_value(value: &str) -> bool {
    value.len() <= LABEL_MAX_LENGTH && (value.is_empty() || matches_label_key_regex(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    const V35: KubeVersion = KubeVersion::new(35, 0);
    const V34: KubeVersion = KubeVersion::new(34, 0);
    proptest! {
        /// The quick verdict is the messages' verdict, at every release.
        #[test]
        fn is_qualified_name_agrees_with_the_messages(
            value in "[a-zA-Z0-9._/-]{0,8}|[a-z.]{250,260}/[a-z]{1,3}|[a-z]{1,3}/[a-z]{60,66}",
        ) {
            for version in [V34, V35] {
                prop_assert_eq!(
                    is_qualified_name(&value),
                    qualified_name_errors(&value, version).is_empty(),
                    "{}", value
                );
            }
        }
    }

    #[test]
    fn label_key_messages() {
        let regex_msg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(
            qualified_name_errors("", V35),
            vec![
                String::from("name part must be non-empty"),
                String::from(regex_msg)
            ]
        );
        assert_eq!(
            qualified_name_errors("/foo", V35),
            vec![String::from("prefix part must be non-empty")]
        );
        assert_eq!(
            qualified_name_errors("Example.com/foo", V35),
            vec![String::from(
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            )]
        );
        let slashes = qualified_name_errors("a/b/c", V35);
        assert_eq!(slashes.len(), 1);
        assert!(slashes[0].starts_with("a valid label key must consist of"));
        assert!(slashes[0].ends_with(
            " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ));
        assert!(qualified_name_errors("a/b/c", V34)[0].starts_with("a qualified name must"));
        assert!(qualified_name_errors("example.com/My_Name-1.x", V35).is_empty());
        assert!(is_qualified_name("node.kubernetes.io/not-ready"));
        assert!(!is_qualified_name("foo-"));
        assert!(!is_qualified_name("foo=bar"));
    }

    #[test]
    fn length_messages_depend_on_version() {
        let long = "a".repeat(64);
        assert_eq!(
            qualified_name_errors(&long, V35),
            vec![String::from("name part must be no more than 63 bytes")]
        );
        assert_eq!(
            qualified_name_errors(&long, V34),
            vec![String::from("name part must be no more than 63 characters")]
        );
        assert_eq!(
            label_value_errors(&long, V35),
            vec![String::from("must be no more than 63 bytes")]
        );
        assert!(label_value_errors(&"a".repeat(63), V35).is_empty());
        assert!(label_value_errors("", V35).is_empty());
        assert!(is_label_value(""));
        assert!(!is_label_value("-a"));
        // A prefix that is only too long gives just the length message.
        let prefix = format!("{}/x", "a".repeat(254));
        assert_eq!(
            qualified_name_errors(&prefix, V35),
            vec![String::from("prefix part must be no more than 253 bytes")]
        );
    }

    proptest! {
        #[test]
        fn valid_keys_and_values_have_no_errors(
            key in "[a-z0-9]([-a-z0-9.]{0,20}[a-z0-9])?",
            value in "([A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?)?",
        ) {
            // Only dots next to each other would make the key's prefix invalid; keys
            // without '/' are name parts and allow them.
            prop_assert!(is_qualified_name(&key));
            prop_assert!(is_label_value(&value));
            prop_assert!(label_value_errors(&value, V35).is_empty());
        }
    }
}
