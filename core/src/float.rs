//! Decimal text to floating point and back, exactly, without the standard library's
//! float parsing and formatting.
//!
//! * [`parse_f64`]: decimal text to the nearest `f64` (ties to even), as
//!   `str::parse::<f64>` gives it.
//! * [`shortest`]: the shortest decimal digits that read back as the same `f64` or
//!   `f32`, the closest to it when several are as short, ties to even, as Go's
//!   `strconv.FormatFloat(f, _, -1, _)` prints them (Rust's `{:e}` differs only on
//!   exact ties, which it rounds up); [`display`] writes them as Rust's `{}` does.
//!
//! Hand-written because of the byte budget: the standard library's conversions bring
//! their fast paths and tables (a 10 KB table of powers of five for parsing; Grisu and
//! Dragon for printing), about 22 KB of the gzipped npm engine module, for the few floats
//! YAML gives (`1.5`, `.5`, `1e3` as go-yaml resolves them). Everything here is one exact
//! method: the digits are kept as decimal digits and shifted by powers of two. It is
//! slower than the standard library, which does not matter for the lengths Kubernetes
//! objects hold, and gives the same results (property-tested bit for bit and digit for
//! digit against `str::parse` and `{:e}`, ties aside).

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Significant digits kept; a nonzero digit past them is remembered (`trunc`) for the
/// rounding, which is enough for exactness: 800 digits exceed the 767 that a halfway
/// point between two doubles can have.
const MAX_DIGITS: usize = 800;

/// `0.d1d2d3... × 10^dp`, digits as values 0..=9, no leading zero digit.
#[derive(Clone)]
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
pub fn parse_f64(text: &str) -> Option<f64> {
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
    let bits = to_bits(&mut dec, F64);
    let sign = if neg { 1u64 << 63 } else { 0 };
    Some(f64::from_bits(bits | sign))
}

/// An IEEE 754 binary format.
#[derive(Clone, Copy)]
struct Format {
    /// Stored mantissa bits (52, 23).
    mant_bits: i32,
    /// Exponent bits (11, 8).
    exp_bits: i32,
}

const F64: Format = Format {
    mant_bits: 52,
    exp_bits: 11,
};
const F32: Format = Format {
    mant_bits: 23,
    exp_bits: 8,
};

impl Format {
    fn bias(self) -> i32 {
        1 - (1 << (self.exp_bits - 1))
    }
    fn exp_max(self) -> i32 {
        (1 << self.exp_bits) - 1
    }
    fn inf(self) -> u64 {
        (self.exp_max() as u64) << self.mant_bits
    }
}

/// The IEEE 754 bits (without the sign) of the nearest value in `fmt`.
fn to_bits(dec: &mut Decimal, fmt: Format) -> u64 {
    let bias = fmt.bias();
    if dec.d.is_empty() {
        return 0;
    }
    // 10^310 and 10^-330 are out of range whatever the digits.
    if dec.dp > 310 {
        return fmt.inf();
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
    if exp < bias + 1 {
        // Subnormal: fewer bits of mantissa.
        let n = bias + 1 - exp;
        dec.shift(-n);
        exp += n;
    }
    if exp - bias >= fmt.exp_max() {
        return fmt.inf();
    }
    dec.shift(fmt.mant_bits + 1);
    let mut mant = dec.rounded_integer();
    if mant == 2 << fmt.mant_bits {
        // Rounding carried into a new bit.
        mant >>= 1;
        exp += 1;
        if exp - bias >= fmt.exp_max() {
            return fmt.inf();
        }
    }
    if mant & (1 << fmt.mant_bits) == 0 {
        exp = bias;
    }
    (mant & ((1 << fmt.mant_bits) - 1)) | (((exp - bias) as u64) << fmt.mant_bits)
}

impl Decimal {
    /// The exact value of finite, non-negative bits in `fmt`.
    fn of_bits(bits: u64, fmt: Format) -> Decimal {
        let stored = bits & ((1 << fmt.mant_bits) - 1);
        let biased = (bits >> fmt.mant_bits) as i32;
        let (mant, exp) = if biased == 0 {
            (stored, fmt.bias() + 1)
        } else {
            (stored | 1 << fmt.mant_bits, biased + fmt.bias())
        };
        let mut d = Decimal {
            d: Vec::new(),
            dp: 0,
            trunc: false,
        };
        let mut m = mant;
        while m > 0 {
            d.d.push((m % 10) as u8);
            m /= 10;
        }
        d.d.reverse();
        d.dp = d.d.len() as i32;
        d.trim();
        d.shift(exp - fmt.mant_bits);
        d
    }

    /// The first `p` digits, rounded down or up (`up` adds one unit in the last place).
    fn cut(&self, p: usize, up: bool) -> Decimal {
        let mut d = Decimal {
            d: self.d[..p.min(self.d.len())].to_vec(),
            dp: self.dp,
            trunc: false,
        };
        if up {
            d.d.resize(p, 0);
            let mut i = p;
            loop {
                if i == 0 {
                    // All nines: 1 and one more place.
                    d.d.insert(0, 1);
                    d.dp += 1;
                    d.d.truncate(p);
                    break;
                }
                i -= 1;
                if d.d[i] == 9 {
                    d.d[i] = 0;
                } else {
                    d.d[i] += 1;
                    break;
                }
            }
        }
        d.trim();
        d
    }

    /// Whether the digits past `p` are more than half a unit in the last place, or
    /// exactly half and the last kept digit is odd.
    fn rounds_up_at(&self, p: usize) -> bool {
        match self.d.get(p) {
            None => false,
            Some(5) if p + 1 == self.d.len() && !self.trunc => p > 0 && self.d[p - 1] % 2 == 1,
            Some(&digit) => digit >= 5,
        }
    }
}

/// The shortest decimal digits (values 0..=9, no leading or trailing zero) and the
/// decimal point position (`0.d1d2… × 10^dp`) that read back as `f` (as an `f32` when
/// `single`); among several as short, the closest to `f`, ties to even. `f` must be
/// finite and not zero; its sign is ignored.
pub fn shortest(f: f64, single: bool) -> (Vec<u8>, i32) {
    let (fmt, bits) = if single {
        (F32, u64::from((f as f32).to_bits() & 0x7fff_ffff))
    } else {
        (F64, f.to_bits() & !(1 << 63))
    };
    let exact = Decimal::of_bits(bits, fmt);
    let reads_back = |d: &Decimal| to_bits(&mut d.clone(), fmt) == bits;
    for p in 1..exact.d.len() {
        let up = exact.rounds_up_at(p);
        let nearest = exact.cut(p, up);
        if reads_back(&nearest) {
            return (nearest.d, nearest.dp);
        }
        let other = exact.cut(p, !up);
        if reads_back(&other) {
            return (other.d, other.dp);
        }
    }
    (exact.d, exact.dp)
}

/// `f` as Rust's `{}` prints an `f64` (`1.5`, `100`, `0.0000001`, `-0`, `NaN`, `inf`):
/// the shortest digits that read back, in positional notation; an exact tie between
/// two shortest forms takes the even one (see [`shortest`]).
pub fn display(f: f64) -> String {
    if f.is_nan() {
        return String::from("NaN");
    }
    let mut out = String::new();
    if f.is_sign_negative() {
        out.push('-');
    }
    if f.is_infinite() {
        out.push_str("inf");
        return out;
    }
    if f == 0.0 {
        out.push('0');
        return out;
    }
    let (digits, dp) = shortest(f, false);
    positional(&mut out, &digits, dp);
    out
}

/// Digits with the point `dp` places from their start, in positional notation.
pub fn positional(out: &mut String, digits: &[u8], dp: i32) {
    let digit = |d: u8| char::from(b'0' + d);
    if dp <= 0 {
        out.push_str("0.");
        for _ in dp..0 {
            out.push('0');
        }
        out.extend(digits.iter().map(|&d| digit(d)));
    } else {
        let dp = dp as usize;
        for i in 0..dp.max(digits.len()) {
            if i == dp {
                out.push('.');
            }
            out.push(digit(digits.get(i).copied().unwrap_or(0)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use proptest::prelude::*;

    /// Digits and point of Rust's `{:e}` of a positive value.
    fn std_digits(e: &str) -> (Vec<u8>, i32) {
        let (m, x) = e.split_once('e').unwrap();
        let digits = m.bytes().filter(|c| *c != b'.').map(|c| c - b'0').collect();
        (digits, x.parse::<i32>().unwrap() + 1)
    }

    /// Rust's shortest digits with exact ties rounded to even, as Go's strconv
    /// (ryuDigits32: a trimmed 5 with nothing after it rounds up only an odd digit) and
    /// ECMAScript engines do; Rust rounds them up. `exact` is `{:.1100e}` of the value.
    fn go_digits(rust: &str, exact: &str, reads_back: impl Fn(&str) -> bool) -> (Vec<u8>, i32) {
        let (mut digits, dp) = std_digits(rust);
        let (exact_digits, _) = std_digits(exact);
        let significant =
            exact_digits.len() - exact_digits.iter().rev().take_while(|d| **d == 0).count();
        let n = digits.len();
        if significant == n + 1 && exact_digits[n] == 5 && exact_digits[..n] != digits[..] {
            // Rust rounded a tie up: take the other neighbour when it is even.
            let down = &exact_digits[..n];
            let text: String = down.iter().map(|d| char::from(b'0' + d)).collect();
            if down[n - 1] % 2 == 0 && reads_back(&format!("0.{text}e{dp}")) {
                digits = down.to_vec();
            }
        }
        (digits, dp)
    }

    fn same_shortest(f: f64) {
        let want = go_digits(
            &format!("{:e}", f.abs()),
            &format!("{:.1100e}", f.abs()),
            |t| t.parse::<f64>() == Ok(f.abs()),
        );
        assert_eq!(shortest(f, false), want, "{f:e}");
        if want == std_digits(&format!("{:e}", f.abs())) {
            assert_eq!(display(f), format!("{f}"), "{f:e}");
        }
    }

    fn same_shortest32(x: f32) {
        let want = go_digits(
            &format!("{:e}", x.abs()),
            &format!("{:.1100e}", f64::from(x.abs())),
            |t| t.parse::<f32>() == Ok(x.abs()),
        );
        assert_eq!(shortest(f64::from(x), true), want, "{x:e}");
    }

    #[test]
    fn shortest_edge_cases_match_std() {
        for f in [
            1.0,
            0.1,
            0.3,
            1.5,
            -2.5,
            100.0,
            1e21,
            1e-7,
            123_456.789,
            9_007_199_254_740_993.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-323,
            2.225_073_858_507_201e-308,
            0.000_001,
            1e23,
            8.589_973e9,
            5e-310,
        ] {
            same_shortest(f);
        }
        for e in -1074..1024 {
            // Powers of two: the gap below is half the gap above.
            same_shortest(if e >= -1022 {
                f64::from_bits(((e + 1023) as u64) << 52)
            } else {
                f64::from_bits(1 << (e + 1074))
            });
        }
        for x in [
            1.0f32,
            0.1,
            16_777_216.0,
            3.402_823_5e38,
            1e-45,
            1.175_494_4e-38,
            0.3,
            7e-45,
        ] {
            same_shortest32(x);
        }
        for e in -149..128 {
            same_shortest32(if e >= -126 {
                f32::from_bits(((e + 127) as u32) << 23)
            } else {
                f32::from_bits(1 << (e + 149))
            });
        }
        assert_eq!(display(-0.0), "-0");
        assert_eq!(display(0.0), "0");
        assert_eq!(display(f64::NAN), "NaN");
        assert_eq!(display(f64::NEG_INFINITY), "-inf");
    }

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
        fn shortest_matches_std(bits in any::<u64>()) {
            let f = f64::from_bits(bits);
            prop_assume!(f.is_finite() && f != 0.0);
            same_shortest(f);
        }

        #[test]
        fn shortest_f32_matches_std(bits in any::<u32>()) {
            let x = f32::from_bits(bits);
            prop_assume!(x.is_finite() && x != 0.0);
            same_shortest32(x);
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
