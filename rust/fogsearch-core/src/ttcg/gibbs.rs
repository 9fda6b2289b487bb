//! The TTCG Gibbs sampler (§5.3 of the sampler paper): a Metropolis-Hastings chain over deal
//! assignments whose target is the unnormalised reach probability of the history.
//!
//! One transition from an assignment `σ` with suit-length table `A`:
//! 1. the proposal set `Ω_σ` is every assignment whose table is a RingSwap neighbour of `A`, or `A`
//!    itself (see below); draw `σ'` uniformly from it, i.e. a table with probability proportional
//!    to its deal count, then a uniform assignment within that table;
//! 2. accept with probability `min{1, P̄(σ') |Ω_σ| / (P̄(σ) |Ω_σ'|)}`.
//!
//! The proposal set depends only on the table, and the neighbour relation is symmetric (see
//! [`super::ring_swap`]), so this is Metropolis-Hastings with proposal `1/|Ω_σ|`: reversible with
//! respect to `P̄`. Deal counts overflow every float beyond small decks, so `|Ω|` and the target
//! are kept as logarithms.
//!
//! Including the current table in `Ω_σ` is our one addition to Algorithm 1. Without it a state
//! whose constraints allow a single table (common late in a hand, or with voids) could never move
//! at all, since RingSwap always changes the table; with it the chain can also reshuffle cards
//! between owners without changing any suit length. Symmetry, and so correctness, is unaffected.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::constraints::{Card, Owner};
use super::pair_block::{exact_pair_transitions, pair_step, PairBlocks, PairScratch};
use super::ring_swap::for_each_ring_swap_neighbour;
use super::suit_lengths::{DealSpace, SuitLengths};
pub use super::target::LogTarget;
use crate::rng::{splitmix64, Rng};

/// Which transition the chain makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernel {
    /// The paper's Algorithm 1: a RingSwap proposal with Metropolis-Hastings acceptance.
    #[default]
    RingSwap,
    /// A pair-block update (see [`super::pair_block`]), or with probability
    /// [`RING_SWAP_SHARE`] a RingSwap step, which keeps the chain irreducible where voids would
    /// stop pair exchanges. Up to 20 reach evaluations per transition instead of one, for far
    /// fewer transitions per independent draw on peaked ranges.
    Pairs,
}

/// The share of [`Kernel::Pairs`] transitions that are RingSwap steps.
pub const RING_SWAP_SHARE: f64 = 0.1;

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::RingSwap => "ringswap",
            Kernel::Pairs => "pairs",
        }
    }

    pub fn from_name(name: &str) -> Result<Self, String> {
        match name {
            "ringswap" => Ok(Kernel::RingSwap),
            "pairs" => Ok(Kernel::Pairs),
            _ => Err(format!(
                "kernel must be \"ringswap\" or \"pairs\", got {name:?}"
            )),
        }
    }
}

/// The proposal set of every assignment with one table: its tables, the cumulative probability of
/// drawing each (proportional to its deal count), and `log |Ω|`.
#[derive(Clone, Debug)]
pub struct Neighbourhood {
    pub tables: Vec<SuitLengths>,
    cumulative: Vec<f64>,
    pub log_size: f64,
}

impl Neighbourhood {
    pub fn of(space: &DealSpace, table: SuitLengths) -> Self {
        // Weights relative to the table's own deal count (ratio 1), exact small rationals.
        let mut tables = vec![table];
        let mut cumulative = vec![1.0];
        let mut running = 1.0;
        for_each_ring_swap_neighbour(space, table, |n, ratio| {
            running += ratio;
            tables.push(n);
            cumulative.push(running);
        });
        Neighbourhood {
            tables,
            cumulative,
            log_size: space.log_deal_count(table) + running.ln(),
        }
    }

    /// A table drawn with probability proportional to its deal count.
    #[inline]
    pub fn draw_table(&self, rng: &mut Rng) -> SuitLengths {
        // Scale by the last entry so rounding in the running sum can never leave u uncovered.
        let u = rng.next_f64() * self.cumulative[self.cumulative.len() - 1];
        let i = self.cumulative.partition_point(|&c| c <= u);
        self.tables[i.min(self.tables.len() - 1)]
    }
}

/// `log |Ω|` for every assignment with this table, without building the neighbour list.
pub fn log_neighbourhood_size(space: &DealSpace, table: SuitLengths) -> f64 {
    let mut total = 1.0;
    for_each_ring_swap_neighbour(space, table, |_, ratio| total += ratio);
    space.log_deal_count(table) + total.ln()
}

/// One-step hasher for packed tables: they are already well mixed by `splitmix64`.
#[derive(Default)]
pub struct TableHasher(u64);

impl Hasher for TableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = splitmix64(self.0 ^ u64::from_le_bytes(word));
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = splitmix64(splitmix64(x as u64) ^ (x >> 64) as u64);
    }
}

type TableMap<V> = HashMap<SuitLengths, V, BuildHasherDefault<TableHasher>>;

/// Neighbourhoods and neighbourhood sizes already computed, keyed by table. Small states revisit
/// few tables, so after warm-up a transition costs lookups instead of RingSwap enumerations; large
/// ones (a 52-card deck has millions of tables) would grow without bound, so each map is emptied
/// when it reaches its cap.
#[derive(Default)]
pub struct NeighbourhoodCache {
    lists: TableMap<Rc<Neighbourhood>>,
    sizes: TableMap<f64>,
}

/// Neighbour lists cost about 16 bytes per neighbour (hundreds per table in a 52-card deck).
const MAX_CACHED_LISTS: usize = 4096;
const MAX_CACHED_SIZES: usize = 1 << 18;

impl NeighbourhoodCache {
    /// The proposal set of `table` (shared, so the chain can hold it across cache resets).
    pub fn neighbourhood(&mut self, space: &DealSpace, table: SuitLengths) -> Rc<Neighbourhood> {
        if let Some(n) = self.lists.get(&table) {
            return n.clone();
        }
        if self.lists.len() >= MAX_CACHED_LISTS {
            self.lists.clear();
        }
        let n = Rc::new(Neighbourhood::of(space, table));
        self.sizes.insert(table, n.log_size);
        self.lists.insert(table, n.clone());
        n
    }

    /// `log |Ω|` of `table`.
    pub fn log_size(&mut self, space: &DealSpace, table: SuitLengths) -> f64 {
        if let Some(&s) = self.sizes.get(&table) {
            return s;
        }
        if self.sizes.len() >= MAX_CACHED_SIZES {
            self.sizes.clear();
        }
        let s = log_neighbourhood_size(space, table);
        self.sizes.insert(table, s);
        s
    }
}

/// The Metropolis-Hastings log acceptance ratio with the proposal correction `|Ω_σ| / |Ω_σ'|`.
#[inline]
pub fn log_acceptance(
    log_target_from: f64,
    log_size_from: f64,
    log_target_to: f64,
    log_size_to: f64,
) -> f64 {
    if log_target_to == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    if log_target_from == f64::NEG_INFINITY {
        // Leaving an unreachable start is always welcome.
        return 0.0;
    }
    (log_target_to + log_size_from) - (log_target_from + log_size_to)
}

/// One chain of the sampler, owning its RNG, current assignment and neighbourhood cache.
pub struct GibbsChain<'s, T: LogTarget + ?Sized> {
    space: &'s DealSpace,
    target: &'s T,
    /// Present for [`Kernel::Pairs`].
    blocks: Option<PairBlocks>,
    pair_scratch: PairScratch,
    rng: Rng,
    cache: NeighbourhoodCache,
    assignment: Vec<Owner>,
    log_target: f64,
    neighbourhood: Rc<Neighbourhood>,
    /// A pair-block move changed the table; the neighbourhood is looked up on the next RingSwap
    /// step instead of after every move.
    neighbourhood_stale: bool,
    proposal: Vec<Owner>,
    scratch: Vec<Card>,
    transitions: u64,
    accepted: u64,
}

impl<'s, T: LogTarget + ?Sized> GibbsChain<'s, T> {
    /// A chain of the paper's kernel started at `start`, which must satisfy the constraints.
    pub fn new(
        space: &'s DealSpace,
        target: &'s T,
        start: &[Owner],
        rng: Rng,
    ) -> Result<Self, String> {
        Self::with_kernel(space, target, start, rng, Kernel::RingSwap)
    }

    /// A chain of `kernel` started at `start`, which must satisfy the constraints.
    pub fn with_kernel(
        space: &'s DealSpace,
        target: &'s T,
        start: &[Owner],
        rng: Rng,
        kernel: Kernel,
    ) -> Result<Self, String> {
        let mut chain = GibbsChain {
            space,
            target,
            blocks: (kernel == Kernel::Pairs).then(|| PairBlocks::new(space)),
            pair_scratch: PairScratch::default(),
            rng,
            cache: NeighbourhoodCache::default(),
            assignment: Vec::new(),
            log_target: 0.0,
            neighbourhood: Rc::new(Neighbourhood::of(space, space.table_of(start)?)),
            neighbourhood_stale: false,
            proposal: vec![0; space.num_cards()],
            scratch: Vec::new(),
            transitions: 0,
            accepted: 0,
        };
        chain.reset_to(start)?;
        Ok(chain)
    }

    /// Moves the chain to `state` (validated) without counting a transition.
    pub fn reset_to(&mut self, state: &[Owner]) -> Result<(), String> {
        let table = self.space.table_of(state)?;
        self.assignment = state.to_vec();
        self.log_target = self.target.log_weight(state);
        self.neighbourhood = self.cache.neighbourhood(self.space, table);
        self.neighbourhood_stale = false;
        Ok(())
    }

    pub fn state(&self) -> &[Owner] {
        &self.assignment
    }

    pub fn transitions(&self) -> u64 {
        self.transitions
    }

    /// The log target of the current state (`-inf` while the chain has found no reachable deal).
    pub fn log_target(&self) -> f64 {
        self.log_target
    }

    pub fn accepted(&self) -> u64 {
        self.accepted
    }

    /// One transition of the chain's kernel; returns whether the state changed (for RingSwap,
    /// whether the proposal was accepted).
    pub fn step(&mut self) -> bool {
        self.transitions += 1;
        let moved = match &self.blocks {
            Some(blocks) if self.rng.next_f64() >= RING_SWAP_SHARE => {
                match pair_step(
                    blocks,
                    self.space,
                    self.target,
                    &mut self.assignment,
                    self.log_target,
                    &mut self.rng,
                    &mut self.pair_scratch,
                ) {
                    Some(log_target) => {
                        self.log_target = log_target;
                        self.neighbourhood_stale = true;
                        true
                    }
                    None => false,
                }
            }
            _ => self.ring_swap_step(),
        };
        self.accepted += moved as u64;
        moved
    }

    /// The paper's Metropolis-Hastings transition.
    fn ring_swap_step(&mut self) -> bool {
        if self.neighbourhood_stale {
            let table = self.space.table_of_consistent(&self.assignment);
            self.neighbourhood = self.cache.neighbourhood(self.space, table);
            self.neighbourhood_stale = false;
        }
        let log_size_here = self.neighbourhood.log_size;
        let table = self.neighbourhood.draw_table(&mut self.rng);
        self.space.deal_uniformly_within(
            table,
            &mut self.rng,
            &mut self.scratch,
            &mut self.proposal,
        );
        let log_target_there = self.target.log_weight(&self.proposal);
        if log_target_there == f64::NEG_INFINITY {
            return false;
        }
        let log_size_there = self.cache.log_size(self.space, table);
        let log_alpha = log_acceptance(
            self.log_target,
            log_size_here,
            log_target_there,
            log_size_there,
        );
        let accept = log_alpha >= 0.0 || self.rng.next_f64() < log_alpha.exp();
        if accept {
            std::mem::swap(&mut self.assignment, &mut self.proposal);
            self.log_target = log_target_there;
            self.neighbourhood = self.cache.neighbourhood(self.space, table);
        }
        accept
    }

    /// `n` transitions.
    pub fn advance(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }
}

/// The exact transition probabilities out of `state` under `kernel`: every assignment the chain can
/// move to, with its probability (entries may repeat; their sum is the probability), the stay
/// probability included. Built from the same neighbourhoods, blocks and acceptance rules as
/// [`GibbsChain::step`], for stationarity checks and exact mixing on small states.
pub fn exact_kernel_transitions<T: LogTarget + ?Sized>(
    space: &DealSpace,
    target: &T,
    state: &[Owner],
    cache: &mut NeighbourhoodCache,
    kernel: Kernel,
) -> Result<Vec<(Vec<Owner>, f64)>, String> {
    let ring_swap = exact_transitions(space, target, state, cache)?;
    let blocks = PairBlocks::new(space);
    if kernel == Kernel::RingSwap || blocks.is_empty() {
        return Ok(ring_swap);
    }
    let scale =
        |row: Vec<(Vec<Owner>, f64)>, by: f64| row.into_iter().map(move |(a, p)| (a, p * by));
    Ok(scale(ring_swap, RING_SWAP_SHARE)
        .chain(scale(
            exact_pair_transitions(&blocks, space, target, state),
            1.0 - RING_SWAP_SHARE,
        ))
        .collect())
}

/// The exact transition probabilities of the paper's kernel out of `state`: every assignment the
/// chain can move to, with its probability, the stay probability included.
pub fn exact_transitions<T: LogTarget + ?Sized>(
    space: &DealSpace,
    target: &T,
    state: &[Owner],
    cache: &mut NeighbourhoodCache,
) -> Result<Vec<(Vec<Owner>, f64)>, String> {
    let table = space.table_of(state)?;
    let here = cache.neighbourhood(space, table);
    let log_size_here = here.log_size;
    let log_target_here = target.log_weight(state);
    let mut out = Vec::new();
    let mut leave = 0.0;
    for &t in &here.tables {
        let log_size_there = cache.log_size(space, t);
        for candidate in space.assignments_within(t) {
            if candidate == state {
                continue;
            }
            let log_alpha = log_acceptance(
                log_target_here,
                log_size_here,
                target.log_weight(&candidate),
                log_size_there,
            );
            let p = (-log_size_here).exp() * log_alpha.min(0.0).exp();
            leave += p;
            out.push((candidate, p));
        }
    }
    out.push((state.to_vec(), 1.0 - leave));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::suit_lengths::log_sum_exp;
    use super::super::suit_lengths::tests::{
        figure_3, hand_made, paper_192, three_suits_with_a_void,
    };
    use super::*;

    /// A reproducible rugged log target: every assignment gets `beta * U(0,1)` from a hash.
    fn rugged(beta: f64, salt: u64) -> impl Fn(&[Owner]) -> f64 + Sync {
        move |a: &[Owner]| {
            let mut h = salt;
            for &o in a {
                h = splitmix64(h ^ o as u64);
            }
            beta * (h >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Each assignment's position in `all`.
    fn positions(all: &[Vec<Owner>]) -> HashMap<Vec<Owner>, usize> {
        all.iter().cloned().zip(0..).collect()
    }

    fn stationarity_error(space: &DealSpace, target: &(impl LogTarget + ?Sized)) -> f64 {
        kernel_stationarity_error(space, target, Kernel::RingSwap)
    }

    fn kernel_stationarity_error(
        space: &DealSpace,
        target: &(impl LogTarget + ?Sized),
        kernel: Kernel,
    ) -> f64 {
        let all = space.all_assignments();
        let index = positions(&all);
        let log_w: Vec<f64> = all.iter().map(|a| target.log_weight(a)).collect();
        let log_z = log_sum_exp(log_w.iter().copied());
        let pi: Vec<f64> = log_w.iter().map(|w| (w - log_z).exp()).collect();
        let mut moved = vec![0.0; all.len()];
        let mut cache = NeighbourhoodCache::default();
        for (i, a) in all.iter().enumerate() {
            let row = exact_kernel_transitions(space, target, a, &mut cache, kernel).unwrap();
            let total: f64 = row.iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12);
            for (b, p) in row {
                assert!(p >= -1e-15);
                moved[index[&b]] += pi[i] * p;
            }
        }
        pi.iter()
            .zip(&moved)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn transition_matrix_leaves_the_joint_range_invariant_on_the_192_history_state() {
        let space = DealSpace::new(&paper_192()).unwrap();
        for beta in [0.0, 2.0, 5.0, 10.0] {
            let err = stationarity_error(&space, &rugged(beta, 11));
            assert!(err < 1e-9, "beta {beta}: {err}");
        }
    }

    #[test]
    fn transition_matrix_is_invariant_with_voids_and_three_suits() {
        let c = three_suits_with_a_void();
        let space = DealSpace::new(&c).unwrap();
        assert!(space.all_assignments().len() > 500);
        let err = stationarity_error(&space, &rugged(5.0, 3));
        assert!(err < 1e-9, "{err}");
    }

    #[test]
    fn dropping_the_proposal_correction_breaks_invariance() {
        // The same matrix with acceptance min{1, P̄(σ')/P̄(σ)} must NOT be stationary here, or the
        // test above could not tell a correct sampler from the naive one.
        let c = three_suits_with_a_void();
        let space = DealSpace::new(&c).unwrap();
        let target = rugged(0.0, 0);
        let all = space.all_assignments();
        let index = positions(&all);
        let pi = 1.0 / all.len() as f64;
        let mut moved = vec![0.0; all.len()];
        let mut cache = NeighbourhoodCache::default();
        for a in &all {
            let here = cache.neighbourhood(&space, space.table_of(a).unwrap());
            let log_size = here.log_size;
            let mut leave = 0.0;
            for &t in &here.tables {
                for b in space.assignments_within(t) {
                    if &b != a {
                        let p =
                            (-log_size).exp() * target(&b).min(target(a)).exp() / target(a).exp();
                        leave += p;
                        moved[index[&b]] += pi * p;
                    }
                }
            }
            moved[index[a]] += pi * (1.0 - leave);
        }
        let err = moved.iter().map(|m| (m - pi).abs()).fold(0.0, f64::max);
        assert!(
            err > 1e-4,
            "naive acceptance unexpectedly stationary: {err}"
        );
    }

    /// Runs 200,000 one-transition chains of `kernel` from `start` and checks that where they
    /// land follows the exact row; returns the row's number of distinct next states.
    fn assert_one_step_follows_the_exact_row(
        space: &DealSpace,
        target: &(impl LogTarget + ?Sized),
        start: &[Owner],
        kernel: Kernel,
    ) -> usize {
        let mut cache = NeighbourhoodCache::default();
        let mut row: HashMap<Vec<Owner>, f64> = HashMap::new();
        for (b, p) in exact_kernel_transitions(space, target, start, &mut cache, kernel).unwrap() {
            *row.entry(b).or_default() += p;
        }
        let mut chain = GibbsChain::with_kernel(space, target, start, Rng::new(9), kernel).unwrap();
        let n = 200_000;
        let mut counts: HashMap<Vec<Owner>, usize> = HashMap::new();
        for _ in 0..n {
            chain.reset_to(start).unwrap();
            chain.step();
            *counts.entry(chain.state().to_vec()).or_default() += 1;
        }
        assert!(counts.keys().all(|k| row.contains_key(k)));
        for (b, p) in &row {
            let observed = *counts.get(b).unwrap_or(&0) as f64 / n as f64;
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (observed - p).abs() < 5.0 * sd + 1e-4,
                "{b:?}: {observed} vs {p}"
            );
        }
        row.len()
    }

    #[test]
    fn one_step_frequencies_match_the_exact_transition_row() {
        let space = DealSpace::new(&paper_192()).unwrap();
        let start = space.all_assignments()[5].clone();
        assert_one_step_follows_the_exact_row(&space, &rugged(5.0, 7), &start, Kernel::RingSwap);
    }

    /// Nine hidden cards in three suits, hands of 4, 3, 1 and 1 (blocks then take 3 of 4 cards),
    /// player 2 void in suit 0: 2,520 assignments minus the void's.
    fn big_hands_with_a_void() -> DealSpace {
        DealSpace::new(&hand_made(3, 3, &[], &[4, 3, 1, 1], &[(2, 0)])).unwrap()
    }

    #[test]
    fn the_pairs_kernel_leaves_the_target_invariant() {
        let voids = three_suits_with_a_void();
        for space in [
            DealSpace::new(&paper_192()).unwrap(),
            DealSpace::new(&voids).unwrap(),
            big_hands_with_a_void(),
        ] {
            for beta in [0.0, 5.0, 10.0] {
                let err = kernel_stationarity_error(&space, &rugged(beta, 13), Kernel::Pairs);
                assert!(err < 1e-9, "beta {beta}: {err}");
            }
        }
    }

    #[test]
    fn pairs_one_step_frequencies_match_the_exact_transition_row() {
        let space = big_hands_with_a_void();
        let start = space.all_assignments()[100].clone();
        let reached =
            assert_one_step_follows_the_exact_row(&space, &rugged(5.0, 7), &start, Kernel::Pairs);
        assert!(reached > 20, "a block of 3 + 3 cards reaches many deals");
    }

    #[test]
    fn a_pairs_chain_keeps_every_constraint_and_tracks_its_log_target() {
        let space = big_hands_with_a_void();
        let target = rugged(10.0, 3);
        let start = space.all_assignments()[0].clone();
        let mut chain =
            GibbsChain::with_kernel(&space, &target, &start, Rng::new(4), Kernel::Pairs).unwrap();
        for _ in 0..20_000 {
            chain.step();
            let state = chain.state().to_vec();
            assert!(space.table_of(&state).is_ok(), "{state:?}");
            assert_eq!(chain.log_target, target(&state));
        }
        assert!(chain.accepted() > 1000);
    }

    #[test]
    fn kernels_are_named() {
        for k in [Kernel::RingSwap, Kernel::Pairs] {
            assert_eq!(Kernel::from_name(k.name()), Ok(k));
        }
        assert!(Kernel::from_name("gibbs").unwrap_err().contains("ringswap"));
    }

    #[test]
    fn a_single_table_state_still_mixes_within_it() {
        // Figure 3's state has one table: RingSwap alone would never move.
        let space = DealSpace::new(&figure_3()).unwrap();
        let all = space.all_assignments();
        assert_eq!(all.len(), 3);
        let target = |_: &[Owner]| 0.0;
        let mut chain = GibbsChain::new(&space, &target, &all[0], Rng::new(1)).unwrap();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            chain.step();
            seen.insert(chain.state().to_vec());
        }
        assert_eq!(seen.len(), 3);
    }
}
