//! Information-set alpha-beta search for RBC, with CountSketch/MinHash bounds (Bernardoni 2019).
//!
//! A node is an information set: the boards consistent with what we know, ours to move. Its value
//! is the worst case over its boards, `v(I) = min_{x in I} v(x)`, in centipawns from our point of
//! view ([`eval`]). See the `tree` module for the four alternating steps. Depth counts our moves.
//!
//! Modes: no cache (the paper's baseline), an exact transposition table keyed by set id
//! ([`transposition`]), the paper's sketch bounds (`sketch_bounds`), or both.
//!
//! Determinism: root moves are independent tasks. With `threads == 1` one searcher (one table,
//! one sketch) serves every root move in order; with more threads each root move gets its own,
//! seeded by `Rng::stream(seed, move_index)`. Values in modes `none` and `exact` are exact either
//! way (only statistics change); sketch values may differ between one and several threads.
//! Not modelled: the 100-halfmove draw and the clock.

mod board_search;
pub mod eval;
mod exchange;
mod king_safety;
mod reply;
mod rules;
mod sense;
mod sense_value;
mod sketch_bounds;
pub mod transposition;
mod tree;

#[cfg(test)]
mod tests;

use std::fmt;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::chess::{Board, Color, Move};
use crate::rng::Rng;

pub use eval::{evaluate, piece_square_table, INFINITY, MATE, PIECE_VALUES};
pub use king_safety::{king_danger, king_safety};
pub use sense::sense_squares;
pub use sense_value::SenseValues;

/// Which caches the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMode {
    None,
    Exact,
    Sketch,
    ExactAndSketch,
}

impl CacheMode {
    /// `"none"`, `"exact"`, `"sketch"` or `"exact+sketch"`.
    pub fn from_name(name: &str) -> Result<CacheMode, SearchError> {
        match name {
            "none" => Ok(CacheMode::None),
            "exact" => Ok(CacheMode::Exact),
            "sketch" => Ok(CacheMode::Sketch),
            "exact+sketch" => Ok(CacheMode::ExactAndSketch),
            other => Err(SearchError::InvalidConfig(format!(
                "mode must be 'none', 'exact', 'sketch' or 'exact+sketch', got {other:?}"
            ))),
        }
    }

    pub fn uses_exact_table(self) -> bool {
        matches!(self, CacheMode::Exact | CacheMode::ExactAndSketch)
    }

    pub fn uses_sketch(self) -> bool {
        matches!(self, CacheMode::Sketch | CacheMode::ExactAndSketch)
    }
}

/// How a leaf board is scored after the opponent's last reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafMode {
    /// Material plus piece-square tables (the paper's leaf).
    Static,
    /// The static evaluation plus what we win back by recapturing where the reply captured (a
    /// static exchange on that square; see `exchange`). Never below `Static`.
    Exchange,
    /// The static evaluation plus both kings' safety (zone attacks and pawn shield; see
    /// `king_safety`), scored on the board before the reply.
    KingSafety,
}

impl LeafMode {
    /// `"static"`, `"exchange"` or `"king_safety"`.
    pub fn from_name(name: &str) -> Result<LeafMode, SearchError> {
        match name {
            "static" => Ok(LeafMode::Static),
            "exchange" => Ok(LeafMode::Exchange),
            "king_safety" => Ok(LeafMode::KingSafety),
            other => Err(SearchError::InvalidConfig(format!(
                "leaf must be 'static', 'exchange' or 'king_safety', got {other:?}"
            ))),
        }
    }
}

/// How our sense is chosen inside the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseMode {
    /// Max over every distinct sense partition.
    Search,
    /// Only the sense minimising the expected set size (sum n_r^2 / N): much cheaper.
    MinSize,
}

impl SenseMode {
    /// `"search"` or `"min_size"`.
    pub fn from_name(name: &str) -> Result<SenseMode, SearchError> {
        match name {
            "search" => Ok(SenseMode::Search),
            "min_size" => Ok(SenseMode::MinSize),
            other => Err(SearchError::InvalidConfig(format!(
                "sense_mode must be 'search' or 'min_size', got {other:?}"
            ))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub mode: CacheMode,
    /// Minimum probability for a sketch table entry to be used as a bound, in (0, 1]. The default
    /// 1 uses only containments the signatures prove (see `sketch_bounds`).
    pub threshold: f64,
    /// MinHash signature size.
    pub k: usize,
    pub sketch_width: usize,
    pub sketch_depth: usize,
    /// Number of frequent sets kept with their values.
    pub table_size: usize,
    pub sense_mode: SenseMode,
    pub leaf: LeafMode,
    pub threads: usize,
    /// With a limit, iterative deepening returns the deepest completed depth (depth 1 always
    /// completes).
    pub time_limit: Option<Duration>,
    pub seed: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            mode: CacheMode::None,
            threshold: 1.0,
            k: 64,
            sketch_width: 1024,
            sketch_depth: 5,
            table_size: 64,
            sense_mode: SenseMode::Search,
            leaf: LeafMode::Static,
            threads: 1,
            time_limit: None,
            seed: 0,
        }
    }
}

impl SearchConfig {
    pub fn validate(&self) -> Result<(), SearchError> {
        let invalid = |message: String| Err(SearchError::InvalidConfig(message));
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return invalid(format!(
                "threshold must be in (0, 1], got {}",
                self.threshold
            ));
        }
        for (name, value) in [
            ("k", self.k),
            ("sketch_width", self.sketch_width),
            ("sketch_depth", self.sketch_depth),
            ("table_size", self.table_size),
            ("threads", self.threads),
        ] {
            if value == 0 {
                return invalid(format!("{name} must be at least 1, got 0"));
            }
        }
        if let Some(limit) = self.time_limit {
            if limit.is_zero() {
                return invalid("time_limit must be positive".to_string());
            }
        }
        Ok(())
    }
}

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
    fn add(&mut self, other: &SearchStats) {
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
        }
    }
}

impl std::error::Error for SearchError {}

/// Searches the information set `boards` (ours to move) `depth` of our moves deep.
pub fn search(
    boards: &[Board],
    depth: u32,
    config: &SearchConfig,
) -> Result<SearchResult, SearchError> {
    config.validate()?;
    if depth == 0 {
        return Err(SearchError::ZeroDepth);
    }
    let us = side_to_search(boards)?;
    let started = Instant::now();
    let deadline = config.time_limit.map(|limit| started + limit);
    let (set, keys) = tree::into_information_set(boards.to_vec());
    let requests = root_requests(&set, us);

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| {
            SearchError::InvalidConfig(format!("cannot start {} threads: {e}", config.threads))
        })?;
    let mut shared =
        (config.threads == 1).then(|| tree::Searcher::new(us, config, config.seed, deadline));
    let mut completed: Option<(u32, Vec<i32>)> = None;
    let mut stats = SearchStats::default();
    let first_depth = if deadline.is_some() { 1 } else { depth };
    for current in first_depth..=depth {
        // Depth 1 always completes so that there is always a move to return.
        let iteration_deadline = if current == 1 { None } else { deadline };
        let (values, aborted) = match shared.as_mut() {
            Some(searcher) => {
                searcher.set_deadline(iteration_deadline);
                let values: Vec<i32> = requests
                    .iter()
                    .map(|&r| searcher.root_request_value(&set, &keys, r, current))
                    .collect();
                (values, searcher.aborted)
            }
            None => {
                let outcomes: Vec<(i32, SearchStats, bool)> = pool.install(|| {
                    requests
                        .par_iter()
                        .enumerate()
                        .map(|(index, &request)| {
                            let seed = Rng::stream(config.seed, index as u64).next_u64();
                            let mut searcher =
                                tree::Searcher::new(us, config, seed, iteration_deadline);
                            let value = searcher.root_request_value(&set, &keys, request, current);
                            (value, searcher.stats.clone(), searcher.aborted)
                        })
                        .collect()
                });
                for (_, task_stats, _) in &outcomes {
                    stats.add(task_stats);
                }
                let aborted = outcomes.iter().any(|(_, _, a)| *a);
                (outcomes.into_iter().map(|(v, _, _)| v).collect(), aborted)
            }
        };
        if aborted {
            break;
        }
        completed = Some((current, values));
    }
    if let Some(searcher) = &shared {
        stats.add(&searcher.stats);
    }
    let (depth_done, values) = completed.expect("depth 1 always completes");
    let mut best_index = 0;
    for (index, &value) in values.iter().enumerate() {
        if value > values[best_index] {
            best_index = index;
        }
    }
    stats.elapsed_seconds = started.elapsed().as_secs_f64();
    Ok(SearchResult {
        best_move: requests[best_index],
        value: values[best_index],
        move_values: requests.iter().copied().zip(values).collect(),
        depth: depth_done,
        stats,
    })
}

/// Per request (default: [`root_requests`]), the mean over `boards` of its one-reply outcome: a
/// tie-break for requests whose worst-case values are equal (see the `reply` module). `leaf`
/// scores the board after the reply, as in the search; with `mate_threats` a board where a reply
/// forces the capture of our king scores `-MATE / 2`.
pub fn mean_reply_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    leaf: LeafMode,
    mate_threats: bool,
) -> Result<Vec<(Option<Move>, f64)>, SearchError> {
    let requests = known_requests(boards, requests)?;
    let means = reply::mean_outcomes(boards, &requests, leaf, mate_threats);
    Ok(requests.into_iter().zip(means).collect())
}

/// Per request (default: [`root_requests`]), its value on each board of `boards` if both sides
/// then saw the board: `plies` further plies of perfect-information alpha-beta after the request,
/// captures resolved at the leaves (see `board_search`). `Ok(None)` when `time_limit` ran out
/// first. Meant for small sets: the work grows with boards x requests.
pub fn board_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    plies: u32,
    time_limit: Option<Duration>,
) -> Result<Option<RequestBoardValues>, SearchError> {
    if plies > MAX_BOARD_PLIES {
        return Err(SearchError::InvalidConfig(format!(
            "plies must be at most {MAX_BOARD_PLIES}, got {plies}"
        )));
    }
    let requests = known_requests(boards, requests)?;
    let deadline = time_limit.map(|limit| Instant::now() + limit);
    let values = board_search::request_board_values(boards, &requests, plies, deadline);
    Ok(values.map(|rows| requests.into_iter().zip(rows).collect()))
}

/// Each request with its value on each board, in the boards' order.
pub type RequestBoardValues = Vec<(Option<Move>, Vec<i32>)>;

/// Deeper per-board searches take minutes per board; refuse them rather than hang.
pub const MAX_BOARD_PLIES: u32 = 8;

/// The value of information of each sense square for the next move: the expected best mean
/// one-reply outcome (as in [`mean_reply_values`]) over `requests` (default: [`root_requests`])
/// once the sense's result is known, and the best mean without sensing (see `sense_value`).
pub fn sense_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    leaf: LeafMode,
) -> Result<SenseValues, SearchError> {
    let requests = known_requests(boards, requests)?;
    if requests.is_empty() {
        return Err(SearchError::NoRequests);
    }
    Ok(sense_value::sense_values(boards, &requests, leaf))
}

/// `requests`, or the set's root requests when none are given; an error for a searchable set's
/// absence or for a request that is none of the set's move actions (resolution trusts that it is).
fn known_requests(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
) -> Result<Vec<Option<Move>>, SearchError> {
    let us = side_to_search(boards)?;
    let known = root_requests(boards, us);
    let Some(requests) = requests else {
        return Ok(known);
    };
    if let Some(unknown) = requests
        .iter()
        .flatten()
        .find(|m| !known.contains(&Some(**m)))
    {
        return Err(SearchError::UnknownRequest { uci: unknown.uci() });
    }
    Ok(requests)
}

/// Our side, if `boards` is a searchable set: not empty, one side to move, both kings present.
fn side_to_search(boards: &[Board]) -> Result<Color, SearchError> {
    let first = boards.first().ok_or(SearchError::EmptySet)?;
    let us = first.turn();
    if boards.iter().any(|b| b.turn() != us) {
        return Err(SearchError::MixedTurns);
    }
    if let Some(board) = boards.iter().find(|b| b.is_terminal()) {
        return Err(SearchError::MissingKing { fen: board.fen() });
    }
    Ok(us)
}

/// Root requests in move-action order, pass last: the union of the set's move actions.
pub fn root_requests(set: &[Board], us: Color) -> Vec<Option<Move>> {
    let mut requests: Vec<Option<Move>> = rules::union_of_move_actions(set, us)
        .into_iter()
        .map(Some)
        .collect();
    requests.push(None);
    requests
}
