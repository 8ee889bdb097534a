//! Go's `strconv.ParseInt` with its error text.

use alloc::format;
use alloc::string::String;

use super::quote::go_quote;

/// Go's `strconv.ParseInt(value, 10, 64)`: the number, or the text of Go's error,
/// `strconv.ParseInt: parsing "<v>": invalid syntax` or `... value out of range`.
///
/// Unlike the canonical-form check it accepts `+5`, `0100` and `-0`. Upstream quirk kept:
/// digits are read left to right and an overflow is reported as soon as it happens, so
/// `99999999999999999999x` is "out of range", not "invalid syntax".
pub fn go_parse_int64(value: &str) -> Result<i64, String> {
    let error = |why: &str| format!("strconv.ParseInt: parsing {}: {why}", go_quote(value));
    let (negative, digits) = match value.as_bytes().first() {
        None => return Err(error("invalid syntax")),
        Some(b'+') => (false, &value[1..]),
        Some(b'-') => (true, &value[1..]),
        Some(_) => (false, value),
    };
    if digits.is_empty() {
        return Err(error("invalid syntax"));
    }
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(error("invalid syntax"));
        }
        match n
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(b - b'0')))
        {
            Some(v) => n = v,
            None => return Err(error("value out of range")),
        }
    }
    const CUTOFF: u64 = 1 << 63;
    if (!negative && n >= CUTOFF) || (negative && n > CUTOFF) {
        return Err(error("value out of range"));
    }
    Ok(if negative {
        // n <= 2^63 here; wrapping handles i64::MIN.
        0i64.wrapping_sub_unsigned(n)
    } else {
        // n < 2^63 here.
        i64::try_from(n).unwrap_or(i64::MAX)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    #[test]
    fn parse_int_matches_go() {
        assert_eq!(go_parse_int64("0100"), Ok(100));
        assert_eq!(go_parse_int64("+5"), Ok(5));
        assert_eq!(go_parse_int64("-0"), Ok(0));
        assert_eq!(go_parse_int64("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(go_parse_int64("9223372036854775807"), Ok(i64::MAX));
        let syntax = |v: &str| format!("strconv.ParseInt: parsing {}: invalid syntax", go_quote(v));
        let range = |v: &str| {
            format!(
                "strconv.ParseInt: parsing {}: value out of range",
                go_quote(v)
            )
        };
        for bad in ["", "+", "-", "abc", "1_000", "1e5", " 1", "12a"] {
            assert_eq!(go_parse_int64(bad), Err(syntax(bad)), "{bad}");
        }
        for big in [
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
            "99999999999999999999x",
        ] {
            assert_eq!(go_parse_int64(big), Err(range(big)), "{big}");
        }
    }

    proptest! {
        #[test]
        fn parse_int_agrees_with_rust_for_plain_decimals(n in any::<i64>()) {
            prop_assert_eq!(go_parse_int64(&format!("{n}")), Ok(n));
        }
    }
}
