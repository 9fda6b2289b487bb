//! Information-set alpha-beta search for RBC, with CountSketch/MinHash bounds (Bernardoni 2019).
//!
//! A node is an information set: the boards consistent with what we know, ours to move. Its value
//! is the worst case over its boards, `v(I) = min_{x in I} v(x)`, in centipawns from our point of
//! view ([`eval`]). See the `tree` module for the four alternating steps. Depth counts our moves.
//!
//! What is the paper's and what is ours:
//! - the paper's: the set search, the worst case over boards, the full sense search, the
//!   CountSketch/MinHash bounds with the point-estimate rule (`bound_rule = "point"`, see
//!   `sketch_bounds`; with the erratum's corrected intersection formula) and a chess-engine leaf
//!   (`leaf = "uci"`, [`crate::uci`]);
//! - ours: the Wilson bound rule (the default) and the use of an exact set-id match in the sketch
//!   table, the exact tables ([`transposition`], `reply_tables`), tables kept across searches
//!   ([`Searcher`]), parallel root splitting with shared set and sketch tables (`driver`),
//!   iterative deepening with a time limit, alpha-beta at the root within a margin
//!   (`root_margin`), the one-move-left table of sense nodes (`tree::last_move`), the min-size
//!   sense shortcut, the static, exchange and king-safety leaves, and the per-board request
//!   values ([`request_values`]).
//!
//! Modules: [`config`] (settings, defaults, limits), `searcher` (tables kept across searches),
//! `driver` (iterative deepening and parallel root splitting), `tree` (the recursion), `requests`
//! (which sets and requests can be searched). Not modelled: the 100-halfmove draw and the clock.

mod board_search;
pub mod config;
mod driver;
mod engine_judge;
pub mod eval;
mod exchange;
mod king_safety;
mod reply;
mod reply_tables;
pub mod request_values;
mod requests;
mod rules;
mod searcher;
mod sense;
mod sense_value;
mod sketch_bounds;
mod tables;
pub mod transposition;
mod tree;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::chess::Move;

pub use board_search::BoardTable;
pub use config::{
    BoundRule, LeafMode, Mode, RbcSearchConfig, SenseMode, MAX_DEPTH, MAX_ROOT_MARGIN,
    MAX_UCI_DEPTH, MAX_UCI_NODES,
};
pub use engine_judge::EngineJudge;
pub use eval::{
    evaluate, piece_square_table, INFINITY, KING_LOST_IN_SEARCH, MATE, MATE_BOUND, PIECE_VALUES,
};
pub use king_safety::{king_danger, king_safety};
pub use reply::MATED;
pub use request_values::{
    board_table, board_values, mean_reply_values, sense_values, RequestBoardValues, MAX_BOARD_PLIES,
};
pub use requests::root_requests;
pub use searcher::{search, search_stoppable, Searcher, TableSizes};
pub use sense::sense_squares;
pub use sense_value::decision_sense_values;
pub use sense_value::SenseValues;
pub use sketch_bounds::{point_probabilities, wilson_probabilities};

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Tree nodes visited (our-move, resolution, reply and sense nodes).
    pub nodes: u64,
    /// Boards scored by the static evaluation.
    pub leaf_evaluations: u64,
    /// Sketch table entries other than the set's own that supplied a bound.
    pub bounds_used: u64,
    /// Sets cut off by a sketch bound without being searched.
    pub bound_cutoffs: u64,
    /// Sets whose value came from the exact table, or from their own entry in the sketch table.
    pub table_hits: u64,
    /// Boards whose worst reply came from the exact reply table.
    pub reply_table_hits: u64,
    pub elapsed_seconds: f64,
}

impl SearchStats {
    pub(crate) fn add(&mut self, other: &SearchStats) {
        crate::add_fields!(self, other;
            nodes, leaf_evaluations, bounds_used, bound_cutoffs, table_hits, reply_table_hits);
    }
}

/// A root request fully evaluated at one depth, in the order the search finished them.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestCompletion {
    pub depth: u32,
    pub request: Option<Move>,
    /// Its value, or with a root margin, an upper bound when `exact` is false.
    pub value: i32,
    pub exact: bool,
    /// Nodes its search visited.
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` is a pass.
    pub best_move: Option<Move>,
    pub value: i32,
    /// Every root request (pass last) with its value, in move-action order. With a root margin
    /// `m`, a request in `below_margin` holds `value - m - 1` instead: its value is at most that.
    pub move_values: Vec<(Option<Move>, i32)>,
    /// With a root margin, the requests proven to lie more than it below the best (the same
    /// whatever the thread count); empty without one.
    pub below_margin: Vec<Option<Move>>,
    /// The deepest completed depth.
    pub depth: u32,
    pub stats: SearchStats,
    /// Every root request evaluation that finished, at every depth tried (the paper's anytime
    /// view, §8: how many requests a search has valued by a given time). A depth cut short by the
    /// time limit lists the requests it finished; their values are exact at that depth.
    pub timeline: Vec<RequestCompletion>,
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
    /// The `uci` leaf's engine failed (it died, or does not speak UCI).
    Engine(String),
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
            SearchError::Engine(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for SearchError {}
