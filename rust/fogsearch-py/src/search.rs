//! Bindings for `fogsearch_core::search`: converts FENs and the config, searches with the GIL
//! released, and returns plain Python values (the `fogsearch.search` module builds the result types).

use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::chess::{Board, Color, Move};
use fogsearch_core::search::{self, CacheMode, LeafMode, SearchConfig, SenseMode};

use crate::errors::{detach_guarded, FogsearchError};

create_exception!(
    fogsearch,
    SearchError,
    FogsearchError,
    "A search could not run: a bad configuration or an unsearchable board set."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SearchError", m.py().get_type::<SearchError>())?;
    m.add_function(wrap_pyfunction!(search_information_set, m)?)?;
    m.add_function(wrap_pyfunction!(mean_reply_values, m)?)?;
    m.add_function(wrap_pyfunction!(sense_values, m)?)?;
    m.add_function(wrap_pyfunction!(board_values, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_fen, m)?)?;
    m.add_function(wrap_pyfunction!(king_danger_fen, m)?)?;
    m.add_function(wrap_pyfunction!(piece_square_tables, m)?)?;
    Ok(())
}

fn parse_boards(fens: &[String]) -> PyResult<Vec<Board>> {
    fens.iter()
        .enumerate()
        .map(|(index, fen)| {
            Board::from_fen(fen)
                .map_err(|e| PyValueError::new_err(format!("board {index} of the set: {e}")))
        })
        .collect()
}

/// Searches the set given by `fens` (all ours to move) and returns a dict with `best_move` (UCI or
/// None for a pass), `value`, `move_values` (list of (UCI or "0000", value)), `depth`, `stats`.
#[pyfunction]
#[pyo3(signature = (fens, depth, mode, threshold, k, sketch_width, sketch_depth, table_size, sense_mode, leaf, threads, time_limit, seed))]
#[allow(clippy::too_many_arguments)]
fn search_information_set<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    depth: u32,
    mode: &str,
    threshold: f64,
    k: usize,
    sketch_width: usize,
    sketch_depth: usize,
    table_size: usize,
    sense_mode: &str,
    leaf: &str,
    threads: usize,
    time_limit: Option<f64>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let time_limit = duration(time_limit)
        .map_err(|message| SearchError::new_err(format!("invalid search config: {message}")))?;
    let config = SearchConfig {
        mode: CacheMode::from_name(mode).map_err(search_error)?,
        threshold,
        k,
        sketch_width,
        sketch_depth,
        table_size,
        sense_mode: SenseMode::from_name(sense_mode).map_err(search_error)?,
        leaf: LeafMode::from_name(leaf).map_err(search_error)?,
        threads,
        time_limit,
        seed,
    };
    config.validate().map_err(search_error)?;
    let boards = parse_boards(&fens)?;
    let result = detach_guarded(py, move || search::search(&boards, depth, &config))?
        .map_err(search_error)?;

    let out = PyDict::new(py);
    out.set_item("best_move", result.best_move.map(|m| m.uci()))?;
    out.set_item("value", result.value)?;
    let move_values: Vec<(String, i32)> = result
        .move_values
        .iter()
        .map(|&(m, v)| (uci(m), v))
        .collect();
    out.set_item("move_values", move_values)?;
    out.set_item("depth", result.depth)?;
    let stats = PyDict::new(py);
    stats.set_item("nodes", result.stats.nodes)?;
    stats.set_item("leaf_evaluations", result.stats.leaf_evaluations)?;
    stats.set_item("bounds_used", result.stats.bounds_used)?;
    stats.set_item("bound_cutoffs", result.stats.bound_cutoffs)?;
    stats.set_item("table_hits", result.stats.table_hits)?;
    stats.set_item("reply_table_hits", result.stats.reply_table_hits)?;
    stats.set_item("elapsed_seconds", result.stats.elapsed_seconds)?;
    out.set_item("stats", stats)?;
    Ok(out)
}

/// `[(uci or "0000", mean)]`: per request (default: the set's root requests, pass last), the mean
/// over the boards of its one-reply outcome (see `fogsearch_core::search::mean_reply_values`).
#[pyfunction]
#[pyo3(signature = (fens, requests=None, leaf="static", mate_threats=false))]
fn mean_reply_values(
    py: Python<'_>,
    fens: Vec<String>,
    requests: Option<Vec<Option<String>>>,
    leaf: &str,
    mate_threats: bool,
) -> PyResult<Vec<(String, f64)>> {
    let leaf = parse_leaf(leaf)?;
    let boards = parse_boards(&fens)?;
    let requests = parse_requests(requests)?;
    let means = detach_guarded(py, move || {
        search::mean_reply_values(&boards, requests, leaf, mate_threats)
    })?
    .map_err(search_error)?;
    Ok(means.into_iter().map(|(m, mean)| (uci(m), mean)).collect())
}

/// `(unsensed, [(square, value)])`: the expected best mean one-reply outcome after sensing each
/// of b2..g7, and without a sense (see `fogsearch_core::search::sense_values`).
#[pyfunction]
#[pyo3(signature = (fens, requests=None, leaf="static"))]
fn sense_values(
    py: Python<'_>,
    fens: Vec<String>,
    requests: Option<Vec<Option<String>>>,
    leaf: &str,
) -> PyResult<(f64, Vec<(u8, f64)>)> {
    let leaf = parse_leaf(leaf)?;
    let boards = parse_boards(&fens)?;
    let requests = parse_requests(requests)?;
    let values = detach_guarded(py, move || search::sense_values(&boards, requests, leaf))?
        .map_err(search_error)?;
    Ok((values.unsensed, values.by_square))
}

/// A request (UCI or "0000") with its value on each board.
type UciBoardValues = (String, Vec<i32>);

/// `[(uci or "0000", [value per board])]`, or None when `time_limit` ran out: each request's
/// perfect-information value on each board (see `fogsearch_core::search::board_values`).
#[pyfunction]
#[pyo3(signature = (fens, requests=None, plies=4, time_limit=None))]
fn board_values(
    py: Python<'_>,
    fens: Vec<String>,
    requests: Option<Vec<Option<String>>>,
    plies: u32,
    time_limit: Option<f64>,
) -> PyResult<Option<Vec<UciBoardValues>>> {
    let time_limit = duration(time_limit).map_err(PyValueError::new_err)?;
    let boards = parse_boards(&fens)?;
    let requests = parse_requests(requests)?;
    let values = detach_guarded(py, move || {
        search::board_values(&boards, requests, plies, time_limit)
    })?
    .map_err(search_error)?;
    Ok(values.map(|rows| rows.into_iter().map(|(m, row)| (uci(m), row)).collect()))
}

/// A time limit in seconds as a duration; the message names a non-positive or non-finite one.
fn duration(seconds: Option<f64>) -> Result<Option<Duration>, String> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(format!(
            "time_limit must be a positive number of seconds, got {s}"
        )),
    }
}

fn parse_leaf(leaf: &str) -> PyResult<LeafMode> {
    LeafMode::from_name(leaf).map_err(search_error)
}

fn search_error(error: search::SearchError) -> PyErr {
    SearchError::new_err(error.to_string())
}

/// UCI requests ("0000" or None for a pass) as moves.
fn parse_requests(requests: Option<Vec<Option<String>>>) -> PyResult<Option<Vec<Option<Move>>>> {
    requests
        .map(|ucis| {
            ucis.iter()
                .map(|uci| match uci.as_deref() {
                    None | Some("0000") => Ok(None),
                    Some(text) => Move::from_uci(text)
                        .map(Some)
                        .map_err(|e| PyValueError::new_err(format!("request {text:?}: {e}"))),
                })
                .collect::<PyResult<Vec<_>>>()
        })
        .transpose()
}

fn uci(m: Option<Move>) -> String {
    m.map_or_else(|| "0000".to_string(), |m| m.uci())
}

/// The static evaluation of one board from the side to move's point of view (centipawns).
#[pyfunction]
fn evaluate_fen(fen: &str) -> PyResult<i32> {
    let board = Board::from_fen(fen).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(search::evaluate(&board, board.turn()))
}

/// `(white, black)`: how exposed each king stands on one board, as the `king_safety` leaf scores
/// it (centipawns, 0 or more).
#[pyfunction]
fn king_danger_fen(fen: &str) -> PyResult<(i32, i32)> {
    let board = Board::from_fen(fen).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        search::king_danger(&board, Color::White),
        search::king_danger(&board, Color::Black),
    ))
}

/// `(piece_values, tables)`: material by piece type (pawn .. king) and, per piece type, the 64
/// placement bonuses of a White piece (a1 = 0); Black's are mirrored (`square ^ 56`).
#[pyfunction]
fn piece_square_tables() -> (Vec<i32>, Vec<Vec<i32>>) {
    let tables = fogsearch_core::chess::PieceType::ALL
        .iter()
        .map(|&pt| {
            (0..64u8)
                .map(|sq| search::piece_square_table(pt, sq))
                .collect()
        })
        .collect();
    (search::PIECE_VALUES.to_vec(), tables)
}
