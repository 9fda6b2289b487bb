//! Top-k tracking over a CountSketch: the paper's "queue of the k most seen" information sets.
//!
//! The tracked keys live in a binary min-heap ordered by estimate, with a position map from key to
//! heap slot, so an update of a tracked key moves it in O(log k) and an untracked key displaces the
//! smallest tracked one in O(log k); nothing scans all k entries.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::count_sketch::CountSketch;
use super::encoding::{corrupt, Decoder, Encoder};
use super::error::{check_size, SketchError};
use super::hashing::mix64;

/// At most this many tracked keys.
pub const MAX_K: u64 = 1 << 24;
const MAGIC: &[u8; 4] = b"FSTK";

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
}

type PositionMap = HashMap<u64, usize, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    estimate: i64,
    key: u64,
}

impl Entry {
    /// Heap order: smaller estimate first; among equals the larger key is "smaller", so that
    /// ties are broken the same way whatever the insertion order.
    fn below(self, other: Entry) -> bool {
        (self.estimate, std::cmp::Reverse(self.key))
            < (other.estimate, std::cmp::Reverse(other.key))
    }
}

/// The k keys with the highest CountSketch estimates seen so far.
///
/// A tracked key's estimate is refreshed whenever it is updated; a key enters when its fresh
/// estimate beats the smallest tracked estimate (or while fewer than k keys are tracked).
#[derive(Clone, Debug)]
pub struct TopK {
    k: usize,
    sketch: CountSketch,
    heap: Vec<Entry>,
    position: PositionMap,
}

impl TopK {
    pub fn new(k: usize, width: usize, depth: usize, seed: u64) -> Result<Self, SketchError> {
        check_size("k", k, MAX_K)?;
        let sketch = CountSketch::new(width, depth, seed)?;
        Ok(TopK {
            k,
            sketch,
            heap: Vec::with_capacity(k),
            position: PositionMap::default(),
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
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn contains(&self, key: u64) -> bool {
        self.position.contains_key(&key)
    }

    /// Adds `weight` to `key` and returns the key's new estimate.
    pub fn update(&mut self, key: u64, weight: i64) -> i64 {
        let estimate = self.sketch.update_and_estimate(key, weight);
        let entry = Entry { estimate, key };
        if let Some(&slot) = self.position.get(&key) {
            let old = self.heap[slot];
            self.heap[slot] = entry;
            if entry.below(old) {
                self.sift_up(slot);
            } else {
                self.sift_down(slot);
            }
        } else if self.heap.len() < self.k {
            self.heap.push(entry);
            let slot = self.heap.len() - 1;
            self.position.insert(key, slot);
            self.sift_up(slot);
        } else if self.heap[0].below(entry) {
            self.position.remove(&self.heap[0].key);
            self.heap[0] = entry;
            self.position.insert(key, 0);
            self.sift_down(0);
        }
        estimate
    }

    /// Adds a batch (one occurrence each when `weights` is `None`).
    pub fn update_many(
        &mut self,
        keys: &[u64],
        weights: Option<&[i64]>,
    ) -> Result<(), SketchError> {
        match weights {
            None => keys.iter().for_each(|&key| {
                self.update(key, 1);
            }),
            Some(weights) => {
                if weights.len() != keys.len() {
                    return Err(SketchError::LengthMismatch {
                        keys: keys.len(),
                        weights: weights.len(),
                    });
                }
                keys.iter().zip(weights).for_each(|(&key, &w)| {
                    self.update(key, w);
                });
            }
        }
        Ok(())
    }

    /// The tracked keys with their estimates, highest estimate first (ties: smaller key first).
    pub fn items(&self) -> Vec<(u64, i64)> {
        let mut items: Vec<(u64, i64)> = self.heap.iter().map(|e| (e.key, e.estimate)).collect();
        items.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        items
    }

    /// The estimate of any key, tracked or not.
    pub fn estimate(&self, key: u64) -> i64 {
        self.sketch.estimate(key)
    }

    pub fn clear(&mut self) {
        self.sketch.clear();
        self.heap.clear();
        self.position.clear();
    }

    fn sift_up(&mut self, mut slot: usize) {
        while slot > 0 {
            let parent = (slot - 1) / 2;
            if !self.heap[slot].below(self.heap[parent]) {
                break;
            }
            self.swap(slot, parent);
            slot = parent;
        }
    }

    fn sift_down(&mut self, mut slot: usize) {
        let n = self.heap.len();
        loop {
            let (left, right) = (2 * slot + 1, 2 * slot + 2);
            let mut smallest = slot;
            if left < n && self.heap[left].below(self.heap[smallest]) {
                smallest = left;
            }
            if right < n && self.heap[right].below(self.heap[smallest]) {
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
        self.heap.swap(a, b);
        self.position.insert(self.heap[a].key, a);
        self.position.insert(self.heap[b].key, b);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let sketch = self.sketch.to_bytes();
        let mut encoder = Encoder::new(MAGIC, 3 + 2 * self.heap.len() + sketch.len() / 8 + 1);
        encoder.u64(self.k as u64).u64(self.heap.len() as u64);
        for entry in &self.heap {
            encoder.u64(entry.key).u64(entry.estimate as u64);
        }
        let mut bytes = encoder.finish();
        bytes.extend_from_slice(&sketch);
        bytes
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "TopK")?;
        let k = decoder.len(MAX_K)?;
        let tracked = decoder.len(MAX_K)?;
        if tracked > k {
            return Err(corrupt(format!("{tracked} tracked keys exceed k = {k}")));
        }
        let words = decoder.u64s(2 * tracked)?;
        let header = 5 + 16 + 16 * tracked;
        let sketch = CountSketch::from_bytes(&bytes[header..])?;
        let mut top = TopK {
            k,
            sketch,
            heap: Vec::with_capacity(k),
            position: PositionMap::default(),
        };
        for pair in words.chunks_exact(2) {
            let entry = Entry {
                key: pair[0],
                estimate: pair[1] as i64,
            };
            if top.position.insert(entry.key, top.heap.len()).is_some() {
                return Err(corrupt(format!("key {} tracked twice", entry.key)));
            }
            top.heap.push(entry);
        }
        if (1..top.heap.len()).any(|i| top.heap[i].below(top.heap[(i - 1) / 2])) {
            return Err(corrupt("heap order violated".to_string()));
        }
        Ok(top)
    }
}

impl PartialEq for TopK {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k && self.sketch == other.sketch && self.heap == other.heap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_heap(top: &TopK) {
        for i in 1..top.heap.len() {
            assert!(
                !top.heap[i].below(top.heap[(i - 1) / 2]),
                "heap order at {i}"
            );
        }
        for (i, e) in top.heap.iter().enumerate() {
            assert_eq!(top.position[&e.key], i);
        }
        assert_eq!(top.position.len(), top.heap.len());
    }

    #[test]
    fn k_zero_is_refused() {
        assert_eq!(
            TopK::new(0, 8, 3, 0).unwrap_err(),
            SketchError::ZeroParameter { name: "k" }
        );
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
        top.update(3, 5);
        check_heap(&top);
        assert_eq!(top.items(), vec![(2, 20), (3, 5)]);
    }

    #[test]
    fn bytes_round_trip() {
        let mut top = TopK::new(3, 64, 3, 8).unwrap();
        top.update_many(&[1, 2, 3, 4, 4, 4, 5], None).unwrap();
        let back = TopK::from_bytes(&top.to_bytes()).unwrap();
        assert_eq!(back, top);
        check_heap(&back);
    }
}
