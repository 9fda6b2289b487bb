//! The exact reply tables of the static leaves (ours, not the paper's): one per worker thread,
//! lent to a worker for its part of a search and kept by the [`Searcher`](super::Searcher) between
//! searches.
//!
//! A reply outcome (the worst a board's replies leave us, [`ReplyOutcome`]) is a function of the
//! board alone, so which worker's table answers never changes a value: the values of modes none
//! and exact stay the single-threaded search's at every thread count. Why a table per worker and
//! not one shared by all (measured, bench/RESULTS.md, "Parallel search"): most lookups miss, and a
//! miss in a shared table is two locked operations on cache lines the other cores keep writing.
//! On the recorded sets at depth 2 the shared table cost more than the work it saved (one thread:
//! 1.95 s with it, 1.76 s with the recent-entries cache alone) and held two threads to 1.67x; with
//! a table per worker, 1.93x. The cost is work a worker repeats because another did it (leaf
//! evaluations from the start at depth 3: +36 % on two threads), which costs less than the locks.
//!
//! A small table is faster than a large one: a board's worst reply takes microseconds, a probe
//! into millions of boards is a cache miss (depth 4 from the start, one thread: 526 s with 1 M
//! boards, 595 s with 16 M, 625 s with 64 M, which evaluated 7.6x fewer leaves).
//!
//! The engine leaf keeps the one shared table ([`ReplyTable`](super::transposition::ReplyTable)):
//! its scores depend on which engine process answered, so every worker must use the one kept.

use std::sync::Mutex;

use super::transposition::{map_index, split_capacity, BoundedMap, ReplyOutcome};

/// Slots of a worker's recent-entries cache: 16 bytes each, 512 KiB, which stays in a core's L2
/// cache. Sibling sets share most boards, so most hits are of boards the worker met moments ago.
const RECENT_SLOTS: usize = 1 << 15;

/// One worker's reply table: a direct-mapped cache of the entries it met last, in front of maps
/// bounded to its share of the searcher's `reply_entries` (a full map refuses new boards), split
/// by key bits as the shared tables are (a single map of millions of boards held 1.25 GB at the
/// peak of a depth-4 search from the start, against 0.95 GB split).
pub struct WorkerReplies {
    /// `(key, outcome)`; key 0 marks an empty slot, so a board whose key is 0 is never cached.
    recent: Vec<(u64, ReplyOutcome)>,
    parts: Vec<BoundedMap<ReplyOutcome>>,
    capacity_per_part: usize,
}

impl WorkerReplies {
    fn new(capacity: usize) -> Self {
        let (parts, capacity_per_part) = split_capacity(capacity);
        WorkerReplies {
            recent: vec![(0, ReplyOutcome::WorstEvaluation(0)); RECENT_SLOTS],
            parts: (0..parts)
                .map(|_| BoundedMap::new(capacity_per_part))
                .collect(),
            capacity_per_part,
        }
    }

    fn recent_slot(key: u64) -> usize {
        // Position keys are uniformly mixed: the low bits choose the slot.
        key as usize & (RECENT_SLOTS - 1)
    }

    fn part(&mut self, key: u64) -> &mut BoundedMap<ReplyOutcome> {
        let index = map_index(key, self.parts.len());
        &mut self.parts[index]
    }

    /// The outcome stored for the board with position key `key`, marked as used by search
    /// `generation`.
    pub fn probe(&mut self, key: u64, generation: u32) -> Option<ReplyOutcome> {
        let slot = Self::recent_slot(key);
        let (stored, outcome) = self.recent[slot];
        if stored == key && key != 0 {
            return Some(outcome);
        }
        let outcome = self.part(key).probe(key, generation)?;
        self.recent[slot] = (key, outcome);
        Some(outcome)
    }

    pub fn store(&mut self, key: u64, outcome: ReplyOutcome, generation: u32) {
        self.recent[Self::recent_slot(key)] = (key, outcome);
        self.part(key).store(key, outcome, generation);
    }

    fn len(&self) -> usize {
        self.parts.iter().map(BoundedMap::len).sum()
    }

    fn capacity(&self) -> usize {
        self.capacity_per_part * self.parts.len()
    }

    /// Drops every entry neither stored nor read since search `generation`, if more than half
    /// full.
    fn make_room(&mut self, generation: u32) {
        if self.len() > self.capacity() / 2 {
            for part in &mut self.parts {
                part.forget_older_than(generation);
            }
        }
    }
}

/// The worker reply tables a searcher keeps: at most one per worker thread, each bounded to
/// `reply_entries / threads`, so that together they hold at most `reply_entries` boards.
pub struct ReplyTables {
    idle: Mutex<Vec<WorkerReplies>>,
    capacity_each: usize,
}

impl ReplyTables {
    pub fn new(entries: usize, threads: usize) -> Self {
        ReplyTables {
            idle: Mutex::new(Vec::new()),
            capacity_each: entries.div_ceil(threads.max(1)),
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<WorkerReplies>> {
        // A panic while the lock was held leaves a valid list: keep using it.
        self.idle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A table for one worker: one a worker gave back, or a new, empty one.
    pub fn lend(&self) -> WorkerReplies {
        self.idle()
            .pop()
            .unwrap_or_else(|| WorkerReplies::new(self.capacity_each))
    }

    /// Takes back a table lent by [`lend`](Self::lend).
    pub fn give_back(&self, table: WorkerReplies) {
        self.idle().push(table);
    }

    /// Boards held by every table given back.
    pub fn len(&self) -> usize {
        self.idle().iter().map(WorkerReplies::len).sum()
    }

    /// Between searches, in each table more than half full, drops every entry neither stored nor
    /// read since search `generation`.
    pub fn make_room(&self, generation: u32) {
        for table in self.idle().iter_mut() {
            table.make_room(generation);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;
    use crate::search::transposition::MAX_MAPS;

    #[test]
    fn a_table_answers_what_it_stored_within_its_share_of_the_capacity() {
        let tables = ReplyTables::new(1_000, 4);
        let mut table = tables.lend();
        let keys: Vec<u64> = (1..=1_000).map(splitmix64).collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, ReplyOutcome::WorstEvaluation(i as i32), 1);
        }
        // Its share is 250: the rest are refused by the map (the recent cache may still hold some).
        assert_eq!(table.capacity(), 250);
        assert_eq!(table.len(), 250);
        for (i, &key) in keys.iter().enumerate() {
            if let Some(outcome) = table.probe(key, 1) {
                assert_eq!(outcome, ReplyOutcome::WorstEvaluation(i as i32));
            }
        }
        let held = keys
            .iter()
            .filter(|&&k| table.probe(k, 1).is_some())
            .count();
        assert!(held >= 250, "{held}");
        assert_eq!(table.probe(splitmix64(5_000), 1), None);
        tables.give_back(table);
        assert_eq!(tables.len(), 250);
    }

    #[test]
    fn large_tables_are_split_into_maps_small_ones_are_not() {
        assert_eq!(WorkerReplies::new(100).parts.len(), 1);
        assert_eq!(WorkerReplies::new(100).capacity(), 100);
        let large = WorkerReplies::new(16_000_000);
        assert_eq!(large.parts.len(), MAX_MAPS);
        assert!(large.capacity() >= 16_000_000 && large.capacity() < 16_000_000 + MAX_MAPS);
    }

    #[test]
    fn given_back_tables_are_lent_again_and_forget_what_a_search_left_unused() {
        let tables = ReplyTables::new(100, 1);
        let mut table = tables.lend();
        for key in 1..=80u64 {
            table.store(splitmix64(key), ReplyOutcome::TakesOurKing, 1);
        }
        tables.give_back(table);
        let mut table = tables.lend();
        assert_eq!(table.len(), 80, "the kept table is lent again");
        // Search 2 reads ten of them past the recent cache, which a new table does not hold.
        table.recent.fill((0, ReplyOutcome::WorstEvaluation(0)));
        for key in 1..=10u64 {
            assert!(table.probe(splitmix64(key), 2).is_some());
        }
        tables.give_back(table);
        tables.make_room(2);
        assert_eq!(tables.len(), 10);
    }
}
