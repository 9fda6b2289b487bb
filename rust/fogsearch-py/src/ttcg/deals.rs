//! Deals: max-flow construction, enumeration with reach, and OpenSpiel oh_hell histories drawn
//! from (or walked over) the joint range.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::rng::Rng;
use fogsearch_core::stop::Stop;
use fogsearch_core::ttcg::{
    construct_assignment, deal_orders_per_assignment, enumerate_assignments, enumerate_weighted,
    history_from_deal as core_history_from_deal, log_reach as core_log_reach,
    openspiel_serialization, walk_histories as core_walk_histories, Action, DealConstraints,
    Observation, Owner, Resampler, TtcgError, WeightedDeals,
};

use super::policy::AnyPolicy;
use super::state::observation_of;
use super::{observer_from, run, to_py_err};

/// Assignments, their log reach, and deal orders per assignment.
type EnumeratedDeals<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<f64>>, f64);

/// The fields of a deal's constraints as any Python object holds them as attributes
/// (`fogsearch.ttcg.observation.DealConstraints`).
#[derive(FromPyObject)]
struct DealArgs {
    #[pyo3(attribute)]
    num_players: usize,
    #[pyo3(attribute)]
    num_suits: usize,
    #[pyo3(attribute)]
    num_ranks: usize,
    #[pyo3(attribute)]
    known_owner: Vec<i64>,
    #[pyo3(attribute)]
    hidden_counts: Vec<usize>,
    #[pyo3(attribute)]
    voids: Vec<Vec<bool>>,
}

/// The core's constraints: a hidden card's owner -1 becomes `None`.
fn constraints_from(args: DealArgs) -> PyResult<DealConstraints> {
    let known_owner = args
        .known_owner
        .into_iter()
        .enumerate()
        .map(|(card, o)| match o {
            -1 => Ok(None),
            0..=255 => Ok(Some(o as Owner)),
            _ => Err(PyValueError::new_err(format!(
                "known_owner[{card}] = {o}: use -1 for hidden cards, else an owner code"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(DealConstraints {
        num_players: args.num_players,
        num_suits: args.num_suits,
        num_ranks: args.num_ranks,
        known_owner,
        hidden_counts: args.hidden_counts,
        voids: args.voids,
    })
}

pub(crate) fn rows_to_array<'py>(
    py: Python<'py>,
    rows: &[Vec<Owner>],
    cards: usize,
) -> Bound<'py, PyArray2<u8>> {
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    Array2::from_shape_vec((rows.len(), cards), flat)
        .expect("every assignment covers the deck")
        .into_pyarray(py)
}

/// A deal assignment (owner code per card id) consistent with `constraints`, by max flow.
#[pyfunction]
fn construct_deal<'py>(
    py: Python<'py>,
    constraints: DealArgs,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let c = constraints_from(constraints)?;
    let a = run(py, Some(1), move |_| construct_assignment(&c))?;
    Ok(a.into_pyarray(py))
}

/// Every assignment consistent with `constraints` (no reach weighting), as an n x cards array.
#[pyfunction]
#[pyo3(signature = (constraints, limit=1_000_000))]
fn enumerate_consistent<'py>(
    py: Python<'py>,
    constraints: DealArgs,
    limit: usize,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let c = constraints_from(constraints)?;
    let cards = c.num_cards();
    let all = run(py, Some(1), move |stop| {
        enumerate_assignments(&c, limit, stop)
    })?;
    Ok(rows_to_array(py, &all, cards))
}

/// Exact enumeration of the deals consistent with `observer`'s view of `actions`, with their
/// log reach: (assignments n x cards uint8, log_reach n float64, deal orders per assignment).
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None, policy=None, limit=1_000_000, threads=None))]
fn enumerate_deals<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
    policy: Option<&Bound<'py, PyAny>>,
    limit: usize,
    threads: Option<usize>,
) -> PyResult<EnumeratedDeals<'py>> {
    let o = observation_of("oh_hell", params, actions, observer)?;
    let policy = AnyPolicy::extract(py, policy)?;
    let w = weighted_deals(py, &o, policy, limit, threads, |w, _| Ok(w))?;
    let cards = o.constraints.num_cards();
    Ok((
        rows_to_array(py, &w.assignments, cards),
        w.log_reach.into_pyarray(py),
        deal_orders_per_assignment(&o.template),
    ))
}

/// Every OpenSpiel history (every deal order of every consistent deal) with its reach, walked in
/// Rust: (number of histories, sum of their reach relative to the most likely deal).
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None, policy=None, limit=1_000_000, threads=None))]
fn walk_histories(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
    policy: Option<&Bound<'_, PyAny>>,
    limit: usize,
    threads: Option<usize>,
) -> PyResult<(usize, f64)> {
    let o = observation_of("oh_hell", params, actions, observer)?;
    let policy = AnyPolicy::extract(py, policy)?;
    weighted_deals(py, &o, policy, limit, threads, |w, stop| {
        core_walk_histories(&o.template, &w, stop)
    })
}

/// The deals consistent with `o`, each with its reach under `policy` (at most `limit`), handed
/// to `then` with the GIL released; an error the Python policy raised comes back first.
fn weighted_deals<T: Send>(
    py: Python<'_>,
    o: &Observation,
    policy: AnyPolicy,
    limit: usize,
    threads: Option<usize>,
    then: impl FnOnce(WeightedDeals, &Stop) -> Result<T, TtcgError> + Send,
) -> PyResult<T> {
    let out = run(py, threads, |stop| {
        let w = enumerate_weighted(&o.constraints, &o.template, &policy, limit, stop)?;
        then(w, stop)
    });
    policy.take_error()?;
    out
}

/// Log reach of `assignments` (n x cards) along the public history of `actions`.
#[pyfunction]
#[pyo3(signature = (params, actions, assignments, policy=None))]
fn log_reach<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    assignments: PyReadonlyArray2<'py, u8>,
    policy: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let o = observation_of("oh_hell", params, actions, None)?;
    let a = assignments.as_array();
    if a.ncols() != o.constraints.num_cards() {
        return Err(PyValueError::new_err(format!(
            "assignments must have one column per card ({}), got {}",
            o.constraints.num_cards(),
            a.ncols()
        )));
    }
    let rows: Vec<Vec<Owner>> = a.outer_iter().map(|r| r.to_vec()).collect();
    let policy = AnyPolicy::extract(py, policy)?;
    let out = run(py, Some(1), |stop| {
        let mut v = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            if i % 4096 == 0 && stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            v.push(core_log_reach(&o.template, r, &policy));
        }
        Ok(v)
    });
    policy.take_error()?;
    Ok(out?.into_pyarray(py))
}

/// Resamples one player's information state of an oh_hell history: OpenSpiel action lists in
/// which the player's information state is unchanged and the hidden cards (undealt pile included)
/// are drawn exactly from the joint range under `policy`, deal order uniform. The range is
/// enumerated once, when this is built; each draw is then a binary search and a shuffle.
#[pyclass(module = "fogsearch._core.ttcg", name = "Resampler", frozen)]
pub struct PyResampler {
    inner: Resampler,
}

#[pymethods]
impl PyResampler {
    #[new]
    #[pyo3(signature = (params, actions, player, policy=None, limit=200_000, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        params: &Bound<'_, PyDict>,
        actions: Vec<i64>,
        player: i64,
        policy: Option<&Bound<'_, PyAny>>,
        limit: usize,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let o = observation_of("oh_hell", params, actions, Some(player))?;
        let policy = AnyPolicy::extract(py, policy)?;
        let deals = run(py, threads, |stop| {
            enumerate_weighted(&o.constraints, &o.template, &policy, limit, stop)
        });
        policy.take_error()?;
        Ok(PyResampler {
            inner: Resampler::new(o.template, deals?),
        })
    }

    /// How many deals the information state's joint range holds (positive reach).
    #[getter]
    fn num_deals(&self) -> usize {
        self.inner.num_deals()
    }

    /// `n` histories as action lists; draw `i` uses stream `i` of `seed` (one draw: the seed).
    #[pyo3(signature = (n, seed))]
    fn histories(&self, py: Python<'_>, n: usize, seed: u64) -> PyResult<Vec<Vec<Action>>> {
        run(py, Some(1), |stop| self.inner.histories(n, seed, stop))
    }

    /// The same histories in OpenSpiel's serialization, for `game.deserialize_state`.
    #[pyo3(signature = (n, seed))]
    fn serialized(&self, py: Python<'_>, n: usize, seed: u64) -> PyResult<Vec<String>> {
        let histories = run(py, Some(1), |stop| self.inner.histories(n, seed, stop))?;
        Ok(histories
            .iter()
            .map(|h| openspiel_serialization(h))
            .collect())
    }

    /// One history in OpenSpiel's serialization, drawn with `seed` (the fast path of
    /// `resample_from_infostate`).
    fn one_serialized(&self, seed: u64) -> String {
        openspiel_serialization(&self.inner.draw(&mut Rng::new(seed)))
    }
}

/// The OpenSpiel action list of the history of `actions` with the hidden cards re-dealt as in
/// `assignment` (checked against `player`'s information state), deal order uniform by `seed`.
#[pyfunction]
fn history_from_deal(
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    player: i64,
    assignment: Vec<u8>,
    seed: u64,
) -> PyResult<Vec<Action>> {
    observer_from(Some(player))?;
    let o = observation_of("oh_hell", params, actions, Some(player))?;
    core_history_from_deal(&o, &assignment, seed).map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(construct_deal, m)?)?;
    m.add_function(wrap_pyfunction!(enumerate_consistent, m)?)?;
    m.add_function(wrap_pyfunction!(enumerate_deals, m)?)?;
    m.add_function(wrap_pyfunction!(walk_histories, m)?)?;
    m.add_function(wrap_pyfunction!(log_reach, m)?)?;
    m.add_class::<PyResampler>()?;
    m.add_function(wrap_pyfunction!(history_from_deal, m)?)?;
    Ok(())
}
