//! The joint range of an observed state: the TTCG Gibbs sampler and its baselines.

use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::stop::Stop;
use fogsearch_core::ttcg::{ChainSchedule, Kernel, ObservedRange, Owner, TtcgError};

use super::policy::AnyPolicy;
use super::state::observation_of;
use super::{run, to_py_err};

/// Deals (n x cards owner codes) with one log weight each.
type DealsWithLogWeights<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<f64>>);
/// Deals, their log weights, and the chain's n x n transition matrix over them.
type DealsWithTransitions<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
);
/// Gibbs draws [chain, draw, card], transitions [chain], accepted [chain].
type GibbsOutput<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
);

/// The joint range over deals consistent with an observed history of either game: `game` is
/// "oh_hell" (with `params`, OpenSpiel's) or "gongzhu".
#[pyclass(module = "fogsearch._core.ttcg", name = "ObservedRange", frozen)]
pub struct PyObservedRange {
    inner: ObservedRange<AnyPolicy>,
}

impl PyObservedRange {
    /// Runs `work` on the range (GIL released, interruptible), then re-raises the first error of
    /// a callable policy before anything the core made of it.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        work: impl FnOnce(&ObservedRange<AnyPolicy>, &Stop) -> Result<T, TtcgError> + Send,
    ) -> PyResult<T> {
        let out = run(py, threads, |stop| work(&self.inner, stop));
        self.inner.policy.take_error()?;
        out
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

fn kernel_named(name: &str) -> PyResult<Kernel> {
    Kernel::from_name(name).map_err(PyValueError::new_err)
}

#[pymethods]
impl PyObservedRange {
    #[new]
    #[pyo3(signature = (params, actions, observer=None, policy=None, game="oh_hell"))]
    fn new(
        py: Python<'_>,
        params: &Bound<'_, PyDict>,
        actions: Vec<i64>,
        observer: Option<i64>,
        policy: Option<&Bound<'_, PyAny>>,
        game: &str,
    ) -> PyResult<Self> {
        let observation = observation_of(game, params, actions, observer)?;
        let policy = AnyPolicy::extract(py, policy)?;
        let inner = ObservedRange::new(observation, policy).map_err(to_py_err)?;
        Ok(PyObservedRange { inner })
    }

    #[getter]
    fn num_cards(&self) -> usize {
        self.inner.space.num_cards()
    }

    #[getter]
    fn hidden_counts(&self) -> Vec<usize> {
        self.inner.space.owner_totals.clone()
    }

    /// `n` different consistent chain starts of positive reach (randomised max-flow
    /// constructions); `ZeroReachError` when none of positive reach is found.
    #[pyo3(signature = (n, seed=0))]
    fn starts<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let starts = self.run(py, Some(1), |r, stop| r.randomised_starts(n, seed, stop))?;
        Ok(self.rows(py, starts.concat()))
    }

    /// Gibbs chains: (draws uint8 [chain, draw, card], transitions uint64 [chain], accepted
    /// uint64 [chain]). Chains start from `starts` (one row per chain) or from randomised
    /// constructions, and run on `threads` workers (default: every core).
    #[pyo3(signature = (num_chains, draws, burn_in=0, thin=1, seed=0, starts=None, kernel="ringswap", threads=None))]
    #[allow(clippy::too_many_arguments)]
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
        threads: Option<usize>,
    ) -> PyResult<GibbsOutput<'py>> {
        let kernel = kernel_named(kernel)?;
        let schedule = ChainSchedule {
            kernel,
            burn_in,
            thin,
            draws,
        };
        let deck = self.inner.space.num_cards();
        fogsearch_core::ttcg::check_schedule(num_chains, &schedule, deck).map_err(to_py_err)?;
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
        let out = self.run(py, threads, |r, stop| match &starts {
            Some(s) => r.gibbs_from(s, schedule, seed, stop),
            None => r.gibbs(num_chains, schedule, seed, stop),
        })?;
        let cube = Array3::from_shape_vec((num_chains, draws, deck), out.draws)
            .expect("chain-major draws");
        Ok((
            cube.into_pyarray(py),
            out.transitions.into_pyarray(py),
            out.accepted.into_pyarray(py),
        ))
    }

    /// `n` exact uniform draws over consistent deals (suit-length tables by deal count).
    #[pyo3(signature = (n, seed=0))]
    fn uniform<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let flat = self.run(py, Some(1), |r, stop| r.uniform(n, seed, stop))?;
        Ok(self.rows(py, flat))
    }

    /// Importance sampling with the uniform proposal: (draws, log weights = log reach).
    #[pyo3(signature = (n, seed=0))]
    fn importance<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
    ) -> PyResult<DealsWithLogWeights<'py>> {
        let (flat, log_w) = self.run(py, Some(1), |r, stop| r.importance(n, seed, stop))?;
        Ok((self.rows(py, flat), log_w.into_pyarray(py)))
    }

    /// Every consistent deal of positive reach with its log reach (at most `limit` deals).
    #[pyo3(signature = (limit=1_000_000, threads=None))]
    fn exact<'py>(
        &self,
        py: Python<'py>,
        limit: usize,
        threads: Option<usize>,
    ) -> PyResult<DealsWithLogWeights<'py>> {
        let w = self.run(py, threads, |r, stop| r.exact(limit, stop))?;
        Ok((
            self.rows(py, w.assignments.concat()),
            w.log_reach.into_pyarray(py),
        ))
    }

    /// Every consistent deal, its log reach, and the Gibbs chain's exact `n x n` transition
    /// matrix over them (row `i`: the next state's distribution from deal `i`).
    #[pyo3(signature = (limit=5_000, kernel="ringswap", threads=None))]
    fn transition_matrix<'py>(
        &self,
        py: Python<'py>,
        limit: usize,
        kernel: &str,
        threads: Option<usize>,
    ) -> PyResult<DealsWithTransitions<'py>> {
        let kernel = kernel_named(kernel)?;
        let (deals, matrix) = self.run(py, threads, |r, stop| {
            r.transition_matrix(limit, kernel, stop)
        })?;
        let n = deals.assignments.len();
        let matrix = Array2::from_shape_vec((n, n), matrix).expect("n x n");
        Ok((
            self.rows(py, deals.assignments.concat()),
            deals.log_reach.into_pyarray(py),
            matrix.into_pyarray(py),
        ))
    }

    /// `n` iid draws from the exactly enumerated joint range.
    #[pyo3(signature = (n, seed=0, limit=1_000_000, threads=None))]
    fn true_samples<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
        limit: usize,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let flat = self.run(py, threads, |r, stop| r.true_samples(n, seed, limit, stop))?;
        Ok(self.rows(py, flat))
    }

    /// Log reach of each row of `assignments` (n x cards).
    fn log_target<'py>(
        &self,
        py: Python<'py>,
        assignments: PyReadonlyArray2<'py, u8>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let rows = self.assignments_in(&assignments)?;
        let out: Vec<f64> = self.run(py, Some(1), |r, _| {
            Ok(rows.iter().map(|a| r.log_target(a)).collect())
        })?;
        Ok(out.into_pyarray(py))
    }

    /// How many rows of `assignments` violate a constraint (known cards, voids, hand sizes).
    fn count_violations(
        &self,
        py: Python<'_>,
        assignments: PyReadonlyArray2<'_, u8>,
    ) -> PyResult<usize> {
        let flat: Vec<Owner> = self.assignments_in(&assignments)?.concat();
        self.run(py, Some(1), |r, _| Ok(r.count_violations(&flat)))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyObservedRange>()
}
