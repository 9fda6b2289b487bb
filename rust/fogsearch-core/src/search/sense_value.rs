//! The value of sensing: what knowing a sense's result is worth to the move that follows it.
//!
//! Every board gets a one-reply outcome per request (`reply::request_outcomes`). Without a sense
//! the best we can do is the request with the best mean over the set; after sensing, the best
//! request in each cell the sense could leave. The expected value after sensing square s is
//! `Σ_cells max_r Σ_{b in cell} v(b, r) / n`, never below the value without sensing. With king
//! captures at `±MATE` the sense that most lowers the chance of leaving our king en prise wins;
//! where no sense changes what we would play, every sense is worth the same.

use crate::chess::{Board, Move, Square};

use super::reply::request_outcomes;
use super::sense::{board_codes, sense_squares, window_labels};
use super::LeafMode;

/// The expected best mean outcome without a sense and after each of the 36 sense squares.
#[derive(Debug, Clone, PartialEq)]
pub struct SenseValues {
    pub unsensed: f64,
    /// `(square, value)` for b2..g7 in python-chess order.
    pub by_square: Vec<(Square, f64)>,
}

/// See the module documentation. `boards` and `requests` must not be empty.
pub fn sense_values(boards: &[Board], requests: &[Option<Move>], leaf: LeafMode) -> SenseValues {
    let outcomes = request_outcomes(boards, requests, leaf, false);
    let n = boards.len() as f64;
    let all_in_one_cell = vec![0u32; boards.len()];
    let unsensed = best_cell_totals(&outcomes, &all_in_one_cell, 1) / n;
    let codes = board_codes(boards);
    let by_square = sense_squares()
        .map(|square| {
            let (labels, cells) = window_labels(&codes, square);
            (square, best_cell_totals(&outcomes, &labels, cells) / n)
        })
        .collect();
    SenseValues {
        unsensed,
        by_square,
    }
}

/// Σ over cells of the best request's total outcome over the cell's boards; `labels` gives each
/// board's cell.
fn best_cell_totals(outcomes: &[Vec<f64>], labels: &[u32], cells: usize) -> f64 {
    let mut best = vec![f64::NEG_INFINITY; cells];
    let mut totals = vec![0.0; cells];
    for row in outcomes {
        totals.iter_mut().for_each(|t| *t = 0.0);
        for (&label, &value) in labels.iter().zip(row) {
            totals[label as usize] += value;
        }
        for (b, &t) in best.iter_mut().zip(&totals) {
            *b = b.max(t);
        }
    }
    best.iter().sum()
}
