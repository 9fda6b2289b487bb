//! Bindings for the TTCG Gibbs sampler and its baselines (`fogsearch_core::ttcg::sampling`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::ttcg::chains::ChainSchedule;
use fogsearch_core::ttcg::constraints::Owner;
use fogsearch_core::ttcg::gibbs::Kernel;
use fogsearch_core::ttcg::policy::{BuiltinPolicy, InfoStateView, Policy};
use fogsearch_core::ttcg::sampling::ObservedRange;

use super::{extract_policy, observe_py, to_py_err, CallablePolicy, PolicyArg};
use crate::errors::detach_guarded;

/// Deals (n x cards owner codes) with one log weight each.
type DealsWithLogWeights<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<f64>>);
/// Deals, their log weights, and the chain's n x n transition matrix over them.
type DealsWithTransitions<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
);

/// A built-in policy (reach computed in Rust) or a Python callable (asked under the GIL).
enum AnyPolicy {
    Builtin(BuiltinPolicy),
    Callable(Arc<CallablePolicy>),
}

impl Policy for AnyPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        match self {
            AnyPolicy::Builtin(p) => p.action_probability(info, index),
            AnyPolicy::Callable(p) => p.action_probability(info, index),
        }
    }
}

/// The joint range over deals consistent with an observed Oh Hell history.
#[pyclass(module = "fogsearch._core", name = "TtcgRange", frozen)]
pub struct PyTtcgRange {
    inner: ObservedRange<AnyPolicy>,
}

impl PyTtcgRange {
    /// Runs `work` with the GIL released, then re-raises the first error of a callable policy.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&ObservedRange<AnyPolicy>) -> T + Send,
    ) -> PyResult<T> {
        let out = detach_guarded(py, || work(&self.inner))?;
        if let AnyPolicy::Callable(p) = &self.inner.policy {
            if let Some(e) = p.error.lock().unwrap().take() {
                return Err(e);
            }
        }
        Ok(out)
    }

    fn rows<'py>(&self, py: Python<'py>, flat: Vec<Owner>) -> Bound<'py, PyArray2<u8>> {
        let deck = self.inner.space.num_cards();
        Array2::from_shape_vec((flat.len() / deck, deck), flat)
            .expect("whole assignments")
            .into_pyarray(py)
    }

    fn assignments_in(&self, a: &PyReadonlyArray2<'_, u8>) -> PyResult<Vec<Vec<Owner>>> {
        let a = a.as_array();
        let deck = self.inner.space.num_cards();
        if a.ncols() != deck {
            return Err(PyValueError::new_err(format!(
                "assignments must have one column per card ({deck}), got {}",
                a.ncols()
            )));
        }
        Ok(a.outer_iter().map(|r| r.to_vec()).collect())
    }
}

#[pymethods]
impl PyTtcgRange {
    #[new]
    #[pyo3(signature = (params, actions, observer=None, policy=None))]
    fn new(
        py: Python<'_>,
        params: &Bound<'_, PyDict>,
        actions: Vec<i64>,
        observer: Option<i64>,
        policy: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let observation = observe_py(params, actions, observer)?;
        let policy = match extract_policy(policy)? {
            PolicyArg::Builtin(b) => AnyPolicy::Builtin(b),
            PolicyArg::Callable(f) => AnyPolicy::Callable(Arc::new(CallablePolicy {
                callable: f.clone_ref(py),
                cache: Mutex::new(HashMap::new()),
                error: Mutex::new(None),
            })),
        };
        let inner = ObservedRange::new(observation, policy).map_err(to_py_err)?;
        Ok(PyTtcgRange { inner })
    }

    #[getter]
    fn num_cards(&self) -> usize {
        self.inner.space.num_cards()
    }

    #[getter]
    fn hidden_counts(&self) -> Vec<usize> {
        self.inner.space.owner_totals.clone()
    }

    /// `n` different consistent chain starts (randomised max-flow constructions).
    fn starts<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let starts = self
            .run(py, |r| r.randomised_starts(n, seed))?
            .map_err(to_py_err)?;
        Ok(self.rows(py, starts.concat()))
    }

    /// Gibbs chains: (draws uint8 [chain, draw, card], transitions uint64 [chain], accepted uint64
    /// [chain]). Chains start from `starts` (one row per chain) or from randomised constructions.
    #[pyo3(signature = (num_chains, draws, burn_in=0, thin=1, seed=0, starts=None, kernel="ringswap"))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn gibbs<'py>(
        &self,
        py: Python<'py>,
        num_chains: usize,
        draws: usize,
        burn_in: u64,
        thin: u64,
        seed: u64,
        starts: Option<PyReadonlyArray2<'py, u8>>,
        kernel: &str,
    ) -> PyResult<(
        Bound<'py, PyArray3<u8>>,
        Bound<'py, PyArray1<u64>>,
        Bound<'py, PyArray1<u64>>,
    )> {
        if thin == 0 {
            return Err(PyValueError::new_err("thin must be at least 1"));
        }
        let kernel = kernel_named(kernel)?;
        let starts = match starts {
            Some(s) => {
                let s = self.assignments_in(&s)?;
                if s.len() != num_chains {
                    return Err(PyValueError::new_err(format!(
                        "starts has {} rows but num_chains is {num_chains}",
                        s.len()
                    )));
                }
                Some(s)
            }
            None => None,
        };
        let schedule = ChainSchedule {
            kernel,
            burn_in,
            thin,
            draws,
        };
        let out = self
            .run(py, |r| match &starts {
                Some(s) => r.gibbs_from(s, schedule, seed),
                None => r.gibbs(num_chains, schedule, seed),
            })?
            .map_err(to_py_err)?;
        let deck = self.inner.space.num_cards();
        let cube = Array3::from_shape_vec((num_chains, draws, deck), out.draws)
            .expect("chain-major draws");
        Ok((
            cube.into_pyarray(py),
            out.transitions.into_pyarray(py),
            out.accepted.into_pyarray(py),
        ))
    }

    /// `n` exact uniform draws over consistent deals (suit-length tables by deal count).
    fn uniform<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let flat = self.run(py, |r| r.uniform(n, seed))?.map_err(to_py_err)?;
        Ok(self.rows(py, flat))
    }

    /// Importance sampling with the uniform proposal: (draws, log weights = log reach).
    fn importance<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<DealsWithLogWeights<'py>> {
        let (flat, log_w) = self
            .run(py, |r| r.importance(n, seed))?
            .map_err(to_py_err)?;
        Ok((self.rows(py, flat), log_w.into_pyarray(py)))
    }

    /// Every consistent deal with its log reach (at most `limit` deals).
    #[pyo3(signature = (limit=1_000_000))]
    fn exact<'py>(&self, py: Python<'py>, limit: usize) -> PyResult<DealsWithLogWeights<'py>> {
        let w = self.run(py, |r| r.exact(limit))?.map_err(to_py_err)?;
        Ok((
            self.rows(py, w.assignments.concat()),
            w.log_reach.into_pyarray(py),
        ))
    }

    /// Every consistent deal, its log reach, and the Gibbs chain's exact `n x n` transition
    /// matrix over them (row `i`: the next state's distribution from deal `i`).
    #[pyo3(signature = (limit=5_000, kernel="ringswap"))]
    fn transition_matrix<'py>(
        &self,
        py: Python<'py>,
        limit: usize,
        kernel: &str,
    ) -> PyResult<DealsWithTransitions<'py>> {
        let kernel = kernel_named(kernel)?;
        let (deals, matrix) = self
            .run(py, |r| r.transition_matrix(limit, kernel))?
            .map_err(to_py_err)?;
        let n = deals.assignments.len();
        let matrix = Array2::from_shape_vec((n, n), matrix).expect("n x n");
        Ok((
            self.rows(py, deals.assignments.concat()),
            deals.log_reach.into_pyarray(py),
            matrix.into_pyarray(py),
        ))
    }

    /// `n` iid draws from the exactly enumerated joint range.
    #[pyo3(signature = (n, seed, limit=1_000_000))]
    fn true_samples<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
        limit: usize,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let flat = self
            .run(py, |r| r.true_samples(n, seed, limit))?
            .map_err(to_py_err)?;
        Ok(self.rows(py, flat))
    }

    /// Log reach of each row of `assignments` (n x cards).
    fn log_target<'py>(
        &self,
        py: Python<'py>,
        assignments: PyReadonlyArray2<'py, u8>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let rows = self.assignments_in(&assignments)?;
        let out: Vec<f64> = self.run(py, |r| rows.iter().map(|a| r.log_target(a)).collect())?;
        Ok(out.into_pyarray(py))
    }

    /// How many rows of `assignments` violate a constraint (known cards, voids, hand sizes).
    fn count_violations(
        &self,
        py: Python<'_>,
        assignments: PyReadonlyArray2<'_, u8>,
    ) -> PyResult<usize> {
        let flat: Vec<Owner> = self.assignments_in(&assignments)?.concat();
        self.run(py, |r| r.count_violations(&flat))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTtcgRange>()?;
    Ok(())
}

fn kernel_named(name: &str) -> PyResult<Kernel> {
    Kernel::from_name(name).map_err(PyValueError::new_err)
}
