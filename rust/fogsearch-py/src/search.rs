//! Bindings for `fogsearch_core::search`, as the submodule `fogsearch._core.search`: the board set
//! crosses as the native set (or FENs), the configuration as one object read by attribute name,
//! and results come back as plain Python values (`fogsearch.search` builds the result types).

use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use fogsearch_core::chess::{Board, Color, Move};
use fogsearch_core::search::{
    self, BoundRule, EngineJudge, LeafMode, Mode, RbcSearchConfig, SearchResult, Searcher,
    SenseMode,
};
use fogsearch_core::stop::{Limits, Stop};

use crate::errors::{detach_guarded, detach_interruptible, read, write, FogsearchError};
use crate::rbc::PyBoardSet;
use crate::submodule;

create_exception!(
    fogsearch,
    SearchError,
    FogsearchError,
    "A search could not run: a bad configuration or an unsearchable board set."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SearchError", py.get_type::<SearchError>())?;
    submodule::add(m, "search", |m| {
        m.add("SearchError", py.get_type::<SearchError>())?;
        m.add("MAX_DEPTH", search::MAX_DEPTH)?;
        m.add("MAX_BOARD_PLIES", search::MAX_BOARD_PLIES)?;
        m.add("MATE", search::MATE)?;
        m.add("MATE_BOUND", search::MATE_BOUND)?;
        m.add("MATED", search::MATED)?;
        m.add("KING_LOST_IN_SEARCH", search::KING_LOST_IN_SEARCH)?;
        m.add("PIECE_VALUES", search::PIECE_VALUES.to_vec())?;
        m.add(
            "MATERIAL_POINTS",
            fogsearch_core::chess::MATERIAL_POINTS.to_vec(),
        )?;
        m.add_function(wrap_pyfunction!(default_config, m)?)?;
        m.add_function(wrap_pyfunction!(check_config, m)?)?;
        m.add_function(wrap_pyfunction!(search_information_set, m)?)?;
        m.add_class::<PySearcher>()?;
        m.add_class::<PyEngineJudge>()?;
        m.add_function(wrap_pyfunction!(mean_reply_values, m)?)?;
        m.add_function(wrap_pyfunction!(sense_values, m)?)?;
        m.add_function(wrap_pyfunction!(board_values, m)?)?;
        m.add_function(wrap_pyfunction!(board_table, m)?)?;
        m.add_function(wrap_pyfunction!(decision_sense_values, m)?)?;
        m.add_function(wrap_pyfunction!(evaluate_fen, m)?)?;
        m.add_function(wrap_pyfunction!(king_danger_fen, m)?)?;
        m.add_function(wrap_pyfunction!(piece_square_tables, m)?)?;
        Ok(())
    })
}

/// The boards a search is given: a native `BoardSet` (copied board by board, no FEN round trip)
/// or a list of FEN strings.
struct Boards(Vec<Board>);

impl<'a, 'py> FromPyObject<'a, 'py> for Boards {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(set) = obj.cast::<PyBoardSet>() {
            return Ok(Boards(read(&set)?.boards().to_vec()));
        }
        let fens: Vec<String> = obj.extract().map_err(|_| {
            SearchError::new_err("boards must be a fogsearch._core.rbc.BoardSet or a list of FENs")
        })?;
        let boards = fens
            .iter()
            .enumerate()
            .map(|(index, fen)| {
                Board::from_fen(fen)
                    .map_err(|e| SearchError::new_err(format!("board {index} of the set: {e}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Boards(boards))
    }
}

/// A `fogsearch.search.SearchConfig` (any object with its attributes), read and validated.
struct Config(RbcSearchConfig);

impl<'a, 'py> FromPyObject<'a, 'py> for Config {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        let time_limit =
            match setting::<Option<f64>>(&obj, "time_limit", "a number of seconds or None")? {
                None => None,
                Some(seconds) => {
                    Some(RbcSearchConfig::time_limit_from_seconds(seconds).map_err(search_error)?)
                }
            };
        let config = RbcSearchConfig {
            mode: Mode::from_name(&setting::<String>(&obj, "mode", "a string")?)
                .map_err(search_error)?,
            threshold: setting(&obj, "threshold", "a number")?,
            bound_rule: BoundRule::from_name(&setting::<String>(&obj, "bound_rule", "a string")?)
                .map_err(search_error)?,
            k: setting(&obj, "k", "a positive integer")?,
            sketch_width: setting(&obj, "sketch_width", "a positive integer")?,
            sketch_depth: setting(&obj, "sketch_depth", "a positive integer")?,
            table_size: setting(&obj, "table_size", "a positive integer")?,
            sketch_min_depth: setting(&obj, "sketch_min_depth", "a positive integer")?,
            table_entries: setting(&obj, "table_entries", "a positive integer")?,
            reply_entries: setting(&obj, "reply_entries", "a positive integer")?,
            sense_mode: SenseMode::from_name(&setting::<String>(&obj, "sense_mode", "a string")?)
                .map_err(search_error)?,
            leaf: LeafMode::from_name(&setting::<String>(&obj, "leaf", "a string")?)
                .map_err(search_error)?,
            uci_engine: setting(&obj, "uci_engine", "a string (an engine's name or path)")?,
            uci_depth: setting(&obj, "uci_depth", "a positive integer")?,
            uci_nodes: setting(&obj, "uci_nodes", "an integer, 0 or more")?,
            threads: setting(&obj, "threads", "a positive integer")?,
            time_limit,
            root_margin: setting(
                &obj,
                "root_margin",
                "an integer of centipawns, 0 or more, or None",
            )?,
            seed: setting(&obj, "seed", "an integer in [0, 2**64)")?,
        };
        config.validate().map_err(search_error)?;
        Ok(Config(config))
    }
}

/// The setting `name` of `obj` as a `T`; a message naming the setting and what it must be when it
/// is not one (a bool is no number here, though Python counts it as an int).
fn setting<T>(obj: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<T>
where
    T: for<'a, 'py> FromPyObject<'a, 'py>,
{
    let value = obj.getattr(name)?;
    let bad = || {
        let shown = value
            .repr()
            .map_or_else(|_| "?".to_string(), |r| r.to_string());
        SearchError::new_err(format!(
            "invalid search config: {name} must be {what}, got {shown}"
        ))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    value.extract::<T>().map_err(|_| bad())
}

/// The defaults of every setting, by name: the one place they are written is the core.
#[pyfunction]
fn default_config(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let c = RbcSearchConfig::default();
    let out = PyDict::new(py);
    out.set_item("mode", c.mode.name())?;
    out.set_item("threshold", c.threshold)?;
    out.set_item("bound_rule", c.bound_rule.name())?;
    out.set_item("k", c.k)?;
    out.set_item("sketch_width", c.sketch_width)?;
    out.set_item("sketch_depth", c.sketch_depth)?;
    out.set_item("table_size", c.table_size)?;
    out.set_item("sketch_min_depth", c.sketch_min_depth)?;
    out.set_item("table_entries", c.table_entries)?;
    out.set_item("reply_entries", c.reply_entries)?;
    out.set_item("sense_mode", c.sense_mode.name())?;
    out.set_item("leaf", c.leaf.name())?;
    out.set_item("uci_engine", &c.uci_engine)?;
    out.set_item("uci_depth", c.uci_depth)?;
    out.set_item("uci_nodes", c.uci_nodes)?;
    out.set_item("threads", c.threads)?;
    out.set_item("time_limit", c.time_limit.map(|d| d.as_secs_f64()))?;
    out.set_item("root_margin", c.root_margin)?;
    out.set_item("seed", c.seed)?;
    Ok(out)
}

/// Raises `SearchError` naming the first setting of `config` that is out of its bounds.
#[pyfunction]
fn check_config(config: Config) {
    let _ = config;
}

/// Searches `boards` (all ours to move) with a fresh searcher and returns a dict with
/// `best_move` (UCI or None for a pass), `value`, `move_values` (list of (UCI or "0000", value)),
/// `below_margin` (UCI), `depth`, `stats`, `timeline`. Ctrl-C stops it.
#[pyfunction]
#[pyo3(name = "search")]
fn search_information_set<'py>(
    py: Python<'py>,
    boards: Boards,
    depth: u32,
    config: Config,
) -> PyResult<Bound<'py, PyDict>> {
    let (boards, config) = (boards.0, config.0);
    let result = detach_interruptible(py, move |stop| {
        search::search_stoppable(&boards, depth, &config, stop)
    })?
    .map_err(search_error)?;
    result_dict(py, &result)
}

/// A search engine that keeps its tables from one search to the next (see
/// `fogsearch_core::search::Searcher`).
#[pyclass(name = "Searcher", module = "fogsearch._core.search")]
struct PySearcher {
    inner: Searcher,
}

#[pymethods]
impl PySearcher {
    #[new]
    fn new(config: Config) -> PyResult<Self> {
        let inner = Searcher::new(config.0).map_err(search_error)?;
        Ok(PySearcher { inner })
    }

    /// Searches `boards` `depth` deep within `time_limit` seconds (None: exactly `depth`), using
    /// and filling the kept tables; the same dict as `search`. Ctrl-C stops it.
    #[pyo3(signature = (boards, depth, time_limit=None))]
    fn search<'py>(
        slf: &Bound<'py, Self>,
        boards: Boards,
        depth: u32,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let time_limit = time_limit
            .map(RbcSearchConfig::time_limit_from_seconds)
            .transpose()
            .map_err(search_error)?;
        let mut this = write(slf)?;
        let inner = &mut this.inner;
        let boards = boards.0;
        let result = detach_interruptible(py, move |stop| {
            inner.search_within(&boards, depth, time_limit, stop)
        })?
        .map_err(search_error)?;
        result_dict(py, &result)
    }

    /// Empties the tables (the configuration stays).
    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.inner.clear();
        Ok(())
    }

    /// `{"sets", "replies", "sketch_entries"}`: how many entries each table holds.
    fn table_sizes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let sizes = read(slf)?.inner.table_sizes();
        let out = PyDict::new(slf.py());
        out.set_item("sets", sizes.sets)?;
        out.set_item("replies", sizes.replies)?;
        out.set_item("sketch_entries", sizes.sketch_entries)?;
        Ok(out)
    }
}

fn result_dict<'py>(py: Python<'py>, result: &SearchResult) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("best_move", result.best_move.map(|m| m.uci()))?;
    out.set_item("value", result.value)?;
    let move_values: Vec<(String, i32)> = result
        .move_values
        .iter()
        .map(|&(m, v)| (uci(m), v))
        .collect();
    out.set_item("move_values", move_values)?;
    let below_margin: Vec<String> = result.below_margin.iter().map(|&m| uci(m)).collect();
    out.set_item("below_margin", below_margin)?;
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
    let timeline: Vec<(u32, String, i32, bool, u64, f64)> = result
        .timeline
        .iter()
        .map(|c| {
            (
                c.depth,
                uci(c.request),
                c.value,
                c.exact,
                c.nodes,
                c.seconds,
            )
        })
        .collect();
    out.set_item("timeline", timeline)?;
    Ok(out)
}

/// `[(uci or "0000", mean)]`: per request (default: the set's root requests, pass last), the mean
/// over the boards of its one-reply outcome (see `fogsearch_core::search::mean_reply_values`).
#[pyfunction]
#[pyo3(signature = (boards, requests=None, leaf="static", mate_threats=false))]
fn mean_reply_values(
    py: Python<'_>,
    boards: Boards,
    requests: Option<Vec<Option<String>>>,
    leaf: &str,
    mate_threats: bool,
) -> PyResult<Vec<(String, f64)>> {
    let leaf = LeafMode::from_name(leaf).map_err(search_error)?;
    let requests = parse_requests(requests)?;
    let boards = boards.0;
    let means = detach_guarded(py, move || {
        search::mean_reply_values(&boards, requests, leaf, mate_threats)
    })?
    .map_err(search_error)?;
    Ok(means.into_iter().map(|(m, mean)| (uci(m), mean)).collect())
}

/// `(unsensed, [(square, value)])`: the expected best mean one-reply outcome after sensing each
/// of b2..g7, and without a sense (see `fogsearch_core::search::sense_values`).
#[pyfunction]
#[pyo3(signature = (boards, requests=None, leaf="static"))]
fn sense_values(
    py: Python<'_>,
    boards: Boards,
    requests: Option<Vec<Option<String>>>,
    leaf: &str,
) -> PyResult<(f64, Vec<(u8, f64)>)> {
    let leaf = LeafMode::from_name(leaf).map_err(search_error)?;
    let requests = parse_requests(requests)?;
    let boards = boards.0;
    let values = detach_guarded(py, move || search::sense_values(&boards, requests, leaf))?
        .map_err(search_error)?;
    Ok((values.unsensed, values.by_square))
}

/// A time limit in seconds, checked as every search's is.
fn time_limit_of(seconds: Option<f64>) -> PyResult<Option<std::time::Duration>> {
    seconds
        .map(RbcSearchConfig::time_limit_from_seconds)
        .transpose()
        .map_err(search_error)
}

/// Limits that stop at `stop` or once `time_limit` has passed from now (on the worker thread,
/// so converting the arguments does not count against it).
fn limits_from_now(stop: &Stop, time_limit: Option<std::time::Duration>) -> Limits<'_> {
    Limits::new(
        stop,
        time_limit.map(|limit| std::time::Instant::now() + limit),
    )
}

/// A request (UCI or "0000") with its value on each board.
type UciBoardValues = (String, Vec<i32>);

/// `[(uci or "0000", [value per board])]`, or None when `time_limit` ran out: each request's
/// perfect-information value on each board (see `fogsearch_core::search::board_values`). Ctrl-C
/// stops it.
#[pyfunction]
#[pyo3(signature = (boards, requests=None, plies=4, time_limit=None))]
fn board_values(
    py: Python<'_>,
    boards: Boards,
    requests: Option<Vec<Option<String>>>,
    plies: u32,
    time_limit: Option<f64>,
) -> PyResult<Option<Vec<UciBoardValues>>> {
    let time_limit = time_limit_of(time_limit)?;
    let requests = parse_requests(requests)?;
    let boards = boards.0;
    let values = detach_interruptible(py, move |stop| {
        search::board_values(&boards, requests, plies, limits_from_now(stop, time_limit))
    })?
    .map_err(search_error)?;
    Ok(values.map(|rows| rows.into_iter().map(|(m, row)| (uci(m), row)).collect()))
}

/// The pieces of a board table: the requests (UCI or "0000"), values `(requests, boards)`, the
/// plies searched per board, and the nodes visited.
type TableParts<'py> = (
    Vec<String>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray1<i32>>,
    u64,
);

/// Each request's perfect-information value on each board, deepened over all boards together
/// within `time_limit` (see `fogsearch_core::search::board_table`). Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (boards, requests=None, least_plies=0, most_plies=4, threads=1, time_limit=None))]
fn board_table<'py>(
    py: Python<'py>,
    boards: Boards,
    requests: Option<Vec<Option<String>>>,
    least_plies: Option<u32>,
    most_plies: u32,
    threads: usize,
    time_limit: Option<f64>,
) -> PyResult<TableParts<'py>> {
    table_parts(
        py,
        boards,
        requests,
        time_limit,
        move |boards, requests, limits| {
            search::board_table(boards, requests, least_plies, most_plies, threads, limits)
        },
    )
}

/// A table of `requests` (UCI; default: the root requests) on `boards`, computed by `compute`
/// with the GIL released within `time_limit` seconds (Ctrl-C stops it), as `TableParts`.
fn table_parts<'py, F>(
    py: Python<'py>,
    boards: Boards,
    requests: Option<Vec<Option<String>>>,
    time_limit: Option<f64>,
    compute: F,
) -> PyResult<TableParts<'py>>
where
    F: FnOnce(
            &[Board],
            Option<Vec<Option<Move>>>,
            Limits<'_>,
        ) -> Result<(Vec<Option<Move>>, search::BoardTable), search::SearchError>
        + Send,
{
    let time_limit = time_limit_of(time_limit)?;
    let requests = parse_requests(requests)?;
    let boards = boards.0;
    let count = boards.len();
    let (requests, table) = detach_interruptible(py, move |stop| {
        compute(&boards, requests, limits_from_now(stop, time_limit))
    })?
    .map_err(search_error)?;
    let values = table
        .values
        .into_pyarray(py)
        .reshape([requests.len(), count])?;
    Ok((
        requests.into_iter().map(uci).collect(),
        values,
        table.plies.into_pyarray(py),
        table.nodes,
    ))
}

/// A UCI engine judging each request on each board (see
/// `fogsearch_core::search::EngineJudge`), its engines and cache kept between calls.
#[pyclass(name = "EngineJudge", module = "fogsearch._core.search", frozen)]
struct PyEngineJudge {
    inner: std::sync::Arc<EngineJudge>,
}

#[pymethods]
impl PyEngineJudge {
    #[new]
    #[pyo3(signature = (engine="stockfish", depth=8, nodes=0))]
    fn new(engine: &str, depth: u32, nodes: u64) -> PyResult<Self> {
        let inner = EngineJudge::new(engine, depth, nodes).map_err(search_error)?;
        Ok(PyEngineJudge {
            inner: std::sync::Arc::new(inner),
        })
    }

    /// The same parts as `board_table`, `threads` engines at once, within `time_limit`
    /// seconds. Ctrl-C stops it.
    #[pyo3(signature = (boards, requests=None, threads=1, time_limit=None))]
    fn table<'py>(
        &self,
        py: Python<'py>,
        boards: Boards,
        requests: Option<Vec<Option<String>>>,
        threads: usize,
        time_limit: Option<f64>,
    ) -> PyResult<TableParts<'py>> {
        let judge = std::sync::Arc::clone(&self.inner);
        table_parts(
            py,
            boards,
            requests,
            time_limit,
            move |boards, requests, limits| judge.table(boards, requests, threads, limits),
        )
    }
}

/// `(unsensed, [(square, value)])`: the expected best compound score (weighted mean and minimum
/// of `utilities`, one row per request) after each sense of b2..g7, and without one (see
/// `fogsearch_core::search::decision_sense_values`).
#[pyfunction]
fn decision_sense_values(
    py: Python<'_>,
    boards: Boards,
    utilities: PyReadonlyArray2<'_, f64>,
    weights: PyReadonlyArray1<'_, f64>,
    mean_weight: f64,
) -> PyResult<(f64, Vec<(u8, f64)>)> {
    let shape = utilities.shape().to_vec();
    if shape[1] != boards.0.len() {
        return Err(SearchError::new_err(format!(
            "utilities must have one column per board ({}), got shape {shape:?}",
            boards.0.len()
        )));
    }
    let utilities = utilities.as_array().iter().copied().collect::<Vec<f64>>();
    let weights = weights.as_array().iter().copied().collect::<Vec<f64>>();
    let boards = boards.0;
    let values = detach_guarded(py, move || {
        search::decision_sense_values(&boards, &utilities, &weights, mean_weight)
    })?
    .map_err(search_error)?;
    Ok((values.unsensed, values.by_square))
}

fn search_error(error: search::SearchError) -> PyErr {
    match error {
        // A stop is only requested by Ctrl-C, whose KeyboardInterrupt replaces this error.
        search::SearchError::Interrupted => PyKeyboardInterrupt::new_err(error.to_string()),
        other => SearchError::new_err(other.to_string()),
    }
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
                        .map_err(|e| SearchError::new_err(format!("request {text:?}: {e}"))),
                })
                .collect::<PyResult<Vec<_>>>()
        })
        .transpose()
}

fn uci(m: Option<Move>) -> String {
    m.map_or_else(|| "0000".to_string(), |m| m.uci())
}

fn parse_board(fen: &str) -> PyResult<Board> {
    Board::from_fen(fen).map_err(|e| SearchError::new_err(e.to_string()))
}

/// The static evaluation of one board from the side to move's point of view (centipawns).
#[pyfunction]
fn evaluate_fen(fen: &str) -> PyResult<i32> {
    let board = parse_board(fen)?;
    Ok(search::evaluate(&board, board.turn()))
}

/// `(white, black)`: how exposed each king stands on one board, as the `king_safety` leaf scores
/// it (centipawns, 0 or more).
#[pyfunction]
fn king_danger_fen(fen: &str) -> PyResult<(i32, i32)> {
    let board = parse_board(fen)?;
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
