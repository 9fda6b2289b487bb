//! A growing list of boards that keeps each position's first occurrence, in order, with the sum
//! of the weights of all its occurrences.
//!
//! Expansion produces most children several times over (in recorded games about three of every
//! four children repeat a position already seen), so children are deduplicated as they are made
//! rather than collected first: memory stays proportional to the distinct positions. A position
//! reached by several histories is as likely as all of them together, so weights add up.

use rayon::prelude::*;

use crate::chess::{Board, ZobristMap};

/// Boards with their Zobrist keys, each position once, in order of first insertion. A key match
/// is confirmed by comparing positions, so a Zobrist collision never merges two positions.
#[derive(Default)]
pub(crate) struct UniqueBoards {
    first_with_key: ZobristMap<usize>,
    keys: Vec<u64>,
    boards: Vec<Board>,
    weights: Vec<f64>,
}

impl UniqueBoards {
    pub(crate) fn with_capacity(capacity: usize) -> UniqueBoards {
        UniqueBoards {
            first_with_key: ZobristMap::with_capacity_and_hasher(capacity, Default::default()),
            keys: Vec::with_capacity(capacity),
            boards: Vec::with_capacity(capacity),
            weights: Vec::with_capacity(capacity),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.boards.len()
    }

    /// Adds `board` (whose Zobrist key is `key`) with `weight` unless its position is already
    /// here, in which case the weight is added to that position's.
    pub(crate) fn insert(&mut self, key: u64, board: Board, weight: f64) {
        match self.first_with_key.get(&key) {
            None => {
                self.first_with_key.insert(key, self.boards.len());
                self.keys.push(key);
                self.boards.push(board);
                self.weights.push(weight);
            }
            Some(&i) if self.boards[i].same_position(&board) => self.weights[i] += weight,
            // A genuine collision (astronomically rare): fall back to a scan of the boards kept.
            Some(_) => match self.boards.iter().position(|b| b.same_position(&board)) {
                Some(i) => self.weights[i] += weight,
                None => {
                    self.keys.push(key);
                    self.boards.push(board);
                    self.weights.push(weight);
                }
            },
        }
    }

    /// The distinct boards and their summed weights.
    pub(crate) fn into_weighted(self) -> (Vec<Board>, Vec<f64>) {
        (self.boards, self.weights)
    }

    /// Keys, boards and weights without the index, which is no longer needed once a piece is
    /// complete.
    fn into_piece(self) -> Piece {
        Piece {
            keys: self.keys,
            boards: self.boards,
            weights: self.weights,
        }
    }
}

/// The distinct boards of one parallel piece, in its own first-occurrence order.
struct Piece {
    keys: Vec<u64>,
    boards: Vec<Board>,
    weights: Vec<f64>,
}

/// Where a position was first seen: piece number and index within it. Sorting these restores the
/// serial order, because pieces are consecutive runs of the serial order and each keeps its own
/// first occurrences in order.
type Place = (u32, u32);

/// Deduplicates boards produced in parallel pieces, in the order a serial pass would keep them.
/// Positions are split into shards by key, so the pieces are checked against each other by all
/// threads at once; the result does not depend on the number of pieces, shards or threads.
pub(crate) struct ShardedUnique {
    pieces: Vec<Piece>,
    shards: Vec<Shard>,
}

#[derive(Default)]
struct Shard {
    /// Each position's first occurrence and the weights of all its occurrences so far.
    first: ZobristMap<(Place, f64)>,
    /// First occurrences whose key collided with a different position's.
    collided: Vec<(Place, f64)>,
}

impl ShardedUnique {
    pub(crate) fn new(shards: usize) -> ShardedUnique {
        ShardedUnique {
            pieces: Vec::new(),
            shards: (0..shards.max(1)).map(|_| Shard::default()).collect(),
        }
    }

    /// Distinct positions so far.
    pub(crate) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.first.len() + s.collided.len())
            .sum()
    }

    /// Adds pieces that follow every piece added before, in serial order.
    pub(crate) fn extend(&mut self, pieces: Vec<UniqueBoards>) {
        let first_new = self.pieces.len();
        self.pieces
            .extend(pieces.into_iter().map(UniqueBoards::into_piece));
        let pieces = &self.pieces;
        let count = self.shards.len() as u64;
        self.shards
            .par_iter_mut()
            .enumerate()
            .for_each(|(s, shard)| {
                for (p, piece) in pieces.iter().enumerate().skip(first_new) {
                    for (i, &key) in piece.keys.iter().enumerate() {
                        if key % count == s as u64 {
                            shard.insert(pieces, key, (p as u32, i as u32));
                        }
                    }
                }
            });
    }

    /// The distinct boards in serial first-occurrence order, with their summed weights.
    pub(crate) fn into_weighted(self) -> (Vec<Board>, Vec<f64>) {
        let mut places: Vec<(Place, f64)> = self
            .shards
            .into_par_iter()
            .flat_map_iter(|s| s.first.into_values().chain(s.collided))
            .collect();
        places.par_sort_unstable_by_key(|&(place, _)| place);
        let pieces = self.pieces;
        let boards = places
            .par_iter()
            .map(|&((p, i), _)| pieces[p as usize].boards[i as usize].clone())
            .collect();
        (boards, places.into_iter().map(|(_, w)| w).collect())
    }
}

impl Shard {
    fn insert(&mut self, pieces: &[Piece], key: u64, place: Place) {
        let board_at = |(p, i): Place| &pieces[p as usize].boards[i as usize];
        let weight = pieces[place.0 as usize].weights[place.1 as usize];
        match self.first.get_mut(&key) {
            None => {
                self.first.insert(key, (place, weight));
            }
            Some((seen, sum)) if board_at(*seen).same_position(board_at(place)) => *sum += weight,
            Some(_) => {
                let board = board_at(place);
                match self
                    .collided
                    .iter_mut()
                    .find(|(c, _)| board_at(*c).same_position(board))
                {
                    Some((_, sum)) => *sum += weight,
                    None => self.collided.push((place, weight)),
                }
            }
        }
    }
}

/// Removes repeated positions, keeping each one's first occurrence and the order.
pub(crate) fn dedup_in_order(boards: Vec<Board>) -> Vec<Board> {
    dedup_weighted(boards, None).0
}

/// Removes repeated positions, keeping each one's first occurrence and the order, each with the
/// sum of its occurrences' `weights` (1 each when none are given).
pub(crate) fn dedup_weighted(
    boards: Vec<Board>,
    weights: Option<Vec<f64>>,
) -> (Vec<Board>, Vec<f64>) {
    let mut unique = UniqueBoards::with_capacity(boards.len());
    let weights = weights.unwrap_or_else(|| vec![1.0; boards.len()]);
    for (board, weight) in boards.into_iter().zip(weights) {
        unique.insert(board.zobrist(), board, weight);
    }
    unique.into_weighted()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_first_occurrences_in_order() {
        let a = Board::start();
        let mut b = a.clone();
        b.push(None);
        let mut a_later = a.clone();
        a_later.halfmove_clock = 9; // same position, different clocks: the first one stays
        let out = dedup_in_order(vec![a.clone(), b.clone(), a_later, b.clone()]);
        assert_eq!(out, vec![a, b]);
    }

    #[test]
    fn a_forced_key_collision_keeps_both_positions() {
        let a = Board::start();
        let mut b = a.clone();
        b.push(None);
        let mut unique = UniqueBoards::default();
        for (board, weight) in [
            (a.clone(), 1.0),
            (b.clone(), 2.0),
            (a.clone(), 4.0),
            (b.clone(), 8.0),
        ] {
            unique.insert(42, board, weight);
        }
        assert_eq!(unique.into_weighted(), (vec![a, b], vec![5.0, 10.0]));
    }

    /// Boards split into pieces in every way and merged with any shard count come out as the
    /// serial pass leaves them.
    #[test]
    fn sharded_merge_equals_serial_dedup() {
        let mut boards = Vec::new();
        let mut frontier = vec![Board::start()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for parent in &frontier {
                let mut moves = crate::chess::MoveList::new();
                parent.pseudo_legal_moves(&mut moves);
                for &mv in moves.iter() {
                    let mut child = parent.clone();
                    child.push(Some(mv));
                    next.push(child);
                }
            }
            boards.extend(next.iter().cloned());
            frontier = next;
        }
        // Powers of two: every sum is exact whatever the order of the additions.
        let weights: Vec<f64> = (0..boards.len())
            .map(|i| f64::from(1u32 << (i % 7)))
            .collect();
        let serial = dedup_weighted(boards.clone(), Some(weights.clone()));
        assert!(
            serial.0.len() < boards.len(),
            "the test needs repeated positions"
        );
        for (piece_size, shards) in [(1, 1), (7, 3), (100, 16), (5000, 2)] {
            let mut merged = ShardedUnique::new(shards);
            let numbered: Vec<(Board, f64)> = boards.iter().cloned().zip(weights.clone()).collect();
            for block in numbered.chunks(3 * piece_size) {
                let pieces = block
                    .chunks(piece_size)
                    .map(|chunk| {
                        let mut local = UniqueBoards::default();
                        for (b, w) in chunk {
                            local.insert(b.zobrist(), b.clone(), *w);
                        }
                        local
                    })
                    .collect();
                merged.extend(pieces);
            }
            assert_eq!(merged.len(), serial.0.len());
            assert_eq!(
                merged.into_weighted(),
                serial,
                "pieces of {piece_size}, {shards} shards"
            );
        }
    }
}
