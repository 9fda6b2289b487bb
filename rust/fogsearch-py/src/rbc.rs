//! Bindings for `fogsearch_core::chess` and `fogsearch_core::rbc`: the private `_core.BoardSet`
//! and FEN-level rule functions. Moves cross as UCI strings, pieces as (piece_type, is_white).

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use fogsearch_core::chess::{Board, Color, FenError, Move, Piece, PieceType, MAX_PERFT_DEPTH};
use fogsearch_core::pool;
use fogsearch_core::rbc::{self, BoardSet, OpponentModel, RbcError};
use fogsearch_core::stop::Stop;

use crate::errors::{detach_guarded, detach_interruptible, read, write, FogsearchError};
use crate::pickle;
use crate::submodule;

create_exception!(
    fogsearch,
    InvalidFenError,
    FogsearchError,
    "A FEN string could not be read."
);
create_exception!(
    fogsearch,
    IllegalRequestError,
    FogsearchError,
    "A requested move is not a move action."
);
create_exception!(
    fogsearch,
    InconsistentObservationError,
    FogsearchError,
    "No board in the set is consistent with the observation."
);
create_exception!(
    fogsearch,
    MalformedObservationError,
    FogsearchError,
    "An observation is malformed."
);
create_exception!(
    fogsearch,
    BoardSetTooLargeError,
    FogsearchError,
    "An update would grow a board set past its max_boards limit."
);

/// The error classes live in `fogsearch._core` (every area's errors in one place) and in
/// `fogsearch._core.rbc`, next to what raises them.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let errors = [
        ("InvalidFenError", py.get_type::<InvalidFenError>()),
        ("IllegalRequestError", py.get_type::<IllegalRequestError>()),
        (
            "InconsistentObservationError",
            py.get_type::<InconsistentObservationError>(),
        ),
        (
            "MalformedObservationError",
            py.get_type::<MalformedObservationError>(),
        ),
        (
            "BoardSetTooLargeError",
            py.get_type::<BoardSetTooLargeError>(),
        ),
    ];
    for (name, class) in &errors {
        m.add(*name, class)?;
    }
    submodule::add(m, "rbc", |m| {
        for (name, class) in &errors {
            m.add(*name, class)?;
        }
        m.add_class::<PyBoardSet>()?;
        m.add("MAX_PERFT_DEPTH", MAX_PERFT_DEPTH)?;
        m.add_function(wrap_pyfunction!(perft, m)?)?;
        m.add_function(wrap_pyfunction!(normalize_fen, m)?)?;
        m.add_function(wrap_pyfunction!(zobrist, m)?)?;
        m.add_function(wrap_pyfunction!(move_actions, m)?)?;
        m.add_function(wrap_pyfunction!(pseudo_legal_moves, m)?)?;
        m.add_function(wrap_pyfunction!(revise_move, m)?)?;
        m.add_function(wrap_pyfunction!(resolve_request, m)?)?;
        m.add_function(wrap_pyfunction!(push_move, m)?)?;
        m.add_function(wrap_pyfunction!(check_opponent_model, m)?)?;
        Ok(())
    })
}

fn fen_err(e: FenError) -> PyErr {
    InvalidFenError::new_err(e.to_string())
}

fn rbc_err(e: RbcError) -> PyErr {
    match e {
        RbcError::IllegalRequest(m) => IllegalRequestError::new_err(m),
        RbcError::InconsistentObservation(m) => InconsistentObservationError::new_err(m),
        RbcError::MalformedObservation(m) => MalformedObservationError::new_err(m),
        RbcError::TooLarge(m) => BoardSetTooLargeError::new_err(m),
        RbcError::Fen(e) => fen_err(e),
        RbcError::Corrupt(m) => FogsearchError::new_err(m),
        // A stop is only requested by Ctrl-C, whose KeyboardInterrupt replaces this error.
        RbcError::Interrupted => PyKeyboardInterrupt::new_err("board-set update stopped"),
    }
}

fn parse_board(fen: &str) -> PyResult<Board> {
    Board::from_fen(fen).map_err(fen_err)
}

fn parse_move(uci: &str) -> PyResult<Move> {
    Move::from_uci(uci).map_err(|e| MalformedObservationError::new_err(e.to_string()))
}

fn parse_optional_move(uci: Option<&str>) -> PyResult<Option<Move>> {
    uci.map(parse_move).transpose()
}

fn parse_piece(piece: Option<(u8, bool)>) -> PyResult<Option<Piece>> {
    piece
        .map(|(n, white)| {
            PieceType::from_number(n)
                .map(|t| Piece::new(t, Color::from_python_bool(white)))
                .ok_or_else(|| {
                    MalformedObservationError::new_err(format!("piece type {n} is not 1..6"))
                })
        })
        .transpose()
}

/// `(temperature_cp, uniform_share)` as the core's opponent model, or a ValueError naming the
/// setting out of bounds.
fn opponent_model_of(settings: (f64, f64)) -> PyResult<OpponentModel> {
    let (temperature_cp, uniform_share) = settings;
    OpponentModel::new(temperature_cp, uniform_share).map_err(PyValueError::new_err)
}

/// Checks the opponent model's two settings against the core's bounds (a ValueError naming the
/// one out of bounds), so that a configuration fails when it is made.
#[pyfunction]
fn check_opponent_model(settings: (f64, f64)) -> PyResult<()> {
    opponent_model_of(settings).map(|_| ())
}

/// Bulk-counted RBC pseudo-legal perft of `fen` to `depth`.
#[pyfunction]
fn perft(py: Python<'_>, fen: &str, depth: u32) -> PyResult<u64> {
    let board = parse_board(fen)?;
    // None only when stopped, and then the KeyboardInterrupt is what Python sees.
    detach_interruptible(py, move |stop| {
        board.perft_checked(depth, stop).map(|n| n.unwrap_or(0))
    })?
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The FEN as fogsearch stores it (e.p. square only where an e.p. capture is possible).
#[pyfunction]
fn normalize_fen(fen: &str) -> PyResult<String> {
    Ok(parse_board(fen)?.fen())
}

#[pyfunction]
fn zobrist(fen: &str) -> PyResult<u64> {
    Ok(parse_board(fen)?.zobrist())
}

#[pyfunction]
fn move_actions(fen: &str) -> PyResult<Vec<String>> {
    Ok(rbc::move_actions(&parse_board(fen)?)
        .iter()
        .map(Move::uci)
        .collect())
}

#[pyfunction]
fn pseudo_legal_moves(fen: &str) -> PyResult<Vec<String>> {
    Ok(parse_board(fen)?.moves().iter().map(Move::uci).collect())
}

#[pyfunction]
fn revise_move(fen: &str, uci: &str) -> PyResult<Option<String>> {
    let board = parse_board(fen)?;
    let taken = rbc::revise_request(&board, parse_move(uci)?).map_err(rbc_err)?;
    Ok(taken.map(|m| m.uci()))
}

/// `(taken_uci_or_None, capture_square_or_None)` for a request (`None` = pass) on `fen`.
#[pyfunction]
#[pyo3(signature = (fen, uci))]
fn resolve_request(fen: &str, uci: Option<&str>) -> PyResult<(Option<String>, Option<u8>)> {
    let board = parse_board(fen)?;
    let r = rbc::resolve_request(&board, parse_optional_move(uci)?).map_err(rbc_err)?;
    Ok((r.taken.map(|m| m.uci()), r.capture_square))
}

/// The FEN after making `uci` (`None` = null move) on `fen`; the move must be pseudo-legal.
#[pyfunction]
#[pyo3(signature = (fen, uci))]
fn push_move(fen: &str, uci: Option<&str>) -> PyResult<String> {
    let board = parse_board(fen)?;
    let after = rbc::after_taken_move(&board, parse_optional_move(uci)?).map_err(rbc_err)?;
    Ok(after.fen())
}

/// The information set of one RBC player (see `fogsearch.rbc.BoardSet`).
#[pyclass(name = "BoardSet", module = "fogsearch._core.rbc")]
pub struct PyBoardSet {
    inner: BoardSet,
    /// Worker threads for large updates; 1: the calling thread alone.
    threads: usize,
}

impl PyBoardSet {
    /// The boards, for a search or a copy.
    pub fn boards(&self) -> &[Board] {
        self.inner.boards()
    }

    /// Runs `f` on the set with the GIL released, in the shared pool of this set's threads when
    /// the set is large enough to split.
    fn run<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&BoardSet) -> T + Send) -> PyResult<T> {
        let inner = &self.inner;
        let threads = self.threads;
        detach_guarded(py, move || {
            pool::install_if_worth_it(threads, inner.would_use_threads(), || f(inner))
        })?
        .map_err(|e| FogsearchError::new_err(e.to_string()))
    }
}

/// Applies an update to `slf`'s set with the GIL released, stoppable by Ctrl-C. The core builds the
/// new set aside and swaps it in only on success, so a failed or stopped update leaves the set as
/// it was.
fn update(
    slf: &Bound<'_, PyBoardSet>,
    f: impl FnOnce(&mut BoardSet, &Stop) -> Result<(), RbcError> + Send,
) -> PyResult<()> {
    let mut this = write(slf)?;
    let threads = this.threads;
    let inner = &mut this.inner;
    let large = inner.would_use_threads();
    detach_interruptible(slf.py(), move |stop| {
        pool::install_if_worth_it(threads, large, || f(inner, stop))
    })?
    .map_err(|e| FogsearchError::new_err(e.to_string()))?
    .map_err(rbc_err)
}

#[pymethods]
impl PyBoardSet {
    #[new]
    #[pyo3(signature = (white, fens=None, threads=None, max_boards=None))]
    fn new(
        py: Python<'_>,
        white: bool,
        fens: Option<Vec<String>>,
        threads: Option<usize>,
        max_boards: Option<usize>,
    ) -> PyResult<Self> {
        let threads = pool::threads_or_all_cores(threads)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let color = Color::from_python_bool(white);
        let mut inner = match fens {
            None => BoardSet::start(color),
            Some(fens) => {
                detach_guarded(py, move || BoardSet::from_fens(color, &fens))?.map_err(rbc_err)?
            }
        };
        inner.set_max_boards(max_boards).map_err(rbc_err)?;
        Ok(PyBoardSet { inner, threads })
    }

    #[getter]
    fn max_boards(slf: &Bound<'_, Self>) -> PyResult<Option<usize>> {
        Ok(read(slf)?.inner.max_boards())
    }

    #[getter]
    fn threads(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.threads)
    }

    #[getter]
    fn white(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.inner.color() == Color::White)
    }

    fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.len())
    }

    fn contains_fen(slf: &Bound<'_, Self>, fen: &str) -> PyResult<bool> {
        read(slf)?.inner.contains_fen(fen).map_err(rbc_err)
    }

    fn fens(slf: &Bound<'_, Self>) -> PyResult<Vec<String>> {
        read(slf)?.run(slf.py(), |s| s.boards().iter().map(Board::fen).collect())
    }

    /// The FEN of the board at `index` (in the set's order).
    fn fen_at(slf: &Bound<'_, Self>, index: usize) -> PyResult<String> {
        let this = read(slf)?;
        let boards = this.inner.boards();
        boards.get(index).map(Board::fen).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "board index {index} is outside the set's {} boards",
                boards.len()
            ))
        })
    }

    /// The most half-moves any board has gone without a capture or a pawn move.
    fn max_halfmove_clock(slf: &Bound<'_, Self>) -> PyResult<u32> {
        Ok(read(slf)?.inner.max_halfmove_clock())
    }

    fn zobrist_keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let keys = read(slf)?.run(slf.py(), BoardSet::keys)?;
        Ok(keys.into_pyarray(slf.py()))
    }

    #[pyo3(signature = (captured_my_piece, capture_square))]
    fn handle_opponent_move_result(
        slf: &Bound<'_, Self>,
        captured_my_piece: bool,
        capture_square: Option<u8>,
    ) -> PyResult<()> {
        update(slf, move |s, stop| {
            s.handle_opponent_move_result_stoppable(captured_my_piece, capture_square, stop)
        })
    }

    /// `result`: `(square, (piece_type, is_white) | None)` pairs.
    fn handle_sense_result(
        slf: &Bound<'_, Self>,
        result: Vec<(u8, Option<(u8, bool)>)>,
    ) -> PyResult<()> {
        let parsed = result
            .into_iter()
            .map(|(sq, piece)| Ok((sq, parse_piece(piece)?)))
            .collect::<PyResult<Vec<_>>>()?;
        update(slf, move |s, _| s.handle_sense_result(&parsed))
    }

    #[pyo3(signature = (requested, taken, captured_opponent_piece, capture_square))]
    fn handle_move_result(
        slf: &Bound<'_, Self>,
        requested: Option<&str>,
        taken: Option<&str>,
        captured_opponent_piece: bool,
        capture_square: Option<u8>,
    ) -> PyResult<()> {
        let requested = parse_optional_move(requested)?;
        let taken = parse_optional_move(taken)?;
        update(slf, move |s, _| {
            s.handle_move_result(requested, taken, captured_opponent_piece, capture_square)
        })
    }

    /// Keeps a weight per board under the opponent model `(temperature_cp, uniform_share)` from
    /// now on, every board equally likely now; `None` drops the weights.
    #[pyo3(signature = (model))]
    fn set_opponent_model(slf: &Bound<'_, Self>, model: Option<(f64, f64)>) -> PyResult<()> {
        let model = model.map(opponent_model_of).transpose()?;
        write(slf)?.inner.set_opponent_model(model);
        Ok(())
    }

    /// `(temperature_cp, uniform_share)` of the opponent model, or `None`.
    fn opponent_model(slf: &Bound<'_, Self>) -> PyResult<Option<(f64, f64)>> {
        Ok(read(slf)?
            .inner
            .opponent_model()
            .map(|m| (m.temperature_cp, m.uniform_share)))
    }

    /// Each board's probability, in the set's order (equal without a model).
    fn weights<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let weights = read(slf)?.inner.weights();
        Ok(weights.into_pyarray(slf.py()))
    }

    /// Per square, the share of boards (weighted by `weights` when given, one per board) in each
    /// of the 13 states (empty, White pawn … king, Black pawn … king): a (64, 13) array.
    #[pyo3(signature = (weights=None))]
    fn square_distribution<'py>(
        slf: &Bound<'py, Self>,
        weights: Option<PyReadonlyArray1<'py, f64>>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let weights = weights.map(|w| w.as_array().to_vec());
        let rows = read(slf)?
            .run(slf.py(), move |s| match &weights {
                None => Ok(s.square_distribution()),
                Some(w) => s.square_distribution_weighted(w),
            })?
            .map_err(rbc_err)?;
        let flat: Vec<f64> = rows.into_iter().flatten().collect();
        flat.into_pyarray(slf.py())
            .reshape([64, rbc::SQUARE_STATES])
    }

    /// `[(square, expected boards left)]` for the 36 non-edge sense squares.
    fn sense_stats(slf: &Bound<'_, Self>) -> PyResult<Vec<(u8, f64)>> {
        read(slf)?.run(slf.py(), BoardSet::sense_stats)
    }

    /// How many boards have our king in check.
    fn boards_in_check(slf: &Bound<'_, Self>) -> PyResult<usize> {
        read(slf)?.run(slf.py(), BoardSet::boards_in_check)
    }

    /// The boards at `indices` (in that order, repeats kept once) as a new set.
    fn subset(slf: &Bound<'_, Self>, indices: Vec<usize>) -> PyResult<Self> {
        let this = read(slf)?;
        let inner = this.inner.subset(&indices).map_err(rbc_err)?;
        Ok(PyBoardSet {
            inner,
            threads: this.threads,
        })
    }

    fn copy(slf: &Bound<'_, Self>) -> PyResult<Self> {
        let this = read(slf)?;
        Ok(PyBoardSet {
            inner: this.inner.clone(),
            threads: this.threads,
        })
    }

    fn to_bytes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = read(slf)?.run(slf.py(), BoardSet::to_bytes)?;
        Ok(PyBytes::new(slf.py(), &bytes))
    }

    /// The set encoded by `to_bytes` (threads: all cores).
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: Vec<u8>) -> PyResult<Self> {
        let inner = detach_guarded(py, move || BoardSet::from_bytes(&data))?.map_err(rbc_err)?;
        Ok(PyBoardSet {
            inner,
            threads: pool::threads_or_all_cores(None)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes = read(slf)?.run(slf.py(), BoardSet::to_bytes)?;
        pickle::reduce::<Self>(slf.py(), &bytes)
    }
}
