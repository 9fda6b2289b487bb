//! Information-set alpha-beta search for RBC, with CountSketch/MinHash bounds (Bernardoni 2019).
//!
//! A node is an information set: the boards consistent with what we know, ours to move. Its value
//! is the worst case over its boards, `v(I) = min_{x in I} v(x)`, in centipawns from our point of
//! view ([`eval`]). See the `tree` module for the four alternating steps. Depth counts our moves.
//!
//! What is the paper's and what is ours: the set search, the worst case over boards, the full
//! sense search and the CountSketch/MinHash bounds (`sketch_bounds`) are the paper's; the exact
//! tables ([`transposition`]), the min-size sense shortcut, the static leaf (the paper scored
//! leaves with a chess engine) and the per-board request values ([`request_values`]) are ours.
//!
//! Modules: [`config`] (settings, defaults, limits), `driver` (iterative deepening over the root
//! requests), `tree` (the recursion), `requests` (which sets and requests can be searched).
//! Not modelled: the 100-halfmove draw and the clock.

mod board_search;
pub mod config;
mod driver;
pub mod eval;
mod exchange;
mod king_safety;
mod reply;
pub mod request_values;
mod requests;
mod rules;
mod sense;
mod sense_value;
mod sketch_bounds;
pub mod transposition;
mod tree;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::chess::Move;

pub use config::{LeafMode, Mode, SearchConfig, SenseMode, MAX_DEPTH};
pub use driver::{search, search_stoppable};
pub use eval::{evaluate, piece_square_table, INFINITY, MATE, PIECE_VALUES};
pub use king_safety::{king_danger, king_safety};
pub use request_values::{
    board_values, mean_reply_values, sense_values, RequestBoardValues, MAX_BOARD_PLIES,
};
pub use requests::root_requests;
pub use sense::sense_squares;
pub use sense_value::SenseValues;

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Tree nodes visited (our-move, resolution, reply and sense nodes).
    pub nodes: u64,
    /// Boards scored by the static evaluation.
    pub leaf_evaluations: u64,
    /// Sketch table entries that supplied a bound.
    pub bounds_used: u64,
    /// Sets cut off by a sketch bound without being searched.
    pub bound_cutoffs: u64,
    /// Sets whose value came from the exact table.
    pub table_hits: u64,
    /// Boards whose worst reply came from the exact reply table.
    pub reply_table_hits: u64,
    pub elapsed_seconds: f64,
}

impl SearchStats {
    pub(crate) fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.leaf_evaluations += other.leaf_evaluations;
        self.bounds_used += other.bounds_used;
        self.bound_cutoffs += other.bound_cutoffs;
        self.table_hits += other.table_hits;
        self.reply_table_hits += other.reply_table_hits;
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` is a pass.
    pub best_move: Option<Move>,
    pub value: i32,
    /// Every root request (pass last) with its value, in move-action order.
    pub move_values: Vec<(Option<Move>, i32)>,
    /// The deepest completed depth.
    pub depth: u32,
    pub stats: SearchStats,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SearchError {
    InvalidConfig(String),
    EmptySet,
    ZeroDepth,
    /// The boards do not all have the same side to move.
    MixedTurns,
    /// A board lacks a king (the game is already over).
    MissingKing {
        fen: String,
    },
    /// A request that is no move action of any board in the set (nor a pass).
    UnknownRequest {
        uci: String,
    },
    /// An empty list of requests where a best request is wanted.
    NoRequests,
    /// The caller asked the search to stop (Ctrl-C) before it finished.
    Interrupted,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::InvalidConfig(message) => write!(f, "invalid search config: {message}"),
            SearchError::EmptySet => write!(f, "cannot search an empty board set"),
            SearchError::ZeroDepth => write!(f, "search depth must be at least 1"),
            SearchError::MixedTurns => {
                write!(
                    f,
                    "every board in the set must have the same side to move (ours)"
                )
            }
            SearchError::MissingKing { fen } => {
                write!(f, "board {fen:?} lacks a king: the game is already over")
            }
            SearchError::UnknownRequest { uci } => {
                write!(
                    f,
                    "request {uci} is not a move action of any board in the set"
                )
            }
            SearchError::NoRequests => write!(f, "at least one request is needed"),
            SearchError::Interrupted => write!(f, "the search was stopped before it finished"),
        }
    }
}

impl std::error::Error for SearchError {}
