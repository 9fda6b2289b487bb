//! Bindings for `fogsearch_core::jps`, as the submodule `fogsearch._core.jps`: a game crosses as
//! a shared handle, policies as flat float64 arrays (one probability per action of each
//! information set, in the core's order), results as dicts of plain values and arrays.
//! `fogsearch.jps` builds the user-facing types.

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::jps::{
    self, Actor, CfrConfig, CfrStart, ChainValuation, GameSpec, GameTree, Init, JointPolicy,
    JpsError as CoreError, JpsSearchConfig, JpsSearchStats, RunConfig, SearchSettings, Start, Step,
};

use crate::errors::{detach_guarded, detach_interruptible, FogsearchError};
use crate::submodule;

create_exception!(
    fogsearch,
    JpsError,
    FogsearchError,
    "A Joint Policy Search request could not run: an unknown game name, a parameter out of its \
     range, or a policy that does not belong to the game."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // Every error class is also importable from `fogsearch._core` itself.
    m.add("JpsError", py.get_type::<JpsError>())?;
    submodule::add(m, "jps", |m| {
        m.add("JpsError", py.get_type::<JpsError>())?;
        m.add("MAX_STATES", jps::MAX_STATES)?;
        m.add("MAX_SEEDS", jps::MAX_SEEDS)?;
        m.add_class::<PyGame>()?;
        m.add_function(wrap_pyfunction!(expected_reward, m)?)?;
        m.add_function(wrap_pyfunction!(purified, m)?)?;
        m.add_function(wrap_pyfunction!(random_policy, m)?)?;
        m.add_function(wrap_pyfunction!(cfr, m)?)?;
        m.add_function(wrap_pyfunction!(value_change, m)?)?;
        m.add_function(wrap_pyfunction!(policy_change_density, m)?)?;
        m.add_function(wrap_pyfunction!(start_infosets, m)?)?;
        m.add_function(wrap_pyfunction!(joint_policy_search, m)?)?;
        m.add_function(wrap_pyfunction!(jps_step, m)?)?;
        m.add_function(wrap_pyfunction!(brute_force_step, m)?)?;
        m.add_function(wrap_pyfunction!(run_seeds, m)?)?;
        Ok(())
    })
}

fn jps_error(error: CoreError) -> PyErr {
    match error {
        // A stop is only requested by Ctrl-C, whose KeyboardInterrupt replaces this error.
        CoreError::Interrupted => PyKeyboardInterrupt::new_err(error.to_string()),
        other => JpsError::new_err(other.to_string()),
    }
}

/// One of paper 002's games, enumerated (`comm:l=3`, `mini_hanabi`, `simple_bidding:n=8`,
/// `mini_bridge:n=4`). Immutable, so it is shared freely between threads.
#[pyclass(module = "fogsearch._core.jps", name = "Game", frozen)]
pub struct PyGame {
    spec: GameSpec,
    tree: Arc<GameTree>,
}

#[pymethods]
impl PyGame {
    #[new]
    fn new(py: Python<'_>, name: &str) -> PyResult<Self> {
        let spec: GameSpec = name.parse().map_err(jps_error)?;
        let tree = detach_interruptible(py, move |stop| spec.build(stop))?.map_err(jps_error)?;
        Ok(PyGame {
            spec,
            tree: Arc::new(tree),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.spec.name()
    }

    /// Table 1's #States: every chance, decision and terminal state.
    #[getter]
    fn num_states(&self) -> usize {
        self.tree.num_states()
    }

    /// Table 1's #Infosets (the paper's counting; see the game's documentation).
    #[getter]
    fn num_infosets(&self) -> usize {
        self.tree.paper_infosets()
    }

    /// Information sets where a player decides (what policies are defined on).
    #[getter]
    fn num_decision_infosets(&self) -> usize {
        self.tree.num_infosets()
    }

    /// Length of a policy array.
    #[getter]
    fn num_policy_entries(&self) -> usize {
        self.tree.num_slots()
    }

    #[getter]
    fn max_depth(&self) -> u16 {
        self.tree.max_depth()
    }

    /// The search depth D the paper uses for this game (`None`: full depth).
    #[getter]
    fn paper_depth(&self) -> Option<u16> {
        self.spec.paper_depth()
    }

    #[getter]
    fn num_distinct_actions(&self) -> u16 {
        self.tree.num_distinct_actions()
    }

    #[getter]
    fn max_chance_outcomes(&self) -> u16 {
        self.tree.max_chance_outcomes()
    }

    /// Per decision information set: (label, player, first policy entry, number of actions).
    fn infosets(&self) -> Vec<(String, u8, u32, u16)> {
        (0..self.tree.num_infosets() as u32)
            .map(|i| {
                let info = self.tree.infoset(i);
                (
                    self.tree.infoset_label(i).to_string(),
                    info.player,
                    info.offset,
                    info.num_actions,
                )
            })
            .collect()
    }

    /// The whole tree as arrays, one entry per state in breadth-first order: `parent` (-1 at the
    /// root), `first_child`, `num_children`, `action` (the game's id of the action into the
    /// state), `player` (OpenSpiel's ids: -1 chance, -4 terminal), `infoset` (-1 unless a player
    /// decides), `utility` (terminals' common payoff) and `chance_prob` (the probability of the
    /// edge into the state when chance chose it, else 1).
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tree = &self.tree;
        let n = tree.num_states();
        let mut parent = vec![-1i64; n];
        let mut first_child = vec![-1i64; n];
        let mut num_children = vec![0i64; n];
        let mut action = vec![0i64; n];
        let mut player = vec![0i64; n];
        let mut infoset = vec![-1i64; n];
        let mut utility = vec![0f64; n];
        let mut chance_prob = vec![1f64; n];
        for h in 0..n as u32 {
            let k = h as usize;
            parent[k] = tree.parent(h).map_or(-1, i64::from);
            let children = tree.children(h);
            num_children[k] = children.len() as i64;
            if !children.is_empty() {
                first_child[k] = children.start as i64;
            }
            action[k] = tree.action(h) as i64;
            let actor = tree.actor(h);
            if actor == Actor::Chance {
                for (c, p) in children.zip(tree.chance_probs(h)) {
                    chance_prob[c as usize] = *p;
                }
            }
            player[k] = actor.openspiel_player_id();
            infoset[k] = tree.infoset_of(h).map_or(-1, i64::from);
            utility[k] = tree.utility(h);
        }
        let out = PyDict::new(py);
        for (key, values) in [
            ("parent", parent),
            ("first_child", first_child),
            ("num_children", num_children),
            ("action", action),
            ("player", player),
            ("infoset", infoset),
        ] {
            out.set_item(key, values.into_pyarray(py))?;
        }
        out.set_item("utility", utility.into_pyarray(py))?;
        out.set_item("chance_prob", chance_prob.into_pyarray(py))?;
        Ok(out)
    }

    /// The label of `action` for `player` (-1: chance), as OpenSpiel's `action_to_string`.
    fn action_label(&self, player: i64, action: u16) -> Option<String> {
        let actor = Actor::from_openspiel_player_id(player)?;
        self.tree.action_label(actor, action).map(str::to_string)
    }

    /// What `player` sees of the deal `action` at the root (its private value, e.g. `s5`).
    fn deal_view(&self, player: u8, action: u16) -> Option<String> {
        self.tree.deal_view(player, action).map(str::to_string)
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.spec.name())
    }

    /// A game is its name: it pickles as the name and is rebuilt (enumerated again) from it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String,)) {
        (slf.get_type().into_any(), (slf.get().spec.name(),))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|o| o.get().spec == self.spec)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.spec.name().hash(&mut h);
        h.finish()
    }
}

/// A policy array checked against the game.
fn checked_policy(game: &PyGame, probs: PyReadonlyArray1<'_, f64>) -> PyResult<JointPolicy> {
    let values = probs
        .as_slice()
        .map(<[f64]>::to_vec)
        .unwrap_or_else(|_| probs.as_array().to_vec());
    JointPolicy::from_probs(&game.tree, values).map_err(jps_error)
}

fn array<'py>(py: Python<'py>, policy: JointPolicy) -> Bound<'py, PyArray1<f64>> {
    policy.into_probs().into_pyarray(py)
}

/// The expected common reward of a policy.
#[pyfunction]
fn expected_reward(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    probs: PyReadonlyArray1<'_, f64>,
) -> PyResult<f64> {
    let game = game.get();
    let policy = checked_policy(game, probs)?;
    let tree = Arc::clone(&game.tree);
    detach_guarded(py, move || jps::expected_reward(&tree, &policy))?.map_err(jps_error)
}

/// The pure policy of each information set's most likely action (the lowest on ties).
#[pyfunction]
fn purified<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    probs: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let game = game.get();
    Ok(array(py, checked_policy(game, probs)?.purified(&game.tree)))
}

/// Independent U(0, 1) weights per information set, normalised, from `seed`.
#[pyfunction]
fn random_policy<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    seed: u64,
) -> Bound<'py, PyArray1<f64>> {
    let tree = &game.get().tree;
    array(
        py,
        JointPolicy::random(tree, &mut fogsearch_core::rng::Rng::new(seed)),
    )
}

/// CFR's current and average policies and its mean value.
type CfrArrays<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>, f64);

/// A per-seed, per-setting number of [`jps::SearchRun`].
type Column<'a> = (&'a str, &'a dyn Fn(&jps::SearchRun) -> f64);

/// CFR: returns `(current, average, mean_value)`.
#[pyfunction]
#[pyo3(signature = (game, iterations, *, plus, alternating, start, exploration, seed))]
#[allow(clippy::too_many_arguments)]
fn cfr<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    iterations: u32,
    plus: bool,
    alternating: bool,
    start: &str,
    exploration: f64,
    seed: u64,
) -> PyResult<CfrArrays<'py>> {
    let start: CfrStart = start.parse().map_err(jps_error)?;
    let config = CfrConfig {
        iterations,
        plus,
        alternating,
        start,
        exploration,
        seed,
    };
    let tree = Arc::clone(&game.get().tree);
    let result =
        detach_interruptible(py, move |stop| jps::cfr(&tree, &config, stop))?.map_err(jps_error)?;
    Ok((
        array(py, result.current),
        array(py, result.average),
        result.mean_value,
    ))
}

/// Theorem 1: `(total, [(infoset, J(I)), ...])` for the change `old -> new`.
#[pyfunction]
fn value_change(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    old: PyReadonlyArray1<'_, f64>,
    new: PyReadonlyArray1<'_, f64>,
) -> PyResult<(f64, Vec<(u32, f64)>)> {
    let game = game.get();
    let (old, new) = (checked_policy(game, old)?, checked_policy(game, new)?);
    let tree = Arc::clone(&game.tree);
    let change =
        detach_guarded(py, move || jps::value_change(&tree, &old, &new))?.map_err(jps_error)?;
    Ok((change.total, change.by_infoset))
}

/// The policy-change density of every state for the change `old -> new` (Eq. 5).
#[pyfunction]
fn policy_change_density<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    old: PyReadonlyArray1<'py, f64>,
    new: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let game = game.get();
    let (old, new) = (checked_policy(game, old)?, checked_policy(game, new)?);
    let tree = Arc::clone(&game.tree);
    let rho = detach_guarded(py, move || jps::policy_change_density(&tree, &old, &new))?
        .map_err(jps_error)?;
    Ok(rho.into_pyarray(py))
}

/// The information sets chains start from: the first ones (`depth=None`) or those at `depth`.
#[pyfunction]
#[pyo3(signature = (game, depth=None))]
fn start_infosets(game: &Bound<'_, PyGame>, depth: Option<u16>) -> Vec<u32> {
    let start = depth.map_or(Start::First, Start::AtDepth);
    jps::start_infosets(&game.get().tree, start)
}

fn stats_dict<'py>(py: Python<'py>, stats: &JpsSearchStats) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("links", stats.links)?;
    out.set_item("states", stats.states)?;
    out.set_item("evaluations", stats.evaluations)?;
    out.set_item("search_seconds", stats.search_seconds)?;
    out.set_item("evaluate_seconds", stats.evaluate_seconds)?;
    Ok(out)
}

/// JPS from one policy: a dict with the final (or best sampled) policy and its value, the value
/// history, the predicted gains and the work counters.
#[pyfunction]
#[pyo3(signature = (game, policy, *, depth, samples, iterations, seed))]
fn joint_policy_search<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    policy: PyReadonlyArray1<'py, f64>,
    depth: Option<u16>,
    samples: Option<u32>,
    iterations: u32,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game.get();
    let start = checked_policy(game, policy)?;
    let config = JpsSearchConfig {
        depth,
        samples,
        iterations,
        seed,
    };
    let tree = Arc::clone(&game.tree);
    let outcome = detach_interruptible(py, move |stop| {
        jps::joint_policy_search(&tree, &start, &config, stop)
    })?
    .map_err(jps_error)?;
    let out = PyDict::new(py);
    out.set_item("initial_value", outcome.initial_value())?;
    out.set_item("iterations", outcome.iterations())?;
    out.set_item("policy", array(py, outcome.policy))?;
    out.set_item("value", outcome.value)?;
    out.set_item("history", outcome.history)?;
    out.set_item("predicted", outcome.predicted)?;
    out.set_item("improvements", outcome.improvements)?;
    out.set_item("stats", stats_dict(py, &outcome.stats)?)?;
    Ok(out)
}

fn step_dict<'py>(py: Python<'py>, step: Step) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("gain", step.gain)?;
    out.set_item("chain", step.chain)?;
    out.set_item("stats", stats_dict(py, &step.stats)?)?;
    Ok(out)
}

/// One JPS iteration: the best chain from `starts` (at most `depth` links).
#[pyfunction]
#[pyo3(signature = (game, probs, starts, depth=None))]
fn jps_step<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    probs: PyReadonlyArray1<'py, f64>,
    starts: Vec<u32>,
    depth: Option<u16>,
) -> PyResult<Bound<'py, PyDict>> {
    one_step(py, game, probs, starts, depth, ChainValuation::Incremental)
}

/// The same chains as [`jps_step`], each valued by re-evaluating the whole game.
#[pyfunction]
#[pyo3(signature = (game, probs, starts, depth=None))]
fn brute_force_step<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    probs: PyReadonlyArray1<'py, f64>,
    starts: Vec<u32>,
    depth: Option<u16>,
) -> PyResult<Bound<'py, PyDict>> {
    one_step(py, game, probs, starts, depth, ChainValuation::BruteForce)
}

/// The core's search of one iteration's chains ([`jps::search_step`]), valued as `valuation`
/// says, run without the GIL on `game` from the policy `probs`.
fn one_step<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    probs: PyReadonlyArray1<'py, f64>,
    starts: Vec<u32>,
    depth: Option<u16>,
    valuation: ChainValuation,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game.get();
    let policy = checked_policy(game, probs)?;
    let tree = Arc::clone(&game.tree);
    let found = detach_interruptible(py, move |stop| {
        jps::search_step(valuation, &tree, &policy, &starts, depth, stop)
    })?
    .map_err(jps_error)?;
    step_dict(py, found)
}

/// Seeds `first_seed .. first_seed + count`, each: a start (`init` "cfr" with `cfr_iterations`,
/// or "random"), then every JPS setting `(purify_start, depth, samples, iterations)` in
/// `searches`. Returns a
/// dict of arrays: per seed `seed`, `init_value`, `init_seconds`; per seed and setting (2-D)
/// `start_value`, `value`, `iterations`, `improvements`, `links`, `states`, `evaluations`,
/// `search_seconds`, `evaluate_seconds`.
#[pyfunction]
#[pyo3(signature = (game, *, init, cfr_iterations, searches, first_seed, count, threads))]
#[allow(clippy::too_many_arguments)]
fn run_seeds<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    init: &str,
    cfr_iterations: u32,
    searches: Vec<(bool, Option<u16>, Option<u32>, u32)>,
    first_seed: u64,
    count: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let init = Init::from_kind(init, cfr_iterations).map_err(jps_error)?;
    let config = RunConfig {
        init,
        searches: searches
            .into_iter()
            .map(
                |(purify_start, depth, samples, iterations)| SearchSettings {
                    purify_start,
                    depth,
                    samples,
                    iterations,
                },
            )
            .collect(),
    };
    let tree = Arc::clone(&game.get().tree);
    let runs = detach_interruptible(py, move |stop| {
        jps::run_seeds(&tree, &config, first_seed, count, threads, stop)
    })?
    .map_err(jps_error)?;
    let rows = runs.len();
    let cols = runs.first().map_or(0, |r| r.searches.len());
    let per_search = |f: &dyn Fn(&jps::SearchRun) -> f64| -> Vec<Vec<f64>> {
        runs.iter()
            .map(|r| r.searches.iter().map(f).collect())
            .collect()
    };
    let out = PyDict::new(py);
    out.set_item(
        "seed",
        runs.iter()
            .map(|r| r.seed)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "init_value",
        runs.iter()
            .map(|r| r.init_value)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "init_seconds",
        runs.iter()
            .map(|r| r.init_seconds)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    let columns: [Column<'_>; 9] = [
        ("start_value", &|s| s.start_value),
        ("value", &|s| s.value),
        ("iterations", &|s| s.iterations as f64),
        ("improvements", &|s| s.improvements as f64),
        ("links", &|s| s.stats.links as f64),
        ("states", &|s| s.stats.states as f64),
        ("evaluations", &|s| s.stats.evaluations as f64),
        ("search_seconds", &|s| s.stats.search_seconds),
        ("evaluate_seconds", &|s| s.stats.evaluate_seconds),
    ];
    for (key, f) in columns {
        let table = per_search(f);
        let flat: Vec<f64> = table.into_iter().flatten().collect();
        let matrix = numpy::ndarray::Array2::from_shape_vec((rows, cols), flat)
            .map_err(|e| JpsError::new_err(e.to_string()))?;
        let matrix: Bound<'py, PyArray2<f64>> = matrix.into_pyarray(py);
        out.set_item(key, matrix)?;
    }
    Ok(out)
}
