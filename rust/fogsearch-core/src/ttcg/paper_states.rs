//! The public states of the TTCG paper's experiments (its Table 1): three-player Oh Hell on four
//! ranks a suit, random play stopped after some tricks, with no void revealed. The sampler's tests
//! and its throughput example start from them.

use super::error::{invalid, TtcgError};
use super::observation::{observe, Observation};
use super::ohhell::{Actor, OhHellParams, OhHellState};
use crate::rng::Rng;

/// How many random games [`paper_public_state`] plays before it gives up finding one without a
/// revealed void (the paper's states find one within a few).
pub const MAX_PAPER_STATE_TRIES: usize = 10_000;

/// The public observation after three players bid and play `tricks_played` complete tricks at
/// random (from `seed`), on `num_suits` suits of four ranks with `num_tricks` tricks, retried
/// until no void is revealed. The paper's three sizes: (2, 2, 1) with 192 histories, (3, 3, 2)
/// with 12,960 and (3, 3, 1) with 544,320.
pub fn paper_public_state(
    num_suits: usize,
    num_tricks: i64,
    tricks_played: usize,
    seed: u64,
) -> Result<Observation, TtcgError> {
    if tricks_played as i64 >= num_tricks {
        return invalid(format!(
            "tricks_played must be below num_tricks = {num_tricks}, got {tricks_played}"
        ));
    }
    let params = OhHellParams {
        players: 3,
        num_suits,
        num_cards_per_suit: 4,
        num_tricks_fixed: num_tricks,
        ..OhHellParams::default()
    };
    // The bids, then three plays a trick.
    let public_actions = 3 + 3 * tricks_played;
    let mut rng = Rng::new(seed);
    for _ in 0..MAX_PAPER_STATE_TRIES {
        let mut s = OhHellState::new(params.clone())?;
        let mut public = 0;
        while public < public_actions {
            if s.actor() != Actor::Chance {
                public += 1;
            }
            let legal = s.legal_actions();
            s.apply_action(legal[rng.below(legal.len() as u64) as usize])?;
        }
        let obs = observe(&params, s.history(), None)?;
        if obs.constraints.voids.iter().flatten().all(|v| !v) {
            return Ok(obs);
        }
    }
    Err(TtcgError::Infeasible(format!(
        "{MAX_PAPER_STATE_TRIES} random games all revealed a void"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paper_state_hides_what_was_not_played_and_reveals_no_void() {
        let obs = paper_public_state(3, 3, 1, 4).unwrap();
        let c = &obs.constraints;
        assert_eq!((c.num_players, c.num_suits, c.num_ranks), (3, 3, 4));
        // Three played cards and the trump card are known; the rest are hidden.
        let known = c.known_owner.iter().flatten().count();
        assert_eq!(known + c.hidden_counts.iter().sum::<usize>(), 12);
        assert!(c.voids.iter().flatten().all(|v| !v));
        // The seed alone decides the state.
        let again = paper_public_state(3, 3, 1, 4).unwrap();
        assert_eq!(again.constraints, obs.constraints);
        assert_eq!(again.actual_assignment, obs.actual_assignment);
    }

    #[test]
    fn a_state_past_the_last_trick_is_refused() {
        assert!(paper_public_state(2, 2, 2, 1).is_err());
    }
}
