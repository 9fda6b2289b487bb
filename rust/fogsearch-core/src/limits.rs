//! Every count, size and depth limit checked where a value enters, listed once: the bindings
//! export this table (`fogsearch._core.LIMITS`) and the Python package reads its bounds from it
//! instead of restating them.

use crate::{chess, pool, search};

/// (name, largest allowed value): worker threads, the information-set search's depth (our moves),
/// the per-board search's plies, a UCI engine's depth and node budget a position, perft's depth.
pub const LIMITS: [(&str, u64); 6] = [
    ("threads", pool::MAX_THREADS as u64),
    ("search_depth", search::MAX_DEPTH as u64),
    ("board_plies", search::MAX_BOARD_PLIES as u64),
    ("uci_depth", search::MAX_UCI_DEPTH as u64),
    ("uci_nodes", search::MAX_UCI_NODES),
    ("perft_depth", chess::MAX_PERFT_DEPTH as u64),
];

#[cfg(test)]
mod tests {
    use super::LIMITS;

    #[test]
    fn every_limit_is_named_once_and_allows_something() {
        let mut names: Vec<&str> = LIMITS.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LIMITS.len());
        assert!(LIMITS.iter().all(|(_, most)| *most >= 1));
    }
}
