//! A searcher that keeps its tables from one search to the next (ours; the paper's tables lived
//! for one search): the exact set and reply tables, and the paper's CountSketch with its table of
//! frequent sets. A game's searches meet the same sets again and again, and an entry stays valid
//! as the game moves on: it is keyed by the set's id and the remaining depth, and a set's value at
//! a remaining depth does not depend on how the game reached it. [`search`](super::search) is a
//! fresh searcher per call.
//!
//! Memory is bounded by the configuration: `table_entries` sets and `reply_entries` boards in the
//! exact tables (new entries are refused once a table is full), `table_size` entries of k values
//! in the sketch table, and the CountSketch's `sketch_width x sketch_depth` counters. At the start
//! of a search, a table more than half full forgets the entries that the previous search neither
//! stored nor read, so a long game keeps the entries it still meets.

use std::time::Duration;

use crate::chess::Board;
use crate::stop::{Stop, NEVER};
use crate::uci::find_engine;

use super::driver;
use super::tables::{Engines, Tables};
use super::{LeafMode, RbcSearchConfig, SearchError, SearchResult};

/// Searches the information set `boards` (ours to move) `depth` of our moves deep, with a fresh
/// [`Searcher`] (its tables are dropped at the end).
pub fn search(
    boards: &[Board],
    depth: u32,
    config: &RbcSearchConfig,
) -> Result<SearchResult, SearchError> {
    search_stoppable(boards, depth, config, &NEVER)
}

/// [`search`], ended early with [`SearchError::Interrupted`] once `stop` is raised (checked at
/// every node, so within microseconds).
pub fn search_stoppable(
    boards: &[Board],
    depth: u32,
    config: &RbcSearchConfig,
    stop: &Stop,
) -> Result<SearchResult, SearchError> {
    let mut searcher = Searcher::new(config.clone())?;
    searcher.search_within(boards, depth, config.time_limit, stop)
}

/// How many entries a searcher's tables hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableSizes {
    /// Sets in the exact table (our-move, reply and sense nodes).
    pub sets: usize,
    /// Boards in the exact reply tables, every worker's (or scores in the engine leaf's cache).
    pub replies: usize,
    /// Frequent sets in the sketch table.
    pub sketch_entries: usize,
}

/// A search engine that keeps its tables between searches; see the module documentation.
pub struct Searcher {
    config: RbcSearchConfig,
    tables: Tables,
    /// Searches run so far: entries are stamped with the search that last used them.
    generation: u32,
    engines: Engines,
}

impl Searcher {
    /// A searcher for `config` (checked here: the tables' sizes come from it).
    pub fn new(config: RbcSearchConfig) -> Result<Searcher, SearchError> {
        config.validate()?;
        let engine_path = (config.leaf == LeafMode::Uci)
            .then(|| find_engine(&config.uci_engine))
            .transpose()
            .map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
        Ok(Searcher {
            tables: Tables::new(&config),
            config,
            generation: 0,
            engines: Engines::new(engine_path),
        })
    }

    pub fn config(&self) -> &RbcSearchConfig {
        &self.config
    }

    /// Searches the information set `boards` (ours to move) `depth` of our moves deep, within the
    /// configured time limit, using and filling the kept tables.
    pub fn search(&mut self, boards: &[Board], depth: u32) -> Result<SearchResult, SearchError> {
        self.search_within(boards, depth, self.config.time_limit, &NEVER)
    }

    /// [`search`](Self::search) with its own time limit (`None`: search exactly `depth`), ended
    /// early with [`SearchError::Interrupted`] once `stop` is raised.
    pub fn search_within(
        &mut self,
        boards: &[Board],
        depth: u32,
        time_limit: Option<Duration>,
        stop: &Stop,
    ) -> Result<SearchResult, SearchError> {
        if let Some(limit) = time_limit {
            RbcSearchConfig::time_limit_from_seconds(limit.as_secs_f64())?;
        }
        self.generation = self.generation.wrapping_add(1);
        self.make_room();
        let shared = driver::Shared {
            config: &self.config,
            tables: &self.tables,
            engines: &self.engines,
            generation: self.generation,
        };
        driver::run(&shared, boards, depth, time_limit, stop)
    }

    /// Forgets what the previous search did not use, in a table more than half full.
    fn make_room(&mut self) {
        let previous = self.generation.wrapping_sub(1);
        for table in [&self.tables.transpositions].into_iter().flatten() {
            if table.len() > table.capacity() / 2 {
                table.forget_older_than(previous);
            }
        }
        for table in [&self.tables.replies].into_iter().flatten() {
            if table.len() > table.capacity() / 2 {
                table.forget_older_than(previous);
            }
        }
        if let Some(tables) = &self.tables.worker_replies {
            tables.make_room(previous);
        }
    }

    /// Empties every table (and the CountSketch); the configuration stays.
    pub fn clear(&mut self) {
        self.tables = Tables::new(&self.config);
    }

    pub fn table_sizes(&self) -> TableSizes {
        TableSizes {
            sets: self.tables.transpositions.as_ref().map_or(0, |t| t.len()),
            replies: self.tables.replies.as_ref().map_or(0, |t| t.len())
                + self.tables.worker_replies.as_ref().map_or(0, |t| t.len()),
            sketch_entries: self.tables.sketch_entries(),
        }
    }
}
