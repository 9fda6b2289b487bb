//! Throughput of the TTCG Gibbs sampler's own work (RingSwap neighbourhoods, proposal, MH step)
//! with a constant target, next to the full transition with reach under the uniform policy, on the
//! paper's three public-state sizes. Single thread.
//!
//! Run: `cargo run --release -p fogsearch-core --example ttcg_sampler_throughput`

use std::time::Instant;

use fogsearch_core::rng::Rng;
use fogsearch_core::ttcg::{paper_public_state, BuiltinPolicy, GibbsChain, ObservedRange, Owner};

fn per_second(mut step: impl FnMut(), n: u64) -> f64 {
    let t0 = Instant::now();
    for _ in 0..n {
        step();
    }
    n as f64 / t0.elapsed().as_secs_f64()
}

fn main() {
    let n = 2_000_000;
    println!("| public state | sampler only (constant target) | with uniform-policy reach |");
    println!("|---|---|---|");
    for (label, suits, tricks, played) in
        [("192", 2, 2, 1), ("12,960", 3, 3, 2), ("544,320", 3, 3, 1)]
    {
        let range = ObservedRange::new(
            paper_public_state(suits, tricks, played, 1).unwrap(),
            BuiltinPolicy::Uniform,
        )
        .unwrap();
        let start = range
            .randomised_starts(1, 0, &fogsearch_core::stop::NEVER)
            .unwrap()
            .remove(0);
        let constant = |_: &[Owner]| 0.0;
        let mut chain = GibbsChain::new(&range.space, &constant, &start, Rng::new(1)).unwrap();
        chain.advance(10_000);
        let alone = per_second(
            || {
                chain.step();
            },
            n,
        );
        let reach = |a: &[Owner]| range.log_target(a);
        let mut chain = GibbsChain::new(&range.space, &reach, &start, Rng::new(1)).unwrap();
        chain.advance(10_000);
        let full = per_second(
            || {
                chain.step();
            },
            n / 4,
        );
        println!("| {label} | {:.2}M/s | {:.2}M/s |", alone / 1e6, full / 1e6);
    }
}
