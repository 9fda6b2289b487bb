//! Exact enumeration of every deal consistent with an observation, with its reach probability:
//! the ground truth the samplers are checked against, for small states.

use std::collections::HashMap;

use rayon::prelude::*;

use super::baselines::UniformDeals;
use super::constraints::{Card, DealConstraints, Owner};
use super::error::{zero_reach, TtcgError};
use super::flow::validate_constraints;
use super::history::log_reach;
use super::limits::check_output;
use super::observation::HistoryTemplate;
use super::policy::Policy;
use super::suit_lengths::DealSpace;
use crate::stop::Stop;

/// How many deals the enumeration lists, or weighs, between looks at the stop flag: one atomic
/// load per 256 deals costs nothing, and a slow (Python) policy still stops within a second.
const POLL_EVERY: usize = 256;

/// Every assignment consistent with `constraints`, in lexicographic order of owners by card id;
/// [`TtcgError::Unsupported`] when there are more than `limit`, [`TtcgError::TooLarge`] when
/// `limit` deals would not fit in memory, [`TtcgError::Interrupted`] when `stop` is raised.
pub fn enumerate_assignments(
    constraints: &DealConstraints,
    limit: usize,
    stop: &Stop,
) -> Result<Vec<Vec<Owner>>, TtcgError> {
    validate_constraints(constraints)?;
    // A listed deal costs its cards, a vector header and its log reach.
    check_output(
        &format!("limit = {limit} deals"),
        limit as u128,
        constraints.num_cards() as u128 + 32,
    )?;
    // Counting is cheap (suit by suit): a range above the limit is refused before listing it.
    if let Ok(space) = DealSpace::new(constraints) {
        if let Ok(uniform) = UniformDeals::new(&space) {
            if uniform.log_count > (limit as f64 + 0.5).ln() {
                return Err(TtcgError::Unsupported(format!(
                    "about {:.3e} deals are consistent with the observation; exact enumeration is \
                     limited to {limit}",
                    uniform.log_count.exp()
                )));
            }
        }
    }
    let hidden = constraints.hidden_cards();
    let mut assignment: Vec<Owner> = constraints
        .known_owner
        .iter()
        .map(|o| o.unwrap_or(Owner::MAX))
        .collect();
    let mut remaining = constraints.hidden_counts.clone();
    let mut out = Vec::new();
    let mut search = Search {
        constraints,
        hidden: &hidden,
        limit,
        out: &mut out,
        over_limit: false,
        stop,
        stopped: false,
    };
    search.assign(0, &mut assignment, &mut remaining);
    if search.stopped {
        return Err(TtcgError::Interrupted);
    }
    if search.over_limit {
        return Err(TtcgError::Unsupported(format!(
            "more than {limit} deals are consistent with the observation; exact enumeration is limited to {limit}"
        )));
    }
    Ok(out)
}

struct Search<'a> {
    constraints: &'a DealConstraints,
    hidden: &'a [Card],
    limit: usize,
    out: &'a mut Vec<Vec<Owner>>,
    over_limit: bool,
    stop: &'a Stop,
    stopped: bool,
}

impl Search<'_> {
    fn assign(&mut self, i: usize, assignment: &mut [Owner], remaining: &mut [usize]) {
        if self.over_limit || self.stopped {
            return;
        }
        if i == self.hidden.len() {
            if self.out.len() == self.limit {
                self.over_limit = true;
                return;
            }
            if self.out.len().is_multiple_of(POLL_EVERY) && self.stop.requested() {
                self.stopped = true;
                return;
            }
            self.out.push(assignment.to_vec());
            return;
        }
        let card = self.hidden[i];
        let suit = self.constraints.suit_of(card);
        for owner in 0..remaining.len() {
            let void = owner < self.constraints.num_players && self.constraints.voids[owner][suit];
            if remaining[owner] == 0 || void {
                continue;
            }
            remaining[owner] -= 1;
            assignment[card as usize] = owner as Owner;
            self.assign(i + 1, assignment, remaining);
            remaining[owner] += 1;
        }
    }
}

/// Consistent assignments with their log reach probabilities under `policy`. Deals that cannot
/// produce the history (reach 0) are dropped.
#[derive(Clone, Debug, Default)]
pub struct WeightedDeals {
    pub assignments: Vec<Vec<Owner>>,
    pub log_reach: Vec<f64>,
}

impl WeightedDeals {
    /// The position of each assignment in [`Self::assignments`].
    pub fn index(&self) -> HashMap<&[Owner], usize> {
        self.assignments
            .iter()
            .enumerate()
            .map(|(i, a)| (a.as_slice(), i))
            .collect()
    }

    /// Normalised probabilities of the assignments (the exact joint range over deals).
    pub fn probabilities(&self) -> Vec<f64> {
        normalised_exp(&self.log_reach)
    }
}

/// `exp(logs)` scaled to sum to 1 (computed from the largest, so that no term overflows).
pub(crate) fn normalised_exp(logs: &[f64]) -> Vec<f64> {
    let max = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = logs.iter().map(|&l| (l - max).exp()).collect();
    let z: f64 = w.iter().sum();
    w.into_iter().map(|x| x / z).collect()
}

/// Every consistent deal of positive reach with its log reach, in parallel on the current rayon
/// pool; [`TtcgError::ZeroReach`] when every consistent deal has reach 0.
pub fn enumerate_weighted(
    constraints: &DealConstraints,
    template: &HistoryTemplate,
    policy: &dyn Policy,
    limit: usize,
    stop: &Stop,
) -> Result<WeightedDeals, TtcgError> {
    let all = enumerate_assignments(constraints, limit, stop)?;
    let reach: Vec<Vec<f64>> = all
        .par_chunks(POLL_EVERY)
        .map(|chunk| {
            if stop.requested() {
                return None;
            }
            Some(
                chunk
                    .iter()
                    .map(|a| log_reach(template, a, policy))
                    .collect(),
            )
        })
        .collect::<Option<_>>()
        .ok_or(TtcgError::Interrupted)?;
    let total = all.len();
    if total == 0 {
        return Err(TtcgError::Infeasible(
            "no deal is consistent with the observation".into(),
        ));
    }
    let mut out = WeightedDeals::default();
    for (a, r) in all.into_iter().zip(reach.into_iter().flatten()) {
        if r > f64::NEG_INFINITY {
            out.assignments.push(a);
            out.log_reach.push(r);
        }
    }
    if out.assignments.is_empty() {
        return Err(zero_reach(format!(
            "every one of the {total} consistent deals"
        )));
    }
    Ok(out)
}
