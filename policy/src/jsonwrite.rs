//! Writes a `serde_json::Value` as compact JSON, byte for byte as `serde_json::to_vec`
//! does for everything the policy answers with (strings, integers, booleans, arrays and
//! objects in the map's iteration order).
//!
//! The one difference is a number that is not an integer: `serde_json` writes the
//! shortest text that reads back as the same `f64`, which links a float formatter and
//! its tables (about 20 KB of WebAssembly) into the Kubewarden module. Here such a
//! number is written with 17 significant digits, correctly rounded from its exact
//! decimal expansion, which a correctly rounding reader maps back to the same `f64`. The objects the policy echoes back (Pods, workloads, CronJobs) have no
//! floating-point fields in the Kubernetes API, so this is only a safeguard.

use std::fmt::Write;

use serde_json::Value;

/// `value` as compact JSON.
pub fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = String::new();
    write_value(&mut out, value);
    out.into_bytes()
}

/// Appends `value` as compact JSON to `out`.
pub fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                let _ = write!(out, "{u}");
            } else if let Some(i) = n.as_i64() {
                let _ = write!(out, "{i}");
            } else {
                write_f64(out, n.as_f64().unwrap_or(f64::NAN));
            }
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write_value(out, v);
            }
            out.push('}');
        }
    }
}

/// A JSON string as `serde_json` escapes it: `"` and `\`, the short escapes for
/// backspace, form feed, newline, carriage return and tab, `\u00XX` for the other
/// control characters; everything else verbatim.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(s.get(start..i).unwrap_or(""));
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

/// A finite `f64` as 17 significant digits in exponent notation, correctly rounded
/// from its exact decimal expansion (`null` otherwise, as `serde_json` writes
/// non-finite numbers).
pub fn write_f64(out: &mut String, x: f64) {
    if !x.is_finite() {
        out.push_str("null");
        return;
    }
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        out.push('-');
    }
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // x = mantissa × 2^exp.
    let (mantissa, exp) = if exp_bits == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), exp_bits - 1075)
    };
    // Little-endian base-10^9 limbs.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![
        mantissa % BASE,
        mantissa / BASE % BASE,
        mantissa / BASE / BASE,
    ];
    let mul = |limbs: &mut Vec<u64>, by: u64| {
        let mut carry = 0;
        for l in limbs.iter_mut() {
            let v = *l * by + carry;
            *l = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    };
    // For exp < 0: x = mantissa × 5^-exp / 10^-exp.
    let (times, by, point) = if exp >= 0 {
        (exp, 2, 0usize)
    } else {
        (-exp, 5, (-exp) as usize)
    };
    for _ in 0..times {
        mul(&mut limbs, by);
    }
    let mut digits = String::new();
    for (i, l) in limbs.iter().rev().enumerate() {
        if i == 0 {
            let _ = write!(digits, "{l}");
        } else {
            let _ = write!(digits, "{l:09}");
        }
    }
    let digits = digits.trim_start_matches('0').as_bytes();
    if digits.is_empty() {
        out.push_str("0.0");
        return;
    }
    // x = 0.d1d2d3… × 10^(len - point); rounded half to even to 17 significant digits,
    // which any correctly rounding reader maps back to x.
    let mut exponent = digits.len() as i64 - 1 - point as i64;
    let mut kept: Vec<u8> = digits.iter().take(17).copied().collect();
    if let Some(&first_dropped) = digits.get(17) {
        let rest_zero = digits.iter().skip(18).all(|&d| d == b'0');
        let last_odd = kept.last().is_some_and(|d| (d - b'0') % 2 == 1);
        if first_dropped > b'5' || (first_dropped == b'5' && (!rest_zero || last_odd)) {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, b'1');
                    kept.pop();
                    exponent += 1;
                    break;
                }
                i -= 1;
                match kept.get_mut(i) {
                    Some(d) if *d == b'9' => *d = b'0',
                    Some(d) => {
                        *d += 1;
                        break;
                    }
                    None => break,
                }
            }
        }
    }
    while kept.len() > 1 && kept.last() == Some(&b'0') {
        kept.pop();
    }
    let mut kept = kept.iter().map(|&d| char::from(d));
    out.extend(kept.next());
    out.push('.');
    let before = out.len();
    out.extend(kept);
    if out.len() == before {
        out.push('0');
    }
    let _ = write!(out, "e{exponent}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_bytes_as_serde_json_for_everything_but_fractions() {
        let v = json!({
            "a": [1, -2, 18446744073709551615u64, -9223372036854775808i64, true, false, null],
            "s": "quote \" backslash \\ \u{8}\u{c}\n\r\t \u{1} \u{1f} \u{7f} é 😀 </script>",
            "nested": {"z": {}, "y": [], "x": ""}
        });
        assert_eq!(
            String::from_utf8(to_vec(&v)).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
    }

    #[test]
    fn fractions_read_back_exactly() {
        for x in [
            0.1,
            -0.5,
            1.5,
            1e300,
            -1e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            123456.789,
            2.0,
            0.0,
            -0.0,
            1e22,
            4.35,
        ] {
            let mut s = String::new();
            write_f64(&mut s, x);
            let back: f64 = s.parse().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{x} -> {s}");
            assert!(serde_json::from_str::<Value>(&s).is_ok(), "{s}");
        }
        let mut s = String::new();
        write_f64(&mut s, 0.1);
        assert_eq!(s, "1.0000000000000001e-1");
        s.clear();
        write_f64(&mut s, -2.0);
        assert_eq!(s, "-2.0e0");
        s.clear();
        write_f64(&mut s, 1e23);
        assert_eq!(s, "9.9999999999999992e22");
        s.clear();
        write_f64(&mut s, 0.0);
        assert_eq!(s, "0.0");
        s.clear();
        write_f64(&mut s, f64::NAN);
        assert_eq!(s, "null");
    }
}
