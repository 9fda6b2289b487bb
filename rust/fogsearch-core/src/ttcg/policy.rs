//! Joint policies: π(a | information state) for the acting player.
//!
//! Random per-information-state quantities (the biased action, softmax utilities) come from a
//! seeded hash of a canonical information-state key, so a policy is a few numbers, not a table, and
//! is the same on every thread.

use super::encoding::{Reader, Writer};
use super::error::TtcgError;
use super::game::{Action, Table};
use super::play::PublicPlay;
use crate::rng::splitmix64;

/// What the acting player knows when it decides, in the form policies need.
#[derive(Clone, Copy, Debug)]
pub struct InfoStateView<'a> {
    pub player: usize,
    /// Bit `c` set when card `c` was dealt to the player (its whole dealt hand, played cards too).
    pub dealt_hand: u64,
    /// Bit `c` set when the player still holds card `c`.
    pub current_hand: u64,
    /// What chance fixed apart from the hands (tricks, dealer, face-up trump card).
    pub table: &'a Table,
    /// Play so far as every seat saw it (bids, the trick in progress, cards taken).
    pub public: &'a PublicPlay,
    /// The bids and plays before this decision (OpenSpiel ids).
    pub public_actions: &'a [Action],
    /// Hash of (the table, public actions): with `player` and `dealt_hand` it identifies the
    /// information state.
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

/// The key of the public information before the first bid or play. A table without a face-up
/// card hashes as if its card were 255 (no deck has that card).
pub fn initial_public_key(table: &Table) -> u64 {
    splitmix64(
        ((table.num_tricks as u64) << 16)
            ^ ((table.dealer as u64) << 8)
            ^ table.trump_card.map_or(0xFF, u64::from)
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

/// The supplement's random "policy bias" policy: at every information state, probability `bias`
/// on one action chosen by a seeded hash of the information state, the rest spread uniformly over
/// the other legal actions (probability 1 when only one action is legal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BiasPolicy {
    pub seed: u64,
    pub bias: f64,
}

impl BiasPolicy {
    /// The policy favouring one action with probability `bias`, which must lie in [0, 1].
    pub fn new(seed: u64, bias: f64) -> Result<Self, TtcgError> {
        if (0.0..=1.0).contains(&bias) {
            Ok(BiasPolicy { seed, bias })
        } else {
            Err(TtcgError::InvalidInput(format!(
                "bias must be in [0, 1], got {bias}"
            )))
        }
    }

    /// Index (into the legal actions) of the favoured action at `info`.
    pub fn favoured_index(&self, info: &InfoStateView<'_>) -> usize {
        let h = splitmix64(info.key() ^ splitmix64(self.seed));
        ((h as u128 * info.legal_actions.len() as u128) >> 64) as usize
    }
}

impl Policy for BiasPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        let n = info.legal_actions.len();
        if n == 1 {
            return 1.0;
        }
        if index == self.favoured_index(info) {
            self.bias
        } else {
            (1.0 - self.bias) / (n - 1) as f64
        }
    }
}

/// π(a | I) ∝ exp(β · u(I, a)) with utilities u ~ U(0, 1) drawn by a seeded hash of the
/// information state and the action; β = 0 is uniform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftmaxPolicy {
    pub seed: u64,
    pub beta: f64,
}

/// A softmax temperature β (the inverse of one): finite and ≥ 0, 0 being uniform play.
pub fn check_beta(beta: f64) -> Result<f64, TtcgError> {
    if beta.is_finite() && beta >= 0.0 {
        Ok(beta)
    } else {
        Err(TtcgError::InvalidInput(format!(
            "beta must be finite and >= 0, got {beta}"
        )))
    }
}

impl SoftmaxPolicy {
    /// The softmax policy over seeded random utilities with inverse temperature `beta`.
    pub fn new(seed: u64, beta: f64) -> Result<Self, TtcgError> {
        Ok(SoftmaxPolicy {
            seed,
            beta: check_beta(beta)?,
        })
    }

    /// The random utility u(I, a) in [0, 1).
    #[inline]
    pub fn utility(&self, info_key: u64, action: Action) -> f64 {
        let h = splitmix64(info_key ^ splitmix64(self.seed ^ ((action as u64 + 1) << 32)));
        (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

impl Policy for SoftmaxPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        let key = info.key();
        // The normaliser is a function of the policy, the key and the legal actions; the actions
        // go into the tag too, because the key does not name the game's parameters (two decks
        // can give the same key with different action ids).
        let mut tag = splitmix64(key ^ splitmix64(self.seed ^ self.beta.to_bits()));
        for &a in info.legal_actions {
            tag = (tag ^ a as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
        }
        let tag = splitmix64(tag);
        let (max, z) = normaliser_cache::get_or_insert(tag, || self.normaliser(key, info));
        (self.beta * (self.utility(key, info.legal_actions[index]) - max)).exp() / z
    }
}

impl SoftmaxPolicy {
    /// The largest utility at `info` and Σ exp(β (u - max)) over its legal actions.
    fn normaliser(&self, key: u64, info: &InfoStateView<'_>) -> (f64, f64) {
        // At most 52 cards or 14 bids are legal; a stack buffer keeps the hot path allocation-free.
        let mut buffer = [0.0f64; 64];
        let u = &mut buffer[..info.legal_actions.len()];
        for (slot, &a) in u.iter_mut().zip(info.legal_actions) {
            *slot = self.utility(key, a);
        }
        let max = u.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = u.iter().map(|&x| (self.beta * (x - max)).exp()).sum();
        (max, z)
    }
}

/// A small direct-mapped cache, one per thread, of softmax normalisers by information state.
/// The Gibbs sampler revisits the same information states constantly, and the normaliser costs
/// one exp per legal action; a cached value is bit-identical to a recomputed one, so the cache
/// changes speed only.
mod normaliser_cache {
    use std::cell::RefCell;

    const SLOTS: usize = 1 << 12;

    #[derive(Clone, Copy)]
    struct Entry {
        tag: u64,
        filled: bool,
        max: f64,
        z: f64,
    }

    const EMPTY: Entry = Entry {
        tag: 0,
        filled: false,
        max: 0.0,
        z: 0.0,
    };

    thread_local! {
        static ENTRIES: RefCell<Vec<Entry>> = RefCell::new(vec![EMPTY; SLOTS]);
    }

    /// `tag` identifies (policy, information state, legal actions): a 64-bit hash, as the
    /// policy's own per-state randomness is.
    pub(super) fn get_or_insert(tag: u64, compute: impl FnOnce() -> (f64, f64)) -> (f64, f64) {
        ENTRIES.with(|entries| {
            let mut entries = entries.borrow_mut();
            let slot = &mut entries[(tag as usize) & (SLOTS - 1)];
            if !(slot.filled && slot.tag == tag) {
                let (max, z) = compute();
                *slot = Entry {
                    tag,
                    filled: true,
                    max,
                    z,
                };
            }
            (slot.max, slot.z)
        })
    }
}

/// A built-in policy chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BuiltinPolicy {
    Uniform,
    Bias(BiasPolicy),
    Softmax(SoftmaxPolicy),
}

impl BuiltinPolicy {
    /// The policy as bytes ([`super::encoding`]): its kind and numbers.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (kind, seed, x) = match *self {
            BuiltinPolicy::Uniform => (0, 0, 0.0),
            BuiltinPolicy::Bias(b) => (1, b.seed, b.bias),
            BuiltinPolicy::Softmax(s) => (2, s.seed, s.beta),
        };
        Writer::new(b"FSPO")
            .i64(kind)
            .i64(seed as i64)
            .i64(f64::to_bits(x) as i64)
            .actions(&[])
    }

    /// Inverse of [`Self::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, TtcgError> {
        let mut r = Reader::new(bytes, b"FSPO", "policy")?;
        let (kind, seed, x) = (r.i64()?, r.i64()? as u64, f64::from_bits(r.i64()? as u64));
        r.actions()?;
        // Decoded parameters go through the same checks as new ones.
        let policy = match kind {
            0 => Some(BuiltinPolicy::Uniform),
            1 => BiasPolicy::new(seed, x).ok().map(BuiltinPolicy::Bias),
            2 => SoftmaxPolicy::new(seed, x).ok().map(BuiltinPolicy::Softmax),
            _ => None,
        };
        policy.ok_or_else(|| {
            TtcgError::InvalidInput("these bytes do not encode a valid policy".into())
        })
    }
}

impl Policy for BuiltinPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        match self {
            BuiltinPolicy::Uniform => UniformPolicy.action_probability(info, index),
            BuiltinPolicy::Bias(p) => p.action_probability(info, index),
            BuiltinPolicy::Softmax(p) => p.action_probability(info, index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_parameters_are_checked_where_they_enter() {
        assert!(BiasPolicy::new(1, 0.0).is_ok() && BiasPolicy::new(1, 1.0).is_ok());
        for bad in [-0.1, 1.1, f64::NAN] {
            let err = BiasPolicy::new(1, bad).unwrap_err();
            assert!(err.to_string().starts_with("bias must be in [0, 1]"));
        }
        assert!(SoftmaxPolicy::new(1, 0.0).is_ok());
        for bad in [-1.0, f64::INFINITY, f64::NAN] {
            let err = SoftmaxPolicy::new(1, bad).unwrap_err();
            assert!(err.to_string().starts_with("beta must be finite and >= 0"));
        }
        assert!(
            crate::ttcg::GreedPolicy::new(f64::NAN).is_err()
                && crate::ttcg::IecWeight::new(-1.0).is_err()
        );
        assert!(
            crate::ttcg::GreedPolicy::new(0.015).is_ok()
                && crate::ttcg::IecWeight::new(0.015).is_ok()
        );
    }

    const TABLE: Table = Table {
        num_tricks: 3,
        dealer: 0,
        trump_card: Some(0),
    };

    fn view<'a>(
        public_key: u64,
        dealt_hand: u64,
        legal: &'a [Action],
        public: &'a PublicPlay,
    ) -> InfoStateView<'a> {
        InfoStateView {
            player: 1,
            dealt_hand,
            current_hand: dealt_hand,
            table: &TABLE,
            public,
            public_actions: &[],
            public_key,
            legal_actions: legal,
        }
    }

    fn fresh_public() -> PublicPlay {
        let params = crate::ttcg::ohhell::OhHellParams::default();
        crate::ttcg::play::TableState::new(&params, TABLE, &[0, 0, 0]).public
    }

    /// The softmax straight from its definition, with no cache.
    fn reference(policy: &SoftmaxPolicy, info: &InfoStateView<'_>, index: usize) -> f64 {
        let key = info.key();
        let u: Vec<f64> = info
            .legal_actions
            .iter()
            .map(|&a| policy.utility(key, a))
            .collect();
        let max = u.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = u.iter().map(|&x| (policy.beta * (x - max)).exp()).sum();
        (policy.beta * (u[index] - max)).exp() / z
    }

    /// Many information states (more than the cache holds, so slots are overwritten and revisited)
    /// under two policies that share them: every probability equals the uncached definition
    /// exactly, and each state's probabilities sum to 1.
    #[test]
    fn cached_softmax_equals_its_definition() {
        let policies = [
            SoftmaxPolicy { seed: 1, beta: 5.0 },
            SoftmaxPolicy { seed: 1, beta: 2.0 },
        ];
        let legal: Vec<Action> = (0..13).collect();
        let public = fresh_public();
        for _round in 0..3 {
            for state in 0..6000u64 {
                for policy in &policies {
                    let n = 1 + (state % 13) as usize;
                    let info = view(splitmix64(state), state * 7, &legal[..n], &public);
                    let total: f64 = (0..n)
                        .map(|i| {
                            let p = policy.action_probability(&info, i);
                            assert_eq!(p.to_bits(), reference(policy, &info, i).to_bits());
                            p
                        })
                        .sum();
                    assert!((total - 1.0).abs() < 1e-12);
                }
            }
        }
    }

    /// The same key with other legal action ids (another deck's bids, say) is another normaliser.
    #[test]
    fn cached_softmax_tells_legal_action_sets_apart() {
        let policy = SoftmaxPolicy { seed: 3, beta: 5.0 };
        let small_deck: Vec<Action> = (8..12).collect();
        let large_deck: Vec<Action> = (12..16).collect();
        let public = fresh_public();
        for legal in [&small_deck, &large_deck, &small_deck] {
            let info = view(77, 0b1011, legal, &public);
            for i in 0..legal.len() {
                let p = policy.action_probability(&info, i);
                assert_eq!(p.to_bits(), reference(&policy, &info, i).to_bits());
            }
        }
    }
}
