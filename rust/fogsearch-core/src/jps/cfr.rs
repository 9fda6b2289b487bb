//! Tabular counterfactual regret minimisation (Zinkevich et al. 2008), vanilla or CFR+.
//!
//! Two schedules are offered because the two references differ:
//! - the paper's code updates every player at once from the same policy, starts from a random
//!   policy, and where no action has positive regret plays uniform plus a little Gaussian noise
//!   (std 0.01); it then keeps the *current* policy (the last iterate), purified;
//! - OpenSpiel's `CFRSolver` starts uniform, updates the players in turn (each sees the other's
//!   newest policy), plays exactly uniform without positive regret, and its `CFRPlusSolver` adds
//!   regret matching+ and linear averaging.
//!
//! Regrets are the usual counterfactual ones, `pi_{-i}(h) (v(ha) - v(h))` summed over `h` in
//! `I`; the average policy weights `sigma(I, a)` by the player's own reach.

use crate::rng::Rng;
use crate::stop::Stop;

use super::error::{bounded, JpsError};
use super::policy::{dot, JointPolicy};
use super::tree::{Actor, GameTree};

/// At most this many CFR iterations per call.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// Where CFR starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfrStart {
    /// Every action equally likely (OpenSpiel).
    Uniform,
    /// Independent U(0, 1) weights per information set, normalised, from the seed (the paper).
    Random,
}

impl std::str::FromStr for CfrStart {
    type Err = JpsError;

    /// `"uniform"` or `"random"`, as the Python API spells them.
    fn from_str(name: &str) -> Result<Self, JpsError> {
        match name {
            "uniform" => Ok(CfrStart::Uniform),
            "random" => Ok(CfrStart::Random),
            other => Err(JpsError::OutOfRange(format!(
                "cfr start must be 'uniform' or 'random', got {other:?}"
            ))),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CfrConfig {
    pub iterations: u32,
    /// Regret matching+ (negative cumulative regrets reset to 0) and linear averaging.
    pub plus: bool,
    /// Players update in turn (OpenSpiel) rather than all from the same policy (the paper).
    pub alternating: bool,
    pub start: CfrStart,
    /// Std of the Gaussian noise added to the uniform policy where no action has positive
    /// regret, then clipped at 0 and renormalised; 0 plays exactly uniform there.
    pub exploration: f64,
    pub seed: u64,
}

impl CfrConfig {
    /// The paper's CFR: simultaneous updates from a random start, exploration 0.01.
    pub fn paper(iterations: u32, seed: u64) -> CfrConfig {
        CfrConfig {
            iterations,
            plus: false,
            alternating: false,
            start: CfrStart::Random,
            exploration: 0.01,
            seed,
        }
    }

    /// OpenSpiel's `CFRSolver` (`plus = false`) or `CFRPlusSolver` (`plus = true`).
    pub fn openspiel(iterations: u32, plus: bool) -> CfrConfig {
        CfrConfig {
            iterations,
            plus,
            alternating: true,
            start: CfrStart::Uniform,
            exploration: 0.0,
            seed: 0,
        }
    }
}

/// What CFR leaves behind.
#[derive(Clone, Debug)]
pub struct CfrResult {
    /// The last iterate.
    pub current: JointPolicy,
    /// The reach-weighted average of the iterates (linearly weighted for CFR+).
    pub average: JointPolicy,
    /// The game value of the current policy, averaged over the iterations.
    pub mean_value: f64,
}

/// Stream ids of the per-seed generators, so that each random thing has its own sequence.
pub(crate) const STREAM_CFR_START: u64 = 1;
pub(crate) const STREAM_CFR_NOISE: u64 = 2;

/// Runs CFR on `tree`; `stop` is polled once per iteration.
pub fn cfr(tree: &GameTree, config: &CfrConfig, stop: &Stop) -> Result<CfrResult, JpsError> {
    bounded("cfr iterations", config.iterations, 1, MAX_ITERATIONS)?;
    // The sweeps keep reach as (player 0, player 1, chance) triples.
    debug_assert_eq!(tree.num_players(), 2);
    if !(config.exploration.is_finite() && (0.0..=1.0).contains(&config.exploration)) {
        return Err(JpsError::OutOfRange(format!(
            "cfr exploration must be between 0 and 1, got {}",
            config.exploration
        )));
    }
    let mut solver = Solver::new(tree, config);
    let mut value_sum = 0.0;
    for t in 1..=config.iterations {
        if stop.requested() {
            return Err(JpsError::Interrupted);
        }
        let weight = if config.plus { t as f64 } else { 1.0 };
        if config.alternating {
            for player in 0..tree.num_players() {
                let v = solver.traverse(Some(player), weight);
                if player == 0 {
                    value_sum += v;
                }
                solver.regret_matching(Some(player));
            }
        } else {
            value_sum += solver.traverse(None, weight);
            solver.regret_matching(None);
        }
    }
    let average = solver.average();
    let current = solver.current();
    Ok(CfrResult {
        current,
        average,
        mean_value: value_sum / config.iterations as f64,
    })
}

/// One state with children, as the CFR sweeps read it: everything a sweep needs in one record,
/// in breadth-first order, so that narrow states (two or three actions, most of Mini-Bridge) cost
/// a few loads rather than a walk through the tree's arrays.
#[derive(Clone, Copy, Debug)]
struct Internal {
    node: u32,
    first_child: u32,
    num_children: u16,
    /// 0 or 1 for a player, [`CHANCE`] for chance.
    mover: u8,
    /// Where this state's edge probabilities start in `Solver::probs` (policy, then chance).
    offset: u32,
    /// The record of the parent, and the `probs` index of the edge from it.
    parent: u32,
    edge: u32,
    parent_mover: u8,
    infoset: u32,
}

/// Index of chance in a reach triple.
const CHANCE: u8 = 2;

struct Solver<'t> {
    tree: &'t GameTree,
    config: CfrConfig,
    layout: Vec<Internal>,
    /// The current policy's probabilities (the first `num_slots`), then chance's.
    probs: Vec<f64>,
    regret: Vec<f64>,
    policy_sum: Vec<f64>,
    /// The updating player's own reach summed over each information set's states this pass.
    own_reach: Vec<f64>,
    /// Per record: the product of player 0's, player 1's and chance's probabilities above it.
    reach: Vec<[f64; 3]>,
    /// `v(h)` under the current policy, per state; terminal entries are the payoffs.
    values: Vec<f64>,
    noise: Rng,
}

impl<'t> Solver<'t> {
    fn new(tree: &'t GameTree, config: &CfrConfig) -> Solver<'t> {
        let policy = match config.start {
            CfrStart::Uniform => JointPolicy::uniform(tree),
            CfrStart::Random => {
                JointPolicy::random(tree, &mut Rng::stream(config.seed, STREAM_CFR_START))
            }
        };
        let slots = tree.num_slots();
        let mut probs = policy.into_probs();
        let mut record_of = vec![u32::MAX; tree.num_states()];
        let mut layout: Vec<Internal> = Vec::with_capacity(tree.internal().len());
        for (k, &h) in tree.internal().iter().enumerate() {
            record_of[h as usize] = k as u32;
            let (mover, offset, infoset) = match tree.actor(h) {
                Actor::Player(p) => {
                    let i = tree.raw_table(h);
                    (p, tree.infoset(i).offset, i)
                }
                _ => {
                    let offset = probs.len() as u32;
                    probs.extend_from_slice(tree.chance_probs(h));
                    (CHANCE, offset, u32::MAX)
                }
            };
            let (parent, edge, parent_mover) = match tree.parent(h) {
                Some(p) => {
                    let pk = record_of[p as usize];
                    let pr = &layout[pk as usize];
                    (pk, pr.offset + (h - tree.first_child(p)), pr.mover)
                }
                None => (0, 0, CHANCE),
            };
            layout.push(Internal {
                node: h,
                first_child: tree.first_child(h),
                num_children: tree.children(h).len() as u16,
                mover,
                offset,
                parent,
                edge,
                parent_mover,
                infoset,
            });
        }
        Solver {
            tree,
            config: *config,
            reach: vec![[1.0; 3]; layout.len()],
            layout,
            probs,
            regret: vec![0.0; slots],
            policy_sum: vec![0.0; slots],
            own_reach: vec![0.0; tree.num_infosets()],
            values: tree.utilities().to_vec(),
            noise: Rng::stream(config.seed, STREAM_CFR_NOISE),
        }
    }

    /// One pass under the current policy: accumulates regrets and the average policy for
    /// `player` (every player when `None`); returns the game value.
    fn traverse(&mut self, player: Option<u8>, weight: f64) -> f64 {
        let probs = &self.probs;
        let reach = &mut self.reach;
        for (k, record) in self.layout.iter().enumerate().skip(1) {
            let mut r = reach[record.parent as usize];
            r[record.parent_mover as usize] *= probs[record.edge as usize];
            reach[k] = r;
        }
        // Backward: values, and each decision state's regrets while its children are in cache.
        let values = &mut self.values;
        for (k, record) in self.layout.iter().enumerate().rev() {
            let n = record.num_children as usize;
            let first = record.first_child as usize;
            let o = record.offset as usize;
            let vh = dot(&probs[o..o + n], &values[first..first + n]);
            values[record.node as usize] = vh;
            let mover = record.mover;
            if mover == CHANCE || player.is_some_and(|p| p != mover) {
                continue;
            }
            let r = reach[k];
            let others = r[1 - mover as usize] * r[CHANCE as usize];
            self.own_reach[record.infoset as usize] += r[mover as usize];
            for (g, v) in self.regret[o..o + n]
                .iter_mut()
                .zip(&values[first..first + n])
            {
                *g += others * (v - vh);
            }
        }
        // sigma(I, a) is the same at every state of I, so its reach-weighted sum is sigma(I, a)
        // times I's summed own reach.
        for (k, info) in self.tree.infosets().iter().enumerate() {
            let own = std::mem::take(&mut self.own_reach[k]);
            if own == 0.0 {
                continue;
            }
            let o = info.offset as usize;
            let n = info.num_actions as usize;
            for (s, p) in self.policy_sum[o..o + n].iter_mut().zip(&probs[o..o + n]) {
                *s += weight * own * p;
            }
        }
        self.values[0]
    }

    /// New current policy from the cumulative regrets of `player`'s information sets (all
    /// when `None`).
    fn regret_matching(&mut self, player: Option<u8>) {
        let tree = self.tree;
        for info in tree.infosets() {
            if player.is_some_and(|p| p != info.player) {
                continue;
            }
            let o = info.offset as usize;
            let n = info.num_actions as usize;
            let regret = &mut self.regret[o..o + n];
            if self.config.plus {
                regret.iter_mut().for_each(|r| *r = r.max(0.0));
            }
            let positive: f64 = regret.iter().map(|r| r.max(0.0)).sum();
            let out = &mut self.probs[o..o + n];
            if positive > 0.0 {
                for (p, r) in out.iter_mut().zip(regret.iter()) {
                    *p = r.max(0.0) / positive;
                }
            } else {
                out.fill(1.0 / n as f64);
                if self.config.exploration > 0.0 {
                    for p in out.iter_mut() {
                        *p = (*p + self.config.exploration * gaussian(&mut self.noise)).max(0.0);
                    }
                    super::policy::normalise(out);
                }
            }
        }
    }

    fn current(&self) -> JointPolicy {
        let probs = self.probs[..self.tree.num_slots()].to_vec();
        JointPolicy::from_probs(self.tree, probs)
            .unwrap_or_else(|_| JointPolicy::uniform(self.tree))
    }

    fn average(&self) -> JointPolicy {
        let mut probs = self.policy_sum.clone();
        for info in self.tree.infosets() {
            let o = info.offset as usize;
            super::policy::normalise(&mut probs[o..o + info.num_actions as usize]);
        }
        JointPolicy::from_probs(self.tree, probs)
            .unwrap_or_else(|_| JointPolicy::uniform(self.tree))
    }
}

/// A standard normal draw (Box-Muller; one of the pair is discarded to keep it stateless).
fn gaussian(rng: &mut Rng) -> f64 {
    let u1 = 1.0 - rng.next_f64(); // in (0, 1]
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::policy::expected_reward;
    use crate::jps::testing::{game, raised};
    use crate::stop::NEVER;

    /// CFR as textbooks write it: recursion over histories with per-player reach, regret
    /// matching per information set (the reference the sweeps must match).
    #[allow(clippy::too_many_arguments)] // a plain recursion, kept literal on purpose
    fn textbook_cfr(
        tree: &GameTree,
        iterations: u32,
        plus: bool,
        alternating: bool,
    ) -> (JointPolicy, JointPolicy) {
        fn walk(
            tree: &GameTree,
            node: u32,
            reach: &[f64; 3],
            sigma: &[f64],
            update: Option<u8>,
            weight: f64,
            regret: &mut [f64],
            sum: &mut [f64],
        ) -> f64 {
            let kids: Vec<u32> = tree.children(node).collect();
            match tree.actor(node) {
                Actor::Terminal => tree.utility(node),
                Actor::Chance => kids
                    .iter()
                    .zip(tree.chance_probs(node).to_vec())
                    .map(|(&c, p)| {
                        let r = [reach[0], reach[1], reach[2] * p];
                        p * walk(tree, c, &r, sigma, update, weight, regret, sum)
                    })
                    .sum(),
                Actor::Player(p) => {
                    let info = tree.infoset(tree.infoset_of(node).unwrap());
                    let o = info.offset as usize;
                    let values: Vec<f64> = kids
                        .iter()
                        .enumerate()
                        .map(|(a, &c)| {
                            let mut r = *reach;
                            r[p as usize] *= sigma[o + a];
                            walk(tree, c, &r, sigma, update, weight, regret, sum)
                        })
                        .collect();
                    let v: f64 = values
                        .iter()
                        .enumerate()
                        .map(|(a, x)| sigma[o + a] * x)
                        .sum();
                    if update.is_none_or(|u| u == p) {
                        let others = reach[2] * reach[1 - p as usize];
                        for (a, x) in values.iter().enumerate() {
                            regret[o + a] += others * (x - v);
                            sum[o + a] += weight * reach[p as usize] * sigma[o + a];
                        }
                    }
                    v
                }
            }
        }
        let mut sigma = JointPolicy::uniform(tree).into_probs();
        let mut regret = vec![0.0; sigma.len()];
        let mut sum = vec![0.0; sigma.len()];
        let matching = |sigma: &mut [f64], regret: &mut [f64], only: Option<u8>| {
            for info in tree.infosets() {
                if only.is_some_and(|p| p != info.player) {
                    continue;
                }
                let o = info.offset as usize;
                let n = info.num_actions as usize;
                if plus {
                    regret[o..o + n].iter_mut().for_each(|r| *r = r.max(0.0));
                }
                let pos: f64 = regret[o..o + n].iter().map(|r| r.max(0.0)).sum();
                for a in 0..n {
                    sigma[o + a] = if pos > 0.0 {
                        regret[o + a].max(0.0) / pos
                    } else {
                        1.0 / n as f64
                    };
                }
            }
        };
        for t in 1..=iterations {
            let w = if plus { t as f64 } else { 1.0 };
            if alternating {
                for p in 0..2 {
                    let snapshot = sigma.clone();
                    walk(
                        tree,
                        0,
                        &[1.0; 3],
                        &snapshot,
                        Some(p),
                        w,
                        &mut regret,
                        &mut sum,
                    );
                    matching(&mut sigma, &mut regret, Some(p));
                }
            } else {
                let snapshot = sigma.clone();
                walk(
                    tree,
                    0,
                    &[1.0; 3],
                    &snapshot,
                    None,
                    w,
                    &mut regret,
                    &mut sum,
                );
                matching(&mut sigma, &mut regret, None);
            }
        }
        for info in tree.infosets() {
            let o = info.offset as usize;
            super::super::policy::normalise(&mut sum[o..o + info.num_actions as usize]);
        }
        (
            JointPolicy::from_probs(tree, sigma).unwrap(),
            JointPolicy::from_probs(tree, sum).unwrap(),
        )
    }

    fn close(a: &JointPolicy, b: &JointPolicy) -> f64 {
        a.probs()
            .iter()
            .zip(b.probs())
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn sweep_cfr_matches_textbook_cfr_in_every_variant() {
        for name in ["mini_hanabi", "simple_bidding:n=4", "mini_bridge:n=3"] {
            let tree = game(name);
            for (plus, alternating) in [(false, false), (false, true), (true, true), (true, false)]
            {
                let config = CfrConfig {
                    iterations: 50,
                    plus,
                    alternating,
                    start: CfrStart::Uniform,
                    exploration: 0.0,
                    seed: 0,
                };
                let ours = cfr(tree, &config, &NEVER).unwrap();
                let (current, average) = textbook_cfr(tree, 50, plus, alternating);
                assert!(close(&ours.current, &current) < 1e-9, "{name} {config:?}");
                assert!(close(&ours.average, &average) < 1e-9, "{name} {config:?}");
            }
        }
    }

    #[test]
    fn the_papers_cfr_depends_on_its_seed_only_and_beats_the_uniform_policy() {
        let tree = game("simple_bidding:n=8");
        let run = |seed| cfr(tree, &CfrConfig::paper(300, seed), &NEVER).unwrap();
        let (a, b, c) = (run(1), run(1), run(2));
        assert_eq!(a.current, b.current);
        assert_ne!(a.current, c.current);
        let uniform = expected_reward(tree, &JointPolicy::uniform(tree)).unwrap();
        let purified = expected_reward(tree, &a.current.purified(tree)).unwrap();
        assert!(purified > uniform + 1.0, "{purified} vs {uniform}");
        assert!(a.mean_value > uniform);
    }

    #[test]
    fn bad_settings_are_refused_and_a_stop_interrupts() {
        let tree = game("mini_hanabi");
        let zero = CfrConfig {
            iterations: 0,
            ..CfrConfig::paper(1, 0)
        };
        assert!(cfr(tree, &zero, &NEVER)
            .unwrap_err()
            .to_string()
            .contains("cfr iterations"));
        let noisy = CfrConfig {
            exploration: f64::NAN,
            ..CfrConfig::paper(1, 0)
        };
        assert!(cfr(tree, &noisy, &NEVER).is_err());
        assert_eq!(
            cfr(tree, &CfrConfig::paper(5, 0), &raised()).unwrap_err(),
            JpsError::Interrupted
        );
    }
}
