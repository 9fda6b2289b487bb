//! The policy-change density and the information-set decomposition of a policy change
//! (paper 002, §4, Eq. 5, Lemmas 1-2 and Theorem 1).
//!
//! For a change `sigma -> sigma'`, every decision state `h` carries the density
//! `rho(h) = pi^{sigma'}(h) [ sum_a sigma'(I(h), a) v^sigma(ha) - v^sigma(h) ]`:
//! the new reach times what switching the local policy alone would gain. It vanishes wherever
//! the local policy is unchanged (Lemma 1), whatever changed upstream or downstream, and its sum
//! over all states is the change of the game value (Lemma 2). So the value change splits over
//! the *changed* information sets only (Theorem 1): `v(sigma') - v(sigma) = sum_I J(I)`,
//! `J(I) = sum_{h in I} rho(h)`. JPS evaluates candidate changes with exactly these terms; this
//! module computes them for any pair of policies, so tests can hold them against a naive
//! re-evaluation.

use super::error::JpsError;
use super::policy::{dot, JointPolicy, Sweep};
use super::tree::GameTree;

/// Theorem 1's terms for one policy change.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueChange {
    /// `(I, J(I))` for every information set whose policy changed, in index order.
    pub by_infoset: Vec<(u32, f64)>,
    /// `sum_I J(I)`: the predicted `v(sigma') - v(sigma)`.
    pub total: f64,
}

/// `rho(h)` for every state (zero for chance and terminal states, where nobody decides).
pub fn policy_change_density(
    tree: &GameTree,
    old: &JointPolicy,
    new: &JointPolicy,
) -> Result<Vec<f64>, JpsError> {
    old.check(tree)?;
    new.check(tree)?;
    let (before, after) = sweeps(tree, old, new);
    let mut rho = vec![0.0; tree.num_states()];
    for i in 0..tree.num_infosets() as u32 {
        for &h in tree.states(i) {
            rho[h as usize] = density_at(tree, &before, &after, new.at(tree, i), h);
        }
    }
    Ok(rho)
}

/// Theorem 1: the change of the game value, information set by information set, from the
/// values under `old` and the reach under `new` alone.
pub fn value_change(
    tree: &GameTree,
    old: &JointPolicy,
    new: &JointPolicy,
) -> Result<ValueChange, JpsError> {
    old.check(tree)?;
    new.check(tree)?;
    let (before, after) = sweeps(tree, old, new);
    let mut by_infoset = Vec::new();
    for i in 0..tree.num_infosets() as u32 {
        let local = new.at(tree, i);
        if local == old.at(tree, i) {
            continue; // Lemma 1: no local change, no density.
        }
        let j: f64 = tree
            .states(i)
            .iter()
            .map(|&h| density_at(tree, &before, &after, local, h))
            .sum();
        by_infoset.push((i, j));
    }
    let total = by_infoset.iter().map(|(_, j)| j).sum();
    Ok(ValueChange { by_infoset, total })
}

fn sweeps(tree: &GameTree, old: &JointPolicy, new: &JointPolicy) -> (Sweep, Sweep) {
    let mut before = Sweep::new(tree);
    before.evaluate(tree, old.probs());
    let mut after = Sweep::new(tree);
    after.evaluate(tree, new.probs());
    (before, after)
}

/// Eq. 5 at one decision state `h`, with `local` the new policy at `I(h)`.
fn density_at(tree: &GameTree, before: &Sweep, after: &Sweep, local: &[f64], h: u32) -> f64 {
    let v = before.values();
    let first = tree.first_child(h) as usize;
    // The same summation as the sweep's, so that an unchanged policy gives exactly 0.
    let switched = dot(local, &v[first..first + local.len()]);
    after.reach()[h as usize] * (switched - v[h as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::policy::expected_reward;
    use crate::jps::testing::{game, naive_value, perturb, some_infosets, TABLE1};
    use crate::rng::Rng;

    /// Theorem 1 against naive recomputation: random mixed policies, random changes at random
    /// information sets (one-hot or mixed), every game of Table 1.
    #[test]
    fn theorem_1_predicts_the_value_change_of_random_policy_changes_on_every_game() {
        for (name, _, _) in TABLE1 {
            let tree = game(name);
            let mut rng = Rng::new(33);
            let trials = if tree.num_states() > 1_000_000 { 2 } else { 6 };
            for trial in 0..trials {
                let old = JointPolicy::random(tree, &mut rng);
                let count = [1, 3, tree.num_infosets() / 10 + 1][trial % 3];
                let changed = some_infosets(tree, count, &mut rng);
                let new = perturb(tree, &old, &changed, &mut rng);
                let predicted = value_change(tree, &old, &new).unwrap();
                let actual =
                    expected_reward(tree, &new).unwrap() - expected_reward(tree, &old).unwrap();
                let scale = 1.0 + actual.abs();
                assert!(
                    (predicted.total - actual).abs() < 1e-9 * scale,
                    "{name}: predicted {} actual {actual}",
                    predicted.total
                );
                assert!(predicted.by_infoset.len() <= changed.len());
            }
        }
    }

    #[test]
    fn density_vanishes_where_the_policy_is_unchanged_and_sums_to_the_change() {
        let tree = game("mini_bridge:n=3");
        let mut rng = Rng::new(7);
        let old = JointPolicy::random(tree, &mut rng);
        let changed = some_infosets(tree, 20, &mut rng);
        let new = perturb(tree, &old, &changed, &mut rng);
        let rho = policy_change_density(tree, &old, &new).unwrap();
        for h in 0..tree.num_states() as u32 {
            match tree.infoset_of(h) {
                Some(i) if changed.contains(&i) => {}
                _ => assert_eq!(rho[h as usize], 0.0, "Lemma 1 at state {h}"),
            }
        }
        let total: f64 = rho.iter().sum();
        let actual = naive_value(tree, &new) - naive_value(tree, &old);
        assert!(
            (total - actual).abs() < 1e-12,
            "Lemma 2: {total} vs {actual}"
        );
    }
}
