//! OpenSpiel's oh_hell action layout: a history is `[num_tricks, dealer, the dealt cards
//! round-robin from player 0, the trump card, bids and plays]`. Deal order never changes an
//! information state, so the samplers work on deal assignments; this module turns assignments back
//! into OpenSpiel histories (one per deal order, or one with a uniformly shuffled order), traces
//! histories through the engine, and resamples an information state into histories.

use super::cards::Card;
use super::constraints::Owner;
use super::enumerate::WeightedDeals;
use super::error::{invalid, TtcgError};
use super::flow::is_consistent;
use super::game::Action;
use super::limits::check_output;
use super::observation::{HistoryTemplate, Observation};
use super::ohhell::{Actor, OhHellParams, OhHellState};
use crate::rng::Rng;
use crate::stop::Stop;

/// OpenSpiel's player id for chance nodes and terminal states.
pub const CHANCE_PLAYER_ID: i64 = -1;
pub const TERMINAL_PLAYER_ID: i64 = -4;

/// OpenSpiel's current-player code of a state.
pub fn openspiel_player(state: &OhHellState) -> i64 {
    match state.actor() {
        Actor::Chance => CHANCE_PLAYER_ID,
        Actor::Player(p) => p as i64,
        Actor::Terminal => TERMINAL_PLAYER_ID,
    }
}

/// Legal actions at every state along a history (before each action, then at the end), the
/// OpenSpiel current player at each, and the final returns.
pub type Trace = (Vec<Vec<Action>>, Vec<i64>, Vec<f64>);

/// Replays `history` through the engine, recording what [`Trace`] holds.
pub fn trace(params: &OhHellParams, history: &[Action]) -> Result<Trace, TtcgError> {
    let mut s = OhHellState::new(params.clone())?;
    let mut legal = Vec::with_capacity(history.len() + 1);
    let mut players = Vec::with_capacity(history.len() + 1);
    for (i, &a) in history.iter().enumerate() {
        legal.push(s.legal_actions());
        players.push(openspiel_player(&s));
        s.apply_action(a)
            .map_err(|e| TtcgError::InvalidInput(format!("action {i} ({a}): {e}")))?;
    }
    legal.push(s.legal_actions());
    players.push(openspiel_player(&s));
    Ok((legal, players, s.returns()))
}

/// The OpenSpiel action sequence of the history in which `assignment` is dealt in one particular
/// order: ascending card id within each hand, round-robin from player 0.
pub fn openspiel_actions(template: &HistoryTemplate, assignment: &[Owner]) -> Vec<Action> {
    let players = template.game.num_players();
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); players];
    for (card, &owner) in assignment.iter().enumerate() {
        if (owner as usize) < players {
            hands[owner as usize].push(card as Card);
        }
    }
    let table = &template.table;
    let mut actions = vec![table.num_tricks as Action, table.dealer as Action];
    for i in 0..table.num_tricks {
        for hand in &hands {
            actions.push(hand[i] as Action);
        }
    }
    actions.push(table.trump_card.expect("oh_hell turns up a trump card") as Action);
    actions.extend_from_slice(template.public_actions());
    actions
}

/// Where player `p`'s `i`-th dealt card sits in an OpenSpiel history.
fn deal_slot(players: usize, i: usize, p: usize) -> usize {
    2 + i * players + p
}

/// Deal orders per assignment: each player's hand may be dealt in any of `num_tricks!` orders
/// (round-robin dealing fixes which slots are whose), and no order changes an information state.
/// A float, because 13!^4 (Gongzhu) is beyond `u128`.
pub fn deal_orders_per_assignment(template: &HistoryTemplate) -> f64 {
    let f: f64 = (1..=template.num_tricks()).map(|k| k as f64).product();
    f.powi(template.game.num_players() as i32)
}

/// Calls `visit` with the full OpenSpiel action list of every history (every deal order of every
/// assignment). Returns the number of histories visited, or `Interrupted` when `stop` is raised.
pub fn for_each_history(
    template: &HistoryTemplate,
    assignments: &[Vec<Owner>],
    stop: &Stop,
    mut visit: impl FnMut(&[Action]),
) -> Result<usize, TtcgError> {
    let players = template.game.num_players();
    let mut count = 0;
    for assignment in assignments {
        if stop.requested() {
            return Err(TtcgError::Interrupted);
        }
        let mut actions = openspiel_actions(template, assignment);
        let mut hands: Vec<Vec<Card>> = (0..players)
            .map(|p| {
                (0..assignment.len())
                    .filter(|&c| assignment[c] as usize == p)
                    .map(|c| c as Card)
                    .collect()
            })
            .collect();
        loop {
            for (p, hand) in hands.iter().enumerate() {
                for (i, &c) in hand.iter().enumerate() {
                    actions[deal_slot(players, i, p)] = c as Action;
                }
            }
            visit(&actions);
            count += 1;
            // Odometer over the players' hand permutations.
            let mut p = 0;
            while p < players && !next_permutation(&mut hands[p]) {
                p += 1;
            }
            if p == players {
                break;
            }
        }
    }
    Ok(count)
}

/// Every OpenSpiel history of the enumerated deals, walked with its reach relative to the most
/// likely deal: (number of histories, sum of their relative reach). Nothing is returned per history,
/// so this measures enumeration, not the cost of handing histories to a caller.
pub fn walk_histories(
    template: &HistoryTemplate,
    deals: &WeightedDeals,
    stop: &Stop,
) -> Result<(usize, f64), TtcgError> {
    let max = deals
        .log_reach
        .iter()
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    let mut count = 0;
    for (a, r) in deals.assignments.iter().zip(&deals.log_reach) {
        let weight = (r - max).exp();
        count += for_each_history(template, std::slice::from_ref(a), stop, |h| {
            std::hint::black_box(h);
            total += weight;
        })?;
    }
    Ok((count, total))
}

/// Rearranges into the next lexicographic permutation; false (and sorted) after the last.
fn next_permutation(v: &mut [Card]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        v.reverse();
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// The OpenSpiel history of `template` with `assignment` dealt in a uniformly random order.
pub fn shuffled_deal_history(
    template: &HistoryTemplate,
    assignment: &[Owner],
    rng: &mut Rng,
) -> Vec<Action> {
    let players = template.game.num_players();
    let mut actions = openspiel_actions(template, assignment);
    for p in 0..players {
        let slots: Vec<usize> = (0..template.num_tricks())
            .map(|i| deal_slot(players, i, p))
            .collect();
        let mut cards: Vec<Action> = slots.iter().map(|&s| actions[s]).collect();
        rng.shuffle(&mut cards);
        for (s, c) in slots.into_iter().zip(cards) {
            actions[s] = c;
        }
    }
    actions
}

/// The history of an observation with the hidden cards re-dealt as in `assignment` (checked
/// against the observation), deal order uniform by `seed`.
pub fn history_from_deal(
    observation: &Observation,
    assignment: &[Owner],
    seed: u64,
) -> Result<Vec<Action>, TtcgError> {
    if !is_consistent(&observation.constraints, assignment) {
        return invalid("the deal is not consistent with the player's information state");
    }
    Ok(shuffled_deal_history(
        &observation.template,
        assignment,
        &mut Rng::new(seed),
    ))
}

/// OpenSpiel's serialization of a history (`State::Serialize`: the actions, one per line), which
/// `game.deserialize_state` replays in C++, several times faster than applying actions from
/// Python.
pub fn openspiel_serialization(actions: &[Action]) -> String {
    let mut out = String::with_capacity(actions.len() * 3);
    for a in actions {
        out.push_str(&a.to_string());
        out.push('\n');
    }
    out
}

/// Draws histories of one information state from its exactly enumerated joint range: built once
/// (the enumeration), then each draw is a binary search and a shuffle of the deal order.
#[derive(Clone, Debug)]
pub struct Resampler {
    template: HistoryTemplate,
    deals: WeightedDeals,
    cumulative: Vec<f64>,
}

impl Resampler {
    pub fn new(template: HistoryTemplate, deals: WeightedDeals) -> Self {
        let cumulative = deals
            .probabilities()
            .iter()
            .scan(0.0, |acc, p| {
                *acc += p;
                Some(*acc)
            })
            .collect();
        Resampler {
            template,
            deals,
            cumulative,
        }
    }

    /// How many deals the range holds.
    pub fn num_deals(&self) -> usize {
        self.deals.assignments.len()
    }

    /// One history: a deal in proportion to its reach, then a uniform deal order.
    pub fn draw(&self, rng: &mut Rng) -> Vec<Action> {
        let u = rng.next_f64() * self.cumulative[self.cumulative.len() - 1];
        let chosen = self
            .cumulative
            .partition_point(|&c| c <= u)
            .min(self.cumulative.len() - 1);
        shuffled_deal_history(&self.template, &self.deals.assignments[chosen], rng)
    }

    /// `n` histories: one draw uses `Rng::new(seed)`, several use stream `i` of `seed` for draw
    /// `i`, so a batch is reproducible draw by draw.
    pub fn histories(
        &self,
        n: usize,
        seed: u64,
        stop: &Stop,
    ) -> Result<Vec<Vec<Action>>, TtcgError> {
        let history_len = 3
            + self.template.game.num_players() * self.template.num_tricks()
            + self.template.events.len();
        check_output(
            &format!("n = {n} resampled histories"),
            n as u128,
            (history_len * (std::mem::size_of::<Action>() + 4) + 48) as u128,
        )?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n as u64 {
            if i % 4096 == 0 && stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            let mut rng = if n == 1 {
                Rng::new(seed)
            } else {
                Rng::stream(seed, i)
            };
            out.push(self.draw(&mut rng));
        }
        Ok(out)
    }
}
