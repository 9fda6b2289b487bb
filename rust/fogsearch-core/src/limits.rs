//! Every count, size and depth limit checked where a value enters, listed once: the bindings
//! export this table (`fogsearch._core.LIMITS`) and the Python package reads its bounds from it
//! instead of restating them.

use std::fmt;

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

/// A setting outside the range its table bound allows, or a bound the table does not name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LimitError {
    /// `setting` must lie in `least..=most`.
    OutOfRange {
        setting: String,
        least: u64,
        most: u64,
        value: i64,
    },
    /// No limit of that name is in [`LIMITS`].
    UnknownLimit(String),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::OutOfRange {
                setting,
                least,
                most,
                value,
            } => write!(
                f,
                "{setting} must be an integer in {least}..{most}, got {value}"
            ),
            LimitError::UnknownLimit(name) => write!(
                f,
                "no limit named {name:?} (known: {})",
                LIMITS.map(|(name, _)| name).join(", ")
            ),
        }
    }
}

impl std::error::Error for LimitError {}

/// The largest value the limit `name` allows.
pub fn most(name: &str) -> Result<u64, LimitError> {
    LIMITS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, most)| *most)
        .ok_or_else(|| LimitError::UnknownLimit(name.to_string()))
}

/// Checks a caller's setting (named `setting` in the message) against the table's bound `limit`
/// before it is used, so that a configuration fails when it is made rather than at its first
/// search. `least` is the caller's: whether 0 means "off" (a small-set depth) or is refused.
pub fn check_setting(
    setting: &str,
    limit: &str,
    least: u64,
    value: i64,
) -> Result<u64, LimitError> {
    let most = most(limit)?;
    match u64::try_from(value) {
        Ok(checked) if (least..=most).contains(&checked) => Ok(checked),
        _ => Err(LimitError::OutOfRange {
            setting: setting.to_string(),
            least,
            most,
            value,
        }),
    }
}

/// `bytes` in the largest binary unit that keeps it at least 1, one decimal (`2.0 GiB`).
pub(crate) fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut unit = 0;
    let mut scaled = bytes as f64;
    while scaled >= 1024.0 && unit + 1 < UNITS.len() {
        scaled /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{scaled:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::{check_setting, most, LimitError, LIMITS};

    #[test]
    fn every_limit_is_named_once_and_allows_something() {
        let mut names: Vec<&str> = LIMITS.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LIMITS.len());
        assert!(LIMITS.iter().all(|(_, most)| *most >= 1));
    }

    #[test]
    fn a_setting_is_checked_against_its_table_bound() {
        let deepest = most("search_depth").unwrap();
        assert_eq!(check_setting("depth", "search_depth", 1, 1), Ok(1));
        assert_eq!(
            check_setting("depth", "search_depth", 1, deepest as i64),
            Ok(deepest)
        );
        for bad in [0, -1, deepest as i64 + 1] {
            let err = check_setting("depth", "search_depth", 1, bad).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("depth must be an integer in 1..{deepest}, got {bad}")
            );
        }
        assert_eq!(check_setting("off", "board_plies", 0, 0), Ok(0));
        assert!(matches!(
            check_setting("x", "no_such_limit", 0, 1),
            Err(LimitError::UnknownLimit(_))
        ));
    }
}
