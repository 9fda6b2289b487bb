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
use super::sense::{sense_squares, window_labels};
use super::{LeafMode, SearchError};

/// The expected best mean outcome without a sense and after each of the 36 sense squares.
#[derive(Debug, Clone, PartialEq)]
pub struct SenseValues {
    pub unsensed: f64,
    /// `(square, value)` for b2..g7 in python-chess order.
    pub by_square: Vec<(Square, f64)>,
}

impl SenseValues {
    /// The value after sensing at `square`; `None` for a square outside b2..g7.
    pub fn at(&self, square: Square) -> Option<f64> {
        self.by_square
            .iter()
            .find(|(s, _)| *s == square)
            .map(|&(_, v)| v)
    }
}

/// See the module documentation. `boards` and `requests` must not be empty.
pub fn sense_values(boards: &[Board], requests: &[Option<Move>], leaf: LeafMode) -> SenseValues {
    let outcomes = request_outcomes(boards, requests, leaf, false);
    let n = boards.len() as f64;
    let all_in_one_cell = vec![0u32; boards.len()];
    let unsensed = best_cell_totals(&outcomes, &all_in_one_cell, 1) / n;
    let by_square = sense_squares()
        .map(|square| {
            let (labels, cells) = window_labels(boards, square);
            (square, best_cell_totals(&outcomes, &labels, cells) / n)
        })
        .collect();
    SenseValues {
        unsensed,
        by_square,
    }
}

/// The value of each sense to a decision that scores request `r` on a set of boards as
/// `mean_weight` x the `weights`-weighted mean of `utilities[r][b]` over its boards plus
/// `1 - mean_weight` x their minimum, and plays the best-scored request: the expected best score
/// once the sense's result is known (cells weighted by their boards' weight), and the best score
/// without a sense. `utilities` is row-major, one row of `boards.len()` values per request.
/// Knowing more never lowers it: the weighted mean of a partition's best means is at least the
/// best mean, and a cell's minimum is at least the set's.
pub fn decision_sense_values(
    boards: &[Board],
    utilities: &[f64],
    weights: &[f64],
    mean_weight: f64,
) -> Result<SenseValues, SearchError> {
    let n = boards.len();
    let invalid = |why: String| Err(SearchError::InvalidConfig(why));
    if n == 0 {
        return Err(SearchError::EmptySet);
    }
    if utilities.is_empty() || !utilities.len().is_multiple_of(n) {
        return invalid(format!(
            "utilities must hold one row of {n} values (one per board) per request, got {} values",
            utilities.len()
        ));
    }
    if weights.len() != n {
        return invalid(format!(
            "weights must hold one weight per board ({n}), got {}",
            weights.len()
        ));
    }
    if utilities.iter().any(|u| !u.is_finite()) {
        return invalid("utilities must be finite".into());
    }
    if weights.iter().any(|w| !w.is_finite() || *w < 0.0) || weights.iter().sum::<f64>() <= 0.0 {
        return invalid("weights must be finite, at least 0, and not all 0".into());
    }
    if !(0.0..=1.0).contains(&mean_weight) {
        return invalid(format!("mean_weight must be in [0, 1], got {mean_weight}"));
    }
    let rows: Vec<&[f64]> = utilities.chunks_exact(n).collect();
    let total: f64 = weights.iter().sum();
    let all_in_one_cell = vec![0u32; n];
    let unsensed = best_compound_total(&rows, weights, &all_in_one_cell, 1, mean_weight) / total;
    let by_square = sense_squares()
        .map(|square| {
            let (labels, cells) = window_labels(boards, square);
            let value = best_compound_total(&rows, weights, &labels, cells, mean_weight) / total;
            (square, value)
        })
        .collect();
    Ok(SenseValues {
        unsensed,
        by_square,
    })
}

/// Σ over cells of the cell's weight times its best request's compound score (see
/// [`decision_sense_values`]); a cell of zero weight adds nothing.
fn best_compound_total(
    rows: &[&[f64]],
    weights: &[f64],
    labels: &[u32],
    cells: usize,
    mean_weight: f64,
) -> f64 {
    let mut cell_weight = vec![0.0; cells];
    for (&label, &w) in labels.iter().zip(weights) {
        cell_weight[label as usize] += w;
    }
    let mut best = vec![f64::NEG_INFINITY; cells];
    let mut sums = vec![0.0; cells];
    let mut mins = vec![f64::INFINITY; cells];
    for row in rows {
        sums.iter_mut().for_each(|s| *s = 0.0);
        mins.iter_mut().for_each(|m| *m = f64::INFINITY);
        for ((&label, &value), &w) in labels.iter().zip(row.iter()).zip(weights) {
            let cell = label as usize;
            sums[cell] += w * value;
            mins[cell] = mins[cell].min(value);
        }
        for cell in 0..cells {
            if cell_weight[cell] > 0.0 {
                let mean = sums[cell] / cell_weight[cell];
                let score = mean_weight * mean + (1.0 - mean_weight) * mins[cell];
                best[cell] = best[cell].max(score);
            }
        }
    }
    best.iter()
        .zip(&cell_weight)
        .filter(|(_, &w)| w > 0.0)
        .map(|(b, w)| b * w)
        .sum()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn boards() -> Vec<Board> {
        // Black's king on e8 or d8: a sense at d7 or e7 tells them apart, one at b2 does not.
        [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "3k4/8/8/8/8/8/8/4K3 w - - 0 1",
        ]
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect()
    }

    #[test]
    fn a_sense_that_separates_the_boards_is_worth_the_better_request_on_each() {
        // Request 0 is good on board 0 only, request 1 on board 1 only.
        let utilities = [100.0, -100.0, -100.0, 100.0];
        let values = decision_sense_values(&boards(), &utilities, &[1.0, 1.0], 1.0).unwrap();
        assert_eq!(values.unsensed, 0.0);
        let at = |name: &str| {
            values
                .at(crate::chess::parse_square(name).unwrap())
                .unwrap()
        };
        assert_eq!(at("e7"), 100.0);
        assert_eq!(at("b2"), 0.0);
        // Weights move the unsensed choice to the likelier board's request; the worst case
        // counts the other board in full.
        let weighted = decision_sense_values(&boards(), &utilities, &[3.0, 1.0], 0.5).unwrap();
        assert_eq!(weighted.unsensed, 0.5 * 50.0 + 0.5 * -100.0);
    }

    #[test]
    fn bad_shapes_and_weights_are_refused() {
        let b = boards();
        assert!(decision_sense_values(&b, &[1.0, 2.0, 3.0], &[1.0, 1.0], 0.5).is_err());
        assert!(decision_sense_values(&b, &[1.0, 2.0], &[1.0], 0.5).is_err());
        assert!(decision_sense_values(&b, &[1.0, 2.0], &[0.0, 0.0], 0.5).is_err());
        assert!(decision_sense_values(&b, &[1.0, f64::NAN], &[1.0, 1.0], 0.5).is_err());
        assert!(decision_sense_values(&b, &[1.0, 2.0], &[1.0, 1.0], 1.5).is_err());
    }
}
