//! UCB Monte Carlo tree search on one deal with every hand known (the perfect-information search
//! of the ScrofaZero paper, §8.6: child `j` maximises v_j + c √(ln N / n_j)), with uniformly random
//! playouts in place of its value network. Every seat maximises its own return (max^n), so
//! partners in a team game, whose returns are equal, play together.

use std::time::Instant;

use super::game::{Action, Scores, TrickGame, MAX_PLAYERS};
use super::play::{TableState, MAX_LEGAL};
use crate::rng::Rng;
use crate::stop::Stop;

/// Iterations between looks at the clock and the stop flag.
const POLL_EVERY: u64 = 64;

struct Node {
    state: TableState,
    children: Vec<(Action, u32)>,
    untried: Vec<Action>,
    visits: u32,
    /// Sum of the returns of every seat over the playouts through this node.
    sum: [f64; MAX_PLAYERS],
}

impl Node {
    fn new(game: &dyn TrickGame, state: TableState) -> Self {
        Node {
            untried: state.legal_action_vec(game),
            state,
            children: Vec::new(),
            visits: 0,
            sum: [0.0; MAX_PLAYERS],
        }
    }
}

/// The root's statistics after a search.
#[derive(Clone, Debug, Default)]
pub struct RootStats {
    /// The root's legal actions, ascending.
    pub actions: Vec<Action>,
    /// Playouts through each action.
    pub visits: Vec<u32>,
    /// Mean return of the root's seat after each action (0 where unvisited).
    pub values: Vec<f64>,
    pub iterations: u64,
}

/// Searches `root` for at most `iterations` iterations, stopping early at `deadline` or when
/// `stop` is raised (the statistics so far are returned either way).
pub fn search(
    game: &dyn TrickGame,
    root: &TableState,
    iterations: u64,
    exploration: f64,
    deadline: Option<Instant>,
    rng: &mut Rng,
    stop: &Stop,
) -> RootStats {
    let mut nodes = vec![Node::new(game, *root)];
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut done = 0;
    while done < iterations {
        if done % POLL_EVERY == 0
            && done > 0
            && (stop.requested() || deadline.is_some_and(|d| Instant::now() >= d))
        {
            break;
        }
        path.clear();
        let mut at = 0usize;
        path.push(at);
        loop {
            if nodes[at].state.is_over() {
                break;
            }
            if !nodes[at].untried.is_empty() {
                let k = rng.below(nodes[at].untried.len() as u64) as usize;
                let action = nodes[at].untried.swap_remove(k);
                let mut next = nodes[at].state;
                next.apply(action);
                let id = nodes.len() as u32;
                nodes.push(Node::new(game, next));
                nodes[at].children.push((action, id));
                at = id as usize;
                path.push(at);
                break;
            }
            let mover = nodes[at].state.to_act();
            let log_n = (nodes[at].visits.max(1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0usize);
            for &(_, child) in &nodes[at].children {
                let c = &nodes[child as usize];
                let n = c.visits.max(1) as f64;
                let score = c.sum[mover] / n + exploration * (log_n / n).sqrt();
                if score > best.0 {
                    best = (score, child as usize);
                }
            }
            at = best.1;
            path.push(at);
        }
        let returns = playout(game, nodes[at].state, rng);
        for &id in &path {
            let node = &mut nodes[id];
            node.visits += 1;
            for (s, r) in node.sum.iter_mut().zip(&returns) {
                *s += r;
            }
        }
        done += 1;
    }
    let seat = root.to_act();
    let mut stats = RootStats {
        actions: root.legal_action_vec(game),
        iterations: done,
        ..RootStats::default()
    };
    for &a in &stats.actions {
        let child = nodes[0].children.iter().find(|(b, _)| *b == a);
        match child {
            Some(&(_, id)) => {
                let c = &nodes[id as usize];
                stats.visits.push(c.visits);
                stats.values.push(c.sum[seat] / c.visits.max(1) as f64);
            }
            None => {
                stats.visits.push(0);
                stats.values.push(0.0);
            }
        }
    }
    stats
}

/// Uniformly random play to the end; the returns.
fn playout(game: &dyn TrickGame, mut state: TableState, rng: &mut Rng) -> Scores {
    let mut legal = [0; MAX_LEGAL];
    while !state.is_over() {
        let n = state.legal_actions(game, &mut legal);
        state.apply(legal[rng.below(n as u64) as usize]);
    }
    state.returns(game)
}

#[cfg(test)]
mod tests {
    use super::super::gongzhu::{Gongzhu, TABLE};
    use super::*;
    use crate::stop::NEVER;

    #[test]
    fn on_three_card_endgames_the_best_searched_move_is_exactly_best() {
        // 40 random Gongzhu deals played at random to three cards a hand: the root action the
        // search values most is one whose exact max^n value (every seat best for itself; here
        // minimax, the returns being team differences) is the root seat's best. With random
        // playouts, c must match the points' spread: at c = 30 (the paper's, for its network's
        // values) about 9 in 100 such endgames are misplayed, at c = 200 none.
        let mut rng = Rng::new(3);
        for _ in 0..40 {
            let hands = super::super::players::random_hands(&Gongzhu, &TABLE, &mut rng);
            let mut state = TableState::new(&Gongzhu, TABLE, &hands);
            let mut legal = [0; MAX_LEGAL];
            while state.public.tricks_done < 10 {
                let n = state.legal_actions(&Gongzhu, &mut legal);
                state.apply(legal[rng.below(n as u64) as usize]);
            }
            let stats = search(
                &Gongzhu,
                &state,
                20_000,
                200.0,
                None,
                &mut Rng::new(1),
                &NEVER,
            );
            let seat = state.to_act();
            let exact: Vec<f64> = stats
                .actions
                .iter()
                .map(|&a| {
                    let mut child = state;
                    child.apply(a);
                    max_n(&child)[seat]
                })
                .collect();
            let chosen = (0..stats.actions.len())
                .max_by(|&i, &j| stats.values[i].total_cmp(&stats.values[j]))
                .unwrap();
            let best = exact.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(exact[chosen], best, "{:?} {:?}", stats.values, exact);
        }
    }

    /// Exact max^n values: every seat picks the child best for itself (ties: the first).
    fn max_n(state: &TableState) -> Scores {
        if state.is_over() {
            return state.returns(&Gongzhu);
        }
        let seat = state.to_act();
        let mut best: Option<Scores> = None;
        for a in state.legal_action_vec(&Gongzhu) {
            let mut child = *state;
            child.apply(a);
            let v = max_n(&child);
            if best.is_none_or(|b| v[seat] > b[seat]) {
                best = Some(v);
            }
        }
        best.expect("a legal action")
    }
}
