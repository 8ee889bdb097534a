//! One stable sort for every caller, to keep the wasm modules small.
//!
//! `slice::sort_by` and friends are generic over the element and the comparator, so each
//! call site gets its own copy of the standard library's driftsort (about 3.5 KB of wasm
//! with its quicksort, small-sort and merge helpers). The npm engine module held 17 such
//! copies, about 60 KB before gzip. Here the sort itself runs once, non-generically, over
//! `u32` positions with a `&dyn` comparator ([`order`]), and the result is applied by
//! swapping ([`permute`], also non-generic); what remains per element type is a few dozen
//! bytes of glue. It is stable, like `sort_by`, and compares the same pairs' keys, so it
//! gives the same order as the standard sorts it replaces; callers that used
//! `sort_unstable` did so on elements whose equal keys are indistinguishable (strings,
//! numbers), where a stable order is one of the orders `sort_unstable` may give.
//!
//! Hot paths with large inputs (the what-if simulation) keep the standard sorts.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::cmp::Ordering;

/// The stable order of `0..len` under `cmp`: position `k` of the result holds the index of
/// the element that belongs at `k`. Non-generic, so a module holds one copy.
///
/// A bottom-up merge sort written out here rather than `slice::sort_by`, whose driftsort
/// (run detection, quicksort fallback, small-sort networks) is about 4 KB of wasm for
/// this one instance; the sorts here are of a few hundred elements at most. Any stable
/// sort gives the same order for the same total order, so the result is `sort_by`'s.
pub fn order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..len as u32).collect();
    let mut buf: Vec<u32> = idx.clone();
    let mut width = 1;
    while width < len {
        let mut start = 0;
        while start < len {
            let mid = len.min(start + width);
            let end = len.min(start + 2 * width);
            let (mut l, mut r) = (start, mid);
            for slot in &mut buf[start..end] {
                // The left run wins ties: that keeps equal elements in input order.
                let take_left = r >= end
                    || (l < mid && cmp(idx[l] as usize, idx[r] as usize) != Ordering::Greater);
                if take_left {
                    *slot = idx[l];
                    l += 1;
                } else {
                    *slot = idx[r];
                    r += 1;
                }
            }
            start = end;
        }
        core::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    idx
}

/// Moves elements so that position `k` receives the element at `order[k]`, by following
/// the permutation's cycles with `swap`. `order` is consumed (used as the visited marks).
pub fn permute(order: &mut [u32], swap: &mut dyn FnMut(usize, usize)) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at] as usize;
            order[at] = at as u32;
            if from == start || from == at {
                break;
            }
            swap(at, from);
            at = from;
        }
    }
}

/// `slice.sort_by(cmp)`, stable, sharing one copy of the sort with every caller.
pub fn sort_by<T>(slice: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if slice.len() < 2 {
        return;
    }
    let mut positions = order(slice.len(), &|a, b| cmp(&slice[a], &slice[b]));
    permute(&mut positions, &mut |a, b| slice.swap(a, b));
}

/// `slice.sort_by_key(key)`, stable, sharing one copy of the sort with every caller.
pub fn sort_by_key<T, K: Ord>(slice: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(slice, |a, b| key(a).cmp(&key(b)));
}

/// `slice.sort()`, stable, sharing one copy of the sort with every caller.
pub fn sort<T: Ord>(slice: &mut [T]) {
    sort_by(slice, T::cmp);
}

/// `pairs.collect::<BTreeMap<_, _>>()` without a sort: `collect` sorts the pairs first
/// (another copy of the sort per key and value type), inserting one by one does not.
/// As with `collect`, the last value given for a key wins.
pub fn map_from<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(pairs);
    map
}

/// `items.collect::<BTreeSet<_>>()` without a sort, for the same reason as [`map_from`].
pub fn set_from<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// Adds `name` to a sorted list without repeats, in order; `false` if it was there. A
/// sorted list of strings stands in for a `BTreeSet<String>` where a set holds a few
/// names, so the modules need not hold that set type's B-tree code.
pub fn insert_name(set: &mut Vec<alloc::string::String>, name: alloc::string::String) -> bool {
    match set.binary_search(&name) {
        Ok(_) => false,
        Err(at) => {
            set.insert(at, name);
            true
        }
    }
}

/// The names sorted (byte order) without repeats: `collect::<BTreeSet<String>>()` as a
/// list (see [`insert_name`]).
pub fn names_from(
    names: impl IntoIterator<Item = alloc::string::String>,
) -> Vec<alloc::string::String> {
    let mut v: Vec<alloc::string::String> = names.into_iter().collect();
    sort(&mut v);
    v.dedup();
    v
}

/// One string standing for the pair `(a, b)` (the length of `a`, `:`, `a`, `b`: two pairs
/// give the same string only when they are equal), so that a set of pairs can be a
/// sorted list of strings ([`insert_name`]) rather than a `BTreeSet` of its
/// own tuple type, which brings its own copy of the B-tree's code (2 to 4 KB each).
pub fn pair_key(a: &str, b: &str) -> alloc::string::String {
    alloc::format!("{}:{a}{b}", a.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;
    use proptest::prelude::*;

    #[test]
    fn stable_on_equal_keys() {
        let mut v = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, [(0, 'e'), (1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
    }

    #[test]
    fn strings_and_short_slices() {
        let mut v: Vec<String> = ["b", "a", "c", "a"].map(String::from).to_vec();
        sort(&mut v);
        assert_eq!(v, ["a", "a", "b", "c"]);
        let mut one = [5];
        sort(&mut one);
        assert_eq!(one, [5]);
        let mut none: [u8; 0] = [];
        sort(&mut none);
    }

    #[test]
    fn maps_keep_the_last_value_like_collect() {
        let pairs = [(2, 'a'), (1, 'b'), (2, 'c')];
        assert_eq!(
            map_from(pairs),
            pairs.into_iter().collect::<BTreeMap<_, _>>()
        );
        assert_eq!(map_from(pairs).get(&2), Some(&'c'));
        let items = [3, 1, 3, 2];
        assert_eq!(set_from(items), items.into_iter().collect::<BTreeSet<_>>());
    }

    #[test]
    fn pair_keys_differ_when_pairs_do() {
        assert_ne!(pair_key("ab", "c"), pair_key("a", "bc"));
        assert_ne!(pair_key("1:", ""), pair_key("", "2:1:"));
        assert_eq!(pair_key("NoSchedule", "k"), pair_key("NoSchedule", "k"));
    }

    proptest! {
        /// The same result as the standard stable sort, equal keys in their input order.
        #[test]
        fn equals_std_stable_sort(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = v.clone();
            sort_by_key(&mut ours, |p| p.0);
            let mut std = v;
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }

        /// `sort_by` with a reversed comparator, checked against the standard one.
        #[test]
        fn equals_std_sort_by(v in proptest::collection::vec(any::<i32>(), 0..300)) {
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| b.cmp(a));
            let mut std = v;
            std.sort_by(|a, b| b.cmp(a));
            prop_assert_eq!(ours, std);
        }
    }
}
