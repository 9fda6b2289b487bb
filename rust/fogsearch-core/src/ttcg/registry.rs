//! The trick-taking games, each described once: its name, its parameters (defaults and bounds),
//! the card search's settings for it, which of the rule-based players know its cards, and how to
//! start a game. The samplers, the card search, the bindings, the match CLI and the pyspiel
//! wrappers read an entry here instead of testing a game's name.
//!
//! Adding a game: one module implementing [`TrickGame`] and [`CardGameState`] with a `SPEC` (its
//! entry, built from [`super::spec`]), and
//! its line in [`GAMES`].

use std::sync::Arc;

use super::cards::Hand;
use super::error::TtcgError;
use super::game::{Action, TrickGame};
use super::gongzhu::{Gongzhu, GongzhuState};
use super::observation::observe;
use super::ohhell::{self, OhHellParams, OhHellState};
use super::play::TableState;
pub use super::spec::*;

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

/// Implements [`CardGameState`] for a state type whose inherent methods of the same names already
/// do the work (the games that came before the trait); `game` and the methods that differ are
/// given. A new game implements the trait in its own module instead (see `hearts`).
macro_rules! card_game_state_via_inherent {
    ($state:ty { $($own:item)* }) => {
        impl CardGameState for $state {
            $($own)*
            fn history(&self) -> &[Action] {
                <$state>::history(self)
            }
            fn legal_actions(&self) -> Vec<Action> {
                <$state>::legal_actions(self)
            }
            fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
                <$state>::apply_action(self, action)
            }
            fn is_terminal(&self) -> bool {
                <$state>::is_terminal(self)
            }
            fn returns(&self) -> Vec<f64> {
                <$state>::returns(self)
            }
            fn table_state(&self) -> Option<&TableState> {
                <$state>::table_state(self)
            }
            fn dealt_hands(&self) -> &[Hand] {
                <$state>::dealt_hands(self)
            }
            fn public_actions(&self) -> &[Action] {
                <$state>::public_actions(self)
            }
            fn box_clone(&self) -> Box<dyn CardGameState> {
                Box::new(self.clone())
            }
        }
    };
}

card_game_state_via_inherent!(OhHellState {
    fn game(&self) -> Arc<dyn TrickGame> {
        Arc::new(self.params().clone())
    }
    fn is_chance_node(&self) -> bool {
        matches!(self.actor(), ohhell::Actor::Chance)
    }
    fn current_player(&self) -> Option<usize> {
        match self.actor() {
            ohhell::Actor::Player(p) => Some(p),
            _ => None,
        }
    }
});

card_game_state_via_inherent!(GongzhuState {
    fn game(&self) -> Arc<dyn TrickGame> {
        Arc::new(Gongzhu)
    }
    fn is_chance_node(&self) -> bool {
        GongzhuState::is_chance_node(self)
    }
    fn current_player(&self) -> Option<usize> {
        GongzhuState::current_player(self)
    }
});

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
