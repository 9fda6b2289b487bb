//! Bindings for `fogsearch_core::chess` and `fogsearch_core::rbc`: the private `_core.BoardSet`
//! and FEN-level rule functions. Moves cross as UCI strings, pieces as (piece_type, is_white).

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray1};
use pyo3::create_exception;
use pyo3::prelude::*;

use fogsearch_core::chess::{Board, Color, FenError, Move, Piece, PieceType};
use fogsearch_core::rbc::{self, BoardSet, RbcError};

use crate::errors::{detach_guarded, FogsearchError};

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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("IllegalRequestError", py.get_type::<IllegalRequestError>())?;
    m.add(
        "InconsistentObservationError",
        py.get_type::<InconsistentObservationError>(),
    )?;
    m.add(
        "MalformedObservationError",
        py.get_type::<MalformedObservationError>(),
    )?;
    m.add(
        "BoardSetTooLargeError",
        py.get_type::<BoardSetTooLargeError>(),
    )?;
    m.add_class::<PyBoardSet>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_fen, m)?)?;
    m.add_function(wrap_pyfunction!(zobrist, m)?)?;
    m.add_function(wrap_pyfunction!(move_actions, m)?)?;
    m.add_function(wrap_pyfunction!(pseudo_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(revise_move, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_request, m)?)?;
    m.add_function(wrap_pyfunction!(push_move, m)?)?;
    Ok(())
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

/// Bulk-counted RBC pseudo-legal perft of `fen` to `depth`.
#[pyfunction]
fn perft(py: Python<'_>, fen: &str, depth: u32) -> PyResult<u64> {
    let board = parse_board(fen)?;
    detach_guarded(py, move || board.perft(depth))
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
    let mv = parse_move(uci)?;
    if board
        .piece_at(mv.from)
        .is_none_or(|p| p.color != board.turn())
    {
        return Err(IllegalRequestError::new_err(format!(
            "{uci}: no piece of the side to move on its from-square"
        )));
    }
    Ok(rbc::revise_move(&board, mv).map(|m| m.uci()))
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
    let mut board = parse_board(fen)?;
    let mv = parse_optional_move(uci)?;
    if let Some(m) = mv {
        let castle = board
            .piece_at(m.from)
            .is_some_and(|p| p.piece_type == PieceType::King)
            && m.from.abs_diff(m.to) == 2;
        if !board.is_pseudo_legal(m) && !castle {
            return Err(IllegalRequestError::new_err(format!(
                "{} is not pseudo-legal on {fen}",
                m.uci()
            )));
        }
    }
    board.push(mv);
    Ok(board.fen())
}

/// The information set of one RBC player (see `fogsearch.rbc.BoardSet`).
#[pyclass(name = "BoardSet", module = "fogsearch._core")]
pub struct PyBoardSet {
    inner: BoardSet,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl PyBoardSet {
    /// Runs an update with the GIL released, in this set's thread pool. The core builds the new
    /// set aside and swaps it in only on success, so a failed update leaves the set as it was.
    fn update(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut BoardSet) -> Result<(), RbcError> + Send,
    ) -> PyResult<()> {
        // Entering a pool wakes its threads (tens of microseconds); small sets are updated on
        // this thread alone, so they skip it.
        let pool = self.pool.clone().filter(|_| self.inner.would_use_threads());
        let inner = &mut self.inner;
        detach_guarded(py, move || match &pool {
            Some(pool) => pool.install(|| f(inner)),
            None => f(inner),
        })?
        .map_err(rbc_err)
    }
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
        let color = Color::from_python_bool(white);
        let mut inner = match fens {
            None => BoardSet::start(color),
            Some(fens) => {
                detach_guarded(py, move || BoardSet::from_fens(color, &fens))?.map_err(rbc_err)?
            }
        };
        inner.set_max_boards(max_boards);
        // One thread needs no pool: the set then never uses rayon.
        inner.set_parallel(threads != Some(1));
        let pool = match threads {
            None | Some(1) => None,
            Some(0) => {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "threads must be at least 1",
                ))
            }
            Some(n) => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| FogsearchError::new_err(e.to_string()))?,
            )),
        };
        Ok(PyBoardSet { inner, pool })
    }

    #[getter]
    fn max_boards(&self) -> Option<usize> {
        self.inner.max_boards()
    }

    #[getter]
    fn white(&self) -> bool {
        self.inner.color() == Color::White
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn contains_fen(&self, fen: &str) -> PyResult<bool> {
        self.inner.contains_fen(fen).map_err(rbc_err)
    }

    fn fens(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let inner = &self.inner;
        detach_guarded(py, || inner.boards().iter().map(Board::fen).collect())
    }

    fn zobrist_keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let inner = &self.inner;
        Ok(detach_guarded(py, || inner.keys())?.into_pyarray(py))
    }

    #[pyo3(signature = (captured_my_piece, capture_square))]
    fn handle_opponent_move_result(
        &mut self,
        py: Python<'_>,
        captured_my_piece: bool,
        capture_square: Option<u8>,
    ) -> PyResult<()> {
        self.update(py, move |s| {
            s.handle_opponent_move_result(captured_my_piece, capture_square)
        })
    }

    /// `result`: `(square, (piece_type, is_white) | None)` pairs.
    fn handle_sense_result(
        &mut self,
        py: Python<'_>,
        result: Vec<(u8, Option<(u8, bool)>)>,
    ) -> PyResult<()> {
        let parsed = result
            .into_iter()
            .map(|(sq, piece)| Ok((sq, parse_piece(piece)?)))
            .collect::<PyResult<Vec<_>>>()?;
        self.update(py, move |s| s.handle_sense_result(&parsed))
    }

    #[pyo3(signature = (requested, taken, captured_opponent_piece, capture_square))]
    fn handle_move_result(
        &mut self,
        py: Python<'_>,
        requested: Option<&str>,
        taken: Option<&str>,
        captured_opponent_piece: bool,
        capture_square: Option<u8>,
    ) -> PyResult<()> {
        let requested = parse_optional_move(requested)?;
        let taken = parse_optional_move(taken)?;
        self.update(py, move |s| {
            s.handle_move_result(requested, taken, captured_opponent_piece, capture_square)
        })
    }

    /// `[(square, expected boards left)]` for the 36 non-edge sense squares.
    fn sense_stats(&self, py: Python<'_>) -> PyResult<Vec<(u8, f64)>> {
        let inner = &self.inner;
        let pool = self.pool.clone().filter(|_| inner.would_use_threads());
        detach_guarded(py, move || match &pool {
            Some(pool) => pool.install(|| inner.sense_stats()),
            None => inner.sense_stats(),
        })
    }

    /// `[(square, expected boards left, check doubt)]` for the 36 non-edge sense squares.
    fn sense_check_stats(&self, py: Python<'_>) -> PyResult<Vec<(u8, f64, f64)>> {
        let inner = &self.inner;
        let pool = self.pool.clone().filter(|_| inner.would_use_threads());
        let stats = detach_guarded(py, move || match &pool {
            Some(pool) => pool.install(|| inner.sense_check_stats()),
            None => inner.sense_check_stats(),
        })?;
        Ok(stats
            .into_iter()
            .map(|s| (s.square, s.expected_boards, s.check_doubt))
            .collect())
    }

    /// How many boards have our king in check.
    fn boards_in_check(&self, py: Python<'_>) -> PyResult<usize> {
        let inner = &self.inner;
        detach_guarded(py, move || inner.boards_in_check())
    }

    fn copy(&self) -> Self {
        PyBoardSet {
            inner: self.inner.clone(),
            pool: self.pool.clone(),
        }
    }
}
