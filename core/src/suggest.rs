//! "Did you mean" suggestions: the known name closest to a misspelt one, by edit
//! distance, for messages about unknown fields, effects, operators and settings.
//!
//! The distance is the optimal string alignment distance (Levenshtein plus the swap of
//! two neighbours at cost 1), counted in characters and ignoring ASCII letter case.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Names longer than this (in characters) are never compared: the table would grow
/// quadratically and such names are not typos of short keywords.
const MAX_CHARS: usize = 64;

/// The optimal string alignment distance between `a` and `b` in characters
/// (`usize::MAX` when either is longer than 64 characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    distance(a, b, false)
}

/// [`edit_distance`], with ASCII letters compared without case when `fold` is set.
fn distance(a: &str, b: &str, fold: bool) -> usize {
    let chars = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| if fold { c.to_ascii_lowercase() } else { c })
            .collect()
    };
    let (a, b) = (chars(a), chars(b));
    if a.len() > MAX_CHARS || b.len() > MAX_CHARS {
        return usize::MAX;
    }
    // One row per character of `a`; the two rows above are kept for the swap.
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The known name closest to `name`, when it is close enough to be a likely typo: a
/// name equal but for letter case first, then the nearest within 1 edit (names of up to
/// 3 characters), 2 (up to 8) or 3 (longer); the first of equally near names wins.
pub fn suggest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(name)) {
        return Some(k);
    }
    let limit = match name.chars().count() {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &'a str)> = None;
    for k in known {
        let d = distance(name, k, true);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// `did you mean "<name>"?` for the [`suggest`]ion, if any.
pub fn did_you_mean(name: &str, known: &[&str]) -> Option<String> {
    suggest(name, known).map(|k| format!("did you mean \"{k}\"?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("efect", "effect"), 1);
        assert_eq!(edit_distance("tolerationSecond", "tolerationSeconds"), 1);
        assert_eq!(edit_distance("opreator", "operator"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
        let long = "a".repeat(65);
        assert_eq!(edit_distance(&long, "a"), usize::MAX);
    }

    #[test]
    fn suggestions() {
        let known = ["key", "operator", "value", "effect", "tolerationSeconds"];
        assert_eq!(suggest("efect", &known), Some("effect"));
        assert_eq!(suggest("Effect", &known), Some("effect"));
        assert_eq!(suggest("KEY", &known), Some("key"));
        assert_eq!(
            suggest("tolerationSecond", &known),
            Some("tolerationSeconds")
        );
        assert_eq!(suggest("colour", &known), None);
        // Short names allow one edit only.
        assert_eq!(suggest("kez", &known), Some("key"));
        assert_eq!(suggest("kzz", &known), None);
        assert_eq!(suggest("anything", &[]), None);
        assert_eq!(
            did_you_mean("NoSchedul", &["NoSchedule", "NoExecute"]).as_deref(),
            Some("did you mean \"NoSchedule\"?")
        );
        assert_eq!(did_you_mean("x", &["NoSchedule"]), None);
    }
}
