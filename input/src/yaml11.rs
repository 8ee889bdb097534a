//! YAML 1.1 scalar resolution as kubectl does it.
//!
//! kubectl turns YAML into JSON with sigs.k8s.io/yaml, which resolves plain scalars
//! with go-yaml v2 rules (YAML 1.1 flavoured): `yes`/`no`/`on`/`off`/`y`/`n` are
//! booleans, `0x1F` and `010` are integers, `1.0` is a float, `~` is null, and
//! timestamps stay strings. Numbers are then written as JSON the way Go's encoder
//! writes them (`1.0` becomes `1`, `0x1F` becomes `31`). The API server decodes that
//! JSON into typed fields, so `value: yes` fails there with
//! `cannot unmarshal bool into Go struct field ... of type string`.

use crate::tree::{Kind, Number};

/// How a plain scalar resolves.
pub(crate) fn resolve_plain(text: &str) -> Kind {
    let Some(&first) = text.as_bytes().first() else {
        return Kind::Null("".into());
    };
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Kind::Bool(true, text.into());
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Kind::Bool(false, text.into());
        }
        "~" | "null" | "Null" | "NULL" => return Kind::Null(text.into()),
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return non_finite(text),
        _ => {}
    }
    match first {
        b'.' => match parse_go_float(text) {
            Some(f) => float(text, f),
            None => Kind::Str(text.into()),
        },
        b'0'..=b'9' | b'+' | b'-' => resolve_number(text),
        _ => Kind::Str(text.into()),
    }
}

fn non_finite(text: &str) -> Kind {
    Kind::Num(Box::new(Number {
        json: String::new(),
        source: text.into(),
        float: true,
    }))
}

fn float(source: &str, f: f64) -> Kind {
    Kind::Num(Box::new(Number {
        json: go_json_float(f),
        source: source.into(),
        float: true,
    }))
}

fn int(source: &str, json: String) -> Kind {
    Kind::Num(Box::new(Number {
        json,
        source: source.into(),
        float: false,
    }))
}

fn resolve_number(text: &str) -> Kind {
    // Timestamps (`2024-05-01`, `2024-05-01T10:00:00Z`) stay strings when decoded into
    // an untyped value; anything else starting with `YYYY-` is not a number either.
    let b = text.as_bytes();
    if b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
        return Kind::Str(text.into());
    }
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    match go_parse_int(&plain, true) {
        // In i64's range (and u64's below): printed as that type, which keeps the
        // standard library's 128-bit printing out of the wasm modules.
        Ok(v) => return int(text, (v as i64).to_string()),
        Err(range) => {
            if let Ok(u) = go_parse_int(&plain, false) {
                return int(text, (u as u64).to_string());
            }
            if is_yaml_style_float(&plain)
                && let Some(f) = parse_go_float(&plain)
            {
                return float(text, f);
            }
            if range && let Some(dec) = big_int_decimal(&plain) {
                return int(text, dec);
            }
        }
    }
    Kind::Str(text.into())
}

/// Go's `strconv.ParseInt(s, 0, 64)` (signed) or `ParseUint(s, 0, 64)`: the value as
/// i128, or `Err(true)` for a range error and `Err(false)` for a syntax error.
fn go_parse_int(s: &str, signed: bool) -> Result<i128, bool> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') if signed => (false, &s[1..]),
        Some(b'-') if signed => (true, &s[1..]),
        _ => (false, s),
    };
    let (base, body) = split_base(digits).ok_or(false)?;
    if body.is_empty() {
        return Err(false);
    }
    let mut v: u128 = 0;
    let mut overflow = false;
    for c in body.chars() {
        let d = c.to_digit(base).ok_or(false)?;
        if !overflow {
            v = v * u128::from(base) + u128::from(d);
            if v > u128::from(u64::MAX) {
                overflow = true;
            }
        }
    }
    if overflow {
        return Err(true);
    }
    let v = v as i128;
    if signed {
        let v = if neg { -v } else { v };
        if v > i128::from(i64::MAX) || v < i128::from(i64::MIN) {
            return Err(true);
        }
        Ok(v)
    } else {
        Ok(v)
    }
}

/// Base prefix handling of Go's base-0 parsing: `0x`, `0o`, `0b`, a leading `0` for
/// octal. Returns the base and the digits.
fn split_base(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b'0' {
        match b[1] {
            b'x' | b'X' => return Some((16, &s[2..])),
            b'o' | b'O' => return Some((8, &s[2..])),
            b'b' | b'B' => return Some((2, &s[2..])),
            _ => return Some((8, &s[1..])),
        }
    }
    Some((10, s))
}

/// `big.Int.SetString(s, 0)` printed in decimal, for integers beyond 64 bits.
fn big_int_decimal(s: &str) -> Option<String> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let (base, body) = split_base(digits)?;
    if body.is_empty() || body.len() > 4096 {
        return None;
    }
    // Little-endian limbs of 10^9.
    let mut limbs: Vec<u64> = vec![0];
    for c in body.chars() {
        let d = u64::from(c.to_digit(base)?);
        let mut carry = d;
        for l in limbs.iter_mut() {
            let v = *l * u64::from(base) + carry;
            *l = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut out = String::new();
    if neg && limbs.iter().any(|&l| l != 0) {
        out.push('-');
    }
    let mut iter = limbs.iter().rev();
    if let Some(top) = iter.next() {
        out.push_str(&top.to_string());
    }
    for l in iter {
        out.push_str(&format!("{l:09}"));
    }
    Some(out)
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms YAML reaches here; `None` on
/// a syntax or range error (Go reports overflow as an error).
fn parse_go_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let ok = b
        .iter()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !ok || !b.iter().any(u8::is_ascii_digit) {
        return None;
    }
    let f = taintlab_core::float::parse_f64(s)?;
    f.is_finite().then_some(f)
}

/// Go's `encoding/json` text for a float64 (`1` for 1.0, `1e+21`, `1e-7`):
/// src/encoding/json/encode.go floatEncoder, `strconv.AppendFloat(f, 'f' or 'e', -1,
/// 64)` with the exponent's leading zero dropped.
pub(crate) fn go_json_float(f: f64) -> String {
    let abs = f.abs();
    let mut out = String::new();
    if f.is_sign_negative() {
        out.push('-');
    }
    if abs == 0.0 {
        out.push('0');
        return out;
    }
    let (digits, dp) = taintlab_core::float::shortest(f, false);
    if !(1e-6..1e21).contains(&abs) {
        let exp = dp - 1;
        mantissa(&mut out, &digits);
        out.push_str(if exp < 0 { "e-" } else { "e+" });
        out.push_str(&exp.unsigned_abs().to_string());
    } else {
        taintlab_core::float::positional(&mut out, &digits, dp);
    }
    out
}

/// `d` or `d.ddd` of scientific notation.
fn mantissa(out: &mut String, digits: &[u8]) {
    for (i, d) in digits.iter().enumerate() {
        if i == 1 {
            out.push('.');
        }
        out.push(char::from(b'0' + d));
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, used by sigs.k8s.io/yaml for float map
/// keys.
pub(crate) fn go_format_float32_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            ".inf".into()
        } else {
            "-.inf".into()
        };
    }
    let x = f as f32;
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push('0');
        return out;
    }
    let (digits, dp) = taintlab_core::float::shortest(f64::from(x), true);
    let exp = dp - 1;
    // %e when the exponent is below -4 or at least 6 (the shortest form's precision).
    if !(-4..6).contains(&exp) {
        mantissa(&mut out, &digits);
        out.push_str(if exp < 0 { "e-" } else { "e+" });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else {
        taintlab_core::float::positional(&mut out, &digits, dp);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> String {
        match resolve_plain(text) {
            Kind::Num(n) => n.json,
            Kind::Str(s) => format!("str:{s}"),
            Kind::Bool(b, _) => format!("bool:{b}"),
            Kind::Null(_) => "null".into(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn yaml_1_1_booleans_and_nulls() {
        for t in [
            "yes", "Yes", "YES", "y", "Y", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert_eq!(json(t), "bool:true", "{t}");
        }
        for t in ["no", "n", "N", "off", "OFF", "false", "False"] {
            assert_eq!(json(t), "bool:false", "{t}");
        }
        for t in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(json(t), "null", "{t}");
        }
        for t in ["yES", "tRUE", "nULL", "Yess", "none", "nil"] {
            assert_eq!(json(t), format!("str:{t}"), "{t}");
        }
    }

    #[test]
    fn numbers_as_go_json() {
        assert_eq!(json("1.0"), "1");
        assert_eq!(json("1.50"), "1.5");
        assert_eq!(json("0x1F"), "31");
        assert_eq!(json("010"), "8");
        assert_eq!(json("08"), "8"); // not octal: falls through to the float rule
        assert_eq!(json("0o17"), "15");
        assert_eq!(json("0b101"), "5");
        assert_eq!(json("-0b101"), "-5");
        assert_eq!(json("1_000"), "1000");
        assert_eq!(json("+12"), "12");
        assert_eq!(json("1e3"), "1000");
        assert_eq!(json("1e21"), "1e+21");
        assert_eq!(json(".5"), "0.5");
        assert_eq!(json("18446744073709551615"), "18446744073709551615");
        assert_eq!(json("9223372036854775807"), "9223372036854775807");
        assert_eq!(json("-9223372036854775808"), "-9223372036854775808");
        assert_eq!(json("-0x8000000000000000"), "-9223372036854775808");
        assert_eq!(json("99999999999999999999999"), "1e+23"); // the float rule comes first
        assert_eq!(json("0x10000000000000000"), "18446744073709551616");
        assert_eq!(json("1e400"), "str:1e400");
        assert_eq!(json(".inf"), "");
        assert_eq!(json("2024-05-01"), "str:2024-05-01");
        assert_eq!(json("2024-05-01T10:00:00Z"), "str:2024-05-01T10:00:00Z");
        assert_eq!(json("12:30"), "str:12:30");
        assert_eq!(json("1.2.3"), "str:1.2.3");
        assert_eq!(json("-"), "str:-");
        assert_eq!(json("0x"), "str:0x");
        assert_eq!(json("v1"), "str:v1");
    }

    #[test]
    fn float_formats() {
        assert_eq!(go_json_float(1e-7), "1e-7");
        assert_eq!(go_json_float(1.5e-7), "1.5e-7");
        assert_eq!(go_json_float(123456.0), "123456");
        assert_eq!(go_json_float(0.000001), "0.000001");
        assert_eq!(go_format_float32_g(1.5), "1.5");
        assert_eq!(go_format_float32_g(1e10), "1e+10");
        assert_eq!(go_format_float32_g(100000.0), "100000");
        assert_eq!(go_format_float32_g(1000000.0), "1e+06");
        assert_eq!(go_format_float32_g(0.1), "0.1");
        // Exact ties between two shortest forms take the even one, as Go's strconv
        // does (Rust's `{:e}` would print ...313e-8 and 1.5371763e6).
        assert_eq!(go_json_float(2f64.powi(-25)), "2.9802322387695312e-8");
        assert_eq!(go_format_float32_g(1_537_176.25), "1.5371762e+06");
        assert_eq!(go_json_float(-0.0), "-0");
        assert_eq!(go_json_float(1e21), "1e+21");
        assert_eq!(go_json_float(-123.25), "-123.25");
        assert_eq!(go_format_float32_g(-0.0001), "-0.0001");
        assert_eq!(go_format_float32_g(0.00001), "1e-05");
    }
}
