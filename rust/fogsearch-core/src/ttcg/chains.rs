//! Many Gibbs chains on many threads.
//!
//! Chain `c` draws from `Rng::stream(seed, c)` and nothing else, and rayon's ordered collect puts
//! chains back in index order, so a seed gives the same draws whatever the thread count.

use rayon::prelude::*;

use super::constraints::Owner;
use super::error::{zero_reach, TtcgError};
use super::gibbs::{GibbsChain, Kernel};
use super::limits::{check_output, check_transitions};
use super::suit_lengths::DealSpace;
use super::target::LogTarget;
use crate::rng::Rng;
use crate::stop::Stop;

/// Which transition chains make, how long they run and what they record.
#[derive(Clone, Copy, Debug)]
pub struct ChainSchedule {
    pub kernel: Kernel,
    /// Transitions discarded before the first draw.
    pub burn_in: u64,
    /// Transitions between consecutive draws (at least 1).
    pub thin: u64,
    /// Draws recorded per chain.
    pub draws: usize,
}

/// Draws of every chain, chain-major: `draws[(chain * schedule.draws + d) * deck + card]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainDraws {
    pub draws: Vec<Owner>,
    pub transitions: Vec<u64>,
    pub accepted: Vec<u64>,
}

impl ChainDraws {
    pub fn acceptance_rate(&self) -> f64 {
        let t: u64 = self.transitions.iter().sum();
        if t == 0 {
            return 0.0;
        }
        self.accepted.iter().sum::<u64>() as f64 / t as f64
    }
}

/// Transitions a chain runs between looks at the stop flag (well under a millisecond).
const POLL_EVERY: u64 = 1024;

/// Checks a schedule for `chains` chains over a deck of `deck` cards against the limits on output
/// and run length, before any work.
pub fn check_schedule(
    chains: usize,
    schedule: &ChainSchedule,
    deck: usize,
) -> Result<(), TtcgError> {
    if schedule.thin == 0 {
        return Err(TtcgError::InvalidInput(
            "thin must be at least 1 transition between draws".into(),
        ));
    }
    check_output(
        &format!("{chains} chains of {} draws", schedule.draws),
        chains as u128,
        (deck as u128) * (schedule.draws as u128 + 1) + 16,
    )?;
    let per_chain = (schedule.burn_in as u128)
        .saturating_add((schedule.thin as u128).saturating_mul(schedule.draws as u128));
    check_transitions(
        &format!(
            "{chains} chains x (burn_in {} + thin {} x draws {})",
            schedule.burn_in, schedule.thin, schedule.draws
        ),
        per_chain.saturating_mul(chains as u128),
    )
}

/// Runs one chain per start assignment in parallel on the current rayon pool; `Interrupted` as
/// soon as `stop` is raised (within about a thousand transitions of each running chain).
pub fn run_chains<T: LogTarget + ?Sized>(
    space: &DealSpace,
    target: &T,
    starts: &[Vec<Owner>],
    schedule: ChainSchedule,
    seed: u64,
    stop: &Stop,
) -> Result<ChainDraws, TtcgError> {
    let deck = space.num_cards();
    check_schedule(starts.len(), &schedule, deck)?;
    for (c, start) in starts.iter().enumerate() {
        space.table_of(start).map_err(|why| {
            TtcgError::InvalidInput(format!("start of chain {c} is inconsistent: {why}"))
        })?;
    }
    let advance = |chain: &mut GibbsChain<'_, T>, n: u64| -> Option<()> {
        let mut left = n;
        while left > 0 {
            let step = left.min(POLL_EVERY);
            chain.advance(step);
            left -= step;
            if stop.requested() {
                return None;
            }
        }
        Some(())
    };
    let per_chain: Vec<(Vec<Owner>, u64, u64, bool)> = starts
        .par_iter()
        .enumerate()
        .map(|(c, start)| {
            let rng = Rng::stream(seed, c as u64);
            let mut chain = GibbsChain::with_kernel(space, target, start, rng, schedule.kernel)
                .expect("validated above");
            advance(&mut chain, schedule.burn_in)?;
            let mut out = Vec::with_capacity(schedule.draws * deck);
            let mut reached = true;
            for _ in 0..schedule.draws {
                advance(&mut chain, schedule.thin)?;
                out.extend_from_slice(chain.state());
                reached &= chain.log_target() > f64::NEG_INFINITY;
            }
            Some((out, chain.transitions(), chain.accepted(), reached))
        })
        .collect::<Option<_>>()
        .ok_or(TtcgError::Interrupted)?;
    let mut result = ChainDraws {
        draws: Vec::with_capacity(starts.len() * schedule.draws * deck),
        transitions: Vec::with_capacity(starts.len()),
        accepted: Vec::with_capacity(starts.len()),
    };
    for (c, (draws, transitions, accepted, reached)) in per_chain.into_iter().enumerate() {
        if !reached {
            return Err(zero_reach(format!(
                "every deal chain {c} visited in its {transitions} transitions"
            )));
        }
        result.draws.extend(draws);
        result.transitions.push(transitions);
        result.accepted.push(accepted);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::super::suit_lengths::tests::three_suits_with_a_void;
    use super::*;
    use crate::stop::NEVER;

    #[test]
    fn draws_do_not_depend_on_the_thread_count() {
        let space = DealSpace::new(&three_suits_with_a_void()).unwrap();
        let all = space.all_assignments();
        let starts: Vec<Vec<Owner>> = (0..6).map(|i| all[i * 37 % all.len()].clone()).collect();
        let target = |a: &[Owner]| {
            a.iter()
                .enumerate()
                .map(|(i, &o)| (i * o as usize) as f64)
                .sum::<f64>()
                * 0.1
        };
        for kernel in [Kernel::RingSwap, Kernel::Pairs] {
            let schedule = ChainSchedule {
                kernel,
                burn_in: 10,
                thin: 3,
                draws: 50,
            };
            let run_on = |threads| {
                crate::pool::install(threads, || {
                    run_chains(&space, &target, &starts, schedule, 42, &NEVER).unwrap()
                })
                .unwrap()
            };
            let one = run_on(1);
            let two = run_on(2);
            assert_eq!(one, two);
            assert_eq!(one.draws.len(), 6 * 50 * space.num_cards());
            assert_eq!(one.transitions, vec![160; 6]);
            assert!(one.acceptance_rate() > 0.0);
        }
    }

    #[test]
    fn bad_starts_are_rejected_before_any_work() {
        let space = DealSpace::new(&three_suits_with_a_void()).unwrap();
        let target = |_: &[Owner]| 0.0;
        let bad = vec![vec![0; space.num_cards()]];
        let schedule = ChainSchedule {
            kernel: Kernel::RingSwap,
            burn_in: 0,
            thin: 1,
            draws: 1,
        };
        let err = run_chains(&space, &target, &bad, schedule, 0, &NEVER).unwrap_err();
        assert!(err.to_string().contains("start of chain 0"), "{err}");
    }
}
