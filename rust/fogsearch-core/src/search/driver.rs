//! Iterative deepening over the root requests: depth 1, 2, ... up to the asked depth or the time
//! limit, whichever comes first, always with a completed depth to return (Stockfish's rule: the
//! search loop always has a best move).
//!
//! Parallel search splits the root: each root request is searched with an open window, so its
//! value is exact and independent of every other request, and `threads` workers take requests
//! from one queue while sharing the set table (lock-striped) and the sketch table (behind a
//! read-write lock). Each worker has its own reply table (`reply_tables`): a reply outcome is a
//! function of the board, and one shared table's locks cost more than the work it saved. Values
//! in modes `none` and `exact` are therefore the single-threaded search's whatever the thread
//! count (tested); only node counts and timings change. In the sketch modes which entries a
//! worker finds depends on timing, so values may differ between runs with several threads.
//!
//! With a root margin `m` (`RbcSearchConfig::root_margin`) the root is alpha-beta too: a request
//! started once some request is known to be worth `b` is first searched with a null window at
//! `b - m`, and only searched again for its exact value if it reaches that. Every request within
//! `m` of the final best therefore gets its exact value, whatever the order or thread count; the
//! others are reported at `best - m - 1` (an upper bound they are proven to lie under), so the
//! result too is the same for any thread count. Each iteration then searches the requests in
//! the order of the previous one's values, best first.
//!
//! Why root splitting (measured, bench/RESULTS.md): a root request's subtree is the unit with no
//! shared window to wait for, so workers never idle on a young brother's result (as in YBWC) and
//! never search the same nodes twice (as lazy SMP's helpers do; with exact tables a helper only
//! re-reads what the main thread stored). Its limit is balance: the queue hands out the requests
//! the previous iteration found dearest first, so the last requests to finish are cheap ones, but
//! one request can still cost more than the rest together at the largest thread counts.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::chess::{Board, Color, Move};
use crate::pool;
use crate::stop::Stop;
use crate::uci::UciError;

use super::config::MAX_DEPTH;
use super::eval::INFINITY;
use super::requests::{root_requests, side_to_search};
use super::tables::{Engines, Tables};
use super::tree::{self, TreeSearch};
use super::{RbcSearchConfig, RequestCompletion, SearchError, SearchResult, SearchStats};

/// What a search's workers share: the settings, the tables and the engines, and the searcher's
/// count of searches (stamped on the entries they use).
pub struct Shared<'a> {
    pub config: &'a RbcSearchConfig,
    pub tables: &'a Tables,
    pub engines: &'a Engines,
    pub generation: u32,
}

/// One root request searched at one depth.
struct Finished {
    index: usize,
    value: i32,
    /// False for an upper bound (a null-window search at the root margin failed low).
    exact: bool,
    nodes: u64,
    seconds: f64,
}

/// What one iteration (one depth) of the root search gave.
#[derive(Default)]
struct Iteration {
    /// Its depth (our moves).
    depth: u32,
    finished: Vec<Finished>,
    stats: SearchStats,
    aborted: bool,
    engine_error: Option<UciError>,
}

/// The root search of one depth over `order` (indices into `requests`).
struct Root<'a> {
    shared: &'a Shared<'a>,
    us: Color,
    set: &'a [Board],
    keys: &'a [u64],
    requests: &'a [Option<Move>],
    depth: u32,
    deadline: Option<Instant>,
    stop: &'a Stop,
    started: Instant,
    /// The best exact value found so far in this iteration (with a root margin).
    best: AtomicI32,
}

impl Root<'_> {
    /// The value a request must reach to need its exact value: the best so far less the margin
    /// (none without a margin, or before any request is valued).
    fn floor(&self) -> Option<i32> {
        let margin = self.shared.config.root_margin?;
        let best = self.best.load(Ordering::Relaxed);
        (best > -INFINITY).then(|| best - margin as i32)
    }

    /// One worker: takes the next request of `order` from `next` until none is left or the
    /// iteration is abandoned (`abandon`), and adds what it did to `into`.
    fn work(
        &self,
        order: &[usize],
        next: &AtomicUsize,
        abandon: &AtomicBool,
        into: &Mutex<Iteration>,
    ) {
        let mut tree = TreeSearch::new(
            self.us,
            self.shared.config,
            self.shared.tables,
            self.shared.generation,
            self.deadline,
            self.stop,
        );
        let mut done = Vec::new();
        match self.shared.engines.lend() {
            Ok(engine) => tree.engine = engine,
            Err(error) => {
                tree.engine_error = Some(error);
                tree.aborted = true;
            }
        }
        while !tree.aborted && !abandon.load(Ordering::Relaxed) {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = order.get(at) else { break };
            let nodes_before = tree.stats.nodes;
            let (value, exact) = tree.root_request_value(
                self.set,
                self.keys,
                self.requests[index],
                self.depth,
                self.floor(),
            );
            if tree.aborted {
                break;
            }
            if exact {
                self.best.fetch_max(value, Ordering::Relaxed);
            }
            done.push(Finished {
                index,
                value,
                exact,
                nodes: tree.stats.nodes - nodes_before,
                seconds: self.started.elapsed().as_secs_f64(),
            });
        }
        if tree.aborted {
            abandon.store(true, Ordering::Relaxed);
        }
        let engine = tree.engine.take();
        if tree.engine_error.is_none() {
            self.shared.engines.give_back(engine);
        }
        let mut iteration = into.lock().unwrap_or_else(|p| p.into_inner());
        iteration.finished.extend(done);
        iteration.stats.add(&tree.stats);
        iteration.aborted |= tree.aborted;
        if iteration.engine_error.is_none() {
            iteration.engine_error = tree.engine_error.take();
        }
    }

    fn run(&self, order: &[usize], threads: usize) -> Result<Iteration, SearchError> {
        let next = AtomicUsize::new(0);
        let abandon = AtomicBool::new(false);
        let iteration = Mutex::new(Iteration {
            depth: self.depth,
            ..Iteration::default()
        });
        if threads == 1 {
            self.work(order, &next, &abandon, &iteration);
        } else {
            pool::install(threads, || {
                rayon::scope(|scope| {
                    for _ in 0..threads {
                        scope.spawn(|_| self.work(order, &next, &abandon, &iteration));
                    }
                })
            })
            .map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
        }
        Ok(iteration.into_inner().unwrap_or_else(|p| p.into_inner()))
    }
}

/// The search of [`Searcher::search_within`](super::Searcher::search_within).
pub(super) fn run(
    shared: &Shared<'_>,
    boards: &[Board],
    depth: u32,
    time_limit: Option<Duration>,
    stop: &Stop,
) -> Result<SearchResult, SearchError> {
    check_depth(depth)?;
    let us = side_to_search(boards)?;
    let started = Instant::now();
    let deadline = time_limit.map(|limit| started + limit);
    let (set, keys) = tree::into_information_set(boards.to_vec());
    let requests = root_requests(&set, us);
    let mut deepening = Deepening::new(requests.len());
    let first_depth = if deadline.is_some() { 1 } else { depth };
    for current in first_depth..=depth {
        // Depth 1 ignores the clock so that there is always a move to return.
        let iteration_deadline = if current == 1 { None } else { deadline };
        let root = Root {
            shared,
            us,
            set: &set,
            keys: &keys,
            requests: &requests,
            depth: current,
            deadline: iteration_deadline,
            stop,
            started,
            best: AtomicI32::new(-INFINITY),
        };
        let iteration = root.run(&deepening.order, shared.config.threads)?;
        if !deepening.take(shared.config, &requests, iteration, stop)? {
            break;
        }
    }
    deepening.stats.elapsed_seconds = started.elapsed().as_secs_f64();
    deepening.result(&requests)
}

/// The depth a search may be asked for: 1 to [`MAX_DEPTH`].
fn check_depth(depth: u32) -> Result<(), SearchError> {
    if depth == 0 {
        return Err(SearchError::ZeroDepth);
    }
    if depth > MAX_DEPTH {
        return Err(SearchError::InvalidConfig(format!(
            "depth must be at most {MAX_DEPTH} (deeper searches never finish), got {depth}"
        )));
    }
    Ok(())
}

/// What iterative deepening keeps from one depth to the next.
struct Deepening {
    /// The order the next iteration takes the root requests in (indices into them): move-action
    /// order at first; then the previous depth's best (with a root margin) or dearest requests
    /// first, so that no worker is left with a long request at the end while the others idle.
    order: Vec<usize>,
    /// The deepest completed iteration and its `(value, exact)` per request.
    completed: Option<(u32, Vec<(i32, bool)>)>,
    stats: SearchStats,
    timeline: Vec<RequestCompletion>,
}

impl Deepening {
    fn new(requests: usize) -> Self {
        Deepening {
            order: (0..requests).collect(),
            completed: None,
            stats: SearchStats::default(),
            timeline: Vec::new(),
        }
    }

    /// Takes an iteration in: its statistics and finished requests, and its
    /// values when it completed. Whether deepening goes on (false once an iteration was
    /// abandoned); an engine's failure or a stop is the search's error.
    fn take(
        &mut self,
        config: &RbcSearchConfig,
        requests: &[Option<Move>],
        iteration: Iteration,
        stop: &Stop,
    ) -> Result<bool, SearchError> {
        let current = iteration.depth;
        self.stats.add(&iteration.stats);
        let mut values = vec![None; requests.len()];
        let mut nodes = vec![0; requests.len()];
        for f in &iteration.finished {
            values[f.index] = Some((f.value, f.exact));
            nodes[f.index] = f.nodes;
            self.timeline.push(RequestCompletion {
                depth: current,
                request: requests[f.index],
                value: f.value,
                exact: f.exact,
                nodes: f.nodes,
                seconds: f.seconds,
            });
        }
        if let Some(error) = iteration.engine_error {
            return Err(SearchError::Engine(error.to_string()));
        }
        if stop.requested() {
            return Err(SearchError::Interrupted);
        }
        if iteration.aborted {
            return Ok(false);
        }
        let values: Vec<(i32, bool)> = values
            .into_iter()
            .map(|v| v.expect("a completed iteration values every request"))
            .collect();
        let values = cap_below_margin(values, config.root_margin);
        if config.root_margin.is_some() {
            self.order = (0..requests.len()).collect();
            self.order.sort_by_key(|&i| Reverse(values[i].0));
        } else if config.threads > 1 {
            self.order.sort_by_key(|&i| Reverse(nodes[i]));
        }
        self.completed = Some((current, values));
        Ok(true)
    }

    /// The search's result: the deepest completed iteration's best request and values.
    fn result(self, requests: &[Option<Move>]) -> Result<SearchResult, SearchError> {
        // Depth 1 has no deadline and a stop returned above, so it completed.
        let Some((depth_done, values)) = self.completed else {
            return Err(SearchError::Interrupted);
        };
        let mut best_index = 0;
        for (index, &(value, _)) in values.iter().enumerate() {
            if value > values[best_index].0 {
                best_index = index;
            }
        }
        let below_margin = (0..requests.len())
            .filter(|&i| !values[i].1)
            .map(|i| requests[i])
            .collect();
        Ok(SearchResult {
            best_move: requests[best_index],
            value: values[best_index].0,
            move_values: requests
                .iter()
                .copied()
                .zip(values.iter().map(|&(value, _)| value))
                .collect(),
            below_margin,
            depth: depth_done,
            stats: self.stats,
            timeline: self.timeline,
        })
    }
}

/// An iteration's `(value, exact)` per request as reported: with a root margin `m`, every request
/// not exact or more than `m` below the best becomes `(best - m - 1, false)`. Which requests got
/// exact values depends on the order they were searched in, but every one within `m` of the best
/// did (its null window was at most `best - m`), so the result does not.
fn cap_below_margin(values: Vec<(i32, bool)>, margin: Option<u32>) -> Vec<(i32, bool)> {
    let Some(margin) = margin else {
        return values;
    };
    let best = values
        .iter()
        .filter(|&&(_, exact)| exact)
        .map(|&(value, _)| value)
        .max()
        .expect("the first request searched has no floor, so it is exact");
    let floor = best - margin as i32;
    values
        .into_iter()
        .map(|(value, exact)| {
            if exact && value >= floor {
                (value, true)
            } else {
                (floor - 1, false)
            }
        })
        .collect()
}
