//! How a search runs: the one definition of its settings, their defaults, their names as Python
//! sees them, and their limits. The Python `SearchConfig` takes its defaults from
//! [`RbcSearchConfig::default`] and is checked by [`RbcSearchConfig::validate`]; nothing else restates
//! either.

use std::time::Duration;

use crate::pool;

use super::SearchError;

/// A setting chosen by name: `NAMES` (what Python shows, in the variants' order), `from_name`
/// (refusing any other name, listing the choices) and `name`.
macro_rules! named_choices {
    ($ty:ident, $setting:literal, [$($variant:ident => $name:literal),+ $(,)?]) => {
        impl $ty {
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            pub fn from_name(name: &str) -> Result<$ty, SearchError> {
                from_name($setting, name, &Self::NAMES, &[$($ty::$variant),+])
            }

            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }
    };
}

/// Which tables the search keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No table: the paper's baseline.
    None,
    /// Exact tables keyed by set id and remaining depth, and a per-board reply table (ours, not
    /// the paper's).
    Exact,
    /// The paper's CountSketch / MinHash bounds (§6), with the bound rule of
    /// [`RbcSearchConfig::bound_rule`].
    Sketch,
    /// Both.
    ExactAndSketch,
}

named_choices!(Mode, "mode", [
    None => "none",
    Exact => "exact",
    Sketch => "sketch",
    ExactAndSketch => "exact+sketch",
]);

impl Mode {
    pub fn uses_exact_table(self) -> bool {
        matches!(self, Mode::Exact | Mode::ExactAndSketch)
    }

    pub fn uses_sketch(self) -> bool {
        matches!(self, Mode::Sketch | Mode::ExactAndSketch)
    }
}

/// How a leaf board is scored after the opponent's last reply. The first three are ours; the
/// paper scored leaves with a chess engine, which [`LeafMode::Uci`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafMode {
    /// Material plus piece-square tables (ours).
    Static,
    /// The static evaluation plus what we win back by recapturing where the reply captured (a
    /// static exchange on that square; see `exchange`). Never below `Static`.
    Exchange,
    /// The static evaluation plus both kings' safety (zone attacks and pawn shield; see
    /// `king_safety`), scored on the board before the reply.
    KingSafety,
    /// A UCI chess engine's score of the board after our last request (the opponent to move; its
    /// search stands in for the reply), at a fixed depth or node budget, cached by position: the
    /// paper's kind of leaf (see `crate::uci`). A board on which a reply takes our king is a loss
    /// without asking the engine.
    Uci,
}

named_choices!(LeafMode, "leaf", [
    Static => "static",
    Exchange => "exchange",
    KingSafety => "king_safety",
    Uci => "uci",
]);

/// How our sense is chosen inside the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenseMode {
    /// Max over every distinct sense partition (the paper's).
    Search,
    /// Only the sense minimising the expected set size (sum n_r^2 / N): much cheaper.
    MinSize,
    /// The same max as `Search`, pruned (ours): a partition another refines is skipped, the
    /// cell most likely to refute a choice is searched first, and the node is settled once one
    /// board's value alone is reached. Exact wherever a set is worth at least as much as any
    /// superset (see `tree`'s sense node).
    Finest,
}

named_choices!(SenseMode, "sense_mode", [
    Search => "search",
    MinSize => "min_size",
    Finest => "finest",
]);

/// How a sketch table entry's Jaccard estimate becomes the probability that it bounds a set (see
/// `sketch_bounds`). An entry with the set's own id is always used exactly, whatever the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundRule {
    /// Ours: a sampled Jaccard index counts at its one-sided 95 % Wilson lower bound, and each
    /// probability is capped by the share of the set's sampled boards found in the other set.
    /// At threshold 1 it uses only containments the signatures prove.
    Wilson,
    /// The paper's (§5.2, §6): the point estimate of J from the bottom-k signatures, |X∩q| =
    /// J (|X| + |q|) / (1 + J) (the erratum's corrected formula), used when the probability
    /// reaches the threshold.
    Point,
}

named_choices!(BoundRule, "bound_rule", [
    Wilson => "wilson",
    Point => "point",
]);

fn from_name<T: Copy>(
    setting: &str,
    name: &str,
    names: &[&str],
    values: &[T],
) -> Result<T, SearchError> {
    names
        .iter()
        .position(|&n| n == name)
        .map(|i| values[i])
        .ok_or_else(|| {
            SearchError::InvalidConfig(format!(
                "{setting} must be one of {}, got {name:?}",
                names
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// The largest MinHash signature: each searched set hashes all its boards into one, so a larger
/// k costs every node more than the bounds can save.
pub const MAX_K: usize = 4096;
/// The most CountSketch counters (width x depth): 2^24 counters are 128 MiB.
pub const MAX_SKETCH_COUNTERS: usize = 1 << 24;
/// The most CountSketch rows.
pub const MAX_SKETCH_DEPTH: usize = 64;
/// The most frequent sets kept with their values: every sketch-mode node compares its set with
/// each entry, so a larger table costs more per node than it can save.
pub const MAX_TABLE_SIZE: usize = 65_536;
/// The most sets the exact table of one search or [`Searcher`](super::Searcher) keeps: about 64
/// bytes each at worst, so 2^27 sets are 8 GiB.
pub const MAX_TABLE_ENTRIES: usize = 1 << 27;
/// The most boards the exact reply table keeps: about 32 bytes each at worst, so 2^28 boards are
/// 8 GiB.
pub const MAX_REPLY_ENTRIES: usize = 1 << 28;
/// The deepest engine search per leaf: every leaf pays for it, and depth 40 already takes
/// minutes a position.
pub const MAX_UCI_DEPTH: u32 = 40;
/// The largest engine node budget per leaf: 10^8 nodes are about a minute a position.
pub const MAX_UCI_NODES: u64 = 100_000_000;
/// The deepest search: depth 5 from the start already takes hours; deeper ones never finish.
pub const MAX_DEPTH: u32 = 32;
/// The longest time limit, a day: longer than any game clock, and exactly representable.
pub const MAX_TIME_LIMIT_SECONDS: f64 = 86_400.0;
/// The widest root margin: a king capture's value; any wider margin keeps every value exact.
pub const MAX_ROOT_MARGIN: u32 = super::eval::MATE as u32;

#[derive(Clone, Debug, PartialEq)]
pub struct RbcSearchConfig {
    pub mode: Mode,
    /// Minimum probability for a sketch table entry to be used as a bound, in (0, 1]. With the
    /// default Wilson rule, 1 uses only containments the signatures prove (see `sketch_bounds`);
    /// the paper used thresholds below 1 with its point rule.
    pub threshold: f64,
    /// How a sketch entry's Jaccard estimate becomes a bound probability.
    pub bound_rule: BoundRule,
    /// MinHash signature size.
    pub k: usize,
    pub sketch_width: usize,
    pub sketch_depth: usize,
    /// Number of frequent sets kept with their values (the paper's queue).
    pub table_size: usize,
    /// The sketch bounds are looked up and recorded at nodes with at least this many of our moves
    /// left (every node kind). With 1 left, a node's whole subtree costs about as much as
    /// comparing its set with a large table; the paper found depth 3 the least its algorithm
    /// could be used at.
    pub sketch_min_depth: u32,
    /// Capacity of the exact set table in sets (exact modes); bounds its memory.
    pub table_entries: usize,
    /// Capacity of the exact reply tables in boards, every worker's together (exact modes: a
    /// table per worker thread of `reply_entries / threads`; and the engine leaf's shared cache
    /// of scores); bounds their memory.
    pub reply_entries: usize,
    pub sense_mode: SenseMode,
    pub leaf: LeafMode,
    /// The engine of the `uci` leaf: a path, or a name looked up on `PATH` (and in `/usr/games`,
    /// where Debian installs Stockfish).
    pub uci_engine: String,
    /// The engine's search depth per leaf (`go depth`), 1 to [`MAX_UCI_DEPTH`].
    pub uci_depth: u32,
    /// The engine's node budget per leaf (`go nodes`), 0 for none, at most [`MAX_UCI_NODES`].
    pub uci_nodes: u64,
    /// Worker threads: root requests are split over them, sharing every table.
    pub threads: usize,
    /// With a limit, iterative deepening returns the deepest completed depth (depth 1 always
    /// completes unless the search is stopped).
    pub time_limit: Option<Duration>,
    /// `None`: every root request's value is exact (the paper's anytime view, the default).
    /// `Some(m)`: alpha-beta at the root too: only requests within `m` centipawns of the best
    /// get exact values; each other is only proven to lie further below (a null-window search),
    /// and reports `best - m - 1`, an upper bound (ours; see `driver`).
    pub root_margin: Option<u32>,
    pub seed: u64,
}

impl Default for RbcSearchConfig {
    fn default() -> Self {
        RbcSearchConfig {
            mode: Mode::None,
            threshold: 1.0,
            bound_rule: BoundRule::Wilson,
            k: 64,
            sketch_width: 1024,
            sketch_depth: 5,
            // 64 (the default until 2026-11-26) cut the baseline's nodes at depth 3 from the
            // start by a third; 4096 by nine tenths, and no more entries were ever needed there
            // (bench/RESULTS.md, the table-size sweep).
            table_size: 4096,
            sketch_min_depth: 2,
            table_entries: 4_000_000,
            // 16 M until 2026-11-28: a larger table saves leaf evaluations but costs more in
            // cache misses than it saves. Depth 4 from the start, every value: 595 s with 16 M,
            // 526 s with 1 M; depth 3 from the start needs 433 k (bench/RESULTS.md).
            reply_entries: 1_000_000,
            sense_mode: SenseMode::Search,
            leaf: LeafMode::Static,
            uci_engine: "stockfish".to_string(),
            uci_depth: 6,
            uci_nodes: 0,
            threads: 1,
            time_limit: None,
            root_margin: None,
            seed: 0,
        }
    }
}

impl RbcSearchConfig {
    /// Checks every setting against its limit; the message names the setting, the limit and why.
    pub fn validate(&self) -> Result<(), SearchError> {
        let invalid = |message: String| Err(SearchError::InvalidConfig(message));
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return invalid(format!(
                "threshold must be a probability in (0, 1], got {}",
                self.threshold
            ));
        }
        for (name, value, max, why) in [
            (
                "k",
                self.k,
                MAX_K,
                "every searched set is hashed into k values",
            ),
            (
                "sketch_depth",
                self.sketch_depth,
                MAX_SKETCH_DEPTH,
                "each row is another hash per update",
            ),
            (
                "table_size",
                self.table_size,
                MAX_TABLE_SIZE,
                "each sketch-mode node compares its set with every entry",
            ),
            (
                "table_entries",
                self.table_entries,
                MAX_TABLE_ENTRIES,
                "about 64 bytes a set: 8 GiB",
            ),
            (
                "reply_entries",
                self.reply_entries,
                MAX_REPLY_ENTRIES,
                "about 32 bytes a board: 8 GiB",
            ),
            (
                "uci_depth",
                self.uci_depth as usize,
                MAX_UCI_DEPTH as usize,
                "every leaf pays for the engine's search",
            ),
        ] {
            if value == 0 || value > max {
                return invalid(format!(
                    "{name} must be between 1 and {max} ({why}), got {value}"
                ));
            }
        }
        let counters = self.sketch_width.saturating_mul(self.sketch_depth);
        if self.sketch_width == 0 || counters > MAX_SKETCH_COUNTERS {
            return invalid(format!(
                "sketch_width must be at least 1 and sketch_width x sketch_depth at most \
                 {MAX_SKETCH_COUNTERS} counters ({} MiB), got {} x {}",
                (MAX_SKETCH_COUNTERS * 8) >> 20,
                self.sketch_width,
                self.sketch_depth
            ));
        }
        if !(1..=MAX_DEPTH).contains(&self.sketch_min_depth) {
            return invalid(format!(
                "sketch_min_depth must be between 1 and {MAX_DEPTH} (the deepest search), got {}",
                self.sketch_min_depth
            ));
        }
        if self.uci_nodes > MAX_UCI_NODES {
            return invalid(format!(
                "uci_nodes must be at most {MAX_UCI_NODES} (about a minute a leaf), or 0 for no \
                 budget, got {}",
                self.uci_nodes
            ));
        }
        if self.leaf == LeafMode::Uci {
            crate::uci::find_engine(&self.uci_engine)
                .map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
        }
        pool::check_threads(self.threads).map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
        if let Some(margin) = self.root_margin.filter(|&m| m > MAX_ROOT_MARGIN) {
            return invalid(format!(
                "root_margin must be at most {MAX_ROOT_MARGIN} centipawns (a king capture; wider \
                 keeps every value exact, as None does), got {margin}"
            ));
        }
        if let Some(limit) = self.time_limit {
            if limit.is_zero() || limit.as_secs_f64() > MAX_TIME_LIMIT_SECONDS {
                return invalid(format!(
                    "time_limit must be more than 0 and at most {MAX_TIME_LIMIT_SECONDS} seconds \
                     (a day), got {} s",
                    limit.as_secs_f64()
                ));
            }
        }
        Ok(())
    }

    /// A time limit in seconds as a duration, checked: positive, finite and at most a day.
    pub fn time_limit_from_seconds(seconds: f64) -> Result<Duration, SearchError> {
        if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIME_LIMIT_SECONDS {
            Ok(Duration::from_secs_f64(seconds))
        } else {
            Err(SearchError::InvalidConfig(format!(
                "time_limit must be a number of seconds more than 0 and at most \
                 {MAX_TIME_LIMIT_SECONDS} (a day), got {seconds}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_choices() {
        for name in Mode::NAMES {
            assert_eq!(Mode::from_name(name).unwrap().name(), name);
        }
        for name in LeafMode::NAMES {
            assert_eq!(LeafMode::from_name(name).unwrap().name(), name);
        }
        for name in SenseMode::NAMES {
            assert_eq!(SenseMode::from_name(name).unwrap().name(), name);
        }
        for name in BoundRule::NAMES {
            assert_eq!(BoundRule::from_name(name).unwrap().name(), name);
        }
        assert_eq!(RbcSearchConfig::default().bound_rule, BoundRule::Wilson);
        assert_eq!(RbcSearchConfig::default().leaf, LeafMode::Static);
        let err = Mode::from_name("fast").unwrap_err().to_string();
        assert!(
            err.contains("\"exact+sketch\"") && err.contains("\"fast\""),
            "{err}"
        );
    }

    #[test]
    fn every_limit_is_enforced_with_its_name() {
        let base = RbcSearchConfig::default();
        assert!(base.validate().is_ok());
        let cases: Vec<(RbcSearchConfig, &str)> = vec![
            (
                RbcSearchConfig {
                    k: 0,
                    ..base.clone()
                },
                "k must be",
            ),
            (
                RbcSearchConfig {
                    k: MAX_K + 1,
                    ..base.clone()
                },
                "k must be",
            ),
            (
                RbcSearchConfig {
                    sketch_width: 1 << 40,
                    ..base.clone()
                },
                "sketch_width",
            ),
            (
                RbcSearchConfig {
                    sketch_width: 0,
                    ..base.clone()
                },
                "sketch_width",
            ),
            (
                RbcSearchConfig {
                    table_size: 1 << 20,
                    ..base.clone()
                },
                "table_size",
            ),
            (
                RbcSearchConfig {
                    threads: 20_000,
                    ..base.clone()
                },
                "threads",
            ),
            (
                RbcSearchConfig {
                    threads: 0,
                    ..base.clone()
                },
                "threads",
            ),
            (
                RbcSearchConfig {
                    threshold: 0.0,
                    ..base.clone()
                },
                "threshold",
            ),
            (
                RbcSearchConfig {
                    threshold: f64::NAN,
                    ..base.clone()
                },
                "threshold",
            ),
            (
                RbcSearchConfig {
                    time_limit: Some(Duration::from_secs(1 << 40)),
                    ..base.clone()
                },
                "time_limit",
            ),
            (
                RbcSearchConfig {
                    table_entries: 0,
                    ..base.clone()
                },
                "table_entries must be between 1 and 134217728",
            ),
            (
                RbcSearchConfig {
                    reply_entries: MAX_REPLY_ENTRIES + 1,
                    ..base.clone()
                },
                "reply_entries must be between 1 and 268435456",
            ),
            (
                RbcSearchConfig {
                    uci_depth: 0,
                    ..base.clone()
                },
                "uci_depth",
            ),
            (
                RbcSearchConfig {
                    sketch_min_depth: 0,
                    ..base.clone()
                },
                "sketch_min_depth",
            ),
            (
                RbcSearchConfig {
                    uci_nodes: MAX_UCI_NODES + 1,
                    ..base.clone()
                },
                "uci_nodes",
            ),
            (
                RbcSearchConfig {
                    leaf: LeafMode::Uci,
                    uci_engine: "/no/such/engine".to_string(),
                    ..base.clone()
                },
                "/no/such/engine",
            ),
            (
                RbcSearchConfig {
                    root_margin: Some(MAX_ROOT_MARGIN + 1),
                    ..base.clone()
                },
                "root_margin",
            ),
        ];
        for (config, name) in cases {
            let err = config.validate().unwrap_err().to_string();
            assert!(err.contains(name), "{err}");
        }
    }

    #[test]
    fn time_limits_are_checked_before_they_become_durations() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e20] {
            assert!(
                RbcSearchConfig::time_limit_from_seconds(bad).is_err(),
                "{bad}"
            );
        }
        assert_eq!(
            RbcSearchConfig::time_limit_from_seconds(1.5).unwrap(),
            Duration::from_millis(1500)
        );
    }
}
