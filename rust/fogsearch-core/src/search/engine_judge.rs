//! The per-board judgement by a UCI chess engine (Stockfish, or any other), as strong RBC bots
//! judge boards: each request's value on each board is the engine's score of the position it
//! leads to, the opponent to move, from our side. The alternative to [`super::board_table`]'s
//! own alpha-beta: slower per position (milliseconds against microseconds), but a real engine.
//!
//! RBC rules come first: a request that takes their king wins, one that leaves ours en prise
//! loses (the engine is never shown a position whose side to move can take a king). Engine mates
//! become king captures: mate in n by the opponent loses our king at ply 2n + 1, a mate of theirs
//! takes their king one ply after it is delivered.
//!
//! One engine per worker thread, started once and kept (with a cache of scores by position) for
//! the judge's life, so a game pays the start-up once and a position seen on an earlier turn is
//! not searched again. Boards are judged in the order given (the bot gives the likeliest first);
//! at the deadline the boards not finished keep the static evaluation after each request.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::chess::{Board, Move};
use crate::pool;
use crate::stop::Limits;
use crate::uci::{engine_position, find_engine, Score, SearchLimit, UciEngine, UciError};

use super::board_search::{spread, BoardTable, SlotWork};
use super::config::{MAX_UCI_DEPTH, MAX_UCI_NODES};
use super::eval::MATE;
use super::requests::known_requests;
use super::tables::Engines;
use super::SearchError;

/// Scores kept by position; past this many the cache starts afresh (24 bytes an entry).
const MAX_CACHED: usize = 1 << 20;
/// Mates further than this many moves count as this far (they stay king captures).
const LONGEST_MATE: i32 = 1000;
/// Engines that may die in one call before it fails: one death is a position the engine cannot
/// take, many are an engine that cannot run.
const MAX_ENGINE_FAILURES: usize = 4;

/// A UCI engine that judges boards, with its engines and its cache of scores.
pub struct EngineJudge {
    engines: Engines,
    limit: SearchLimit,
    cache: Mutex<HashMap<u64, i32>>,
}

impl EngineJudge {
    /// A judge searching each position with `engine` (a path, or a name on `PATH` or in
    /// /usr/games) to `depth` (1 to [`MAX_UCI_DEPTH`]) and at most `nodes` nodes (0: no budget;
    /// at most [`MAX_UCI_NODES`]); engines start when first needed.
    pub fn new(engine: &str, depth: u32, nodes: u64) -> Result<EngineJudge, SearchError> {
        if !(1..=MAX_UCI_DEPTH).contains(&depth) || nodes > MAX_UCI_NODES {
            return Err(SearchError::InvalidConfig(format!(
                "an engine judge needs a depth in 1..={MAX_UCI_DEPTH} and at most \
                 {MAX_UCI_NODES} nodes, got depth {depth}, nodes {nodes}"
            )));
        }
        let path: PathBuf = find_engine(engine).map_err(|e| SearchError::Engine(e.to_string()))?;
        Ok(EngineJudge {
            engines: Engines::new(Some(path)),
            limit: SearchLimit { depth, nodes },
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Every request (default: the root requests) on every board, our point of view, with
    /// `threads` engines at once. `plies` in the table: 1 for a board whose every request the
    /// engine scored (or the rules decided, or the engine died on: that one keeps the static
    /// evaluation), -1 for one the deadline cut, whose unscored requests keep the static
    /// evaluation. `nodes` counts the engine's positions (cache hits excluded).
    /// A raised stop gives [`SearchError::Interrupted`]; engines that die
    /// [`MAX_ENGINE_FAILURES`] times in the call (or cannot start), [`SearchError::Engine`].
    pub fn table(
        &self,
        boards: &[Board],
        requests: Option<Vec<Option<Move>>>,
        threads: usize,
        limits: Limits<'_>,
    ) -> Result<(Vec<Option<Move>>, BoardTable), SearchError> {
        let requests = known_requests(boards, requests)?;
        let n = boards.len();
        let mut table = BoardTable {
            values: vec![0; requests.len() * n],
            plies: vec![1; n],
            nodes: 0,
        };
        let Some(first) = boards.first() else {
            return Ok((requests, table));
        };
        let SlotWork {
            slots,
            slot_of,
            work,
            values: mut slot_values,
        } = SlotWork::new(boards, first.turn(), &requests);
        // A king taken or left en prise is the rules' verdict, already in the static values.
        let work: Vec<(usize, usize)> = work
            .into_iter()
            .filter(|&(b, i)| slot_values[b][i].abs() < MATE - 2)
            .collect();
        let judged = self.judge_all(boards, &slots, &work, threads.max(1), limits)?;
        if limits.stop.requested() {
            return Err(SearchError::Interrupted);
        }
        for (&(b, i), outcome) in work.iter().zip(judged) {
            match outcome {
                Judged::Engine(value) => {
                    slot_values[b][i] = value;
                    table.nodes += 1;
                }
                Judged::Cached(value) => slot_values[b][i] = value,
                Judged::Failed => {}
                Judged::Cut => table.plies[b] = -1,
            }
        }
        spread(&slot_of, &slot_values, &mut table.values);
        Ok((requests, table))
    }

    /// Each work item's outcome, the items handed out in order to `threads` workers, each with
    /// an engine of its own.
    fn judge_all(
        &self,
        boards: &[Board],
        slots: &[Vec<Option<Move>>],
        work: &[(usize, usize)],
        threads: usize,
        limits: Limits<'_>,
    ) -> Result<Vec<Judged>, SearchError> {
        let outcomes: Vec<Mutex<Judged>> = work.iter().map(|_| Mutex::new(Judged::Cut)).collect();
        let next = AtomicUsize::new(0);
        let failures = AtomicUsize::new(0);
        let failure: Mutex<Option<UciError>> = Mutex::new(None);
        let workers = threads.min(pool::MAX_THREADS).min(work.len()).max(1);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    let mut engine = None;
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        if at >= work.len() || limits.halt().is_some() {
                            break;
                        }
                        let (b, i) = work[at];
                        match self.judge(&boards[b], slots[b][i], &mut engine, limits) {
                            Ok(outcome) => *lock(&outcomes[at]) = outcome,
                            Err(UciError::Stopped) => break,
                            Err(error) => {
                                // A failed engine is dropped (and so reaped), never lent again.
                                // Engines die on some positions no game reaches (RBC boards
                                // can be): the position keeps its static value and the next
                                // one starts a new engine, up to a few failures a call.
                                engine = None;
                                *lock(&outcomes[at]) = Judged::Failed;
                                if failures.fetch_add(1, Ordering::Relaxed) + 1
                                    >= MAX_ENGINE_FAILURES
                                {
                                    lock(&failure).get_or_insert(error);
                                    break;
                                }
                            }
                        }
                    }
                    self.engines.give_back(engine);
                });
            }
        });
        if let Some(error) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(SearchError::Engine(error.to_string()));
        }
        Ok(outcomes
            .into_iter()
            .map(|o| o.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect())
    }

    /// `taken` on `board` (which the rules leave undecided): found in the cache, or scored by
    /// the engine (lent to this worker on its first position).
    fn judge(
        &self,
        board: &Board,
        taken: Option<Move>,
        engine: &mut Option<UciEngine>,
        limits: Limits<'_>,
    ) -> Result<Judged, UciError> {
        let mut child = board.clone();
        child.push(taken);
        let key = child.zobrist();
        if let Some(&value) = lock(&self.cache).get(&key) {
            return Ok(Judged::Cached(value));
        }
        if engine.is_none() {
            *engine = self.engines.lend()?;
        }
        let engine = engine
            .as_mut()
            .expect("an engine judge always has an engine path");
        let score = engine.score(&engine_position(&child), self.limit, limits)?;
        let value = our_value(score);
        let mut cache = lock(&self.cache);
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(key, value);
        Ok(Judged::Engine(value))
    }
}

/// What became of one (board, taken move).
enum Judged {
    Cached(i32),
    Engine(i32),
    /// The deadline or a stop came first: the static evaluation stands.
    Cut,
    /// The engine died on it: the static evaluation stands.
    Failed,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// The engine's score of the position after our move (the opponent to move), from our side, in
/// the search's units: centipawns, or a king capture at its ply for a mate.
pub fn our_value(score: Score) -> i32 {
    match score {
        // Centipawns stay clear of the king captures (at MATE_BOUND and beyond).
        Score::Centipawns(cp) => -cp.clamp(-MATE / 4, MATE / 4),
        // The opponent mates in n: our king falls at ply 2n + 1 after our move.
        Score::Mate(n) if n > 0 => -(MATE - (2 * n.min(LONGEST_MATE) + 1)),
        // The opponent is mated in k (0: now): their king falls at ply 2k + 2.
        Score::Mate(n) => MATE - (2 * n.saturating_neg().min(LONGEST_MATE) + 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_mates_become_king_captures_at_their_ply() {
        assert_eq!(our_value(Score::Centipawns(120)), -120);
        assert_eq!(our_value(Score::Centipawns(-1_000_000)), MATE / 4);
        assert_eq!(our_value(Score::Mate(0)), MATE - 2);
        assert_eq!(our_value(Score::Mate(-2)), MATE - 6);
        assert_eq!(our_value(Score::Mate(1)), -(MATE - 3));
        assert_eq!(our_value(Score::Mate(i32::MAX)), -(MATE - 2001));
        assert!(our_value(Score::Mate(i32::MIN)) >= super::super::eval::MATE_BOUND);
    }
}
