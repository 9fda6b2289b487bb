//! Exact enumeration of every deal consistent with an observation, with its reach probability:
//! the ground truth the samplers are checked against, for small states.

use std::collections::HashMap;

use rayon::prelude::*;

use super::constraints::{Card, DealConstraints, Owner};
use super::error::TtcgError;
use super::flow::validate_constraints;
use super::history::log_reach;
use super::observation::HistoryTemplate;
use super::ohhell::Action;
use super::policy::Policy;

/// Every assignment consistent with `constraints`, in lexicographic order of owners by card id;
/// [`TtcgError::Unsupported`] when there are more than `limit`.
pub fn enumerate_assignments(
    constraints: &DealConstraints,
    limit: usize,
) -> Result<Vec<Vec<Owner>>, TtcgError> {
    validate_constraints(constraints)?;
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
    };
    search.assign(0, &mut assignment, &mut remaining);
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
}

impl Search<'_> {
    fn assign(&mut self, i: usize, assignment: &mut [Owner], remaining: &mut [usize]) {
        if self.over_limit {
            return;
        }
        if i == self.hidden.len() {
            if self.out.len() == self.limit {
                self.over_limit = true;
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
        let max = self
            .log_reach
            .iter()
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = self.log_reach.iter().map(|&l| (l - max).exp()).collect();
        let z: f64 = w.iter().sum();
        w.into_iter().map(|x| x / z).collect()
    }
}

pub fn enumerate_weighted(
    constraints: &DealConstraints,
    template: &HistoryTemplate,
    policy: &dyn Policy,
    limit: usize,
) -> Result<WeightedDeals, TtcgError> {
    let all = enumerate_assignments(constraints, limit)?;
    let reach: Vec<f64> = all
        .par_iter()
        .map(|a| log_reach(template, a, policy))
        .collect();
    let mut out = WeightedDeals::default();
    for (a, r) in all.into_iter().zip(reach) {
        if r > f64::NEG_INFINITY {
            out.assignments.push(a);
            out.log_reach.push(r);
        }
    }
    Ok(out)
}

/// Deal orders per assignment: each player's hand may be dealt in any of `num_tricks!` orders
/// (round-robin dealing fixes which slots are whose), and no order changes an information state.
pub fn deal_orders_per_assignment(template: &HistoryTemplate) -> u128 {
    let f: u128 = (1..=template.num_tricks as u128).product();
    f.pow(template.params.players as u32)
}

/// Calls `visit` with the full OpenSpiel action list of every history (every deal order of every
/// assignment). Returns the number of histories visited.
pub fn for_each_history(
    template: &HistoryTemplate,
    assignments: &[Vec<Owner>],
    mut visit: impl FnMut(&[Action]),
) -> usize {
    let players = template.params.players;
    let tricks = template.num_tricks;
    let deal_start = 2;
    let mut count = 0;
    for assignment in assignments {
        let mut actions = template.openspiel_actions(assignment);
        let mut hands: Vec<Vec<Card>> = (0..players)
            .map(|p| {
                (0..assignment.len())
                    .filter(|&c| assignment[c] as usize == p)
                    .map(|c| c as Card)
                    .collect()
            })
            .collect();
        loop {
            for (p, hand) in hands.iter().enumerate() {
                for (i, &c) in hand.iter().enumerate() {
                    actions[deal_start + i * players + p] = c as Action;
                }
            }
            visit(&actions);
            count += 1;
            // Odometer over the players' hand permutations.
            let mut p = 0;
            while p < players && !next_permutation(&mut hands[p]) {
                p += 1;
            }
            if p == players {
                break;
            }
        }
        debug_assert!(hands.iter().all(|h| h.len() == tricks));
    }
    count
}

/// Rearranges into the next lexicographic permutation; false (and sorted) after the last.
fn next_permutation(v: &mut [Card]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        v.reverse();
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}
