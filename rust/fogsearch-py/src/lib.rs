//! `fogsearch._core`: the native module. Conversions and GIL-free wrappers only; every decision
//! about chess or cards lives in `fogsearch-core`.

use pyo3::prelude::*;

mod errors;
mod jps;
mod pickle;
mod rbc;
mod search;
mod sketch;
mod submodule;
mod ttcg;

/// `value` for the setting `setting` checked against the limit `limit` of the core's table
/// (`least..=LIMITS[limit]`), returned as it is; a ValueError names the setting and the range.
#[pyfunction]
fn check_limit(setting: &str, limit: &str, least: u64, value: i64) -> PyResult<u64> {
    fogsearch_core::limits::check_setting(setting, limit, least, value)
        .map_err(|err| pyo3::exceptions::PyValueError::new_err(err.to_string()))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let limits = pyo3::types::PyDict::new(m.py());
    for (name, most) in fogsearch_core::limits::LIMITS {
        limits.set_item(name, most)?;
    }
    m.add("LIMITS", limits)?;
    m.add_function(wrap_pyfunction!(check_limit, m)?)?;
    errors::register(m)?;
    rbc::register(m)?;
    sketch::register(m)?;
    search::register(m)?;
    ttcg::register(m)?;
    jps::register(m)?;
    Ok(())
}
