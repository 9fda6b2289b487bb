//! Game names (`comm:l=3`, `mini_hanabi`, `simple_bidding:n=8`, `mini_bridge:n=4`): parsing,
//! the closed-form sizes, the search depth the paper uses, and building the tree.

use std::fmt;
use std::str::FromStr;

use crate::stop::{Stop, NEVER};

use super::comm::Comm;
use super::error::JpsError;
use super::mini_bridge::MiniBridge;
use super::mini_hanabi::MiniHanabi;
use super::simple_bidding::SimpleBidding;
use super::tree::{build, GameTree, Rules};

/// One of the four game families of paper 002, with its parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSpec {
    Comm(Comm),
    MiniHanabi(MiniHanabi),
    SimpleBidding(SimpleBidding),
    MiniBridge(MiniBridge),
}

const NAMES: &str = "comm:l=L, mini_hanabi, simple_bidding:n=N or mini_bridge:n=N";

impl FromStr for GameSpec {
    type Err = JpsError;

    fn from_str(name: &str) -> Result<GameSpec, JpsError> {
        let (family, params) = match name.split_once(':') {
            Some((f, p)) => (f, Some(p)),
            None => (name, None),
        };
        let unknown =
            || JpsError::UnknownGame(format!("unknown game {name:?}; the games are {NAMES}"));
        // Exactly one `key=value` parameter, an unsigned integer, for the families that take one.
        let param = |key: &str| -> Result<u32, JpsError> {
            let text = params
                .and_then(|p| p.strip_prefix(key))
                .and_then(|p| p.strip_prefix('='))
                .ok_or_else(|| {
                    JpsError::UnknownGame(format!(
                        "game {name:?} needs its parameter as {family}:{key}=VALUE; the games are {NAMES}"
                    ))
                })?;
            text.parse::<u32>().map_err(|_| {
                JpsError::UnknownGame(format!(
                    "game {name:?}: {key} must be a non-negative integer, got {text:?}"
                ))
            })
        };
        match family {
            "comm" => Ok(GameSpec::Comm(Comm::new(param("l")?)?)),
            "simple_bidding" => Ok(GameSpec::SimpleBidding(SimpleBidding::new(param("n")?)?)),
            "mini_bridge" => Ok(GameSpec::MiniBridge(MiniBridge::new(param("n")?)?)),
            "mini_hanabi" if params.is_none() => Ok(GameSpec::MiniHanabi(MiniHanabi)),
            "mini_hanabi" => Err(JpsError::UnknownGame(format!(
                "game {name:?}: mini_hanabi takes no parameters"
            ))),
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl GameSpec {
    /// The canonical name, the one [`FromStr`] reads.
    pub fn name(&self) -> String {
        match self {
            GameSpec::Comm(g) => g.name(),
            GameSpec::MiniHanabi(g) => g.name(),
            GameSpec::SimpleBidding(g) => g.name(),
            GameSpec::MiniBridge(g) => g.name(),
        }
    }

    /// The number of states, from the closed form (no tree is built).
    pub fn num_states(&self) -> u64 {
        match self {
            GameSpec::Comm(g) => g.num_states(),
            GameSpec::MiniHanabi(g) => g.num_states(),
            GameSpec::SimpleBidding(g) => g.num_states(),
            GameSpec::MiniBridge(g) => g.num_states(),
        }
    }

    /// The search depth D of §6: 3 for Simple Bidding N = 16 and Mini-Bridge N = 4, 5 (and the
    /// larger sizes), `None` (from the first information sets to the terminals) elsewhere.
    pub fn paper_depth(&self) -> Option<u16> {
        match self {
            GameSpec::SimpleBidding(g) if g.n() >= 16 => Some(3),
            GameSpec::MiniBridge(g) if g.n() >= 4 => Some(3),
            _ => None,
        }
    }

    /// Enumerates the game; `stop` is polled while building.
    pub fn build(&self, stop: &Stop) -> Result<GameTree, JpsError> {
        match self {
            GameSpec::Comm(g) => build(g, stop),
            GameSpec::MiniHanabi(g) => build(g, stop),
            GameSpec::SimpleBidding(g) => build(g, stop),
            GameSpec::MiniBridge(g) => build(g, stop),
        }
    }
}

/// Reads a game name and enumerates it.
pub fn load_game(name: &str) -> Result<GameTree, JpsError> {
    name.parse::<GameSpec>()?.build(&NEVER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::testing::{game, TABLE1};

    #[test]
    fn every_game_of_table_1_has_its_states_and_infosets() {
        for (name, states, infosets) in TABLE1 {
            let spec: GameSpec = name.parse().unwrap();
            assert_eq!(spec.num_states(), states as u64, "{name} closed form");
            let tree = game(name);
            assert_eq!(tree.num_states(), states, "{name} #States");
            assert_eq!(tree.paper_infosets(), infosets, "{name} #Infosets");
            assert_eq!(tree.name(), name);
        }
    }

    #[test]
    fn decision_infosets_are_table_1_less_the_root_and_the_terminal_keys() {
        // Comm: P1 decides in 2^L (2^L - 1) sets, P2 in 2^L; terminals grouped 2^(2L).
        for l in [3u32, 5] {
            let n = 1usize << l;
            let tree = game(&format!("comm:l={l}"));
            assert_eq!(tree.num_infosets(), n * (n - 1) + n);
            assert_eq!(tree.paper_infosets(), 1 + tree.num_infosets() + n * n);
        }
        // Mini-Hanabi: 2 + 6 decision sets, 36 terminals on their own.
        assert_eq!(game("mini_hanabi").num_infosets(), 8);
        // Bidding games: the decision sets are half of the public states times the values.
        assert_eq!(game("simple_bidding:n=4").num_infosets(), 4 * 8);
        assert_eq!(game("mini_bridge:n=3").num_infosets(), 4 * 128);
    }

    #[test]
    fn the_paper_sets_depth_3_for_the_three_largest_bidding_games_only() {
        let depth = |name: &str| name.parse::<GameSpec>().unwrap().paper_depth();
        assert_eq!(depth("simple_bidding:n=16"), Some(3));
        assert_eq!(depth("mini_bridge:n=4"), Some(3));
        assert_eq!(depth("mini_bridge:n=5"), Some(3));
        for name in [
            "comm:l=7",
            "mini_hanabi",
            "simple_bidding:n=8",
            "mini_bridge:n=3",
        ] {
            assert_eq!(depth(name), None, "{name}");
        }
    }

    #[test]
    fn names_round_trip_and_bad_names_say_what_is_allowed() {
        for (name, _, _) in TABLE1 {
            assert_eq!(name.parse::<GameSpec>().unwrap().to_string(), name);
        }
        let err = |name: &str| name.parse::<GameSpec>().unwrap_err().to_string();
        assert!(
            err("poker").contains("comm:l=L, mini_hanabi"),
            "{}",
            err("poker")
        );
        assert!(err("comm").contains("comm:l=VALUE"), "{}", err("comm"));
        assert!(err("comm:l=x").contains("non-negative integer"));
        assert!(
            err("comm:l=8").contains("between 1 and 7"),
            "{}",
            err("comm:l=8")
        );
        assert!(err("simple_bidding:n=1").contains("simple_bidding:n"));
        assert!(err("mini_bridge:n=7").contains("between 1 and 6"));
        assert!(err("mini_hanabi:n=2").contains("no parameters"));
    }
}
