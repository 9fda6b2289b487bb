//! Trick-taking card games: Oh Hell with OpenSpiel's rules, what an observer knows about the deal,
//! max-flow construction of a consistent deal, and the TTCG Gibbs sampler with its baselines.

pub mod constraints;
// Game, observation, construction, policies and reach.
pub mod baselines;
pub mod chains;
pub mod enumerate;
pub mod error;
pub mod flow;
pub mod gibbs;
pub mod history;
pub mod maxflow;
pub mod observation;
pub mod ohhell;
pub mod pair_block;
pub mod policy;
pub mod ring_swap;
pub mod sampling;
pub mod suit_lengths;

#[cfg(test)]
mod h4a_tests;
