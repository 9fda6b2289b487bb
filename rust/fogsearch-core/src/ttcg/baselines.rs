//! Baselines for the Gibbs sampler: an exact uniform sampler over consistent deals, importance
//! sampling with that uniform proposal, and iid draws from an exactly enumerated distribution.
//!
//! The uniform sampler enumerates the suit-length tables, draws one with probability proportional
//! to its multinomial deal count, then a uniform assignment within it. Weighting tables uniformly
//! instead (as ScrofaZero's sampler does) over-samples the rare tables; the deal counts are what
//! make it exact.

use super::constraints::{Card, Owner};
use super::error::{zero_reach, TtcgError};
use super::limits::{check_output, try_vec};
use std::collections::HashMap;

use super::suit_lengths::{log_sum_exp, DealSpace, DealSpaceError, SuitLengths, MAX_OWNERS};
use super::target::LogTarget;
use crate::rng::Rng;
use crate::stop::Stop;

/// Draws between looks at the stop flag.
const POLL_EVERY: usize = 4096;

/// Cumulative probabilities from log weights, normalised in log space.
fn cumulative_from_log_weights(log_weights: &[f64]) -> Option<Vec<f64>> {
    let log_total = log_sum_exp(log_weights.iter().copied());
    if !log_total.is_finite() {
        return None;
    }
    let mut running = 0.0;
    Some(
        log_weights
            .iter()
            .map(|w| {
                running += (w - log_total).exp();
                running
            })
            .collect(),
    )
}

#[inline]
pub(crate) fn draw_index(cumulative: &[f64], rng: &mut Rng) -> usize {
    let u = rng.next_f64() * cumulative[cumulative.len() - 1];
    cumulative
        .partition_point(|&c| c <= u)
        .min(cumulative.len() - 1)
}

/// Exact uniform sampler over the assignments consistent with a deal space.
///
/// The number of deals is counted suit by suit: `f_s(r)`, the number of ways to deal suits
/// `s..` when the owners still need `r` hidden cards, is the sum over the ways `k` to split suit
/// `s` among the owners (voids closed, no owner over its need) of `multinomial(k) f_{s+1}(r - k)`.
/// A draw walks the suits choosing each split in proportion to its term, then deals the suit's
/// cards uniformly by it. Memoised over the owners' remaining counts, this costs thousands of
/// states where listing every suit-length table costs tens of thousands of tables (a 39-card
/// Gongzhu hand) — and the same split weights are what the tables' deal counts would give.
pub struct UniformDeals<'s> {
    space: &'s DealSpace,
    /// `f_s` for each suit, by packed remaining counts (log space).
    memo: Vec<HashMap<u64, f64>>,
    start: u64,
    /// Log of the number of consistent assignments.
    pub log_count: f64,
}

/// Six bits per owner (the undealt pile of a 52-card oh_hell deck holds up to 48 cards), eight
/// owners. Packed counts subtract as vectors when no count goes below zero.
fn pack(counts: &[usize]) -> u64 {
    counts
        .iter()
        .enumerate()
        .fold(0u64, |key, (o, &c)| key | (c as u64) << (6 * o))
}

fn count_of(key: u64, owner: usize) -> usize {
    (key >> (6 * owner) & 0x3F) as usize
}

impl<'s> UniformDeals<'s> {
    pub fn new(space: &'s DealSpace) -> Result<Self, DealSpaceError> {
        let start = pack(&space.owner_totals);
        let mut deals = UniformDeals {
            space,
            memo: vec![HashMap::new(); space.num_suits + 1],
            start,
            log_count: f64::NEG_INFINITY,
        };
        deals.log_count = deals.log_ways(0, start);
        if deals.log_count == f64::NEG_INFINITY {
            return Err(DealSpaceError::NoConsistentDeal(
                "no suit-length table fits the hidden-card counts and voids".into(),
            ));
        }
        Ok(deals)
    }

    /// `log f_suit(remaining)`.
    fn log_ways(&mut self, suit: usize, remaining: u64) -> f64 {
        if suit == self.space.num_suits {
            return if remaining == 0 {
                0.0
            } else {
                f64::NEG_INFINITY
            };
        }
        if let Some(&v) = self.memo[suit].get(&remaining) {
            return v;
        }
        let mut terms = Vec::new();
        self.each_split(suit, remaining, &mut |k| terms.push(*k));
        let mut logs = Vec::with_capacity(terms.len());
        for k in terms {
            let rest = self.log_ways(suit + 1, remaining - pack(&k[..self.space.num_owners]));
            logs.push(self.log_multinomial(suit, &k) + rest);
        }
        let v = log_sum_exp(logs.iter().copied());
        self.memo[suit].insert(remaining, v);
        v
    }

    fn log_multinomial(&self, suit: usize, split: &[usize; MAX_OWNERS]) -> f64 {
        let lf = self.space.log_factorials();
        lf[self.space.suit_totals[suit]]
            - split[..self.space.num_owners]
                .iter()
                .map(|&k| lf[k])
                .sum::<f64>()
    }

    /// Every split of suit `suit`'s cards among the owners that fits `remaining` (see
    /// [`Self::for_each_split`]).
    fn each_split(
        &self,
        suit: usize,
        remaining: u64,
        visit: &mut impl FnMut(&[usize; MAX_OWNERS]),
    ) {
        let mut split = [0usize; MAX_OWNERS];
        let total = self.space.suit_totals[suit];
        self.for_each_split(suit, remaining, &mut split, 0, total, visit);
    }

    /// Calls `visit` with every split of suit `suit`'s `left` cards among owners `owner..`.
    fn for_each_split(
        &self,
        suit: usize,
        remaining: u64,
        split: &mut [usize; MAX_OWNERS],
        owner: usize,
        left: usize,
        visit: &mut impl FnMut(&[usize; MAX_OWNERS]),
    ) {
        if owner == self.space.num_owners {
            if left == 0 {
                visit(split);
            }
            return;
        }
        let most = if self.space.is_open(owner, suit) {
            left.min(count_of(remaining, owner))
        } else {
            0
        };
        for take in 0..=most {
            split[owner] = take;
            self.for_each_split(suit, remaining, split, owner + 1, left - take, visit);
        }
        split[owner] = 0;
    }

    /// One uniform assignment into `out`.
    pub fn draw(&self, rng: &mut Rng, scratch: &mut Vec<Card>, out: &mut [Owner]) {
        let mut table = SuitLengths::default();
        let mut remaining = self.start;
        for suit in 0..self.space.num_suits {
            let total = self.memo_value(suit, remaining);
            let mut u = rng.next_f64();
            let mut chosen = None;
            let mut last = None;
            self.each_split(suit, remaining, &mut |k| {
                if chosen.is_some() {
                    return;
                }
                let rest = self.memo_value(suit + 1, remaining - pack(&k[..self.space.num_owners]));
                let p = (self.log_multinomial(suit, k) + rest - total).exp();
                if p > 0.0 {
                    last = Some(*k);
                }
                if u < p {
                    chosen = Some(*k);
                } else {
                    u -= p;
                }
            });
            // Rounding can leave u a hair above the last split's share: that split it is.
            let k = chosen.or(last).expect("a consistent split exists");
            for (o, &take) in k[..self.space.num_owners].iter().enumerate() {
                for _ in 0..take {
                    table = table.incremented(o, suit);
                }
            }
            remaining -= pack(&k[..self.space.num_owners]);
        }
        self.space.deal_uniformly_within(table, rng, scratch, out);
    }

    fn memo_value(&self, suit: usize, remaining: u64) -> f64 {
        if suit == self.space.num_suits {
            return if remaining == 0 {
                0.0
            } else {
                f64::NEG_INFINITY
            };
        }
        self.memo[suit]
            .get(&remaining)
            .copied()
            .unwrap_or(f64::NEG_INFINITY)
    }

    /// `n` uniform assignments, flattened row-major (`n x deck`).
    pub fn sample(&self, n: usize, seed: u64, stop: &Stop) -> Result<Vec<Owner>, TtcgError> {
        let deck = self.space.num_cards();
        check_output(&format!("n = {n} deals"), n as u128, deck as u128)?;
        let mut out = try_vec(&format!("n = {n} deals"), n * deck, 0)?;
        let mut rng = Rng::new(seed);
        let mut scratch = Vec::new();
        for (i, row) in out.chunks_mut(deck.max(1)).enumerate() {
            if i % POLL_EVERY == 0 && stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            self.draw(&mut rng, &mut scratch, row);
        }
        Ok(out)
    }

    /// Importance sampling with this uniform proposal: `n` assignments and their log importance
    /// weights, which are the target's log weights (the proposal density is a constant).
    /// [`TtcgError::ZeroReach`] when every draw has weight 0.
    pub fn importance_sample<T: LogTarget + ?Sized>(
        &self,
        target: &T,
        n: usize,
        seed: u64,
        stop: &Stop,
    ) -> Result<(Vec<Owner>, Vec<f64>), TtcgError> {
        let deck = self.space.num_cards();
        check_output(&format!("n = {n} deals"), n as u128, deck as u128 + 8)?;
        let samples = self.sample(n, seed, stop)?;
        let mut log_weights = Vec::with_capacity(n);
        for (i, a) in samples.chunks(deck.max(1)).take(n).enumerate() {
            if i % POLL_EVERY == 0 && stop.requested() {
                return Err(TtcgError::Interrupted);
            }
            log_weights.push(target.log_weight(a));
        }
        if n > 0 && log_weights.iter().all(|&w| w == f64::NEG_INFINITY) {
            return Err(zero_reach(format!("every one of the {n} uniform draws")));
        }
        Ok((samples, log_weights))
    }
}

/// `n` iid indices drawn with probabilities proportional to `exp(log_weights)`: "true" samples
/// from an exactly enumerated joint range. `None` when no weight is positive.
pub fn sample_categorical(log_weights: &[f64], n: usize, seed: u64) -> Option<Vec<usize>> {
    if log_weights.is_empty() || log_weights.iter().any(|w| w.is_nan()) {
        return None;
    }
    let cumulative = cumulative_from_log_weights(log_weights)?;
    let mut rng = Rng::new(seed);
    Some((0..n).map(|_| draw_index(&cumulative, &mut rng)).collect())
}

#[cfg(test)]
mod tests {
    use super::super::suit_lengths::tests::{hand_made, three_by_four};
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn uniform_deals_are_uniform_over_every_consistent_assignment() {
        // Voids make the tables' deal counts very unequal: weighting tables uniformly would fail.
        let c = three_by_four(&[3, 2, 2, 1], &[(0, 1), (1, 2)]);
        let space = DealSpace::new(&c).unwrap();
        let all = space.all_assignments();
        let sampler = UniformDeals::new(&space).unwrap();
        assert!((sampler.log_count.exp() - all.len() as f64).abs() < 1e-6);
        let n = 400 * all.len();
        let draws = sampler.sample(n, 3, &crate::stop::NEVER).unwrap();
        let mut counts: HashMap<&[Owner], usize> = HashMap::new();
        for a in draws.chunks(space.num_cards()) {
            assert!(space.table_of(a).is_ok());
            *counts.entry(a).or_default() += 1;
        }
        assert_eq!(counts.len(), all.len());
        let chi2: f64 = counts
            .values()
            .map(|&c| (c as f64 - 400.0).powi(2) / 400.0)
            .sum();
        let dof = all.len() as f64 - 1.0;
        assert!(
            chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
            "chi2 {chi2} dof {dof}"
        );
    }

    #[test]
    fn infeasible_voids_are_reported() {
        // Player 0 needs 3 cards but is void in every suit.
        let c = hand_made(2, 4, &[(0, 1), (1, 2)], &[3, 2, 1, 0], &[(0, 0), (0, 1)]);
        let space = DealSpace::new(&c).unwrap();
        let err = UniformDeals::new(&space).err().unwrap();
        assert!(
            err.to_string().starts_with("no deal is consistent"),
            "{err}"
        );
    }

    #[test]
    fn categorical_follows_its_weights() {
        let log_w = [0.0, 2f64.ln(), f64::NEG_INFINITY, 3f64.ln()];
        let draws = sample_categorical(&log_w, 60_000, 1).unwrap();
        let mut counts = [0usize; 4];
        for d in draws {
            counts[d] += 1;
        }
        assert_eq!(counts[2], 0);
        for (i, expect) in [(0, 10_000.0), (1, 20_000.0), (3, 30_000.0)] {
            assert!((counts[i] as f64 - expect).abs() < 600.0, "{counts:?}");
        }
        assert!(sample_categorical(&[f64::NEG_INFINITY], 1, 0).is_none());
    }
}
