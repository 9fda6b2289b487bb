//! The alpha-beta recursion over information sets. Four steps alternate:
//! our move (max over requests) -> its resolution (min over move observations) -> the opponent's
//! reply (min over capture observations) -> our sense (max over distinct partitions, min over
//! cells) -> our next move. A set's value is the worst case over its boards.

use std::time::Instant;

use crate::chess::{Board, Color, Move, MoveList, Square};
use crate::stop::Stop;

use super::eval::{evaluate, INFINITY, MATE, PIECE_VALUES};
use super::reply::worst_reply;
use super::rules::{
    capture_square, opponent_replies, own_sides_agree, resolve, union_of_move_actions,
    MoveObservation,
};
use super::sense::{min_size_choice, sense_choices};
use super::sketch_bounds::SketchBounds;
use super::transposition::{
    value_from_table, value_to_table, Entry, Flag, ReplyOutcome, ReplyTable, TranspositionTable,
};
use super::{SearchConfig, SearchStats, SenseMode};

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 256;
/// Exact-table capacity in sets.
const TRANSPOSITION_CAPACITY: usize = 4_000_000;
/// Reply-table capacity in boards (about 16 bytes each).
const REPLY_TABLE_CAPACITY: usize = 16_000_000;

/// Boards with their position keys, before they are made canonical.
type KeyedBoards = Vec<(u64, Board)>;

/// Boards deduplicated by position key and sorted by it: the canonical form of a set.
pub fn into_information_set(boards: Vec<Board>) -> (Vec<Board>, Vec<u64>) {
    canonical_set(boards.into_iter().map(|b| (b.zobrist(), b)).collect())
}

/// [`into_information_set`] for boards whose keys are already known.
fn canonical_set(mut keyed: KeyedBoards) -> (Vec<Board>, Vec<u64>) {
    keyed.sort_by_key(|(key, _)| *key);
    keyed.dedup_by_key(|(key, _)| *key);
    keyed.into_iter().unzip_boards()
}

trait UnzipBoards {
    fn unzip_boards(self) -> (Vec<Board>, Vec<u64>);
}

impl<I: Iterator<Item = (u64, Board)>> UnzipBoards for I {
    fn unzip_boards(self) -> (Vec<Board>, Vec<u64>) {
        let mut boards = Vec::new();
        let mut keys = Vec::new();
        for (key, board) in self {
            keys.push(key);
            boards.push(board);
        }
        (boards, keys)
    }
}

/// An our-move node's boards with their keys, and whether they share one own side (see
/// [`resolve`]).
struct OurSet<'a> {
    boards: &'a [Board],
    keys: &'a [u64],
    shared_side: bool,
}

impl<'a> OurSet<'a> {
    fn new(boards: &'a [Board], keys: &'a [u64], us: Color) -> Self {
        OurSet {
            boards,
            keys,
            shared_side: own_sides_agree(boards, us),
        }
    }
}

/// One search's state: the caches it owns and its statistics.
pub struct Searcher<'c> {
    us: Color,
    config: &'c SearchConfig,
    pub stats: SearchStats,
    transpositions: Option<TranspositionTable>,
    replies: Option<ReplyTable>,
    sketch: Option<SketchBounds>,
    deadline: Option<Instant>,
    stop: &'c Stop,
    /// The deadline passed or a stop was requested: every node returns at once, and nothing
    /// computed since is stored.
    pub aborted: bool,
}

impl<'c> Searcher<'c> {
    pub fn new(
        us: Color,
        config: &'c SearchConfig,
        seed: u64,
        deadline: Option<Instant>,
        stop: &'c Stop,
    ) -> Self {
        Searcher {
            us,
            config,
            stats: SearchStats::default(),
            transpositions: config
                .mode
                .uses_exact_table()
                .then(|| TranspositionTable::new(TRANSPOSITION_CAPACITY)),
            replies: config
                .mode
                .uses_exact_table()
                .then(|| ReplyTable::new(REPLY_TABLE_CAPACITY)),
            sketch: config.mode.uses_sketch().then(|| {
                SketchBounds::new(
                    config.k,
                    config.sketch_width,
                    config.sketch_depth,
                    config.table_size,
                    config.threshold,
                    seed,
                )
            }),
            deadline,
            stop,
            aborted: false,
        }
    }

    /// The exact value of playing `request` first from the root set, searched with an open window
    /// so every root move gets its true value (not just a bound).
    pub fn root_request_value(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        request: Option<Move>,
        depth: u32,
    ) -> i32 {
        let mut killer = None;
        let set = OurSet::new(boards, keys, self.us);
        self.request_value(&set, request, depth, 0, -INFINITY, INFINITY, &mut killer)
    }

    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.aborted = false;
    }

    fn tick(&mut self) {
        self.stats.nodes += 1;
        // A stop is one relaxed load, cheap enough for every node; the clock is read less often.
        if self.stop.requested() {
            self.aborted = true;
        } else if self.stats.nodes.is_multiple_of(CLOCK_INTERVAL) {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
    }

    /// A stored value of the set `id` usable in the window `(alpha, beta)`, and the best request
    /// stored with it (searched first when the value is not usable).
    fn probe_table(
        &mut self,
        id: u64,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (Option<i32>, Option<Option<Move>>) {
        let Some(entry) = self
            .transpositions
            .as_ref()
            .and_then(|t| t.probe(id, depth))
        else {
            return (None, None);
        };
        let value = value_from_table(entry.value, ply);
        let usable = match entry.flag {
            Flag::Exact => true,
            Flag::Lower => value >= beta,
            Flag::Upper => value <= alpha,
        };
        if usable {
            self.stats.table_hits += 1;
            return (Some(value), entry.best_request);
        }
        (None, entry.best_request)
    }

    fn store_in_table(
        &mut self,
        id: u64,
        depth: u32,
        ply: u32,
        value: i32,
        flag: Flag,
        best_request: Option<Option<Move>>,
    ) {
        if self.aborted {
            return;
        }
        if let Some(table) = &mut self.transpositions {
            let entry = Entry {
                value: value_to_table(value, ply),
                flag,
                best_request,
            };
            table.store(id, depth, entry);
        }
    }

    /// The exact table's id of a reply or sense node's set (0 when there is no table). Different
    /// requests often leave the same set (a blocked slide and the shorter move it becomes, every
    /// request that is a pass on all boards), and those nodes' whole subtrees repeat; the our-move
    /// table alone would still redo each one's expansion and sense partitions.
    fn node_id(&self, keys: &[u64], kind: NodeKind) -> u64 {
        if self.transpositions.is_none() {
            return 0;
        }
        crate::sketch::set_id(keys) ^ kind.salt()
    }

    fn leaf(&mut self, boards: &[Board]) -> i32 {
        self.stats.leaf_evaluations += boards.len() as u64;
        boards
            .iter()
            .map(|b| evaluate(b, self.us))
            .min()
            .unwrap_or(INFINITY)
    }

    /// An our-move node: `boards` (canonical, ours to move), `depth` our moves left.
    fn our_move(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.tick();
        if depth == 0 {
            return self.leaf(boards);
        }
        if self.aborted {
            return 0;
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let caching = self.transpositions.is_some() || self.sketch.is_some();
        let set_id = if caching {
            crate::sketch::set_id(keys)
        } else {
            0
        };

        let (stored, first_request) = self.probe_table(set_id, depth, ply, alpha, beta);
        if let Some(value) = stored {
            return value;
        }

        let mut clamp = (-INFINITY, INFINITY);
        let mut signature = None;
        if let Some(sketch) = &mut self.sketch {
            let bounds = sketch.bounds(depth, keys, &mut signature, ply, alpha, beta);
            self.stats.bounds_used += bounds.used;
            if let Some(upper) = bounds.upper {
                if upper <= alpha {
                    self.stats.bound_cutoffs += 1;
                    return upper;
                }
            }
            if let Some(lower) = bounds.lower {
                if lower >= beta {
                    self.stats.bound_cutoffs += 1;
                    return lower;
                }
            }
            let lower = bounds.lower.unwrap_or(-INFINITY);
            let upper = bounds.upper.unwrap_or(INFINITY);
            if lower <= upper {
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                clamp = (lower, upper);
            }
        }

        let requests = self.ordered_requests(boards, first_request);
        let (alpha_searched, beta_searched) = (alpha, beta);
        let mut best = -INFINITY;
        let mut best_request = None;
        let mut killer = None;
        let set = OurSet::new(boards, keys, self.us);
        for request in requests {
            let value = self.request_value(&set, request, depth, ply, alpha, beta, &mut killer);
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_request = Some(request);
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let best = best.clamp(clamp.0, clamp.1);
        let flag = Flag::of(best, alpha_searched, beta_searched);
        self.store_in_table(set_id, depth, ply, best, flag, best_request);
        if let Some(sketch) = &mut self.sketch {
            sketch.record(set_id, depth, keys, &mut signature, best, flag, ply);
        }
        best
    }

    /// Requests to try, best first: the stored best, captures by victim value, quiet moves, pass.
    fn ordered_requests(&self, boards: &[Board], first: Option<Option<Move>>) -> Vec<Option<Move>> {
        let mut requests: Vec<Option<Move>> = union_of_move_actions(boards, self.us)
            .into_iter()
            .map(Some)
            .collect();
        requests.push(None);
        let probe = &boards[0];
        let them = self.us.other();
        let score = |request: &Option<Move>| -> i32 {
            if Some(*request) == first {
                return i32::MAX;
            }
            match request {
                None => -1,
                Some(mv) => match probe.piece_at(mv.to) {
                    Some(victim) if victim.color == them => {
                        1 + PIECE_VALUES[victim.piece_type.index()]
                    }
                    _ => 0,
                },
            }
        };
        requests.sort_by_key(|r| std::cmp::Reverse(score(r)));
        requests
    }

    /// After `request` from `boards`: the min over move observations of the opponent-reply value.
    /// `killer` is the index of the board that refuted an earlier request of the same node.
    #[allow(clippy::too_many_arguments)]
    fn request_value(
        &mut self,
        set: &OurSet,
        request: Option<Move>,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        killer: &mut Option<usize>,
    ) -> i32 {
        if depth == 1 {
            return self.final_request_value(set, request, ply, alpha, killer);
        }
        self.tick();
        let them = self.us.other();
        // (observation, boards after our move, some board's opponent king was taken)
        let mut groups: Vec<(MoveObservation, KeyedBoards)> = Vec::new();
        for (board, &key) in set.boards.iter().zip(set.keys) {
            let observation = resolve(board, request, set.shared_side);
            let index = match groups.iter().position(|(o, _)| *o == observation) {
                Some(i) => i,
                None => {
                    groups.push((observation, Vec::new()));
                    groups.len() - 1
                }
            };
            let takes_king = observation.1.is_some() && observation.1 == board.king_square(them);
            if takes_king {
                // A won board; the rest of its observation group plays on.
                continue;
            }
            let mut child = board.clone();
            child.push(observation.0);
            groups[index]
                .1
                .push((child.zobrist_from(board, key), child));
        }
        let mut value = INFINITY;
        for (_, children) in groups {
            let group_value = if children.is_empty() {
                MATE - (ply as i32 + 1)
            } else {
                let (set, set_keys) = canonical_set(children);
                self.opponent_reply(&set, &set_keys, depth, ply + 1, alpha, beta.min(value))
            };
            value = value.min(group_value);
            if value <= alpha || self.aborted {
                break;
            }
        }
        value
    }

    /// The opponent to move on every board of `boards`: the min over capture observations of the
    /// value after our sense. Our king taken on any board ends the search with a loss.
    fn opponent_reply(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.tick();
        debug_assert!(depth >= 2, "depth 1 is scored by final_request_value");
        let id = self.node_id(keys, NodeKind::Reply);
        if let (Some(value), _) = self.probe_table(id, depth, ply, alpha, beta) {
            return value;
        }
        let loss = -MATE + ply as i32 + 1;
        let mut replies = MoveList::new();
        for board in boards {
            opponent_replies(board, &mut replies);
            if let Some(king) = board.king_square(self.us) {
                if replies.iter().any(|m| m.to == king) {
                    return loss;
                }
            }
        }
        let mut groups: Vec<(Option<Square>, KeyedBoards)> = Vec::new();
        for (board, &key) in boards.iter().zip(keys) {
            opponent_replies(board, &mut replies);
            for reply in std::iter::once(None).chain(replies.iter().copied().map(Some)) {
                let captured = reply.and_then(|m| capture_square(board, m));
                let mut child = board.clone();
                child.push(reply);
                let child = (child.zobrist_from(board, key), child);
                match groups.iter_mut().find(|(c, _)| *c == captured) {
                    Some((_, group)) => group.push(child),
                    None => groups.push((captured, vec![child])),
                }
            }
        }
        let mut value = INFINITY;
        for (_, children) in groups {
            let (set, set_keys) = canonical_set(children);
            let group_value =
                self.sense(&set, &set_keys, depth - 1, ply + 1, alpha, beta.min(value));
            value = value.min(group_value);
            if value <= alpha || self.aborted {
                break;
            }
        }
        let flag = Flag::of(value, alpha, beta);
        self.store_in_table(id, depth, ply, value, flag, None);
        value
    }

    /// `request` with one move left. The leaf after the reply is a min over every board, so
    /// splitting by move and capture observations cannot change it: the value is the worst reply
    /// over all boards, scored board by board with no grouping, the killer board first, stopping
    /// once it is at most `alpha` (fail-soft: the true value is at most the result).
    fn final_request_value(
        &mut self,
        set: &OurSet,
        request: Option<Move>,
        ply: u32,
        alpha: i32,
        killer: &mut Option<usize>,
    ) -> i32 {
        self.tick();
        let them = self.us.other();
        let loss = -MATE + ply as i32 + 2;
        // Every board's opponent king taken: a win.
        let mut value = MATE - (ply as i32 + 1);
        let mut replies = MoveList::new();
        let first = *killer;
        let order = first
            .into_iter()
            .chain((0..set.boards.len()).filter(|&i| Some(i) != first));
        for index in order {
            let board = &set.boards[index];
            let (taken, captured) = resolve(board, request, set.shared_side);
            if captured.is_some() && captured == board.king_square(them) {
                continue;
            }
            let mut child = board.clone();
            child.push(taken);
            let key = child.zobrist_from(board, set.keys[index]);
            let worst = match self.reply_outcome_cached(&child, key, &mut replies) {
                ReplyOutcome::TakesOurKing => {
                    *killer = Some(index);
                    return loss;
                }
                ReplyOutcome::WorstEvaluation(worst) => worst,
            };
            if worst < value {
                value = worst;
                *killer = Some(index);
            }
            if value <= alpha {
                break;
            }
        }
        value
    }

    fn reply_outcome_cached(
        &mut self,
        board: &Board,
        key: u64,
        replies: &mut MoveList,
    ) -> ReplyOutcome {
        if let Some(outcome) = self.replies.as_ref().and_then(|table| table.probe(key)) {
            self.stats.reply_table_hits += 1;
            return outcome;
        }
        let outcome = self.reply_outcome(board, replies);
        if let Some(table) = &mut self.replies {
            table.store(key, outcome);
        }
        outcome
    }

    fn reply_outcome(&mut self, board: &Board, replies: &mut MoveList) -> ReplyOutcome {
        let (outcome, evaluations) = worst_reply(board, self.us, self.config.leaf, replies);
        self.stats.leaf_evaluations += evaluations;
        outcome
    }

    /// Our sense before our next move (`depth` >= 1 moves left).
    fn sense(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if boards.len() == 1 {
            return self.our_move(boards, keys, depth, ply, alpha, beta);
        }
        self.tick();
        let id = self.node_id(keys, NodeKind::Sense);
        if let (Some(value), _) = self.probe_table(id, depth, ply, alpha, beta) {
            return value;
        }
        let choices = match self.config.sense_mode {
            SenseMode::MinSize => vec![min_size_choice(boards)],
            SenseMode::Search => sense_choices(boards),
        };
        let mut best = -INFINITY;
        for choice in &choices {
            let mut value = INFINITY;
            for cell in &choice.cells {
                let cell_boards: Vec<Board> = cell.iter().map(|&i| boards[i].clone()).collect();
                let cell_keys: Vec<u64> = cell.iter().map(|&i| keys[i]).collect();
                let cell_value = self.our_move(
                    &cell_boards,
                    &cell_keys,
                    depth,
                    ply,
                    alpha.max(best),
                    beta.min(value),
                );
                value = value.min(cell_value);
                if value <= alpha.max(best) || self.aborted {
                    break;
                }
            }
            best = best.max(value);
            if best >= beta || self.aborted {
                break;
            }
        }
        let flag = Flag::of(best, alpha, beta);
        self.store_in_table(id, depth, ply, best, flag, None);
        best
    }
}

/// The node kinds that share the exact table. One set has a different value as an our-move node
/// and as a sense node (the sense can only help), so their ids are kept apart.
#[derive(Clone, Copy)]
enum NodeKind {
    Reply,
    Sense,
}

impl NodeKind {
    fn salt(self) -> u64 {
        match self {
            NodeKind::Reply => 0x5EED_0F0F_2E91_7A31,
            NodeKind::Sense => 0x9C3B_44D1_05A6_E8F7,
        }
    }
}
