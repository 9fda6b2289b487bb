//! Sampling the joint range of an observed Oh Hell state: the observation, the joint policy and
//! the deal space tied together, with the Gibbs chains and every baseline behind one type.

use super::baselines::{sample_categorical, UniformDeals};
use super::chains::{check_schedule, run_chains, ChainDraws, ChainSchedule};
use super::constraints::Owner;
use super::enumerate::{enumerate_weighted, WeightedDeals};
use super::error::{zero_reach, TtcgError};
use super::flow::construct_assignment;
use super::gibbs::{exact_kernel_transitions, GibbsChain, Kernel, NeighbourhoodCache};
use super::history::log_reach;
use super::limits::{check_output, try_vec};
use super::observation::Observation;
use super::policy::{BuiltinPolicy, Policy};
use super::suit_lengths::{DealSpace, DealSpaceError};
use crate::rng::Rng;
use crate::stop::Stop;

impl From<DealSpaceError> for TtcgError {
    fn from(e: DealSpaceError) -> Self {
        match e {
            DealSpaceError::Malformed(_) => TtcgError::InvalidInput(e.to_string()),
            DealSpaceError::NoConsistentDeal(_) => TtcgError::Infeasible(e.to_string()),
        }
    }
}

/// Separates the start-randomising streams from the chains' own streams of the same seed.
const START_STREAM_SALT: u64 = 0x5354_4152_5453_0000;

/// How long a start keeps looking for a deal of positive reach (transitions of a chain whose
/// every proposal from an unreachable deal is taken) before the policy is declared to rule out
/// the observed actions.
pub const REACH_SEARCH_TRANSITIONS: u64 = 20_000;

/// The policy-weighted distribution over deal assignments consistent with an observation.
pub struct ObservedRange<P: Policy = BuiltinPolicy> {
    pub observation: Observation,
    pub space: DealSpace,
    pub policy: P,
}

impl<P: Policy> ObservedRange<P> {
    /// Fails with [`TtcgError::Infeasible`] (the max-flow construction's explanation) when no deal
    /// is consistent with the observation.
    pub fn new(observation: Observation, policy: P) -> Result<Self, TtcgError> {
        let space = DealSpace::new(&observation.constraints)?;
        construct_assignment(&observation.constraints)?;
        Ok(ObservedRange {
            observation,
            space,
            policy,
        })
    }

    /// Unnormalised log reach probability of the observed history with this deal.
    pub fn log_target(&self, assignment: &[Owner]) -> f64 {
        log_reach(&self.observation.template, assignment, &self.policy)
    }

    /// `n` different consistent starts of positive reach: the max-flow construction, moved by a
    /// short walk of uniform-target RingSwap transitions from its own stream (so chains start from
    /// different constructions), then, if that deal is unreachable under the policy, by a chain
    /// that takes any reachable proposal, for at most [`REACH_SEARCH_TRANSITIONS`].
    /// [`TtcgError::ZeroReach`] when that search finds no reachable deal.
    pub fn randomised_starts(
        &self,
        n: usize,
        seed: u64,
        stop: &Stop,
    ) -> Result<Vec<Vec<Owner>>, TtcgError> {
        let deck = self.space.num_cards();
        check_output(&format!("n = {n} starts"), n as u128, deck as u128 + 24)?;
        let constructed = construct_assignment(&self.observation.constraints)?;
        let uniform = |_: &[Owner]| 0.0;
        let target = |a: &[Owner]| self.log_target(a);
        let walk = 4 * (self.space.num_owners * self.space.num_suits) as u64;
        let mut starts = Vec::with_capacity(n);
        for c in 0..n {
            if stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            let rng = Rng::stream(seed ^ START_STREAM_SALT, c as u64);
            let mut chain = GibbsChain::new(&self.space, &uniform, &constructed, rng)
                .map_err(TtcgError::InvalidInput)?;
            chain.advance(walk);
            let walked = chain.state().to_vec();
            if self.log_target(&walked) > f64::NEG_INFINITY {
                starts.push(walked);
                continue;
            }
            let rng = Rng::stream(seed ^ START_STREAM_SALT ^ 1, c as u64);
            let mut search = GibbsChain::new(&self.space, &target, &walked, rng)
                .map_err(TtcgError::InvalidInput)?;
            let mut tried = 0;
            while search.log_target() == f64::NEG_INFINITY {
                if tried == REACH_SEARCH_TRANSITIONS {
                    return Err(zero_reach(format!(
                        "every deal a search of {REACH_SEARCH_TRANSITIONS} transitions from the \
                         max-flow construction visited"
                    )));
                }
                if tried % 1024 == 0 && stop.requested() {
                    return Err(TtcgError::Interrupted);
                }
                search.step();
                tried += 1;
            }
            starts.push(search.state().to_vec());
        }
        Ok(starts)
    }

    /// Gibbs chains from randomised starts (one per chain), in parallel.
    pub fn gibbs(
        &self,
        num_chains: usize,
        schedule: ChainSchedule,
        seed: u64,
        stop: &Stop,
    ) -> Result<ChainDraws, TtcgError> {
        check_schedule(num_chains, &schedule, self.space.num_cards())?;
        let starts = self.randomised_starts(num_chains, seed, stop)?;
        self.gibbs_from(&starts, schedule, seed, stop)
    }

    /// Gibbs chains from the given starts.
    pub fn gibbs_from(
        &self,
        starts: &[Vec<Owner>],
        schedule: ChainSchedule,
        seed: u64,
        stop: &Stop,
    ) -> Result<ChainDraws, TtcgError> {
        let target = |a: &[Owner]| self.log_target(a);
        run_chains(&self.space, &target, starts, schedule, seed, stop)
    }

    /// `n` exact uniform draws over consistent assignments, row-major `n x deck`.
    pub fn uniform(&self, n: usize, seed: u64, stop: &Stop) -> Result<Vec<Owner>, TtcgError> {
        UniformDeals::new(&self.space)?.sample(n, seed, stop)
    }

    /// Importance sampling with the uniform proposal: draws and their log weights (log reach).
    pub fn importance(
        &self,
        n: usize,
        seed: u64,
        stop: &Stop,
    ) -> Result<(Vec<Owner>, Vec<f64>), TtcgError> {
        let target = |a: &[Owner]| self.log_target(a);
        UniformDeals::new(&self.space)?.importance_sample(&target, n, seed, stop)
    }

    /// Every consistent assignment of positive reach with its log reach (at most `limit`).
    pub fn exact(&self, limit: usize, stop: &Stop) -> Result<WeightedDeals, TtcgError> {
        enumerate_weighted(
            &self.observation.constraints,
            &self.observation.template,
            &self.policy,
            limit,
            stop,
        )
    }

    /// `n` iid draws from the exact joint range (enumerated, at most `limit` assignments).
    pub fn true_samples(
        &self,
        n: usize,
        seed: u64,
        limit: usize,
        stop: &Stop,
    ) -> Result<Vec<Owner>, TtcgError> {
        let deck = self.space.num_cards();
        check_output(&format!("n = {n} draws"), n as u128, deck as u128 + 8)?;
        let exact = self.exact(limit, stop)?;
        let picks = sample_categorical(&exact.log_reach, n, seed)
            .ok_or_else(|| zero_reach("every consistent deal"))?;
        let mut out = try_vec(&format!("n = {n} draws"), n * deck, 0)?;
        for (row, i) in out.chunks_mut(deck.max(1)).zip(picks) {
            row.copy_from_slice(&exact.assignments[i]);
        }
        Ok(out)
    }

    /// The exact one-step transition matrix of a Gibbs chain with `kernel` over every consistent
    /// assignment (at most `limit`, enumerated as [`Self::exact`] orders them): row-major `n x n`,
    /// row `i` the distribution of the next state from assignment `i`. It is what the chain's
    /// mixing can be read from exactly (spectral gap, autocorrelation of any statistic) on small
    /// states; the cost is `n^2` acceptance evaluations, so keep `n` in the thousands.
    pub fn transition_matrix(
        &self,
        limit: usize,
        kernel: Kernel,
        stop: &Stop,
    ) -> Result<(WeightedDeals, Vec<f64>), TtcgError> {
        let exact = self.exact(limit, stop)?;
        let n = exact.assignments.len();
        check_output(
            &format!("the transition matrix over {n} deals"),
            (n as u128) * (n as u128),
            8,
        )?;
        let index = exact.index();
        // The enumeration already holds every target value: look them up instead of recomputing
        // n^2 reach probabilities.
        let target = |a: &[Owner]| {
            index
                .get(a)
                .map_or(f64::NEG_INFINITY, |&i| exact.log_reach[i])
        };
        let mut cache = NeighbourhoodCache::default();
        let mut matrix = try_vec("the transition matrix", n * n, 0.0)?;
        for (i, a) in exact.assignments.iter().enumerate() {
            if stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            let row = &mut matrix[i * n..(i + 1) * n];
            for (b, p) in exact_kernel_transitions(&self.space, &target, a, &mut cache, kernel)
                .map_err(TtcgError::InvalidInput)?
            {
                let j = index.get(b.as_slice()).ok_or_else(|| {
                    TtcgError::InvalidInput("a transition left the enumerated deals".into())
                })?;
                row[*j] += p;
            }
        }
        Ok((exact, matrix))
    }

    /// How many of the row-major assignments violate a constraint (known cards, voids, counts).
    pub fn count_violations(&self, assignments: &[Owner]) -> usize {
        assignments
            .chunks(self.space.num_cards())
            .filter(|a| self.space.table_of(a).is_err())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::enumerate::enumerate_assignments;
    use super::super::paper_states::paper_public_state;
    use super::super::policy::{BiasPolicy, SoftmaxPolicy};
    use super::*;
    use crate::stop::NEVER;

    fn with_each_kernel(policy: BuiltinPolicy) -> [(BuiltinPolicy, Kernel); 2] {
        [(policy, Kernel::RingSwap), (policy, Kernel::Pairs)]
    }

    fn policies() -> Vec<BuiltinPolicy> {
        let mut out = vec![BuiltinPolicy::Uniform];
        for beta in [2.0, 5.0, 10.0] {
            out.push(BuiltinPolicy::Softmax(SoftmaxPolicy { seed: 17, beta }));
        }
        out.push(BuiltinPolicy::Bias(BiasPolicy { seed: 5, bias: 0.9 }));
        out
    }

    #[test]
    fn deal_space_enumerates_the_same_assignments_as_the_game_enumeration() {
        for (suits, tricks, played, count) in [(2, 2, 1, 24), (3, 3, 2, 60), (3, 3, 1, 2520)] {
            let obs = paper_public_state(suits, tricks, played, 3).unwrap();
            let space = DealSpace::new(&obs.constraints).unwrap();
            let mut mine = space.all_assignments();
            let mut theirs = enumerate_assignments(&obs.constraints, 1_000_000, &NEVER).unwrap();
            mine.sort();
            theirs.sort();
            assert_eq!(mine.len(), count);
            assert_eq!(mine, theirs);
        }
    }

    #[test]
    fn gibbs_transition_matrix_leaves_the_exact_joint_range_invariant_on_192_histories() {
        for seed in 0..3 {
            let obs = paper_public_state(2, 2, 1, seed).unwrap();
            for (policy, kernel) in policies().into_iter().flat_map(with_each_kernel) {
                let range = ObservedRange::new(obs.clone(), policy).unwrap();
                let exact = range.exact(1000, &NEVER).unwrap();
                assert_eq!(exact.assignments.len(), 24);
                let pi = exact.probabilities();
                let index = exact.index();
                let target = |a: &[Owner]| range.log_target(a);
                let mut cache = NeighbourhoodCache::default();
                let mut moved = vec![0.0; pi.len()];
                for (i, a) in exact.assignments.iter().enumerate() {
                    let row =
                        exact_kernel_transitions(&range.space, &target, a, &mut cache, kernel)
                            .unwrap();
                    for (b, p) in row {
                        moved[index[b.as_slice()]] += pi[i] * p;
                    }
                }
                let err = pi
                    .iter()
                    .zip(&moved)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                assert!(err < 1e-9, "{policy:?} {kernel:?}: {err}");
            }
        }
    }

    #[test]
    fn transition_matrix_rows_are_distributions_that_keep_the_joint_range() {
        // 60 assignments (12,960 histories), every built-in policy.
        let obs = paper_public_state(3, 3, 2, 4).unwrap();
        for (policy, kernel) in policies().into_iter().flat_map(with_each_kernel) {
            let range = ObservedRange::new(obs.clone(), policy).unwrap();
            let (deals, matrix) = range.transition_matrix(1000, kernel, &NEVER).unwrap();
            let n = deals.assignments.len();
            assert_eq!(n, 60);
            assert_eq!(
                deals.assignments,
                range.exact(1000, &NEVER).unwrap().assignments
            );
            let pi = deals.probabilities();
            for i in 0..n {
                let row = &matrix[i * n..(i + 1) * n];
                assert!(row.iter().all(|&p| p >= 0.0));
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
            for j in 0..n {
                let moved: f64 = (0..n).map(|i| pi[i] * matrix[i * n + j]).sum();
                assert!(
                    (moved - pi[j]).abs() < 1e-9,
                    "{policy:?} {kernel:?}: {moved} vs {}",
                    pi[j]
                );
            }
            // Reversible, as Metropolis-Hastings must be: pi_i P_ij == pi_j P_ji.
            for i in 0..n {
                for j in 0..n {
                    let flow = pi[i] * matrix[i * n + j] - pi[j] * matrix[j * n + i];
                    assert!(
                        flow.abs() < 1e-12,
                        "{policy:?} {kernel:?}: detailed balance {i} {j}"
                    );
                }
            }
        }
    }

    #[test]
    fn transition_matrix_refuses_more_deals_than_the_limit() {
        let obs = paper_public_state(3, 3, 1, 4).unwrap();
        let range = ObservedRange::new(obs, BuiltinPolicy::Uniform).unwrap();
        assert!(range
            .transition_matrix(100, Kernel::RingSwap, &NEVER)
            .is_err());
    }

    fn tvd(counts: &HashMap<&[Owner], usize>, exact: &WeightedDeals, n: usize) -> f64 {
        let p = exact.probabilities();
        0.5 * exact
            .assignments
            .iter()
            .zip(&p)
            .map(|(a, &q)| (*counts.get(a.as_slice()).unwrap_or(&0) as f64 / n as f64 - q).abs())
            .sum::<f64>()
    }

    fn empirical(draws: &[Owner], deck: usize) -> HashMap<&[Owner], usize> {
        let mut counts = HashMap::new();
        for a in draws.chunks(deck) {
            *counts.entry(a).or_insert(0) += 1;
        }
        counts
    }

    #[test]
    fn gibbs_reaches_the_tvd_of_an_exact_iid_sampler() {
        // 4 chains x 2,500 draws, 10 transitions apart, against true iid samples of the same size
        // (averaged over 4 replicates to steady the yardstick).
        let n = 10_000;
        for (suits, tricks, played) in [(2, 2, 1), (3, 3, 2)] {
            let obs = paper_public_state(suits, tricks, played, 11).unwrap();
            let deck = obs.constraints.num_cards();
            for (beta, kernel) in [0.0, 2.0, 5.0, 10.0]
                .into_iter()
                .flat_map(|b| [(b, Kernel::RingSwap), (b, Kernel::Pairs)])
            {
                let policy = BuiltinPolicy::Softmax(SoftmaxPolicy { seed: 23, beta });
                let range = ObservedRange::new(obs.clone(), policy).unwrap();
                let exact = range.exact(100_000, &NEVER).unwrap();
                let schedule = ChainSchedule {
                    kernel,
                    burn_in: 50,
                    thin: 10,
                    draws: n / 4,
                };
                let run = range.gibbs(4, schedule, 1, &NEVER).unwrap();
                assert_eq!(range.count_violations(&run.draws), 0);
                let gibbs_tvd = tvd(&empirical(&run.draws, deck), &exact, n);
                let iid_tvd = (0..4)
                    .map(|s| {
                        let draws = range.true_samples(n, 100 + s, 100_000, &NEVER).unwrap();
                        tvd(&empirical(&draws, deck), &exact, n)
                    })
                    .sum::<f64>()
                    / 4.0;
                eprintln!(
                    "{suits} suits, beta {beta}, {kernel:?}: Gibbs TVD {gibbs_tvd:.4}, iid {iid_tvd:.4}"
                );
                assert!(
                    gibbs_tvd < 1.5 * iid_tvd,
                    "{suits} suits, beta {beta}, {kernel:?}: Gibbs TVD {gibbs_tvd:.4} vs iid {iid_tvd:.4}"
                );
            }
        }
    }

    #[test]
    fn uniform_baseline_and_importance_weights_match_enumeration() {
        let obs = paper_public_state(3, 3, 2, 4).unwrap();
        let range = ObservedRange::new(
            obs,
            BuiltinPolicy::Softmax(SoftmaxPolicy { seed: 1, beta: 5.0 }),
        )
        .unwrap();
        let exact = range.exact(1000, &NEVER).unwrap();
        let deck = range.space.num_cards();
        let (draws, log_w) = range.importance(60_000, 2, &NEVER).unwrap();
        let counts = empirical(&draws, deck);
        assert_eq!(counts.len(), exact.assignments.len());
        for (a, &lw) in draws.chunks(deck).zip(&log_w).take(100) {
            assert!((range.log_target(a) - lw).abs() < 1e-12);
        }
    }

    #[test]
    fn randomised_starts_differ_and_are_consistent() {
        let obs = paper_public_state(3, 3, 1, 8).unwrap();
        let range = ObservedRange::new(obs, BuiltinPolicy::Uniform).unwrap();
        let starts = range.randomised_starts(8, 0, &NEVER).unwrap();
        let distinct: std::collections::HashSet<_> = starts.iter().collect();
        assert!(distinct.len() >= 6, "{}", distinct.len());
        for s in &starts {
            assert!(range.space.table_of(s).is_ok());
        }
    }

    #[test]
    fn infeasible_and_malformed_observations_are_refused_with_their_reason() {
        let obs = paper_public_state(3, 3, 1, 8).unwrap();
        let mut infeasible = obs.clone();
        // Player 0 void in every suit but still hiding cards: no deal fits.
        infeasible.constraints.voids[0] = vec![true; 3];
        let err = ObservedRange::new(infeasible, BuiltinPolicy::Uniform)
            .err()
            .unwrap();
        assert!(matches!(err, TtcgError::Infeasible(_)), "{err:?}");
        let mut malformed = obs;
        malformed.constraints.hidden_counts[0] += 1;
        let err = ObservedRange::new(malformed, BuiltinPolicy::Uniform)
            .err()
            .unwrap();
        assert!(matches!(err, TtcgError::InvalidInput(_)), "{err:?}");
        assert!(err.to_string().contains("hidden_counts"), "{err}");
    }
}
