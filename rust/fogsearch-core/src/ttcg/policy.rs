//! Joint policies: π(a | information state) for the acting player.
//!
//! Random per-information-state quantities (the biased action, softmax utilities) come from a
//! seeded hash of a canonical information-state key, so a policy is a few numbers, not a table, and
//! is the same on every thread.

use super::constraints::Card;
use super::ohhell::Action;
use crate::rng::splitmix64;

/// What the acting player knows when it decides, in the form policies need.
#[derive(Clone, Copy, Debug)]
pub struct InfoStateView<'a> {
    pub player: usize,
    /// Bit `c` set when card `c` was dealt to the player (its whole dealt hand, played cards too).
    pub dealt_hand: u64,
    /// Bit `c` set when the player still holds card `c`.
    pub current_hand: u64,
    pub trump_card: Card,
    pub num_tricks: usize,
    pub dealer: usize,
    /// The bids and plays before this decision (OpenSpiel ids).
    pub public_actions: &'a [Action],
    /// Hash of (number of tricks, dealer, trump card, public actions): with `player` and
    /// `dealt_hand` it identifies the information state.
    pub public_key: u64,
    /// Legal actions, ascending.
    pub legal_actions: &'a [Action],
}

impl InfoStateView<'_> {
    /// Canonical 64-bit key of the information state (player, dealt hand, public history).
    #[inline]
    pub fn key(&self) -> u64 {
        splitmix64(self.public_key ^ splitmix64(self.dealt_hand ^ ((self.player as u64) << 56)))
    }
}

/// Extends a public key by one action.
#[inline]
pub fn extend_public_key(key: u64, action: Action) -> u64 {
    splitmix64(key.rotate_left(17) ^ (action as u64 + 1))
}

/// The key of the public information at the start of bidding.
pub fn initial_public_key(num_tricks: usize, dealer: usize, trump_card: Card) -> u64 {
    splitmix64(
        ((num_tricks as u64) << 16)
            ^ ((dealer as u64) << 8)
            ^ trump_card as u64
            ^ 0xD1B5_4A32_D192_ED03,
    )
}

/// π(a | I) for the acting player.
pub trait Policy: Sync {
    /// Probability of `info.legal_actions[index]` (the probabilities over all indices sum to 1).
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64;
}

/// Every player uniform over its legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPolicy;

impl Policy for UniformPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, _index: usize) -> f64 {
        1.0 / info.legal_actions.len() as f64
    }
}
