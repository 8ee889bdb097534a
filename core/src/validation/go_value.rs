//! Go renderings of whole structs as the apiserver prints them in bad values: JSON of the
//! internal type, or `%#v`, with `metav1.Time` parsed from RFC 3339.

use alloc::string::String;
use core::fmt::Write;

use super::field::TaintRendering;
use super::quote::{GoUnicode, push_go_quoted_with, push_json_quoted};
use crate::model::{Taint, Toleration};

/// A `core.Taint` as `ErrorBody()` prints it: JSON (1.34+) or `%#v`.
pub(super) fn render_internal_taint(
    taint: &Taint,
    rendering: TaintRendering,
    unicode: GoUnicode,
) -> String {
    let push_go_quoted = |s: &mut String, v: &str| push_go_quoted_with(s, v, unicode);
    let mut s = String::new();
    match rendering {
        TaintRendering::Json => {
            s.push_str("{\"Key\":");
            push_json_quoted(&mut s, &taint.key);
            s.push_str(",\"Value\":");
            push_json_quoted(&mut s, &taint.value);
            s.push_str(",\"Effect\":");
            push_json_quoted(&mut s, taint.effect.as_str());
            s.push_str(",\"TimeAdded\":");
            match taint.time_added.as_deref() {
                None => s.push_str("null"),
                Some(raw) => match parse_rfc3339_utc(raw) {
                    // metav1.Time.MarshalJSON: zero time is null, else RFC 3339 in UTC
                    // without fractional seconds.
                    Some(t) if t.is_zero() => s.push_str("null"),
                    Some(t) => {
                        let _ = write!(
                            s,
                            "\"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z\"",
                            t.year, t.month, t.day, t.hour, t.minute, t.second
                        );
                    }
                    // The apiserver would have rejected it while decoding; show the text.
                    None => push_json_quoted(&mut s, raw),
                },
            }
            s.push('}');
        }
        TaintRendering::GoSyntax => {
            s.push_str("core.Taint{Key:");
            push_go_quoted(&mut s, &taint.key);
            s.push_str(", Value:");
            push_go_quoted(&mut s, &taint.value);
            s.push_str(", Effect:");
            push_go_quoted(&mut s, taint.effect.as_str());
            s.push_str(", TimeAdded:");
            match taint.time_added.as_deref() {
                // Upstream quirk: %#v calls the promoted time.Time.GoString on a nil
                // *metav1.Time, which panics; fmt recovers and prints <nil>.
                None => s.push_str("<nil>"),
                // time.Time.GoString of the decoded value. The apiserver decodes into
                // local time; this assumes it runs in UTC (as in the usual containers).
                Some(raw) => match parse_rfc3339_utc(raw) {
                    Some(t) => {
                        let _ = write!(
                            s,
                            "time.Date({}, time.{}, {}, {}, {}, {}, {}, time.Local)",
                            t.year,
                            MONTH_NAMES
                                .get(t.month.wrapping_sub(1) as usize)
                                .copied()
                                .unwrap_or("January"),
                            t.day,
                            t.hour,
                            t.minute,
                            t.second,
                            t.nanos
                        );
                    }
                    None => push_go_quoted(&mut s, raw),
                },
            }
            s.push('}');
        }
    }
    s
}

/// A `core.Toleration` (internal type, no JSON tags) as `ErrorBody()` prints it.
///
/// With `%#v` (before 1.34) a set `TolerationSeconds` is a pointer and Go prints its
/// address, which differs on every request; it is shown as `(*int64)(0xc000000000)`.
/// Unset it is `(*int64)(nil)`, as in the text quoted by kubernetes PR #128119:
/// `core.Toleration{Key:"pool", Operator:"Exists", Value:"build", Effect:"NoSchedule",
/// TolerationSeconds:(*int64)(nil)}`.
pub(super) fn render_internal_toleration(
    t: &Toleration,
    rendering: TaintRendering,
    unicode: GoUnicode,
) -> String {
    let mut s = String::new();
    match rendering {
        TaintRendering::Json => {
            s.push_str("{\"Key\":");
            push_json_quoted(&mut s, &t.key);
            s.push_str(",\"Operator\":");
            push_json_quoted(&mut s, t.operator.as_str());
            s.push_str(",\"Value\":");
            push_json_quoted(&mut s, &t.value);
            s.push_str(",\"Effect\":");
            push_json_quoted(&mut s, t.effect.as_str());
            s.push_str(",\"TolerationSeconds\":");
            match t.toleration_seconds {
                Some(n) => {
                    let _ = write!(s, "{n}");
                }
                None => s.push_str("null"),
            }
            s.push('}');
        }
        TaintRendering::GoSyntax => {
            s.push_str("core.Toleration{Key:");
            push_go_quoted_with(&mut s, &t.key, unicode);
            s.push_str(", Operator:");
            push_go_quoted_with(&mut s, t.operator.as_str(), unicode);
            s.push_str(", Value:");
            push_go_quoted_with(&mut s, &t.value, unicode);
            s.push_str(", Effect:");
            push_go_quoted_with(&mut s, t.effect.as_str(), unicode);
            s.push_str(", TolerationSeconds:");
            s.push_str(if t.toleration_seconds.is_some() {
                "(*int64)(0xc000000000)"
            } else {
                "(*int64)(nil)"
            });
            s.push('}');
        }
    }
    s
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A point in time in UTC, broken down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UtcTime {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    nanos: u32,
}

impl UtcTime {
    /// Go's zero `time.Time` (0001-01-01T00:00:00Z).
    fn is_zero(&self) -> bool {
        *self
            == (UtcTime {
                year: 1,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
                nanos: 0,
            })
    }
}

fn digits(b: &[u8], from: usize, len: usize) -> Option<u32> {
    let part = b.get(from..from + len)?;
    part.iter().try_fold(0u32, |acc, c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Parses RFC 3339 (`2024-05-01T10:00:00Z`, `...T12:00:00.5+02:00`) and converts it to
/// UTC, as Go's `time.Parse(time.RFC3339, ...)` accepts it.
fn parse_rfc3339_utc(s: &str) -> Option<UtcTime> {
    let b = s.as_bytes();
    let year = i64::from(digits(b, 0, 4)?);
    let month = digits(b, 5, 2)?;
    let day = digits(b, 8, 2)?;
    let hour = digits(b, 11, 2)?;
    let minute = digits(b, 14, 2)?;
    let second = digits(b, 17, 2)?;
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if seps.iter().any(|(i, c)| b.get(*i) != Some(c))
        || !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            if i - start < 9 {
                nanos = nanos * 10 + u32::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        for _ in (i - start)..9 {
            nanos *= 10;
        }
    }
    let offset_seconds: i64 = match b.get(i) {
        Some(b'Z') if b.len() == i + 1 => 0,
        Some(sign @ (b'+' | b'-')) if b.len() == i + 6 && b.get(i + 3) == Some(&b':') => {
            let h = i64::from(digits(b, i + 1, 2)?);
            let m = i64::from(digits(b, i + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let off = h * 3600 + m * 60;
            if *sign == b'-' { -off } else { off }
        }
        _ => return None,
    };
    let local = days_from_civil(year, month, day) * 86_400
        + i64::from(hour) * 3600
        + i64::from(minute) * 60
        + i64::from(second);
    let utc = local - offset_seconds;
    let (y, mo, d) = civil_from_days(utc.div_euclid(86_400));
    let secs = utc.rem_euclid(86_400) as u32;
    Some(UtcTime {
        year: y,
        month: mo,
        day: d,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        nanos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_parsing() {
        assert!(parse_rfc3339_utc("2024-02-30T00:00:00Z").is_none());
        assert!(parse_rfc3339_utc("2024-02-29T00:00:00Z").is_some());
        assert!(parse_rfc3339_utc("2024-02-29 00:00:00Z").is_none());
        assert!(parse_rfc3339_utc("2024-02-29T00:00:00").is_none());
        assert!(parse_rfc3339_utc("0001-01-01T00:00:00Z").is_some_and(|t| t.is_zero()));
        let t = parse_rfc3339_utc("2023-12-31T23:00:00-01:30");
        assert_eq!(
            t.map(|t| (t.year, t.month, t.day, t.hour, t.minute)),
            Some((2024, 1, 1, 0, 30))
        );
    }
}
