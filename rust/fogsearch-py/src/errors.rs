//! The exception hierarchy and the guard that keeps Rust panics out of Python.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

use fogsearch_core::stop::Stop;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::False;
use pyo3::types::PyAnyMethods;
use pyo3::PyClass;

create_exception!(
    fogsearch,
    FogsearchError,
    PyValueError,
    "Base class of fogsearch's errors; a ValueError, so callers may catch either."
);

create_exception!(
    fogsearch,
    ConcurrentUseError,
    FogsearchError,
    "An object was changed from one thread while another thread was using it. fogsearch objects \
     are not locked: share one between threads only for reading, or give each thread its own copy."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FogsearchError", m.py().get_type::<FogsearchError>())?;
    m.add(
        "ConcurrentUseError",
        m.py().get_type::<ConcurrentUseError>(),
    )?;
    Ok(())
}

/// `slf` for reading, or `ConcurrentUseError` while another thread is changing it (a method
/// that releases the GIL keeps its object borrowed). Methods take `slf: &Bound<Self>` and call
/// this instead of taking `&self`, whose failure would be PyO3's bare `RuntimeError`.
pub fn read<'py, T: PyClass>(slf: &Bound<'py, T>) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow().map_err(|_| in_use(slf))
}

/// `slf` for changing, or `ConcurrentUseError` while another thread is using it.
pub fn write<'py, T: PyClass<Frozen = False>>(slf: &Bound<'py, T>) -> PyResult<PyRefMut<'py, T>> {
    slf.try_borrow_mut().map_err(|_| in_use(slf))
}

fn in_use<T: PyClass>(slf: &Bound<'_, T>) -> PyErr {
    let name = slf
        .as_any()
        .get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| n.to_string());
    ConcurrentUseError::new_err(format!(
        "this {name} is in use by another thread; give each thread its own copy"
    ))
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

/// How often a long call looks at Python's signal handlers (Ctrl-C) while it runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` with the GIL released on a worker thread, while the calling thread runs Python's
/// signal handlers every 50 ms. When one raises (Ctrl-C raises `KeyboardInterrupt`), the [`Stop`]
/// passed to `work` is raised, `work` is awaited, and the handler's exception is returned, whatever
/// `work` returned: it must leave its objects as they were when stopped (work on copies, then
/// commit). A panic becomes a `FogsearchError`, as in [`detach_guarded`].
///
/// Signal handlers run only on Python's main thread, so a call from another thread is not
/// interruptible; it still runs to completion.
pub fn detach_interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Stop) -> T + Send,
{
    let stop = Stop::new();
    let (outcome, signal) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            let stop = &stop;
            scope.spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| work(stop)));
                // The receiver outlives this thread (the scope joins it first).
                let _ = done.send(outcome);
            });
            let mut signal = None;
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(outcome) => return (outcome, signal),
                    Err(mpsc::RecvTimeoutError::Timeout) if signal.is_none() => {
                        if let Err(raised) = Python::attach(|py| py.check_signals()) {
                            stop.request();
                            signal = Some(raised);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        unreachable!("the worker sends its outcome before it ends")
                    }
                }
            }
        })
    });
    if let Some(raised) = signal {
        return Err(raised);
    }
    outcome.map_err(|payload| {
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
