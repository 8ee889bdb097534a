//! A map from names to values kept as a list sorted by name: the stand-in for a Go
//! `map[string]X` (and a `BTreeMap<String, V>`) where a map holds a handful of entries,
//! such as a resource list (`core/v1.ResourceList`), the scheduler's scalar resources or
//! a FitError's reason counts.
//!
//! Why a sorted list rather than the map: `BTreeMap`'s B-tree code would be in the wasm
//! modules once per value type it holds, for maps of a few entries each. Hand-written for
//! that byte budget; the property test below checks it against the map.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Name → value, kept sorted by name, with the `BTreeMap<String, V>` methods callers use.
///
/// What it promises, as the map does:
/// * iteration (`iter`, `keys`, `values`, `into_iter`) in name order (byte order);
/// * one entry per name: the last value inserted, collected or extended for a name wins;
/// * equality, ordering and hashing over the pairs in that order;
/// * `Debug` prints `{"name": value, …}`, and with `serde` it is a JSON object both ways
///   (a duplicate key read from JSON: the last one wins).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameMap<V>(Vec<(String, V)>);

impl<V> NameMap<V> {
    /// An empty map.
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    /// Whether no name is present.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.position(name).ok().map(|i| &self.0[i].1)
    }

    /// Whether `name` is present.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }

    /// The pairs in name order.
    pub fn iter(&self) -> Iter<'_, V> {
        Iter(self.0.iter())
    }

    /// The names in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values in name order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    /// The names in order, taking the map.
    pub fn into_keys(self) -> impl Iterator<Item = String> {
        self.0.into_iter().map(|(k, _)| k)
    }

    /// Sets `name` to `value`, returning the previous value.
    pub fn insert(&mut self, name: String, value: V) -> Option<V> {
        match self.position(&name) {
            Ok(i) => Some(core::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (name, value));
                None
            }
        }
    }

    /// The value of `name`, inserted as `default` when absent, for updating in place
    /// (the map's `entry(name).or_insert(default)`).
    pub fn get_or_insert(&mut self, name: &str, default: V) -> &mut V {
        let i = match self.position(name) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (String::from(name), default));
                i
            }
        };
        &mut self.0[i].1
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(name))
    }
}

/// Empty, whatever `V` is (a derived `Default` would ask `V: Default`).
impl<V> Default for NameMap<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: core::fmt::Debug> core::fmt::Debug for NameMap<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// `map["cpu"]`, as on the `BTreeMap`: panics when the name is absent.
impl<V> core::ops::Index<&str> for NameMap<V> {
    type Output = V;

    fn index(&self, name: &str) -> &V {
        self.get(name).expect("no entry found for key")
    }
}

/// The pairs of a [`NameMap`] in name order, borrowed.
#[derive(Clone, Debug)]
pub struct Iter<'a, V>(core::slice::Iter<'a, (String, V)>);

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a String, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<'a, V> IntoIterator for &'a NameMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<V> IntoIterator for NameMap<V> {
    type Item = (String, V);
    type IntoIter = alloc::vec::IntoIter<(String, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// As with the map's `collect`, the last value given for a name wins.
impl<V> FromIterator<(String, V)> for NameMap<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(pairs: I) -> Self {
        let mut map = Self::new();
        map.extend(pairs);
        map
    }
}

impl<V> Extend<(String, V)> for NameMap<V> {
    fn extend<I: IntoIterator<Item = (String, V)>>(&mut self, pairs: I) {
        for (k, v) in pairs {
            self.insert(k, v);
        }
    }
}

/// The map's pairs, already in name order and one per name.
impl<V> From<BTreeMap<String, V>> for NameMap<V> {
    fn from(map: BTreeMap<String, V>) -> Self {
        Self(map.into_iter().collect())
    }
}

/// Serialized as the `BTreeMap` is: a map (a JSON object) in name order.
#[cfg(feature = "serde")]
impl<V: serde::Serialize> serde::Serialize for NameMap<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self)
    }
}

/// Read as a `BTreeMap<String, V>` is, then kept as its pairs.
#[cfg(feature = "serde")]
impl<'de, V: serde::Deserialize<'de>> serde::Deserialize<'de> for NameMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The sorted list behaves as the `BTreeMap<String, V>` it stands in for: the same
        /// pairs in the same order, the same lookups and updates, equality, ordering,
        /// `Debug` text and JSON both ways.
        #[test]
        fn name_map_behaves_as_a_btree_map(
            a in proptest::collection::vec(("[a-d]{1,2}", -5i64..5), 0..12),
            b in proptest::collection::vec(("[a-d]{1,2}", -5i64..5), 0..12),
        ) {
            let build = |pairs: &[(String, i64)]| {
                let mut ours = NameMap::new();
                let mut map = BTreeMap::new();
                for (k, v) in pairs {
                    prop_assert_eq!(ours.insert(k.clone(), *v), map.insert(k.clone(), *v));
                    let (o, m) = (ours.get_or_insert("b", *v), map.entry(String::from("b")).or_insert(*v));
                    prop_assert_eq!(*o, *m);
                    *o += v;
                    *m += v;
                }
                Ok((ours, map))
            };
            let (na, ma) = build(&a)?;
            let (nb, mb) = build(&b)?;
            prop_assert!(na.iter().eq(ma.iter()));
            prop_assert!((&na).into_iter().eq(&ma));
            prop_assert!(na.keys().eq(ma.keys()));
            prop_assert!(na.values().eq(ma.values()));
            prop_assert!(na.clone().into_keys().eq(ma.clone().into_keys()));
            prop_assert_eq!(na.len(), ma.len());
            prop_assert_eq!(na.is_empty(), ma.is_empty());
            for key in ["a", "b", "cd", "e"] {
                prop_assert_eq!(na.get(key), ma.get(key));
                prop_assert_eq!(na.contains_key(key), ma.contains_key(key));
                if let Some(v) = ma.get(key) {
                    prop_assert_eq!(&na[key], v);
                }
            }
            prop_assert_eq!(na == nb, ma == mb);
            prop_assert_eq!(na.cmp(&nb), ma.cmp(&mb));
            prop_assert_eq!(alloc::format!("{na:?}"), alloc::format!("{ma:?}"));
            prop_assert_eq!(NameMap::from(ma.clone()), na.clone());

            let collected: NameMap<i64> = a.iter().cloned().collect();
            let collected_map: BTreeMap<String, i64> = a.iter().cloned().collect();
            prop_assert!(collected.clone().into_iter().eq(collected_map.clone()));
            let mut extended = na.clone();
            let mut extended_map = ma.clone();
            extended.extend(b.iter().cloned());
            extended_map.extend(b.iter().cloned());
            prop_assert!(extended.iter().eq(extended_map.iter()));

            let json = serde_json::to_string(&collected_map).unwrap_or_default();
            prop_assert_eq!(serde_json::to_string(&collected).ok(), Some(json.clone()));
            let back: NameMap<i64> = serde_json::from_str(&json).unwrap_or_default();
            prop_assert_eq!(back, collected);
        }
    }

    #[test]
    fn the_last_duplicate_json_key_wins_as_in_the_map() {
        let json = r#"{"b": 1, "a": 2, "b": 3}"#;
        let ours: NameMap<i64> = serde_json::from_str(json).unwrap_or_default();
        let map: BTreeMap<String, i64> = serde_json::from_str(json).unwrap_or_default();
        assert!(ours.iter().eq(map.iter()));
        assert_eq!(ours.get("b"), Some(&3));
        assert_eq!(alloc::format!("{ours:?}"), r#"{"a": 2, "b": 3}"#);
    }
}
