//! Kubernetes resource quantities (`500m`, `1.5Gi`, `2e3`), enough to compare and add
//! them exactly as the QoS-class computation does.

use core::cmp::Ordering;

/// A parsed quantity, as an exact multiple of 10^-9 (nano units). Values beyond about
/// 10^29 saturate; no real request comes near that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity {
    nanos: i128,
}

/// Why a quantity string is not valid.
pub const QUANTITY_FORMAT: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

impl Quantity {
    /// Zero.
    pub const ZERO: Quantity = Quantity { nanos: 0 };

    /// Parses a quantity string (`resource.ParseQuantity`); `None` when it is not one.
    pub fn parse(s: &str) -> Option<Quantity> {
        let s = s.trim();
        let b = s.as_bytes();
        let mut i = 0;
        let neg = match b.first() {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let num_start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
            i += 1;
        }
        let num = &s[num_start..i];
        if num.is_empty() || num.matches('.').count() > 1 || num == "." {
            return None;
        }
        let suffix = &s[i..];
        // Mantissa digits and the position of the decimal point.
        let (int_part, frac_part) = num.split_once('.').unwrap_or((num, ""));
        let digits: String = format!("{int_part}{frac_part}");
        let mut exp10: i32 = -(frac_part.len() as i32);
        let mut exp2: u32 = 0;
        match suffix {
            "" => {}
            "n" => exp10 -= 9,
            "u" => exp10 -= 6,
            "m" => exp10 -= 3,
            "k" => exp10 += 3,
            "M" => exp10 += 6,
            "G" => exp10 += 9,
            "T" => exp10 += 12,
            "P" => exp10 += 15,
            "E" => exp10 += 18,
            "Ki" => exp2 = 10,
            "Mi" => exp2 = 20,
            "Gi" => exp2 = 30,
            "Ti" => exp2 = 40,
            "Pi" => exp2 = 50,
            "Ei" => exp2 = 60,
            other => {
                let rest = other.strip_prefix(['e', 'E'])?;
                let e: i32 = rest.parse().ok()?;
                if !(-100..=100).contains(&e) {
                    return None;
                }
                exp10 += e;
            }
        }
        // nanos = digits * 10^(exp10 + 9) * 2^exp2, rounded up (upstream rounds
        // sub-nano precision up).
        let mut v: i128 = 0;
        let mut saturated = false;
        for c in digits.bytes() {
            v = match v
                .checked_mul(10)
                .and_then(|x| x.checked_add(i128::from(c - b'0')))
            {
                Some(x) => x,
                None => {
                    saturated = true;
                    break;
                }
            };
        }
        let mut e = exp10 + 9;
        while e > 0 && !saturated {
            match v.checked_mul(10) {
                Some(x) => v = x,
                None => saturated = true,
            }
            e -= 1;
        }
        if e < 0 {
            let div = 10i128.checked_pow((-e) as u32);
            v = match div {
                Some(d) => {
                    let q = v / d;
                    if v % d != 0 { q + 1 } else { q }
                }
                None => i128::from(v != 0),
            };
        }
        if !saturated {
            match v.checked_mul(1i128 << exp2) {
                Some(x) => v = x,
                None => saturated = true,
            }
        }
        if saturated {
            v = i128::MAX / 4;
        }
        Some(Quantity {
            nanos: if neg { -v } else { v },
        })
    }

    /// Sum, saturating.
    pub fn plus(self, other: Quantity) -> Quantity {
        Quantity {
            nanos: self.nanos.saturating_add(other.nanos),
        }
    }

    /// `Quantity.Cmp`.
    pub fn cmp_value(self, other: Quantity) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }

    /// True for values above zero.
    pub fn is_positive(self) -> bool {
        self.nanos > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn equal_values_in_different_forms() {
        assert_eq!(q("1"), q("1000m"));
        assert_eq!(q("0.5"), q("500m"));
        assert_eq!(q("1Ki"), q("1024"));
        assert_eq!(q("1k"), q("1e3"));
        assert_eq!(q(".5"), q("500m"));
        assert_eq!(q("128Mi"), q("134217728"));
        assert!(q("1Gi") > q("1G"));
        assert_eq!(q("1n").cmp_value(Quantity::ZERO), Ordering::Greater);
        assert_eq!(q("-1").cmp_value(Quantity::ZERO), Ordering::Less);
    }

    #[test]
    fn rejects_garbage() {
        for s in ["", "abc", "1x", "1..2", ".", "1Kib", "1e", "--1", "1 Gi"] {
            assert_eq!(Quantity::parse(s), None, "{s}");
        }
    }
}
