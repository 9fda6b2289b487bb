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
    errors::register(m)?;
    rbc::register(m)?;
    sketch::register(m)?;
    search::register(m)?;
    ttcg::register(m)?;
    jps::register(m)?;
    Ok(())
}
