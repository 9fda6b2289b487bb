//! The alpha-beta recursion over information sets. Four steps alternate:
//! our move (max over requests) -> its resolution (min over move observations) -> the opponent's
//! reply (min over capture observations) -> our sense (max over distinct partitions, min over
//! cells) -> our next move. A set's value is the worst case over its boards.
//!
//! Three kinds of node hold a set: our move, the opponent's reply (after our move's resolution)
//! and our sense. Each looks its set up in the exact table (exact modes) and, with at least
//! `sketch_min_depth` moves left, in the sketch table (sketch modes) before searching it, and
//! records its value after. One search's worker threads share the tables (`tables`).

mod last_move;
mod refutation;

use std::time::Instant;

use crate::chess::{Board, Color, Move, MoveList, Square};
use crate::sketch::BottomKMinHash;
use crate::stop::{Limits, Stop};
use crate::uci::{engine_position, Score, SearchLimit, UciEngine, UciError};

use super::eval::{evaluate, INFINITY, MATE, PIECE_VALUES};
use super::reply::worst_reply;
use super::reply_tables::{ReplyTables, WorkerReplies};
use super::rules::{
    capture_square, opponent_replies, own_sides_agree, resolve, union_of_move_actions,
    MoveObservation,
};
use super::sense::{finest_sense_choices, min_size_choice, sense_choices};
use super::sketch_bounds::{frequency_key, Searched, SketchWriter};
use super::tables::Tables;
use super::transposition::{set_key, value_from_table, value_to_table, Entry, Flag, ReplyOutcome};
use super::{LeafMode, RbcSearchConfig, SearchStats, SenseMode};
use last_move::LastMoves;
use refutation::Lineage;

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 256;

/// Boards with their position keys, before they are made canonical.
type KeyedBoards = Vec<(u64, Board)>;

/// Boards with their position keys and where each came from, before they are made canonical.
type TracedBoards<T> = Vec<(u64, Board, T)>;

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

/// [`canonical_set`] keeping each board's origin (the first one's, for a board reached twice).
///
/// Sorts (key, position) pairs rather than the boards themselves: the no-capture group of a reply
/// node holds tens of thousands of boards at depth 4, and a stable sort of whole boards moved them
/// through a scratch buffer (a twentieth of the search's time).
fn canonical_traced<T: Copy>(traced: TracedBoards<T>) -> (Vec<Board>, Vec<u64>, Vec<T>) {
    let mut order: Vec<(u64, u32)> = traced
        .iter()
        .enumerate()
        .map(|(position, (key, _, _))| (*key, position as u32))
        .collect();
    // Ties broken by position, so the first board reached keeps its origin.
    order.sort_unstable();
    order.dedup_by_key(|(key, _)| *key);
    let mut boards = Vec::with_capacity(order.len());
    let mut keys = Vec::with_capacity(order.len());
    let mut origins = Vec::with_capacity(order.len());
    for (key, position) in order {
        let (_, board, origin) = &traced[position as usize];
        keys.push(key);
        boards.push(board.clone());
        origins.push(*origin);
    }
    (boards, keys, origins)
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

/// One worker's state in a search: the shared tables it reads and fills, its own statistics,
/// and its engine (the `uci` leaf).
pub struct TreeSearch<'s> {
    us: Color,
    config: &'s RbcSearchConfig,
    tables: &'s Tables,
    /// The searcher's count of searches, stamped on every table entry stored or read.
    generation: u32,
    pub stats: SearchStats,
    deadline: Option<Instant>,
    stop: &'s Stop,
    /// The deadline passed, a stop was requested or the engine failed: every node returns at
    /// once, and nothing computed since is stored.
    pub aborted: bool,
    /// This worker's writes to the sketch table (sketch modes).
    sketch_writer: SketchWriter,
    /// The `uci` leaf's engine, lent by the searcher for this worker's part of the search.
    pub engine: Option<UciEngine>,
    /// Why the engine failed, if it did (the search then fails with this error).
    pub engine_error: Option<UciError>,
    /// The board (two plies down) that refuted the last request of the our-move node with two
    /// moves left being searched, left by the sense node below it (`refutation`).
    culprit: Option<Lineage>,
    /// This worker's reply table (static leaves in the exact modes), lent for its life.
    replies: Option<WorkerReplies>,
}

/// A node's sketch bookkeeping between looking it up and recording its value.
struct SketchProbe {
    key: u64,
    class: u64,
    signature: Option<BottomKMinHash>,
}

/// What the sketch table says about a node before it is searched.
enum SketchOutcome {
    /// Its value (an exact match, or a bound that cuts the window).
    Value(i32),
    /// The window narrowed by the bounds found, and the range the value is clamped to.
    Window {
        alpha: i32,
        beta: i32,
        clamp: (i32, i32),
    },
}

/// A node past its prologue ([`TreeSearch::open_node`]), to be searched in its window and
/// closed by [`TreeSearch::close_node`].
struct OpenNode {
    /// The set's id in the tables (0 when no table applies).
    id: u64,
    /// The best request stored with the set (our-move nodes search it first).
    first_request: Option<Option<Move>>,
    /// The window narrowed by the sketch bounds found; the node's flag is read against it.
    alpha: i32,
    beta: i32,
    /// The range the sketch bounds clamp the value to.
    clamp: (i32, i32),
    probe: Option<SketchProbe>,
}

impl Drop for TreeSearch<'_> {
    /// Gives the worker's reply table back to the searcher, for the next iteration or search.
    fn drop(&mut self) {
        if let (Some(tables), Some(table)) = (&self.tables.worker_replies, self.replies.take()) {
            tables.give_back(table);
        }
    }
}

impl<'s> TreeSearch<'s> {
    pub fn new(
        us: Color,
        config: &'s RbcSearchConfig,
        tables: &'s Tables,
        generation: u32,
        deadline: Option<Instant>,
        stop: &'s Stop,
    ) -> Self {
        TreeSearch {
            us,
            config,
            tables,
            generation,
            stats: SearchStats::default(),
            deadline,
            stop,
            aborted: false,
            sketch_writer: SketchWriter::new(config.k, config.seed),
            engine: None,
            engine_error: None,
            culprit: None,
            replies: tables.worker_replies.as_ref().map(ReplyTables::lend),
        }
    }

    /// The value of playing `request` first from the root set, and whether it is exact. Without a
    /// `floor` the window is open, so the value is exact (not just a bound). With one, a
    /// null-window search first asks whether the value reaches `floor`: if not, the result is an
    /// upper bound below it; if so, the request is searched again with the window open above.
    pub fn root_request_value(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        request: Option<Move>,
        depth: u32,
        floor: Option<i32>,
    ) -> (i32, bool) {
        let mut killer = None;
        let set = OurSet::new(boards, keys, self.us);
        let mut search = |tree: &mut Self, alpha, beta| {
            tree.request_value(&set, request, depth, 0, alpha, beta, &mut killer)
        };
        let (value, exact) = match floor.filter(|&f| f > -INFINITY + 1) {
            None => (search(self, -INFINITY, INFINITY), true),
            Some(floor) => match search(self, floor - 1, floor) {
                below if below < floor => (below, false),
                _ => {
                    let value = search(self, floor - 1, INFINITY);
                    // Fail-soft: above the window's floor the value is exact. (A sketch mode's
                    // estimated bounds can contradict the null-window search; it is then a bound.)
                    (value, value >= floor)
                }
            },
        };
        if let Some(sketch) = &self.tables.sketch {
            self.sketch_writer.flush(sketch);
        }
        (value, exact)
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
        let Some(table) = self.tables.transpositions.as_ref() else {
            return (None, None);
        };
        let Some(entry) = table.probe(set_key(id, depth), self.generation) else {
            if depth < 2 {
                return (None, None);
            }
            // The best request one move shallower (an earlier iteration of iterative deepening,
            // or an earlier search of a kept table) is a good first guess here: it orders the
            // requests only, so no value changes. Measured: 17 % fewer nodes at depth 3 with
            // iterative deepening on TroutBot sets (bench/NOTEBOOK.md).
            let hint = table
                .probe(set_key(id, depth - 1), self.generation)
                .and_then(|e| e.best_request);
            return (None, hint);
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

    #[allow(clippy::too_many_arguments)]
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
        if let Some(table) = &self.tables.transpositions {
            let entry = Entry {
                value: value_to_table(value, ply),
                flag,
                best_request,
            };
            table.store(set_key(id, depth), entry, self.generation);
        }
    }

    /// The id of a node's set for the tables (0 when there is none), salted by the node kind:
    /// one set has different values as an our-move, reply or sense node. Different requests
    /// often leave the same reply or sense set (a blocked slide and the shorter move it becomes,
    /// every request that is a pass on all boards), and those nodes' whole subtrees repeat; the
    /// our-move table alone would still redo each one's expansion and sense partitions.
    fn node_id(&self, keys: &[u64], kind: NodeKind, depth: u32) -> u64 {
        if self.tables.transpositions.is_none() && !self.sketches(depth) {
            return 0;
        }
        crate::sketch::set_id(keys) ^ kind.salt()
    }

    /// Whether the sketch bounds apply at a node `depth` moves from the leaves: at every node
    /// kind (every set the search meets, as in the paper), where at least `sketch_min_depth`
    /// moves are left.
    fn sketches(&self, depth: u32) -> bool {
        self.tables.sketch.is_some() && depth >= self.config.sketch_min_depth
    }

    /// Looks the node up in the sketch table: its exact value or a bound that cuts the window
    /// `(alpha, beta)` ends the node; other bounds narrow the window. `probe` keeps what
    /// [`Self::sketch_record`] needs.
    #[allow(clippy::too_many_arguments)]
    fn sketch_lookup(
        &mut self,
        kind: NodeKind,
        id: u64,
        depth: u32,
        keys: &[u64],
        ply: u32,
        alpha: i32,
        beta: i32,
        probe: &mut Option<SketchProbe>,
    ) -> SketchOutcome {
        let window = SketchOutcome::Window {
            alpha,
            beta,
            clamp: (-INFINITY, INFINITY),
        };
        let Some(sketch) = self.tables.sketch.as_ref().filter(|_| self.sketches(depth)) else {
            return window;
        };
        let key = frequency_key(id, depth);
        let class = u64::from(depth) | (kind as u64) << 32;
        let mut signature = None;
        let found = sketch.read().unwrap_or_else(|p| p.into_inner()).find(
            key,
            class,
            keys,
            &mut signature,
            ply,
            alpha,
            beta,
        );
        *probe = Some(SketchProbe {
            key,
            class,
            signature,
        });
        if found.used() > 0 {
            self.sketch_writer.count_used(sketch, &found);
        }
        if let Some(value) = found.exact {
            self.stats.table_hits += 1;
            return SketchOutcome::Value(value);
        }
        if found.matched {
            self.stats.table_hits += 1;
        }
        self.stats.bounds_used += found.used() - u64::from(found.matched);
        if let Some((upper, _)) = found.upper {
            if upper <= alpha {
                self.stats.bound_cutoffs += 1;
                return SketchOutcome::Value(upper);
            }
        }
        if let Some((lower, _)) = found.lower {
            if lower >= beta {
                self.stats.bound_cutoffs += 1;
                return SketchOutcome::Value(lower);
            }
        }
        let lower = found.lower.map_or(-INFINITY, |(v, _)| v);
        let upper = found.upper.map_or(INFINITY, |(v, _)| v);
        if lower > upper {
            // Estimated bounds that contradict each other: use neither.
            return window;
        }
        SketchOutcome::Window {
            alpha: alpha.max(lower),
            beta: beta.min(upper),
            clamp: (lower, upper),
        }
    }

    /// Records a searched node's value in the sketch table (see `sketch_bounds`).
    fn sketch_record(
        &mut self,
        probe: Option<SketchProbe>,
        keys: &[u64],
        value: i32,
        flag: Flag,
        ply: u32,
    ) {
        if self.aborted {
            return;
        }
        if let (Some(sketch), Some(mut probe)) = (&self.tables.sketch, probe) {
            let set = Searched {
                key: probe.key,
                class: probe.class,
                size: keys.len(),
                value,
                flag,
                ply,
            };
            self.sketch_writer
                .record(sketch, set, keys, &mut probe.signature);
        }
    }

    /// The prologue every node kind with a table entry shares: counts the node (an aborted search
    /// returns at once), probes the set table, asks `settled` (a node kind's own early value, such
    /// as a king lost on some board) and looks the set up in the sketch table. `Err` is the node's
    /// value, found without searching it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn open_node(
        &mut self,
        kind: NodeKind,
        keys: &[u64],
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
        settled: impl FnOnce(&mut Self) -> Option<i32>,
    ) -> Result<OpenNode, i32> {
        self.tick();
        if self.aborted {
            return Err(0);
        }
        let id = self.node_id(keys, kind, depth);
        let (stored, first_request) = self.probe_table(id, depth, ply, alpha, beta);
        if let Some(value) = stored.or_else(|| settled(self)) {
            return Err(value);
        }
        let mut probe = None;
        match self.sketch_lookup(kind, id, depth, keys, ply, alpha, beta, &mut probe) {
            SketchOutcome::Value(value) => Err(value),
            SketchOutcome::Window { alpha, beta, clamp } => Ok(OpenNode {
                id,
                first_request,
                alpha,
                beta,
                clamp,
                probe,
            }),
        }
    }

    /// The epilogue of [`Self::open_node`]: clamps the searched `value` to the sketch bounds and
    /// stores it, flagged against the node's window, in the set and sketch tables.
    #[inline]
    fn close_node(
        &mut self,
        node: OpenNode,
        keys: &[u64],
        depth: u32,
        ply: u32,
        value: i32,
        best_request: Option<Option<Move>>,
    ) -> i32 {
        let value = value.clamp(node.clamp.0, node.clamp.1);
        let flag = Flag::of(value, node.alpha, node.beta);
        self.store_in_table(node.id, depth, ply, value, flag, best_request);
        self.sketch_record(node.probe, keys, value, flag, ply);
        value
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
        if depth == 0 {
            self.tick();
            return self.leaf(boards);
        }
        let node =
            match self.open_node(NodeKind::OurMove, keys, depth, ply, (alpha, beta), |_| None) {
                Ok(node) => node,
                Err(value) => return value,
            };
        let (mut alpha, beta) = (node.alpha, node.beta);
        let requests = self.ordered_requests(boards, node.first_request);
        let mut best = -INFINITY;
        let mut best_request = None;
        let mut killer = None;
        let set = OurSet::new(boards, keys, self.us);
        // With two moves left, the board that refuted the last refuted request (`refutation`).
        let refutes = depth == 2 && set.shared_side && self.tables.transpositions.is_some();
        let mut refuter: Option<Lineage> = None;
        for request in requests {
            let refuted = refuter.and_then(|l| self.lineage_bound(&set, l, request, ply, alpha));
            let value = match refuted {
                Some(bound) => bound,
                None => {
                    self.culprit = None;
                    let value =
                        self.request_value(&set, request, depth, ply, alpha, beta, &mut killer);
                    if refutes && value <= alpha {
                        refuter = self.culprit.take().or(refuter);
                    }
                    value
                }
            };
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
        self.close_node(node, keys, depth, ply, best, best_request)
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
        // (observation, boards after our move with the index of the board each came from)
        let mut groups: Vec<(MoveObservation, TracedBoards<u32>)> = Vec::new();
        for (origin, (board, &key)) in set.boards.iter().zip(set.keys).enumerate() {
            let observation = resolve(board, request, set.shared_side);
            let index = match groups.iter().position(|(o, _)| *o == observation) {
                Some(i) => i,
                None => {
                    // Most requests leave one observation group: room for every board left.
                    groups.push((observation, Vec::with_capacity(set.boards.len() - origin)));
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
                .push((child.zobrist_from(board, key), child, origin as u32));
        }
        let mut value = INFINITY;
        for (_, children) in groups {
            let group_value = if children.is_empty() {
                MATE - (ply as i32 + 1)
            } else {
                let (set, set_keys, origins) = canonical_traced(children);
                let window = (alpha, beta.min(value));
                self.opponent_reply(&set, &set_keys, &origins, depth, ply + 1, window)
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
        origins: &[u32],
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        debug_assert!(depth >= 2, "depth 1 is scored by final_request_value");
        let loss = -MATE + ply as i32 + 1;
        let mut replies = MoveList::new();
        let king_lost = |tree: &mut Self| tree.takes_our_king(boards, &mut replies).then_some(loss);
        let node = match self.open_node(NodeKind::Reply, keys, depth, ply, (alpha, beta), king_lost)
        {
            Ok(node) => node,
            Err(value) => return value,
        };
        let (alpha, beta) = (node.alpha, node.beta);
        let mut groups: Vec<(Option<Square>, TracedBoards<Lineage>)> = Vec::new();
        for (position, ((board, &key), &origin)) in boards.iter().zip(keys).zip(origins).enumerate()
        {
            opponent_replies(board, &mut replies);
            for reply in std::iter::once(None).chain(replies.iter().copied().map(Some)) {
                let captured = reply.and_then(|m| capture_square(board, m));
                let mut child = board.clone();
                child.push(reply);
                let child = (child.zobrist_from(board, key), child, (origin, reply));
                match groups.iter_mut().find(|(c, _)| *c == captured) {
                    Some((_, group)) => group.push(child),
                    None => {
                        // The quiet group takes most replies of every board left (tens of
                        // thousands at depth 4): sized once rather than grown by copies.
                        let room = match captured {
                            None => (boards.len() - position) * (replies.len() + 1),
                            Some(_) => 0,
                        };
                        let mut group = Vec::with_capacity(room);
                        group.push(child);
                        groups.push((captured, group));
                    }
                }
            }
        }
        let mut value = INFINITY;
        for (_, children) in groups {
            let (set, set_keys, lineage) = canonical_traced(children);
            let window = (alpha, beta.min(value));
            let group_value = self.sense(&set, &set_keys, &lineage, depth - 1, ply + 1, window);
            value = value.min(group_value);
            if value <= alpha || self.aborted {
                break;
            }
        }
        self.close_node(node, keys, depth, ply, value, None)
    }

    /// Whether the opponent can take our king on some board of `boards` (`replies` is scratch).
    fn takes_our_king(&self, boards: &[Board], replies: &mut MoveList) -> bool {
        boards.iter().any(|board| {
            opponent_replies(board, replies);
            board
                .king_square(self.us)
                .is_some_and(|king| replies.iter().any(|m| m.to == king))
        })
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
        if let Some(table) = self.replies.as_mut() {
            if let Some(outcome) = table.probe(key, self.generation) {
                self.stats.reply_table_hits += 1;
                return outcome;
            }
            let outcome = self.reply_outcome(board, replies);
            if !self.aborted {
                if let Some(table) = self.replies.as_mut() {
                    table.store(key, outcome, self.generation);
                }
            }
            return outcome;
        }
        let shared = self.tables.replies.as_ref();
        if let Some(outcome) = shared.and_then(|t| t.probe(key, self.generation)) {
            self.stats.reply_table_hits += 1;
            return outcome;
        }
        let outcome = self.reply_outcome(board, replies);
        match shared.filter(|_| !self.aborted) {
            Some(table) => table.store_first(key, outcome, self.generation),
            None => outcome,
        }
    }

    fn reply_outcome(&mut self, board: &Board, replies: &mut MoveList) -> ReplyOutcome {
        if self.config.leaf == LeafMode::Uci {
            return self.engine_outcome(board, replies);
        }
        let (outcome, evaluations) = worst_reply(board, self.us, self.config.leaf, replies);
        self.stats.leaf_evaluations += evaluations;
        outcome
    }

    /// The `uci` leaf: a reply that takes our king is a loss, as with every leaf; otherwise the
    /// engine's score of `board` (the opponent to move), from our side. The half-move clock is
    /// sent as 0: the search does not model the 100-half-move draw, and scores are cached by
    /// position, which leaves the clock out.
    fn engine_outcome(&mut self, board: &Board, replies: &mut MoveList) -> ReplyOutcome {
        opponent_replies(board, replies);
        if let Some(king) = board.king_square(self.us) {
            if replies.iter().any(|m| m.to == king) {
                return ReplyOutcome::TakesOurKing;
            }
        }
        let fen = engine_position(board);
        let limit = SearchLimit {
            depth: self.config.uci_depth,
            nodes: self.config.uci_nodes,
        };
        let engine = self
            .engine
            .as_mut()
            .expect("the driver lends every worker an engine for the uci leaf");
        self.stats.leaf_evaluations += 1;
        match engine.score(&fen, limit, Limits::new(self.stop, self.deadline)) {
            Ok(score) => ReplyOutcome::WorstEvaluation(-engine_centipawns(score)),
            Err(error) => {
                if error != UciError::Stopped {
                    self.engine_error = Some(error);
                }
                self.aborted = true;
                ReplyOutcome::WorstEvaluation(0)
            }
        }
    }

    /// Whether a sense node is settled at `bound` (the greater of alpha and the best choice so
    /// far) without its other choices: no choice is worth more than the set of any one of its
    /// boards alone (a smaller set is worth at least as much), so once one board's clairvoyant
    /// value is at most `bound`, neither is the node's. Tries the boards of `cell` (the cell
    /// that set the last choice's value, at most [`CLAIRVOYANT_CELL`] of them) not tried yet,
    /// each a null-window search; returns the upper bound found.
    #[allow(clippy::too_many_arguments)]
    fn clairvoyant_cut(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        cell: &[usize],
        tried: &mut [bool],
        mut last_moves: Option<&mut LastMoves>,
        depth: u32,
        ply: u32,
        bound: i32,
    ) -> Option<i32> {
        if cell.len() > CLAIRVOYANT_CELL || bound <= -INFINITY {
            return None;
        }
        for &i in cell {
            if std::mem::replace(&mut tried[i], true) {
                continue;
            }
            let value = match last_moves.as_deref_mut() {
                Some(table) => {
                    self.last_move_cell(table, boards, keys, &[i], ply, bound, bound + 1)
                }
                None => self.our_move(
                    std::slice::from_ref(&boards[i]),
                    std::slice::from_ref(&keys[i]),
                    depth,
                    ply,
                    bound,
                    bound + 1,
                ),
            };
            if self.aborted {
                return None;
            }
            if value <= bound {
                return Some(value);
            }
        }
        None
    }

    /// The table of what each request leaves on each board, for a sense node whose cells have one
    /// move left ([`LastMoves`]): in the exact modes, where every board agrees on our side (so each
    /// cell's requests are the set's) and no sketch bound is looked up at depth 1 (so the cells,
    /// which it scores without our-move nodes, are looked up nowhere else either).
    fn last_moves_for(&self, boards: &[Board], depth: u32) -> Option<LastMoves> {
        let applies = depth == 1
            && self.tables.transpositions.is_some()
            && !self.sketches(depth)
            && own_sides_agree(boards, self.us);
        applies.then(|| LastMoves::new(self.ordered_requests(boards, None), boards.len()))
    }

    /// Our sense before our next move (`depth` >= 1 moves left): the max over sense choices of
    /// the min over their cells.
    ///
    /// With [`SenseMode::Finest`] the max is pruned three ways, each resting on one property: a
    /// set is worth at least as much as any set containing it (fewer boards, fewer ways to be
    /// refuted). A choice another refines is skipped ([`finest_choices`]); each choice searches
    /// first the cell holding most of the boards that refuted the last one; and once one board's
    /// own value is at most the best so far, no choice can beat it ([`Self::clairvoyant_cut`]).
    /// The property can fail only through the requests: a set's are the union of its boards'
    /// move actions, so a request legal on no board of the smaller set is not tried there. No
    /// value has been seen to move (tests, and bench/NOTEBOOK.md).
    fn sense(
        &mut self,
        boards: &[Board],
        keys: &[u64],
        lineage: &[Lineage],
        depth: u32,
        ply: u32,
        window: (i32, i32),
    ) -> i32 {
        if boards.len() == 1 {
            // Nothing to sense: the node is the board's our-move node.
            let value = self.our_move(boards, keys, depth, ply, window.0, window.1);
            if depth == 1 && value <= window.0 && window.0 > -INFINITY {
                // A lone board worth no more than alpha refutes on its own.
                self.culprit = lineage.first().copied();
            }
            return value;
        }
        let node = match self.open_node(NodeKind::Sense, keys, depth, ply, window, |_| None) {
            Ok(node) => node,
            Err(value) => return value,
        };
        let (alpha, beta) = (node.alpha, node.beta);
        let mut scan = SenseScan::new(self, boards, keys, depth, ply);
        let best = self.best_sense_choice(&mut scan, (alpha, beta));
        if let Some(table) = scan
            .last_moves
            .as_mut()
            .filter(|_| best <= alpha && !self.aborted)
        {
            self.note_culprit(table, boards, keys, lineage, ply, alpha);
        }
        self.close_node(node, keys, depth, ply, best, None)
    }

    /// The max over the sense choices of `scan`'s set of the min over their cells, in the window
    /// `(alpha, beta)` (see [`Self::sense`] for the pruning).
    fn best_sense_choice(&mut self, scan: &mut SenseScan, (alpha, beta): (i32, i32)) -> i32 {
        let choices = match self.config.sense_mode {
            SenseMode::MinSize => vec![min_size_choice(scan.boards)],
            SenseMode::Search => sense_choices(scan.boards),
            SenseMode::Finest => finest_sense_choices(scan.boards),
        };
        let mut best = -INFINITY;
        for (k, choice) in choices.iter().enumerate() {
            let (value, worst_cell) =
                self.sense_choice_value(scan, &choice.cells, alpha, beta, best);
            let worst_cell = worst_cell.filter(|_| scan.pruned).map(|c| &choice.cells[c]);
            if let Some(cell) = worst_cell {
                scan.mark_refuting(cell);
            }
            best = best.max(value);
            if best >= beta || self.aborted {
                break;
            }
            if let Some(cell) = worst_cell.filter(|_| k + 1 < choices.len()) {
                let bound = alpha.max(best);
                let (boards, keys, depth, ply) = (scan.boards, scan.keys, scan.depth, scan.ply);
                let last_moves = scan.last_moves.as_mut();
                let tried = &mut scan.tried;
                let cut =
                    self.clairvoyant_cut(boards, keys, cell, tried, last_moves, depth, ply, bound);
                if let Some(value) = cut {
                    return value;
                }
            }
        }
        best
    }

    /// One sense choice's value, the min over its `cells` (the refuting one first when pruned),
    /// stopping once it is at most `alpha.max(best)`; and the cell that set it.
    fn sense_choice_value(
        &mut self,
        scan: &mut SenseScan,
        cells: &[Vec<usize>],
        alpha: i32,
        beta: i32,
        best: i32,
    ) -> (i32, Option<usize>) {
        let first = if scan.pruned {
            refuting_cell(cells, &scan.refuting)
        } else {
            None
        };
        let order = first
            .into_iter()
            .chain((0..cells.len()).filter(|&c| Some(c) != first));
        let mut value = INFINITY;
        let mut worst_cell = None;
        for c in order {
            let window = (alpha.max(best), beta.min(value));
            let cell_value = self.sense_cell_value(scan, &cells[c], window);
            if cell_value < value || worst_cell.is_none() {
                worst_cell = Some(c);
            }
            value = value.min(cell_value);
            if value <= alpha.max(best) || self.aborted {
                break;
            }
        }
        (value, worst_cell)
    }

    /// The value of one cell (indices into `scan`'s set) of a sense choice: the our-move node of
    /// its boards, or the last-move table's score of it.
    fn sense_cell_value(
        &mut self,
        scan: &mut SenseScan,
        cell: &[usize],
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let (boards, keys, ply) = (scan.boards, scan.keys, scan.ply);
        match scan.last_moves.as_mut() {
            Some(table) => self.last_move_cell(table, boards, keys, cell, ply, alpha, beta),
            None => {
                let cell_boards: Vec<Board> = cell.iter().map(|&i| boards[i].clone()).collect();
                let cell_keys: Vec<u64> = cell.iter().map(|&i| keys[i]).collect();
                self.our_move(&cell_boards, &cell_keys, scan.depth, ply, alpha, beta)
            }
        }
    }
}

/// One sense node's search over its choices: its set, and what the pruned search
/// ([`SenseMode::Finest`]) keeps from one choice to the next.
struct SenseScan<'b> {
    boards: &'b [Board],
    keys: &'b [u64],
    depth: u32,
    ply: u32,
    last_moves: Option<LastMoves>,
    pruned: bool,
    /// The boards of the cell that set the last choice's value (the cell of the next choice
    /// holding most of them is searched first, as it most likely refutes it).
    refuting: Vec<bool>,
    /// The boards whose own value was tried ([`TreeSearch::clairvoyant_cut`]).
    tried: Vec<bool>,
}

impl<'b> SenseScan<'b> {
    fn new(tree: &TreeSearch, boards: &'b [Board], keys: &'b [u64], depth: u32, ply: u32) -> Self {
        let pruned = tree.config.sense_mode == SenseMode::Finest;
        // Only the pruned search keeps the marks.
        let marks = if pruned { boards.len() } else { 0 };
        SenseScan {
            boards,
            keys,
            depth,
            ply,
            last_moves: tree.last_moves_for(boards, depth),
            pruned,
            refuting: vec![false; marks],
            tried: vec![false; marks],
        }
    }

    fn mark_refuting(&mut self, cell: &[usize]) {
        self.refuting.iter_mut().for_each(|r| *r = false);
        for &i in cell {
            self.refuting[i] = true;
        }
    }
}

/// The most boards of a refuting cell whose clairvoyant values [`TreeSearch::clairvoyant_cut`] tries.
const CLAIRVOYANT_CELL: usize = 16;

/// The cell holding the most boards marked in `refuting` (the first such), if any is marked.
fn refuting_cell(cells: &[Vec<usize>], refuting: &[bool]) -> Option<usize> {
    let held = |cell: &Vec<usize>| cell.iter().filter(|&&i| refuting[i]).count();
    let (best, count) = cells
        .iter()
        .enumerate()
        .map(|(c, cell)| (c, held(cell)))
        .fold((0, 0), |acc, x| if x.1 > acc.1 { x } else { acc });
    (count > 0).then_some(best)
}

/// The node kinds that share the tables. One set has a different value as an our-move node and
/// as a sense node (the sense can only help), so their ids are kept apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    OurMove = 0,
    Reply = 1,
    Sense = 2,
}

impl NodeKind {
    fn salt(self) -> u64 {
        match self {
            NodeKind::OurMove => 0,
            NodeKind::Reply => 0x5EED_0F0F_2E91_7A31,
            NodeKind::Sense => 0x9C3B_44D1_05A6_E8F7,
        }
    }
}

/// The engine's centipawns from the side to move's view; a mate in n counts `ENGINE_MATE - n`,
/// far below the search's own mates (king captures, `MATE_BOUND` and above).
fn engine_centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp.clamp(-ENGINE_MATE + 1_000, ENGINE_MATE - 1_000),
        Score::Mate(n) if n > 0 => ENGINE_MATE - n,
        Score::Mate(n) => -ENGINE_MATE - n,
    }
}

/// The value of an engine's mate score (see [`engine_centipawns`]).
pub const ENGINE_MATE: i32 = 20_000;
