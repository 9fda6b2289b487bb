//! Test support: each game enumerated once per test run, and naive reference computations.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::rng::Rng;
use crate::stop::Stop;

use super::policy::JointPolicy;
use super::spec::load_game;
use super::tree::{Actor, GameTree};

/// Every game of Table 1, with its #States and #Infosets.
pub(crate) const TABLE1: [(&str, usize, usize); 11] = [
    ("comm:l=3", 633, 129),
    ("comm:l=5", 34785, 2049),
    ("comm:l=6", 270273, 8193),
    ("comm:l=7", 2129793, 32769),
    ("mini_hanabi", 53, 45),
    ("simple_bidding:n=4", 241, 61),
    ("simple_bidding:n=8", 1985, 249),
    ("simple_bidding:n=16", 16129, 1009),
    ("mini_bridge:n=3", 4081, 1021),
    ("mini_bridge:n=4", 25576, 5116),
    ("mini_bridge:n=5", 147421, 24571),
];

/// The game `name`, built on first use and shared by every test.
pub(crate) fn game(name: &str) -> &'static GameTree {
    static GAMES: OnceLock<Mutex<HashMap<String, &'static GameTree>>> = OnceLock::new();
    let mut games = GAMES.get_or_init(Default::default).lock().unwrap();
    games
        .entry(name.to_string())
        .or_insert_with(|| Box::leak(Box::new(load_game(name).unwrap())))
}

/// A stop flag already raised.
pub(crate) fn raised() -> Stop {
    let stop = Stop::new();
    stop.request();
    stop
}

/// The game value by plain recursion over histories (no sweeps, no shared arrays).
pub(crate) fn naive_value(tree: &GameTree, policy: &JointPolicy) -> f64 {
    fn value(tree: &GameTree, policy: &JointPolicy, node: u32) -> f64 {
        let probs: Vec<f64> = match tree.actor(node) {
            Actor::Terminal => return tree.utility(node),
            Actor::Chance => tree.chance_probs(node).to_vec(),
            Actor::Player(_) => policy.at(tree, tree.infoset_of(node).unwrap()).to_vec(),
        };
        tree.children(node)
            .zip(probs)
            .map(|(c, p)| {
                if p == 0.0 {
                    0.0
                } else {
                    p * value(tree, policy, c)
                }
            })
            .sum()
    }
    value(tree, policy, 0)
}

/// `policy` with the information sets in `changed` given new random (mixed or pure) policies.
pub(crate) fn perturb(
    tree: &GameTree,
    policy: &JointPolicy,
    changed: &[u32],
    rng: &mut Rng,
) -> JointPolicy {
    let mut probs = policy.probs().to_vec();
    for &i in changed {
        let info = tree.infoset(i);
        let o = info.offset as usize;
        let slice = &mut probs[o..o + info.num_actions as usize];
        if rng.below(2) == 0 {
            slice.fill(0.0);
            slice[rng.below(slice.len() as u64) as usize] = 1.0;
        } else {
            for p in slice.iter_mut() {
                *p = rng.next_f64();
            }
            let sum: f64 = slice.iter().sum();
            slice.iter_mut().for_each(|p| *p /= sum);
        }
    }
    JointPolicy::from_probs(tree, probs).unwrap()
}

/// `count` distinct random information sets.
pub(crate) fn some_infosets(tree: &GameTree, count: usize, rng: &mut Rng) -> Vec<u32> {
    let mut all: Vec<u32> = (0..tree.num_infosets() as u32).collect();
    rng.shuffle(&mut all);
    all.truncate(count);
    all
}
