//! Many seeds at once, as Table 1 and Table 2 are measured: per seed, a starting policy (CFR or
//! a random one), then JPS; seeds run in parallel on a pool of `threads`.
//!
//! Every random choice of a seed's run (CFR's start and noise, the depth order, the samples)
//! comes from that seed's own generators, and results are returned in seed order, so the output
//! does not depend on the number of threads.

use std::time::Instant;

use rayon::prelude::*;

use crate::pool;
use crate::rng::Rng;
use crate::stop::Stop;

use super::cfr::{cfr, CfrConfig, MAX_ITERATIONS};
use super::error::{bounded, JpsError};
use super::policy::{expected_reward, JointPolicy};
use super::search::{joint_policy_search, JpsSearchConfig, JpsSearchStats};
use super::tree::GameTree;

pub const MAX_SEEDS: u64 = 1_000_000;
/// Each worker holds a few arrays of one value per state (about 50 bytes per state at most);
/// threads x states is capped so that memory stays near 3 GiB at most.
pub const MAX_THREAD_STATES: u64 = 1 << 26;
/// Stream of the random starting policy of [`Init::Random`].
const STREAM_RANDOM_START: u64 = 5;

/// The policy JPS improves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// The paper's CFR (simultaneous updates from a random start) run for this many iterations;
    /// `cfr1k` is 1,000.
    Cfr { iterations: u32 },
    /// Independent U(0, 1) weights per information set, normalised (the paper's "uniform
    /// random" start).
    Random,
}

impl Init {
    /// The start named `kind`: `"cfr"` (run for `cfr_iterations`) or `"random"`.
    pub fn from_kind(kind: &str, cfr_iterations: u32) -> Result<Self, JpsError> {
        match kind {
            "cfr" => Ok(Init::Cfr {
                iterations: cfr_iterations,
            }),
            "random" => Ok(Init::Random),
            other => Err(JpsError::OutOfRange(format!(
                "init must be 'cfr' or 'random', got {other:?}"
            ))),
        }
    }
}

/// One JPS setting to run from each seed's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// Start from CFR's purified policy rather than its raw last iterate (the paper's code
    /// starts from the raw one); a random start is already what it is.
    pub purify_start: bool,
    pub depth: Option<u16>,
    pub samples: Option<u32>,
    /// T, JPS's most iterations.
    pub iterations: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub init: Init,
    /// The JPS settings, each run from the same start (Table 2's columns share their CFR).
    pub searches: Vec<SearchSettings>,
}

/// One JPS setting's result for one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRun {
    /// The value of the policy JPS started from.
    pub start_value: f64,
    /// The value after JPS (the best iterate for sample-based JPS).
    pub value: f64,
    pub iterations: u32,
    pub improvements: u32,
    pub stats: JpsSearchStats,
}

/// One seed's result.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRun {
    pub seed: u64,
    /// The value of the starting policy as Table 1 reports it: CFR's purified last iterate, or
    /// the random policy.
    pub init_value: f64,
    pub init_seconds: f64,
    /// One result per [`RunConfig::searches`] entry, in order.
    pub searches: Vec<SearchRun>,
}

/// At most this many JPS settings per run.
pub const MAX_SEARCHES: usize = 64;

/// Runs seeds `first_seed .. first_seed + count` on the shared pool of `threads` workers;
/// `stop` is polled throughout.
pub fn run_seeds(
    tree: &GameTree,
    config: &RunConfig,
    first_seed: u64,
    count: u64,
    threads: usize,
    stop: &Stop,
) -> Result<Vec<SeedRun>, JpsError> {
    bounded("seeds", count, 1, MAX_SEEDS)?;
    pool::check_threads(threads).map_err(|e| JpsError::OutOfRange(e.to_string()))?;
    if first_seed.checked_add(count).is_none() {
        return Err(JpsError::OutOfRange(format!(
            "the seeds {first_seed}..{first_seed}+{count} overflow 64 bits"
        )));
    }
    if let Init::Cfr { iterations } = config.init {
        bounded("cfr iterations", iterations, 1, MAX_ITERATIONS)?;
    }
    bounded(
        "jps settings per run",
        config.searches.len(),
        1,
        MAX_SEARCHES,
    )?;
    for settings in &config.searches {
        search_config(settings, 0).validate()?;
    }
    let workers = threads.min(count as usize);
    let load = workers as u64 * tree.num_states() as u64;
    if load > MAX_THREAD_STATES {
        return Err(JpsError::OutOfRange(format!(
            "threads x states must be at most {MAX_THREAD_STATES} (memory); {workers} threads x {} states of {} is {load}",
            tree.num_states(),
            tree.name()
        )));
    }
    pool::install(workers, || {
        (first_seed..first_seed + count)
            .into_par_iter()
            .map(|seed| run_seed(tree, config, seed, stop))
            .collect()
    })
    .map_err(|e| JpsError::OutOfRange(e.to_string()))?
}

fn search_config(settings: &SearchSettings, seed: u64) -> JpsSearchConfig {
    JpsSearchConfig {
        depth: settings.depth,
        samples: settings.samples,
        iterations: settings.iterations,
        seed,
    }
}

/// One seed: its starting policy, then JPS.
pub fn run_seed(
    tree: &GameTree,
    config: &RunConfig,
    seed: u64,
    stop: &Stop,
) -> Result<SeedRun, JpsError> {
    let t0 = Instant::now();
    // The raw start, and its purified form (the same policy for a pure start).
    let (init_value, raw, purified) = match config.init {
        Init::Cfr { iterations } => {
            let result = cfr(tree, &CfrConfig::paper(iterations, seed), stop)?;
            let purified = result.current.purified(tree);
            (expected_reward(tree, &purified)?, result.current, purified)
        }
        Init::Random => {
            let policy = JointPolicy::random(tree, &mut Rng::stream(seed, STREAM_RANDOM_START));
            (expected_reward(tree, &policy)?, policy.clone(), policy)
        }
    };
    let init_seconds = t0.elapsed().as_secs_f64();
    let mut searches = Vec::with_capacity(config.searches.len());
    for settings in &config.searches {
        let start = if settings.purify_start && config.init != Init::Random {
            &purified
        } else {
            &raw
        };
        let outcome = joint_policy_search(tree, start, &search_config(settings, seed), stop)?;
        searches.push(SearchRun {
            start_value: outcome.initial_value(),
            value: outcome.value,
            iterations: outcome.iterations(),
            improvements: outcome.improvements,
            stats: outcome.stats,
        });
    }
    Ok(SeedRun {
        seed,
        init_value,
        init_seconds,
        searches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::testing::{game, raised};
    use crate::stop::NEVER;

    #[test]
    fn results_do_not_depend_on_the_number_of_threads() {
        let tree = game("mini_bridge:n=3");
        let config = RunConfig {
            init: Init::Cfr { iterations: 100 },
            searches: vec![
                SearchSettings {
                    purify_start: false,
                    depth: None,
                    samples: None,
                    iterations: 100,
                },
                SearchSettings {
                    purify_start: true,
                    depth: Some(2),
                    samples: Some(1),
                    iterations: 10,
                },
            ],
        };
        let one = run_seeds(tree, &config, 3, 6, 1, &NEVER).unwrap();
        let two = run_seeds(tree, &config, 3, 6, 2, &NEVER).unwrap();
        let strip = |runs: &[SeedRun]| {
            runs.iter()
                .map(|r| {
                    let s: Vec<_> = r
                        .searches
                        .iter()
                        .map(|s| (s.start_value, s.value, s.iterations))
                        .collect();
                    (r.seed, r.init_value, s)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&one), strip(&two));
        assert_eq!(
            one.iter().map(|r| r.seed).collect::<Vec<_>>(),
            vec![3, 4, 5, 6, 7, 8]
        );
        for run in &one {
            let full = &run.searches[0];
            assert!(
                full.value >= full.start_value,
                "Theorem 2, seed {}",
                run.seed
            );
            assert_eq!(
                run.searches[1].start_value, full.start_value,
                "one start for both"
            );
            assert_eq!(run.searches[1].iterations, 10);
        }
    }

    #[test]
    fn random_starts_and_bounds() {
        let tree = game("simple_bidding:n=4");
        let config = RunConfig {
            init: Init::Random,
            searches: vec![SearchSettings {
                purify_start: true,
                depth: None,
                samples: Some(2),
                iterations: 20,
            }],
        };
        let runs = run_seeds(tree, &config, 0, 4, 2, &NEVER).unwrap();
        for run in &runs {
            assert_eq!(run.init_value, run.searches[0].start_value);
            assert_eq!(run.searches[0].iterations, 20);
        }
        let none = RunConfig {
            searches: vec![],
            ..config.clone()
        };
        let err = run_seeds(tree, &none, 0, 1, 1, &NEVER)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("jps settings per run must be between 1 and 64"),
            "{err}"
        );
        let err = |threads, count| {
            run_seeds(tree, &config, 0, count, threads, &NEVER)
                .unwrap_err()
                .to_string()
        };
        assert!(err(0, 4).contains("threads must be between 1 and 256"));
        assert!(err(1, 0).contains("seeds must be between 1 and 1000000"));
        let big = game("comm:l=7");
        let err = run_seeds(big, &config, 0, 64, 64, &NEVER).unwrap_err();
        assert!(err.to_string().contains("threads x states"), "{err}");
        let interrupted = run_seeds(tree, &config, 0, 4, 2, &raised()).unwrap_err();
        assert_eq!(interrupted, JpsError::Interrupted);
    }
}
