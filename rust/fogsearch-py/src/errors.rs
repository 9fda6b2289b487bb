//! The exception hierarchy and the guard that keeps Rust panics out of Python.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    fogsearch,
    FogsearchError,
    PyValueError,
    "Base class of fogsearch's errors; a ValueError, so callers may catch either."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FogsearchError", m.py().get_type::<FogsearchError>())?;
    Ok(())
}

/// Runs `work` with the GIL released and turns a panic into a `FogsearchError` instead of letting
/// it cross into Python. Core code validates its input, so a panic here is a bug; callers must
/// not have mutated Python-visible state before the panic (work on copies, then commit).
pub fn detach_guarded<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|payload| {
            FogsearchError::new_err(format!("internal error: {}", panic_text(&payload)))
        })
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a Rust panic".to_string()
    }
}
