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

/// A node of either tree: its children, the tally of the playouts through it, and what its kind
/// keeps besides (`K`).
struct TreeNode<K> {
    children: Vec<(Action, u32)>,
    visits: u32,
    /// Sum of the returns of every seat over the playouts through this node.
    sum: [f64; MAX_PLAYERS],
    own: K,
}

impl<K> TreeNode<K> {
    fn with(own: K) -> Self {
        TreeNode {
            children: Vec::new(),
            visits: 0,
            sum: [0.0; MAX_PLAYERS],
            own,
        }
    }
}

/// A node of the one-deal tree ([`search`]): its state, and its actions not yet tried.
struct Position {
    state: TableState,
    untried: Vec<Action>,
}

type Node = TreeNode<Position>;

impl Node {
    fn new(game: &dyn TrickGame, state: TableState) -> Self {
        TreeNode::with(Position {
            untried: state.legal_action_vec(game),
            state,
        })
    }
}

/// A node of the shared tree ([`search_shared`]), a sequence of actions whichever deal it is
/// played in; it keeps how often it could have been chosen (it was legal in the deal played).
type SharedNode = TreeNode<u32>;

/// Whether a search that has run `done` iterations ends here: every [`POLL_EVERY`] iterations
/// it looks at the stop flag and the clock.
fn time_to_stop(done: u64, deadline: Option<Instant>, stop: &Stop) -> bool {
    done.is_multiple_of(POLL_EVERY)
        && done > 0
        && (stop.requested() || deadline.is_some_and(|d| Instant::now() >= d))
}

/// Adds a playout's `returns` to every node on its `path`.
fn back_up<K>(nodes: &mut [TreeNode<K>], path: &[usize], returns: &Scores) {
    for &id in path {
        let node = &mut nodes[id];
        node.visits += 1;
        for (s, r) in node.sum.iter_mut().zip(returns) {
            *s += r;
        }
    }
}

/// The statistics of a tree whose root (node 0) is `root`, after `iterations` playouts.
fn tree_stats<K>(
    game: &dyn TrickGame,
    root: &TableState,
    iterations: u64,
    nodes: &[TreeNode<K>],
) -> RootStats {
    let seat = root.to_act();
    root_stats(game, root, iterations, |action| {
        let &(_, id) = nodes[0].children.iter().find(|(b, _)| *b == action)?;
        let c = &nodes[id as usize];
        Some((c.visits, c.sum[seat]))
    })
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

/// How long a search runs and how widely it explores.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Iterations at most.
    pub iterations: u64,
    /// UCB's c, in the returns' units.
    pub exploration: f64,
    /// Stop at this instant, if it comes first.
    pub deadline: Option<Instant>,
}

/// Searches `root` within `budget`, stopping early when `stop` is raised (the statistics so far
/// are returned either way).
pub fn search(
    game: &dyn TrickGame,
    root: &TableState,
    budget: Budget,
    rng: &mut Rng,
    stop: &Stop,
) -> RootStats {
    let mut nodes = vec![Node::new(game, *root)];
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut done = 0;
    while done < budget.iterations {
        if time_to_stop(done, budget.deadline, stop) {
            break;
        }
        path.clear();
        let mut at = 0usize;
        path.push(at);
        loop {
            if nodes[at].own.state.is_over() {
                break;
            }
            if !nodes[at].own.untried.is_empty() {
                let k = rng.below(nodes[at].own.untried.len() as u64) as usize;
                let action = nodes[at].own.untried.swap_remove(k);
                let mut next = nodes[at].own.state;
                next.apply(action);
                let id = nodes.len() as u32;
                nodes.push(Node::new(game, next));
                nodes[at].children.push((action, id));
                at = id as usize;
                path.push(at);
                break;
            }
            let mover = nodes[at].own.state.to_act();
            let log_n = (nodes[at].visits.max(1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0usize);
            for &(_, child) in &nodes[at].children {
                let c = &nodes[child as usize];
                let n = c.visits.max(1) as f64;
                let score = c.sum[mover] / n + budget.exploration * (log_n / n).sqrt();
                if score > best.0 {
                    best = (score, child as usize);
                }
            }
            at = best.1;
            path.push(at);
        }
        let returns = playout(game, nodes[at].own.state, rng);
        back_up(&mut nodes, &path, &returns);
        done += 1;
    }
    tree_stats(game, root, done, &nodes)
}

/// The statistics of `root` after `iterations` playouts: per legal action, the visits of its
/// child and the sum of the returns of the root's seat through it (`None`: never tried).
fn root_stats(
    game: &dyn TrickGame,
    root: &TableState,
    iterations: u64,
    child: impl Fn(Action) -> Option<(u32, f64)>,
) -> RootStats {
    let actions = root.legal_action_vec(game);
    let (visits, values) = actions
        .iter()
        .map(|&a| child(a).map_or((0, 0.0), |(n, sum)| (n, sum / n.max(1) as f64)))
        .unzip();
    RootStats {
        actions,
        visits,
        values,
        iterations,
    }
}

/// Information-set MCTS over sampled deals (single-observer ISMCTS, Cowling et al. 2012): one
/// tree of action sequences from the root, each iteration playing in one deal drawn in proportion
/// to `weights`. A child is chosen among those legal in that deal, by UCB with its availability
/// count (how often it could have been chosen) in place of the parent's visits. Where searching
/// each deal apart lets every seat see every hand (and so plan plays no seat could), one tree
/// shares what all the deals say about each decision, as OpenSpiel's ISMCTS does.
pub fn search_shared(
    game: &dyn TrickGame,
    roots: &[TableState],
    weights: &[f64],
    budget: Budget,
    rng: &mut Rng,
    stop: &Stop,
) -> RootStats {
    let Budget {
        iterations,
        exploration,
        deadline,
    } = budget;
    let mut cumulative = Vec::with_capacity(weights.len());
    let mut running = 0.0;
    for &w in weights {
        running += w;
        cumulative.push(running);
    }
    let mut nodes = vec![SharedNode::with(0)];
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut done = 0;
    while done < iterations {
        if time_to_stop(done, deadline, stop) {
            break;
        }
        let u = rng.next_f64() * running;
        let deal = cumulative.partition_point(|&c| c <= u).min(roots.len() - 1);
        let mut state = roots[deal];
        descend_shared(game, &mut nodes, &mut state, &mut path, exploration, rng);
        let returns = playout(game, state, rng);
        back_up(&mut nodes, &path, &returns);
        done += 1;
    }
    tree_stats(game, &roots[0], done, &nodes)
}

/// One descent of the shared tree in the deal `state` (left where the descent ends): down by UCB
/// with availability among the children legal in this deal, to a new child or the game's end.
/// `path` is the nodes passed.
fn descend_shared(
    game: &dyn TrickGame,
    nodes: &mut Vec<SharedNode>,
    state: &mut TableState,
    path: &mut Vec<usize>,
    exploration: f64,
    rng: &mut Rng,
) {
    path.clear();
    let mut at = 0usize;
    path.push(at);
    let mut legal = [0; MAX_LEGAL];
    while !state.is_over() {
        let n = state.legal_actions(game, &mut legal);
        let legal = &legal[..n];
        let untried: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| !nodes[at].children.iter().any(|(b, _)| b == a))
            .collect();
        if !untried.is_empty() {
            let action = untried[rng.below(untried.len() as u64) as usize];
            let id = nodes.len() as u32;
            nodes.push(SharedNode::with(0));
            nodes[at].children.push((action, id));
            state.apply(action);
            at = id as usize;
            path.push(at);
            break;
        }
        let mover = state.to_act();
        let mut best = (f64::NEG_INFINITY, 0usize, 0 as Action);
        for k in 0..nodes[at].children.len() {
            let (action, child) = nodes[at].children[k];
            if !legal.contains(&action) {
                continue;
            }
            let c = &mut nodes[child as usize];
            // `own`: the availability count, how often the child could have been chosen.
            c.own += 1;
            let visits = c.visits.max(1) as f64;
            let score =
                c.sum[mover] / visits + exploration * ((c.own.max(1) as f64).ln() / visits).sqrt();
            if score > best.0 {
                best = (score, child as usize, action);
            }
        }
        state.apply(best.2);
        at = best.1;
        path.push(at);
    }
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
            let budget = Budget {
                iterations: 20_000,
                exploration: 200.0,
                deadline: None,
            };
            let stats = search(&Gongzhu, &state, budget, &mut Rng::new(1), &NEVER);
            // The information-set search over this one deal is the same search.
            let shared =
                search_shared(&Gongzhu, &[state], &[1.0], budget, &mut Rng::new(1), &NEVER);
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
            let most_visited = (0..shared.actions.len())
                .max_by_key(|&i| shared.visits[i])
                .unwrap();
            assert_eq!(exact[most_visited], best, "{:?} {:?}", shared.visits, exact);
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
