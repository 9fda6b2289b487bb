//! Streaming sketches: CountSketch with top-k tracking, MinHash signatures and set ids.
//!
//! - [`CountSketch`] (Charikar, Chen and Farach-Colton): signed counters, median-of-rows estimates;
//! - [`TopK`]: the k keys with the highest estimated counts, kept in an indexed heap (O(log k));
//! - [`BottomKMinHash`] (the paper's "minimal k values") and [`KHashMinHash`] (datasketch's kind),
//!   wrapped by [`MinHash`] when the kind is chosen at run time;
//! - [`set_id`]: an order-independent 64-bit identifier of a set of keys.
//!
//! Every sketch first passes keys through [`mix64`]: Zobrist keys are XOR-linear, so structure in
//! the keys would otherwise survive into bucket choices and minima.

mod bottom_k;
mod count_sketch;
mod encoding;
mod error;
mod hashing;
mod k_hash;
mod minhash;
mod top_k;

pub use bottom_k::{BottomKMinHash, JaccardSample};
pub use count_sketch::CountSketch;
pub use error::SketchError;
pub use hashing::{mix64, set_id};
pub use k_hash::KHashMinHash;
pub use minhash::{intersection_from_jaccard, MinHash, MinHashKind, SizeEstimates};
pub use top_k::TopK;
