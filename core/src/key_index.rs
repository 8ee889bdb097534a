//! Hash → slot index for in-memory lookups (the eviction simulator's pod and node names,
//! the scheduler's grouping of nodes and pods into classes, the scenario's node classes).
//!
//! Written out here (keys are never removed, so it is a few lines) rather than a
//! `BTreeMap<u64, _>` or a hash map: `core` has no hash map, and each B-tree map type
//! brings its own copy of the B-tree code into the wasm modules. The key test is a
//! `&dyn Fn` so that every caller shares one copy of the probing loop.

use alloc::vec::Vec;

/// Key → slot index: a hash table of `(hash, slot)` pairs with linear probing. Keys live
/// in the caller's slots and are compared only when their hashes are equal, so lookups
/// compare integers instead of keys, and keys that share a hash simply take the next free
/// places.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyIndex {
    /// `(hash, slot + 1)`, `(_, 0)` when free; a power of two long, at most half full.
    table: Vec<(u64, usize)>,
    len: usize,
}

impl KeyIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// The slot of a key with this hash for which `is_key` holds.
    pub fn find(&self, hash: u64, is_key: &dyn Fn(usize) -> bool) -> Option<usize> {
        let mask = self.table.len().checked_sub(1)?;
        let mut at = Self::start(hash, self.table.len());
        loop {
            let &(h, slot) = self.table.get(at)?;
            if slot == 0 {
                return None;
            }
            if h == hash && is_key(slot - 1) {
                return Some(slot - 1);
            }
            at = (at + 1) & mask;
        }
    }

    /// The slot of a key with this hash for which `is_key` holds, or `next` recorded as
    /// the slot of a new key (the caller then fills slot `next`).
    pub fn find_or_insert(
        &mut self,
        hash: u64,
        next: usize,
        is_key: &dyn Fn(usize) -> bool,
    ) -> usize {
        if let Some(found) = self.find(hash, is_key) {
            return found;
        }
        self.insert(hash, next);
        next
    }

    /// Records a new key (not yet indexed) at `slot`.
    pub fn insert(&mut self, hash: u64, slot: usize) {
        if (self.len + 1) * 2 > self.table.len() {
            let size = (self.table.len() * 2).max(16);
            let old = core::mem::replace(&mut self.table, alloc::vec![(0, 0); size]);
            for (h, s) in old {
                if s != 0 {
                    Self::place(&mut self.table, h, s);
                }
            }
        }
        Self::place(&mut self.table, hash, slot + 1);
        self.len += 1;
    }

    /// Where probing for a hash starts in a table of `len` places (a power of two): the
    /// top bits of the hash times 2^64 / φ. Callers hash with FxHash-style mixing, whose
    /// last step is a multiplication, so its low bits depend only on the low bits of the
    /// last word hashed; masking them off directly would send keys that differ only in
    /// earlier words to the same places.
    fn start(hash: u64, len: usize) -> usize {
        let bits = len.trailing_zeros();
        // Tables hold at least 16 places, so the shift is below 64.
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Puts an entry in the first free place from its hash on (the table has one).
    fn place(table: &mut [(u64, usize)], hash: u64, entry: usize) {
        let mask = table.len() - 1;
        let mut at = Self::start(hash, table.len());
        while table[at].1 != 0 {
            at = (at + 1) & mask;
        }
        table[at] = (hash, entry);
    }

    /// Length of the table (for tests of its growth).
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.table.len()
    }
}
