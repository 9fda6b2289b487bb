//! The trick-taking games, each described once: its name, its parameters (defaults and bounds),
//! the card search's settings for it, which of the rule-based players know its cards, and how to
//! start a game. The samplers, the card search, the bindings, the match CLI and the pyspiel
//! wrappers read an entry here instead of testing a game's name.
//!
//! Adding a game: one module implementing [`TrickGame`] and [`CardGameState`] with a `SPEC`, and
//! its line in [`GAMES`].

use std::fmt;
use std::sync::Arc;

use super::cards::Hand;
use super::error::{invalid, TtcgError};
use super::game::{Action, TrickGame};
use super::gongzhu::{Gongzhu, GongzhuState};
use super::observation::{observe, observe_play, Observation};
use super::ohhell::{self, OhHellParams, OhHellState};
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

/// The card search's settings for a game (see [`super::search::CardSearchConfig::for_game`]).
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

/// Every game, in the order the CLI lists them.
pub const GAMES: &[&GameSpec] = &[&GONGZHU, &OH_HELL, &super::hearts::SPEC];

/// The entry of the game named `name`.
pub fn game_spec(name: &str) -> Result<&'static GameSpec, TtcgError> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
            TtcgError::InvalidInput(format!(
                "game must be one of {}, got {name:?}",
                names.join(", ")
            ))
        })
}

/// The entry of `game` (by its name); None for a game outside the registry (a test's).
pub fn spec_of(game: &dyn TrickGame) -> Option<&'static GameSpec> {
    GAMES.iter().copied().find(|g| g.name == game.name())
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

const GONGZHU: GameSpec = GameSpec {
    name: "gongzhu",
    params: &[],
    // 16 deals of 400 iterations, a tree per deal, UCB's c = 200 (the paper's c = 30, §8.6, is
    // for its network's values; with random playouts 200 misplays none of 100 three-card endgames
    // where 30 misplays 9, and beat Mr. Greed by 52 +- 29 points where 30 did by 16 +- 30:
    // bench/NOTEBOOK.md).
    search: SearchDefaults {
        deals: 16,
        iterations: 400,
        exploration: 200.0,
        shared_tree: false,
    },
    greed_players: true,
    openspiel_ismcts: false,
    new_state: new_gongzhu,
    observe: |v, actions, observer| observe_after_chance(v, new_gongzhu, actions, observer),
};

fn new_gongzhu(_: &[ParamValue]) -> Result<Box<dyn CardGameState>, TtcgError> {
    Ok(Box::new(GongzhuState::new()))
}

// Bounds wide enough for OpenSpiel's own checks (OhHellParams::validate) to name the problem.
const OH_HELL_PARAMS: &[ParamSpec] = &[
    ParamSpec::int("players", 3, 0, 1000),
    ParamSpec::int("num_suits", 4, 0, 1000),
    ParamSpec::int("num_cards_per_suit", 13, 0, 1000),
    ParamSpec::int(
        "num_tricks_fixed",
        ohhell::RANDOM_NUM_TRICKS,
        i64::MIN,
        i64::MAX,
    ),
    ParamSpec::bool("off_bid_penalty", false),
    ParamSpec::int("points_per_trick", 1, i64::MIN, i64::MAX),
];

const OH_HELL: GameSpec = GameSpec {
    name: "oh_hell",
    params: OH_HELL_PARAMS,
    // One information-set tree over 256 deals (400 iterations a deal), c = 7 (its returns span
    // about a thirtieth of Gongzhu's). Against OpenSpiel's ISMCTS at 0.05 s a move this lost 1.0
    // point a game where 16 deals with a tree each lost 2.0 on the same deals; more deals in one
    // tree, not a finer sampler, made the difference (bench/NOTEBOOK.md).
    search: SearchDefaults {
        deals: 256,
        iterations: 400,
        exploration: 7.0,
        shared_tree: true,
    },
    greed_players: false,
    openspiel_ismcts: true,
    new_state: |v| Ok(Box::new(OhHellState::new(oh_hell_params(v)?)?)),
    observe: |v, actions, observer| observe(&oh_hell_params(v)?, actions, observer),
};

/// Oh Hell's parameters from resolved values, checked as OpenSpiel checks them.
pub fn oh_hell_params(v: &[ParamValue]) -> Result<OhHellParams, TtcgError> {
    let p = OhHellParams {
        players: int_param(v, 0) as usize,
        num_suits: int_param(v, 1) as usize,
        num_cards_per_suit: int_param(v, 2) as usize,
        num_tricks_fixed: int_param(v, 3),
        off_bid_penalty: bool_param(v, 4),
        points_per_trick: int_param(v, 5),
    };
    p.validate()?;
    Ok(p)
}

/// Oh Hell's parameters from (name, value) pairs (OpenSpiel's names and defaults).
pub fn oh_hell_params_named(given: &[(String, ParamValue)]) -> Result<OhHellParams, TtcgError> {
    oh_hell_params(&OH_HELL.resolve(given)?)
}

impl CardGameState for OhHellState {
    fn game(&self) -> Arc<dyn TrickGame> {
        Arc::new(self.params().clone())
    }
    fn history(&self) -> &[Action] {
        OhHellState::history(self)
    }
    fn legal_actions(&self) -> Vec<Action> {
        OhHellState::legal_actions(self)
    }
    fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        OhHellState::apply_action(self, action)
    }
    fn is_chance_node(&self) -> bool {
        matches!(self.actor(), ohhell::Actor::Chance)
    }
    fn is_terminal(&self) -> bool {
        OhHellState::is_terminal(self)
    }
    fn current_player(&self) -> Option<usize> {
        match self.actor() {
            ohhell::Actor::Player(p) => Some(p),
            _ => None,
        }
    }
    fn returns(&self) -> Vec<f64> {
        OhHellState::returns(self)
    }
    fn table_state(&self) -> Option<&TableState> {
        OhHellState::table_state(self)
    }
    fn dealt_hands(&self) -> &[Hand] {
        OhHellState::dealt_hands(self)
    }
    fn public_actions(&self) -> &[Action] {
        OhHellState::public_actions(self)
    }
    fn box_clone(&self) -> Box<dyn CardGameState> {
        Box::new(self.clone())
    }
}

impl CardGameState for GongzhuState {
    fn game(&self) -> Arc<dyn TrickGame> {
        Arc::new(Gongzhu)
    }
    fn history(&self) -> &[Action] {
        GongzhuState::history(self)
    }
    fn legal_actions(&self) -> Vec<Action> {
        GongzhuState::legal_actions(self)
    }
    fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        GongzhuState::apply_action(self, action)
    }
    fn is_chance_node(&self) -> bool {
        GongzhuState::is_chance_node(self)
    }
    fn is_terminal(&self) -> bool {
        GongzhuState::is_terminal(self)
    }
    fn current_player(&self) -> Option<usize> {
        GongzhuState::current_player(self)
    }
    fn returns(&self) -> Vec<f64> {
        GongzhuState::returns(self)
    }
    fn table_state(&self) -> Option<&TableState> {
        GongzhuState::table_state(self)
    }
    fn dealt_hands(&self) -> &[Hand] {
        GongzhuState::dealt_hands(self)
    }
    fn public_actions(&self) -> &[Action] {
        GongzhuState::public_actions(self)
    }
    fn box_clone(&self) -> Box<dyn CardGameState> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_name_and_starts_at_a_chance_node() {
        for spec in GAMES {
            assert_eq!(game_spec(spec.name).unwrap().name, spec.name);
            let state = spec.start(&[]).unwrap();
            assert!(state.is_chance_node());
            assert_eq!(spec_of(&*state.game()).unwrap().name, spec.name);
        }
        assert!(game_spec("bridge").is_err());
    }

    #[test]
    fn parameters_are_checked_by_name_type_and_bounds() {
        let given = |k: &str, v| vec![(k.to_string(), v)];
        assert!(OH_HELL
            .resolve(&given("colour", ParamValue::Int(1)))
            .is_err());
        let e = OH_HELL
            .resolve(&given("off_bid_penalty", ParamValue::Int(1)))
            .unwrap_err();
        assert!(e.to_string().contains("must be a bool"), "{e}");
        assert!(oh_hell_params_named(&given("players", ParamValue::Int(8))).is_err());
        let p = oh_hell_params_named(&given("players", ParamValue::Int(4))).unwrap();
        assert_eq!(p.players, 4);
        assert!(GONGZHU
            .resolve(&given("players", ParamValue::Int(4)))
            .is_err());
    }
}
