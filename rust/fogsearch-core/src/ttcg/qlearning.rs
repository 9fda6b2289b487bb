//! Policies learned by independent Q-learning (Claus and Boutilier 1998), as the sampler paper
//! builds the ranges of its value-estimation experiment (§5.4, Figure 4): every seat learns its
//! own table of action values over its own information states by self-play, treating the others
//! as part of the environment. Returns come only at the end of a hand, so each decision's target
//! is the seat's final return (every-visit Monte Carlo), learnt at rate `alpha`.
//!
//! The learnt joint policy is ε-greedy in the values: `1 - ε` on the best action (split among
//! ties) plus `ε` spread over every legal action, so it has the full support the Gibbs sampler
//! needs. Information states never visited in training are played uniformly.

use std::collections::HashMap;
use std::sync::Arc;

use super::error::TtcgError;
use super::game::{Action, Table, TrickGame};
use super::ohhell::OhHellParams;
use super::play::{TableState, MAX_LEGAL};
use super::players::random_hands;
use super::policy::{extend_public_key, initial_public_key, InfoStateView, Policy};
use crate::rng::{splitmix64, Rng};
use crate::stop::Stop;

/// The most training hands one call may play (a few million a minute).
pub const MAX_EPISODES: u64 = 1 << 30;

/// A policy given as a table: per information state (its [`InfoStateView::key`]), the
/// probabilities of its legal actions in ascending order; uniform where the table has no entry
/// of the right length.
#[derive(Clone, Debug, Default)]
pub struct TabularPolicy {
    pub table: HashMap<u64, Vec<f64>>,
}

impl Policy for TabularPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        match self.table.get(&info.key()) {
            Some(p) if p.len() == info.legal_actions.len() => p[index],
            _ => 1.0 / info.legal_actions.len() as f64,
        }
    }
}

impl TabularPolicy {
    /// Q-learnt by self-play on Oh Hell with `params` (see [`train`]), the dealer and the face-up
    /// card drawn per hand. Training uses one number of tricks, so `num_tricks_fixed` must be set
    /// (not -1, "chance picks it").
    pub fn q_learnt_on_oh_hell(
        params: &OhHellParams,
        settings: QLearning,
        stop: &Stop,
    ) -> Result<TabularPolicy, TtcgError> {
        if params.num_tricks_fixed < 1 {
            return Err(TtcgError::InvalidInput(
                "Q-learning trains on one number of tricks: set num_tricks_fixed".to_string(),
            ));
        }
        let game: Arc<dyn TrickGame> = Arc::new(params.clone());
        let table = Table {
            num_tricks: params.num_tricks_fixed as usize,
            dealer: 0,
            trump_card: Some(0),
        };
        train(&game, table, true, settings, stop)
    }
}

/// How training runs.
#[derive(Clone, Copy, Debug)]
pub struct QLearning {
    pub episodes: u64,
    /// Exploration while training, and the ε of the learnt ε-greedy policy.
    pub epsilon: f64,
    pub alpha: f64,
    pub seed: u64,
}

/// Trains every seat of `game` on hands dealt at random with `table`'s number of tricks (the
/// dealer and the face-up card drawn per hand when `random_table` is set, as chance would).
pub fn train(
    game: &Arc<dyn TrickGame>,
    table: Table,
    random_table: bool,
    settings: QLearning,
    stop: &Stop,
) -> Result<TabularPolicy, TtcgError> {
    if settings.episodes > MAX_EPISODES {
        return Err(TtcgError::TooLarge(format!(
            "episodes must be at most {MAX_EPISODES}, got {}",
            settings.episodes
        )));
    }
    let alpha_ok = settings.alpha > 0.0 && settings.alpha <= 1.0;
    if !((0.0..=1.0).contains(&settings.epsilon) && alpha_ok) {
        return Err(TtcgError::InvalidInput(format!(
            "epsilon must be in [0, 1] and alpha in (0, 1], got {} and {}",
            settings.epsilon, settings.alpha
        )));
    }
    let players = game.num_players();
    let deck = game.deck();
    let mut q: HashMap<u64, Vec<f64>> = HashMap::new();
    let mut rng = Rng::new(settings.seed);
    let mut legal = [0 as Action; MAX_LEGAL];
    let mut visits: Vec<(usize, u64, usize, usize)> = Vec::new();
    for episode in 0..settings.episodes {
        if episode % 1024 == 0 && stop.requested() {
            return Err(TtcgError::Interrupted);
        }
        let mut t = table;
        if random_table {
            t.dealer = rng.below(players as u64) as usize;
            if t.trump_card.is_some() {
                t.trump_card = Some(rng.below(deck.num_cards() as u64) as u8);
            }
        }
        let hands = random_hands(&**game, &t, &mut rng);
        let mut state = TableState::new(&**game, t, &hands);
        let mut public_key = initial_public_key(&t);
        visits.clear();
        while !state.is_over() {
            let seat = state.to_act();
            let n = state.legal_actions(&**game, &mut legal);
            let key = info_key(public_key, hands[seat], seat);
            let values = q.entry(key).or_insert_with(|| vec![0.0; n]);
            let choice = if values.len() != n || rng.next_f64() < settings.epsilon {
                rng.below(n as u64) as usize
            } else {
                best(values, &mut rng)
            };
            visits.push((seat, key, choice, n));
            let action = legal[choice];
            state.apply(action);
            public_key = extend_public_key(public_key, action);
        }
        let returns = state.returns(&**game);
        for &(seat, key, choice, n) in &visits {
            let values = q.get_mut(&key).expect("visited");
            if values.len() == n {
                values[choice] += settings.alpha * (returns[seat] - values[choice]);
            }
        }
    }
    let eps = settings.epsilon;
    let table = q
        .into_iter()
        .map(|(key, values)| {
            let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let ties = values.iter().filter(|&&v| v == top).count() as f64;
            let n = values.len() as f64;
            let p = values
                .iter()
                .map(|&v| eps / n + if v == top { (1.0 - eps) / ties } else { 0.0 })
                .collect();
            (key, p)
        })
        .collect();
    Ok(TabularPolicy { table })
}

/// The key [`InfoStateView::key`] gives the seat's information state.
fn info_key(public_key: u64, dealt_hand: u64, seat: usize) -> u64 {
    splitmix64(public_key ^ splitmix64(dealt_hand ^ ((seat as u64) << 56)))
}

/// The index of the largest value, ties broken at random.
fn best(values: &[f64], rng: &mut Rng) -> usize {
    let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..values.len()).filter(|&i| values[i] == top).collect();
    ties[rng.below(ties.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::super::baselines::draw_index;
    use super::super::history::log_reach;
    use super::super::observation::observe;
    use super::super::ohhell::{OhHellParams, OhHellState};
    use super::*;
    use crate::stop::NEVER;

    /// Oh Hell with 3 players, 2 suits of 4 cards and 2 tricks, and a policy Q-learnt on it over
    /// `episodes` hands from `seed` (ε 0.1, α 0.05).
    fn tiny_game_learnt(
        episodes: u64,
        seed: u64,
    ) -> (OhHellParams, Arc<dyn TrickGame>, Table, TabularPolicy) {
        let params = OhHellParams {
            players: 3,
            num_suits: 2,
            num_cards_per_suit: 4,
            num_tricks_fixed: 2,
            ..OhHellParams::default()
        };
        let game: Arc<dyn TrickGame> = Arc::new(params.clone());
        let table = Table {
            num_tricks: 2,
            dealer: 0,
            trump_card: Some(0),
        };
        let settings = QLearning {
            episodes,
            epsilon: 0.1,
            alpha: 0.05,
            seed,
        };
        let policy = TabularPolicy::q_learnt_on_oh_hell(&params, settings, &NEVER).unwrap();
        (params, game, table, policy)
    }

    #[test]
    fn q_learning_on_oh_hell_needs_a_fixed_number_of_tricks() {
        let settings = QLearning {
            episodes: 10,
            epsilon: 0.1,
            alpha: 0.05,
            seed: 0,
        };
        let err = TabularPolicy::q_learnt_on_oh_hell(&OhHellParams::default(), settings, &NEVER)
            .unwrap_err();
        assert!(matches!(err, TtcgError::InvalidInput(ref m) if m.contains("num_tricks_fixed")));
    }

    #[test]
    fn the_learnt_table_is_keyed_as_reach_looks_it_up() {
        let (params, _, _, policy) = tiny_game_learnt(20_000, 1);
        assert!(policy.table.len() > 100);
        // Every observed history has a reach under the table that differs from uniform play's:
        // the lookups hit.
        let mut rng = Rng::new(4);
        let mut differs = 0;
        for _ in 0..50 {
            let mut s = OhHellState::new(params.clone()).unwrap();
            while !s.is_terminal() {
                let legal = s.legal_actions();
                s.apply_action(legal[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            }
            let o = observe(&params, s.history(), None).unwrap();
            let learnt = log_reach(&o.template, &o.actual_assignment, &policy);
            let uniform = log_reach(
                &o.template,
                &o.actual_assignment,
                &super::super::policy::UniformPolicy,
            );
            differs += (learnt != uniform) as usize;
        }
        assert!(differs > 40, "{differs}");
    }

    /// Seat 0's mean return over `deals` hands dealt from `seed`, seat 0 playing `policy` (its
    /// table's probabilities, uniform where it has none) and every other seat uniformly at random.
    fn seat_zero_return(
        game: &Arc<dyn TrickGame>,
        table: Table,
        policy: Option<&TabularPolicy>,
        deals: u64,
        seed: u64,
    ) -> f64 {
        let mut rng = Rng::new(seed);
        let mut legal = [0 as Action; MAX_LEGAL];
        let mut total = 0.0;
        for _ in 0..deals {
            let mut t = table;
            t.dealer = rng.below(game.num_players() as u64) as usize;
            t.trump_card = Some(rng.below(game.deck().num_cards() as u64) as u8);
            let hands = random_hands(&**game, &t, &mut rng);
            let mut state = TableState::new(&**game, t, &hands);
            let mut public_key = initial_public_key(&t);
            while !state.is_over() {
                let seat = state.to_act();
                let n = state.legal_actions(&**game, &mut legal);
                let probabilities = policy
                    .filter(|_| seat == 0)
                    .and_then(|p| p.table.get(&info_key(public_key, hands[seat], seat)))
                    .filter(|p| p.len() == n);
                let choice = match probabilities {
                    Some(p) => {
                        let cumulative: Vec<f64> = p
                            .iter()
                            .scan(0.0, |acc, &q| {
                                *acc += q;
                                Some(*acc)
                            })
                            .collect();
                        draw_index(&cumulative, &mut rng)
                    }
                    None => rng.below(n as u64) as usize,
                };
                state.apply(legal[choice]);
                public_key = extend_public_key(public_key, legal[choice]);
            }
            total += state.returns(&**game)[0];
        }
        total / deals as f64
    }

    #[test]
    fn the_learnt_policy_scores_more_than_uniform_play_against_uniform_players() {
        // Oh Hell with 2 suits of 4 and 2 tricks: uniform bids make the +10 bonus a matter of
        // luck, so a seat that learnt to bid what its cards take and to play to its bid scores
        // visibly more on the same deals.
        let (_, game, table, policy) = tiny_game_learnt(200_000, 2);
        let deals = 20_000;
        let learnt = seat_zero_return(&game, table, Some(&policy), deals, 9);
        let uniform = seat_zero_return(&game, table, None, deals, 9);
        eprintln!("seat 0: learnt {learnt:.2}, uniform {uniform:.2}");
        // Returns span 0-12 here; the standard error of each mean is about 0.03.
        assert!(
            learnt > uniform + 1.0,
            "learnt {learnt:.2}, uniform {uniform:.2}"
        );
    }
}
