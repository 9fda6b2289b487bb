//! Players and whole deals: the rule-based players, the searching player, and deals played out in
//! Rust. A state argument is a native `OhHellState` or `GongzhuState` past its chance nodes.

use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyTuple};

use fogsearch_core::rng::Rng;
use fogsearch_core::ttcg::{
    check_output, observe_seat, play_out, search_move, Action, CardGameState, CardPlayer,
    CardSearchConfig, FromSettings, Hand, SamplerConfig, SettingValue, TableState, TrickGame,
    TtcgError, Turn, CARD_SEARCH_SETTINGS, SAMPLER_SETTINGS,
};

use super::games::{PyGongzhuState, PyOhHellState};
use super::state::{named_values, params_of, spec_named, PyCardState};
use super::{run, to_py_err};

/// Deals (n x cards owner codes) and their log weights.
type SampledDeals<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<f64>>);

/// A state's game, its table, the dealt hands and the public actions so far.
struct Seated {
    game: Arc<dyn TrickGame>,
    table: TableState,
    dealt: Vec<Hand>,
    public_actions: Vec<Action>,
}

fn seated(state: &Bound<'_, PyAny>) -> PyResult<Seated> {
    if let Ok(s) = state.cast::<PyOhHellState>() {
        return seated_at(&crate::errors::read(s)?.inner);
    }
    if let Ok(s) = state.cast::<PyGongzhuState>() {
        return seated_at(&crate::errors::read(s)?.inner);
    }
    if let Ok(s) = state.cast::<PyCardState>() {
        return seated_at(&*crate::errors::read(s)?.inner);
    }
    Err(PyTypeError::new_err(
        "state must be a fogsearch._core.ttcg OhHellState or GongzhuState or CardState",
    ))
}

/// Any game's state at the table, through the core's `CardGameState`.
fn seated_at(s: &dyn CardGameState) -> PyResult<Seated> {
    let table = *s
        .table_state()
        .ok_or_else(|| PyValueError::new_err("the state is still being dealt (a chance node)"))?;
    Ok(Seated {
        game: s.game(),
        table,
        dealt: s.dealt_hands().to_vec(),
        public_actions: s.public_actions().to_vec(),
    })
}

/// A player: `Player.random()`, `Player.mr_if()`, `Player.greed()` (Gongzhu), or
/// `Player.search(game, sampler, ...)`.
#[pyclass(module = "fogsearch._core.ttcg", name = "Player", frozen)]
pub struct PyPlayer {
    inner: CardPlayer,
}

#[pymethods]
impl PyPlayer {
    #[staticmethod]
    fn random() -> Self {
        PyPlayer {
            inner: CardPlayer::Random,
        }
    }

    #[staticmethod]
    fn mr_if() -> Self {
        PyPlayer {
            inner: CardPlayer::If,
        }
    }

    #[staticmethod]
    fn greed() -> Self {
        PyPlayer {
            inner: CardPlayer::Greed,
        }
    }

    /// The searching player for `game` (a name of the registry, with `params`): per move
    /// `deals` deals from `sampler` ("us", "ss", "us+iec", "ss+iec", "gibbs", "pairs"), each
    /// searched by UCB-MCTS for `iterations` iterations (or until `seconds` per move), values
    /// averaged with the sampler's weights; or, with `shared_tree`, one information-set tree over
    /// all the deals (single-observer ISMCTS). `settings` are named as `CARD_SEARCH_SETTINGS`;
    /// unset ones (or None) take the game's defaults, which the core holds
    /// (`card_search_defaults`), and the core checks them.
    #[staticmethod]
    #[pyo3(signature = (game="gongzhu", params=None, **settings))]
    fn search(
        game: &str,
        params: Option<&Bound<'_, PyDict>>,
        settings: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game: Arc<dyn TrickGame> = spec_named(game)?
            .game(&params_of(params)?)
            .map_err(to_py_err)?;
        let config =
            CardSearchConfig::from_settings(&*game, &settings_of(settings)?).map_err(to_py_err)?;
        Ok(PyPlayer {
            inner: CardPlayer::Search(Box::new(config)),
        })
    }

    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.name()
    }

    /// The action this player takes at `state` (the seat to act), its random choices drawn
    /// from `seed`. GIL released; Ctrl-C interrupts a search.
    fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>, seed: u64) -> PyResult<Action> {
        let s = seated(state)?;
        self.inner.check_game(&*s.game).map_err(to_py_err)?;
        run(py, Some(1), |stop| {
            if s.table.is_over() {
                return Err(TtcgError::InvalidInput("the game is over".into()));
            }
            let turn = Turn {
                game: &s.game,
                state: &s.table,
                dealt: s.dealt[s.table.to_act()],
                public_actions: &s.public_actions,
            };
            self.inner.act(&turn, &mut Rng::new(seed), stop)
        })
    }

    /// What the searching player computed for its move at `state`: a dict with the action, each
    /// legal action's mean value over the deals, the number of deals, their effective number
    /// under the weights, and the search iterations.
    fn explain<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'_, PyAny>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let CardPlayer::Search(config) = &self.inner else {
            return Err(PyValueError::new_err(
                "only the searching player explains its moves",
            ));
        };
        let s = seated(state)?;
        let result = run(py, Some(1), |stop| {
            let turn = Turn {
                game: &s.game,
                state: &s.table,
                dealt: s.dealt[s.table.to_act()],
                public_actions: &s.public_actions,
            };
            search_move(&turn, config, seed, stop)
        })?;
        let d = PyDict::new(py);
        d.set_item("action", result.action)?;
        d.set_item("values", result.values)?;
        d.set_item("deals", result.deals)?;
        d.set_item("effective_deals", result.effective_deals)?;
        d.set_item("iterations", result.iterations)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        match &self.inner {
            CardPlayer::Search(c) => format!(
                "Player.search(sampler={:?}, deals={}, iterations={}, seconds={:?}, exploration={})",
                c.sampler.name(),
                c.deals,
                c.iterations,
                c.seconds,
                c.exploration
            ),
            other => format!("Player.{}()", other.name()),
        }
    }
}

/// (name, value) pairs of search settings from keyword arguments, None ones left out.
fn settings_of(settings: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, SettingValue)>> {
    named_values(settings, |key, value| {
        if value.is_none() {
            return Ok(None);
        }
        let setting = if let Ok(b) = value.cast::<PyBool>() {
            SettingValue::Bool(b.is_true())
        } else if value.cast::<PyInt>().is_ok() {
            SettingValue::Int(value.extract::<i64>().map_err(|_| {
                PyValueError::new_err(format!("{key} = {value} does not fit in 64 bits"))
            })?)
        } else if let Ok(f) = value.extract::<f64>() {
            SettingValue::Float(f)
        } else if let Ok(t) = value.extract::<String>() {
            SettingValue::Text(t)
        } else {
            return Err(PyTypeError::new_err(format!(
                "search setting {key} must be a number, a string or a bool"
            )));
        };
        Ok(Some(setting))
    })
}

/// Every search setting's default for `game` with `params` (the registry's entry and the
/// sampler's defaults), by name.
#[pyfunction]
#[pyo3(signature = (game, params=None))]
fn card_search_defaults<'py>(
    py: Python<'py>,
    game: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = spec_named(game)?
        .game(&params_of(params)?)
        .map_err(to_py_err)?;
    let config = CardSearchConfig::from_settings(&*game, &[]).map_err(to_py_err)?;
    let d = PyDict::new(py);
    for (name, value) in config.settings() {
        match value {
            SettingValue::Int(i) => d.set_item(name, i)?,
            SettingValue::Float(f) => d.set_item(name, f)?,
            SettingValue::Text(t) => d.set_item(name, t)?,
            SettingValue::Bool(b) => d.set_item(name, b)?,
        }
    }
    Ok(d)
}

/// Plays the deal of `state` (past its chance nodes, before any bid or play) to the end in Rust,
/// seat `s` played by `players[s]` with random stream `s` of `seed`: (public actions, each seat's
/// points, each seat's returns). GIL released; Ctrl-C interrupts.
#[pyfunction]
fn play_deal(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    players: Vec<Bound<'_, PyPlayer>>,
    seed: u64,
) -> PyResult<(Vec<Action>, Vec<f64>, Vec<f64>)> {
    let s = seated(state)?;
    if !s.public_actions.is_empty() {
        return Err(PyValueError::new_err(
            "play_deal starts from a deal before any bid or play",
        ));
    }
    let players: Vec<CardPlayer> = players.iter().map(|p| p.get().inner.clone()).collect();
    let seats = s.game.num_players();
    let out = run(py, Some(1), |stop| {
        play_out(&s.game, s.table.table, &s.dealt, &players, seed, stop)
    })?;
    Ok((
        out.public_actions,
        out.points[..seats].to_vec(),
        out.returns[..seats].to_vec(),
    ))
}

/// What the sampler `sampler` ("us", "ss", "us+iec", "ss+iec", "gibbs", "pairs") draws at
/// `state` for the seat to act, with the sampler `settings` (named as `SAMPLER_SETTINGS`; unset
/// ones take the core's defaults for the game): (deals n x cards uint8 of owner codes,
/// self-normalised log weights).
#[pyfunction]
#[pyo3(signature = (state, sampler="us", n=16, seed=0, **settings))]
fn sample_deals<'py>(
    py: Python<'py>,
    state: &Bound<'_, PyAny>,
    sampler: &str,
    n: usize,
    seed: u64,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<SampledDeals<'py>> {
    let s = seated(state)?;
    let mut given = settings_of(settings)?;
    given.push((
        "sampler".to_string(),
        SettingValue::Text(sampler.to_string()),
    ));
    let config = SamplerConfig::from_settings(&*s.game, &given).map_err(to_py_err)?;
    let deck = s.game.deck().num_cards();
    check_output(&format!("n = {n} deals"), n as u128, deck as u128 + 8).map_err(to_py_err)?;
    let sample = run(py, None, |stop| {
        if s.table.is_over() {
            return Err(TtcgError::InvalidInput("the game is over".into()));
        }
        let seat = s.table.to_act();
        let observation = observe_seat(
            s.game.clone(),
            s.table.table,
            seat,
            s.dealt[seat],
            &s.public_actions,
        )?;
        fogsearch_core::ttcg::sample_deals(&observation, &config, n, seed, stop)
    })?;
    let rows = sample.deals.len();
    let flat: Vec<u8> = sample.deals.into_iter().flatten().collect();
    Ok((
        Array2::from_shape_vec((rows, deck), flat)
            .expect("whole deals")
            .into_pyarray(py),
        sample.log_weights.into_pyarray(py),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sample_deals, m)?)?;
    m.add_class::<PyPlayer>()?;
    m.add_function(wrap_pyfunction!(card_search_defaults, m)?)?;
    m.add(
        "CARD_SEARCH_SETTINGS",
        PyTuple::new(m.py(), CARD_SEARCH_SETTINGS)?,
    )?;
    m.add("SAMPLER_SETTINGS", PyTuple::new(m.py(), SAMPLER_SETTINGS)?)?;
    m.add_function(wrap_pyfunction!(play_deal, m)?)?;
    Ok(())
}
