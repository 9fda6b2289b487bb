//! `fogsearch._core` is split into one submodule per area (`_core.rbc`, `_core.sketch`, ...).
//!
//! PyO3 submodules are plain attributes of their parent; `import fogsearch._core.rbc` and
//! pickling (which imports a class's `__module__`) need them in `sys.modules` under their dotted
//! name too, so each area's `register` builds its module and hands it to [`attach`].

use pyo3::prelude::*;
use pyo3::types::PyModule;

/// The dotted name every submodule lives under.
pub const PARENT: &str = "fogsearch._core";

/// A new, empty submodule `name` of `fogsearch._core`, filled by `fill` and attached.
pub fn add<'py>(
    parent: &Bound<'py, PyModule>,
    name: &str,
    fill: impl FnOnce(&Bound<'py, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let module = PyModule::new(py, name)?;
    fill(&module)?;
    let dotted = format!("{PARENT}.{name}");
    module.setattr("__name__", &dotted)?;
    parent.add_submodule(&module)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item(dotted, &module)?;
    Ok(())
}
