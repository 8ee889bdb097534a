//! Go's rendering of strings in messages: `strconv.Quote` (the `%q` verb) and
//! `encoding/json`'s string encoding.

use alloc::string::String;
use core::fmt::Write;

/// Go's `strconv.Quote` (and therefore `%q`): escapes quotes, backslashes and every rune
/// Go does not consider printable.
///
/// Printability is exact for Latin-1. Above U+00FF this crate has no Unicode tables, so it
/// treats as non-printable the spaces and separators, format characters (`Cf`), private-use
/// code points and noncharacters; unassigned code points are printed as is (Go escapes
/// them).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_go_quoted(&mut out, s);
    out
}

pub(super) fn push_go_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_go_printable(c) => out.push(c),
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

/// Go's `strconv.IsPrint`, exact up to U+00FF and approximated above (see [`go_quote`]).
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if u <= 0xFF {
        return (0x20..=0x7E).contains(&u) || ((0xA1..=0xFF).contains(&u) && u != 0xAD);
    }
    if c.is_whitespace() || c.is_control() {
        return false;
    }
    let format_or_private = matches!(u,
        0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xD800..=0xF8FF | 0xFDD0..=0xFDEF | 0xFEFF | 0xFFF9..=0xFFFB
        | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0001 | 0xE0020..=0xE007F | 0xF0000..=0x10FFFF);
    // U+xxFFFE and U+xxFFFF are noncharacters in every plane.
    !format_or_private && (u & 0xFFFE) != 0xFFFE
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
    use super::*;
    use proptest::prelude::*;
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
