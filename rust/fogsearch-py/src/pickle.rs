//! Pickling, copying and deep-copying native classes, all one way: through the core's own byte
//! encoding of the object (`to_bytes` / `from_bytes`), which is versioned and validated on
//! reading, so a pickle from another release fails with a clear error instead of a wrong object.
//!
//! A class opts in with a two-line `__reduce__` that calls [`reduce`]; `copy.copy` and
//! `copy.deepcopy` then go through the same path and always give an independent object.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use pyo3::PyClass;

/// What `__reduce__` returns: `(T.from_bytes, (encoded,))`. `T` must have a static `from_bytes`.
pub fn reduce<'py, T: PyClass>(
    py: Python<'py>,
    encoded: &[u8],
) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
    Ok((
        py.get_type::<T>().getattr("from_bytes")?,
        (PyBytes::new(py, encoded),),
    ))
}
