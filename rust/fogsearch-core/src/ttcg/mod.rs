//! Trick-taking card games: a generic layer (deck, follow suit, trick winner, bidding or none,
//! scoring, teams) with Oh Hell (OpenSpiel's rules and action ids) and Gongzhu on it; what an
//! observer knows about the deal; max-flow construction of a consistent deal; exact enumeration;
//! the TTCG Gibbs sampler (both kernels) and its baselines; the ScrofaZero samplers (stratified,
//! IEC); rule-based players; and a player that searches sampled deals.
//!
//! The modules are private; this facade is the API.

mod baselines;
mod cards;
mod chains;
mod constraints;
mod deal_samplers;
mod encoding;
mod enumerate;
mod error;
mod flow;
mod game;
mod gibbs;
mod gongzhu;
mod gongzhu_players;
mod hearts;
mod history;
mod limits;
mod maxflow;
mod mcts;
mod observation;
mod ohhell;
mod openspiel;
mod pair_block;
mod paper_states;
mod play;
mod players;
mod policy;
mod qlearning;
mod registry;
mod ring_swap;
mod sampling;
mod search;
mod search_settings;
mod spec;
mod suit_lengths;
mod target;
mod turn;

#[cfg(test)]
mod brute_force_tests;

pub use baselines::{sample_categorical, UniformDeals};
pub use cards::{cards_of, hands_from_ids, Card, Deck, Hand, SUIT_NAMES};
pub use chains::{check_schedule, run_chains, ChainDraws, ChainSchedule};
pub use constraints::{DealConstraints, Owner};
pub use deal_samplers::{
    sample_deals, strata, ModelPolicy, SamplerConfig, SamplerKind, StratumWeights, WeightedSample,
    PAPER_BETA,
};
pub use enumerate::{enumerate_assignments, enumerate_weighted, WeightedDeals};
pub use error::TtcgError;
pub use flow::{construct_assignment, construct_suit_lengths, is_consistent};
pub use game::{Action, PlayRules, Scores, Table, TrickGame, MAX_PLAYERS};
pub use gibbs::{
    exact_kernel_transitions, GibbsChain, Kernel, NeighbourhoodCache, RING_SWAP_SHARE,
};
pub use gongzhu::{check_random_games, Gongzhu, GongzhuState, RandomPlayReport};
pub use gongzhu_players::{
    greed_scores, holding_value, mr_greed, mr_if, mr_random, GreedPolicy, IecWeight, SeatView,
    IEC_MIN_RANK,
};
pub use history::log_reach;
pub use limits::{check_output, check_transitions, MAX_OUTPUT_BYTES, MAX_TRANSITIONS};
pub use mcts::RootStats;
pub use observation::{
    observe, observe_gongzhu, observe_play, observe_seat, HistoryTemplate, Observation, PublicEvent,
};
pub use ohhell::{Actor, OhHellParams, OhHellPhase, OhHellState};
pub use openspiel::{
    deal_orders_per_assignment, for_each_history, history_from_deal, openspiel_player,
    openspiel_serialization, shuffled_deal_history, trace, walk_histories, Resampler, Trace,
    CHANCE_PLAYER_ID, TERMINAL_PLAYER_ID,
};
pub use paper_states::{paper_public_state, MAX_PAPER_STATE_TRIES};
pub use play::{Phase, PublicPlay, TableState, MAX_LEGAL};
pub use players::{play_out, random_hands, CardPlayer, PlayedDeal, Turn};
pub use policy::{
    check_beta, BiasPolicy, BuiltinPolicy, InfoStateView, Policy, SoftmaxPolicy, UniformPolicy,
};
pub use qlearning::{train as train_q_policy, QLearning, TabularPolicy, MAX_EPISODES};
pub use registry::{
    game_spec, oh_hell_params, oh_hell_params_named, openspiel_player_id, spec_of, CardGameState,
    GameSpec, ParamSpec, ParamValue, SearchDefaults, GAMES,
};
pub use sampling::ObservedRange;
pub use search::{
    search_move, CardSearchConfig, SearchResult, MAX_DEALS, MAX_ITERATIONS, MAX_SECONDS,
    MAX_SHARED_ITERATIONS,
};
pub use search_settings::{FromSettings, SettingValue, CARD_SEARCH_SETTINGS, SAMPLER_SETTINGS};
pub use suit_lengths::{DealSpace, DealSpaceError, SuitLengths};
pub use target::LogTarget;

/// Gongzhu's constants and scoring, for players and tests that reason about its cards.
pub mod gongzhu_rules {
    pub use super::gongzhu::{
        card_points, heart_points, points_of, ACE, ALL_HEARTS, CLUBS, DECK, DIAMONDS, HEARTS, JACK,
        KING, PIG, PLAYERS, QUEEN, SCORING_CARDS, SHEEP, SPADES, TABLE, TEN, TRANSFORMER, TRICKS,
    };
}
