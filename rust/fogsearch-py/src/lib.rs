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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let limits = pyo3::types::PyDict::new(m.py());
    for (name, most) in fogsearch_core::limits::LIMITS {
        limits.set_item(name, most)?;
    }
    m.add("LIMITS", limits)?;
    errors::register(m)?;
    rbc::register(m)?;
    sketch::register(m)?;
    search::register(m)?;
    ttcg::register(m)?;
    jps::register(m)?;
    Ok(())
}
