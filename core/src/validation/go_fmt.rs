//! Go's `fmt.Sprintf` applied to a format string with no arguments, as happens when a
//! message built from user input is passed as the format (kubectl's
//! `cmdutil.UsageErrorf(cmd, err.Error())` in `kubectl taint` before 1.32).

use alloc::string::String;

/// `fmt.Sprintf(format)` with no operands (Go `src/fmt/print.go` `doPrintf`): `%%` is a
/// percent sign; every other verb, after optional flags (`#0+- `), width, precision and
/// `[n]` argument index, prints `%!<verb>(MISSING)` (`%!<verb>(BADINDEX)` after an
/// index); a `*` width or precision prints `%!(BADWIDTH)` / `%!(BADPREC)` first; a `%`
/// at the end prints `%!(NOVERB)`.
pub fn go_sprintf_no_args(format: &str) -> String {
    let b = format.as_bytes();
    let end = b.len();
    let mut out = String::with_capacity(format.len());
    let mut i = 0;
    while i < end {
        let last = i;
        while i < end && b[i] != b'%' {
            i += 1;
        }
        out.push_str(&format[last..i]);
        if i >= end {
            break;
        }
        i += 1; // the '%'
        while i < end && matches!(b[i], b'#' | b'0' | b'+' | b'-' | b' ') {
            i += 1;
        }
        let mut good_arg_num = true;
        let (next, found) = arg_number(b, i, &mut good_arg_num);
        i = next;
        let mut after_index = found;
        // Width.
        if i < end && b[i] == b'*' {
            i += 1;
            out.push_str("%!(BADWIDTH)");
            after_index = false;
        } else {
            let (present, next) = parse_num(b, i);
            i = next;
            if after_index && present {
                good_arg_num = false;
            }
        }
        // Precision.
        if i + 1 < end && b[i] == b'.' {
            i += 1;
            if after_index {
                good_arg_num = false;
            }
            let (next, found) = arg_number(b, i, &mut good_arg_num);
            i = next;
            after_index = found;
            if i < end && b[i] == b'*' {
                i += 1;
                out.push_str("%!(BADPREC)");
                after_index = false;
            } else {
                i = parse_num(b, i).1;
            }
        }
        if !after_index {
            i = arg_number(b, i, &mut good_arg_num).0;
        }
        if i >= end {
            out.push_str("%!(NOVERB)");
            break;
        }
        let verb = format[i..].chars().next().unwrap_or('?');
        i += verb.len_utf8();
        if verb == '%' {
            out.push('%');
        } else {
            out.push_str("%!");
            out.push(verb);
            out.push_str(if good_arg_num {
                "(MISSING)"
            } else {
                "(BADINDEX)"
            });
        }
    }
    out
}

/// Go's `parsenum`: digits at `i`; whether any were read, and the next index.
fn parse_num(b: &[u8], mut i: usize) -> (bool, usize) {
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    (i > start, i)
}

/// Go's `argNumber` with no operands: an `[n]` at `i` is always a bad index. Returns the
/// next index and whether a well-formed `[n]` was read.
fn arg_number(b: &[u8], i: usize, good_arg_num: &mut bool) -> (usize, bool) {
    if i >= b.len() || b[i] != b'[' {
        return (i, false);
    }
    // parseArgNumber: at least "[n]", up to the first ']'.
    let rest = &b[i..];
    if rest.len() < 3 {
        *good_arg_num = false;
        return (i + 1, false);
    }
    for (j, c) in rest.iter().enumerate().skip(1) {
        if *c == b']' {
            let (present, next) = parse_num(rest, 1);
            *good_arg_num = false;
            return (i + j + 1, present && next == j);
        }
    }
    *good_arg_num = false;
    (i + 1, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn verbs_without_operands() {
        assert_eq!(go_sprintf_no_args("plain"), "plain");
        assert_eq!(go_sprintf_no_args("100%%"), "100%");
        assert_eq!(go_sprintf_no_args("a%b"), "a%!b(MISSING)");
        assert_eq!(go_sprintf_no_args("%d%s"), "%!d(MISSING)%!s(MISSING)");
        assert_eq!(go_sprintf_no_args("x%-08.3fy"), "x%!f(MISSING)y");
        assert_eq!(go_sprintf_no_args("end%"), "end%!(NOVERB)");
        assert_eq!(go_sprintf_no_args("%*d"), "%!(BADWIDTH)%!d(MISSING)");
        assert_eq!(go_sprintf_no_args("%.*d"), "%!(BADPREC)%!d(MISSING)");
        assert_eq!(go_sprintf_no_args("%[1]d"), "%!d(BADINDEX)");
        assert_eq!(go_sprintf_no_args("%é"), "%!é(MISSING)");
        assert_eq!(go_sprintf_no_args("%5%"), "%");
        assert_eq!(go_sprintf_no_args("%."), "%!.(MISSING)");
    }

    proptest! {
        #[test]
        fn never_panics_and_keeps_text_without_percent(s in "\\PC{0,40}") {
            let out = go_sprintf_no_args(&s);
            if !s.contains('%') {
                prop_assert_eq!(out, s);
            }
        }
    }
}
