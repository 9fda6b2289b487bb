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
use super::suit_lengths::{log_sum_exp, DealSpace, DealSpaceError, SuitLengths};
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
fn draw_index(cumulative: &[f64], rng: &mut Rng) -> usize {
    let u = rng.next_f64() * cumulative[cumulative.len() - 1];
    cumulative
        .partition_point(|&c| c <= u)
        .min(cumulative.len() - 1)
}

/// Exact uniform sampler over the assignments consistent with a deal space.
pub struct UniformDeals<'s> {
    space: &'s DealSpace,
    tables: Vec<SuitLengths>,
    cumulative: Vec<f64>,
    /// Log of the number of consistent assignments.
    pub log_count: f64,
}

impl<'s> UniformDeals<'s> {
    pub fn new(space: &'s DealSpace) -> Result<Self, DealSpaceError> {
        let tables = space.tables();
        if tables.is_empty() {
            return Err(DealSpaceError::NoConsistentDeal(
                "no suit-length table fits the hidden-card counts and voids".into(),
            ));
        }
        let log_counts: Vec<f64> = tables.iter().map(|&t| space.log_deal_count(t)).collect();
        let cumulative = cumulative_from_log_weights(&log_counts).expect("tables have deals");
        Ok(UniformDeals {
            space,
            tables,
            cumulative,
            log_count: log_sum_exp(log_counts),
        })
    }

    pub fn num_tables(&self) -> usize {
        self.tables.len()
    }

    pub fn draw(&self, rng: &mut Rng, scratch: &mut Vec<Card>, out: &mut [Owner]) {
        let table = self.tables[draw_index(&self.cumulative, rng)];
        self.space.deal_uniformly_within(table, rng, scratch, out);
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
    use super::super::suit_lengths::tests::hand_made;
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn uniform_deals_are_uniform_over_every_consistent_assignment() {
        // Voids make the tables' deal counts very unequal: weighting tables uniformly would fail.
        let c = hand_made(
            3,
            4,
            &[(0, 0), (1, 1), (2, 2), (4, 4)],
            &[3, 2, 2, 1],
            &[(0, 1), (1, 2)],
        );
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
