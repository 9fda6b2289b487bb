//! Sense choices: the 36 non-edge squares (b2..g7), each splitting a set by what the 3x3 window
//! around it shows. Squares giving the same partition are one choice.

use crate::chess::{Board, Square};

/// The non-edge squares b2..g7 in python-chess order.
pub fn sense_squares() -> impl Iterator<Item = Square> {
    (1..7u8).flat_map(|rank| (1..7u8).map(move |file| rank * 8 + file))
}

/// One distinct way of splitting the set: the cells (indices into the set), the first square that
/// gives it, and the expected number of boards left, sum n_r^2 / N.
pub struct SenseChoice {
    #[allow(dead_code)] // kept for diagnostics and tests
    pub square: Square,
    pub cells: Vec<Vec<usize>>,
    pub expected_size: f64,
}

/// The squares a sense at `centre` (b2..g7) shows: the 3x3 window around it.
fn window_mask(centre: Square) -> u64 {
    0x07_0707 << (centre - 9)
}

/// What a sense at `centre` shows on `board`, packed into one number: 9 bits (the window's
/// squares) for each piece type and for White, which together tell each square's piece and
/// colour or that it is empty.
fn window_key(board: &Board, centre: Square) -> u64 {
    let shift = centre - 9;
    let pack = |bitboard: u64| {
        let rows = (bitboard >> shift) & 0x07_0707;
        (rows & 0x7) | ((rows >> 5) & 0x38) | ((rows >> 10) & 0x1C0)
    };
    board
        .pieces
        .iter()
        .chain(std::iter::once(&board.colors[0]))
        .fold(0, |key, bitboard| (key << 9) | pack(bitboard.0))
}

/// The squares where some board's piece (or its colour) differs from the first board's. A sense
/// window outside them shows every board alike, and two windows that meet them on the same
/// squares split the set alike.
fn differing_squares(boards: &[Board]) -> u64 {
    let Some(first) = boards.first() else {
        return 0;
    };
    let placement = |b: &Board| {
        let mut bitboards = [0u64; 7];
        for (slot, bitboard) in bitboards
            .iter_mut()
            .zip(b.pieces.iter().chain([&b.colors[0]]))
        {
            *slot = bitboard.0;
        }
        bitboards
    };
    let reference = placement(first);
    boards[1..].iter().fold(0, |differing, board| {
        placement(board)
            .iter()
            .zip(&reference)
            .fold(differing, |d, (a, b)| d | (a ^ b))
    })
}

/// Distinct windows past which cells are found by hashing instead of a scan of the windows seen
/// so far.
const SCAN_LABELS: usize = 16;

/// The cell of each board when sensing at `square`, numbered by first occurrence (so equal
/// partitions give equal label vectors), and the number of cells.
pub fn window_labels(boards: &[Board], square: Square) -> (Vec<u32>, usize) {
    WindowLabeler::new(boards.len()).labels(boards, square)
}

/// Numbers each board's window by first occurrence: a scan of the windows seen so far while there
/// are few, then an open-addressing table, kept for every square of one set (a stamp marks the
/// current square's slots, so it is never cleared). Sets of a thousand boards or more, with
/// hundreds of distinct windows per square, are common deep in the search, where the standard
/// library's SipHash map cost a tenth of the search's time.
struct WindowLabeler {
    /// (window, label, stamp); a slot is free unless its stamp is the current one.
    slots: Vec<(u64, u32, u32)>,
    bits: u32,
    stamp: u32,
}

impl WindowLabeler {
    fn new(boards: usize) -> Self {
        WindowLabeler {
            slots: Vec::new(),
            bits: (2 * boards).next_power_of_two().max(64).trailing_zeros(),
            stamp: 0,
        }
    }

    /// [`window_labels`] for one of the set's squares.
    fn labels(&mut self, boards: &[Board], square: Square) -> (Vec<u32>, usize) {
        let mut labels = Vec::with_capacity(boards.len());
        let mut distinct: Vec<u64> = Vec::with_capacity(SCAN_LABELS);
        let mut rest = boards.iter();
        for board in rest.by_ref() {
            let window = window_key(board, square);
            match distinct.iter().position(|&w| w == window) {
                Some(label) => labels.push(label as u32),
                None if distinct.len() < SCAN_LABELS => {
                    labels.push(distinct.len() as u32);
                    distinct.push(window);
                }
                None => {
                    // Many distinct windows: the rest are labelled through the table.
                    self.start_square();
                    let mut count = 0;
                    for &seen in &distinct {
                        self.label(seen, &mut count);
                    }
                    labels.push(self.label(window, &mut count));
                    for board in rest {
                        labels.push(self.label(window_key(board, square), &mut count));
                    }
                    return (labels, count as usize);
                }
            }
        }
        (labels, distinct.len())
    }

    fn start_square(&mut self) {
        if self.slots.is_empty() || self.stamp == u32::MAX {
            self.slots = vec![(0, 0, 0); 1 << self.bits];
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// The label of `window`, a new one (`count`, then counted) if it is new.
    fn label(&mut self, window: u64, count: &mut u32) -> u32 {
        let mask = (1 << self.bits) - 1;
        // Fibonacci hashing: the product's top bits depend on every bit of the window.
        let mut slot = (window.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        loop {
            let (stored, label, stamp) = self.slots[slot];
            if stamp != self.stamp {
                self.slots[slot] = (window, *count, self.stamp);
                *count += 1;
                return *count - 1;
            }
            if stored == window {
                return label;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// A hash of a label vector, to compare partitions by it first.
fn labels_hash(labels: &[u32]) -> u64 {
    labels.iter().fold(0x9E37_79B9_7F4A_7C15, |hash, &label| {
        crate::rng::splitmix64(hash ^ u64::from(label))
    })
}

/// The distinct sense choices for `boards`, most informative (smallest expected size) first;
/// ties keep square order.
pub fn sense_choices(boards: &[Board]) -> Vec<SenseChoice> {
    let differing = differing_squares(boards);
    let mut seen_windows: Vec<u64> = Vec::new();
    let squares = sense_squares().filter(|&square| {
        // A square whose window meets the differing squares as an earlier one's does splits the
        // set as that one does.
        let seen = window_mask(square) & differing;
        let new = !seen_windows.contains(&seen);
        seen_windows.push(seen);
        new
    });
    let mut choices = distinct_choices(boards, squares);
    sort_by_expected_size(&mut choices);
    choices
}

/// [`sense_choices`] less those another choice refines ([`finest_choices`]), found without
/// building most of the partitions: a window that meets the differing squares on a subset of
/// another's squares splits the set no finer, so only windows whose meeting is largest (by
/// inclusion) can give a finest partition. Among sets held after an unseen reply most windows
/// are such subsets; building every partition of sets of a thousand boards was half of a
/// depth-4 search's time.
pub fn finest_sense_choices(boards: &[Board]) -> Vec<SenseChoice> {
    let differing = differing_squares(boards);
    let seen: Vec<(Square, u64)> = sense_squares()
        .map(|square| (square, window_mask(square) & differing))
        .collect();
    let mut widest: Vec<(Square, u64)> = Vec::new();
    for &(square, window) in &seen {
        let within_another = seen
            .iter()
            .any(|&(_, other)| other != window && other & window == window);
        if !within_another && !widest.iter().any(|&(_, w)| w == window) {
            widest.push((square, window));
        }
    }
    let choices = distinct_choices(boards, widest.into_iter().map(|(square, _)| square));
    let mut finest = finest_choices(choices, boards.len());
    sort_by_expected_size(&mut finest);
    finest
}

/// The choices of `squares` (in order), one per distinct partition: the first square that gives
/// it names it.
fn distinct_choices(boards: &[Board], squares: impl Iterator<Item = Square>) -> Vec<SenseChoice> {
    let mut choices: Vec<SenseChoice> = Vec::new();
    // Each kept choice's labels and their hash: at most 36, so a scan finds a repeat.
    let mut seen: Vec<(u64, Vec<u32>)> = Vec::new();
    let mut labeler = WindowLabeler::new(boards.len());
    for square in squares {
        let (labels, cell_count) = labeler.labels(boards, square);
        // Labels are numbered by first occurrence, so equal partitions have equal label vectors.
        let hash = labels_hash(&labels);
        if seen.iter().any(|(h, l)| *h == hash && *l == labels) {
            continue;
        }
        let mut cells: Vec<Vec<usize>> = vec![Vec::new(); cell_count];
        for (index, &label) in labels.iter().enumerate() {
            cells[label as usize].push(index);
        }
        let n = boards.len() as f64;
        let expected_size = cells
            .iter()
            .map(|c| (c.len() * c.len()) as f64)
            .sum::<f64>()
            / n;
        seen.push((hash, labels));
        choices.push(SenseChoice {
            square,
            cells,
            expected_size,
        });
    }
    choices
}

/// Most informative first; a stable sort, so ties keep their order.
fn sort_by_expected_size(choices: &mut [SenseChoice]) {
    choices.sort_by(|a, b| a.expected_size.total_cmp(&b.expected_size));
}

/// `choices` less those another choice refines (each of its cells inside one of theirs), in
/// order. A refining sense tells at least as much whatever the outcome, and a set's worst-case
/// value only grows as it shrinks, so a refined choice is never worth more than its refinement:
/// the information-set search's max over the choices left is the max over all of them.
pub fn finest_choices(choices: Vec<SenseChoice>, boards: usize) -> Vec<SenseChoice> {
    let labels: Vec<Vec<usize>> = choices
        .iter()
        .map(|choice| {
            let mut label = vec![0; boards];
            for (c, cell) in choice.cells.iter().enumerate() {
                for &i in cell {
                    label[i] = c;
                }
            }
            label
        })
        .collect();
    let refines = |fine: usize, coarse: usize| {
        choices[fine].cells.len() > choices[coarse].cells.len()
            && choices[fine].cells.iter().all(|cell| {
                cell.iter()
                    .all(|&i| labels[coarse][i] == labels[coarse][cell[0]])
            })
    };
    let kept: Vec<bool> = (0..choices.len())
        .map(|b| !(0..choices.len()).any(|a| a != b && refines(a, b)))
        .collect();
    choices
        .into_iter()
        .zip(kept)
        .filter_map(|(choice, keep)| keep.then_some(choice))
        .collect()
}

/// The first of [`sense_choices`] (the smallest expected size, ties to the earliest square),
/// without building the other 35 partitions: with one sense per node (min_size senses) that is
/// all the tree needs, and building and comparing every partition cost more than the choice.
pub fn min_size_choice(boards: &[Board]) -> SenseChoice {
    let mut best: Option<(Square, u64)> = None;
    let mut windows: Vec<u64> = Vec::with_capacity(boards.len());
    for square in sense_squares() {
        windows.clear();
        windows.extend(boards.iter().map(|board| window_key(board, square)));
        windows.sort_unstable();
        // sum n_r^2 orders squares exactly as the expected size sum n_r^2 / N does.
        let squares_sum: u64 = windows
            .chunk_by(|a, b| a == b)
            .map(|cell| (cell.len() * cell.len()) as u64)
            .sum();
        if best.is_none_or(|(_, least)| squares_sum < least) {
            best = Some((square, squares_sum));
        }
    }
    let (square, squares_sum) = best.expect("36 sense squares");
    let (labels, cell_count) = window_labels(boards, square);
    let mut cells: Vec<Vec<usize>> = vec![Vec::new(); cell_count];
    for (index, &label) in labels.iter().enumerate() {
        cells[label as usize].push(index);
    }
    SenseChoice {
        square,
        cells,
        expected_size: squares_sum as f64 / boards.len() as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_36_sense_squares_from_b2_to_g7() {
        let squares: Vec<Square> = sense_squares().collect();
        assert_eq!(squares.len(), 36);
        assert_eq!(squares[0], 9);
        assert_eq!(*squares.last().unwrap(), 54);
    }

    #[test]
    fn a_single_board_has_one_choice_with_one_cell() {
        let choices = sense_choices(&[Board::start()]);
        assert_eq!(choices.len(), 1);
        assert_eq!(choices[0].cells, vec![vec![0]]);
    }

    #[test]
    fn boards_differing_on_e4_split_only_near_e4() {
        let a = Board::start();
        let b =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let choices = sense_choices(&[a, b]);
        // Split (both e2 and e4 differ, seen from d2..f5 windows) and not split (the rest).
        assert_eq!(choices.len(), 2);
        assert_eq!(choices[0].cells.len(), 2);
        assert_eq!(choices[0].expected_size, 1.0);
        assert_eq!(choices[1].expected_size, 2.0);
    }

    #[test]
    fn only_choices_no_other_refines_are_kept() {
        let choice = |cells: Vec<Vec<usize>>| SenseChoice {
            square: 0,
            expected_size: 0.0,
            cells,
        };
        let choices = vec![
            choice(vec![vec![0], vec![1, 2], vec![3]]),
            choice(vec![vec![0, 3], vec![1, 2]]),
            choice(vec![vec![0, 1], vec![2, 3]]),
            choice(vec![vec![0, 1, 2, 3]]),
            choice(vec![vec![0], vec![1, 2, 3]]),
        ];
        // The second and fifth are coarser than the first, the fourth than every other.
        let kept: Vec<Vec<Vec<usize>>> = finest_choices(choices, 4)
            .into_iter()
            .map(|c| c.cells)
            .collect();
        assert_eq!(
            kept,
            vec![
                vec![vec![0], vec![1, 2], vec![3]],
                vec![vec![0, 1], vec![2, 3]]
            ]
        );
        // Two boards differing on e4: the split refines the sense that does not split them.
        let a = Board::start();
        let b =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let finest = finest_choices(sense_choices(&[a, b]), 2);
        assert_eq!(finest.len(), 1);
        assert_eq!(finest[0].cells.len(), 2);
    }

    #[test]
    fn labels_number_windows_by_first_occurrence_past_the_scan() {
        use crate::rbc::opponent_moves;
        use std::collections::HashMap;

        // Two plies of replies from the start: 400 boards, many squares with over 16 windows.
        let mut set = Vec::new();
        for first in opponent_moves(&Board::start()) {
            let mut board = Board::start();
            board.push(first);
            for second in opponent_moves(&board) {
                let mut child = board.clone();
                child.push(second);
                set.push(child);
            }
        }
        let mut past_the_scan = 0;
        for square in sense_squares() {
            let mut first_seen: HashMap<u64, u32> = HashMap::new();
            let expected: Vec<u32> = set
                .iter()
                .map(|board| {
                    let next = first_seen.len() as u32;
                    *first_seen.entry(window_key(board, square)).or_insert(next)
                })
                .collect();
            let (labels, cells) = window_labels(&set, square);
            assert_eq!(labels, expected, "square {square}");
            assert_eq!(cells, first_seen.len());
            past_the_scan += usize::from(cells > SCAN_LABELS);
        }
        assert!(past_the_scan > 0, "some square must need the hash table");
    }

    /// Sets like the search's: every reply to a random position, one or two plies of them, and
    /// random parts of those.
    fn search_like_sets(seed: u64, count: usize) -> Vec<Vec<Board>> {
        use crate::rbc::opponent_moves;
        use crate::rng::Rng;

        let replies = |board: &Board| -> Vec<Board> {
            opponent_moves(board)
                .into_iter()
                .map(|reply| {
                    let mut child = board.clone();
                    child.push(reply);
                    child
                })
                .collect()
        };
        let mut rng = Rng::new(seed);
        let mut board = Board::start();
        let mut sets = Vec::new();
        while sets.len() < count {
            let mut set = replies(&board);
            if rng.below(2) == 0 {
                set = set.iter().flat_map(&replies).take(600).collect();
            }
            if rng.below(2) == 0 {
                set.retain(|_| rng.below(3) == 0);
            }
            if !set.is_empty() {
                sets.push(set);
            }
            let moves = opponent_moves(&board);
            board.push(moves[rng.below(moves.len() as u64) as usize]);
            let kings = [crate::chess::Color::White, crate::chess::Color::Black];
            if kings.iter().any(|&c| board.king_square(c).is_none()) {
                board = Board::start();
            }
        }
        sets
    }

    /// Every square's partition from what its nine squares hold, deduplicated and sorted as
    /// [`sense_choices`] promises, without window keys or differing squares.
    fn reference_choices(boards: &[Board]) -> Vec<SenseChoice> {
        let mut choices: Vec<SenseChoice> = Vec::new();
        for square in sense_squares() {
            let mut seen: Vec<Vec<Option<crate::chess::Piece>>> = Vec::new();
            let mut cells: Vec<Vec<usize>> = Vec::new();
            for (index, board) in boards.iter().enumerate() {
                let (rank, file) = (square / 8, square % 8);
                let window: Vec<_> = (rank - 1..=rank + 1)
                    .flat_map(|r| (file - 1..=file + 1).map(move |f| r * 8 + f))
                    .map(|sq| board.piece_at(sq))
                    .collect();
                match seen.iter().position(|w| *w == window) {
                    Some(cell) => cells[cell].push(index),
                    None => {
                        seen.push(window);
                        cells.push(vec![index]);
                    }
                }
            }
            if choices.iter().any(|c| c.cells == cells) {
                continue;
            }
            let size = cells.iter().map(|c| c.len() * c.len()).sum::<usize>();
            choices.push(SenseChoice {
                square,
                expected_size: size as f64 / boards.len() as f64,
                cells,
            });
        }
        sort_by_expected_size(&mut choices);
        choices
    }

    #[test]
    fn sense_choices_are_every_squares_distinct_partition() {
        for (case, set) in search_like_sets(11, 40).iter().enumerate() {
            let expected = reference_choices(set);
            let got = sense_choices(set);
            assert_eq!(got.len(), expected.len(), "set {case}");
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!((g.square, &g.cells), (e.square, &e.cells), "set {case}");
                assert_eq!(g.expected_size, e.expected_size, "set {case}");
            }
        }
    }

    #[test]
    fn the_finest_choices_are_the_partitions_no_other_refines() {
        for (case, set) in search_like_sets(12, 40).iter().enumerate() {
            let expected = finest_choices(reference_choices(set), set.len());
            let got = finest_sense_choices(set);
            // The same partitions; a tie in expected size may list them in another order.
            let partitions = |choices: &[SenseChoice]| {
                let mut cells: Vec<Vec<Vec<usize>>> =
                    choices.iter().map(|c| c.cells.clone()).collect();
                cells.sort();
                cells
            };
            assert_eq!(partitions(&got), partitions(&expected), "set {case}");
            assert!(got
                .windows(2)
                .all(|w| w[0].expected_size <= w[1].expected_size));
        }
    }

    #[test]
    fn the_min_size_choice_is_the_first_sense_choice() {
        use crate::rbc::opponent_moves;
        use crate::rng::Rng;

        let mut rng = Rng::new(7);
        let mut board = Board::start();
        for _ in 0..60 {
            // Every reply to `board`: the set a player holds after an unseen move.
            let mut set: Vec<Board> = opponent_moves(&board)
                .into_iter()
                .map(|reply| {
                    let mut child = board.clone();
                    child.push(reply);
                    child
                })
                .collect();
            for _ in 0..2 {
                let first = &sense_choices(&set)[0];
                let chosen = min_size_choice(&set);
                assert_eq!(chosen.square, first.square);
                assert_eq!(chosen.cells, first.cells);
                assert_eq!(chosen.expected_size, first.expected_size);
                // And a random half of it, where ties between squares are common.
                set.retain(|_| rng.below(2) == 0);
                if set.is_empty() {
                    break;
                }
            }
            let replies = opponent_moves(&board);
            let reply = replies[rng.below(replies.len() as u64) as usize];
            board.push(reply);
            if board.king_square(crate::chess::Color::White).is_none()
                || board.king_square(crate::chess::Color::Black).is_none()
            {
                board = Board::start();
            }
        }
    }
}
