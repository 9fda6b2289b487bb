//! What an entry of the registry's `GAMES` holds for a trick-taking game: its parameters with
//! defaults and bounds, the card search's settings for it, and how a game starts and is observed,
//! with the helpers a game's module uses to fill its entry. A game's module reads this file and
//! the registry lists the games' entries, so a new game never makes the two depend on each other.

use std::fmt;
use std::sync::Arc;

use super::cards::Hand;
use super::error::{invalid, TtcgError};
use super::game::{Action, TrickGame};
use super::observation::{observe_play, Observation};
use super::openspiel::{Trace, CHANCE_PLAYER_ID, TERMINAL_PLAYER_ID};
use super::play::TableState;

/// A parameter's value, as OpenSpiel's game parameters hold them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
}

/// A parameter: its OpenSpiel name, its default, and (for integers) its bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: ParamValue,
    pub min: i64,
    pub max: i64,
}

impl ParamSpec {
    pub const fn int(name: &'static str, default: i64, min: i64, max: i64) -> Self {
        ParamSpec {
            name,
            default: ParamValue::Int(default),
            min,
            max,
        }
    }

    pub const fn bool(name: &'static str, default: bool) -> Self {
        ParamSpec {
            name,
            default: ParamValue::Bool(default),
            min: 0,
            max: 1,
        }
    }
}

/// The card search's settings for a game (the card search's `CardSearchConfig::for_game` reads them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// Deals sampled per move.
    pub deals: usize,
    /// Search iterations per deal.
    pub iterations: u64,
    /// UCB's exploration constant c, in points (about the spread of the game's returns).
    pub exploration: f64,
    /// One information-set tree over all deals instead of a tree per deal.
    pub shared_tree: bool,
}

/// A game at any point, chance nodes included, as OpenSpiel plays it.
pub trait CardGameState: Send + Sync + fmt::Debug {
    /// The game being played (its parameters included).
    fn game(&self) -> Arc<dyn TrickGame>;
    fn history(&self) -> &[Action];
    /// Legal actions ascending; chance outcomes (all equally likely) at chance nodes.
    fn legal_actions(&self) -> Vec<Action>;
    /// Applies `action`, refusing an illegal one with the state unchanged.
    fn apply_action(&mut self, action: Action) -> Result<(), TtcgError>;
    fn is_chance_node(&self) -> bool;
    fn is_terminal(&self) -> bool;
    /// The seat to act (None at chance nodes and at the end).
    fn current_player(&self) -> Option<usize>;
    /// Each seat's return (zero before the end).
    fn returns(&self) -> Vec<f64>;
    /// Play at the table once chance is done (None before).
    fn table_state(&self) -> Option<&TableState>;
    /// The hands play started with (what each seat held at the first bid or play).
    fn dealt_hands(&self) -> &[Hand];
    /// The bids and plays so far.
    fn public_actions(&self) -> &[Action];
    fn box_clone(&self) -> Box<dyn CardGameState>;
}

/// Starts a game from its resolved parameters.
pub type NewState = fn(&[ParamValue]) -> Result<Box<dyn CardGameState>, TtcgError>;

/// What an observer (None: the public) knows after a history, given resolved parameters.
pub type Observe = fn(&[ParamValue], &[Action], Option<usize>) -> Result<Observation, TtcgError>;

/// Parameter values resolved against a game's [`ParamSpec`]s: one per spec, in its order.
pub type ResolvedParams = Vec<ParamValue>;

/// A trick-taking game, described once.
#[derive(Clone, Copy)]
pub struct GameSpec {
    /// OpenSpiel's name.
    pub name: &'static str,
    pub params: &'static [ParamSpec],
    pub search: SearchDefaults,
    /// Mr. If, Mr. Greed, IEC and the Greed model of play score this game's cards.
    pub greed_players: bool,
    /// OpenSpiel's ISMCTS bot can play it (OpenSpiel resamples its information states).
    pub openspiel_ismcts: bool,
    /// A new game before chance's first action.
    pub new_state: NewState,
    /// What `observer` (None: the public) knows after the history `actions`.
    pub observe: Observe,
}

impl fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameSpec")
            .field("name", &self.name)
            .finish()
    }
}

impl GameSpec {
    /// `given` (name, value) pairs checked against the parameters: unknown names, wrong types
    /// and values out of bounds are refused; missing ones take their defaults.
    pub fn resolve(&self, given: &[(String, ParamValue)]) -> Result<ResolvedParams, TtcgError> {
        let mut values: Vec<ParamValue> = self.params.iter().map(|p| p.default).collect();
        for (name, value) in given {
            let Some(i) = self.params.iter().position(|p| p.name == name) else {
                let known: Vec<&str> = self.params.iter().map(|p| p.name).collect();
                return invalid(format!(
                    "unknown {} parameter {name:?}; known: {}",
                    self.name,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            let spec = &self.params[i];
            values[i] = match (spec.default, *value) {
                (ParamValue::Int(_), ParamValue::Int(v)) => {
                    if !(spec.min..=spec.max).contains(&v) {
                        return invalid(format!(
                            "{name} must be in {}..={}, got {v}",
                            spec.min, spec.max
                        ));
                    }
                    ParamValue::Int(v)
                }
                (ParamValue::Bool(_), ParamValue::Bool(b)) => ParamValue::Bool(b),
                (ParamValue::Int(_), _) => {
                    return invalid(format!("parameter {name} must be an int"))
                }
                (ParamValue::Bool(_), _) => {
                    return invalid(format!("parameter {name} must be a bool"))
                }
            };
        }
        Ok(values)
    }

    /// A new game with the `given` parameters (see [`Self::resolve`]).
    pub fn start(
        &self,
        given: &[(String, ParamValue)],
    ) -> Result<Box<dyn CardGameState>, TtcgError> {
        (self.new_state)(&self.resolve(given)?)
    }

    /// The state reached by applying `actions` from the start.
    pub fn replay(
        &self,
        given: &[(String, ParamValue)],
        actions: &[Action],
    ) -> Result<Box<dyn CardGameState>, TtcgError> {
        replay(&self.resolve(given)?, self.new_state, actions)
    }

    /// What `observer` (None: the public) knows after the history `actions`.
    pub fn observe(
        &self,
        given: &[(String, ParamValue)],
        actions: &[Action],
        observer: Option<usize>,
    ) -> Result<Observation, TtcgError> {
        (self.observe)(&self.resolve(given)?, actions, observer)
    }

    /// Legal actions at every state along `history` (before each action, then at the end), the
    /// OpenSpiel current player at each, and the final returns.
    pub fn trace(
        &self,
        given: &[(String, ParamValue)],
        history: &[Action],
    ) -> Result<Trace, TtcgError> {
        let mut s = self.start(given)?;
        let mut legal = Vec::with_capacity(history.len() + 1);
        let mut players = Vec::with_capacity(history.len() + 1);
        for (i, &a) in history.iter().enumerate() {
            legal.push(s.legal_actions());
            players.push(openspiel_player_id(&*s));
            s.apply_action(a)
                .map_err(|e| TtcgError::InvalidInput(format!("action {i} ({a}): {e}")))?;
        }
        legal.push(s.legal_actions());
        players.push(openspiel_player_id(&*s));
        Ok((legal, players, s.returns()))
    }

    /// The game with the `given` parameters.
    pub fn game(&self, given: &[(String, ParamValue)]) -> Result<Arc<dyn TrickGame>, TtcgError> {
        Ok(self.start(given)?.game())
    }
}

/// OpenSpiel's current-player code of a state.
pub fn openspiel_player_id(state: &dyn CardGameState) -> i64 {
    match state.current_player() {
        Some(p) => p as i64,
        None if state.is_terminal() => TERMINAL_PLAYER_ID,
        None => CHANCE_PLAYER_ID,
    }
}

/// The state `new_state(values)` reaches by applying `actions`.
pub(super) fn replay(
    values: &[ParamValue],
    new_state: NewState,
    actions: &[Action],
) -> Result<Box<dyn CardGameState>, TtcgError> {
    let mut state = new_state(values)?;
    for (i, &a) in actions.iter().enumerate() {
        state.apply_action(a).map_err(|e| {
            TtcgError::InvalidInput(format!("action {i} of the history ({a}): {e}"))
        })?;
    }
    Ok(state)
}

/// What `observer` knows after `actions`, for a game whose history is chance's actions, then
/// the public bids and plays: observed at the table, from the hands play started with.
pub(super) fn observe_after_chance(
    values: &[ParamValue],
    new_state: NewState,
    actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    let state = replay(values, new_state, actions)?;
    let Some(table) = state.table_state() else {
        return invalid("the history must include the whole deal before it can be observed");
    };
    observe_play(
        state.game(),
        table.table,
        state.dealt_hands(),
        state.public_actions(),
        observer,
    )
}

/// The integer value of resolved parameter `i`.
pub(super) fn int_param(values: &[ParamValue], i: usize) -> i64 {
    match values[i] {
        ParamValue::Int(v) => v,
        ParamValue::Bool(b) => b as i64,
    }
}

/// The boolean value of resolved parameter `i`.
pub(super) fn bool_param(values: &[ParamValue], i: usize) -> bool {
    match values[i] {
        ParamValue::Bool(b) => b,
        ParamValue::Int(v) => v != 0,
    }
}
