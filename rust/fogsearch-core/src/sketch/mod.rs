//! Streaming sketches: CountSketch with top-k tracking, MinHash signatures and set ids.
//!
//! - [`CountSketch`] (Charikar, Chen and Farach-Colton): signed saturating counters,
//!   median-of-rows estimates;
//! - [`TopK`]: the k keys with the highest current estimates among those it keeps, in an indexed
//!   heap (O(log k)); its module says exactly what is guaranteed and why no more can be;
//! - [`BottomKMinHash`] (the paper's "minimal k values") and [`KHashMinHash`] (datasketch's kind),
//!   wrapped by [`MinHash`] when the kind is chosen at run time;
//! - [`set_id`]: an order-independent 64-bit identifier of a set of keys.
//!
//! Every sketch first passes keys through [`mix64`]: Zobrist keys are XOR-linear, so structure in
//! the keys would otherwise survive into bucket choices and minima.

//!
//! Sizes are bounded where they enter: each constructor runs the `check_*` function of its
//! parameters before allocating, and callers that take sketch sizes from users (the search
//! configuration) run the same functions, whose errors are sentences naming the parameter, the
//! limit and the memory it stands for.
//!
//! Modules depend one way: `error`, `encoding` and `hashing` underneath; `size_estimates` (the
//! estimators all MinHash kinds share) under `bottom_k` and `k_hash`; `minhash` over both;
//! `count_sketch` under `top_k`.

mod bottom_k;
mod count_sketch;
mod encoding;
mod error;
mod hashing;
mod k_hash;
mod minhash;
mod size_estimates;
mod top_k;

pub use bottom_k::{check_bottom_k, BottomKMinHash, JaccardSample, MAX_BOTTOM_K};
pub use count_sketch::{
    check_count_sketch_shape, CountSketch, COUNTER_LIMIT, MAX_COUNTERS, MAX_DEPTH,
};
pub use error::SketchError;
pub use hashing::{mix64, set_id};
pub use k_hash::{check_k_hash, KHashMinHash, MAX_K_HASH};
pub use minhash::{check_minhash_k, MinHash, MinHashKind};
pub(crate) use size_estimates::intersection_of_valid;
pub use size_estimates::{intersection_from_jaccard, Estimate, SizeEstimates};
pub use top_k::{check_top_k, TopK, MAX_TRACKED};

/// The configuration of the sketches' property tests: a fixed seed (the same cases on every run)
/// and no regression files written into the source tree.
#[cfg(test)]
pub(crate) fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5EED_2028),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Byte-level checks every sketch's decoder must pass, for property tests: every strict prefix
/// is refused, and any single-byte change either is refused or decodes to a sketch whose own
/// encoding is exactly the changed bytes (no panic, no silently different reading).
#[cfg(test)]
pub(crate) fn check_decoder<T>(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, SketchError>,
    encode: impl Fn(&T) -> Vec<u8>,
    flip_at: usize,
    flip: u8,
) {
    for cut in 0..bytes.len() {
        assert!(
            decode(&bytes[..cut]).is_err(),
            "a {cut}-byte prefix decoded"
        );
    }
    let mut changed = bytes.to_vec();
    let at = flip_at % changed.len();
    changed[at] ^= flip.max(1);
    if let Ok(value) = decode(&changed) {
        assert_eq!(
            encode(&value),
            changed,
            "byte {at} changed the reading silently"
        );
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert!(decode(&longer).is_err(), "trailing bytes were accepted");
}
