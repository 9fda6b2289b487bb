//! Iterative deepening over the root requests: depth 1, 2, ... up to the asked depth or the time
//! limit, whichever comes first, always with a completed depth to return (Stockfish's rule: the
//! search loop always has a best move).
//!
//! Root requests are independent tasks. With `threads == 1` one searcher (one table, one sketch)
//! serves every root request in order; with more threads each root request gets its own, seeded by
//! `Rng::stream(seed, request_index)`, in the shared pool of that many workers. Values in modes
//! `none` and `exact` are exact either way (only statistics change); sketch values may differ
//! between one and several threads.

use std::time::Instant;

use rayon::prelude::*;

use crate::chess::Board;
use crate::pool;
use crate::rng::Rng;
use crate::stop::{Stop, NEVER};

use super::config::MAX_DEPTH;
use super::requests::{root_requests, side_to_search};
use super::tree::{self, Searcher};
use super::{SearchConfig, SearchError, SearchResult, SearchStats};

/// Searches the information set `boards` (ours to move) `depth` of our moves deep.
pub fn search(
    boards: &[Board],
    depth: u32,
    config: &SearchConfig,
) -> Result<SearchResult, SearchError> {
    search_stoppable(boards, depth, config, &NEVER)
}

/// [`search`], ended early with [`SearchError::Interrupted`] once `stop` is raised (checked at
/// every node, so within microseconds).
pub fn search_stoppable(
    boards: &[Board],
    depth: u32,
    config: &SearchConfig,
    stop: &Stop,
) -> Result<SearchResult, SearchError> {
    config.validate()?;
    if depth == 0 {
        return Err(SearchError::ZeroDepth);
    }
    if depth > MAX_DEPTH {
        return Err(SearchError::InvalidConfig(format!(
            "depth must be at most {MAX_DEPTH} (deeper searches never finish), got {depth}"
        )));
    }
    let us = side_to_search(boards)?;
    let started = Instant::now();
    let deadline = config.time_limit.map(|limit| started + limit);
    let (set, keys) = tree::into_information_set(boards.to_vec());
    let requests = root_requests(&set, us);

    let mut shared =
        (config.threads == 1).then(|| Searcher::new(us, config, config.seed, deadline, stop));
    let mut completed: Option<(u32, Vec<i32>)> = None;
    let mut stats = SearchStats::default();
    let first_depth = if deadline.is_some() { 1 } else { depth };
    for current in first_depth..=depth {
        // Depth 1 ignores the clock so that there is always a move to return.
        let iteration_deadline = if current == 1 { None } else { deadline };
        let (values, aborted) = match shared.as_mut() {
            Some(searcher) => {
                searcher.set_deadline(iteration_deadline);
                let values: Vec<i32> = requests
                    .iter()
                    .map(|&r| searcher.root_request_value(&set, &keys, r, current))
                    .collect();
                (values, searcher.aborted)
            }
            None => {
                let outcomes: Vec<(i32, SearchStats, bool)> = pool::install(config.threads, || {
                    requests
                        .par_iter()
                        .enumerate()
                        .map(|(index, &request)| {
                            let seed = Rng::stream(config.seed, index as u64).next_u64();
                            let mut searcher =
                                Searcher::new(us, config, seed, iteration_deadline, stop);
                            let value = searcher.root_request_value(&set, &keys, request, current);
                            (value, searcher.stats.clone(), searcher.aborted)
                        })
                        .collect()
                })
                .map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
                for (_, task_stats, _) in &outcomes {
                    stats.add(task_stats);
                }
                let aborted = outcomes.iter().any(|(_, _, a)| *a);
                (outcomes.into_iter().map(|(v, _, _)| v).collect(), aborted)
            }
        };
        if stop.requested() {
            return Err(SearchError::Interrupted);
        }
        if aborted {
            break;
        }
        completed = Some((current, values));
    }
    if let Some(searcher) = &shared {
        stats.add(&searcher.stats);
    }
    // Depth 1 has no deadline and a stop returned above, so it completed.
    let Some((depth_done, values)) = completed else {
        return Err(SearchError::Interrupted);
    };
    let mut best_index = 0;
    for (index, &value) in values.iter().enumerate() {
        if value > values[best_index] {
            best_index = index;
        }
    }
    stats.elapsed_seconds = started.elapsed().as_secs_f64();
    Ok(SearchResult {
        best_move: requests[best_index],
        value: values[best_index],
        move_values: requests.iter().copied().zip(values).collect(),
        depth: depth_done,
        stats,
    })
}
