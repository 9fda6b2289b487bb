//! Reach probabilities of a deal along a public history.

use super::constraints::{Card, Owner};
use super::observation::HistoryTemplate;
use super::ohhell::{legal_plays, Action, Bids};
use super::policy::{extend_public_key, initial_public_key, InfoStateView, Policy};

/// log of the product of all players' action probabilities along `template` when the cards are
/// dealt as in `assignment` (unnormalised: chance's probability is the same for every consistent
/// deal). `-inf` when the deal cannot produce the history (a play the hand does not allow).
pub fn log_reach(template: &HistoryTemplate, assignment: &[Owner], policy: &dyn Policy) -> f64 {
    let params = &template.params;
    let players = params.players;
    let num_cards = params.num_cards();
    let mut dealt = vec![0u64; players];
    for (card, &owner) in assignment.iter().enumerate() {
        if (owner as usize) < players {
            dealt[owner as usize] |= 1u64 << card;
        }
    }
    let mut current = dealt.clone();
    let mut bids = Bids {
        bids: vec![None; players],
    };
    let public_actions: Vec<Action> = template.public_actions();
    let mut key = initial_public_key(template.num_tricks, template.dealer, template.trump_card);
    let mut legal: Vec<Action> = Vec::with_capacity(num_cards);
    let mut plays: Vec<Card> = Vec::with_capacity(template.num_tricks);
    let mut trick: Vec<Card> = Vec::with_capacity(players);
    let mut log_p = 0.0;
    for (i, event) in template.events.iter().enumerate() {
        let p = event.player as usize;
        legal.clear();
        let is_play = (event.action as usize) < num_cards;
        if is_play {
            let hand = current[p];
            legal_plays(
                params,
                |c| hand >> c & 1 == 1,
                trick.first().copied(),
                &mut plays,
            );
            legal.extend(plays.iter().map(|&c| c as Action));
        } else {
            legal.extend(
                bids.legal_bids(p, template.num_tricks)
                    .map(|b| params.bid_action(b)),
            );
        }
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
            public_key: key,
            legal_actions: &legal,
        };
        log_p += policy.action_probability(&view, index).ln();
        if is_play {
            current[p] &= !(1u64 << event.action);
            trick.push(event.action as Card);
            if trick.len() == players {
                trick.clear();
            }
        } else {
            bids.bids[p] = Some(event.action as usize - num_cards);
        }
        key = extend_public_key(key, event.action);
    }
    log_p
}
