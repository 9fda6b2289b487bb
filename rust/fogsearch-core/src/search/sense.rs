//! Sense choices: the 36 non-edge squares (b2..g7), each splitting a set by what the 3x3 window
//! around it shows. Squares giving the same partition are one choice.

use std::collections::{HashMap, HashSet};

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

/// What a sense at `centre` shows on `board`, packed into one number (4 bits a square: 13 states).
fn window_code(codes: &[u64; 64], centre: Square) -> u64 {
    let row = |c: usize| (codes[c - 1] << 8) | (codes[c] << 4) | codes[c + 1];
    let c = centre as usize;
    (row(c + 8) << 24) | (row(c) << 12) | row(c - 8)
}

/// Each board's piece code per square (0 empty, else 1 + piece type + 6 x colour), the input of
/// [`window_labels`].
pub fn board_codes(boards: &[Board]) -> Vec<[u64; 64]> {
    boards
        .iter()
        .map(|board| {
            let mut row = [0u64; 64];
            for (color, &occupied) in board.colors.iter().enumerate() {
                for (piece, &of_type) in board.pieces.iter().enumerate() {
                    for square in of_type & occupied {
                        row[square as usize] = 1 + piece as u64 + 6 * color as u64;
                    }
                }
            }
            row
        })
        .collect()
}

/// Boards past which cells are found by hashing instead of a scan of the windows seen so far.
const SCAN_LABELS: usize = 16;

/// The cell of each board when sensing at `square`, numbered by first occurrence (so equal
/// partitions give equal label vectors), and the number of cells.
pub fn window_labels(codes: &[[u64; 64]], square: Square) -> (Vec<u32>, usize) {
    let mut distinct: Vec<u64> = Vec::new();
    let mut index: HashMap<u64, u32> = HashMap::new();
    let labels = codes
        .iter()
        .map(|row| {
            let window = window_code(row, square);
            if distinct.len() < SCAN_LABELS {
                if let Some(label) = distinct.iter().position(|&w| w == window) {
                    return label as u32;
                }
                distinct.push(window);
                if distinct.len() == SCAN_LABELS {
                    index.extend(distinct.iter().enumerate().map(|(l, &w)| (w, l as u32)));
                }
                return distinct.len() as u32 - 1;
            }
            let next = index.len() as u32;
            *index.entry(window).or_insert(next)
        })
        .collect();
    (labels, distinct.len().max(index.len()))
}

/// The distinct sense choices for `boards`, most informative (smallest expected size) first;
/// ties keep square order.
pub fn sense_choices(boards: &[Board]) -> Vec<SenseChoice> {
    let codes = board_codes(boards);
    let mut choices: Vec<SenseChoice> = Vec::new();
    let mut seen_labels: HashSet<Vec<u32>> = HashSet::new();
    for square in sense_squares() {
        let (labels, cell_count) = window_labels(&codes, square);
        // Labels are numbered by first occurrence, so equal partitions have equal label vectors.
        if seen_labels.contains(&labels) {
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
        seen_labels.insert(labels);
        choices.push(SenseChoice {
            square,
            cells,
            expected_size,
        });
    }
    choices.sort_by(|a, b| a.expected_size.total_cmp(&b.expected_size));
    choices
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
    let codes = board_codes(boards);
    let mut best: Option<(Square, u64)> = None;
    let mut windows: Vec<u64> = Vec::with_capacity(boards.len());
    for square in sense_squares() {
        windows.clear();
        windows.extend(codes.iter().map(|row| window_code(row, square)));
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
    let (labels, cell_count) = window_labels(&codes, square);
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
