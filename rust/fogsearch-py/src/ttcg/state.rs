//! Any registered trick-taking game by name: `CardState(game, params)`, the registry's entries
//! (`game_info`, `GAMES`), and legal actions along histories (`trace_game`).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use fogsearch_core::ttcg::{
    game_spec, openspiel_player_id, Action, CardGameState, GameSpec, Observation, ParamValue,
    Trace, TtcgError, GAMES,
};

use super::{actions_from, observer_from, run, to_py_err};

/// (name, value) pairs read from a mapping by `read` (None: no pairs); a value `read` maps to
/// None is left out.
pub(crate) fn named_values<V>(
    mapping: Option<&Bound<'_, PyDict>>,
    read: impl Fn(&str, &Bound<'_, PyAny>) -> PyResult<Option<V>>,
) -> PyResult<Vec<(String, V)>> {
    let Some(mapping) = mapping else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(mapping.len());
    for (key, value) in mapping.iter() {
        let key: String = key.extract()?;
        if let Some(value) = read(&key, &value)? {
            out.push((key, value));
        }
    }
    Ok(out)
}

/// (name, value) pairs from a mapping of OpenSpiel-named parameters (None: no parameters).
pub(crate) fn params_of(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, ParamValue)>> {
    named_values(params, |key, value| {
        // A Python bool is also an int: read it as a bool first.
        if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
            Ok(Some(ParamValue::Bool(b.is_true())))
        } else if let Ok(i) = value.extract::<i64>() {
            Ok(Some(ParamValue::Int(i)))
        } else {
            Err(PyTypeError::new_err(format!(
                "parameter {key} must be an int or a bool"
            )))
        }
    })
}

pub(crate) fn spec_named(game: &str) -> PyResult<&'static GameSpec> {
    game_spec(game).map_err(to_py_err)
}

/// The observation of `actions` in `game` (any game of the registry) with `params`.
pub(crate) fn observation_of(
    game: &str,
    params: &Bound<'_, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
) -> PyResult<Observation> {
    spec_named(game)?
        .observe(
            &params_of(Some(params))?,
            &actions_from(actions)?,
            observer_from(observer)?,
        )
        .map_err(to_py_err)
}

/// A game of the registry at any point, chance nodes included, with OpenSpiel's action ids.
#[pyclass(module = "fogsearch._core.ttcg", name = "CardState")]
pub struct PyCardState {
    pub(crate) inner: Box<dyn CardGameState>,
    name: &'static str,
}

#[pymethods]
impl PyCardState {
    #[new]
    #[pyo3(signature = (game, params=None))]
    fn new(game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let spec = spec_named(game)?;
        Ok(PyCardState {
            inner: spec.start(&params_of(params)?).map_err(to_py_err)?,
            name: spec.name,
        })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.name
    }

    fn num_players(&self) -> usize {
        self.inner.game().num_players()
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.inner.legal_actions()
    }

    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = actions_from(vec![action])?[0];
        self.inner.apply_action(a).map_err(to_py_err)
    }

    /// OpenSpiel's code: the seat to act, -1 at chance nodes, -4 at the end.
    fn current_player(&self) -> i64 {
        openspiel_player_id(&*self.inner)
    }

    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Whether play at the table has started: chance and every decision before the first bid
    /// or card (Hearts' passes) are behind.
    fn at_table(&self) -> bool {
        self.inner.table_state().is_some()
    }

    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    fn history(&self) -> Vec<Action> {
        self.inner.history().to_vec()
    }

    fn clone(&self) -> Self {
        PyCardState {
            inner: self.inner.box_clone(),
            name: self.name,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "CardState({:?}, history={:?})",
            self.name,
            self.inner.history()
        )
    }
}

/// The registry's entry for `game`, with `params` resolved: seats, teams (each seat's team),
/// parameters with their defaults, the card search's settings, and which players know it.
#[pyfunction]
#[pyo3(signature = (game, params=None))]
fn game_info<'py>(
    py: Python<'py>,
    game: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = spec_named(game)?;
    let built = spec.game(&params_of(params)?).map_err(to_py_err)?;
    let d = PyDict::new(py);
    d.set_item("name", spec.name)?;
    d.set_item("seats", built.num_players())?;
    d.set_item("teams", built.num_teams())?;
    let team_of: Vec<usize> = (0..built.num_players()).map(|s| built.team_of(s)).collect();
    d.set_item("team_of", team_of)?;
    let defaults = PyDict::new(py);
    for p in spec.params {
        match p.default {
            ParamValue::Int(v) => defaults.set_item(p.name, v)?,
            ParamValue::Bool(b) => defaults.set_item(p.name, b)?,
        }
    }
    d.set_item("params", defaults)?;
    let search = PyDict::new(py);
    search.set_item("deals", spec.search.deals)?;
    search.set_item("iterations", spec.search.iterations)?;
    search.set_item("exploration", spec.search.exploration)?;
    search.set_item("shared_tree", spec.search.shared_tree)?;
    d.set_item("search", search)?;
    d.set_item("greed_players", spec.greed_players)?;
    d.set_item("openspiel_ismcts", spec.openspiel_ismcts)?;
    Ok(d)
}

/// For each history of `game`: the legal actions at every state along it (before each action,
/// then at the end), the OpenSpiel current player at each, and the final returns. GIL released.
#[pyfunction]
#[pyo3(signature = (game, params, histories))]
fn trace_game(
    py: Python<'_>,
    game: &str,
    params: Option<&Bound<'_, PyDict>>,
    histories: Vec<Vec<i64>>,
) -> PyResult<Vec<Trace>> {
    let spec = spec_named(game)?;
    let given = params_of(params)?;
    let histories: Vec<Vec<Action>> = histories
        .into_iter()
        .map(actions_from)
        .collect::<PyResult<_>>()?;
    run(py, Some(1), move |stop| {
        histories
            .iter()
            .enumerate()
            .map(|(i, h)| {
                if stop.requested() {
                    return Err(TtcgError::Interrupted);
                }
                spec.trace(&given, h)
                    .map_err(|e| TtcgError::InvalidInput(format!("history {i}: {e}")))
            })
            .collect()
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    m.add("GAMES", pyo3::types::PyTuple::new(m.py(), names)?)?;
    m.add_class::<PyCardState>()?;
    m.add_function(wrap_pyfunction!(game_info, m)?)?;
    m.add_function(wrap_pyfunction!(trace_game, m)?)?;
    Ok(())
}
