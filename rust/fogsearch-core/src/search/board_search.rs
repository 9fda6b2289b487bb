//! Perfect-information alpha-beta on single boards: what each request is worth on each board of
//! a set if both sides then saw the board (the bot's per-board judgement).
//!
//! The information-set search is exact about what we do not know but shallow; a per-board search
//! goes deeper and resolves captures at its leaves. RBC rules: moves are pseudo-legal, a pass is
//! a move, and taking the king wins (`MATE` less the ply).
//!
//! The engine: negamax alpha-beta with principal-variation windows, a transposition table, the
//! table's move first, captures by most valuable victim and least valuable attacker, two killer
//! moves a ply and a history table, and a capture search at the leaves that answers a check with
//! every move (standing pat in check would be passing into the king's capture). Transposition
//! entries are used only at their own depth, so every value is the fixed-depth minimax value
//! whatever the table holds: the values do not depend on the thread count, on the order boards are
//! searched in, or on what a thread searched before.
//!
//! [`request_board_table`] deepens over all boards together, one ply at a time, each ply spread
//! over the pool's threads by (board, distinct taken move); at the deadline every board keeps the
//! deepest ply it completed.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::chess::{Board, Color, Move, MoveList};
use crate::stop::{Halt, Limits};

use super::eval::{evaluate, INFINITY, MATE, MATE_BOUND, PIECE_VALUES};
use super::rules::{own_sides_agree, resolve};

/// How often (in nodes) the clock and the stop flag are read.
const CLOCK_INTERVAL: u64 = 1024;
/// Transposition entries per worker thread (16 bytes each: 1 MiB).
const TABLE_ENTRIES: usize = 1 << 16;
/// Capture-search entries per worker thread, in a table of their own so that the many capture
/// nodes do not evict the full-width entries.
const CAPTURE_TABLE_ENTRIES: usize = 1 << 16;
/// Plies below the root a killer move is kept for (the capture search has none).
const KILLER_PLIES: usize = 16;
/// How many checks in a row the capture search answers with every move (beyond them, captures
/// only): mutual checks by quiet moves could otherwise go on for ever.
const EVASIONS: u32 = 2;
/// The first window around the previous depth's value of a root move, in centipawns.
const ASPIRATION_CP: i32 = 40;

/// Each request's value on each board, and how deep each board was searched.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardTable {
    /// `values[r * boards + b]`: request `r` on board `b`, our point of view.
    pub values: Vec<i32>,
    /// The plies searched after the request on each board (all of its requests alike); -1 where
    /// not even the capture search finished before the deadline, and the values are the static
    /// evaluation after each request.
    pub plies: Vec<i32>,
    /// Nodes visited (full-width and capture-search).
    pub nodes: u64,
}

/// Per request, per board: the request's value after `plies` further plies of full-width search
/// and a capture search at the leaves; the reason it halted when `limits` ended it first.
pub fn request_board_values(
    boards: &[Board],
    requests: &[Option<Move>],
    plies: u32,
    limits: Limits<'_>,
) -> Result<Vec<Vec<i32>>, Halt> {
    let table = request_board_table(boards, requests, Some(0), plies, limits)?;
    if table.plies.iter().any(|&p| p < plies as i32) {
        return Err(Halt::DeadlinePassed);
    }
    let n = boards.len();
    Ok((0..requests.len())
        .map(|r| table.values[r * n..(r + 1) * n].to_vec())
        .collect())
}

/// Every request's value on every board by iterative deepening: plies `0..=least_plies` always
/// (a stop still ends them), then one more ply at a time over all boards until `most_plies` or
/// the deadline in `limits`, each board keeping its deepest completed ply. With `least_plies`
/// `None` nothing is certain: a board whose capture search (ply 0) the deadline cut keeps the
/// static evaluation after each request (ply -1), so the deadline bounds the whole call (one
/// busy board's capture search can take a million nodes). `Err(Halt::Stopped)` when the stop was
/// raised. Runs on the caller's rayon pool.
pub fn request_board_table(
    boards: &[Board],
    requests: &[Option<Move>],
    least_plies: Option<u32>,
    most_plies: u32,
    limits: Limits<'_>,
) -> Result<BoardTable, Halt> {
    let n = boards.len();
    let mut table = BoardTable {
        values: vec![0; requests.len() * n],
        plies: vec![-1; n],
        nodes: 0,
    };
    let Some(first) = boards.first() else {
        return Ok(table);
    };
    let SlotWork {
        slots,
        slot_of,
        work,
        values: mut slot_values,
    } = SlotWork::new(boards, first.turn(), requests);
    let mut reached: Vec<Option<u32>> = vec![None; n];
    let never = Limits::new(limits.stop, None);
    for plies in 0..=most_plies {
        let level_limits = if least_plies.is_some_and(|least| plies <= least) {
            never
        } else {
            limits
        };
        let results: Vec<(Option<i32>, u64)> = work
            .par_iter()
            .map(|&(b, i)| {
                let previous = reached[b].map(|_| slot_values[b][i]);
                if previous.is_some_and(|v| v.abs() >= MATE_BOUND) {
                    // A king capture found (either way) is forced: deeper plies cannot change it.
                    return (previous, 0);
                }
                ENGINE.with(|engine| {
                    let mut engine = engine.borrow_mut();
                    let mut run = engine.run(level_limits);
                    let value = run.root_value(&boards[b], slots[b][i], plies, previous);
                    (value, run.nodes)
                })
            })
            .collect();
        if limits.stop.requested() {
            return Err(Halt::Stopped);
        }
        let mut complete = vec![true; n];
        for (&(b, _), &(value, nodes)) in work.iter().zip(&results) {
            table.nodes += nodes;
            complete[b] &= value.is_some();
        }
        for (&(b, i), &(value, _)) in work.iter().zip(&results) {
            if complete[b] {
                slot_values[b][i] = value.unwrap_or(0);
            }
        }
        let mut all_complete = true;
        for (b, done) in complete.into_iter().enumerate() {
            if done {
                reached[b] = Some(plies);
            } else {
                all_complete = false;
            }
        }
        if !all_complete {
            break;
        }
    }
    for (plies, reached) in table.plies.iter_mut().zip(&reached) {
        *plies = reached.map_or(-1, |p| p as i32);
    }
    spread(&slot_of, &slot_values, &mut table.values);
    Ok(table)
}

/// The work of valuing every request on every board: each board's distinct taken moves
/// ("slots": many requests take the same move on a board, or none), each request's slot on it,
/// the (board, slot) pairs to value, and each slot's static value to start from.
pub(super) struct SlotWork {
    pub slots: Vec<Vec<Option<Move>>>,
    pub slot_of: Vec<Vec<u16>>,
    pub work: Vec<(usize, usize)>,
    pub values: Vec<Vec<i32>>,
}

impl SlotWork {
    /// The work of `requests` on `boards`, `us` making them.
    pub fn new(boards: &[Board], us: Color, requests: &[Option<Move>]) -> SlotWork {
        let shared_side = own_sides_agree(boards, us);
        let mut slots: Vec<Vec<Option<Move>>> = Vec::with_capacity(boards.len());
        let mut slot_of: Vec<Vec<u16>> = Vec::with_capacity(boards.len());
        for board in boards {
            let mut taken_moves: Vec<Option<Move>> = Vec::new();
            let mut of = Vec::with_capacity(requests.len());
            for &request in requests {
                let (taken, _) = resolve(board, request, shared_side);
                let at = taken_moves
                    .iter()
                    .position(|&t| t == taken)
                    .unwrap_or_else(|| {
                        taken_moves.push(taken);
                        taken_moves.len() - 1
                    });
                of.push(at as u16);
            }
            slots.push(taken_moves);
            slot_of.push(of);
        }
        let work = slots
            .iter()
            .enumerate()
            .flat_map(|(b, s)| (0..s.len()).map(move |i| (b, i)))
            .collect();
        let values = boards
            .iter()
            .zip(&slots)
            .map(|(board, taken)| taken.iter().map(|&t| static_value(board, t)).collect())
            .collect();
        SlotWork {
            slots,
            slot_of,
            work,
            values,
        }
    }
}

/// Each slot's value written for every request that takes it: `out[r * boards + b]`.
pub(super) fn spread(slot_of: &[Vec<u16>], slot_values: &[Vec<i32>], out: &mut [i32]) {
    let n = slot_of.len();
    for (b, of) in slot_of.iter().enumerate() {
        for (r, &slot) in of.iter().enumerate() {
            out[r * n + b] = slot_values[b][slot as usize];
        }
    }
}

/// The value of `taken` on `board` for the side making it, before any search: a king taken wins, a
/// king left en prise loses, otherwise the static evaluation.
pub(super) fn static_value(board: &Board, taken: Option<Move>) -> i32 {
    let us = board.turn();
    if takes_king(board, taken) {
        return MATE - 1;
    }
    let mut child = board.clone();
    child.push(taken);
    if child.king_attacked(us) {
        return -(MATE - 2);
    }
    evaluate(&child, us)
}

/// Whether `taken` takes the king of the side not to move on `board`: the game ends, a win.
fn takes_king(board: &Board, taken: Option<Move>) -> bool {
    taken.is_some_and(|m| Some(m.to) == board.king_square(board.turn().other()))
}

thread_local! {
    /// One engine per worker thread, kept between calls: its transposition entries are exact
    /// fixed-depth values of positions, valid whichever board or turn they came from.
    static ENGINE: RefCell<Engine> = RefCell::new(Engine::new());
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    best: Option<Move>,
    depth: u8,
    bound: Bound,
}

impl Entry {
    /// The entry for `value`, searched at (key, ply, alpha, beta) to `depth`: exact inside the
    /// window, a bound outside it.
    fn stored(searched: (u64, u32, i32, i32), value: i32, best: Option<Move>, depth: u32) -> Entry {
        let (key, ply, alpha, beta) = searched;
        let bound = if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Entry {
            key,
            value: to_table(value, ply),
            best,
            depth: depth.min(255) as u8,
            bound,
        }
    }

    /// The stored value where it is for `key` at `depth` and settles the window (alpha, beta)
    /// at `ply`.
    fn cutoff(&self, key: u64, depth: u32, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
        if self.bound == Bound::Empty || self.key != key || u32::from(self.depth) != depth {
            return None;
        }
        let value = from_table(self.value, ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
            Bound::Empty => false,
        };
        settles.then_some(value)
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

/// A worker thread's tables, kept between searches.
struct Engine {
    table: Vec<Entry>,
    /// Capture-search values by position and checks still answered in full (`Entry::depth`).
    capture_table: Vec<Entry>,
    killers: [[Option<Move>; 2]; KILLER_PLIES],
    /// Cutoffs by quiet move, `[from][to]`.
    history: Vec<i32>,
}

impl Engine {
    fn new() -> Engine {
        Engine {
            table: vec![Entry::default(); TABLE_ENTRIES],
            capture_table: vec![Entry::default(); CAPTURE_TABLE_ENTRIES],
            killers: [[None; 2]; KILLER_PLIES],
            history: vec![0; 64 * 64],
        }
    }

    /// One root move's search under `limits`, with this engine's tables.
    fn run<'e, 'l>(&'e mut self, limits: Limits<'l>) -> Run<'e, 'l> {
        self.killers = [[None; 2]; KILLER_PLIES];
        self.history.iter_mut().for_each(|h| *h /= 2);
        Run {
            engine: self,
            limits,
            nodes: 0,
            halted: false,
        }
    }
}

/// One search in progress: the tables it uses, its limits and its node count.
struct Run<'e, 'l> {
    engine: &'e mut Engine,
    limits: Limits<'l>,
    nodes: u64,
    halted: bool,
}

impl Run<'_, '_> {
    /// Counts a node; true once the search is halted (a node then returns at once).
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        // The first node looks too, so a search started after the deadline does nothing.
        if !self.halted && self.nodes % CLOCK_INTERVAL == 1 {
            self.halted = self.limits.halt().is_some();
        }
        self.halted
    }

    /// The value for the side that made `taken` on `board` (ours), `plies` further plies deep;
    /// `None` if halted. `previous` (the value one ply shallower) opens an aspiration window.
    fn root_value(
        &mut self,
        board: &Board,
        taken: Option<Move>,
        plies: u32,
        previous: Option<i32>,
    ) -> Option<i32> {
        if takes_king(board, taken) {
            return Some(MATE - 1);
        }
        let mut child = board.clone();
        child.push(taken);
        let key = child.zobrist();
        let (mut low, mut high) = match previous {
            Some(v) if plies >= 2 && v.abs() < MATE_BOUND => (v - ASPIRATION_CP, v + ASPIRATION_CP),
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let value = -self.negamax(&child, key, plies, 1, -high, -low);
            if self.halted {
                return None;
            }
            if value <= low && low > -INFINITY {
                low = -INFINITY;
            } else if value >= high && high < INFINITY {
                high = INFINITY;
            } else {
                return Some(value);
            }
        }
    }

    /// The value of `board` (key `key`) for its side to move, `depth` plies deep, `ply` plies
    /// below the root request.
    fn negamax(
        &mut self,
        board: &Board,
        key: u64,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let mover = board.turn();
        if board.king_attacked(mover.other()) {
            // The capture is the move made here, one ply below this node.
            return MATE - ply as i32 - 1;
        }
        if depth == 0 {
            return self.quiesce(board, key, ply, alpha, beta, EVASIONS);
        }
        let slot = (key as usize) & (TABLE_ENTRIES - 1);
        let entry = self.engine.table[slot];
        let mut table_move = None;
        if entry.bound != Bound::Empty && entry.key == key {
            table_move = entry.best;
        }
        if let Some(value) = entry.cutoff(key, depth, ply, alpha, beta) {
            return value;
        }
        let mut ordered = self.ordered_moves(board, key, ply, &entry, table_move);
        let original_alpha = alpha;
        let mut alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut index = 0;
        while let Some(mv) = ordered.next_best() {
            let mut child = board.clone();
            child.push(mv);
            let child_key = child.zobrist_from(board, key);
            let mut score;
            if index == 0 {
                score = -self.negamax(&child, child_key, depth - 1, ply + 1, -beta, -alpha);
            } else {
                score = -self.negamax(&child, child_key, depth - 1, ply + 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.halted {
                    score = -self.negamax(&child, child_key, depth - 1, ply + 1, -beta, -alpha);
                }
            }
            if self.halted {
                return 0;
            }
            index += 1;
            if score > best {
                best = score;
                best_move = mv;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if let Some(quiet) = mv.filter(|m| !is_capture(board, *m)) {
                    self.note_quiet_cutoff(quiet, depth, ply);
                }
                break;
            }
        }
        let searched = (key, ply, original_alpha, beta);
        self.engine.table[slot] = Entry::stored(searched, best, best_move, depth);
        best
    }

    /// The moves of `board` (and the pass) in the order [`Self::negamax`] tries them: the table's
    /// move, captures by most valuable victim and least valuable attacker, promotions, killers,
    /// then quiet moves by history.
    fn ordered_moves(
        &self,
        board: &Board,
        key: u64,
        ply: u32,
        entry: &Entry,
        table_move: Option<Move>,
    ) -> OrderedMoves {
        let mut list = MoveList::new();
        board.pseudo_legal_moves(&mut list);
        let mut ordered = OrderedMoves::new();
        let killers = self
            .engine
            .killers
            .get(ply as usize)
            .copied()
            .unwrap_or([None; 2]);
        for &mv in list.iter() {
            let score = if Some(mv) == table_move {
                2_000_000
            } else if is_capture(board, mv) {
                1_000_000 + 10 * victim_value(board, mv) - attacker_value(board, mv)
            } else if mv.promotion.is_some() {
                900_000
            } else if killers.contains(&Some(mv)) {
                800_000
            } else {
                self.engine.history[mv.from as usize * 64 + mv.to as usize]
            };
            ordered.push(score, Some(mv));
        }
        ordered.push(
            if table_move.is_none() && entry.key == key && entry.bound != Bound::Empty {
                2_000_000
            } else {
                -1
            },
            None,
        );
        ordered
    }

    /// A quiet move that cut off at `ply` becomes its first killer and gains history.
    fn note_quiet_cutoff(&mut self, quiet: Move, depth: u32, ply: u32) {
        if let Some(k) = self.engine.killers.get_mut(ply as usize) {
            if k[0] != Some(quiet) {
                k[1] = k[0];
                k[0] = Some(quiet);
            }
        }
        let h = &mut self.engine.history[quiet.from as usize * 64 + quiet.to as usize];
        *h = (*h + (depth * depth) as i32).min(700_000);
    }

    /// The capture search: stand pat (a pass) or capture; in check, every move (`evasions` times
    /// in a row at most), since standing pat there passes into the capture of the king. Its value
    /// depends on the position and `evasions` alone, so a table keyed by both returns the same
    /// values the search would (exchanges reach one position in many orders: without the table
    /// a busy middle-game board took 24,000 capture nodes per request).
    fn quiesce(
        &mut self,
        board: &Board,
        key: u64,
        ply: u32,
        alpha: i32,
        beta: i32,
        evasions: u32,
    ) -> i32 {
        let slot = (key as usize) & (CAPTURE_TABLE_ENTRIES - 1);
        let entry = self.engine.capture_table[slot];
        if let Some(value) = entry.cutoff(key, evasions, ply, alpha, beta) {
            return value;
        }
        let best = self.capture_search(board, key, ply, (alpha, beta), evasions);
        if !self.halted {
            let searched = (key, ply, alpha, beta);
            self.engine.capture_table[slot] = Entry::stored(searched, best, None, evasions);
        }
        best
    }

    /// [`Self::quiesce`] without its table.
    fn capture_search(
        &mut self,
        board: &Board,
        key: u64,
        ply: u32,
        (alpha, beta): (i32, i32),
        evasions: u32,
    ) -> i32 {
        let mover = board.turn();
        let (mut best, in_check) = stand_pat(board, ply);
        let evade = in_check && evasions > 0;
        if best >= beta {
            return best;
        }
        let mut alpha = alpha.max(best);
        let mut list = MoveList::new();
        board.pseudo_legal_moves(&mut list);
        let mut ordered = OrderedMoves::new();
        for &mv in list.iter() {
            if is_capture(board, mv) {
                ordered.push(
                    10 * victim_value(board, mv) - attacker_value(board, mv),
                    Some(mv),
                );
            } else if evade {
                ordered.push(-10_000, Some(mv));
            }
        }
        while let Some(mv) = ordered.next_best() {
            if self.tick() {
                return 0;
            }
            let mut child = board.clone();
            child.push(mv);
            let score = if child.king_attacked(mover) {
                // Our king stands en prise after this move: the reply takes it.
                -(MATE - ply as i32 - 2)
            } else {
                let child_key = child.zobrist_from(board, key);
                let left = evasions - u32::from(evade);
                -self.quiesce(&child, child_key, ply + 1, -beta, -alpha, left)
            };
            if self.halted {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// A king capture `ply` plies below the root is stored relative to the stored node.
fn to_table(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

/// Moves with ordering scores, taken best first by selection (no allocation).
struct OrderedMoves {
    moves: [(i32, Option<Move>); 257],
    len: usize,
}

impl OrderedMoves {
    fn new() -> OrderedMoves {
        OrderedMoves {
            moves: [(0, None); 257],
            len: 0,
        }
    }

    fn push(&mut self, score: i32, mv: Option<Move>) {
        if self.len < self.moves.len() {
            self.moves[self.len] = (score, mv);
            self.len += 1;
        }
    }

    fn next_best(&mut self) -> Option<Option<Move>> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].0 > self.moves[best].0 {
                best = i;
            }
        }
        let chosen = self.moves[best].1;
        self.len -= 1;
        self.moves.swap(best, self.len);
        Some(chosen)
    }
}

fn is_capture(board: &Board, mv: Move) -> bool {
    board.by_color(board.turn().other()).contains(mv.to)
}

fn victim_value(board: &Board, mv: Move) -> i32 {
    board
        .piece_at(mv.to)
        .map_or(0, |p| PIECE_VALUES[p.piece_type.index()])
}

fn attacker_value(board: &Board, mv: Move) -> i32 {
    board
        .piece_at(mv.from)
        .map_or(0, |p| PIECE_VALUES[p.piece_type.index()])
}

/// Where a capture search at `ply` starts, and whether the mover is in check: the static
/// evaluation, or in check (every reply must answer it) a mate two plies on, which an evasion
/// can only improve.
fn stand_pat(board: &Board, ply: u32) -> (i32, bool) {
    let mover = board.turn();
    let in_check = board.king_attacked(mover);
    let floor = if in_check {
        -(MATE - ply as i32 - 2)
    } else {
        evaluate(board, mover)
    };
    (floor, in_check)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::{Stop, NEVER};
    use std::time::Instant;

    /// Plain minimax over the same moves (pass included, king capture wins), with a capture
    /// search at the leaves that is itself plain minimax (every move when in check): no pruning,
    /// no ordering, no table.
    fn minimax(board: &Board, depth: u32, ply: u32) -> i32 {
        if board.king_attacked(board.turn().other()) {
            return MATE - ply as i32 - 1;
        }
        let mut list = MoveList::new();
        board.pseudo_legal_moves(&mut list);
        if depth == 0 {
            return capture_minimax(board, &list, ply, EVASIONS);
        }
        let mut best = -INFINITY;
        for mv in list.iter().copied().map(Some).chain(std::iter::once(None)) {
            let mut child = board.clone();
            child.push(mv);
            best = best.max(-minimax(&child, depth - 1, ply + 1));
        }
        best
    }

    fn capture_minimax(board: &Board, list: &MoveList, ply: u32, evasions: u32) -> i32 {
        let mover = board.turn();
        let (mut best, in_check) = stand_pat(board, ply);
        let evade = in_check && evasions > 0;
        for &mv in list.iter().filter(|m| evade || is_capture(board, **m)) {
            let mut child = board.clone();
            child.push(Some(mv));
            let score = if child.king_attacked(mover) {
                -(MATE - ply as i32 - 2)
            } else {
                let mut replies = MoveList::new();
                child.pseudo_legal_moves(&mut replies);
                -capture_minimax(&child, &replies, ply + 1, evasions - u32::from(evade))
            };
            best = best.max(score);
        }
        best
    }

    /// Positions, each with the most plies the plain minimax checks in reasonable time.
    /// Positions, each with the most plies the plain minimax checks in well under a second (its
    /// capture search is exponential in a busy middle game).
    const POSITIONS: [(&str, u32); 6] = [
        ("4k3/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/4K3 w - - 0 1", 1),
        // Pawns in contact on four files: exchanges reach one position in many orders, which the
        // capture search's table answers from what it stored.
        ("4k3/8/8/1p1p1p1p/P1P1P1P1/8/8/4K3 w - - 0 1", 0),
        ("3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1", 2),
        ("4k3/8/2b5/3n4/4P3/8/8/3QK3 w - - 0 1", 2),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 2),
        ("4k3/4r3/8/8/8/8/3PPP2/4K3 w - - 0 1", 2),
    ];

    fn all_requests(board: &Board) -> Vec<Option<Move>> {
        let mut list = MoveList::new();
        board.pseudo_legal_moves(&mut list);
        list.iter().copied().map(Some).chain([None]).collect()
    }

    #[test]
    fn alpha_beta_equals_plain_minimax_at_every_depth() {
        for (fen, most) in POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            let requests = all_requests(&board);
            for plies in 0..=most {
                let values = request_board_values(
                    std::slice::from_ref(&board),
                    &requests,
                    plies,
                    no_limits(),
                )
                .unwrap();
                for (request, row) in requests.iter().zip(&values) {
                    let mut child = board.clone();
                    child.push(*request);
                    let expected = if request
                        .is_some_and(|m| Some(m.to) == board.king_square(board.turn().other()))
                    {
                        MATE - 1
                    } else {
                        -minimax(&child, plies, 1)
                    };
                    assert_eq!(row[0], expected, "{fen} {request:?} plies {plies}");
                }
            }
        }
    }

    #[test]
    fn values_do_not_depend_on_the_thread_count_or_the_order_of_boards() {
        let boards: Vec<Board> = POSITIONS[1..]
            .iter()
            .map(|(f, _)| Board::from_fen(f).unwrap())
            .collect();
        let requests = vec![None];
        let one = crate::pool::install(1, || {
            request_board_table(&boards, &requests, Some(3), 3, no_limits()).unwrap()
        })
        .unwrap();
        let mut reversed = boards.clone();
        reversed.reverse();
        let many = crate::pool::install(3, || {
            request_board_table(&reversed, &requests, Some(3), 3, no_limits()).unwrap()
        })
        .unwrap();
        let mut back = many.values.clone();
        back.reverse();
        assert_eq!(one.values, back);
        assert_eq!(one.plies, vec![3; boards.len()]);
    }

    #[test]
    fn a_back_rank_mate_is_found() {
        // Rd8 and the king is taken next move whatever Black does (a pass included).
        let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mate = Some(Move::from_uci("d1d8").unwrap());
        let values = request_board_values(&[board], &[mate, None], 2, no_limits()).unwrap();
        assert_eq!(values[0][0], MATE - 3);
        assert!(values[1][0] < MATE / 2);
    }

    #[test]
    fn a_passed_deadline_keeps_the_plies_always_searched() {
        let board = Board::start();
        let requests = all_requests(&board);
        let past = Some(Instant::now());
        let table = request_board_table(
            std::slice::from_ref(&board),
            &requests,
            Some(1),
            6,
            Limits::new(&NEVER, past),
        )
        .unwrap();
        assert_eq!(table.plies, vec![1]);
        let values = request_board_values(
            std::slice::from_ref(&board),
            &requests,
            4,
            Limits::new(&NEVER, past),
        );
        assert_eq!(values, Err(Halt::DeadlinePassed));
    }

    #[test]
    fn with_nothing_certain_a_passed_deadline_leaves_the_static_values() {
        let board = Board::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let requests = all_requests(&board);
        let past = Some(Instant::now());
        let table = request_board_table(
            std::slice::from_ref(&board),
            &requests,
            None,
            6,
            Limits::new(&NEVER, past),
        )
        .unwrap();
        assert_eq!(table.plies, vec![-1]);
        let expected: Vec<i32> = requests.iter().map(|&r| static_value(&board, r)).collect();
        assert_eq!(table.values, expected);
        // Rxd5 leaves a rook against nothing; the pass leaves a rook against a queen.
        let rxd5 = requests
            .iter()
            .position(|&r| r == Move::from_uci("d2d5").ok())
            .unwrap();
        assert!(table.values[rxd5] > 400);
        assert!(table.values[requests.len() - 1] < -300);
        // Without a deadline the same call searches every ply.
        let full = request_board_table(
            std::slice::from_ref(&board),
            &requests,
            None,
            1,
            no_limits(),
        )
        .unwrap();
        assert_eq!(full.plies, vec![1]);
    }

    #[test]
    fn a_raised_stop_gives_no_values() {
        let board = Board::start();
        let requests: Vec<Option<Move>> = vec![None; 64];
        let stop = Stop::new();
        stop.request();
        assert_eq!(
            request_board_values(&[board], &requests, 4, Limits::new(&stop, None)),
            Err(Halt::Stopped)
        );
    }

    fn no_limits() -> Limits<'static> {
        Limits::new(&NEVER, None)
    }
}
