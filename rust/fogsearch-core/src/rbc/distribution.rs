//! The belief a board set holds about each square: per square, the share of the set's boards
//! (or of their weight) with each piece there, or none.

use rayon::prelude::*;

use crate::chess::{Board, Color, PieceType};

use super::board_set::BoardSet;
use super::error::RbcError;

/// The states a square can be in, in column order: 0 empty, 1..=6 a White pawn, knight, bishop,
/// rook, queen, king, 7..=12 a Black pawn … king (python-chess's piece numbers, Black offset by
/// 6).
pub const SQUARE_STATES: usize = 13;

/// Boards counted by one task before the partial sums are added up.
const CHUNK: usize = 1 << 14;

/// The column of a piece in a [`BoardSet::square_distribution`] row.
pub fn state_index(piece_type: PieceType, color: Color) -> usize {
    piece_type as usize + 6 * color.index()
}

impl BoardSet {
    /// Per square (a1 = 0 … h8 = 63), the share of the set's boards holding each of the
    /// [`SQUARE_STATES`] states; every row sums to 1.
    pub fn square_distribution(&self) -> Vec<[f64; SQUARE_STATES]> {
        let boards = self.boards();
        let sums = summed(boards, self.would_use_threads(), |_| 1.0);
        finish(sums, boards.len() as f64)
    }

    /// [`BoardSet::square_distribution`] with each board counted at its weight (one per board,
    /// in the set's order, finite and not negative, not all zero; normalised here).
    pub fn square_distribution_weighted(
        &self,
        weights: &[f64],
    ) -> Result<Vec<[f64; SQUARE_STATES]>, RbcError> {
        let boards = self.boards();
        if weights.len() != boards.len() {
            return Err(RbcError::MalformedObservation(format!(
                "{} weights given for a set of {} boards",
                weights.len(),
                boards.len()
            )));
        }
        if let Some(bad) = weights.iter().find(|w| !w.is_finite() || **w < 0.0) {
            return Err(RbcError::MalformedObservation(format!(
                "a board weight must be finite and not negative, got {bad}"
            )));
        }
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return Err(RbcError::MalformedObservation(
                "the board weights sum to 0".into(),
            ));
        }
        let sums = summed(boards, self.would_use_threads(), |i| weights[i]);
        Ok(finish(sums, total))
    }
}

/// Per square and piece, the summed weight of the boards holding that piece there (column 0,
/// empty, is filled in by [`finish`]).
fn summed(
    boards: &[Board],
    parallel: bool,
    weight: impl Fn(usize) -> f64 + Sync,
) -> Vec<[f64; SQUARE_STATES]> {
    let chunk_sums = |(c, chunk): (usize, &[Board])| {
        let mut sums = vec![[0.0; SQUARE_STATES]; 64];
        for (i, board) in chunk.iter().enumerate() {
            let w = weight(c * CHUNK + i);
            for color in [Color::White, Color::Black] {
                for piece_type in PieceType::ALL {
                    let column = state_index(piece_type, color);
                    for sq in board.pieces_of(piece_type, color) {
                        sums[sq as usize][column] += w;
                    }
                }
            }
        }
        sums
    };
    let add = |mut a: Vec<[f64; SQUARE_STATES]>, b: Vec<[f64; SQUARE_STATES]>| {
        for (row, other) in a.iter_mut().zip(&b) {
            for (x, y) in row.iter_mut().zip(other) {
                *x += y;
            }
        }
        a
    };
    let empty = || vec![[0.0; SQUARE_STATES]; 64];
    if parallel {
        boards
            .par_chunks(CHUNK)
            .enumerate()
            .map(chunk_sums)
            .reduce(empty, add)
    } else {
        boards
            .chunks(CHUNK)
            .enumerate()
            .map(chunk_sums)
            .fold(empty(), add)
    }
}

/// Divides the sums by the total and puts the rest of each square's weight in its empty column.
fn finish(mut sums: Vec<[f64; SQUARE_STATES]>, total: f64) -> Vec<[f64; SQUARE_STATES]> {
    for row in &mut sums {
        let occupied: f64 = row[1..].iter().sum();
        row[0] = (total - occupied).max(0.0);
        for x in row.iter_mut() {
            *x /= total;
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rbc::board_set::tests::black_after_first_move;

    const E2: usize = 12;
    const E4: usize = 28;
    const F3: usize = 21;
    const G1: usize = 6;
    const E8: usize = 60;

    #[test]
    fn uniform_shares_match_a_hand_count() {
        let set = black_after_first_move();
        assert_eq!(set.len(), 21);
        let d = set.square_distribution();
        let pawn = state_index(PieceType::Pawn, Color::White);
        let knight = state_index(PieceType::Knight, Color::White);
        // e2's pawn moved on 2 of the 21 boards (e3, e4); e4 holds it on one.
        assert_eq!(d[E2][pawn], 19.0 / 21.0);
        assert_eq!(d[E2][0], 2.0 / 21.0);
        assert_eq!(d[E4][pawn], 1.0 / 21.0);
        // f3 holds a pawn (f2-f3) on one board and a knight (g1-f3) on one.
        assert_eq!(d[F3][pawn], 1.0 / 21.0);
        assert_eq!(d[F3][knight], 1.0 / 21.0);
        assert_eq!(d[F3][0], 19.0 / 21.0);
        assert_eq!(d[G1][knight], 19.0 / 21.0);
        assert_eq!(d[E8][state_index(PieceType::King, Color::Black)], 1.0);
        for row in &d {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn weights_count_each_board_at_its_weight() {
        let set = black_after_first_move();
        let pawn = state_index(PieceType::Pawn, Color::White);
        // All the weight on the boards where e2's pawn moved: e2 is then always empty, and e4
        // holds the pawn on one of the two (weights 1 and 3 of 4 split e3 / e4).
        let weights: Vec<f64> = set
            .boards()
            .iter()
            .map(
                |b| match (b.piece_at(20).is_some(), b.piece_at(28).is_some()) {
                    (true, false) if b.piece_at(12).is_none() => 1.0, // e2-e3
                    (false, true) => 3.0,                             // e2-e4
                    _ => 0.0,
                },
            )
            .collect();
        let d = set.square_distribution_weighted(&weights).unwrap();
        assert_eq!(d[E2][0], 1.0);
        assert_eq!(d[E4][pawn], 0.75);
        assert_eq!(d[20][pawn], 0.25);
        let uniform = set.square_distribution_weighted(&[2.0; 21]).unwrap();
        assert_eq!(uniform, set.square_distribution());
        for bad in [vec![1.0; 20], vec![0.0; 21], {
            let mut w = vec![1.0; 21];
            w[3] = f64::NAN;
            w
        }] {
            assert!(set.square_distribution_weighted(&bad).is_err());
        }
    }
}
