//! Joint Policy Search for collaborative imperfect-information games (Tian, Gong and Jiang,
//! paper 002), with the four tabular games it is evaluated on and the CFR it starts from.
//!
//! - games ([`GameSpec`], [`GameTree`]): Simple Communication, Mini-Hanabi, Simple Bidding and
//!   2-Suit Mini-Bridge, enumerated state by state;
//! - [`JointPolicy`] and [`expected_reward`]; [`cfr`], vanilla or CFR+;
//! - the policy-change density and Theorem 1's decomposition ([`value_change`]);
//! - [`joint_policy_search`] (Algorithm 1, full-state or sample-based), one iteration of it or of
//!   the brute-force search it replaces ([`search_step`] with either [`ChainValuation`]);
//! - [`run_seeds`]: CFR or a random start, then JPS, for many seeds in parallel.

mod cfr;
mod comm;
mod density;
mod error;
mod mini_bridge;
mod mini_hanabi;
mod openspiel_ids;
mod policy;
mod runs;
mod search;
mod simple_bidding;
mod spec;
mod tree;

#[cfg(test)]
mod testing;

pub use cfr::{cfr, CfrConfig, CfrResult, CfrStart};
pub use comm::Comm;
pub use density::{policy_change_density, value_change, ValueChange};
pub use error::JpsError;
pub use mini_bridge::MiniBridge;
pub use mini_hanabi::{MiniHanabi, PAYOFF as MINI_HANABI_PAYOFF};
pub use openspiel_ids::{OPENSPIEL_CHANCE_PLAYER, OPENSPIEL_TERMINAL_PLAYER};
pub use policy::{expected_reward, JointPolicy, Sweep};
pub use runs::{
    run_seed, run_seeds, Init, RunConfig, SearchRun, SearchSettings, SeedRun, MAX_SEEDS,
};
pub use search::{
    joint_policy_search, search_step, start_infosets, ChainValuation, JpsOutcome, JpsSearchConfig,
    JpsSearchStats, Start, Step,
};
pub use simple_bidding::SimpleBidding;
pub use spec::{load_game, GameSpec};
pub use tree::{Actor, GameTree, InfoSet, MAX_STATES};
