//! Reach probabilities of a deal along a public history, for any game on the layer.

use super::constraints::Owner;
use super::game::{Action, MAX_PLAYERS};
use super::observation::HistoryTemplate;
use super::play::MAX_LEGAL;
use super::policy::{InfoStateView, Policy};

/// log of the product of all players' action probabilities along `template` when the cards are
/// dealt as in `assignment` (unnormalised: chance's probability is the same for every consistent
/// deal). `-inf` when the deal cannot produce the history (a play the hand does not allow).
pub fn log_reach(template: &HistoryTemplate, assignment: &[Owner], policy: &dyn Policy) -> f64 {
    let game = &*template.game;
    let players = game.num_players();
    let mut dealt = [0u64; MAX_PLAYERS];
    for (card, &owner) in assignment.iter().enumerate() {
        if (owner as usize) < players {
            dealt[owner as usize] |= 1u64 << card;
        }
    }
    let mut state = template.start_with(&dealt);
    let public_actions = template.public_actions();
    let mut legal = [0 as Action; MAX_LEGAL];
    // Probabilities are multiplied and only logged when the product gets small (or a factor is
    // tiny itself, so the product never leaves the normal range): one `ln` per history instead of
    // one per decision.
    let (mut product, mut log_p) = (1.0f64, 0.0f64);
    for (i, event) in template.events.iter().enumerate() {
        let p = state.to_act();
        let n = state.legal_actions(game, &mut legal);
        let legal = &legal[..n];
        let Some(index) = legal.iter().position(|&a| a == event.action) else {
            return f64::NEG_INFINITY;
        };
        let view = InfoStateView {
            player: p,
            dealt_hand: dealt[p],
            current_hand: state.hands[p],
            table: &template.table,
            public: &state.public,
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
        state.apply(event.action);
    }
    log_p + product.ln()
}
