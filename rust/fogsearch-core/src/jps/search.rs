//! Joint Policy Search, Algorithm 1 of paper 002 (tabular), full-state and sample-based, and the
//! brute-force search it is measured against.
//!
//! One iteration evaluates the current policy `sigma` once (reach `pi(h)`, values `v(h)`), then
//! searches depth first over *chains* of information sets `I1, I2 in succ(I1, a1), ...` of at most
//! D links, each link switching `I_k` to the pure action `a_k`. A chain's value change is
//! Theorem 1's sum of `J(I_k) = sum_{h in I_k} pi'(h) (v(h a_k) - v(h))` (see `density`): the
//! values stay those of `sigma`, and only the altered reach `pi'(h)` depends on the chain. `pi'`
//! is found by tracing `h` back to its nearest ancestor in an already switched information set:
//! through that set's chosen action it is the ancestor's `pi'` times the unchanged probabilities
//! in between, through any other action 0, and with no switched ancestor simply `pi(h)`. The best
//! chain is applied if it gains anything, so the value never decreases (Theorem 2).
//!
//! Chains start at the first information sets (after the deal) and run to the terminals, or, with
//! a depth limit D, start at every information set of one depth (depths are tried in a seeded
//! random order, reshuffled after each improvement) and span D links. Full-state search stops
//! when an iteration finds nothing; sample-based search runs all T iterations and keeps the best.
//!
//! Sample-based JPS sums `J` only over sampled states: `k` states drawn with replacement from
//! each starting information set, plus everything below them (a state drawn twice counts
//! once). Its estimates are no longer exact, so it can lose value (the paper reports the best
//! iterate).
//!
//! Depths are public in these games, so an information set's states all lie at one depth and a
//! chain only moves down: switching a later link never changes the reach of an earlier one.

use std::time::Instant;

use crate::rng::Rng;
use crate::stop::Stop;

use super::error::{bounded, JpsError};
use super::policy::{JointPolicy, Sweep};
use super::tree::{GameTree, NONE};

/// No information set's action is switched.
const UNSWITCHED: u16 = u16::MAX;
/// A chain is applied only if it gains more than this (values are sums of products of
/// probabilities and payoffs; rounding leaves far smaller residues).
pub const MIN_GAIN: f64 = 1e-10;
/// Bounds on the search's parameters.
pub const MAX_JPS_ITERATIONS: u32 = 100_000;
/// The paper samples at most 30 states per information set; far more is all states anyway.
pub const MAX_SAMPLES: u32 = 10_000;
pub const MAX_DEPTH: u16 = 64;
/// Up to this many states in the chain's links, a trace checks their subtree intervals rather
/// than climbing the tree.
const INTERVAL_TRACE_LIMIT: usize = 16;
/// Seed streams of the random depth order and of the sampled states.
const STREAM_DEPTHS: u64 = 3;
const STREAM_SAMPLES: u64 = 4;

/// Settings of one JPS run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JpsSearchConfig {
    /// D, the most information sets one joint change spans; `None`: from the first information
    /// sets to the terminals.
    pub depth: Option<u16>,
    /// Sample-based JPS with `k` states per starting information set; `None`: all states.
    pub samples: Option<u32>,
    /// T, the most iterations (the paper: 100).
    pub iterations: u32,
    /// Seeds the depth order and the samples.
    pub seed: u64,
}

impl JpsSearchConfig {
    pub(crate) fn validate(&self) -> Result<(), JpsError> {
        bounded("jps iterations", self.iterations, 1, MAX_JPS_ITERATIONS)?;
        if let Some(d) = self.depth {
            bounded("jps depth", d, 1, MAX_DEPTH)?;
        }
        if let Some(k) = self.samples {
            bounded("jps samples per information set", k, 1, MAX_SAMPLES)?;
        }
        Ok(())
    }
}

/// Work counters, so that speed can be compared independently of the machine's load.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JpsSearchStats {
    /// Candidate changes `(I, a)` examined (chain links).
    pub links: u64,
    /// States visited: altered reaches traced, and states whose terms `pi(h) (v(ha) - v(h))`
    /// (once per iteration) or corrections for a changed reach were accumulated (brute force:
    /// the states swept by its full evaluations). Evaluating `sigma` itself is not counted.
    pub states: u64,
    /// Full evaluations of a policy (one per iteration for JPS; one per chain for brute force).
    pub evaluations: u64,
    /// Seconds spent searching (excluding the per-iteration evaluation of `sigma`).
    pub search_seconds: f64,
    /// Seconds spent evaluating `sigma` at the start of each iteration.
    pub evaluate_seconds: f64,
}

impl JpsSearchStats {
    pub fn add(&mut self, other: &JpsSearchStats) {
        crate::add_fields!(self, other; links, states, evaluations, search_seconds, evaluate_seconds);
    }
}

/// The best joint change one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Its predicted (JPS) or measured (brute force) gain; 0 when no chain gains.
    pub gain: f64,
    /// `(I, a)` links, upstream first; empty when nothing gains.
    pub chain: Vec<(u32, u16)>,
    pub stats: JpsSearchStats,
}

/// What a JPS run returns.
#[derive(Clone, Debug)]
pub struct JpsOutcome {
    /// The final policy (full-state) or the best iterate (sample-based).
    pub policy: JointPolicy,
    pub value: f64,
    /// The value of `sigma` at the start of each iteration, then of the final policy.
    pub history: Vec<f64>,
    /// The gain each iteration's search predicted for the chain it found (0: none): one entry
    /// per iteration run.
    pub predicted: Vec<f64>,
    pub improvements: u32,
    pub stats: JpsSearchStats,
}

impl JpsOutcome {
    /// The value of the starting policy.
    pub fn initial_value(&self) -> f64 {
        self.history[0]
    }

    /// The iterations run (each searched once for a chain).
    pub fn iterations(&self) -> u32 {
        self.predicted.len() as u32
    }
}

/// Called with every chain examined and its predicted value change.
type ChainVisitor<'v> = &'v mut dyn FnMut(&[(u32, u16)], f64);

/// Which information sets a chain may start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The first information sets, right after the deal.
    First,
    /// Every decision information set at this depth.
    AtDepth(u16),
}

/// The information sets a chain may start from.
pub fn start_infosets(tree: &GameTree, start: Start) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = vec![false; tree.num_infosets()];
    let mut push = |i: u32, out: &mut Vec<u32>| {
        if !seen[i as usize] {
            seen[i as usize] = true;
            out.push(i);
        }
    };
    match start {
        Start::First => {
            // Walk down through chance until players decide.
            let mut frontier = vec![0u32];
            while let Some(node) = frontier.pop() {
                if let Some(i) = tree.infoset_of(node) {
                    push(i, &mut out);
                } else if tree.is_chance(node) {
                    frontier.extend(tree.children(node).rev());
                }
            }
        }
        Start::AtDepth(d) => {
            for (i, info) in tree.infosets().iter().enumerate() {
                if info.depth == d {
                    push(i as u32, &mut out);
                }
            }
        }
    }
    out
}

/// Runs JPS from `start` on `tree`; `stop` is polled between iterations and every few thousand
/// links.
pub fn joint_policy_search(
    tree: &GameTree,
    start: &JointPolicy,
    config: &JpsSearchConfig,
    stop: &Stop,
) -> Result<JpsOutcome, JpsError> {
    config.validate()?;
    start.check(tree)?;
    let mut searcher = ChainSearcher::new(tree, start.clone(), stop);
    let mut depth_rng = Rng::stream(config.seed, STREAM_DEPTHS);
    let mut sample_rng = Rng::stream(config.seed, STREAM_SAMPLES);
    // Depths a D-link chain can start at: 1 (after the deal) up to the deepest state minus D.
    let depth_choices: Vec<u16> = match config.depth {
        Some(d) => (1..=tree.max_depth().saturating_sub(d).max(1)).collect(),
        None => vec![],
    };
    let mut depth_order: Vec<u16> = Vec::new();
    let refill = |order: &mut Vec<u16>, rng: &mut Rng| {
        *order = depth_choices.clone();
        rng.shuffle(order);
    };
    refill(&mut depth_order, &mut depth_rng);

    let mut history = Vec::new();
    let mut predicted = Vec::new();
    let mut stats = JpsSearchStats::default();
    let mut best: Option<(f64, JointPolicy)> = None;
    let mut improvements = 0;
    for _ in 0..config.iterations {
        if stop.requested() {
            return Err(JpsError::Interrupted);
        }
        let t0 = Instant::now();
        searcher.evaluate();
        stats.evaluate_seconds += t0.elapsed().as_secs_f64();
        stats.evaluations += 1;
        let value = searcher.sweep.root_value();
        history.push(value);
        if best.as_ref().is_none_or(|(b, _)| value > *b) {
            best = Some((value, searcher.policy.clone()));
        }
        let starts = match config.depth {
            None => start_infosets(tree, Start::First),
            Some(_) => {
                if depth_order.is_empty() {
                    if config.samples.is_none() {
                        break; // Every depth was tried since the last improvement.
                    }
                    refill(&mut depth_order, &mut depth_rng);
                }
                let d = depth_order.pop().unwrap_or(1);
                start_infosets(tree, Start::AtDepth(d))
            }
        };
        match config.samples {
            Some(k) => searcher.sample(&starts, k, &mut sample_rng),
            None => searcher.activate_all(),
        }
        let step = searcher.search(&starts, config.depth)?;
        stats.add(&step.stats);
        predicted.push(step.gain);
        if step.gain > MIN_GAIN {
            for &(i, a) in &step.chain {
                searcher.policy.set_pure(tree, i, a);
            }
            improvements += 1;
            refill(&mut depth_order, &mut depth_rng);
        } else if config.samples.is_none() && config.depth.is_none() {
            break; // Nothing gains: Algorithm 1 has converged.
        }
    }
    searcher.evaluate();
    let final_value = searcher.sweep.root_value();
    history.push(final_value);
    let (value, policy) = match best {
        Some((b, p)) if config.samples.is_some() && b > final_value => (b, p),
        _ => (final_value, searcher.policy),
    };
    Ok(JpsOutcome {
        policy,
        value,
        history,
        predicted,
        improvements,
        stats,
    })
}

/// How one iteration values each chain it tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainValuation {
    /// JPS: the whole game is evaluated once, then each chain's change in value is computed
    /// from the states it touches.
    Incremental,
    /// The paper's baseline: each chain is valued by switching the policy and evaluating the
    /// whole game again, `O(|S| M)`.
    BruteForce,
}

/// One JPS iteration from `policy`: the best chain starting at `starts` (at most `depth` links),
/// each chain valued as `valuation` says (both give the same chains and gains).
pub fn search_step(
    valuation: ChainValuation,
    tree: &GameTree,
    policy: &JointPolicy,
    starts: &[u32],
    depth: Option<u16>,
    stop: &Stop,
) -> Result<Step, JpsError> {
    policy.check(tree)?;
    check_starts(tree, starts)?;
    let t0 = Instant::now();
    match valuation {
        ChainValuation::Incremental => {
            let mut searcher = ChainSearcher::new(tree, policy.clone(), stop);
            searcher.evaluate();
            searcher.activate_all();
            let mut step = searcher.search(starts, depth)?;
            step.stats.evaluations += 1;
            step.stats.evaluate_seconds = t0.elapsed().as_secs_f64() - step.stats.search_seconds;
            Ok(step)
        }
        ChainValuation::BruteForce => {
            brute_force(tree, policy, starts, depth.unwrap_or(u16::MAX), stop, t0)
        }
    }
}

/// [`ChainValuation::BruteForce`]'s search, started at `t0`.
fn brute_force(
    tree: &GameTree,
    policy: &JointPolicy,
    starts: &[u32],
    depth: u16,
    stop: &Stop,
    t0: Instant,
) -> Result<Step, JpsError> {
    let mut brute = BruteForce {
        tree,
        policy: policy.clone(),
        sweep: Sweep::new(tree),
        stop,
        base: 0.0,
        best: 0.0,
        best_chain: Vec::new(),
        chain: Vec::new(),
        stats: JpsSearchStats::default(),
    };
    brute.sweep.evaluate(tree, brute.policy.probs());
    brute.base = brute.sweep.root_value();
    brute.stats.evaluations += 1;
    brute.level(starts, depth)?;
    brute.stats.states = brute.stats.evaluations * tree.num_states() as u64;
    brute.stats.search_seconds = t0.elapsed().as_secs_f64();
    Ok(Step {
        gain: brute.best,
        chain: brute.best_chain,
        stats: brute.stats,
    })
}

fn check_starts(tree: &GameTree, starts: &[u32]) -> Result<(), JpsError> {
    match starts.iter().find(|&&i| i as usize >= tree.num_infosets()) {
        Some(i) => Err(JpsError::OutOfRange(format!(
            "starting information set {i} does not exist; {} has {} (0 to {})",
            tree.name(),
            tree.num_infosets(),
            tree.num_infosets() - 1
        ))),
        None => Ok(()),
    }
}

/// Every chain JPS examines from `starts`, with its predicted value change (test support).
#[cfg(test)]
pub(crate) fn visit_chains(
    tree: &GameTree,
    policy: &JointPolicy,
    starts: &[u32],
    depth: Option<u16>,
    visit: ChainVisitor<'_>,
) {
    let mut searcher = ChainSearcher::new(tree, policy.clone(), &crate::stop::NEVER);
    searcher.visit = Some(visit);
    searcher.evaluate();
    searcher.activate_all();
    searcher.search(starts, depth).expect("never stopped");
}

struct ChainSearcher<'t, 'v> {
    tree: &'t GameTree,
    policy: JointPolicy,
    sweep: Sweep,
    /// The action each information set of the current chain is switched to.
    switched: Vec<u16>,
    /// `pi'(h)` for the states of the information sets at the current chain's levels.
    altered: Vec<f64>,
    /// Which level computed `altered[h]`, and in which of its visits: the value is current while
    /// `stamp[h] == level_visit[stamp_level[h]]` (nothing above that level has changed since).
    stamp: Vec<u64>,
    stamp_level: Vec<u16>,
    level_visit: Vec<u64>,
    visits: u64,
    /// The number of states in the chain's links (what a trace by subtree intervals checks).
    link_states: usize,
    /// States that count (all, or the samples and what lies below them).
    active: Vec<bool>,
    all_active: bool,
    /// `J(I, a)` with nothing switched, `sum_h pi(h) (v(ha) - v(h))`, per policy slot: a chain
    /// only changes the reach of states below its links, so only those need visiting.
    base: Vec<f64>,
    /// `J(I, a)` for every action, one buffer per chain level.
    gains: Vec<Vec<f64>>,
    chain: Vec<(u32, u16)>,
    best: f64,
    best_chain: Vec<(u32, u16)>,
    stats: JpsSearchStats,
    stop: &'v Stop,
    #[cfg_attr(not(test), allow(dead_code))]
    visit: Option<ChainVisitor<'v>>,
}

impl<'t, 'v> ChainSearcher<'t, 'v> {
    fn new(tree: &'t GameTree, policy: JointPolicy, stop: &'v Stop) -> ChainSearcher<'t, 'v> {
        let max_actions = tree
            .infosets()
            .iter()
            .map(|i| i.num_actions as usize)
            .max()
            .unwrap_or(0);
        ChainSearcher {
            tree,
            policy,
            sweep: Sweep::new(tree),
            switched: vec![UNSWITCHED; tree.num_infosets()],
            altered: vec![0.0; tree.num_states()],
            stamp: vec![0; tree.num_states()],
            stamp_level: vec![0; tree.num_states()],
            level_visit: vec![u64::MAX; tree.max_depth() as usize + 2],
            visits: 0,
            link_states: 0,
            active: vec![true; tree.num_states()],
            all_active: true,
            base: vec![0.0; tree.num_slots()],
            gains: vec![vec![0.0; max_actions]; tree.max_depth() as usize + 1],
            chain: Vec::new(),
            best: 0.0,
            best_chain: Vec::new(),
            stats: JpsSearchStats::default(),
            stop,
            visit: None,
        }
    }

    fn evaluate(&mut self) {
        self.sweep.evaluate(self.tree, self.policy.probs());
    }

    fn activate_all(&mut self) {
        if !self.all_active {
            self.active.fill(true);
            self.all_active = true;
        }
    }

    /// Draws `k` states with replacement from each starting information set and activates them
    /// and everything below them.
    fn sample(&mut self, starts: &[u32], k: u32, rng: &mut Rng) {
        let tree = self.tree;
        self.active.fill(false);
        self.all_active = false;
        for &i in starts {
            let states = tree.states(i);
            for _ in 0..k {
                let h = states[rng.below(states.len() as u64) as usize];
                self.active[h as usize] = true;
            }
        }
        // Parents come first in breadth-first order, so one forward pass spreads the marks.
        for &i in &tree.internal()[1..] {
            if self.active[tree.raw_parent(i) as usize] {
                self.active[i as usize] = true;
            }
        }
    }

    fn search(&mut self, starts: &[u32], depth: Option<u16>) -> Result<Step, JpsError> {
        let t0 = Instant::now();
        self.best = 0.0;
        self.best_chain.clear();
        self.stats = JpsSearchStats::default();
        self.unswitched_gains();
        self.level(starts, depth.unwrap_or(u16::MAX), 0.0, 0)?;
        self.stats.search_seconds = t0.elapsed().as_secs_f64();
        Ok(Step {
            gain: self.best,
            chain: self.best_chain.clone(),
            stats: self.stats,
        })
    }

    /// One level of Algorithm 1: every `(I, a)` with `I` in `candidates`, each followed by the
    /// best continuation in `succ(I, a)`. `prefix` is the value change of the chain so far.
    fn level(
        &mut self,
        candidates: &[u32],
        links_left: u16,
        prefix: f64,
        level: usize,
    ) -> Result<(), JpsError> {
        if links_left == 0 || candidates.is_empty() {
            return Ok(());
        }
        let tree = self.tree;
        self.visits += 1;
        self.level_visit[level] = self.visits;
        for &i in candidates {
            for &h in tree.states(i) {
                if self.active[h as usize] {
                    self.altered[h as usize] = self.trace(h, level);
                    self.stamp[h as usize] = self.visits;
                    self.stamp_level[h as usize] = level as u16;
                    self.stats.states += 1;
                }
            }
        }
        for &i in candidates {
            let n = tree.infoset(i).num_actions as usize;
            let mut gains = std::mem::take(&mut self.gains[level]);
            self.infoset_gains(i, &mut gains[..n]);
            for a in 0..n {
                self.stats.links += 1;
                if self.stats.links & 0xFFF == 0 && self.stop.requested() {
                    return Err(JpsError::Interrupted);
                }
                let total = prefix + gains[a];
                self.switched[i as usize] = a as u16;
                self.chain.push((i, a as u16));
                self.link_states += tree.states(i).len();
                #[cfg(test)]
                if let Some(visit) = self.visit.as_mut() {
                    visit(&self.chain, total);
                }
                if total > self.best + MIN_GAIN {
                    self.best = total;
                    self.best_chain.clone_from(&self.chain);
                }
                let next = tree.succ(i, a as u16);
                let result = self.level(next, links_left - 1, total, level + 1);
                self.chain.pop();
                self.link_states -= tree.states(i).len();
                if let Err(e) = result {
                    self.switched[i as usize] = UNSWITCHED;
                    self.gains[level] = gains;
                    return Err(e);
                }
            }
            self.switched[i as usize] = UNSWITCHED;
            self.gains[level] = gains;
        }
        Ok(())
    }

    /// `J(I, a)` of every information set with nothing switched, over the active states.
    fn unswitched_gains(&mut self) {
        let tree = self.tree;
        let v = self.sweep.values();
        let reach = self.sweep.reach();
        self.base.fill(0.0);
        for (i, info) in tree.infosets().iter().enumerate() {
            let o = info.offset as usize;
            let out = &mut self.base[o..o + info.num_actions as usize];
            for &h in tree.states(i as u32) {
                let r = reach[h as usize];
                if !self.active[h as usize] || r == 0.0 {
                    continue;
                }
                add_advantages(out, r, v, h, tree.first_child(h));
                self.stats.states += 1;
            }
        }
    }

    /// `J(I, a) = sum_h pi'(h) (v(ha) - v(h))` for every action `a` of `I` (Eq. 5, one-hot):
    /// the unswitched sum, corrected at the states whose reach the chain changed.
    fn infoset_gains(&mut self, i: u32, out: &mut [f64]) {
        let tree = self.tree;
        let v = self.sweep.values();
        let reach = self.sweep.reach();
        let o = tree.infoset(i).offset as usize;
        out.copy_from_slice(&self.base[o..o + out.len()]);
        for &h in tree.states(i) {
            let delta = self.altered[h as usize] - reach[h as usize];
            if !self.active[h as usize] || delta == 0.0 {
                continue;
            }
            add_advantages(out, delta, v, h, tree.first_child(h));
            self.stats.states += 1;
        }
    }

    /// `pi'(h)` under the current chain, for a state at `level`: unchanged without a chain;
    /// otherwise from the nearest ancestor that is either in a link (through its chosen action
    /// or not at all) or already has its `pi'` from an earlier level, times sigma's
    /// probabilities on the way. When the links hold few states (Comm's links hold one), their
    /// subtree intervals are checked instead of climbing, which avoids walks to the root.
    fn trace(&self, h: u32, level: usize) -> f64 {
        if self.chain.is_empty() {
            return self.sweep.reach()[h as usize];
        }
        if self.link_states <= INTERVAL_TRACE_LIMIT {
            return self.trace_by_intervals(h);
        }
        let tree = self.tree;
        let probs = self.policy.probs();
        let mut node = h;
        let mut carried = 1.0;
        loop {
            let p = tree.raw_parent(node);
            if p == NONE {
                return self.sweep.reach()[h as usize];
            }
            let a = node - tree.first_child(p);
            if !tree.is_chance(p) {
                let switched = self.switched[tree.raw_table(p) as usize];
                if switched != UNSWITCHED {
                    return if switched as u32 == a {
                        self.altered[p as usize] * carried
                    } else {
                        0.0
                    };
                }
            }
            carried *= tree.edge_probs(p, probs)[a as usize];
            let known = self.stamp_level[p as usize] as usize;
            if known < level && self.stamp[p as usize] == self.level_visit[known] {
                return self.altered[p as usize] * carried;
            }
            node = p;
        }
    }

    /// [`Self::trace`] through the links' subtree intervals, deepest link first; only a state
    /// below a link is walked up to it.
    fn trace_by_intervals(&self, h: u32) -> f64 {
        let tree = self.tree;
        for &(i, a) in self.chain.iter().rev() {
            for &g in tree.states(i) {
                if !tree.is_below(h, g) {
                    continue;
                }
                let chosen = tree.first_child(g) + a as u32;
                if !tree.is_below(h, chosen) {
                    return 0.0; // Below an action the switched set no longer plays.
                }
                // No other link lies between `chosen` and `h` (this link is the deepest above
                // `h`), so the probabilities on the way are sigma's.
                let probs = self.policy.probs();
                let mut carried = 1.0;
                let mut node = h;
                while node != chosen {
                    let p = tree.raw_parent(node);
                    carried *= tree.edge_probs(p, probs)[(node - tree.first_child(p)) as usize];
                    node = p;
                }
                return self.altered[g as usize] * carried;
            }
        }
        self.sweep.reach()[h as usize]
    }
}

struct BruteForce<'t, 'v> {
    tree: &'t GameTree,
    policy: JointPolicy,
    sweep: Sweep,
    stop: &'v Stop,
    base: f64,
    best: f64,
    best_chain: Vec<(u32, u16)>,
    chain: Vec<(u32, u16)>,
    stats: JpsSearchStats,
}

impl BruteForce<'_, '_> {
    fn level(&mut self, candidates: &[u32], links_left: u16) -> Result<(), JpsError> {
        if links_left == 0 {
            return Ok(());
        }
        let tree = self.tree;
        for &i in candidates {
            let saved = self.policy.at(tree, i).to_vec();
            for a in 0..tree.infoset(i).num_actions {
                if self.stop.requested() {
                    return Err(JpsError::Interrupted);
                }
                self.stats.links += 1;
                self.policy.set_pure(tree, i, a);
                self.chain.push((i, a));
                self.sweep.evaluate(tree, self.policy.probs());
                self.stats.evaluations += 1;
                let gain = self.sweep.root_value() - self.base;
                if gain > self.best + MIN_GAIN {
                    self.best = gain;
                    self.best_chain.clone_from(&self.chain);
                }
                let result = self.level(tree.succ(i, a), links_left - 1);
                self.chain.pop();
                result?;
            }
            let o = tree.infoset(i).offset as usize;
            self.policy.probs_mut()[o..o + saved.len()].copy_from_slice(&saved);
        }
        Ok(())
    }
}

/// Adds `weight * (v(ha) - v(h))` to `out[a]` for each action `a` of state `h`, whose children
/// start at `first` (Eq. 5's term of one state).
#[inline]
fn add_advantages(out: &mut [f64], weight: f64, v: &[f64], h: u32, first: u32) {
    let vh = v[h as usize];
    for (g, vc) in out.iter_mut().zip(&v[first as usize..]) {
        *g += weight * (vc - vh);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::testing::{game, naive_value, raised, TABLE1};
    use crate::stop::NEVER;

    fn applied(tree: &GameTree, policy: &JointPolicy, chain: &[(u32, u16)]) -> JointPolicy {
        let mut out = policy.clone();
        for &(i, a) in chain {
            out.set_pure(tree, i, a);
        }
        out
    }

    /// Every chain Algorithm 1 values, valued again by switching the policy and re-evaluating
    /// the whole game (`every`: check one chain in that many).
    fn check_chains(name: &str, depth: Option<u16>, start: Start, every: usize) -> usize {
        let tree = game(name);
        let policy = JointPolicy::random(tree, &mut Rng::new(11));
        let base = naive_value(tree, &policy);
        let starts = start_infosets(tree, start);
        let mut seen = 0usize;
        let mut checked = 0usize;
        visit_chains(tree, &policy, &starts, depth, &mut |chain, predicted| {
            seen += 1;
            if !seen.is_multiple_of(every) {
                return;
            }
            checked += 1;
            if let Some(d) = depth {
                assert!(chain.len() <= d as usize);
            }
            let actual = naive_value(tree, &applied(tree, &policy, chain)) - base;
            assert!(
                (predicted - actual).abs() < 1e-10 * (1.0 + actual.abs()),
                "{name} {chain:?}: predicted {predicted} actual {actual}"
            );
        });
        assert!(checked > 0, "{name}: no chain checked");
        checked
    }

    #[test]
    fn every_chain_is_valued_as_naive_recomputation_values_it() {
        assert_eq!(
            check_chains("comm:l=3", None, Start::First, 1),
            8 * (2 + 4 + 8 + 64)
        );
        check_chains("mini_hanabi", None, Start::First, 1);
        check_chains("simple_bidding:n=4", None, Start::First, 1);
        check_chains("mini_bridge:n=3", Some(3), Start::AtDepth(2), 1);
        check_chains("mini_bridge:n=3", None, Start::First, 997);
        check_chains("simple_bidding:n=16", Some(3), Start::AtDepth(3), 101);
        check_chains("comm:l=5", None, Start::First, 499);
    }

    #[test]
    fn one_iteration_finds_the_gain_brute_force_finds() {
        for (name, depth, start) in [
            ("comm:l=3", None, Start::First),
            ("mini_hanabi", None, Start::First),
            ("simple_bidding:n=4", None, Start::First),
            ("simple_bidding:n=8", Some(3), Start::AtDepth(1)),
            ("mini_bridge:n=3", Some(3), Start::AtDepth(3)),
        ] {
            let tree = game(name);
            for seed in 0..3 {
                let policy = JointPolicy::random(tree, &mut Rng::new(seed));
                let starts = start_infosets(tree, start);
                let step = |valuation| {
                    search_step(valuation, tree, &policy, &starts, depth, &NEVER).unwrap()
                };
                let (jps, brute) = (
                    step(ChainValuation::Incremental),
                    step(ChainValuation::BruteForce),
                );
                assert!(
                    (jps.gain - brute.gain).abs() < 1e-10,
                    "{name}: {} vs {}",
                    jps.gain,
                    brute.gain
                );
                assert!(jps.gain > 0.0, "{name}: a random policy can be improved");
                let realised = naive_value(tree, &applied(tree, &policy, &jps.chain))
                    - naive_value(tree, &policy);
                assert!((realised - jps.gain).abs() < 1e-10);
                assert!(brute.stats.evaluations > jps.stats.evaluations);
            }
        }
    }

    /// Theorem 2 on every game: each iteration realises the gain it predicted, so the value
    /// never decreases.
    #[test]
    fn jps_never_lowers_the_value_and_realises_each_predicted_gain_on_every_game() {
        for (name, _, _) in TABLE1 {
            let tree = game(name);
            let spec: super::super::spec::GameSpec = name.parse().unwrap();
            let big = tree.num_states() > 100_000;
            let config = JpsSearchConfig {
                depth: spec.paper_depth(),
                samples: None,
                iterations: if big { 2 } else { 30 },
                seed: 5,
            };
            let start = JointPolicy::random(tree, &mut Rng::new(2));
            let out = joint_policy_search(tree, &start, &config, &NEVER).unwrap();
            assert!(out.improvements > 0, "{name}");
            for (t, gain) in out.predicted.iter().enumerate() {
                let step = out.history[t + 1] - out.history[t];
                let applied = if *gain > MIN_GAIN { *gain } else { 0.0 };
                assert!(
                    (step - applied).abs() < 1e-9 * (1.0 + step.abs()),
                    "{name} iteration {t}"
                );
                assert!(step >= 0.0, "{name} iteration {t} lost {step}");
            }
            assert_eq!(out.value, *out.history.last().unwrap());
            assert!((out.value - naive_value(tree, &out.policy)).abs() < 1e-9);
        }
    }

    #[test]
    fn full_depth_jps_from_cfr_completes_the_communication_code() {
        for name in ["comm:l=3", "comm:l=5"] {
            let tree = game(name);
            for seed in 0..4 {
                let start =
                    crate::jps::cfr::cfr(tree, &crate::jps::CfrConfig::paper(200, seed), &NEVER)
                        .unwrap()
                        .current;
                let config = JpsSearchConfig {
                    depth: None,
                    samples: None,
                    iterations: 100,
                    seed,
                };
                let out = joint_policy_search(tree, &start, &config, &NEVER).unwrap();
                assert!(
                    (out.value - 1.0).abs() < 1e-12,
                    "{name} seed {seed}: {}",
                    out.value
                );
            }
        }
    }

    #[test]
    fn sampling_every_state_is_full_state_search_and_sampling_runs_all_iterations() {
        let tree = game("simple_bidding:n=8");
        let start = JointPolicy::random(tree, &mut Rng::new(4));
        let full = JpsSearchConfig {
            depth: Some(3),
            samples: None,
            iterations: 1,
            seed: 9,
        };
        let all_sampled = JpsSearchConfig {
            samples: Some(10_000),
            ..full
        };
        let a = joint_policy_search(tree, &start, &full, &NEVER).unwrap();
        let b = joint_policy_search(tree, &start, &all_sampled, &NEVER).unwrap();
        assert_eq!(a.predicted, b.predicted);
        assert_eq!(a.history, b.history);

        let sampled = JpsSearchConfig {
            depth: None,
            samples: Some(1),
            iterations: 40,
            seed: 9,
        };
        let c = joint_policy_search(tree, &start, &sampled, &NEVER).unwrap();
        assert_eq!(c.iterations(), 40);
        let best = c.history.iter().copied().fold(f64::MIN, f64::max);
        assert_eq!(c.value, best);
        assert!((naive_value(tree, &c.policy) - best).abs() < 1e-9);
        let again = joint_policy_search(tree, &start, &sampled, &NEVER).unwrap();
        assert_eq!(c.history, again.history, "a seed fixes the samples");
        let other = JpsSearchConfig {
            seed: 10,
            ..sampled
        };
        let d = joint_policy_search(tree, &start, &other, &NEVER).unwrap();
        assert_ne!(c.history, d.history, "another seed draws other samples");
    }

    #[test]
    fn a_raised_stop_flag_interrupts_and_bad_settings_are_refused() {
        let tree = game("comm:l=5");
        let start = JointPolicy::uniform(tree);
        let config = JpsSearchConfig {
            depth: None,
            samples: None,
            iterations: 10,
            seed: 0,
        };
        let err = joint_policy_search(tree, &start, &config, &raised()).unwrap_err();
        assert_eq!(err, JpsError::Interrupted);
        for bad in [
            JpsSearchConfig {
                iterations: 0,
                ..config
            },
            JpsSearchConfig {
                depth: Some(0),
                ..config
            },
            JpsSearchConfig {
                samples: Some(0),
                ..config
            },
        ] {
            let err = joint_policy_search(tree, &start, &bad, &NEVER).unwrap_err();
            assert!(matches!(err, JpsError::OutOfRange(_)), "{err}");
        }
    }
}
