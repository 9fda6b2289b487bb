//! The state a search's worker threads share: the tables (the exact set table, the reply tables
//! lent one per worker, the sketch table) and the `uci` leaf's engines, lent to one worker at a
//! time.

use std::path::PathBuf;
use std::sync::{Mutex, RwLock};

use crate::uci::{UciEngine, UciError};

use super::reply_tables::ReplyTables;
use super::sketch_bounds::SketchBounds;
use super::transposition::{ReplyTable, TranspositionTable};
use super::{LeafMode, RbcSearchConfig};

/// The tables a search's worker threads share.
pub struct Tables {
    pub transpositions: Option<TranspositionTable>,
    /// The engine leaf's cache of scores by position, shared by every worker (its exact reply
    /// table).
    pub replies: Option<ReplyTable>,
    /// The static leaves' exact reply tables, one per worker.
    pub worker_replies: Option<ReplyTables>,
    pub sketch: Option<RwLock<SketchBounds>>,
}

impl Tables {
    pub fn new(config: &RbcSearchConfig) -> Tables {
        Tables {
            transpositions: config
                .mode
                .uses_exact_table()
                .then(|| TranspositionTable::new(config.table_entries)),
            // The engine leaf always caches its scores by position, as the paper's leaf did.
            replies: (config.leaf == LeafMode::Uci).then(|| ReplyTable::new(config.reply_entries)),
            worker_replies: (config.mode.uses_exact_table() && config.leaf != LeafMode::Uci)
                .then(|| ReplyTables::new(config.reply_entries, config.threads)),
            sketch: config.mode.uses_sketch().then(|| {
                RwLock::new(SketchBounds::new(
                    config.k,
                    config.sketch_width,
                    config.sketch_depth,
                    config.table_size,
                    config.threshold,
                    config.bound_rule,
                    config.seed,
                ))
            }),
        }
    }

    pub fn sketch_entries(&self) -> usize {
        self.sketch
            .as_ref()
            .map_or(0, |s| s.read().unwrap_or_else(|p| p.into_inner()).entries())
    }
}

/// Started engines of the `uci` leaf (none for the other leaves), lent to one worker at a time
/// and kept between searches: starting one costs tens of milliseconds.
pub struct Engines {
    path: Option<PathBuf>,
    idle: Mutex<Vec<UciEngine>>,
}

impl Engines {
    /// `path`: the engine's executable, or `None` when the leaf needs no engine.
    pub fn new(path: Option<PathBuf>) -> Engines {
        Engines {
            path,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An engine for one worker, started if none is idle (`None` without an engine leaf).
    pub fn lend(&self) -> Result<Option<UciEngine>, UciError> {
        let Some(path) = &self.path else {
            return Ok(None);
        };
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match idle {
            Some(engine) => Ok(Some(engine)),
            None => UciEngine::start(path).map(Some),
        }
    }

    /// Takes back an engine lent by [`lend`](Self::lend) (one that failed is dropped instead,
    /// which reaps it).
    pub fn give_back(&self, engine: Option<UciEngine>) {
        if let Some(engine) = engine {
            self.idle
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(engine);
        }
    }
}
