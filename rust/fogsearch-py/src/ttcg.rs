//! Bindings for `fogsearch_core::ttcg`.

use std::collections::HashMap;
use std::sync::Mutex;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use fogsearch_core::rng::Rng;
use fogsearch_core::ttcg::constraints::{DealConstraints, Owner};
use fogsearch_core::ttcg::enumerate::{
    deal_orders_per_assignment, enumerate_assignments, enumerate_weighted, for_each_history,
    WeightedDeals,
};
use fogsearch_core::ttcg::error::TtcgError;
use fogsearch_core::ttcg::flow::{construct_assignment, is_consistent};
use fogsearch_core::ttcg::history::log_reach;
use fogsearch_core::ttcg::observation::{observe, Observation};
use fogsearch_core::ttcg::ohhell::{Action, Actor, OhHellParams, OhHellState};
use fogsearch_core::ttcg::policy::{
    BiasPolicy, BuiltinPolicy, InfoStateView, Policy, SoftmaxPolicy,
};

use crate::errors::{detach_guarded, FogsearchError};

// ==== game, observation, construction, policies, enumeration, resampling ====

create_exception!(
    fogsearch,
    InfeasibleConstraints,
    FogsearchError,
    "No deal is consistent with the constraints; the message names the binding constraint."
);

/// Legal actions at every state along a history, the player to act at each, the final returns.
type Trace = (Vec<Vec<Action>>, Vec<i64>, Vec<f64>);
/// Answers of a Python policy per (information-state key, legal actions).
type PolicyCache = Mutex<HashMap<(u64, Vec<Action>), Vec<f64>>>;
/// Assignments, their log reach, and deal orders per assignment.
type EnumeratedDeals<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<f64>>, f64);

/// OpenSpiel's player id for chance nodes and terminal states.
const CHANCE_PLAYER_ID: i64 = -1;
const TERMINAL_PLAYER_ID: i64 = -4;

pub(crate) fn to_py_err(e: TtcgError) -> PyErr {
    match e {
        TtcgError::InvalidInput(m) => PyValueError::new_err(m),
        TtcgError::Infeasible(m) => InfeasibleConstraints::new_err(m),
        TtcgError::Unsupported(m) => PyNotImplementedError::new_err(m),
    }
}

/// Reads OpenSpiel-named parameters from a mapping (as `pyspiel.load_game` takes them, or as
/// `game.get_parameters()` returns them); missing keys take OpenSpiel's defaults.
pub(crate) fn params_from_dict(params: &Bound<'_, PyDict>) -> PyResult<OhHellParams> {
    let mut p = OhHellParams::default();
    for (key, value) in params.iter() {
        let key: String = key.extract()?;
        let int = || -> PyResult<i64> {
            value
                .extract::<i64>()
                .map_err(|_| PyTypeError::new_err(format!("parameter {key} must be an int")))
        };
        match key.as_str() {
            "players" => p.players = int()?.clamp(0, 1000) as usize,
            "num_suits" => p.num_suits = int()?.clamp(0, 1000) as usize,
            "num_cards_per_suit" => p.num_cards_per_suit = int()?.clamp(0, 1000) as usize,
            "num_tricks_fixed" => p.num_tricks_fixed = int()?,
            "points_per_trick" => p.points_per_trick = int()?,
            "off_bid_penalty" => {
                p.off_bid_penalty = value
                    .extract::<bool>()
                    .map_err(|_| PyTypeError::new_err("parameter off_bid_penalty must be a bool"))?
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown oh_hell parameter {other:?}; known: players, num_suits, \
                     num_cards_per_suit, num_tricks_fixed, off_bid_penalty, points_per_trick"
                )))
            }
        }
    }
    p.validate().map_err(to_py_err)?;
    Ok(p)
}

fn actions_from(actions: Vec<i64>) -> PyResult<Vec<Action>> {
    actions
        .into_iter()
        .map(|a| {
            u32::try_from(a)
                .map_err(|_| PyValueError::new_err(format!("action {a} is out of range")))
        })
        .collect()
}

fn openspiel_player(state: &OhHellState) -> i64 {
    match state.actor() {
        Actor::Chance => CHANCE_PLAYER_ID,
        Actor::Player(p) => p as i64,
        Actor::Terminal => TERMINAL_PLAYER_ID,
    }
}

/// An Oh Hell state with OpenSpiel's interface subset (ids, player codes, returns).
#[pyclass(module = "fogsearch._core", name = "OhHellState")]
#[derive(Clone)]
pub struct PyOhHellState {
    inner: OhHellState,
}

#[pymethods]
impl PyOhHellState {
    #[new]
    fn new(params: &Bound<'_, PyDict>) -> PyResult<Self> {
        let p = params_from_dict(params)?;
        Ok(PyOhHellState {
            inner: OhHellState::new(p).map_err(to_py_err)?,
        })
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.inner.legal_actions()
    }

    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = actions_from(vec![action])?[0];
        self.inner.apply_action(a).map_err(to_py_err)
    }

    fn current_player(&self) -> i64 {
        openspiel_player(&self.inner)
    }

    fn is_chance_node(&self) -> bool {
        self.inner.actor() == Actor::Chance
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    fn history(&self) -> Vec<Action> {
        self.inner.history().to_vec()
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!("OhHellState(history={:?})", self.inner.history())
    }
}

/// For each history: the legal actions at every state along it (before each action, then at the
/// end), the OpenSpiel current player at each, and the final returns. GIL released.
#[pyfunction]
fn ohhell_trace(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    histories: Vec<Vec<i64>>,
) -> PyResult<Vec<Trace>> {
    let p = params_from_dict(params)?;
    let histories: Vec<Vec<Action>> = histories
        .into_iter()
        .map(actions_from)
        .collect::<PyResult<_>>()?;
    let traced = detach_guarded(py, move || {
        histories
            .iter()
            .enumerate()
            .map(|(i, h)| {
                trace_one(&p, h).map_err(|e| TtcgError::InvalidInput(format!("history {i}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    traced.map_err(to_py_err)
}

fn trace_one(p: &OhHellParams, h: &[Action]) -> Result<Trace, TtcgError> {
    let mut s = OhHellState::new(p.clone())?;
    let mut legal = Vec::with_capacity(h.len() + 1);
    let mut players = Vec::with_capacity(h.len() + 1);
    for (i, &a) in h.iter().enumerate() {
        legal.push(s.legal_actions());
        players.push(openspiel_player(&s));
        s.apply_action(a)
            .map_err(|e| TtcgError::InvalidInput(format!("action {i} ({a}): {e}")))?;
    }
    legal.push(s.legal_actions());
    players.push(openspiel_player(&s));
    Ok((legal, players, s.returns().to_vec()))
}

fn observer_from(observer: Option<i64>) -> PyResult<Option<usize>> {
    observer
        .map(|o| {
            usize::try_from(o).map_err(|_| {
                PyValueError::new_err(format!("observer must be a player index or None, got {o}"))
            })
        })
        .transpose()
}

fn observe_py(
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
) -> PyResult<Observation> {
    let p = params_from_dict(params)?;
    observe(&p, &actions_from(actions)?, observer_from(observer)?).map_err(to_py_err)
}

/// The observation as plain Python data: constraints fields plus the public template.
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None))]
fn ohhell_observe<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let o = observe_py(params, actions, observer)?;
    let d = PyDict::new(py);
    let c = &o.constraints;
    d.set_item("num_players", c.num_players)?;
    d.set_item("num_suits", c.num_suits)?;
    d.set_item("num_ranks", c.num_ranks)?;
    let known: Vec<i64> = c
        .known_owner
        .iter()
        .map(|k| k.map_or(-1, |x| x as i64))
        .collect();
    d.set_item("known_owner", known)?;
    d.set_item("hidden_counts", c.hidden_counts.clone())?;
    d.set_item("voids", c.voids.clone())?;
    d.set_item("num_tricks", o.template.num_tricks)?;
    d.set_item("dealer", o.template.dealer)?;
    d.set_item("trump_card", o.template.trump_card)?;
    let events: Vec<(u8, Action)> = o
        .template
        .events
        .iter()
        .map(|e| (e.player, e.action))
        .collect();
    d.set_item("events", events)?;
    d.set_item(
        "orders_per_assignment",
        deal_orders_per_assignment(&o.template) as f64,
    )?;
    Ok(d)
}

fn constraints_from(
    num_players: usize,
    num_suits: usize,
    num_ranks: usize,
    known_owner: Vec<i64>,
    hidden_counts: Vec<usize>,
    voids: Vec<Vec<bool>>,
) -> PyResult<DealConstraints> {
    let known_owner = known_owner
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
        num_players,
        num_suits,
        num_ranks,
        known_owner,
        hidden_counts,
        voids,
    })
}

/// A deal assignment (owner code per card id) consistent with the constraints, by max flow.
#[pyfunction]
fn ttcg_construct_deal<'py>(
    py: Python<'py>,
    num_players: usize,
    num_suits: usize,
    num_ranks: usize,
    known_owner: Vec<i64>,
    hidden_counts: Vec<usize>,
    voids: Vec<Vec<bool>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let c = constraints_from(
        num_players,
        num_suits,
        num_ranks,
        known_owner,
        hidden_counts,
        voids,
    )?;
    let a = detach_guarded(py, move || construct_assignment(&c))?.map_err(to_py_err)?;
    Ok(a.into_pyarray(py))
}

/// Every assignment consistent with the constraints (no reach weighting), as an n x cards array.
#[pyfunction]
#[pyo3(signature = (num_players, num_suits, num_ranks, known_owner, hidden_counts, voids, limit=1_000_000))]
#[allow(clippy::too_many_arguments)]
fn ttcg_enumerate_consistent<'py>(
    py: Python<'py>,
    num_players: usize,
    num_suits: usize,
    num_ranks: usize,
    known_owner: Vec<i64>,
    hidden_counts: Vec<usize>,
    voids: Vec<Vec<bool>>,
    limit: usize,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let c = constraints_from(
        num_players,
        num_suits,
        num_ranks,
        known_owner,
        hidden_counts,
        voids,
    )?;
    let cards = c.num_cards();
    let all = detach_guarded(py, move || enumerate_assignments(&c, limit))?.map_err(to_py_err)?;
    Ok(rows_to_array(py, &all, cards))
}

fn rows_to_array<'py>(
    py: Python<'py>,
    rows: &[Vec<Owner>],
    cards: usize,
) -> Bound<'py, PyArray2<u8>> {
    let flat: Vec<u8> = rows.iter().flatten().copied().collect();
    Array2::from_shape_vec((rows.len(), cards), flat)
        .expect("every assignment covers the deck")
        .into_pyarray(py)
}

/// A Python callable as a policy: `policy(player, info, legal_actions) -> probabilities`, where
/// `info` is a dict (num_tricks, dealer, trump_card, dealt_hand, current_hand, public_actions).
/// Answers are cached per information state. Errors are kept and re-raised after the Rust loop.
struct CallablePolicy {
    callable: Py<PyAny>,
    cache: PolicyCache,
    error: Mutex<Option<PyErr>>,
}

fn mask_cards(mask: u64) -> Vec<u32> {
    (0..64).filter(|c| mask >> c & 1 == 1).collect()
}

impl CallablePolicy {
    fn ask(&self, info: &InfoStateView<'_>) -> PyResult<Vec<f64>> {
        Python::attach(|py| {
            let d = PyDict::new(py);
            d.set_item("num_tricks", info.num_tricks)?;
            d.set_item("dealer", info.dealer)?;
            d.set_item("trump_card", info.trump_card)?;
            d.set_item("dealt_hand", mask_cards(info.dealt_hand))?;
            d.set_item("current_hand", mask_cards(info.current_hand))?;
            d.set_item("public_actions", info.public_actions.to_vec())?;
            let legal = PyList::new(py, info.legal_actions)?;
            let out = self.callable.bind(py).call1((info.player, d, legal))?;
            let probs: Vec<f64> = out.extract().map_err(|_| {
                PyTypeError::new_err(
                    "a policy callable must return a sequence of floats, one per legal action",
                )
            })?;
            let sum: f64 = probs.iter().sum();
            if probs.len() != info.legal_actions.len()
                || probs.iter().any(|&x| !(0.0..=1.0).contains(&x))
                || (sum - 1.0).abs() > 1e-6
            {
                return Err(PyValueError::new_err(format!(
                    "the policy returned {probs:?} for legal actions {:?}: need one probability per \
                     legal action, each in [0, 1], summing to 1",
                    info.legal_actions
                )));
            }
            Ok(probs)
        })
    }
}

impl Policy for CallablePolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        let key = (info.key(), info.legal_actions.to_vec());
        if let Some(p) = self.cache.lock().unwrap().get(&key) {
            return p[index];
        }
        match self.ask(info) {
            Ok(p) => {
                let x = p[index];
                self.cache.lock().unwrap().insert(key, p);
                x
            }
            Err(e) => {
                self.error.lock().unwrap().get_or_insert(e);
                f64::NAN
            }
        }
    }
}

/// The policy argument: a built-in policy object, None (uniform), or any callable.
pub(crate) enum PolicyArg {
    Builtin(BuiltinPolicy),
    Callable(Py<PyAny>),
}

/// Built-in policy specification, computed in Rust: `kind` is "uniform", "bias" or "softmax".
#[pyclass(module = "fogsearch._core", name = "BuiltinPolicy", frozen)]
#[derive(Clone)]
pub struct PyBuiltinPolicy {
    pub(crate) inner: BuiltinPolicy,
}

#[pymethods]
impl PyBuiltinPolicy {
    #[staticmethod]
    fn uniform() -> Self {
        PyBuiltinPolicy {
            inner: BuiltinPolicy::Uniform,
        }
    }

    #[staticmethod]
    fn bias(seed: u64, bias: f64) -> PyResult<Self> {
        if !(0.0..=1.0).contains(&bias) {
            return Err(PyValueError::new_err(format!(
                "bias must be in [0, 1], got {bias}"
            )));
        }
        Ok(PyBuiltinPolicy {
            inner: BuiltinPolicy::Bias(BiasPolicy { seed, bias }),
        })
    }

    #[staticmethod]
    fn softmax(seed: u64, beta: f64) -> PyResult<Self> {
        if !beta.is_finite() || beta < 0.0 {
            return Err(PyValueError::new_err(format!(
                "beta must be finite and >= 0, got {beta}"
            )));
        }
        Ok(PyBuiltinPolicy {
            inner: BuiltinPolicy::Softmax(SoftmaxPolicy { seed, beta }),
        })
    }

    fn __repr__(&self) -> String {
        match self.inner {
            BuiltinPolicy::Uniform => "UniformPolicy()".into(),
            BuiltinPolicy::Bias(b) => format!("BiasPolicy(seed={}, bias={})", b.seed, b.bias),
            BuiltinPolicy::Softmax(s) => format!("SoftmaxPolicy(seed={}, beta={})", s.seed, s.beta),
        }
    }
}

pub(crate) fn extract_policy(policy: Option<&Bound<'_, PyAny>>) -> PyResult<PolicyArg> {
    match policy {
        None => Ok(PolicyArg::Builtin(BuiltinPolicy::Uniform)),
        Some(p) if p.is_none() => Ok(PolicyArg::Builtin(BuiltinPolicy::Uniform)),
        Some(p) => {
            if let Ok(b) = p.cast::<PyBuiltinPolicy>() {
                return Ok(PolicyArg::Builtin(b.get().inner));
            }
            if let Ok(inner) = p.getattr("_builtin") {
                if let Ok(b) = inner.cast::<PyBuiltinPolicy>() {
                    return Ok(PolicyArg::Builtin(b.get().inner));
                }
            }
            if p.is_callable() {
                return Ok(PolicyArg::Callable(p.clone().unbind()));
            }
            Err(PyTypeError::new_err(
                "policy must be None (uniform), a fogsearch.ttcg policy, or a callable \
                 (player, info, legal_actions) -> probabilities",
            ))
        }
    }
}

/// Exact joint range: consistent deals with their log reach under `policy`. Built-in policies run
/// with the GIL released; a callable policy is asked with the GIL held, one deal after another.
pub(crate) fn weighted_deals(
    py: Python<'_>,
    o: &Observation,
    policy: &PolicyArg,
    limit: usize,
) -> PyResult<WeightedDeals> {
    match policy {
        PolicyArg::Builtin(b) => {
            let b = *b;
            detach_guarded(py, || {
                enumerate_weighted(&o.constraints, &o.template, &b, limit)
            })?
            .map_err(to_py_err)
        }
        PolicyArg::Callable(f) => {
            let all = enumerate_assignments(&o.constraints, limit).map_err(to_py_err)?;
            let cp = CallablePolicy {
                callable: f.clone_ref(py),
                cache: Mutex::new(HashMap::new()),
                error: Mutex::new(None),
            };
            let mut out = WeightedDeals::default();
            for a in all {
                let r = log_reach(&o.template, &a, &cp);
                if let Some(e) = cp.error.lock().unwrap().take() {
                    return Err(e);
                }
                if r > f64::NEG_INFINITY {
                    out.assignments.push(a);
                    out.log_reach.push(r);
                }
            }
            Ok(out)
        }
    }
}

/// Exact enumeration of the deals consistent with `observer`'s view of `actions`, with their
/// log reach: (assignments n x cards uint8, log_reach n float64, deal orders per assignment).
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None, policy=None, limit=1_000_000))]
fn ttcg_enumerate_deals<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
    policy: Option<&Bound<'py, PyAny>>,
    limit: usize,
) -> PyResult<EnumeratedDeals<'py>> {
    let o = observe_py(params, actions, observer)?;
    let policy = extract_policy(policy)?;
    let w = weighted_deals(py, &o, &policy, limit)?;
    let cards = o.constraints.num_cards();
    Ok((
        rows_to_array(py, &w.assignments, cards),
        w.log_reach.into_pyarray(py),
        deal_orders_per_assignment(&o.template) as f64,
    ))
}

/// Every OpenSpiel history (every deal order of every consistent deal) with its reach, walked in
/// Rust: returns (number of histories, sum of their reach probabilities relative to the most
/// likely deal). The cost of materialising each action list is included; nothing is returned per
/// history, so this measures enumeration, not Python object creation.
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None, policy=None, limit=1_000_000))]
fn ttcg_walk_histories(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
    policy: Option<&Bound<'_, PyAny>>,
    limit: usize,
) -> PyResult<(usize, f64)> {
    let o = observe_py(params, actions, observer)?;
    let policy = extract_policy(policy)?;
    let w = weighted_deals(py, &o, &policy, limit)?;
    let max = w
        .log_reach
        .iter()
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max);
    detach_guarded(py, move || {
        let mut total = 0.0;
        let mut count = 0;
        for (a, r) in w.assignments.iter().zip(&w.log_reach) {
            let weight = (r - max).exp();
            count += for_each_history(&o.template, std::slice::from_ref(a), |h| {
                std::hint::black_box(h);
                total += weight;
            });
        }
        (count, total)
    })
}

/// Log reach of `assignments` (n x cards) along the public history of `actions`.
#[pyfunction]
#[pyo3(signature = (params, actions, assignments, policy=None))]
fn ttcg_log_reach<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    assignments: PyReadonlyArray2<'py, u8>,
    policy: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let o = observe_py(params, actions, None)?;
    let a = assignments.as_array();
    if a.ncols() != o.constraints.num_cards() {
        return Err(PyValueError::new_err(format!(
            "assignments must have one column per card ({}), got {}",
            o.constraints.num_cards(),
            a.ncols()
        )));
    }
    let rows: Vec<Vec<Owner>> = a.outer_iter().map(|r| r.to_vec()).collect();
    let policy = extract_policy(policy)?;
    let out: Vec<f64> = match &policy {
        PolicyArg::Builtin(b) => {
            let b = *b;
            detach_guarded(py, || {
                rows.iter().map(|r| log_reach(&o.template, r, &b)).collect()
            })?
        }
        PolicyArg::Callable(f) => {
            let cp = CallablePolicy {
                callable: f.clone_ref(py),
                cache: Mutex::new(HashMap::new()),
                error: Mutex::new(None),
            };
            let mut v = Vec::with_capacity(rows.len());
            for r in &rows {
                v.push(log_reach(&o.template, r, &cp));
                if let Some(e) = cp.error.lock().unwrap().take() {
                    return Err(e);
                }
            }
            v
        }
    };
    Ok(out.into_pyarray(py))
}

/// A new OpenSpiel action list in which `player`'s information state is unchanged and the hidden
/// cards (undealt pile included) are drawn exactly from the joint range under `policy`; the deal
/// order within each hand is uniform.
#[pyfunction]
#[pyo3(signature = (params, actions, player, seed, policy=None, limit=200_000))]
fn ttcg_resample_history(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    player: i64,
    seed: u64,
    policy: Option<&Bound<'_, PyAny>>,
    limit: usize,
) -> PyResult<Vec<Action>> {
    let mut histories = resample_histories(py, params, actions, player, seed, 1, policy, limit)?;
    Ok(histories.pop().expect("one history was drawn"))
}

/// `n` independent resamples of one information state, enumerating its joint range once:
/// draw `i` uses stream `i` of `seed`.
#[pyfunction]
#[pyo3(signature = (params, actions, player, seed, n, policy=None, limit=200_000))]
#[allow(clippy::too_many_arguments)]
fn ttcg_resample_histories(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    player: i64,
    seed: u64,
    n: usize,
    policy: Option<&Bound<'_, PyAny>>,
    limit: usize,
) -> PyResult<Vec<Vec<Action>>> {
    resample_histories(py, params, actions, player, seed, n, policy, limit)
}

#[allow(clippy::too_many_arguments)]
fn resample_histories(
    py: Python<'_>,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    player: i64,
    seed: u64,
    n: usize,
    policy: Option<&Bound<'_, PyAny>>,
    limit: usize,
) -> PyResult<Vec<Vec<Action>>> {
    let o = observe_py(params, actions, Some(player))?;
    let policy = extract_policy(policy)?;
    let w = weighted_deals(py, &o, &policy, limit)?;
    if w.assignments.is_empty() {
        return Err(PyValueError::new_err(
            "the policy gives the observed actions probability 0 under every consistent deal",
        ));
    }
    let cumulative: Vec<f64> = w
        .probabilities()
        .iter()
        .scan(0.0, |acc, p| {
            *acc += p;
            Some(*acc)
        })
        .collect();
    Ok((0..n as u64)
        .map(|i| {
            let mut rng = if n == 1 {
                Rng::new(seed)
            } else {
                Rng::stream(seed, i)
            };
            let u = rng.next_f64() * cumulative[cumulative.len() - 1];
            let chosen = cumulative
                .partition_point(|&c| c <= u)
                .min(cumulative.len() - 1);
            shuffled_deal_history(&o, &w.assignments[chosen], &mut rng)
        })
        .collect())
}

/// The OpenSpiel action list of the history of `actions` with the hidden cards re-dealt as in
/// `assignment` (checked against `player`'s information state), deal order uniform by `seed`.
#[pyfunction]
fn ttcg_history_from_deal(
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    player: i64,
    assignment: Vec<u8>,
    seed: u64,
) -> PyResult<Vec<Action>> {
    let o = observe_py(params, actions, Some(player))?;
    if !is_consistent(&o.constraints, &assignment) {
        return Err(PyValueError::new_err(
            "the deal is not consistent with the player's information state",
        ));
    }
    Ok(shuffled_deal_history(&o, &assignment, &mut Rng::new(seed)))
}

fn shuffled_deal_history(o: &Observation, assignment: &[Owner], rng: &mut Rng) -> Vec<Action> {
    let players = o.template.params.players;
    let mut actions = o.template.openspiel_actions(assignment);
    for p in 0..players {
        let slots: Vec<usize> = (0..o.template.num_tricks)
            .map(|i| 2 + i * players + p)
            .collect();
        let mut cards: Vec<Action> = slots.iter().map(|&s| actions[s]).collect();
        rng.shuffle(&mut cards);
        for (s, c) in slots.into_iter().zip(cards) {
            actions[s] = c;
        }
    }
    actions
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "InfeasibleConstraints",
        m.py().get_type::<InfeasibleConstraints>(),
    )?;
    m.add_class::<PyOhHellState>()?;
    m.add_class::<PyBuiltinPolicy>()?;
    m.add_function(wrap_pyfunction!(ohhell_trace, m)?)?;
    m.add_function(wrap_pyfunction!(ohhell_observe, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_construct_deal, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_enumerate_consistent, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_enumerate_deals, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_log_reach, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_walk_histories, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_resample_history, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_history_from_deal, m)?)?;
    m.add_function(wrap_pyfunction!(ttcg_resample_histories, m)?)?;
    register_sampling(m)?;
    Ok(())
}

// ==== end game ====

// ==== sampler bindings below (they live in ttcg/sampling.rs) ====

mod sampling;

fn register_sampling(m: &Bound<'_, PyModule>) -> PyResult<()> {
    sampling::register(m)
}
