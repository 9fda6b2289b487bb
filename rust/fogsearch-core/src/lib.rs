//! fogsearch-core: the pure-Rust engine behind `fogsearch`.
//!
//! One concern per module:
//! - [`chess`]: bitboards, FEN, Zobrist keys, RBC pseudo-legal move generation;
//! - [`rbc`]: reconchess rules (move actions, revised moves) and board sets;
//! - [`sketch`]: CountSketch, top-k and MinHash;
//! - [`search`]: information-set alpha-beta;
//! - [`jps`]: Joint Policy Search and CFR on tabular collaborative games (paper 002);
//! - [`ttcg`]: trick-taking card games (a generic layer; Oh Hell, Gongzhu), deal samplers and players;
//! - [`uci`]: a client for UCI chess engines (the search's engine leaf);
//! - [`stop`], [`pool`], [`rng`]: stopping long computations (Ctrl-C), shared worker pools, seeded
//!   randomness.
//!
//! This crate never links Python; `fogsearch-py` holds the bindings.

/// `target.f += source.f` for every listed field `f`: the counters several workers or
/// iterations kept add up (the RBC search's and JPS's statistics).
macro_rules! add_fields {
    ($target:expr, $source:expr; $($field:ident),+ $(,)?) => {
        $( $target.$field += $source.$field; )+
    };
}
pub(crate) use add_fields;

pub mod chess;
pub mod jps;
pub mod limits;
pub mod pool;
pub mod rbc;
pub mod rng;
pub mod search;
pub mod sketch;
pub mod stop;
pub mod ttcg;
pub mod uci;
