//! Policies over a game tree's information sets, and what they are worth: total reach
//! `pi(h)` (chance included, as the paper defines it) and values `v(h)`.

use crate::rng::Rng;

use super::error::JpsError;
use super::tree::GameTree;

/// Action probabilities for every decision information set, flat: information set `I`'s
/// probabilities are `probs[I.offset .. I.offset + |A(I)|]`.
#[derive(Clone, Debug, PartialEq)]
pub struct JointPolicy {
    probs: Vec<f64>,
}

/// How far a policy's probabilities at one information set may sum away from 1.
const SUM_TOLERANCE: f64 = 1e-9;

impl JointPolicy {
    /// Every action of every information set equally likely.
    pub fn uniform(tree: &GameTree) -> JointPolicy {
        let mut probs = vec![0.0; tree.num_slots()];
        for info in tree.infosets() {
            let n = info.num_actions as usize;
            let o = info.offset as usize;
            probs[o..o + n].fill(1.0 / n as f64);
        }
        JointPolicy { probs }
    }

    /// At each information set, independent U(0, 1) weights, normalised: the random starting
    /// policy of the paper's code (and its "uniform random" initialisation).
    pub fn random(tree: &GameTree, rng: &mut Rng) -> JointPolicy {
        let mut probs = vec![0.0; tree.num_slots()];
        for info in tree.infosets() {
            let o = info.offset as usize;
            let slice = &mut probs[o..o + info.num_actions as usize];
            for p in slice.iter_mut() {
                *p = rng.next_f64();
            }
            normalise(slice);
        }
        JointPolicy { probs }
    }

    /// A policy from flat probabilities; each information set's must be finite, non-negative
    /// and sum to 1.
    pub fn from_probs(tree: &GameTree, probs: Vec<f64>) -> Result<JointPolicy, JpsError> {
        if probs.len() != tree.num_slots() {
            return Err(JpsError::PolicyMismatch(format!(
                "{} needs {} action probabilities, got {}",
                tree.name(),
                tree.num_slots(),
                probs.len()
            )));
        }
        for (i, info) in tree.infosets().iter().enumerate() {
            let o = info.offset as usize;
            let slice = &probs[o..o + info.num_actions as usize];
            let sum: f64 = slice.iter().sum();
            if slice.iter().any(|p| !p.is_finite() || *p < 0.0) || (sum - 1.0).abs() > SUM_TOLERANCE
            {
                return Err(JpsError::PolicyMismatch(format!(
                    "the probabilities of information set {:?} must be non-negative and sum to 1, got {slice:?}",
                    tree.infoset_label(i as u32)
                )));
            }
        }
        Ok(JointPolicy { probs })
    }

    pub fn probs(&self) -> &[f64] {
        &self.probs
    }

    pub fn into_probs(self) -> Vec<f64> {
        self.probs
    }

    /// The probabilities of information set `i`.
    pub fn at(&self, tree: &GameTree, i: u32) -> &[f64] {
        let info = tree.infoset(i);
        &self.probs[info.offset as usize..info.offset as usize + info.num_actions as usize]
    }

    /// Plays action `a` with certainty at information set `i` (the paper's one-hot change).
    pub fn set_pure(&mut self, tree: &GameTree, i: u32, a: u16) {
        let info = tree.infoset(i);
        let o = info.offset as usize;
        let slice = &mut self.probs[o..o + info.num_actions as usize];
        slice.fill(0.0);
        slice[a as usize] = 1.0;
    }

    /// The pure policy playing each information set's most likely action (the lowest action
    /// on ties): the "purified" CFR policy the paper reports.
    pub fn purified(&self, tree: &GameTree) -> JointPolicy {
        let mut out = self.clone();
        for i in 0..tree.num_infosets() as u32 {
            let best = argmax(self.at(tree, i));
            out.set_pure(tree, i, best as u16);
        }
        out
    }

    pub(crate) fn check(&self, tree: &GameTree) -> Result<(), JpsError> {
        if self.probs.len() != tree.num_slots() {
            return Err(JpsError::PolicyMismatch(format!(
                "the policy has {} action probabilities but {} needs {}",
                self.probs.len(),
                tree.name(),
                tree.num_slots()
            )));
        }
        Ok(())
    }

    pub(crate) fn probs_mut(&mut self) -> &mut [f64] {
        &mut self.probs
    }
}

/// Index of the largest value, the first one on ties.
pub(crate) fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = k;
        }
    }
    best
}

/// Scales to sum 1; all-zero (or non-positive) weights become uniform.
pub(crate) fn normalise(weights: &mut [f64]) {
    let sum: f64 = weights.iter().sum();
    if sum > 0.0 {
        weights.iter_mut().for_each(|w| *w /= sum);
    } else {
        let u = 1.0 / weights.len() as f64;
        weights.fill(u);
    }
}

/// `sum_k a[k] b[k]`, in four independent lanes so that wide states (a guess among 128
/// numbers) do not wait on one chain of additions.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut lanes = [0.0f64; 4];
    let mut ca = a.chunks_exact(4);
    let mut cb = b.chunks_exact(4);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for k in 0..4 {
            lanes[k] += x[k] * y[k];
        }
    }
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + tail
}

/// Total reach `pi(h)` of every state with children and value `v(h)` of every state under one
/// policy; allocated once per tree and reused across evaluations.
#[derive(Clone, Debug)]
pub struct Sweep {
    reach: Vec<f64>,
    value: Vec<f64>,
}

impl Sweep {
    pub fn new(tree: &GameTree) -> Sweep {
        Sweep {
            reach: vec![0.0; tree.num_states()],
            // Terminal values are their payoffs and never change; evaluations overwrite the rest.
            value: tree.utilities().to_vec(),
        }
    }

    /// Forward sweep for reach, backward sweep for values. `policy` must belong to `tree`.
    pub fn evaluate(&mut self, tree: &GameTree, policy: &[f64]) {
        let internal = tree.internal();
        self.reach[0] = 1.0;
        for &i in &internal[1..] {
            let p = tree.raw_parent(i);
            let a = (i - tree.first_child(p)) as usize;
            self.reach[i as usize] = self.reach[p as usize] * tree.edge_probs(p, policy)[a];
        }
        for &i in internal.iter().rev() {
            let probs = tree.edge_probs(i, policy);
            let first = tree.first_child(i) as usize;
            let children = &self.value[first..first + probs.len()];
            self.value[i as usize] = dot(probs, children);
        }
    }

    /// `pi(h)` for states with children (terminal entries are not maintained).
    pub fn reach(&self) -> &[f64] {
        &self.reach
    }

    /// `v(h)` for every state.
    pub fn values(&self) -> &[f64] {
        &self.value
    }

    /// The game value, `v(h0)`.
    pub fn root_value(&self) -> f64 {
        self.value[0]
    }
}

/// The expected common reward of `policy` (every player's, as payoffs are shared).
pub fn expected_reward(tree: &GameTree, policy: &JointPolicy) -> Result<f64, JpsError> {
    policy.check(tree)?;
    let mut sweep = Sweep::new(tree);
    sweep.evaluate(tree, policy.probs());
    Ok(sweep.root_value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::testing::{game, naive_value};

    #[test]
    fn sweeps_agree_with_plain_recursion_and_reach_sums_to_one_per_depth() {
        for name in [
            "comm:l=3",
            "mini_hanabi",
            "simple_bidding:n=8",
            "mini_bridge:n=3",
        ] {
            let tree = game(name);
            for seed in 0..3 {
                let policy = JointPolicy::random(tree, &mut Rng::new(seed));
                let mut sweep = Sweep::new(tree);
                sweep.evaluate(tree, policy.probs());
                let naive = naive_value(tree, &policy);
                assert!((sweep.root_value() - naive).abs() < 1e-12, "{name}");
                // The deal's states partition probability one.
                let deals: f64 = tree.children(0).map(|c| sweep.reach()[c as usize]).sum();
                assert!((deals - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn policies_from_outside_are_checked() {
        let tree = game("mini_hanabi");
        let n = tree.num_slots();
        assert!(JointPolicy::from_probs(tree, vec![0.5; n - 1]).is_err());
        let mut probs = JointPolicy::uniform(tree).into_probs();
        probs[0] = 0.9;
        let err = JointPolicy::from_probs(tree, probs)
            .unwrap_err()
            .to_string();
        assert!(err.contains("p0:d0") && err.contains("sum to 1"), "{err}");
        let mut probs = JointPolicy::uniform(tree).into_probs();
        probs[0] = f64::NAN;
        assert!(JointPolicy::from_probs(tree, probs).is_err());
        let other = game("comm:l=3");
        let err = expected_reward(other, &JointPolicy::uniform(tree)).unwrap_err();
        assert!(matches!(err, JpsError::PolicyMismatch(_)));
    }

    #[test]
    fn purifying_keeps_the_most_likely_action_and_the_lowest_on_ties() {
        let tree = game("mini_hanabi");
        let mut probs = JointPolicy::uniform(tree).into_probs();
        probs[0..3].copy_from_slice(&[0.2, 0.5, 0.3]);
        let pure = JointPolicy::from_probs(tree, probs).unwrap().purified(tree);
        assert_eq!(pure.at(tree, 0), &[0.0, 1.0, 0.0]);
        assert_eq!(pure.at(tree, 1), &[1.0, 0.0, 0.0]);
    }
}
