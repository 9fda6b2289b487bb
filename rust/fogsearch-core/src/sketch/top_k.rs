//! Top-k tracking over a CountSketch: the paper's "queue of the k most seen" information sets.
//!
//! # What is guaranteed
//!
//! 1. **Current estimates.** Every tracked key's estimate is its current
//!    [`CountSketch::estimate`]: [`TopK::items`] and [`TopK::estimate`] always agree. A tracked
//!    key's estimate moves whenever another key's update changes a counter it shares, so an
//!    update refreshes every tracked key that shares a counter with the updated key (found
//!    through a per-counter index of the tracked keys; about `k * depth / width` of them per
//!    update on average).
//! 2. **Exact admission.** After `update(key, w)`, the tracked keys are the top k, by current
//!    estimate (ties: the smaller key ranks higher), of the keys tracked before and `key`. So a
//!    seen key that is not tracked ranked below all k tracked keys when it was last updated, or
//!    when it was evicted.
//! 3. **Top k of all keys seen, when estimates move only by their own updates and never down**:
//!    with non-negative weights and no counter shared between keys in a way that moves a median
//!    (a wide enough sketch, where estimates are exact counts), the tracked keys are exactly the
//!    top k by current estimate among all keys seen. By induction: an untracked key's estimate is
//!    what it was when it last ranked below all tracked keys, and the lowest tracked rank only
//!    rises.
//!
//! Why not always the top k of every key seen: an untracked key's estimate moves when a key that
//! shares its counters is updated, and a tracked key's can fall below it the same way or by a
//! negative weight. Knowing which untracked key has overtaken would mean remembering every key
//! seen, memory that grows with the stream; TopK keeps O(k * depth) besides the sketch.
//!
//! The tracked keys live in a binary min-heap ordered by rank, with a position map from key to
//! heap slot, so an update moves a key in O(log k) and nothing scans all k entries.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::count_sketch::{check_count_sketch_shape, Cells, CountSketch, MAX_DEPTH};
use super::encoding::{corrupt, Decoder, Encoder};
use super::error::{try_zeroed, Limit, SketchError};
use super::hashing::mix64;

/// At most this many tracked keys.
pub const MAX_TRACKED: u64 = 1 << 22;
/// Memory per tracked key: its heap entry and position-map entry, then one index entry per row.
const TRACKED_BYTES: u64 = 64;
const TRACKED_BYTES_PER_ROW: u64 = 48;
const MAGIC: &[u8; 4] = b"FSTK";

/// Checks the TopK parameters before anything is allocated: `k` between 1 and [`MAX_TRACKED`]
/// (the limit's message gives the memory at this `depth`), and the sketch's shape
/// ([`check_count_sketch_shape`]).
pub fn check_top_k(k: u64, width: u64, depth: u64) -> Result<(), SketchError> {
    check_count_sketch_shape(width, depth)?;
    Limit {
        max: MAX_TRACKED,
        unit: "tracked keys",
        bytes_each: TRACKED_BYTES + TRACKED_BYTES_PER_ROW * depth,
    }
    .check("k", k)
}

/// Hashes an already well-spread `u64` key with one multiply-xorshift (SipHash would dominate the
/// update cost).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix64(self.0 ^ b as u64);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = mix64(key);
    }
    fn write_usize(&mut self, key: usize) {
        self.0 = mix64(key as u64);
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;
type CellMap<V> = HashMap<usize, V, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    estimate: i64,
    key: u64,
}

impl Entry {
    /// Rank order: smaller estimate first; among equals the larger key is "smaller", so that
    /// ties are broken the same way whatever the insertion order.
    fn below(self, other: Entry) -> bool {
        (self.estimate, std::cmp::Reverse(self.key))
            < (other.estimate, std::cmp::Reverse(other.key))
    }
}

/// The tracked entries: a min-heap by rank and each key's heap slot.
#[derive(Clone, Debug, Default)]
struct RankHeap {
    entries: Vec<Entry>,
    position: KeyMap<usize>,
}

impl RankHeap {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn lowest(&self) -> Option<Entry> {
        self.entries.first().copied()
    }

    fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
        let slot = self.entries.len() - 1;
        self.position.insert(entry.key, slot);
        self.sift_up(slot);
    }

    /// Sets a tracked key's estimate and restores the heap order.
    fn set_estimate(&mut self, key: u64, estimate: i64) {
        let slot = self.position[&key];
        let old = self.entries[slot];
        let entry = Entry { estimate, key };
        self.entries[slot] = entry;
        if entry.below(old) {
            self.sift_up(slot);
        } else {
            self.sift_down(slot);
        }
    }

    /// Replaces the lowest-ranked entry with `entry`.
    fn replace_lowest(&mut self, entry: Entry) {
        self.position.remove(&self.entries[0].key);
        self.entries[0] = entry;
        self.position.insert(entry.key, 0);
        self.sift_down(0);
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.position.clear();
    }

    fn is_ordered(&self) -> bool {
        (1..self.entries.len()).all(|i| !self.entries[i].below(self.entries[(i - 1) / 2]))
    }

    fn sift_up(&mut self, mut slot: usize) {
        while slot > 0 {
            let parent = (slot - 1) / 2;
            if !self.entries[slot].below(self.entries[parent]) {
                break;
            }
            self.swap(slot, parent);
            slot = parent;
        }
    }

    fn sift_down(&mut self, mut slot: usize) {
        let n = self.entries.len();
        loop {
            let (left, right) = (2 * slot + 1, 2 * slot + 2);
            let mut smallest = slot;
            if left < n && self.entries[left].below(self.entries[smallest]) {
                smallest = left;
            }
            if right < n && self.entries[right].below(self.entries[smallest]) {
                smallest = right;
            }
            if smallest == slot {
                break;
            }
            self.swap(slot, smallest);
            slot = smallest;
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.entries.swap(a, b);
        self.position.insert(self.entries[a].key, a);
        self.position.insert(self.entries[b].key, b);
    }
}

/// Which tracked keys use each counter: the keys whose estimates an update may move.
#[derive(Clone, Debug)]
struct CellIndex {
    /// Tracked keys per counter, saturating at `u8::MAX` ("ask `keys`"): the common "nobody else
    /// here" answer costs one byte read beside the counter, not a hash-map lookup.
    occupancy: Vec<u8>,
    keys: CellMap<Vec<u64>>,
}

impl CellIndex {
    fn add(&mut self, key: u64, cells: &[usize]) {
        for &cell in cells {
            self.occupancy[cell] = self.occupancy[cell].saturating_add(1);
            self.keys.entry(cell).or_default().push(key);
        }
    }

    fn remove(&mut self, key: u64, cells: &[usize]) {
        for &cell in cells {
            let keys = self.keys.get_mut(&cell).expect("a tracked key is indexed");
            let at = keys.iter().position(|&k| k == key).expect("indexed");
            keys.swap_remove(at);
            let left = keys.len();
            if left == 0 {
                self.keys.remove(&cell);
            }
            self.occupancy[cell] = left.min(u8::MAX as usize) as u8;
        }
    }

    fn clear(&mut self) {
        self.occupancy.fill(0);
        self.keys.clear();
    }
}

/// The k keys with the highest current CountSketch estimates among those kept; see the module
/// documentation for exactly what is guaranteed.
#[derive(Clone, Debug)]
pub struct TopK {
    k: usize,
    sketch: CountSketch,
    tracked: RankHeap,
    index: CellIndex,
    /// Room for one key's counter indices (`depth` of them), reused by every update.
    scratch: Vec<usize>,
}

impl TopK {
    /// Checks the parameters with [`check_top_k`] before allocating.
    pub fn new(k: usize, width: usize, depth: usize, seed: u64) -> Result<Self, SketchError> {
        check_top_k(k as u64, width as u64, depth as u64)?;
        let sketch = CountSketch::new(width, depth, seed)?;
        let occupancy = try_zeroed("TopK counter index", width * depth)?;
        Ok(TopK {
            k,
            sketch,
            tracked: RankHeap::default(),
            index: CellIndex {
                occupancy,
                keys: CellMap::default(),
            },
            scratch: vec![0; depth],
        })
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// The underlying sketch (estimates for keys that are not tracked).
    pub fn sketch(&self) -> &CountSketch {
        &self.sketch
    }

    /// How many keys are tracked (at most k).
    pub fn len(&self) -> usize {
        self.tracked.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tracked.len() == 0
    }

    pub fn contains(&self, key: u64) -> bool {
        self.tracked.position.contains_key(&key)
    }

    /// Adds `weight` to `key` and returns the key's new estimate.
    pub fn update(&mut self, key: u64, weight: i64) -> i64 {
        self.update_with_eviction(key, weight).0
    }

    /// As [`update`](Self::update), also returning the key that left the tracked set to make room
    /// for `key`, if any: callers that keep data per tracked key can drop it then.
    pub fn update_with_eviction(&mut self, key: u64, weight: i64) -> (i64, Option<u64>) {
        self.update_tracking::<false>(key, weight)
    }

    /// The update, with the sketch's counters clamp-free when `RESERVED` (the batch's magnitude
    /// was reserved by [`CountSketch::reserve_batch`]).
    #[inline(always)]
    fn update_tracking<const RESERVED: bool>(
        &mut self,
        key: u64,
        weight: i64,
    ) -> (i64, Option<u64>) {
        // A scratch buffer owned by the TopK: a fresh 64-slot array per update was zeroed each
        // time, a tenth of the update's cost.
        let mut cells = std::mem::take(&mut self.scratch);
        let estimate = if RESERVED {
            self.sketch
                .update_and_estimate_clamp_free(key, weight, &mut cells)
        } else {
            self.sketch.update_and_estimate_at(key, weight, &mut cells)
        };
        let evicted = self.admit(key, estimate, &cells[..self.sketch.depth()]);
        self.scratch = cells;
        (estimate, evicted)
    }

    /// Puts `key` with its new `estimate` among the tracked keys if it is one of the `k`
    /// heaviest (its counters are `cells`), refreshing the tracked keys that share them; returns
    /// the key it pushed out, if any.
    #[inline(always)]
    fn admit(&mut self, key: u64, estimate: i64, cells: &[usize]) -> Option<u64> {
        let is_tracked = self.contains(key);
        self.refresh_sharing(key, is_tracked, cells);
        let entry = Entry { estimate, key };
        if is_tracked {
            self.tracked.set_estimate(key, estimate);
            return None;
        }
        if self.tracked.len() < self.k {
            self.tracked.push(entry);
            self.index.add(key, cells);
            return None;
        }
        match self.tracked.lowest() {
            Some(lowest) if lowest.below(entry) => {
                let mut evicted_cells: Cells = [0; MAX_DEPTH as usize];
                self.sketch.cells_of(lowest.key, &mut evicted_cells);
                self.index
                    .remove(lowest.key, &evicted_cells[..self.sketch.depth()]);
                self.tracked.replace_lowest(entry);
                self.index.add(key, cells);
                Some(lowest.key)
            }
            _ => None,
        }
    }

    /// Re-reads the estimates of the tracked keys (other than `key`) that use one of `cells`,
    /// the counters an update of `key` just changed: no other estimate can have moved.
    fn refresh_sharing(&mut self, key: u64, is_tracked: bool, cells: &[usize]) {
        let own = is_tracked as u8;
        for &cell in cells {
            if self.index.occupancy[cell] <= own {
                continue;
            }
            for &other in &self.index.keys[&cell] {
                if other != key {
                    self.tracked
                        .set_estimate(other, self.sketch.estimate(other));
                }
            }
        }
    }

    /// Adds a batch (one occurrence each when `weights` is `None`).
    pub fn update_many(
        &mut self,
        keys: &[u64],
        weights: Option<&[i64]>,
    ) -> Result<(), SketchError> {
        // As in `CountSketch::update_many`: one check of the counters' bound for the batch.
        let reserved = self.sketch.reserve_batch(keys, weights)?;
        let weight = |i: usize| weights.map_or(1, |weights| weights[i]);
        if reserved {
            for (i, &key) in keys.iter().enumerate() {
                self.update_tracking::<true>(key, weight(i));
            }
        } else {
            for (i, &key) in keys.iter().enumerate() {
                self.update_tracking::<false>(key, weight(i));
            }
        }
        Ok(())
    }

    /// The tracked keys with their current estimates, highest first (ties: smaller key first).
    pub fn items(&self) -> Vec<(u64, i64)> {
        let mut items: Vec<(u64, i64)> = self
            .tracked
            .entries
            .iter()
            .map(|e| (e.key, e.estimate))
            .collect();
        items.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        items
    }

    /// The estimate of any key, tracked or not.
    pub fn estimate(&self, key: u64) -> i64 {
        self.sketch.estimate(key)
    }

    pub fn clear(&mut self) {
        self.sketch.clear();
        self.tracked.clear();
        self.index.clear();
    }

    /// The byte form: k, the tracked `(key, estimate)` pairs in heap order, then the sketch's.
    pub fn to_bytes(&self) -> Vec<u8> {
        let sketch = self.sketch.to_bytes();
        let mut encoder = Encoder::new(MAGIC, 2 + 2 * self.tracked.len() + sketch.len() / 8 + 1);
        encoder.u64(self.k as u64).u64(self.tracked.len() as u64);
        for entry in &self.tracked.entries {
            encoder.u64(entry.key).u64(entry.estimate as u64);
        }
        let mut bytes = encoder.finish();
        bytes.extend_from_slice(&sketch);
        bytes
    }

    /// Decodes [`to_bytes`](Self::to_bytes). The stored estimates must be the sketch's current
    /// ones and the heap in order: anything else (including bytes from a release whose estimates
    /// could go stale) is refused rather than loaded with the guarantees broken.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "TopK")?;
        let k = decoder.u64()?;
        let tracked = decoder.u64()?;
        if k == 0 || k > MAX_TRACKED {
            return Err(corrupt(format!("k = {k} outside [1, {MAX_TRACKED}]")));
        }
        if tracked > k {
            return Err(corrupt(format!("{tracked} tracked keys exceed k = {k}")));
        }
        let words = decoder.u64s(2 * tracked as usize)?;
        let header = 5 + 16 + 16 * tracked as usize;
        let sketch = CountSketch::from_bytes(&bytes[header..])?;
        let (width, depth) = (sketch.width(), sketch.depth());
        let mut top = TopK::new(k as usize, width, depth, sketch.seed())
            .map_err(|e| corrupt(e.to_string()))?;
        top.sketch = sketch;
        let mut cells: Cells = [0; MAX_DEPTH as usize];
        for pair in words.chunks_exact(2) {
            let entry = Entry {
                key: pair[0],
                estimate: pair[1] as i64,
            };
            if top.contains(entry.key) {
                return Err(corrupt(format!("key {} tracked twice", entry.key)));
            }
            if entry.estimate != top.sketch.estimate(entry.key) {
                return Err(corrupt(format!(
                    "the stored estimate of key {} is not the sketch's",
                    entry.key
                )));
            }
            top.tracked
                .position
                .insert(entry.key, top.tracked.entries.len());
            top.tracked.entries.push(entry);
            top.sketch.cells_of(entry.key, &mut cells);
            top.index.add(entry.key, &cells[..depth]);
        }
        if !top.tracked.is_ordered() {
            return Err(corrupt("heap order violated".to_string()));
        }
        Ok(top)
    }
}

impl PartialEq for TopK {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k
            && self.sketch == other.sketch
            && self.tracked.entries == other.tracked.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heap, its position map and the counter index agree, and every estimate is current.
    fn check_heap(top: &TopK) {
        assert!(top.tracked.is_ordered());
        for (i, e) in top.tracked.entries.iter().enumerate() {
            assert_eq!(top.tracked.position[&e.key], i);
            assert_eq!(
                e.estimate,
                top.estimate(e.key),
                "stale estimate of {}",
                e.key
            );
        }
        assert_eq!(top.tracked.position.len(), top.tracked.len());
        let depth = top.sketch.depth();
        let mut expected = vec![0usize; top.index.occupancy.len()];
        let mut cells: Cells = [0; MAX_DEPTH as usize];
        for e in &top.tracked.entries {
            top.sketch.cells_of(e.key, &mut cells);
            for &cell in &cells[..depth] {
                expected[cell] += 1;
                assert!(top.index.keys[&cell].contains(&e.key));
            }
        }
        for (cell, &count) in expected.iter().enumerate() {
            assert_eq!(top.index.occupancy[cell] as usize, count.min(255));
            assert_eq!(top.index.keys.get(&cell).map_or(0, Vec::len), count);
        }
    }

    #[test]
    fn k_zero_is_refused() {
        assert_eq!(
            TopK::new(0, 8, 3, 0).unwrap_err(),
            SketchError::ZeroParameter { name: "k" }
        );
        let too_many = TopK::new(1 << 30, 8, 3, 0).unwrap_err();
        assert!(matches!(too_many, SketchError::TooLarge { name: "k", .. }));
        assert!(too_many
            .to_string()
            .contains("at most 4194304 tracked keys"));
    }

    #[test]
    fn a_colliding_update_refreshes_the_tracked_estimate() {
        // The reproducer: one counter in one row, so key 1's update moves key 0's
        // estimate; items() used to keep the stale 1.
        let mut top = TopK::new(1, 1, 1, 1).unwrap();
        top.update(0, 1);
        top.update(1, 1);
        check_heap(&top);
        let items = top.items();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].1, top.estimate(items[0].0));
    }

    #[test]
    fn keeps_the_heaviest_keys_with_a_consistent_index() {
        // Exact regime (wide sketch): key i occurs i times, so the top 5 are 96..=100.
        let mut top = TopK::new(5, 4096, 5, 1).unwrap();
        let mut stream: Vec<u64> = (1..=100u64)
            .flat_map(|i| std::iter::repeat_n(i, i as usize))
            .collect();
        crate::rng::Rng::new(4).shuffle(&mut stream);
        for &key in &stream {
            top.update(key, 1);
            check_heap(&top);
        }
        assert_eq!(
            top.items(),
            vec![(100, 100), (99, 99), (98, 98), (97, 97), (96, 96)]
        );
        assert!(top.contains(100) && !top.contains(1));
    }

    #[test]
    fn decreases_move_keys_down_and_out() {
        let mut top = TopK::new(2, 1024, 5, 2).unwrap();
        top.update(1, 10);
        top.update(2, 20);
        top.update(1, -9);
        check_heap(&top);
        assert_eq!(top.update_with_eviction(3, 5), (5, Some(1)));
        check_heap(&top);
        assert_eq!(top.items(), vec![(2, 20), (3, 5)]);
        assert_eq!(top.update_with_eviction(3, 1), (6, None));
    }

    #[test]
    fn bytes_round_trip() {
        let mut top = TopK::new(3, 64, 3, 8).unwrap();
        top.update_many(&[1, 2, 3, 4, 4, 4, 5], None).unwrap();
        let back = TopK::from_bytes(&top.to_bytes()).unwrap();
        assert_eq!(back, top);
        check_heap(&back);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use std::collections::{BTreeMap, BTreeSet};

        /// Rank order of `(key, estimate)` pairs: highest estimate first, then smaller key.
        fn ranked(mut items: Vec<(u64, i64)>) -> Vec<(u64, i64)> {
            items.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            items
        }

        fn weight() -> impl Strategy<Value = i64> {
            prop_oneof![
                6 => -4i64..12,
                1 => Just(i64::MAX),
                1 => Just(i64::MIN),
                1 => -(1i64 << 62)..(1i64 << 62),
            ]
        }

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(512))]

            /// Against a brute-force model: a plain CountSketch for the estimates and a set for the
            /// tracked keys, which after each update becomes the top k of itself and the updated
            /// key by current estimates. Narrow sketches make collisions the rule.
            #[test]
            fn the_tracked_keys_follow_the_admission_rule_with_current_estimates(
                k in 1usize..6, width in 1usize..8, depth in 1usize..6, seed: u64,
                updates in prop::collection::vec((0u64..14, weight()), 0..60),
            ) {
                let mut top = TopK::new(k, width, depth, seed).unwrap();
                let mut reference = CountSketch::new(width, depth, seed).unwrap();
                let mut tracked = BTreeSet::new();
                for &(key, weight) in &updates {
                    let (estimate, evicted) = top.update_with_eviction(key, weight);
                    reference.update(key, weight);
                    prop_assert_eq!(estimate, reference.estimate(key));
                    let before = tracked.clone();
                    tracked.insert(key);
                    let kept = ranked(tracked.iter().map(|&t| (t, reference.estimate(t))).collect());
                    tracked = kept.iter().take(k).map(|&(t, _)| t).collect();
                    let expected: Vec<(u64, i64)> = kept.into_iter().take(k).collect();
                    prop_assert_eq!(top.items(), expected);
                    let left: Vec<u64> = before.difference(&tracked).copied().collect();
                    prop_assert_eq!(evicted, left.first().copied());
                    check_heap(&top);
                }
                prop_assert_eq!(top.sketch(), &reference);
                // A batch (clamp-free when its magnitudes allow) ends in the same state.
                let mut batch = TopK::new(k, width, depth, seed).unwrap();
                let (keys, weights): (Vec<u64>, Vec<i64>) = updates.iter().copied().unzip();
                batch.update_many(&keys, Some(&weights)).unwrap();
                check_heap(&batch);
                prop_assert_eq!(&batch, &top);
            }

            /// Where estimates are exact counts and weights are non-negative, the tracked keys are
            /// the top k by count among all keys seen (the module documentation's point 3).
            #[test]
            fn with_exact_counts_the_tracked_keys_are_the_top_k_of_all_keys_seen(
                k in 1usize..8, seed: u64,
                updates in prop::collection::vec((0u64..30, 0i64..20), 0..120),
            ) {
                let mut top = TopK::new(k, 1 << 16, 3, seed).unwrap();
                let mut counts = BTreeMap::new();
                for &(key, weight) in &updates {
                    top.update(key, weight);
                    *counts.entry(key).or_insert(0i64) += weight;
                    // The premise, checked rather than assumed: a collision in two of the three
                    // rows (probability about 1e-7 here) would end the case.
                    if counts.iter().any(|(&key, &count)| top.estimate(key) != count) {
                        return Ok(());
                    }
                    let exact = ranked(counts.iter().map(|(&key, &count)| (key, count)).collect());
                    prop_assert_eq!(top.items(), exact.into_iter().take(k).collect::<Vec<_>>());
                }
            }

            #[test]
            fn bytes_round_trip_and_corrupt_bytes_are_refused(
                k in 1usize..4, width in 1usize..5, depth in 1usize..3, seed: u64,
                updates in prop::collection::vec((0u64..10, weight()), 0..12),
                flip_at: usize, flip: u8,
            ) {
                let mut top = TopK::new(k, width, depth, seed).unwrap();
                for &(key, weight) in &updates {
                    top.update(key, weight);
                }
                let bytes = top.to_bytes();
                let back = TopK::from_bytes(&bytes).unwrap();
                check_heap(&back);
                prop_assert_eq!(&back, &top);
                crate::sketch::check_decoder(&bytes, TopK::from_bytes, TopK::to_bytes, flip_at, flip);
            }
        }

        #[test]
        fn bytes_with_a_stale_estimate_are_refused() {
            let mut top = TopK::new(2, 4, 2, 3).unwrap();
            top.update(1, 5);
            top.update(2, 3);
            let mut bytes = top.to_bytes();
            // The first entry's estimate word follows the magic, version, k, count and its key.
            bytes[5 + 16 + 8] ^= 1;
            let error = TopK::from_bytes(&bytes).unwrap_err().to_string();
            assert!(error.contains("is not the sketch's"), "{error}");
        }
    }
}
