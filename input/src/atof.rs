//! Decimal text to `f64`, correctly rounded (to nearest, ties to even), for the few
//! floats YAML gives (`1.5`, `.5`, `1e3` as go-yaml resolves them).
//!
//! Hand-written because of the byte budget: `str::parse::<f64>` brings the standard
//! library's fast path and its 10 KB table of powers of five (about 12 KB of the
//! gzipped npm engine module). This is the exact "simple decimal conversion" alone:
//! the digits are kept as decimal digits and shifted by powers of two until the value
//! lies in [1/2, 1), then 53 bits are taken and rounded. It is slower than the standard
//! library for long inputs, which YAML floats in Kubernetes objects never are, and it
//! gives the same `f64` for every input (property-tested against `str::parse`).

/// Significant digits kept; a nonzero digit past them is remembered (`trunc`) for the
/// rounding, which is enough for exactness: 800 digits exceed the 767 that a halfway
/// point between two doubles can have.
const MAX_DIGITS: usize = 800;

/// `0.d1d2d3... × 10^dp`, digits as values 0..=9, no leading zero digit.
struct Decimal {
    d: Vec<u8>,
    dp: i32,
    trunc: bool,
}

impl Decimal {
    fn push(&mut self, digit: u8) {
        if self.d.len() < MAX_DIGITS {
            self.d.push(digit);
        } else if digit != 0 {
            self.trunc = true;
        }
    }

    fn trim(&mut self) {
        while self.d.last() == Some(&0) {
            self.d.pop();
        }
        if self.d.is_empty() {
            self.dp = 0;
        }
    }

    /// Multiplies by 2^k (k ≤ 60).
    fn shift_left(&mut self, k: u32) {
        // New digits: carry out of the top adds at most 19 digits.
        let mut out = vec![0u8; self.d.len() + 19];
        let mut n: u64 = 0;
        let mut w = out.len();
        for &digit in self.d.iter().rev() {
            n += u64::from(digit) << k;
            let q = n / 10;
            w -= 1;
            out[w] = (n - q * 10) as u8;
            n = q;
        }
        while n > 0 {
            let q = n / 10;
            w -= 1;
            out[w] = (n - q * 10) as u8;
            n = q;
        }
        let carried = (self.d.len() + 19 - w) - self.d.len();
        self.dp += carried as i32;
        self.d.clear();
        for &digit in &out[w..] {
            self.push(digit);
        }
        self.trim();
    }

    /// Divides by 2^k (k ≤ 60).
    fn shift_right(&mut self, k: u32) {
        let mask = (1u64 << k) - 1;
        let mut r = 0usize;
        let mut n: u64 = 0;
        // Read digits until the value read reaches 2^k.
        while n >> k == 0 {
            if r < self.d.len() {
                n = n * 10 + u64::from(self.d[r]);
                r += 1;
            } else if n == 0 {
                // Zero (cannot happen for a trimmed nonzero value).
                self.d.clear();
                self.dp = 0;
                return;
            } else {
                while n >> k == 0 {
                    n *= 10;
                    r += 1;
                }
                break;
            }
        }
        self.dp -= r as i32 - 1;
        let mut out = Vec::with_capacity(self.d.len() + 20);
        while r < self.d.len() {
            let c = u64::from(self.d[r]);
            r += 1;
            out.push((n >> k) as u8);
            n = (n & mask) * 10 + c;
        }
        while n > 0 {
            out.push((n >> k) as u8);
            n = (n & mask) * 10;
        }
        let was_trunc = self.trunc;
        self.d.clear();
        self.trunc = false;
        for digit in out {
            self.push(digit);
        }
        self.trunc |= was_trunc;
        self.trim();
    }

    /// Multiplies by 2^k for any k.
    fn shift(&mut self, mut k: i32) {
        if self.d.is_empty() {
            return;
        }
        while k > 60 {
            self.shift_left(60);
            k -= 60;
        }
        while k < -60 {
            self.shift_right(60);
            k += 60;
        }
        if k > 0 {
            self.shift_left(k as u32);
        } else if k < 0 {
            self.shift_right((-k) as u32);
        }
    }

    /// The integer part, rounded to nearest (ties to even); `dp` ≤ 19 here.
    fn rounded_integer(&self) -> u64 {
        if self.dp > 19 {
            return u64::MAX;
        }
        if self.dp < 0 {
            // Below 0.1: rounds to zero.
            return 0;
        }
        let dp = self.dp.max(0) as usize;
        let mut n: u64 = 0;
        for i in 0..dp {
            n = n * 10 + u64::from(self.d.get(i).copied().unwrap_or(0));
        }
        let up = match self.d.get(dp) {
            Some(5) if dp + 1 == self.d.len() => {
                // Exactly half, unless digits were dropped.
                self.trunc || (dp > 0 && self.d[dp - 1] % 2 == 1)
            }
            Some(&digit) => digit >= 5,
            None => false,
        };
        n + u64::from(up)
    }
}

/// Bits of shift that keep a value below 1, by decimal exponent.
const POWTAB: [i32; 9] = [1, 3, 6, 9, 13, 16, 19, 23, 26];

/// `text` as `f64`, or `None` when it is not `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?`
/// (the grammar `str::parse::<f64>` accepts, without `inf` and `nan`). Out-of-range
/// values give infinity or zero as in `str::parse`.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = 0;
    let neg = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut dec = Decimal {
        d: Vec::new(),
        dp: 0,
        trunc: false,
    };
    let mut digits = 0usize;
    while let Some(&c) = b.get(i)
        && c.is_ascii_digit()
    {
        if c != b'0' || !dec.d.is_empty() {
            dec.push(c - b'0');
            dec.dp = dec.dp.saturating_add(1);
        }
        digits += 1;
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&c) = b.get(i)
            && c.is_ascii_digit()
        {
            if c == b'0' && dec.d.is_empty() {
                dec.dp = dec.dp.saturating_sub(1);
            } else {
                dec.push(c - b'0');
            }
            digits += 1;
            i += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        let eneg = match b.get(i) {
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
        let start = i;
        let mut e: i32 = 0;
        while let Some(&c) = b.get(i)
            && c.is_ascii_digit()
        {
            if e < 100_000 {
                e = e * 10 + i32::from(c - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        dec.dp = dec.dp.saturating_add(if eneg { -e } else { e });
    }
    if i != b.len() {
        return None;
    }
    dec.trim();
    let bits = to_bits(&mut dec);
    let sign = if neg { 1u64 << 63 } else { 0 };
    Some(f64::from_bits(bits | sign))
}

/// The IEEE 754 bits (without the sign) of the nearest double.
fn to_bits(dec: &mut Decimal) -> u64 {
    const MANT_BITS: i32 = 52;
    const BIAS: i32 = -1023;
    const INF: u64 = 0x7ff << 52;
    if dec.d.is_empty() {
        return 0;
    }
    // 10^310 and 10^-330 are out of range whatever the digits.
    if dec.dp > 310 {
        return INF;
    }
    if dec.dp < -330 {
        return 0;
    }
    let mut exp: i32 = 0;
    while dec.dp > 0 {
        let n = POWTAB.get(dec.dp as usize).copied().unwrap_or(27);
        dec.shift(-n);
        exp += n;
    }
    while dec.dp < 0 || (dec.dp == 0 && dec.d[0] < 5) {
        let n = POWTAB.get((-dec.dp) as usize).copied().unwrap_or(27);
        dec.shift(n);
        exp -= n;
    }
    // Now 1/2 ≤ value < 1: value = m × 2^exp with m in [1, 2).
    exp -= 1;
    if exp < BIAS + 1 {
        // Subnormal: fewer bits of mantissa.
        let n = BIAS + 1 - exp;
        dec.shift(-n);
        exp += n;
    }
    if exp - BIAS >= 0x7ff {
        return INF;
    }
    dec.shift(MANT_BITS + 1);
    let mut mant = dec.rounded_integer();
    if mant == 2 << MANT_BITS {
        // Rounding carried into a new bit.
        mant >>= 1;
        exp += 1;
        if exp - BIAS >= 0x7ff {
            return INF;
        }
    }
    if mant & (1 << MANT_BITS) == 0 {
        exp = BIAS;
    }
    (mant & ((1 << MANT_BITS) - 1)) | (((exp - BIAS) as u64 & 0x7ff) << MANT_BITS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same(s: &str) {
        let want: Option<f64> = s.parse().ok();
        let got = parse_f64(s);
        assert_eq!(
            got.map(f64::to_bits),
            want.map(f64::to_bits),
            "{s}: got {got:?}, std {want:?}"
        );
    }

    #[test]
    fn edge_cases_match_std() {
        for s in [
            "0",
            "-0",
            "+0.0e10",
            "1",
            "1.5",
            ".5",
            "5.",
            "-.5e-3",
            "1e3",
            "1E+3",
            "0.1",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "9007199254740993",
            "9007199254740995",
            "9007199254740993.0000000000000000000000000000001",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-400",
            "0.000000000000000000000000000000000000000001",
            "000123.4560000",
            "1e99999999999",
            "1e-99999999999",
            "",
            ".",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            "+-1",
            "1e5e5",
            "--1",
        ] {
            same(s);
        }
        // The halfway point between 1 and the next double, with digits past the
        // 800 kept: only the last one decides.
        let half = format!(
            "1.00000000000000011102230246251565404236316680908203125{}",
            "0".repeat(900)
        );
        same(&half);
        same(&format!("{half}1"));
        // Halfway between the two smallest subnormals, 767 significant digits.
        let tiny = "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324";
        same(tiny);
        same(&format!("{}1e-324", &tiny[..tiny.len() - 5]));
    }

    proptest! {
        #[test]
        fn matches_std(
            sign in prop::sample::select(vec!["", "-", "+"]),
            int in "[0-9]{0,25}",
            frac in prop::option::of("[0-9]{0,25}"),
            exp in prop::option::of(-400i32..400),
        ) {
            let mut s = format!("{sign}{int}");
            if let Some(f) = &frac {
                s.push('.');
                s.push_str(f);
            }
            if let Some(e) = exp {
                s.push_str(&format!("e{e}"));
            }
            same(&s);
        }

        #[test]
        fn matches_std_near_doubles(bits in any::<u64>(), extra in "[0-9]{0,30}") {
            // A double's exact or shortest digits, and the same with digits added.
            let f = f64::from_bits(bits & !(1 << 63));
            prop_assume!(f.is_finite());
            let shortest = format!("{f:e}");
            same(&shortest);
            let (m, e) = shortest.split_once('e').unwrap();
            let m = if m.contains('.') { m.to_string() } else { format!("{m}.") };
            same(&format!("{m}{extra}e{e}"));
            let exact = format!("{f:.1100e}");
            same(&exact);
        }
    }
}
