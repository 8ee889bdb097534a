//! Go's rendering of strings in messages: `strconv.Quote` (the `%q` verb) and
//! `encoding/json`'s string encoding.

use alloc::string::String;
use core::fmt::Write;

use super::go_printable::{NEW16, NEW32, NOT_PRINT16, NOT_PRINT32, PRINT16, PRINT32};
use crate::version::KubeVersion;

/// The Unicode tables of the Go release a Kubernetes release was built with; they decide
/// which code points Go's `strconv.Quote` (`%q`) prints as they are.
///
/// Kubernetes 1.25-1.26 were built with Go 1.19 and 1.27-1.28 with Go 1.20 (the `go`
/// line of each release's `go.mod`): Unicode 13.0.0. From 1.29 (Go 1.21) up to 1.37
/// (Go 1.26) Go's tables are Unicode 15.0.0. Later patch releases of 1.27 and 1.28 that
/// moved to a newer Go are not distinguished. (Go 1.27 moves to Unicode 17.0.0; no release
/// modelled here is built with it.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GoUnicode {
    /// Unicode 13.0.0 (Go 1.16-1.20).
    V13_0,
    /// Unicode 15.0.0 (Go 1.21-1.26), the newest modelled release's.
    #[default]
    V15_0,
}

impl GoUnicode {
    /// The tables of the Go release that built Kubernetes `version`.
    pub fn for_release(version: KubeVersion) -> Self {
        if version.at_least(29) {
            Self::V15_0
        } else {
            Self::V13_0
        }
    }

    /// Go's `strconv.IsPrint` (the same set as `unicode.IsPrint`): letters, marks,
    /// numbers, punctuation, symbols and U+0020, as assigned in this Unicode version.
    /// Unassigned, private-use, surrogate, format (`Cf`), control and separator code
    /// points other than U+0020 are not printable.
    pub fn is_print(self, c: char) -> bool {
        let u = c as u32;
        if u < 0x80 {
            return (0x20..0x7F).contains(&u);
        }
        // The layout of Go's strconv.IsPrint tables (src/strconv/isprint.go): ranges merged
        // across one-code-point gaps, the gaps listed apart.
        if let Ok(u) = u16::try_from(u) {
            in_ranges16(PRINT16, u)
                && NOT_PRINT16.binary_search(&u).is_err()
                && (self == Self::V15_0 || !in_ranges16(NEW16, u))
        } else {
            in_ranges32(PRINT32, u)
                && (u >= 0x20000 || NOT_PRINT32.binary_search(&((u - 0x10000) as u16)).is_err())
                && (self == Self::V15_0 || !in_ranges32(NEW32, u))
        }
    }
}

/// Whether `u` lies in one of the sorted, disjoint ranges `(first, last)`.
fn in_ranges16(ranges: &[(u16, u16)], u: u16) -> bool {
    let i = ranges.partition_point(|&(_, last)| last < u);
    ranges.get(i).is_some_and(|&(first, _)| first <= u)
}

/// [`in_ranges16`] for code points from U+10000.
fn in_ranges32(ranges: &[(u32, u32)], u: u32) -> bool {
    let i = ranges.partition_point(|&(_, last)| last < u);
    ranges.get(i).is_some_and(|&(first, _)| first <= u)
}

/// Go's `strconv.Quote` (and therefore `%q`) as the newest modelled release prints it
/// (Unicode 15.0.0): see [`go_quote_with`].
pub fn go_quote(s: &str) -> String {
    go_quote_with(s, GoUnicode::V15_0)
}

/// Go's `strconv.Quote` with the printability tables of `unicode`: quotes and
/// backslashes are escaped, `\a \b \f \n \r \t \v` get their short escapes, other
/// C0 controls and DEL are `\xNN`, and every other rune that is not printable in those
/// tables (unassigned, private use, format characters such as U+200B and U+FEFF, spaces
/// other than U+0020) is `\uNNNN` or `\UNNNNNNNN`. (Go also escapes invalid UTF-8 bytes
/// as `\xNN`; a Rust string cannot hold them.)
pub fn go_quote_with(s: &str, unicode: GoUnicode) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_go_quoted_with(&mut out, s, unicode);
    out
}

pub(super) fn push_go_quoted(out: &mut String, s: &str) {
    push_go_quoted_with(out, s, GoUnicode::V15_0);
}

pub(super) fn push_go_quoted_with(out: &mut String, s: &str, unicode: GoUnicode) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if unicode.is_print(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x1_0000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
}

/// Go's `encoding/json` encoding of a string (as `json.Marshal` does it: with HTML
/// escaping of `<`, `>`, `&`, and `\b`/`\f` short escapes as in Go 1.22+). The apiserver
/// renders bad values of named string types (operator, effect) this way.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_quoted(&mut out, s);
    out
}

pub(super) fn push_json_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::super::go_printable::{NEW16, NEW32, NOT_PRINT16, NOT_PRINT32, PRINT16, PRINT32};
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The tables as `(first, last)` ranges of code points.
    fn wide(t16: &[(u16, u16)], t32: &[(u32, u32)]) -> Vec<(u32, u32)> {
        t16.iter()
            .map(|&(a, b)| (u32::from(a), u32::from(b)))
            .chain(t32.iter().copied())
            .collect()
    }

    #[test]
    fn printable_tables_are_sorted_and_disjoint() {
        for table in [wide(PRINT16, PRINT32), wide(NEW16, NEW32)] {
            for (lo, hi) in &table {
                assert!(lo <= hi);
            }
            for w in table.windows(2) {
                assert!(w[0].1 + 1 < w[1].0, "{w:?}");
            }
        }
        for w in NOT_PRINT16.windows(2).chain(NOT_PRINT32.windows(2)) {
            assert!(w[0] < w[1], "{w:?}");
        }
        // Every gap lies strictly inside a range (Go's layout merges ranges across
        // one-code-point gaps only) and is not printable.
        let gaps = NOT_PRINT16
            .iter()
            .map(|&g| u32::from(g))
            .chain(NOT_PRINT32.iter().map(|&g| u32::from(g) + 0x10000));
        let print = wide(PRINT16, PRINT32);
        for g in gaps {
            assert!(print.iter().any(|&(lo, hi)| lo < g && g < hi), "{g:x}");
            let c = char::from_u32(g).unwrap_or('\0');
            assert!(!GoUnicode::V15_0.is_print(c), "{g:x}");
        }
        // Everything new after 13.0.0 is printable at 15.0.0.
        for (lo, hi) in wide(NEW16, NEW32) {
            for u in lo..=hi {
                let c = char::from_u32(u).unwrap_or('\0');
                assert!(GoUnicode::V15_0.is_print(c), "{u:x}");
                assert!(!GoUnicode::V13_0.is_print(c), "{u:x}");
            }
        }
    }

    #[test]
    fn latin1_printability_is_go_s() {
        // strconv.IsPrint below U+0100: 0x20-0x7E and 0xA1-0xFF except the soft hyphen.
        for u in 0u32..0x100 {
            let c = char::from_u32(u).unwrap_or('\0');
            let expected = (0x20..=0x7E).contains(&u) || ((0xA1..=0xFF).contains(&u) && u != 0xAD);
            assert_eq!(GoUnicode::V13_0.is_print(c), expected, "{u:x}");
            assert_eq!(GoUnicode::V15_0.is_print(c), expected, "{u:x}");
        }
    }

    #[test]
    fn go_quote_escapes_what_go_s_tables_do_not_print() {
        let q15 = |s: &str| go_quote_with(s, GoUnicode::V15_0);
        let q13 = |s: &str| go_quote_with(s, GoUnicode::V13_0);
        // Unassigned in every version.
        assert_eq!(q15("a\u{378}b"), "\"a\\u0378b\"");
        assert_eq!(q15("\u{e0080}"), "\"\\U000e0080\"");
        assert_eq!(q15("\u{10fffd}"), "\"\\U0010fffd\"");
        // Private use.
        assert_eq!(q15("\u{e000}\u{f0000}"), "\"\\ue000\\U000f0000\"");
        // Format characters: zero-width space, BOM, soft hyphen, tag characters.
        assert_eq!(
            q15("\u{200b}\u{feff}\u{ad}\u{e0041}"),
            "\"\\u200b\\ufeff\\u00ad\\U000e0041\""
        );
        // Separators other than U+0020.
        assert_eq!(q15("\u{a0}\u{2028}\u{3000}"), "\"\\u00a0\\u2028\\u3000\"");
        // Combining marks are printable: e + U+0301 stays as is.
        assert_eq!(q15("e\u{301}"), "\"e\u{301}\"");
        assert_eq!(q13("e\u{301}"), "\"e\u{301}\"");
        // Assigned in Unicode 14.0 or 15.0: printable for Go 1.21+, escaped before.
        assert_eq!(q15("\u{1f6dc}"), "\"\u{1f6dc}\"");
        assert_eq!(q13("\u{1f6dc}"), "\"\\U0001f6dc\"");
        assert_eq!(q15("\u{61d}"), "\"\u{61d}\"");
        assert_eq!(q13("\u{61d}"), "\"\\u061d\"");
        // The release decides.
        assert_eq!(
            GoUnicode::for_release(KubeVersion::new(28, 0)),
            GoUnicode::V13_0
        );
        assert_eq!(
            GoUnicode::for_release(KubeVersion::new(29, 0)),
            GoUnicode::V15_0
        );
        assert_eq!(
            GoUnicode::for_release(KubeVersion::new(37, 0)),
            GoUnicode::V15_0
        );
    }

    #[test]
    fn go_quote_escapes_like_strconv() {
        assert_eq!(go_quote("abc"), "\"abc\"");
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(
            go_quote("\n\t\r\u{7}\u{8}\u{c}\u{b}"),
            "\"\\n\\t\\r\\a\\b\\f\\v\""
        );
        assert_eq!(go_quote("\u{1}\u{7f}"), "\"\\x01\\x7f\"");
        assert_eq!(go_quote("é日本"), "\"é日本\"");
        assert_eq!(go_quote("\u{a0}\u{ad}\u{85}"), "\"\\u00a0\\u00ad\\u0085\"");
        assert_eq!(go_quote("\u{200b}\u{feff}"), "\"\\u200b\\ufeff\"");
        assert_eq!(go_quote("\u{10ffff}"), "\"\\U0010ffff\"");
        assert_eq!(go_quote("😀<&>"), "\"😀<&>\"");
    }

    #[test]
    fn json_quote_escapes_like_encoding_json() {
        assert_eq!(json_quote("a<b>&c"), "\"a\\u003cb\\u003e\\u0026c\"");
        assert_eq!(json_quote("\u{1}\n\u{8}"), "\"\\u0001\\n\\b\"");
        assert_eq!(json_quote("\u{7f}é\u{2028}"), "\"\u{7f}é\\u2028\"");
    }

    proptest! {
        #[test]
        fn go_quote_is_ascii_safe_for_ascii(s in "[\\x00-\\x7f]{0,20}") {
            let q = go_quote(&s);
            prop_assert!(q.bytes().all(|b| (0x20..0x7f).contains(&b)));
        }
    }
}
