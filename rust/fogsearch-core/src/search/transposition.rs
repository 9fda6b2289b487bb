//! The exact transposition table: values of information sets already searched, keyed by the set's
//! id and the remaining depth, with alpha-beta flags so a value found under a narrow window is
//! reused only as the bound it is. Also the exact reply table: for one board with the opponent to
//! move, the worst static evaluation over the opponent's replies (the whole of a depth-1 subtree's
//! work for that board), keyed by the board's position key.

use std::collections::HashMap;

use crate::chess::{Move, ZobristMap};

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

/// Capacity-bounded: once full, new sets are not stored (keeps results independent of any
/// replacement order and memory bounded).
pub struct TranspositionTable {
    entries: HashMap<(u64, u32), Entry>,
    capacity: usize,
}

impl TranspositionTable {
    pub fn new(capacity: usize) -> TranspositionTable {
        TranspositionTable {
            entries: HashMap::new(),
            capacity,
        }
    }

    pub fn probe(&self, set_id: u64, depth: u32) -> Option<Entry> {
        self.entries.get(&(set_id, depth)).copied()
    }

    pub fn store(&mut self, set_id: u64, depth: u32, entry: Entry) {
        let key = (set_id, depth);
        if self.entries.len() < self.capacity || self.entries.contains_key(&key) {
            self.entries.insert(key, entry);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What the opponent's best reply on one board leaves us: the minimum evaluation over every reply
/// (pass included), or that some reply takes our king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyOutcome {
    WorstEvaluation(i32),
    TakesOurKing,
}

/// Capacity-bounded like [`TranspositionTable`]. Depth-1 sets differ from one another far more
/// often than their boards do (sibling sets share most boards), so a per-board table is hit where
/// the per-set one misses.
pub struct ReplyTable {
    entries: ZobristMap<ReplyOutcome>,
    capacity: usize,
}

impl ReplyTable {
    pub fn new(capacity: usize) -> ReplyTable {
        ReplyTable {
            entries: ZobristMap::default(),
            capacity,
        }
    }

    pub fn probe(&self, position_key: u64) -> Option<ReplyOutcome> {
        self.entries.get(&position_key).copied()
    }

    pub fn store(&mut self, position_key: u64, outcome: ReplyOutcome) {
        if self.entries.len() < self.capacity {
            self.entries.insert(position_key, outcome);
        }
    }
}

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
    fn fail_soft_flags() {
        assert_eq!(Flag::of(10, 10, 20), Flag::Upper);
        assert_eq!(Flag::of(20, 10, 20), Flag::Lower);
        assert_eq!(Flag::of(15, 10, 20), Flag::Exact);
    }
}
