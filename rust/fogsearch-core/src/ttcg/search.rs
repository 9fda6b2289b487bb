//! The searching player: per move, sample deals consistent with what the seat saw (any sampler
//! of [`super::deal_samplers`]), then either search each with every hand known and average each
//! legal action's value over the deals with the sampler's weights (a tree per deal, Gongzhu's
//! default), or search one information-set tree over all of them (single-observer ISMCTS, Oh
//! Hell's default; [`super::mcts::search_shared`]), and play the best.
//!
//! Per-deal trees are searched in parallel on the shared pool of `threads` workers; deal `i`
//! searches with random stream `i` of the move's seed, so with a node budget (`iterations` per
//! deal) a move does not depend on the thread count. The shared tree runs on one thread. A time
//! budget (`seconds`) stops the searches at the deadline instead, which depends on the machine.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::constraints::Owner;
use super::deal_samplers::{sample_deals, SamplerConfig};
use super::error::{invalid, TtcgError};
use super::game::{Action, TrickGame, MAX_PLAYERS};
use super::mcts;
use super::observation::observe_seat;
use super::play::TableState;
use super::registry::{spec_of, SearchDefaults};
use super::turn::Turn;
use crate::pool;
use crate::rng::Rng;
use crate::stop::Stop;

/// The most deals one move may search (each is a tree of its own).
pub const MAX_DEALS: usize = 4096;
/// The most iterations one deal's search may run (a node of ~300 bytes per iteration).
pub const MAX_ITERATIONS: u64 = 1 << 22;
/// The most iterations the shared tree runs in all, whatever `iterations x deals` says: its
/// nodes all live until the move is chosen (about 100 bytes each, so at most about 0.8 GiB;
/// some 14 s of search on one core).
pub const MAX_SHARED_ITERATIONS: u64 = 1 << 23;
/// The most seconds one move may take.
pub const MAX_SECONDS: f64 = 3600.0;

/// The search settings of a game outside the registry.
const GENERIC_SEARCH: SearchDefaults = SearchDefaults {
    deals: 16,
    iterations: 400,
    exploration: 200.0,
    shared_tree: false,
};

/// How the searching player decides.
#[derive(Clone, Debug, PartialEq)]
pub struct CardSearchConfig {
    pub sampler: SamplerConfig,
    /// Deals sampled per move.
    pub deals: usize,
    /// Search iterations per deal (the node budget).
    pub iterations: u64,
    /// A time budget per move, sampling included (None: the node budget alone).
    pub seconds: Option<f64>,
    /// UCB's exploration constant c, in points.
    pub exploration: f64,
    /// Workers of the shared pool the deals are searched on.
    pub threads: usize,
    /// One information-set tree over all the deals (single-observer ISMCTS, on one thread)
    /// instead of one perfect-information tree per deal; the node budget is then
    /// `iterations x deals` in all, at most [`MAX_SHARED_ITERATIONS`].
    pub shared_tree: bool,
}

impl CardSearchConfig {
    /// The defaults for `game` (its registry entry's search settings) with `sampler` (see
    /// [`SamplerConfig::named`]); a game outside the registry gets per-deal trees as Gongzhu's.
    pub fn for_game(game: &dyn TrickGame, sampler: SamplerConfig) -> Self {
        let d = spec_of(game).map_or(GENERIC_SEARCH, |s| s.search);
        CardSearchConfig {
            sampler,
            deals: d.deals,
            iterations: d.iterations,
            seconds: None,
            exploration: d.exploration,
            threads: pool::available_cores().min(pool::MAX_THREADS),
            shared_tree: d.shared_tree,
        }
    }

    /// Checks every setting against its bound and against `game`.
    pub fn check(&self, game: &dyn TrickGame) -> Result<(), TtcgError> {
        self.sampler.check(game)?;
        if !(1..=MAX_DEALS).contains(&self.deals) {
            return Err(TtcgError::TooLarge(format!(
                "deals must be 1 to {MAX_DEALS} per move, got {}",
                self.deals
            )));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(TtcgError::TooLarge(format!(
                "iterations must be 1 to {MAX_ITERATIONS} per deal (a search node each, about \
                 300 bytes), got {}",
                self.iterations
            )));
        }
        if let Some(s) = self.seconds {
            if !(s.is_finite() && s > 0.0 && s <= MAX_SECONDS) {
                return Err(TtcgError::TooLarge(format!(
                    "seconds must be above 0 and at most {MAX_SECONDS}, got {s}"
                )));
            }
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return invalid(format!(
                "exploration must be finite and >= 0, got {}",
                self.exploration
            ));
        }
        pool::check_threads(self.threads).map_err(|e| TtcgError::TooLarge(e.to_string()))?;
        Ok(())
    }
}

/// The shared tree's node budget: `iterations` per deal over `deals` deals, at most
/// [`MAX_SHARED_ITERATIONS`].
fn shared_iterations(iterations: u64, deals: usize) -> u64 {
    iterations
        .saturating_mul(deals as u64)
        .min(MAX_SHARED_ITERATIONS)
}

/// A searched move.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub action: Action,
    /// Each legal action with its weighted mean value over the deals.
    pub values: Vec<(Action, f64)>,
    pub deals: usize,
    /// Kish's effective number of deals of the sampler's weights.
    pub effective_deals: f64,
    /// Search iterations over every deal.
    pub iterations: u64,
}

/// Decides the move of the seat to act in `turn`.
pub fn search_move(
    turn: &Turn<'_>,
    config: &CardSearchConfig,
    seed: u64,
    stop: &Stop,
) -> Result<SearchResult, TtcgError> {
    let game = turn.game;
    config.check(&**game)?;
    let started = Instant::now();
    let deadline = config.seconds.map(|s| started + Duration::from_secs_f64(s));
    let seat = turn.seat();
    let state = turn.state;
    let observation = observe_seat(
        game.clone(),
        state.table,
        seat,
        turn.dealt,
        turn.public_actions,
    )?;
    let sample = sample_deals(&observation, &config.sampler, config.deals, seed, stop)?;
    let weights = sample.weights();
    let players = game.num_players();
    let roots = present_roots(state, &sample.deals, players);
    let deals = Deals {
        roots: &roots,
        weights: &weights,
        seed,
        deadline,
    };
    let (action, values, iterations) = if config.shared_tree {
        search_one_tree(&**game, &deals, config, stop)?
    } else {
        let actions = state.legal_action_vec(&**game);
        search_each_deal(&**game, &deals, &actions, config, stop)?
    };
    Ok(SearchResult {
        action,
        values,
        deals: sample.deals.len(),
        effective_deals: sample.effective_size(),
        iterations,
    })
}

/// The sampled deals a move is searched over, brought to the present, with their weights, and
/// the search's seed and deadline.
struct Deals<'a> {
    roots: &'a [TableState],
    weights: &'a [f64],
    seed: u64,
    deadline: Option<Instant>,
}

/// A search's chosen action, each legal action's value, and the iterations it ran.
type Searched = (Action, Vec<(Action, f64)>, u64);

/// One information-set tree over every deal (`shared_tree`): the most visited action.
fn search_one_tree(
    game: &dyn TrickGame,
    deals: &Deals<'_>,
    config: &CardSearchConfig,
    stop: &Stop,
) -> Result<Searched, TtcgError> {
    let mut rng = Rng::stream(deals.seed, 0);
    let budget = mcts::Budget {
        iterations: shared_iterations(config.iterations, deals.roots.len()),
        exploration: config.exploration,
        deadline: deals.deadline,
    };
    let stats = mcts::search_shared(game, deals.roots, deals.weights, budget, &mut rng, stop);
    if stop.requested() {
        return Err(TtcgError::Interrupted);
    }
    let values: Vec<(Action, f64)> = stats
        .actions
        .iter()
        .zip(&stats.values)
        .zip(&stats.visits)
        .map(|((&a, &v), &n)| (a, if n > 0 { v } else { f64::NEG_INFINITY }))
        .collect();
    // The most visited action, as ISMCTS plays: its value is the best estimated.
    let action = stats
        .actions
        .iter()
        .zip(&stats.visits)
        .fold((stats.actions[0], 0), |best, (&a, &n)| {
            if n > best.1 {
                (a, n)
            } else {
                best
            }
        })
        .0;
    Ok((action, values, stats.iterations))
}

/// A tree a deal (determinized search), the deals shared out to `config.threads` workers: the
/// action of best weighted mean value over the deals (`actions`, the legal ones).
fn search_each_deal(
    game: &dyn TrickGame,
    deals: &Deals<'_>,
    actions: &[Action],
    config: &CardSearchConfig,
    stop: &Stop,
) -> Result<Searched, TtcgError> {
    let (roots, seed, deadline) = (deals.roots, deals.seed, deals.deadline);
    // A time budget is shared out so that every deal gets a slice as the pool works through them.
    let per_deal = deadline.map(|d| {
        let left = d.saturating_duration_since(Instant::now());
        let rounds = roots.len().div_ceil(config.threads) as u32;
        left / rounds.max(1)
    });
    let searched: Vec<mcts::RootStats> = pool::install(config.threads, || {
        roots
            .par_iter()
            .enumerate()
            .map(|(i, root)| {
                let mut rng = Rng::stream(seed, i as u64);
                let until = per_deal.map(|slice| (Instant::now() + slice).min(deadline.unwrap()));
                let budget = mcts::Budget {
                    iterations: config.iterations,
                    exploration: config.exploration,
                    deadline: until,
                };
                mcts::search(game, root, budget, &mut rng, stop)
            })
            .collect()
    })
    .map_err(|e| TtcgError::TooLarge(e.to_string()))?;
    if stop.requested() {
        return Err(TtcgError::Interrupted);
    }
    let values = weighted_values(actions, &searched, deals.weights);
    let best = values
        .iter()
        .copied()
        .fold(None, |best: Option<(Action, f64)>, (a, v)| match best {
            Some((_, bv)) if bv >= v => best,
            _ => Some((a, v)),
        })
        .expect("a legal action");
    Ok((best.0, values, searched.iter().map(|s| s.iterations).sum()))
}

/// Each sampled deal brought to the present `state`: every seat holds its dealt cards not yet
/// played.
fn present_roots(state: &TableState, deals: &[Vec<Owner>], players: usize) -> Vec<TableState> {
    deals
        .iter()
        .map(|deal| {
            let mut root = *state;
            root.hands = [0; MAX_PLAYERS];
            for (card, &owner) in deal.iter().enumerate() {
                if (owner as usize) < players && state.public.played >> card & 1 == 0 {
                    root.hands[owner as usize] |= 1 << card;
                }
            }
            root
        })
        .collect()
}

/// Each of `actions` with its value averaged over the deals' searches with the sampler's
/// `weights` (self-normalised over the deals whose search tried it; never tried: -inf).
fn weighted_values(
    actions: &[Action],
    searched: &[mcts::RootStats],
    weights: &[f64],
) -> Vec<(Action, f64)> {
    actions
        .iter()
        .enumerate()
        .map(|(k, &a)| {
            let (mut num, mut den) = (0.0, 0.0);
            for (stats, &w) in searched.iter().zip(weights) {
                debug_assert_eq!(stats.actions[k], a);
                if stats.visits[k] > 0 {
                    num += w * stats.values[k];
                    den += w;
                }
            }
            let value = if den > 0.0 {
                num / den
            } else {
                f64::NEG_INFINITY
            };
            (a, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_tree_budget_is_per_deal_and_capped_in_all() {
        assert_eq!(shared_iterations(400, 256), 102_400);
        assert_eq!(
            shared_iterations(MAX_ITERATIONS, MAX_DEALS),
            MAX_SHARED_ITERATIONS
        );
        assert_eq!(shared_iterations(u64::MAX, 2), MAX_SHARED_ITERATIONS);
    }

    fn stats(visits: [u32; 2], values: [f64; 2]) -> mcts::RootStats {
        mcts::RootStats {
            actions: vec![10, 20],
            visits: visits.to_vec(),
            values: values.to_vec(),
            iterations: 0,
        }
    }

    #[test]
    fn action_values_are_the_sampler_weighted_means_over_the_deals_that_tried_them() {
        let searched = [stats([5, 5], [1.0, -2.0]), stats([5, 0], [4.0, 0.0])];
        let values = weighted_values(&[10, 20], &searched, &[0.25, 0.75]);
        // 0.25 * 1 + 0.75 * 4, where the unweighted mean would be 2.5.
        assert_eq!(values[0], (10, 3.25));
        // The second deal never tried action 20: the first deal's value alone.
        assert_eq!(values[1], (20, -2.0));
        let untried = weighted_values(&[10, 20], &[stats([3, 0], [1.0, 0.0])], &[1.0]);
        assert_eq!(untried[1], (20, f64::NEG_INFINITY));
    }

    #[test]
    fn a_move_averages_each_deals_own_search_with_the_samplers_weights() {
        use super::super::deal_samplers::SamplerConfig;
        use super::super::gongzhu::{Gongzhu, TABLE};
        use super::super::players::random_hands;
        use crate::stop::NEVER;
        use std::sync::Arc;

        // Five tricks into a Gongzhu deal, so IEC weighs the sampled deals unequally.
        let game: Arc<dyn TrickGame> = Arc::new(Gongzhu);
        let hands = random_hands(&*game, &TABLE, &mut Rng::new(11));
        let mut state = TableState::new(&*game, TABLE, &hands);
        let mut public = Vec::new();
        let mut rng = Rng::new(12);
        let mut legal = [0; super::super::play::MAX_LEGAL];
        while public.len() < 20 || state.legal_actions(&*game, &mut legal) < 2 {
            let n = state.legal_actions(&*game, &mut legal);
            let a = legal[rng.below(n as u64) as usize];
            state.apply(a);
            public.push(a);
        }
        let seat = state.to_act();
        let turn = Turn {
            game: &game,
            state: &state,
            dealt: hands[seat],
            public_actions: &public,
        };
        let mut config =
            CardSearchConfig::for_game(&*game, SamplerConfig::named(&*game, "us+iec").unwrap());
        config.deals = 6;
        config.iterations = 200;
        let seed = 5;
        let got = search_move(&turn, &config, seed, &NEVER).unwrap();
        // The same move by hand: the same sample, each deal searched on its own stream.
        let observation =
            observe_seat(game.clone(), state.table, seat, hands[seat], &public).unwrap();
        let sample =
            sample_deals(&observation, &config.sampler, config.deals, seed, &NEVER).unwrap();
        let weights = sample.weights();
        assert!(
            weights.iter().any(|&w| (w - weights[0]).abs() > 1e-3),
            "{weights:?}"
        );
        let budget = mcts::Budget {
            iterations: config.iterations,
            exploration: config.exploration,
            deadline: None,
        };
        let searched: Vec<mcts::RootStats> = present_roots(&state, &sample.deals, 4)
            .iter()
            .enumerate()
            .map(|(i, root)| {
                mcts::search(
                    &*game,
                    root,
                    budget,
                    &mut Rng::stream(seed, i as u64),
                    &NEVER,
                )
            })
            .collect();
        let actions = state.legal_action_vec(&*game);
        let expected = weighted_values(&actions, &searched, &weights);
        assert_eq!(got.values, expected);
        let even = weighted_values(&actions, &searched, &vec![1.0; weights.len()]);
        assert_ne!(got.values, even, "the weights must matter on this move");
    }

    #[test]
    fn a_time_budget_stops_a_move_that_its_node_budget_would_not() {
        use super::super::deal_samplers::SamplerConfig;
        use super::super::gongzhu::{Gongzhu, TABLE};
        use super::super::players::random_hands;
        use crate::stop::NEVER;
        use std::sync::Arc;

        let game: Arc<dyn TrickGame> = Arc::new(Gongzhu);
        let hands = random_hands(&*game, &TABLE, &mut Rng::new(3));
        let state = TableState::new(&*game, TABLE, &hands);
        let turn = Turn {
            game: &game,
            state: &state,
            dealt: hands[0],
            public_actions: &[],
        };
        for shared_tree in [false, true] {
            let mut config =
                CardSearchConfig::for_game(&*game, SamplerConfig::named(&*game, "us").unwrap());
            config.deals = 4;
            config.iterations = MAX_ITERATIONS;
            config.seconds = Some(0.1);
            config.threads = 1;
            config.shared_tree = shared_tree;
            let started = Instant::now();
            let got = search_move(&turn, &config, 1, &NEVER).unwrap();
            // Generous: a loaded machine may overrun by a poll interval, but the node budget
            // (4 M playouts a deal) would take many seconds.
            assert!(started.elapsed() < Duration::from_secs(5), "{shared_tree}");
            assert!(got.iterations > 0 && got.iterations < 4 * MAX_ITERATIONS / 8);
        }
    }
}
