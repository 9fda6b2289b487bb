//! Tabular game trees: every state of a small collaborative game, stored once, breadth first.
//!
//! The games of paper 002 are small enough to enumerate (at most about two million states), and
//! every algorithm here (evaluation, CFR, JPS, brute force) is a sweep over all states.
//! Breadth-first order makes those sweeps linear: a parent comes before its children (forward
//! sweeps for reach), children after their parent (backward sweeps for values), and the children
//! of a state are contiguous, so `v(ha)` for every action `a` is one slice.
//!
//! Payoffs are common: all players of these games share one reward, so a state has one value.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::stop::Stop;

use super::error::JpsError;

/// No tree is built with more states than this (the largest game of Table 1 has 2,129,793).
pub const MAX_STATES: u64 = 4_000_000;

/// Marks "no node / no information set" in the index arrays.
pub(crate) const NONE: u32 = u32::MAX;
const CHANCE: u8 = u8::MAX;
const TERMINAL: u8 = u8::MAX - 1;

/// Who acts at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    Chance,
    Player(u8),
    Terminal,
}

/// What the rules say happens at a state; built by a game family, consumed by [`build`].
pub(crate) enum Turn {
    /// Outcomes as (action id, probability).
    Chance(Vec<(u16, f64)>),
    /// The player to move and its legal action ids, ascending.
    Player {
        player: u8,
        actions: Vec<u16>,
    },
    Terminal {
        utility: f64,
    },
}

/// The information-set key in a game whose chance move deals each of the two players a private
/// card (`deal`: both cards, unset before the deal): the player to move, its own card and what
/// both players see (`public`).
pub(crate) fn private_card_key(deal: Option<(u32, u32)>, player: u8, public: u128) -> u128 {
    let (first, second) = deal.unwrap_or((0, 0));
    let own = if player == 0 { first } else { second };
    1 << 120 | (player as u128) << 96 | (own as u128) << 64 | public
}

/// A game family's rules, as the tree builder needs them.
pub(crate) trait Rules {
    type State: Clone;
    /// The canonical game name (`comm:l=3`, ...).
    fn name(&self) -> String;
    /// The number of states of the whole tree, known before building (bounds the allocation).
    fn num_states(&self) -> u64;
    fn num_players(&self) -> u8 {
        2
    }
    fn num_distinct_actions(&self) -> u16;
    fn max_chance_outcomes(&self) -> u16;
    fn root(&self) -> Self::State;
    fn turn(&self, state: &Self::State) -> Turn;
    fn apply(&self, state: &Self::State, action: u16) -> Self::State;
    /// A key that two states share exactly when the player to move cannot tell them apart.
    fn infoset_key(&self, state: &Self::State, player: u8) -> u128;
    /// The key the paper's code gives a terminal state; only used to count Table 1's
    /// information sets (see [`GameTree::paper_infosets`]).
    fn terminal_key(&self, state: &Self::State) -> u128;
    /// What the player to move knows, as text (OpenSpiel's information-state string).
    fn infoset_label(&self, state: &Self::State, player: u8) -> String;
    fn action_label(&self, actor: Actor, action: u16) -> String;
    /// What `player` sees of the deal `action` (chance's only move in these games, at the root):
    /// its own private value, e.g. `s5` or `d1`; empty when it is dealt nothing.
    fn deal_view(&self, action: u16, player: u8) -> String;
}

/// An information set: the decision states one player cannot tell apart.
#[derive(Clone, Debug)]
pub struct InfoSet {
    pub player: u8,
    /// Number of actions taken before its states (the root has depth 0); public in these games.
    pub depth: u16,
    /// Where its action probabilities start in a [`JointPolicy`].
    pub offset: u32,
    pub num_actions: u16,
    states_start: u32,
    states_end: u32,
}

/// A game, enumerated: the states, who acts, the information sets, and the payoffs.
#[derive(Debug)]
pub struct GameTree {
    name: String,
    num_players: u8,
    parent: Vec<u32>,
    first_child: Vec<u32>,
    num_children: Vec<u16>,
    action: Vec<u16>,
    actor: Vec<u8>,
    depth: Vec<u16>,
    /// Decision states: their information set; chance states: where their outcome
    /// probabilities start in `chance_probs`.
    table: Vec<u32>,
    utility: Vec<f64>,
    chance_probs: Vec<f64>,
    internal: Vec<u32>,
    /// Depth-first preorder number of each state, and the size of its subtree: `g` is an
    /// ancestor of `h` (or `h` itself) exactly when `preorder[g] <= preorder[h] <
    /// preorder[g] + subtree[g]`.
    preorder: Vec<u32>,
    subtree: Vec<u32>,
    infosets: Vec<InfoSet>,
    infoset_states: Vec<u32>,
    infoset_labels: Vec<String>,
    /// `succ[succ_start[slot]..succ_start[slot + 1]]`: the decision information sets reached by
    /// the action of policy slot `slot` (the paper's succ(I, a)), in order of first appearance.
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    paper_infosets: usize,
    num_distinct_actions: u16,
    max_chance_outcomes: u16,
    max_depth: u16,
    chance_labels: Vec<String>,
    player_labels: Vec<Vec<String>>,
    /// `deal_views[player][deal action]`.
    deal_views: Vec<Vec<String>>,
}

/// Builds the whole tree of `rules`, breadth first. The size is checked against
/// [`MAX_STATES`] before anything is allocated; `stop` is polled every 65,536 states.
pub(crate) fn build<R: Rules>(rules: &R, stop: &Stop) -> Result<GameTree, JpsError> {
    let expected = rules.num_states();
    if expected > MAX_STATES {
        return Err(JpsError::OutOfRange(format!(
            "{} has {expected} states; at most {MAX_STATES} are supported",
            rules.name()
        )));
    }
    let mut nodes = Expansion::of(rules, expected, stop)?;
    let grouped = group_infoset_states(&nodes.tree);
    for (k, info) in nodes.tree.infosets.iter_mut().enumerate() {
        info.states_start = grouped.starts[k];
        info.states_end = grouped.starts[k + 1];
    }
    let mut tree = nodes.tree;
    tree.infoset_states = grouped.states;
    (tree.succ_start, tree.succ) = successors(&tree, nodes.slots);
    (tree.preorder, tree.subtree) = preorder_numbers(&tree);
    tree.max_depth = tree.depth.iter().copied().max().unwrap_or(0);
    tree.paper_infosets =
        nodes.chance_nodes.min(1) + tree.infosets.len() + nodes.terminal_keys.len();
    Ok(tree)
}

/// The nodes of a game's tree numbered breadth first, with their information sets: what
/// [`build`] derives the rest of a [`GameTree`] from.
struct Expansion {
    /// The tree so far: its nodes and information sets, and the labels; [`build`] adds the rest.
    tree: GameTree,
    infoset_of_key: HashMap<u128, u32>,
    terminal_keys: HashSet<u128>,
    chance_nodes: usize,
    /// Policy slots handed out so far (one per action of each information set).
    slots: u32,
}

impl Expansion {
    /// Expands every state of `rules` (which announce `expected` states), checking the count.
    fn of<R: Rules>(rules: &R, expected: u64, stop: &Stop) -> Result<Self, JpsError> {
        let n = expected as usize;
        let labels = Labels::of(rules);
        let tree = GameTree {
            name: rules.name(),
            num_players: rules.num_players(),
            parent: Vec::with_capacity(n),
            first_child: Vec::with_capacity(n),
            num_children: Vec::with_capacity(n),
            action: Vec::with_capacity(n),
            actor: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            table: Vec::with_capacity(n),
            utility: Vec::with_capacity(n),
            chance_probs: Vec::new(),
            internal: Vec::new(),
            preorder: Vec::new(),
            subtree: Vec::new(),
            infosets: Vec::new(),
            infoset_states: Vec::new(),
            infoset_labels: Vec::new(),
            succ_start: Vec::new(),
            succ: Vec::new(),
            paper_infosets: 0,
            num_distinct_actions: rules.num_distinct_actions(),
            max_chance_outcomes: rules.max_chance_outcomes(),
            max_depth: 0,
            chance_labels: labels.chance,
            player_labels: labels.player,
            deal_views: labels.deal_views,
        };
        let mut nodes = Expansion {
            tree,
            infoset_of_key: HashMap::new(),
            terminal_keys: HashSet::new(),
            chance_nodes: 0,
            slots: 0,
        };
        // The queue holds the game states of the nodes already numbered but not yet expanded;
        // breadth-first order makes the numbering and the expansion order the same.
        let mut queue: VecDeque<R::State> = VecDeque::new();
        queue.push_back(rules.root());
        nodes.tree.parent.push(NONE);
        nodes.tree.action.push(0);
        nodes.tree.depth.push(0);
        let mut id = 0usize;
        while let Some(state) = queue.pop_front() {
            if id & 0xFFFF == 0 && stop.requested() {
                return Err(JpsError::Interrupted);
            }
            if let Some(actions) = nodes.number(rules, &state, id)? {
                let here = nodes.tree.depth[id];
                for &a in &actions {
                    nodes.tree.parent.push(id as u32);
                    nodes.tree.action.push(a);
                    nodes.tree.depth.push(here + 1);
                    queue.push_back(rules.apply(&state, a));
                }
            }
            id += 1;
            if nodes.tree.parent.len() as u64 > expected {
                return Err(JpsError::UnknownGame(format!(
                    "{}: the tree has more than the {expected} states its rules announce",
                    rules.name()
                )));
            }
        }
        if id as u64 != expected {
            return Err(JpsError::UnknownGame(format!(
                "{}: built {id} states where the rules announce {expected}",
                rules.name()
            )));
        }
        Ok(nodes)
    }

    /// Records node `id` (game state `state`): its actor, table entry and children's place;
    /// the actions to its children, or `None` at a terminal.
    fn number<R: Rules>(
        &mut self,
        rules: &R,
        state: &R::State,
        id: usize,
    ) -> Result<Option<Vec<u16>>, JpsError> {
        let children_at = self.tree.parent.len() as u32;
        let actions: Vec<u16> = match rules.turn(state) {
            Turn::Chance(outcomes) => {
                self.chance_nodes += 1;
                self.tree.actor.push(CHANCE);
                self.tree.table.push(self.tree.chance_probs.len() as u32);
                self.tree
                    .chance_probs
                    .extend(outcomes.iter().map(|&(_, p)| p));
                outcomes.into_iter().map(|(a, _)| a).collect()
            }
            Turn::Player { player, actions } => {
                let info =
                    self.infoset(rules, state, player, actions.len(), self.tree.depth[id])?;
                self.tree.actor.push(player);
                self.tree.table.push(info);
                actions
            }
            Turn::Terminal { utility: u } => {
                self.terminal_keys.insert(rules.terminal_key(state));
                self.tree.actor.push(TERMINAL);
                self.tree.table.push(NONE);
                self.tree.utility.push(u);
                self.tree.first_child.push(NONE);
                self.tree.num_children.push(0);
                return Ok(None);
            }
        };
        self.tree.utility.push(0.0);
        self.tree.first_child.push(children_at);
        self.tree.num_children.push(actions.len() as u16);
        self.tree.internal.push(id as u32);
        Ok(Some(actions))
    }

    /// The information set of `player`'s decision at `state` (`actions` actions, `here` deep),
    /// made on first sight.
    fn infoset<R: Rules>(
        &mut self,
        rules: &R,
        state: &R::State,
        player: u8,
        actions: usize,
        here: u16,
    ) -> Result<u32, JpsError> {
        let key = rules.infoset_key(state, player);
        let next = self.tree.infosets.len() as u32;
        let info = *self.infoset_of_key.entry(key).or_insert(next);
        if info == next {
            self.tree.infosets.push(InfoSet {
                player,
                depth: here,
                offset: self.slots,
                num_actions: actions as u16,
                states_start: 0,
                states_end: 0,
            });
            self.tree
                .infoset_labels
                .push(rules.infoset_label(state, player));
            self.slots += actions as u32;
            return Ok(info);
        }
        let known = &self.tree.infosets[info as usize];
        if known.num_actions as usize != actions || known.player != player || known.depth != here {
            // A rules bug: two states of one information set must look the same.
            return Err(JpsError::UnknownGame(format!(
                "{}: information set {:?} mixes states with different actions",
                rules.name(),
                self.tree.infoset_labels[info as usize]
            )));
        }
        Ok(info)
    }
}

/// The decision states of each information set of `tree`, together (a counting sort, which keeps
/// breadth-first order).
fn group_infoset_states(tree: &GameTree) -> InfosetStates {
    let decisions = || {
        tree.internal
            .iter()
            .copied()
            .filter(|&i| tree.actor[i as usize] != CHANCE)
    };
    let mut starts = vec![0u32; tree.infosets.len() + 1];
    for i in decisions() {
        starts[tree.table[i as usize] as usize + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut fill = starts.clone();
    let mut states = vec![0u32; starts[tree.infosets.len()] as usize];
    for i in decisions() {
        let k = tree.table[i as usize] as usize;
        states[fill[k] as usize] = i;
        fill[k] += 1;
    }
    InfosetStates { starts, states }
}

/// The decision states of every information set, grouped: set `k`'s are
/// `states[starts[k]..starts[k + 1]]`.
struct InfosetStates {
    starts: Vec<u32>,
    states: Vec<u32>,
}

/// `succ(I, a)`: the decision information sets of the children `ha`, `h` in I, for every policy
/// slot `(I, a)` of the `slots`; as `(succ_start, succ)`.
fn successors(tree: &GameTree, slots: u32) -> (Vec<u32>, Vec<u32>) {
    let (infosets, infoset_states) = (&tree.infosets, &tree.infoset_states);
    let mut succ_start = Vec::with_capacity(slots as usize + 1);
    let mut succ = Vec::new();
    let mut seen = vec![NONE; infosets.len()];
    for info in infosets.iter() {
        let states = &infoset_states[info.states_start as usize..info.states_end as usize];
        for a in 0..info.num_actions as u32 {
            succ_start.push(succ.len() as u32);
            let stamp = info.offset + a;
            for &h in states {
                let child = (tree.first_child[h as usize] + a) as usize;
                let next = tree.actor[child];
                if next != CHANCE && next != TERMINAL {
                    let j = tree.table[child];
                    if seen[j as usize] != stamp {
                        seen[j as usize] = stamp;
                        succ.push(j);
                    }
                }
            }
        }
        debug_assert_eq!(
            succ_start.len() as u32,
            info.offset + info.num_actions as u32
        );
    }
    succ_start.push(succ.len() as u32);
    (succ_start, succ)
}

/// Subtree sizes bottom up, then preorder numbers top down (children in action order); as
/// `(preorder, subtree)`.
fn preorder_numbers(tree: &GameTree) -> (Vec<u32>, Vec<u32>) {
    let n = tree.actor.len();
    let children = |i: u32| {
        let f = tree.first_child[i as usize] as usize;
        f..f + tree.num_children[i as usize] as usize
    };
    let mut subtree = vec![1u32; n];
    for &i in tree.internal.iter().rev() {
        let size: u32 = subtree[children(i)].iter().sum();
        subtree[i as usize] += size;
    }
    let mut preorder = vec![0u32; n];
    for &i in &tree.internal {
        let mut next = preorder[i as usize] + 1;
        for c in children(i) {
            preorder[c] = next;
            next += subtree[c];
        }
    }
    (preorder, subtree)
}

/// The labels of a game's actions and deals, as its rules write them.
struct Labels {
    chance: Vec<String>,
    player: Vec<Vec<String>>,
    deal_views: Vec<Vec<String>>,
}

impl Labels {
    fn of<R: Rules>(rules: &R) -> Self {
        let num_players = rules.num_players();
        let chance = (0..rules.max_chance_outcomes())
            .map(|a| rules.action_label(Actor::Chance, a))
            .collect();
        let player = (0..num_players)
            .map(|p| {
                (0..rules.num_distinct_actions())
                    .map(|a| rules.action_label(Actor::Player(p), a))
                    .collect()
            })
            .collect();
        let deal_views = (0..num_players)
            .map(|p| {
                (0..rules.max_chance_outcomes())
                    .map(|a| rules.deal_view(a, p))
                    .collect()
            })
            .collect();
        Labels {
            chance,
            player,
            deal_views,
        }
    }
}

impl GameTree {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn num_players(&self) -> u8 {
        self.num_players
    }

    /// Every state: chance, decision and terminal (Table 1's #States).
    pub fn num_states(&self) -> usize {
        self.parent.len()
    }

    /// Information sets where a player decides: what the algorithms work on.
    pub fn num_infosets(&self) -> usize {
        self.infosets.len()
    }

    /// Table 1's #Infosets: the distinct information-set keys of the paper's code. The root
    /// chance node counts once, each decision information set once, and terminal states are
    /// grouped by the key the paper's code gives them (see each game family).
    pub fn paper_infosets(&self) -> usize {
        self.paper_infosets
    }

    /// Number of action probabilities in a policy (the sum of |A(I)| over information sets).
    pub fn num_slots(&self) -> usize {
        self.succ_start.len() - 1
    }

    pub fn num_distinct_actions(&self) -> u16 {
        self.num_distinct_actions
    }

    pub fn max_chance_outcomes(&self) -> u16 {
        self.max_chance_outcomes
    }

    /// Depth of the deepest state (actions from the root, chance included).
    pub fn max_depth(&self) -> u16 {
        self.max_depth
    }

    pub fn infosets(&self) -> &[InfoSet] {
        &self.infosets
    }

    pub fn infoset(&self, i: u32) -> &InfoSet {
        &self.infosets[i as usize]
    }

    pub fn infoset_label(&self, i: u32) -> &str {
        &self.infoset_labels[i as usize]
    }

    /// The decision states of information set `i`, in breadth-first order.
    pub fn states(&self, i: u32) -> &[u32] {
        let info = &self.infosets[i as usize];
        &self.infoset_states[info.states_start as usize..info.states_end as usize]
    }

    /// succ(I, a): the decision information sets entered right after `a` is played in `I`.
    pub fn succ(&self, i: u32, a: u16) -> &[u32] {
        let slot = (self.infosets[i as usize].offset + a as u32) as usize;
        &self.succ[self.succ_start[slot] as usize..self.succ_start[slot + 1] as usize]
    }

    /// The states with children, in breadth-first order.
    pub fn internal(&self) -> &[u32] {
        &self.internal
    }

    pub fn actor(&self, node: u32) -> Actor {
        match self.actor[node as usize] {
            CHANCE => Actor::Chance,
            TERMINAL => Actor::Terminal,
            p => Actor::Player(p),
        }
    }

    pub fn parent(&self, node: u32) -> Option<u32> {
        let p = self.parent[node as usize];
        (p != NONE).then_some(p)
    }

    /// The game's id of the action that led to `node` (0 for the root).
    pub fn action(&self, node: u32) -> u16 {
        self.action[node as usize]
    }

    pub fn depth(&self, node: u32) -> u16 {
        self.depth[node as usize]
    }

    pub fn children(&self, node: u32) -> std::ops::Range<u32> {
        let n = self.num_children[node as usize] as u32;
        if n == 0 {
            return 0..0;
        }
        let first = self.first_child[node as usize];
        first..first + n
    }

    /// The decision information set of a decision state.
    pub fn infoset_of(&self, node: u32) -> Option<u32> {
        match self.actor(node) {
            Actor::Player(_) => Some(self.table[node as usize]),
            _ => None,
        }
    }

    /// The common payoff of a terminal state (0 elsewhere).
    pub fn utility(&self, node: u32) -> f64 {
        self.utility[node as usize]
    }

    pub fn utilities(&self) -> &[f64] {
        &self.utility
    }

    /// Outcome probabilities of a chance state.
    pub fn chance_probs(&self, node: u32) -> &[f64] {
        let start = self.table[node as usize] as usize;
        &self.chance_probs[start..start + self.num_children[node as usize] as usize]
    }

    pub fn action_label(&self, actor: Actor, action: u16) -> Option<&str> {
        match actor {
            Actor::Chance => self.chance_labels.get(action as usize),
            Actor::Player(p) => self
                .player_labels
                .get(p as usize)
                .and_then(|l| l.get(action as usize)),
            Actor::Terminal => None,
        }
        .map(String::as_str)
    }

    /// What `player` sees of the deal `action` at the root (its private value).
    pub fn deal_view(&self, player: u8, action: u16) -> Option<&str> {
        self.deal_views
            .get(player as usize)
            .and_then(|v| v.get(action as usize))
            .map(String::as_str)
    }

    /// The probabilities with which `node`'s children are played under `policy`.
    #[inline]
    pub(crate) fn edge_probs<'a>(&'a self, node: u32, policy: &'a [f64]) -> &'a [f64] {
        let n = self.num_children[node as usize] as usize;
        let t = self.table[node as usize] as usize;
        if self.actor[node as usize] == CHANCE {
            &self.chance_probs[t..t + n]
        } else {
            let start = self.infosets[t].offset as usize;
            &policy[start..start + n]
        }
    }

    /// Whether `node` is `ancestor` or lies below it.
    #[inline]
    pub fn is_below(&self, node: u32, ancestor: u32) -> bool {
        let p = self.preorder[node as usize];
        let a = self.preorder[ancestor as usize];
        p >= a && p < a + self.subtree[ancestor as usize]
    }

    #[inline]
    pub(crate) fn first_child(&self, node: u32) -> u32 {
        self.first_child[node as usize]
    }

    #[inline]
    pub(crate) fn raw_parent(&self, node: u32) -> u32 {
        self.parent[node as usize]
    }

    #[inline]
    pub(crate) fn raw_table(&self, node: u32) -> u32 {
        self.table[node as usize]
    }

    #[inline]
    pub(crate) fn is_chance(&self, node: u32) -> bool {
        self.actor[node as usize] == CHANCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::testing::game;

    const SMALL: [&str; 4] = [
        "comm:l=3",
        "mini_hanabi",
        "simple_bidding:n=4",
        "mini_bridge:n=3",
    ];

    #[test]
    fn states_are_breadth_first_with_contiguous_children() {
        for name in SMALL {
            let tree = game(name);
            let mut expected_next = 1;
            for &i in tree.internal() {
                let children = tree.children(i);
                assert_eq!(children.start, expected_next, "{name}: children of {i}");
                expected_next = children.end;
                for c in children {
                    assert_eq!(tree.parent(c), Some(i));
                    assert_eq!(tree.depth(c), tree.depth(i) + 1);
                }
                if tree.actor(i) == Actor::Chance {
                    let total: f64 = tree.chance_probs(i).iter().sum();
                    assert!((total - 1.0).abs() < 1e-12);
                }
            }
            assert_eq!(expected_next as usize, tree.num_states());
        }
    }

    #[test]
    fn information_sets_hold_states_of_one_player_depth_and_action_set() {
        for name in SMALL {
            let tree = game(name);
            for i in 0..tree.num_infosets() as u32 {
                let info = tree.infoset(i);
                let states = tree.states(i);
                assert!(!states.is_empty());
                let actions = |h: u32| tree.children(h).map(|c| tree.action(c)).collect::<Vec<_>>();
                for &h in states {
                    assert_eq!(tree.actor(h), Actor::Player(info.player));
                    assert_eq!(tree.depth(h), info.depth);
                    assert_eq!(tree.infoset_of(h), Some(i));
                    assert_eq!(
                        actions(h),
                        actions(states[0]),
                        "{name} {}",
                        tree.infoset_label(i)
                    );
                }
            }
        }
    }

    #[test]
    fn succ_lists_the_information_sets_entered_after_an_action() {
        let tree = game("mini_bridge:n=3");
        for i in 0..tree.num_infosets() as u32 {
            for a in 0..tree.infoset(i).num_actions {
                let mut expected: Vec<u32> = tree
                    .states(i)
                    .iter()
                    .filter_map(|&h| tree.infoset_of(tree.first_child(h) + a as u32))
                    .collect();
                expected.dedup();
                let mut got = tree.succ(i, a).to_vec();
                got.sort_unstable();
                expected.sort_unstable();
                expected.dedup();
                assert_eq!(got, expected);
            }
        }
    }

    #[test]
    fn subtree_intervals_agree_with_parent_links() {
        let tree = game("simple_bidding:n=4");
        for h in 0..tree.num_states() as u32 {
            let mut ancestors = vec![h];
            let mut node = h;
            while let Some(p) = tree.parent(node) {
                ancestors.push(p);
                node = p;
            }
            for g in 0..tree.num_states() as u32 {
                assert_eq!(tree.is_below(h, g), ancestors.contains(&g), "{h} below {g}");
            }
        }
    }
}
