//! The exact transposition table (ours, not the paper's): values of information sets already
//! searched, keyed by the set's id and the remaining depth, with alpha-beta flags so a value found
//! under a narrow window is reused only as the bound it is. Also what a reply table holds: for
//! one board with the opponent to move, the worst evaluation over the opponent's replies (the
//! whole of a depth-1 subtree's work for that board), keyed by the board's position key; and the
//! engine leaf's shared reply table (the static leaves' are one per worker, `reply_tables`).
//!
//! The set table is shared by every worker thread of a search; the tables are kept by a
//! [`Searcher`](super::Searcher) from one search to the next: a set's value at a remaining depth
//! does not depend on how the game reached it (the 100-half-move draw is not modelled), so
//! entries stay valid as the game moves on.

use std::sync::{Mutex, MutexGuard};

use crate::chess::{Move, ZobristMap};
use crate::rng::splitmix64;

use super::eval::MATE_BOUND;

/// What a stored value means about the set's true value `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `v` equals the value.
    Exact,
    /// `v >=` the value (the search failed high).
    Lower,
    /// `v <=` the value (the search failed low).
    Upper,
}

impl Flag {
    /// The flag of a fail-soft result `value` searched in the window `(alpha, beta)`.
    pub fn of(value: i32, alpha: i32, beta: i32) -> Flag {
        if value <= alpha {
            Flag::Upper
        } else if value >= beta {
            Flag::Lower
        } else {
            Flag::Exact
        }
    }

    pub fn bounds_from_above(self) -> bool {
        matches!(self, Flag::Exact | Flag::Upper)
    }

    pub fn bounds_from_below(self) -> bool {
        matches!(self, Flag::Exact | Flag::Lower)
    }
}

/// Mate scores count plies from the root; stored values count them from the node, so that a set
/// met again at another ply reads back the right distance to mate.
pub fn value_to_table(value: i32, ply: u32) -> i32 {
    if value > MATE_BOUND {
        value + ply as i32
    } else if value < -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

pub fn value_from_table(value: i32, ply: u32) -> i32 {
    if value > MATE_BOUND {
        value - ply as i32
    } else if value < -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub value: i32,
    pub flag: Flag,
    /// The best request found, searched first when the set is met again.
    pub best_request: Option<Option<Move>>,
}

/// The key of a set at a remaining depth: values depend on both. The set id is already a mixed
/// 64-bit hash, so folding in a mixed depth keeps keys as collision-free as set ids themselves.
pub fn set_key(set_id: u64, depth: u32) -> u64 {
    set_id ^ splitmix64(u64::from(depth) ^ 0xD3_97A1_5E17)
}

/// Maps a table is split into, at most (a power of two): enough that 16 threads rarely meet on
/// one lock of a shared table. When the static leaves' reply table was shared too (it was probed
/// once per board of every depth-1 set), with 64 locks 16 threads queued on them: on a 16-core
/// machine 1,024 took the exact search from the start (depth 3) from 1.10 s to 0.90-0.95 s
/// (bench/RESULTS.md, "Parallel search"). An empty map costs nothing, so more maps cost no
/// memory; and a table of millions of entries in one map would stop its thread for a second to
/// rehash, holding its old and new buckets at once.
pub(super) const MAX_MAPS: usize = 1024;

/// Entries per map, at least: a small table keeps fewer maps (a power of two), so that its
/// capacity is not rounded up to thousands and its maps fill evenly.
const MIN_MAP_CAPACITY: usize = 256;

/// How a table of `capacity` entries is split: `(maps, capacity of each)`.
pub(super) fn split_capacity(capacity: usize) -> (usize, usize) {
    let wanted = (capacity / MIN_MAP_CAPACITY).clamp(1, MAX_MAPS);
    // The largest power of two not above `wanted`, so that `map_index` takes whole bits.
    let maps = 1 << wanted.ilog2();
    (maps, capacity.div_ceil(maps))
}

/// Which of `maps` maps holds `key`. Bits from 32 up (10 of them at most) choose it: the maps
/// index buckets by the low bits and filter by the top 7, which must keep varying within a map.
pub(super) fn map_index(key: u64, maps: usize) -> usize {
    (key >> 32) as usize & (maps - 1)
}

struct Slot<V> {
    value: V,
    /// The search (a [`Searcher`](super::Searcher)'s count) that last stored or read the entry.
    generation: u32,
}

/// A map from 64-bit keys to values that refuses new keys once it holds `capacity`, with each
/// entry stamped by the search that last used it.
pub(super) struct BoundedMap<V> {
    map: ZobristMap<Slot<V>>,
    capacity: usize,
}

impl<V: Copy> BoundedMap<V> {
    pub(super) fn new(capacity: usize) -> Self {
        BoundedMap {
            map: ZobristMap::default(),
            capacity,
        }
    }

    /// The value stored under `key`, marked as used by search `generation`.
    pub(super) fn probe(&mut self, key: u64, generation: u32) -> Option<V> {
        let slot = self.map.get_mut(&key)?;
        slot.generation = generation;
        Some(slot.value)
    }

    /// Stores `value` under `key` unless the key is new and the map is full.
    pub(super) fn store(&mut self, key: u64, value: V, generation: u32) {
        if self.map.len() < self.capacity || self.map.contains_key(&key) {
            self.map.insert(key, Slot { value, generation });
        }
    }

    /// Stores `value` under `key` if the key is new (and the map has room), and returns the value
    /// the map holds for it.
    fn store_first(&mut self, key: u64, value: V, generation: u32) -> V {
        if let Some(slot) = self.map.get_mut(&key) {
            slot.generation = generation;
            return slot.value;
        }
        if self.map.len() < self.capacity {
            self.map.insert(key, Slot { value, generation });
        }
        value
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    /// Drops every entry neither stored nor read since search `generation`.
    pub(super) fn forget_older_than(&mut self, generation: u32) {
        self.map.retain(|_, slot| slot.generation >= generation);
    }
}

/// A capacity-bounded map from 64-bit keys to values, shared between threads: lock-striped over
/// up to [`MAX_MAPS`] maps, each with its share of the capacity. Once a shard is full it refuses
/// new keys, so memory stays bounded; between searches, [`Sharded::forget_older_than`] makes
/// room. Keys must be uniformly mixed (Zobrist keys, set ids).
pub struct Sharded<V> {
    shards: Vec<Mutex<BoundedMap<V>>>,
    capacity_per_shard: usize,
}

impl<V: Copy> Sharded<V> {
    pub fn new(capacity: usize) -> Self {
        let (shards, capacity_per_shard) = split_capacity(capacity);
        Sharded {
            shards: (0..shards)
                .map(|_| Mutex::new(BoundedMap::new(capacity_per_shard)))
                .collect(),
            capacity_per_shard,
        }
    }

    /// The map holding `key`, locked.
    fn shard(&self, key: u64) -> MutexGuard<'_, BoundedMap<V>> {
        // A panic while a lock was held leaves a valid map: keep using it.
        self.shards[map_index(key, self.shards.len())]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value stored under `key`, marked as used by search `generation`.
    pub fn probe(&self, key: u64, generation: u32) -> Option<V> {
        self.shard(key).probe(key, generation)
    }

    /// Stores `value` under `key` unless the key is new and its shard is full.
    pub fn store(&self, key: u64, value: V, generation: u32) {
        self.shard(key).store(key, value, generation);
    }

    /// Stores `value` under `key` if the key is new (and its shard has room), and returns the
    /// value the table holds for it: an earlier thread's value wins. The engine leaf's scores
    /// depend on which engine process answered (its hash table), so two threads that scored the
    /// same position must both use the one kept, or a search and its cached repeat would differ.
    pub fn store_first(&self, key: u64, value: V, generation: u32) -> V {
        self.shard(key).store_first(key, value, generation)
    }

    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()).len())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity_per_shard * self.shards.len()
    }

    pub fn clear(&self) {
        for shard in &self.shards {
            let mut shard = shard.lock().unwrap_or_else(|p| p.into_inner());
            // Give the memory back too: a cleared table should cost nothing.
            *shard = BoundedMap::new(self.capacity_per_shard);
        }
    }

    /// Drops every entry neither stored nor read since search `generation`.
    pub fn forget_older_than(&self, generation: u32) {
        for shard in &self.shards {
            shard
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .forget_older_than(generation);
        }
    }
}

/// Values of sets keyed by [`set_key`], with alpha-beta flags.
pub type TranspositionTable = Sharded<Entry>;

/// What the opponent's best reply on one board leaves us: the minimum evaluation over every reply
/// (pass included), or that some reply takes our king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyOutcome {
    WorstEvaluation(i32),
    TakesOurKing,
}

/// Reply outcomes keyed by the position key of a board with the opponent to move. Depth-1 sets
/// differ from one another far more often than their boards do (sibling sets share most boards),
/// so a per-board table is hit where the per-set one misses. It is also the engine leaf's cache
/// of scores by position.
pub type ReplyTable = Sharded<ReplyOutcome>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::MATE;

    #[test]
    fn mate_distances_are_relative_to_the_node() {
        // A win 5 plies from the root, stored at ply 2, read back at ply 4: 2 plies further.
        let stored = value_to_table(MATE - 5, 2);
        assert_eq!(value_from_table(stored, 4), MATE - 7);
        assert_eq!(value_from_table(value_to_table(-MATE + 3, 1), 1), -MATE + 3);
        assert_eq!(value_from_table(value_to_table(250, 3), 9), 250);
    }

    #[test]
    fn shards_keep_their_capacity_and_forget_old_generations() {
        let table: Sharded<i32> = Sharded::new(MAX_MAPS * 2);
        let keys: Vec<u64> = (0..10_000).map(splitmix64).collect();
        for &key in &keys {
            table.store(key, 1, 1);
        }
        assert_eq!(table.len(), table.capacity());
        // A stored key is replaced even in a full shard.
        let kept = keys
            .iter()
            .copied()
            .find(|&k| table.probe(k, 1).is_some())
            .unwrap();
        table.store(kept, 7, 2);
        assert_eq!(table.probe(kept, 2), Some(7));
        table.forget_older_than(2);
        assert_eq!(table.len(), 1);
        table.clear();
        assert!(table.is_empty());
    }

    #[test]
    fn small_tables_keep_their_capacity_and_large_ones_every_lock() {
        assert_eq!(Sharded::<i32>::new(100).capacity(), 100);
        assert_eq!(Sharded::<i32>::new(1_000).shards.len(), 2);
        assert_eq!(Sharded::<i32>::new(1_000).capacity(), 1_000);
        assert_eq!(Sharded::<i32>::new(100_000).shards.len(), 256);
        let large = Sharded::<i32>::new(4_000_000);
        assert_eq!(large.shards.len(), MAX_MAPS);
        assert!(large.capacity() >= 4_000_000 && large.capacity() < 4_000_000 + MAX_MAPS);
    }

    #[test]
    fn fail_soft_flags() {
        assert_eq!(Flag::of(10, 10, 20), Flag::Upper);
        assert_eq!(Flag::of(20, 10, 20), Flag::Lower);
        assert_eq!(Flag::of(15, 10, 20), Flag::Exact);
    }
}
