//! The Oh Hell and Gongzhu states with OpenSpiel's interface subset (action ids, player codes,
//! returns), and observations as plain Python data.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use fogsearch_core::ttcg::{
    cards_of, deal_orders_per_assignment, gongzhu_rules, hands_from_ids, observe_gongzhu,
    openspiel_player, Action, GongzhuState, Hand, Observation, OhHellState,
};

use super::state::observation_of;
use super::{actions_from, observer_from, params_from_dict, run, to_py_err};
use crate::pickle;

/// The cards of a hand as action ids (Python ints, not bytes).
fn card_list(hand: Hand) -> Vec<Action> {
    cards_of(hand).map(Action::from).collect()
}

/// An Oh Hell state with OpenSpiel's interface subset (ids, player codes, returns).
#[pyclass(module = "fogsearch._core.ttcg", name = "OhHellState")]
#[derive(Clone)]
pub struct PyOhHellState {
    pub(crate) inner: OhHellState,
}

/// One `#[pymethods]` block for a game's state class: the methods every state shares (legal
/// actions, a checked `apply_action`, the end, returns, history, copies and pickling by the
/// core's bytes, a repr naming the class) followed by the class's own `$extra` items.
macro_rules! state_methods {
    ($py_type:ident, $core_type:ident, $name:literal, { $($extra:tt)* }) => {
        #[pymethods]
        impl $py_type {
            fn legal_actions(&self) -> Vec<Action> {
                self.inner.legal_actions()
            }

            /// Applies `action`; an illegal one raises ValueError and leaves the state
            /// unchanged. `ConcurrentUseError` while another thread's call (a player's search)
            /// reads the state.
            fn apply_action(slf: &Bound<'_, Self>, action: i64) -> PyResult<()> {
                let a = actions_from(vec![action])?[0];
                crate::errors::write(slf)?
                    .inner
                    .apply_action(a)
                    .map_err(to_py_err)
            }

            fn is_terminal(&self) -> bool {
                self.inner.is_terminal()
            }

            fn returns(&self) -> Vec<f64> {
                self.inner.returns()
            }

            fn history(&self) -> Vec<Action> {
                self.inner.history().to_vec()
            }

            fn clone(&self) -> Self {
                Clone::clone(self)
            }

            fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, &self.inner.to_bytes())
            }

            #[staticmethod]
            fn from_bytes(data: &[u8]) -> PyResult<Self> {
                Ok($py_type {
                    inner: $core_type::from_bytes(data).map_err(to_py_err)?,
                })
            }

            fn __reduce__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
                pickle::reduce::<Self>(py, &self.inner.to_bytes())
            }

            fn __repr__(&self) -> String {
                format!(concat!($name, "(history={:?})"), self.inner.history())
            }

            $($extra)*
        }
    };
}

state_methods!(PyOhHellState, OhHellState, "OhHellState", {
    #[new]
    fn new(params: &Bound<'_, PyDict>) -> PyResult<Self> {
        let p = params_from_dict(params)?;
        Ok(PyOhHellState {
            inner: OhHellState::new(p).map_err(to_py_err)?,
        })
    }

    fn current_player(&self) -> i64 {
        openspiel_player(&self.inner)
    }

    fn is_chance_node(&self) -> bool {
        self.inner.actor() == fogsearch_core::ttcg::Actor::Chance
    }
});

/// A Gongzhu game: 52 chance actions deal the cards round-robin from seat 0, then seat 0 leads.
/// `current_player()` is -1 at chance nodes and -4 at the end, as OpenSpiel's codes;
/// `returns()` is each seat's team points minus the other team's; `points()` a seat's own.
#[pyclass(module = "fogsearch._core.ttcg", name = "GongzhuState")]
#[derive(Clone)]
pub struct PyGongzhuState {
    pub(crate) inner: GongzhuState,
}

state_methods!(PyGongzhuState, GongzhuState, "GongzhuState", {
    #[new]
    fn new() -> Self {
        PyGongzhuState {
            inner: GongzhuState::new(),
        }
    }

    /// The state after `actions` (the 52 dealing actions, then plays); ValueError names the first
    /// illegal action.
    #[staticmethod]
    fn from_actions(actions: Vec<i64>) -> PyResult<Self> {
        Ok(PyGongzhuState {
            inner: GongzhuState::from_actions(&actions_from(actions)?).map_err(to_py_err)?,
        })
    }

    /// The dealing actions of `hands` (four lists of 13 card ids that use every card once).
    #[staticmethod]
    fn deal_actions(hands: Vec<Vec<i64>>) -> PyResult<Vec<Action>> {
        let masks = hands_from_ids(&gongzhu_rules::DECK, &hands).map_err(to_py_err)?;
        GongzhuState::deal_actions(&masks).map_err(to_py_err)
    }

    fn current_player(&self) -> i64 {
        match self.inner.current_player() {
            Some(p) => p as i64,
            None if self.inner.is_terminal() => fogsearch_core::ttcg::TERMINAL_PLAYER_ID,
            None => fogsearch_core::ttcg::CHANCE_PLAYER_ID,
        }
    }

    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    fn points(&self) -> Vec<f64> {
        self.inner.points()
    }

    /// Each seat's dealt hand (card ids, ascending).
    fn dealt_hands(&self) -> Vec<Vec<Action>> {
        self.inner
            .dealt_hands()
            .iter()
            .map(|&h| card_list(h))
            .collect()
    }

    /// Each seat's cards still in hand.
    fn hands(&self) -> Vec<Vec<Action>> {
        match self.inner.table_state() {
            Some(t) => t.hands[..4].iter().map(|&h| card_list(h)).collect(),
            None => self.dealt_hands(),
        }
    }

    /// The cards each seat has taken in tricks.
    fn taken(&self) -> Vec<Vec<Action>> {
        match self.inner.table_state() {
            Some(t) => t.public.taken[..4].iter().map(|&h| card_list(h)).collect(),
            None => vec![Vec::new(); 4],
        }
    }

    /// Every play so far as (seat, card), in order.
    fn plays(&self) -> Vec<(usize, Action)> {
        self.inner
            .plays()
            .into_iter()
            .map(|(s, c)| (s, c as Action))
            .collect()
    }

    /// The cards of the trick in progress, the lead first.
    fn current_trick(&self) -> Vec<Action> {
        self.inner.table_state().map_or(Vec::new(), |t| {
            t.public.trick().iter().map(|&c| c as Action).collect()
        })
    }
});

/// The observation as plain Python data: the constraints' fields plus the public template.
fn observation_dict<'py>(py: Python<'py>, o: &Observation) -> PyResult<Bound<'py, PyDict>> {
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
    d.set_item("num_tricks", o.template.table.num_tricks)?;
    d.set_item("dealer", o.template.table.dealer)?;
    d.set_item("trump_card", o.template.table.trump_card)?;
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

/// What `observer` (a player, or None for the public state) knows after the oh_hell `actions`.
#[pyfunction]
#[pyo3(signature = (params, actions, observer=None))]
fn observe_ohhell<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    actions: Vec<i64>,
    observer: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    observation_dict(py, &observation_of("oh_hell", params, actions, observer)?)
}

/// What `observer` knows after the Gongzhu `actions` (as `observe_ohhell`).
#[pyfunction]
#[pyo3(name = "observe_gongzhu", signature = (actions, observer=None))]
fn observe_gongzhu_py<'py>(
    py: Python<'py>,
    actions: Vec<i64>,
    observer: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let o =
        observe_gongzhu(&actions_from(actions)?, observer_from(observer)?).map_err(to_py_err)?;
    observation_dict(py, &o)
}

/// Plays `games` Gongzhu games with random legal plays in Rust and checks the rules' invariants
/// after each (see `fogsearch_core::ttcg::check_random_games`): a dict with the number of games,
/// the number of broken invariants and the first few, and how often the rarer scoring rules
/// (all hearts, the transformer alone or doubling, pig and sheep together) arose.
#[pyfunction]
#[pyo3(signature = (games, seed=0))]
fn gongzhu_random_play_check<'py>(
    py: Python<'py>,
    games: u64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = run(py, Some(1), |stop| {
        fogsearch_core::ttcg::check_random_games(games, seed, stop)
    })?;
    let d = PyDict::new(py);
    d.set_item("games", r.games)?;
    d.set_item("violation_count", r.violation_count)?;
    d.set_item("violations", r.violations)?;
    d.set_item("all_hearts", r.all_hearts)?;
    d.set_item("transformer_alone", r.transformer_alone)?;
    d.set_item("transformer_doubling", r.transformer_doubling)?;
    d.set_item("pig_and_sheep_together", r.pig_and_sheep_together)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gongzhu_random_play_check, m)?)?;
    m.add_class::<PyOhHellState>()?;
    m.add_class::<PyGongzhuState>()?;
    m.add_function(wrap_pyfunction!(observe_ohhell, m)?)?;
    m.add_function(wrap_pyfunction!(observe_gongzhu_py, m)?)?;
    Ok(())
}
