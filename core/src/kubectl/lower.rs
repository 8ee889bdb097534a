//! Go's `strings.ToLower` (src/strings/strings.go ToLower, src/unicode/letter.go
//! ToLower): each rune through its simple lowercase mapping, one rune to one rune (`İ`
//! to `i`), with no final sigma and no other context rule, unlike `str::to_lowercase`.
//!
//! The mapping is a table of runs written out here instead of `char::to_lowercase`,
//! whose table of 1,400 pairs costs about 4 KB of every gzipped wasm module; the test
//! checks every `char` against `char::to_lowercase` and prints the table to paste when
//! the Unicode version of the toolchain changes it.

use alloc::string::String;

/// Runs of uppercase code points: `count` of them from `start`, `stride` apart, each
/// lowercased by adding `delta`.
const RUNS: [(u32, u8, u8, i32); RUN_COUNT] = [
    (0x00041, 26, 1, 32),
    (0x000c0, 23, 1, 32),
    (0x000d8, 7, 1, 32),
    (0x00100, 24, 2, 1),
    (0x00132, 3, 2, 1),
    (0x00139, 8, 2, 1),
    (0x0014a, 23, 2, 1),
    (0x00178, 1, 1, -121),
    (0x00179, 3, 2, 1),
    (0x00181, 1, 1, 210),
    (0x00182, 2, 2, 1),
    (0x00186, 1, 1, 206),
    (0x00187, 1, 1, 1),
    (0x00189, 2, 1, 205),
    (0x0018b, 1, 1, 1),
    (0x0018e, 1, 1, 79),
    (0x0018f, 1, 1, 202),
    (0x00190, 1, 1, 203),
    (0x00191, 1, 1, 1),
    (0x00193, 1, 1, 205),
    (0x00194, 1, 1, 207),
    (0x00196, 1, 1, 211),
    (0x00197, 1, 1, 209),
    (0x00198, 1, 1, 1),
    (0x0019c, 1, 1, 211),
    (0x0019d, 1, 1, 213),
    (0x0019f, 1, 1, 214),
    (0x001a0, 3, 2, 1),
    (0x001a6, 1, 1, 218),
    (0x001a7, 1, 1, 1),
    (0x001a9, 1, 1, 218),
    (0x001ac, 1, 1, 1),
    (0x001ae, 1, 1, 218),
    (0x001af, 1, 1, 1),
    (0x001b1, 2, 1, 217),
    (0x001b3, 2, 2, 1),
    (0x001b7, 1, 1, 219),
    (0x001b8, 1, 1, 1),
    (0x001bc, 1, 1, 1),
    (0x001c4, 1, 1, 2),
    (0x001c5, 1, 1, 1),
    (0x001c7, 1, 1, 2),
    (0x001c8, 1, 1, 1),
    (0x001ca, 1, 1, 2),
    (0x001cb, 9, 2, 1),
    (0x001de, 9, 2, 1),
    (0x001f1, 1, 1, 2),
    (0x001f2, 2, 2, 1),
    (0x001f6, 1, 1, -97),
    (0x001f7, 1, 1, -56),
    (0x001f8, 20, 2, 1),
    (0x00220, 1, 1, -130),
    (0x00222, 9, 2, 1),
    (0x0023a, 1, 1, 10795),
    (0x0023b, 1, 1, 1),
    (0x0023d, 1, 1, -163),
    (0x0023e, 1, 1, 10792),
    (0x00241, 1, 1, 1),
    (0x00243, 1, 1, -195),
    (0x00244, 1, 1, 69),
    (0x00245, 1, 1, 71),
    (0x00246, 5, 2, 1),
    (0x00370, 2, 2, 1),
    (0x00376, 1, 1, 1),
    (0x0037f, 1, 1, 116),
    (0x00386, 1, 1, 38),
    (0x00388, 3, 1, 37),
    (0x0038c, 1, 1, 64),
    (0x0038e, 2, 1, 63),
    (0x00391, 17, 1, 32),
    (0x003a3, 9, 1, 32),
    (0x003cf, 1, 1, 8),
    (0x003d8, 12, 2, 1),
    (0x003f4, 1, 1, -60),
    (0x003f7, 1, 1, 1),
    (0x003f9, 1, 1, -7),
    (0x003fa, 1, 1, 1),
    (0x003fd, 3, 1, -130),
    (0x00400, 16, 1, 80),
    (0x00410, 32, 1, 32),
    (0x00460, 17, 2, 1),
    (0x0048a, 27, 2, 1),
    (0x004c0, 1, 1, 15),
    (0x004c1, 7, 2, 1),
    (0x004d0, 48, 2, 1),
    (0x00531, 38, 1, 48),
    (0x010a0, 38, 1, 7264),
    (0x010c7, 1, 1, 7264),
    (0x010cd, 1, 1, 7264),
    (0x013a0, 80, 1, 38864),
    (0x013f0, 6, 1, 8),
    (0x01c89, 1, 1, 1),
    (0x01c90, 43, 1, -3008),
    (0x01cbd, 3, 1, -3008),
    (0x01e00, 75, 2, 1),
    (0x01e9e, 1, 1, -7615),
    (0x01ea0, 48, 2, 1),
    (0x01f08, 8, 1, -8),
    (0x01f18, 6, 1, -8),
    (0x01f28, 8, 1, -8),
    (0x01f38, 8, 1, -8),
    (0x01f48, 6, 1, -8),
    (0x01f59, 4, 2, -8),
    (0x01f68, 8, 1, -8),
    (0x01f88, 8, 1, -8),
    (0x01f98, 8, 1, -8),
    (0x01fa8, 8, 1, -8),
    (0x01fb8, 2, 1, -8),
    (0x01fba, 2, 1, -74),
    (0x01fbc, 1, 1, -9),
    (0x01fc8, 4, 1, -86),
    (0x01fcc, 1, 1, -9),
    (0x01fd8, 2, 1, -8),
    (0x01fda, 2, 1, -100),
    (0x01fe8, 2, 1, -8),
    (0x01fea, 2, 1, -112),
    (0x01fec, 1, 1, -7),
    (0x01ff8, 2, 1, -128),
    (0x01ffa, 2, 1, -126),
    (0x01ffc, 1, 1, -9),
    (0x02126, 1, 1, -7517),
    (0x0212a, 1, 1, -8383),
    (0x0212b, 1, 1, -8262),
    (0x02132, 1, 1, 28),
    (0x02160, 16, 1, 16),
    (0x02183, 1, 1, 1),
    (0x024b6, 26, 1, 26),
    (0x02c00, 48, 1, 48),
    (0x02c60, 1, 1, 1),
    (0x02c62, 1, 1, -10743),
    (0x02c63, 1, 1, -3814),
    (0x02c64, 1, 1, -10727),
    (0x02c67, 3, 2, 1),
    (0x02c6d, 1, 1, -10780),
    (0x02c6e, 1, 1, -10749),
    (0x02c6f, 1, 1, -10783),
    (0x02c70, 1, 1, -10782),
    (0x02c72, 1, 1, 1),
    (0x02c75, 1, 1, 1),
    (0x02c7e, 2, 1, -10815),
    (0x02c80, 50, 2, 1),
    (0x02ceb, 2, 2, 1),
    (0x02cf2, 1, 1, 1),
    (0x0a640, 23, 2, 1),
    (0x0a680, 14, 2, 1),
    (0x0a722, 7, 2, 1),
    (0x0a732, 31, 2, 1),
    (0x0a779, 2, 2, 1),
    (0x0a77d, 1, 1, -35332),
    (0x0a77e, 5, 2, 1),
    (0x0a78b, 1, 1, 1),
    (0x0a78d, 1, 1, -42280),
    (0x0a790, 2, 2, 1),
    (0x0a796, 10, 2, 1),
    (0x0a7aa, 1, 1, -42308),
    (0x0a7ab, 1, 1, -42319),
    (0x0a7ac, 1, 1, -42315),
    (0x0a7ad, 1, 1, -42305),
    (0x0a7ae, 1, 1, -42308),
    (0x0a7b0, 1, 1, -42258),
    (0x0a7b1, 1, 1, -42282),
    (0x0a7b2, 1, 1, -42261),
    (0x0a7b3, 1, 1, 928),
    (0x0a7b4, 8, 2, 1),
    (0x0a7c4, 1, 1, -48),
    (0x0a7c5, 1, 1, -42307),
    (0x0a7c6, 1, 1, -35384),
    (0x0a7c7, 2, 2, 1),
    (0x0a7cb, 1, 1, -42343),
    (0x0a7cc, 8, 2, 1),
    (0x0a7dc, 1, 1, -42561),
    (0x0a7f5, 1, 1, 1),
    (0x0ff21, 26, 1, 32),
    (0x10400, 40, 1, 40),
    (0x104b0, 36, 1, 40),
    (0x10570, 11, 1, 39),
    (0x1057c, 15, 1, 39),
    (0x1058c, 7, 1, 39),
    (0x10594, 2, 1, 39),
    (0x10c80, 51, 1, 64),
    (0x10d50, 22, 1, 32),
    (0x118a0, 32, 1, 32),
    (0x16e40, 32, 1, 32),
    (0x16ea0, 25, 1, 27),
    (0x1e900, 34, 1, 34),
];
const RUN_COUNT: usize = 185;

/// The simple lowercase mapping of one rune.
fn lower(c: char) -> char {
    let u = u32::from(c);
    if u < 0x80 {
        return c.to_ascii_lowercase();
    }
    if u == 0x130 {
        return 'i';
    }
    let i = RUNS.partition_point(|r| r.0 <= u);
    let Some(&(start, count, stride, delta)) = i.checked_sub(1).and_then(|i| RUNS.get(i)) else {
        return c;
    };
    let off = u - start;
    let stride = u32::from(stride);
    if off % stride == 0 && off / stride < u32::from(count) {
        char::from_u32(u.wrapping_add_signed(delta)).unwrap_or(c)
    } else {
        c
    }
}

/// Go's `strings.ToLower` of `s`.
pub(crate) fn go_to_lower(s: &str) -> String {
    s.chars().map(lower).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn every_char_maps_as_char_to_lowercase() {
        // The runs as the table above should hold them (stride 1 or 2, longest first).
        let mut pairs: Vec<(u32, i32)> = Vec::new();
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let mut it = c.to_lowercase();
            let m = it.next().unwrap();
            if c != '\u{130}' {
                assert!(it.next().is_none(), "{c:?} lowercases to several chars");
            }
            if m != c && c != '\u{130}' {
                pairs.push((u32::from(c), u32::from(m) as i32 - u32::from(c) as i32));
            }
        }
        let mut runs = Vec::new();
        let mut i = 0;
        while i < pairs.len() {
            let (s, d) = pairs[i];
            let mut best = (1u32, 1usize);
            for stride in [1u32, 2] {
                let mut n = 1;
                while i + n < pairs.len()
                    && pairs[i + n].0 == s + stride * n as u32
                    && pairs[i + n].1 == d
                {
                    n += 1;
                }
                if n > best.1 {
                    best = (stride, n);
                }
            }
            runs.push((s, best.1 as u8, best.0 as u8, d));
            i += best.1;
        }
        let table: String = runs
            .iter()
            .map(|r| format!("    ({:#07x}, {}, {}, {}),\n", r.0, r.1, r.2, r.3))
            .collect();
        assert!(
            runs[..] == RUNS[..],
            "the Unicode tables changed; the runs are now:\n{table}"
        );
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let want = if c == '\u{130}' {
                'i'
            } else {
                c.to_lowercase().next().unwrap()
            };
            assert_eq!(lower(c), want, "{c:?}");
        }
        assert_eq!(go_to_lower("NODES"), "nodes");
        assert_eq!(go_to_lower("ΣΑΣ"), "σασ");
        assert_eq!(go_to_lower("İ"), "i");
    }
}
