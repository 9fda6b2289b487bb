//! `fogsearch._core.ttcg`: bindings for `fogsearch_core::ttcg`. Conversions, GIL-free and
//! interruptible wrappers only; every rule of a card game lives in the core.

use pyo3::exceptions::{PyKeyboardInterrupt, PyNotImplementedError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::pool;
use fogsearch_core::stop::Stop;
use fogsearch_core::ttcg::{oh_hell_params_named, Action, OhHellParams, TtcgError};

use crate::errors::{detach_interruptible, FogsearchError};
use crate::submodule;

mod deals;
mod games;
mod play;
mod policy;
mod sampling;
mod state;

pyo3::create_exception!(
    fogsearch,
    InfeasibleConstraints,
    FogsearchError,
    "No deal is consistent with the constraints; the message names the binding constraint."
);

pyo3::create_exception!(
    fogsearch,
    ZeroReachError,
    FogsearchError,
    "The joint policy gives the observed actions probability zero under every deal considered, so \
     there is nothing to sample. The same error on every path: exact, Gibbs (both kernels), \
     importance sampling, resampling and chain starts."
);

pyo3::create_exception!(
    fogsearch,
    LimitExceededError,
    FogsearchError,
    "A size, count, thread number or run length above what one call may use; the message names \
     the parameter, the limit and what the request would need. Nothing was changed."
);

pub(crate) fn to_py_err(e: TtcgError) -> PyErr {
    match e {
        TtcgError::InvalidInput(m) => FogsearchError::new_err(m),
        TtcgError::Infeasible(m) => InfeasibleConstraints::new_err(m),
        TtcgError::Unsupported(m) => PyNotImplementedError::new_err(m),
        TtcgError::TooLarge(m) => LimitExceededError::new_err(m),
        TtcgError::ZeroReach(m) => ZeroReachError::new_err(m),
        TtcgError::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        TtcgError::DeadlinePassed => FogsearchError::new_err(e.to_string()),
    }
}

/// The worker count of a call: all cores when `None`, else checked against the shared pools'
/// bound.
pub(crate) fn threads_of(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(pool::available_cores().min(pool::MAX_THREADS)),
        Some(t) => pool::check_threads(t).map_err(|e| LimitExceededError::new_err(e.to_string())),
    }
}

/// Runs `work` on the shared pool of `threads` workers with the GIL released, Ctrl-C raising
/// `KeyboardInterrupt` within about a second (the core polls the stop flag).
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce(&Stop) -> Result<T, TtcgError> + Send,
) -> PyResult<T> {
    let threads = threads_of(threads)?;
    let outcome = detach_interruptible(py, |stop| pool::install(threads, || work(stop)))?;
    outcome
        .map_err(|e| LimitExceededError::new_err(e.to_string()))?
        .map_err(to_py_err)
}

/// Reads OpenSpiel-named parameters from a mapping (as `pyspiel.load_game` takes them, or as
/// `game.get_parameters()` returns them); missing keys take OpenSpiel's defaults. The core checks
/// them (the registry's oh_hell entry).
pub(crate) fn params_from_dict(params: &Bound<'_, PyDict>) -> PyResult<OhHellParams> {
    oh_hell_params_named(&state::params_of(Some(params))?).map_err(to_py_err)
}

/// Action ids from Python integers, refusing negative and oversized ones.
pub(crate) fn actions_from(actions: Vec<i64>) -> PyResult<Vec<Action>> {
    actions
        .into_iter()
        .map(|a| {
            u32::try_from(a)
                .map_err(|_| PyValueError::new_err(format!("action {a} is out of range")))
        })
        .collect()
}

pub(crate) fn observer_from(observer: Option<i64>) -> PyResult<Option<usize>> {
    observer
        .map(|o| {
            usize::try_from(o).map_err(|_| {
                PyValueError::new_err(format!("observer must be a player index or None, got {o}"))
            })
        })
        .transpose()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    submodule::add(m, "ttcg", |t| {
        let py = t.py();
        t.add(
            "InfeasibleConstraints",
            py.get_type::<InfeasibleConstraints>(),
        )?;
        t.add("ZeroReachError", py.get_type::<ZeroReachError>())?;
        t.add("LimitExceededError", py.get_type::<LimitExceededError>())?;
        t.add(
            "MAX_OUTPUT_BYTES",
            fogsearch_core::ttcg::MAX_OUTPUT_BYTES as u64,
        )?;
        t.add(
            "MAX_TRANSITIONS",
            fogsearch_core::ttcg::MAX_TRANSITIONS as u64,
        )?;
        policy::register(t)?;
        games::register(t)?;
        deals::register(t)?;
        sampling::register(t)?;
        play::register(t)?;
        state::register(t)?;
        Ok(())
    })
}
