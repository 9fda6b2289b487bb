//! Reach probabilities of a deal along a public history.

use super::constraints::{Card, Owner};
use super::observation::HistoryTemplate;
use super::ohhell::{Action, OhHellParams, MAX_PLAYERS};
use super::policy::{InfoStateView, Policy};

/// log of the product of all players' action probabilities along `template` when the cards are
/// dealt as in `assignment` (unnormalised: chance's probability is the same for every consistent
/// deal). `-inf` when the deal cannot produce the history (a play the hand does not allow).
pub fn log_reach(template: &HistoryTemplate, assignment: &[Owner], policy: &dyn Policy) -> f64 {
    let params = &template.params;
    let players = params.players;
    let num_cards = params.num_cards();
    let mut dealt = [0u64; MAX_PLAYERS];
    for (card, &owner) in assignment.iter().enumerate() {
        if (owner as usize) < players {
            dealt[owner as usize] |= 1u64 << card;
        }
    }
    let mut current = dealt;
    let public_actions = template.public_actions();
    let (mut bids_made, mut bid_sum) = (0usize, 0usize);
    let mut lead_suit: Option<usize> = None;
    let mut trick_len = 0;
    let mut legal = [0 as Action; MAX_LEGAL];
    // Probabilities are multiplied and only logged when the product gets small (or a factor is
    // tiny itself, so the product never leaves the normal range): one `ln` per history instead of
    // one per decision.
    let (mut product, mut log_p) = (1.0f64, 0.0f64);
    for (i, event) in template.events.iter().enumerate() {
        let p = event.player as usize;
        let is_play = (event.action as usize) < num_cards;
        let n = if is_play {
            let hand = current[p];
            let follow = lead_suit.map_or(0, |s| hand & suit_mask(params, s));
            fill_from_bits(if follow != 0 { follow } else { hand }, &mut legal)
        } else {
            let last_bidder = bids_made + 1 == players;
            let mut n = 0;
            for bid in 0..=template.num_tricks {
                if !(last_bidder && bid + bid_sum == template.num_tricks) {
                    legal[n] = params.bid_action(bid);
                    n += 1;
                }
            }
            n
        };
        let legal = &legal[..n];
        let Some(index) = legal.iter().position(|&a| a == event.action) else {
            return f64::NEG_INFINITY;
        };
        let view = InfoStateView {
            player: p,
            dealt_hand: dealt[p],
            current_hand: current[p],
            trump_card: template.trump_card,
            num_tricks: template.num_tricks,
            dealer: template.dealer,
            public_actions: &public_actions[..i],
            public_key: template.public_key_before(i),
            legal_actions: legal,
        };
        let probability = policy.action_probability(&view, index);
        if probability < 1e-100 {
            log_p += probability.ln();
        } else {
            product *= probability;
        }
        if product < 1e-200 {
            log_p += product.ln();
            product = 1.0;
        }
        if is_play {
            current[p] &= !(1u64 << event.action);
            if trick_len == 0 {
                lead_suit = Some(params.suit_of(event.action as Card));
            }
            trick_len += 1;
            if trick_len == players {
                trick_len = 0;
                lead_suit = None;
            }
        } else {
            bids_made += 1;
            bid_sum += event.action as usize - num_cards;
        }
    }
    log_p + product.ln()
}

/// Enough room for every legal action: at most 52 cards, or at most 52 / players + 1 bids.
const MAX_LEGAL: usize = 64;

/// The cards of `suit` (card ids are rank * num_suits + suit).
fn suit_mask(params: &OhHellParams, suit: usize) -> u64 {
    let mut mask = 0u64;
    let mut c = suit;
    while c < params.num_cards() {
        mask |= 1u64 << c;
        c += params.num_suits;
    }
    mask
}

/// Writes the set bits of `bits` as actions, ascending; returns how many.
fn fill_from_bits(mut bits: u64, out: &mut [Action; MAX_LEGAL]) -> usize {
    let mut n = 0;
    while bits != 0 {
        out[n] = bits.trailing_zeros() as Action;
        bits &= bits - 1;
        n += 1;
    }
    n
}
