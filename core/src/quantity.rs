//! Kubernetes resource quantities (`resource.Quantity` of `k8s.io/apimachinery`):
//! `100m`, `1Gi`, `1e3`, `0.5`, parsed as `ParseQuantity` does and converted to the
//! integers the scheduler compares (`MilliValue`, `Value`).
//!
//! Upstream: `apimachinery/pkg/api/resource/quantity.go` (`parseQuantityString`,
//! `ParseQuantity`, `UnmarshalJSON`), `suffix.go` (`interpret`), `amount.go`
//! (`AsScale`, rounding up).
//!
//! What is reproduced:
//! * the scanner's leniencies: `.`, `-`, `+` and `e3` are zero, `1.` and `1.G` are
//!   accepted, leading zeros are dropped; `1 Gi`, `1Kib`, `1i` and `0.1mi` are errors;
//! * the exponent of `e`/`E` is read as a 64-bit integer and then truncated to 32 bits
//!   (`1e4294967296` is 1);
//! * values finer than 10⁻⁹ are rounded up (away from zero) to the next nano unit;
//! * binary-suffixed values (`Ki` … `Ei`) beyond 2⁶³−1 are capped at 2⁶³−1;
//! * `MilliValue` and `Value` round up (`0.0001` cpu is `1m`; `100m` of memory is 1 byte).
//!
//! Values are kept as an exact count of nano units in an `i128`; magnitudes beyond about
//! 10²⁹ (far past anything `int64` conversions could hold) saturate, and conversions to
//! `i64` saturate where Go's `big.Int.Int64` would wrap. [`Quantity::parse`] trims
//! surrounding white space first, as `Quantity.UnmarshalJSON` does for YAML and JSON
//! input; [`Quantity::parse_exact`] is `ParseQuantity` itself.

use core::cmp::Ordering;
use core::fmt;

/// A parsed quantity: an exact multiple of 10⁻⁹ (nano units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity {
    nanos: i128,
}

/// `ErrFormatWrong`'s text.
pub const QUANTITY_FORMAT: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// `ErrNumeric`'s text.
pub const QUANTITY_NUMERIC: &str = "unable to parse numeric part of quantity";
/// `ErrSuffix`'s text.
pub const QUANTITY_SUFFIX: &str = "unable to parse quantity's suffix";

/// Why `ParseQuantity` refuses a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantityError {
    /// `ErrFormatWrong` (also the empty string).
    FormatWrong,
    /// `ErrNumeric`.
    Numeric,
    /// `ErrSuffix`.
    Suffix,
}

impl QuantityError {
    /// Upstream's error text.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::FormatWrong => QUANTITY_FORMAT,
            Self::Numeric => QUANTITY_NUMERIC,
            Self::Suffix => QUANTITY_SUFFIX,
        }
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Saturation bound of the nano count.
const LIMIT: i128 = i128::MAX / 4;
const NANOS_PER_UNIT: i128 = 1_000_000_000;
const MAX_INT64_NANOS: i128 = (i64::MAX as i128) * NANOS_PER_UNIT;

/// The parts `parseQuantityString` splits a quantity into.
struct Parts<'a> {
    positive: bool,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// `parseQuantityString`: sign, numerator without leading zeros, denominator, suffix.
fn scan(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    while pos < end && b.get(pos) == Some(&b'0') {
        pos += 1;
    }
    let zero = |positive| Parts {
        positive,
        num: "0",
        denom: "",
        suffix: "",
    };
    if pos >= end {
        return Ok(zero(positive));
    }
    let num_start = pos;
    while pos < end && b.get(pos).copied().is_some_and(is_digit) {
        pos += 1;
    }
    let mut num = s.get(num_start..pos).unwrap_or("");
    if num.is_empty() {
        num = "0";
    }
    let mut denom = "";
    if pos < end && b.get(pos) == Some(&b'.') {
        pos += 1;
        let start = pos;
        while pos < end && b.get(pos).copied().is_some_and(is_digit) {
            pos += 1;
        }
        denom = s.get(start..pos).unwrap_or("");
    }
    let suffix_start = pos;
    while pos < end && b.get(pos).is_some_and(|c| b"eEinumkKMGTP".contains(c)) {
        pos += 1;
    }
    if pos < end && matches!(b.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    while pos < end && b.get(pos).copied().is_some_and(is_digit) {
        pos += 1;
    }
    if pos < end {
        return Err(QuantityError::FormatWrong);
    }
    Ok(Parts {
        positive,
        num,
        denom,
        suffix: s.get(suffix_start..).unwrap_or(""),
    })
}

/// `suffixHandler.interpret`: (base 10 exponent, base 2 exponent, binary format).
fn interpret(suffix: &str) -> Option<(i64, u32, bool)> {
    let dec = match suffix {
        "" => Some(0),
        "n" => Some(-9),
        "u" => Some(-6),
        "m" => Some(-3),
        "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        "P" => Some(15),
        "E" => Some(18),
        _ => None,
    };
    if let Some(e) = dec {
        return Some((e, 0, false));
    }
    let bin = match suffix {
        "Ki" => Some(10),
        "Mi" => Some(20),
        "Gi" => Some(30),
        "Ti" => Some(40),
        "Pi" => Some(50),
        "Ei" => Some(60),
        _ => None,
    };
    if let Some(e) = bin {
        return Some((0, e, true));
    }
    let rest = suffix.strip_prefix(['e', 'E'])?;
    if rest.is_empty() {
        return None;
    }
    let parsed = parse_go_int64(rest)?;
    // `int32(parsed)`: Go truncates to the low 32 bits.
    Some((i64::from(parsed as i32), 0, false))
}

/// `strconv.ParseInt(s, 10, 64)`: optional sign, decimal digits, no overflow.
fn parse_go_int64(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut v: i128 = 0;
    for c in digits.bytes() {
        v = v * 10 + i128::from(c - b'0');
        if v > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

fn pow10(e: u32) -> Option<i128> {
    10i128.checked_pow(e)
}

impl Quantity {
    /// Zero.
    pub const ZERO: Quantity = Quantity { nanos: 0 };

    /// `Quantity.UnmarshalJSON`: surrounding white space trimmed, then
    /// [`Quantity::parse_exact`]; `None` when it is not a quantity.
    pub fn parse(s: &str) -> Option<Quantity> {
        Self::parse_exact(s.trim()).ok()
    }

    /// `ParseQuantity`, with its error.
    pub fn parse_exact(s: &str) -> Result<Quantity, QuantityError> {
        if s.is_empty() {
            return Err(QuantityError::FormatWrong);
        }
        let parts = scan(s)?;
        let (exp10, exp2, binary) = interpret(parts.suffix).ok_or(QuantityError::Suffix)?;
        // The mantissa num.denom × 10^(exp10 − len(denom)) × 2^exp2, in nano units:
        // digits × 10^(exp10 − len(denom) + 9) × 2^exp2, rounded up away from zero.
        let mut digits: i128 = 0;
        let mut saturated = false;
        for c in parts.num.bytes().chain(parts.denom.bytes()) {
            match digits
                .checked_mul(10)
                .and_then(|d| d.checked_add(i128::from(c - b'0')))
            {
                Some(d) if d <= LIMIT => digits = d,
                _ => {
                    saturated = true;
                    break;
                }
            }
        }
        let denom_len = i64::try_from(parts.denom.len()).unwrap_or(i64::MAX);
        let shift = exp10.saturating_sub(denom_len).saturating_add(9);
        let mut nanos = digits;
        if !saturated && nanos != 0 {
            if shift >= 0 {
                let up = u32::try_from(shift).ok().and_then(pow10);
                match up.and_then(|p| nanos.checked_mul(p)) {
                    Some(v) if v <= LIMIT => nanos = v,
                    _ => saturated = true,
                }
            } else {
                match u32::try_from(-shift).ok().and_then(pow10) {
                    Some(d) => {
                        let q = nanos / d;
                        nanos = if nanos % d != 0 { q + 1 } else { q };
                    }
                    // Smaller than any representable value: rounds up to 1n.
                    None => nanos = 1,
                }
            }
        }
        if !saturated && nanos != 0 && exp2 > 0 {
            match nanos.checked_mul(1i128 << exp2) {
                Some(v) if v <= LIMIT => nanos = v,
                _ => saturated = true,
            }
        }
        if saturated {
            nanos = LIMIT;
        }
        if binary && nanos > MAX_INT64_NANOS {
            // "The max is just a simple cap" (BinarySI only).
            nanos = MAX_INT64_NANOS;
        }
        Ok(Quantity {
            nanos: if parts.positive { nanos } else { -nanos },
        })
    }

    /// A quantity of `v` whole units (`resource.NewQuantity`).
    pub const fn from_int(v: i64) -> Quantity {
        Quantity {
            nanos: v as i128 * NANOS_PER_UNIT,
        }
    }

    /// A quantity of `v` thousandths (`resource.NewMilliQuantity`).
    pub const fn from_milli(v: i64) -> Quantity {
        Quantity {
            nanos: v as i128 * 1_000_000,
        }
    }

    /// The exact value in nano units.
    pub const fn nanos(self) -> i128 {
        self.nanos
    }

    /// A quantity from nano units (saturating).
    pub const fn from_nanos(nanos: i128) -> Quantity {
        Quantity {
            nanos: if nanos > LIMIT {
                LIMIT
            } else if nanos < -LIMIT {
                -LIMIT
            } else {
                nanos
            },
        }
    }

    fn scaled(self, per: i128) -> i64 {
        let q = self.nanos / per;
        let r = self.nanos % per;
        // Rounded up, away from zero (`RoundUp`).
        let v = if r > 0 {
            q + 1
        } else if r < 0 {
            q - 1
        } else {
            q
        };
        i64::try_from(v).unwrap_or(if v > 0 { i64::MAX } else { i64::MIN })
    }

    /// `Quantity.Value()`: whole units, rounded up.
    pub fn value(self) -> i64 {
        self.scaled(NANOS_PER_UNIT)
    }

    /// `Quantity.MilliValue()`: thousandths, rounded up.
    pub fn milli_value(self) -> i64 {
        self.scaled(1_000_000)
    }

    /// Sum, saturating.
    pub fn plus(self, other: Quantity) -> Quantity {
        Self::from_nanos(self.nanos.saturating_add(other.nanos))
    }

    /// `Quantity.Cmp`.
    pub fn cmp_value(self, other: Quantity) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }

    /// True for values above zero.
    pub fn is_positive(self) -> bool {
        self.nanos > 0
    }

    /// `Quantity.RoundUp(Milli)`: the value rounded up (away from zero) to a multiple
    /// of 10⁻³, as API defaulting does to every resource list (`SetDefaults_ResourceList`).
    pub fn round_up_milli(self) -> Quantity {
        const MILLI: i128 = 1_000_000;
        let r = self.nanos % MILLI;
        let base = self.nanos - r;
        Self::from_nanos(if r > 0 {
            base + MILLI
        } else if r < 0 {
            base - MILLI
        } else {
            base
        })
    }

    /// `Quantity.IsZero`.
    pub fn is_zero(self) -> bool {
        self.nanos == 0
    }
}

/// Renders the value in plain decimal (`1.5`, `100`, `0.001`), for explanations; not
/// upstream's canonical form.
impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.nanos < 0;
        let abs = self.nanos.unsigned_abs();
        let whole = abs / NANOS_PER_UNIT as u128;
        let mut frac = abs % NANOS_PER_UNIT as u128;
        if neg {
            f.write_str("-")?;
        }
        write!(f, "{whole}")?;
        if frac != 0 {
            let mut width = 9;
            while frac.is_multiple_of(10) {
                frac /= 10;
                width -= 1;
            }
            write!(f, ".{frac:0width$}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a resource quantity such as 500m or 1Gi")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Quantity, E> {
                Quantity::parse_exact(v.trim()).map_err(|e| E::custom(e.as_str()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity::from_int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
                Ok(Quantity::from_nanos(i128::from(v) * NANOS_PER_UNIT))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
                Quantity::parse_exact(&crate::float::display(v)).map_err(|e| E::custom(e.as_str()))
            }
        }
        d.deserialize_any(V)
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
        assert_eq!(q("1k"), q("1E3"));
        assert_eq!(q("1e+3"), q("1000"));
        assert_eq!(q("1e-3"), q("1m"));
        assert_eq!(q(".5"), q("500m"));
        assert_eq!(q("128Mi"), q("134217728"));
        assert_eq!(q("007"), q("7"));
        assert!(q("1Gi") > q("1G"));
        assert_eq!(q("1n").cmp_value(Quantity::ZERO), Ordering::Greater);
        assert_eq!(q("-1").cmp_value(Quantity::ZERO), Ordering::Less);
    }

    #[test]
    fn rejects_what_parse_quantity_rejects() {
        use QuantityError::*;
        for (s, e) in [
            ("", FormatWrong),
            ("abc", FormatWrong),
            ("1x", FormatWrong),
            ("1..2", FormatWrong),
            ("1Kib", FormatWrong),
            ("1 Gi", FormatWrong),
            (" 1", FormatWrong),
            ("1 ", FormatWrong),
            ("1.1.M", FormatWrong),
            ("1+1.0M", FormatWrong),
            ("1e", Suffix),
            ("1i", Suffix),
            ("0.1mi", Suffix),
            (".5i", Suffix),
            ("--1", Suffix),
            ("-3.01e-", Suffix),
            ("1e99999999999999999999", Suffix),
        ] {
            assert_eq!(Quantity::parse_exact(s), Err(e), "{s}");
        }
    }

    #[test]
    fn scanner_leniencies() {
        for s in [".", "-", "+", "e3", "0", "-0", "000"] {
            assert_eq!(Quantity::parse_exact(s), Ok(Quantity::ZERO), "{s}");
        }
        assert_eq!(q("1."), q("1"));
        assert_eq!(q("1.G"), q("1G"));
        // int32(ParseInt): 2^32 truncates to 0.
        assert_eq!(q("1e4294967296"), q("1"));
        assert_eq!(q(" 1Gi "), q("1Gi"));
    }

    #[test]
    fn rounding_up() {
        assert_eq!(q("0.1n").nanos(), 1);
        assert_eq!(q("-0.1n").nanos(), -1);
        assert_eq!(q("1e-100").nanos(), 1);
        assert_eq!(q("0.0001").milli_value(), 1);
        assert_eq!(q("100m").value(), 1);
        assert_eq!(q("1.5").value(), 2);
        assert_eq!(q("100m").milli_value(), 100);
        assert_eq!(q("1Gi").value(), 1 << 30);
        assert_eq!(q("2").milli_value(), 2000);
        assert_eq!(q("1.5Gi").value(), 1_610_612_736);
    }

    #[test]
    fn caps_and_saturation() {
        // Binary values cap at 2^63-1; decimal ones do not.
        assert_eq!(q("8Ei").value(), i64::MAX);
        assert_eq!(q("8Ei"), q("9223372036854775807"));
        assert!(q("10E") > q("8Ei"));
        assert_eq!(q("10E").value(), i64::MAX);
        assert_eq!(q("1e400").value(), i64::MAX);
        assert_eq!(
            Quantity::from_int(3).plus(Quantity::from_milli(500)),
            q("3.5")
        );
    }

    #[test]
    fn milli_rounding() {
        assert_eq!(q("0.5m").round_up_milli(), q("1m"));
        assert_eq!(q("1.0001").round_up_milli(), q("1001m"));
        assert_eq!(q("-0.5m").round_up_milli(), q("-1m"));
        assert_eq!(q("2Gi").round_up_milli(), q("2Gi"));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "[-+0-9.eEinumkKMGTP ]{0,24}") {
            let _ = Quantity::parse(&s).map(|q| (q.value(), q.milli_value(), q.round_up_milli()));
        }

        #[test]
        fn integers_and_millis(v in 0i64..1_000_000_000_000, m in 0i64..1_000_000_000) {
            let q = Quantity::parse(&alloc::format!("{v}")).unwrap();
            proptest::prop_assert_eq!(q.value(), v);
            let q = Quantity::parse(&alloc::format!("{m}m")).unwrap();
            proptest::prop_assert_eq!(q.milli_value(), m);
            proptest::prop_assert_eq!(q.value(), (m + 999) / 1000);
            // Display round-trips.
            proptest::prop_assert_eq!(Quantity::parse(&alloc::format!("{q}")), Some(q));
        }
    }

    #[test]
    fn display() {
        assert_eq!(alloc::format!("{}", q("1500m")), "1.5");
        assert_eq!(alloc::format!("{}", q("1Ki")), "1024");
        assert_eq!(alloc::format!("{}", q("-1m")), "-0.001");
    }
}
