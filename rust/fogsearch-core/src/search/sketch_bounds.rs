//! The paper's accelerated search (§6): every searched set gets an id, a size and a bottom-k
//! MinHash signature; a CountSketch counts how often each set is searched or used as a bound; a
//! table of the most frequent sets (the paper's queue) keeps their values. A set X met again is
//! compared with every table entry q of the same remaining depth and node kind:
//! - q bounds X from above (v(X) <= v(q)) when q's worst board lies in X: P ~ |X∩q| / |q|;
//! - q bounds X from below (v(X) >= v(q)) when X's worst board lies in q: P ~ |X∩q| / |X|;
//!
//! with |X∩q| = J (|X| + |q|) / (1 + J) from the estimated Jaccard index J (the paper's `1 - J`
//! denominator is an erratum). Bounds whose probability reaches the threshold are used, the
//! tightest of each kind; the CountSketch is updated at most three times per set (once for each
//! bound used, once for the set itself when it is searched), as in §7.
//!
//! Sets are looked up and recorded at every kind of node (our move, the reply node after its
//! resolution, our sense) with at least `sketch_min_depth` moves left: with one move left a node's
//! whole subtree costs about what comparing its set with a large table does, so there the
//! bookkeeping ate the savings (measured, bench/NOTEBOOK.md).
//!
//! An entry with X's own set id is X: its value is used exactly (as the bound its flag says), in
//! every bound rule, without estimating anything.
//!
//! How J becomes a probability is the [`BoundRule`]:
//! - `Point` (the paper's): the point estimate shared / sampled of the bottom-k signatures.
//! - `Wilson` (ours, the default): where both signatures hold their whole sets and the union, J is
//!   exact. Otherwise J is estimated from k sampled values, and a near-identical pair (J = 0.97,
//!   say) reads as J = 1 with high probability at k = 64: the point estimate then claims a
//!   containment that does not hold, and on recorded sets this moved root values by up to 400 cp
//!   even at threshold 1. So a sampled J enters as its one-sided 95 % Wilson lower confidence
//!   bound: 64 of 64 shared values give 0.96, not 1, and threshold 1 means "exactly contained".
//!   Each probability is also capped by the direct evidence, the share of the set's sampled
//!   boards found in the other (see [`wilson_probabilities`]), because for a small q beside a
//!   large X the Jaccard route overstates |X∩q|.
//!
//! Two shortcuts (ours) keep the bookkeeping cheaper than the nodes it saves, without changing
//! which bound is used: an entry is compared only if its value could narrow the window (an upper
//! bound at or above `beta`, or a lower bound at or below `alpha`, neither cuts nor narrows) and
//! its size allows the needed containment (|X∩q| <= min(|X|, |q|)); and a set's signature is
//! computed only when a comparison or an insertion needs it.
//!
//! The table is shared by a search's worker threads behind a read-write lock: comparisons take
//! the read lock ([`SketchBounds::find`]), counting and recording the write lock, through each
//! worker's [`SketchWriter`], which never waits for a reader.

use std::collections::HashMap;
use std::sync::{RwLock, RwLockWriteGuard, TryLockError};

use crate::rng::splitmix64;
use crate::sketch::{intersection_of_valid, BottomKMinHash, JaccardSample, TopK};

use super::config::BoundRule;
use super::transposition::{value_from_table, value_to_table, Flag};

/// One-sided 95 % normal quantile for the Wilson lower bound on a sampled Jaccard index.
const WILSON_Z: f64 = 1.645;

/// The Jaccard index to trust: exact when the sample is the whole union, else the Wilson lower
/// confidence bound of the sampled proportion.
fn cautious_jaccard(sample: JaccardSample) -> f64 {
    cautious_fraction(sample.shared, sample.sampled, sample.exact())
}

/// `shared / trials` when it is exact, else its one-sided 95 % Wilson lower confidence bound.
fn cautious_fraction(shared: usize, trials: usize, exact: bool) -> f64 {
    if trials == 0 {
        return 0.0;
    }
    let n = trials as f64;
    let p = shared as f64 / n;
    if exact {
        return p;
    }
    let z2 = WILSON_Z * WILSON_Z;
    let centre = p + z2 / (2.0 * n);
    let spread = WILSON_Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - spread) / (1.0 + z2 / n)).max(0.0)
}

/// The probabilities that q bounds X from above (q's worst board lies in X, about |X∩q| / |q|)
/// and from below (X's worst board lies in q, about |X∩q| / |X|), for X of `size` and q of
/// `entry_size`, by the paper's rule: the point estimate of J.
pub fn point_probabilities(sample: JaccardSample, size: usize, entry_size: usize) -> (f64, f64) {
    if sample.sampled == 0 {
        return (0.0, 0.0);
    }
    let jaccard = sample.shared as f64 / sample.sampled as f64;
    let intersection = intersection_of_valid(jaccard, size as f64, entry_size as f64);
    (intersection / entry_size as f64, intersection / size as f64)
}

/// [`point_probabilities`] by our cautious rule: the Wilson lower bound of J, each probability
/// capped by the direct evidence (the share of the set's sampled boards that the other set
/// holds). A small q beside a large X needs the cap: there |X∩q| is a small difference of
/// estimates, and a sampled Jaccard index 10 % off made 39 boards of which 10 were seen read as
/// "q inside X" (and moved a root value by 9 cp through a bound 187 cp too low).
pub fn wilson_probabilities(sample: JaccardSample, size: usize, entry_size: usize) -> (f64, f64) {
    let jaccard = cautious_jaccard(sample);
    if jaccard <= 0.0 {
        return (0.0, 0.0);
    }
    let intersection = intersection_of_valid(jaccard, size as f64, entry_size as f64);
    let q_in_x = cautious_fraction(sample.shared, sample.held.1, sample.whole.1);
    let x_in_q = cautious_fraction(sample.shared, sample.held.0, sample.whole.0);
    (
        (intersection / entry_size as f64).min(q_in_x),
        (intersection / size as f64).min(x_in_q),
    )
}

impl BoundRule {
    /// (P(q bounds X from above), P(q bounds X from below)) by this rule.
    pub fn probabilities(
        self,
        sample: JaccardSample,
        size: usize,
        entry_size: usize,
    ) -> (f64, f64) {
        match self {
            BoundRule::Point => point_probabilities(sample, size, entry_size),
            BoundRule::Wilson => wilson_probabilities(sample, size, entry_size),
        }
    }
}

/// Floating-point slack so that exact containment (P = 1 up to rounding) meets a threshold of 1.
const PROBABILITY_SLACK: f64 = 1e-9;

/// A searched set as the table records it: its frequency key and class, its size, and its value
/// with its alpha-beta flag, found at `ply`.
#[derive(Clone, Copy, Debug)]
pub struct Searched {
    pub key: u64,
    pub class: u64,
    pub size: usize,
    pub value: i32,
    pub flag: Flag,
    pub ply: u32,
}

struct TableEntry {
    /// [`frequency_key`] of the set (node kind folded into the id) and depth.
    key: u64,
    size: usize,
    signature: BottomKMinHash,
    /// Node-relative (see `value_to_table`).
    value: i32,
    flag: Flag,
}

/// What the table says about a set: its exact value (its own entry, searched to an exact value),
/// or the tightest bounds found with the keys of the entries that supplied them.
#[derive(Debug, Default)]
pub struct Found {
    pub exact: Option<i32>,
    pub lower: Option<(i32, u64)>,
    pub upper: Option<(i32, u64)>,
    /// Whether one of the bounds came from the set's own entry (an exact match).
    pub matched: bool,
}

impl Found {
    /// The keys of the entries whose values are used (counted as occurrences, as in §6).
    fn used_keys(&self) -> impl Iterator<Item = u64> + '_ {
        [self.lower, self.upper]
            .into_iter()
            .flatten()
            .map(|(_, key)| key)
    }

    pub fn used(&self) -> u64 {
        self.used_keys().count() as u64
    }
}

/// The paper's queue: the `table_size` sets with the highest CountSketch estimates ([`TopK`]
/// keeps them in a heap), each with its size, signature and value, grouped by class so that a
/// lookup reads only the entries it may compare with.
pub struct SketchBounds {
    frequent: TopK,
    classes: HashMap<u64, Vec<TableEntry>>,
    /// Where each entry is: its class and its index in that class's list.
    places: HashMap<u64, (u64, usize)>,
    k: usize,
    seed: u64,
    threshold: f64,
    rule: BoundRule,
}

/// The CountSketch key of a set at a remaining depth (values depend on both).
pub fn frequency_key(set_id: u64, depth: u32) -> u64 {
    splitmix64(set_id ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl SketchBounds {
    /// Parameters are validated by `RbcSearchConfig::validate`.
    pub fn new(
        k: usize,
        sketch_width: usize,
        sketch_depth: usize,
        table_size: usize,
        threshold: f64,
        rule: BoundRule,
        seed: u64,
    ) -> SketchBounds {
        SketchBounds {
            frequent: TopK::new(table_size, sketch_width, sketch_depth, seed)
                .expect("validated sketch parameters"),
            classes: HashMap::new(),
            places: HashMap::new(),
            k,
            seed,
            threshold,
            rule,
        }
    }

    /// How many frequent sets are kept with their values.
    pub fn entries(&self) -> usize {
        self.places.len()
    }

    /// The signature of the set with position `keys`, computed on first use into `cache`.
    fn signature<'s>(
        &self,
        keys: &[u64],
        cache: &'s mut Option<BottomKMinHash>,
    ) -> &'s BottomKMinHash {
        cache.get_or_insert_with(|| {
            BottomKMinHash::from_keys(self.k, self.seed, keys).expect("validated k")
        })
    }

    /// What the table says about the set with position `keys` (frequency key `key`, class
    /// `class`), read at `ply`: its exact value, or the tightest bounds that could narrow the
    /// window `(alpha, beta)`. `signature` caches the set's signature for `record`. The caller
    /// counts the entries used with [`count_used`](Self::count_used).
    #[allow(clippy::too_many_arguments)]
    pub fn find(
        &self,
        key: u64,
        class: u64,
        keys: &[u64],
        signature: &mut Option<BottomKMinHash>,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Found {
        let size = keys.len();
        let mut found = Found::default();
        let Some(entries) = self.classes.get(&class) else {
            return found;
        };
        for entry in entries {
            let value = value_from_table(entry.value, ply);
            if entry.key == key {
                // The set itself: its value is exact, whatever the rule.
                if entry.flag == Flag::Exact {
                    return Found {
                        exact: Some(value),
                        lower: Some((value, key)),
                        upper: None,
                        matched: true,
                    };
                }
                if entry.flag.bounds_from_above() && found.upper.is_none_or(|(u, _)| value < u) {
                    found.upper = Some((value, key));
                    found.matched = true;
                }
                if entry.flag.bounds_from_below() && found.lower.is_none_or(|(l, _)| value > l) {
                    found.lower = Some((value, key));
                    found.matched = true;
                }
                continue;
            }
            let smaller = size.min(entry.size) as f64;
            let could_bound_above = entry.flag.bounds_from_above()
                && value < beta
                && found.upper.is_none_or(|(u, _)| value < u)
                && smaller / entry.size as f64 + PROBABILITY_SLACK >= self.threshold;
            let could_bound_below = entry.flag.bounds_from_below()
                && value > alpha
                && found.lower.is_none_or(|(l, _)| value > l)
                && smaller / size as f64 + PROBABILITY_SLACK >= self.threshold;
            if !could_bound_above && !could_bound_below {
                continue;
            }
            let signature = self.signature(keys, signature);
            let (p_upper, p_lower) = match signature.jaccard_sample(&entry.signature) {
                Ok(sample) => self.rule.probabilities(sample, size, entry.size),
                Err(_) => continue,
            };
            if could_bound_above && p_upper + PROBABILITY_SLACK >= self.threshold {
                found.upper = Some((value, entry.key));
            }
            if could_bound_below && p_lower + PROBABILITY_SLACK >= self.threshold {
                found.lower = Some((value, entry.key));
            }
        }
        found
    }

    /// Counts each entry whose value `found` used as one more occurrence (§5.1: a set that
    /// bounds another counts as seen again). An entry another thread has just evicted is not
    /// counted: the queue would track it without its value.
    pub fn count_used(&mut self, found: &Found) {
        self.count_used_keys(found.used_keys());
    }

    fn count_used_keys(&mut self, keys: impl IntoIterator<Item = u64>) {
        for key in keys {
            if self.frequent.contains(key) {
                self.frequent.update(key, 1);
            }
        }
    }

    /// Records a fully searched set (`set`, with position `keys`, signature cached in
    /// `signature`): counts it, and keeps it in the table if it is now among the `table_size`
    /// most frequent (evicting the least frequent).
    pub fn record(&mut self, set: Searched, keys: &[u64], signature: &mut Option<BottomKMinHash>) {
        self.record_with(set, |table| table.signature(keys, signature).clone());
    }

    /// [`record`](Self::record) of `set`, whose signature `signature` computes (only if the set
    /// enters the table).
    fn record_with(&mut self, set: Searched, signature: impl FnOnce(&Self) -> BottomKMinHash) {
        let Searched {
            key,
            class,
            size,
            value,
            flag,
            ply,
        } = set;
        let (_, evicted) = self.frequent.update_with_eviction(key, 1);
        if let Some(gone) = evicted {
            self.remove(gone);
        }
        if !self.frequent.contains(key) {
            return;
        }
        let value = value_to_table(value, ply);
        if let Some(&(class, index)) = self.places.get(&key) {
            let entry = &mut self.classes.get_mut(&class).expect("placed")[index];
            entry.value = value;
            entry.flag = flag;
            return;
        }
        let entry = TableEntry {
            key,
            size,
            signature: signature(self),
            value,
            flag,
        };
        let list = self.classes.entry(class).or_default();
        self.places.insert(key, (class, list.len()));
        list.push(entry);
    }

    fn remove(&mut self, key: u64) {
        let Some((class, index)) = self.places.remove(&key) else {
            return;
        };
        let list = self.classes.get_mut(&class).expect("placed");
        list.swap_remove(index);
        if let Some(moved) = list.get(index) {
            self.places.insert(moved.key, (class, index));
        }
    }
}

/// The write lock if no one holds the table (a panic while it was held leaves a valid table).
fn try_hold(table: &RwLock<SketchBounds>) -> Option<RwLockWriteGuard<'_, SketchBounds>> {
    match table.try_write() {
        Ok(held) => Some(held),
        Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// A table write that waited for the lock.
enum Write {
    /// Keys of entries whose values a lookup used (see [`SketchBounds::count_used`]).
    Used(Vec<u64>),
    Record(Searched, BottomKMinHash),
}

/// Writes kept waiting at most: then the worker waits for the lock and makes them all.
const MAX_WAITING_WRITES: usize = 256;

/// One worker's writes to the shared table. The write lock waits for every reader, and a lookup
/// reads up to thousands of entries, so a worker that waited for one sat idle: exact+sketch on
/// 2 threads kept its cores 96 % busy against 99 % for exact. A write that finds the lock taken
/// is kept and made at the worker's next write that gets it, or when [`flush`](Self::flush) is
/// called (at the end of each root request). The table is a cache of values that stay true, so
/// a late write only changes which bounds the other workers find meanwhile; one worker always
/// gets the lock at once, so a single-threaded search is unchanged.
pub struct SketchWriter {
    waiting: Vec<Write>,
    k: usize,
    seed: u64,
}

impl SketchWriter {
    /// `k` and `seed`: the table's signature parameters (a waiting record carries its signature).
    pub fn new(k: usize, seed: u64) -> Self {
        SketchWriter {
            waiting: Vec::new(),
            k,
            seed,
        }
    }

    /// [`SketchBounds::count_used`] through this writer.
    pub fn count_used(&mut self, table: &RwLock<SketchBounds>, found: &Found) {
        match try_hold(table) {
            Some(mut held) => {
                self.make_waiting(&mut held);
                held.count_used(found);
            }
            None => self.wait(table, Write::Used(found.used_keys().collect())),
        }
    }

    /// [`SketchBounds::record`] through this writer.
    pub fn record(
        &mut self,
        table: &RwLock<SketchBounds>,
        set: Searched,
        keys: &[u64],
        signature: &mut Option<BottomKMinHash>,
    ) {
        if let Some(mut held) = try_hold(table) {
            self.make_waiting(&mut held);
            held.record(set, keys, signature);
            return;
        }
        let signature = signature.get_or_insert_with(|| {
            BottomKMinHash::from_keys(self.k, self.seed, keys).expect("validated k")
        });
        self.wait(table, Write::Record(set, signature.clone()));
    }

    /// Makes every waiting write, waiting for the lock if need be.
    pub fn flush(&mut self, table: &RwLock<SketchBounds>) {
        if !self.waiting.is_empty() {
            let mut held = table.write().unwrap_or_else(|p| p.into_inner());
            self.make_waiting(&mut held);
        }
    }

    fn wait(&mut self, table: &RwLock<SketchBounds>, write: Write) {
        self.waiting.push(write);
        if self.waiting.len() >= MAX_WAITING_WRITES {
            self.flush(table);
        }
    }

    fn make_waiting(&mut self, table: &mut SketchBounds) {
        for write in self.waiting.drain(..) {
            match write {
                Write::Used(keys) => table.count_used_keys(keys),
                Write::Record(set, signature) => table.record_with(set, |_| signature),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exact value of the set `keys` under `key`, found at the root.
    fn searched(key: u64, class: u64, keys: &[u64], value: i32) -> Searched {
        Searched {
            key,
            class,
            size: keys.len(),
            value,
            flag: Flag::Exact,
            ply: 0,
        }
    }

    fn sample_of(
        shared: usize,
        sampled: usize,
        held: (usize, usize),
        whole: (bool, bool),
    ) -> JaccardSample {
        JaccardSample {
            shared,
            sampled,
            held,
            whole,
        }
    }

    #[test]
    fn a_sets_own_entry_is_used_exactly_under_either_rule() {
        // 500 boards: a k = 64 signature samples them.
        let keys: Vec<u64> = (0..500).collect();
        let (key, class) = (frequency_key(99, 2), 2);
        for rule in [BoundRule::Wilson, BoundRule::Point] {
            let mut sketch = SketchBounds::new(64, 1024, 5, 8, 1.0, rule, 3);
            sketch.record(searched(key, class, &keys, 150), &keys, &mut None);
            let found = sketch.find(key, class, &keys, &mut None, 0, -1_000, 1_000);
            assert_eq!(found.exact, Some(150), "{rule:?}");
            // The same boards under another id are known only through their signatures: a
            // sampled J of 1 is the point rule's containment, not the Wilson rule's.
            let other = sketch.find(
                frequency_key(98, 2),
                class,
                &keys,
                &mut None,
                0,
                -1_000,
                1_000,
            );
            assert_eq!(other.exact, None);
            let bounded = other.upper.is_some() && other.lower.is_some();
            assert_eq!(bounded, rule == BoundRule::Point, "{rule:?}");
            // Another depth or node kind is another class: never compared.
            let elsewhere = sketch.find(key, 3, &keys, &mut None, 0, -1_000, 1_000);
            assert_eq!(elsewhere.used(), 0);
        }
    }

    #[test]
    fn a_write_that_finds_the_table_being_read_waits_and_is_made_later() {
        let table = RwLock::new(SketchBounds::new(64, 1024, 5, 8, 1.0, BoundRule::Wilson, 3));
        let mut writer = SketchWriter::new(64, 3);
        let keys: Vec<u64> = (0..10).collect();
        let other: Vec<u64> = (100..130).collect();
        let (key, other_key, class) = (frequency_key(5, 2), frequency_key(6, 2), 2);
        let lookup = |key, keys: &[u64]| {
            let held = table.read().unwrap();
            held.find(key, class, keys, &mut None, 0, -1_000, 1_000)
                .exact
        };
        {
            // Another worker reads: the record does not wait for it.
            let _reader = table.read().unwrap();
            writer.record(&table, searched(key, class, &keys, 40), &keys, &mut None);
            assert_eq!(writer.waiting.len(), 1);
        }
        assert_eq!(lookup(key, &keys), None, "not made yet");
        // The next write that gets the lock makes the waiting one first.
        writer.record(
            &table,
            searched(other_key, class, &other, -7),
            &other,
            &mut None,
        );
        assert!(writer.waiting.is_empty());
        assert_eq!(lookup(key, &keys), Some(40));
        assert_eq!(lookup(other_key, &other), Some(-7));
        // A flush waits for the lock and makes what is left.
        {
            let _reader = table.read().unwrap();
            let found = table
                .read()
                .unwrap()
                .find(key, class, &keys, &mut None, 0, -1_000, 1_000);
            writer.count_used(&table, &found);
            writer.record(&table, searched(key, class, &keys, 41), &keys, &mut None);
            assert_eq!(writer.waiting.len(), 2);
        }
        writer.flush(&table);
        assert!(writer.waiting.is_empty());
        assert_eq!(lookup(key, &keys), Some(41));
    }

    #[test]
    fn the_point_rule_is_the_papers_formula_with_the_corrected_denominator() {
        // J = 30 / 100 with |X| = 60, |q| = 70: |X∩q| = 0.3 * 130 / 1.3 = 30.
        let sample = sample_of(30, 100, (60, 70), (true, true));
        let (p_upper, p_lower) = point_probabilities(sample, 60, 70);
        assert!((p_upper - 30.0 / 70.0).abs() < 1e-12);
        assert!((p_lower - 30.0 / 60.0).abs() < 1e-12);
        // A sampled J of 1 reads as identity, whatever the sizes allow.
        let full = sample_of(64, 64, (64, 64), (false, false));
        assert_eq!(point_probabilities(full, 500, 500), (1.0, 1.0));
    }

    #[test]
    fn exact_samples_are_taken_at_face_value() {
        let sample = sample_of(5, 10, (10, 5), (true, true));
        assert_eq!(cautious_jaccard(sample), 0.5);
    }

    #[test]
    fn a_full_sampled_match_is_not_read_as_identity() {
        let sample = sample_of(64, 64, (64, 64), (false, false));
        let j = cautious_jaccard(sample);
        // Wilson at p = 1: n / (n + z^2).
        assert!((j - 64.0 / (64.0 + WILSON_Z * WILSON_Z)).abs() < 1e-12);
        assert!(j < 0.97);
    }

    #[test]
    fn a_small_set_is_inside_a_large_one_only_if_all_its_boards_were_seen_there() {
        // The case met on a recorded set: 10 of q's 39 boards sampled, all of them in X (490).
        let sample = sample_of(10, 64, (64, 10), (false, false));
        let jaccard = cautious_jaccard(sample);
        let paper = intersection_of_valid(jaccard, 490.0, 39.0) / 39.0;
        assert!(
            paper >= 1.0,
            "the Jaccard estimate alone claims containment"
        );
        let (p_upper, p_lower) = wilson_probabilities(sample, 490, 39);
        assert!(p_upper < 0.9, "{p_upper}");
        assert!(p_lower < 0.1, "{p_lower}");
        // All of q's boards sampled and found in X: proven.
        let proven = sample_of(39, 64, (64, 39), (false, true));
        assert_eq!(wilson_probabilities(proven, 490, 39).0, 1.0);
    }

    #[test]
    fn sampled_shares_come_from_real_signatures() {
        let big: Vec<u64> = (0..500).collect();
        let x = BottomKMinHash::from_keys(64, 7, &big).unwrap();
        // q: 10 boards of X and 29 outside it.
        let q_keys: Vec<u64> = (0..10).chain(10_000..10_029).collect();
        let q = BottomKMinHash::from_keys(64, 7, &q_keys).unwrap();
        let sample = x.jaccard_sample(&q).unwrap();
        assert_eq!(
            sample.held.0 + sample.held.1 - sample.shared,
            sample.sampled
        );
        assert!(!sample.whole.0);
        let (p_upper, _) = wilson_probabilities(sample, 500, 39);
        assert!(p_upper < 1.0, "{sample:?} {p_upper}");
        // A small set wholly inside the large one, at the bottom of the order: proven.
        let inside = BottomKMinHash::from_keys(64, 7, &keys_in_signature(&big, 5)).unwrap();
        let sample = x.jaccard_sample(&inside).unwrap();
        assert!(sample.whole.1);
        assert_eq!(wilson_probabilities(sample, 500, 5).0, 1.0);
    }

    /// `n` keys of `keys` whose MinHash values are among the signature's (the smallest k).
    fn keys_in_signature(keys: &[u64], n: usize) -> Vec<u64> {
        let all = BottomKMinHash::from_keys(64, 7, keys).unwrap();
        let in_signature = |key: &u64| {
            let one = BottomKMinHash::from_keys(64, 7, &[*key]).unwrap();
            all.jaccard_sample(&one).unwrap().whole.1
        };
        keys.iter().copied().filter(in_signature).take(n).collect()
    }

    #[test]
    fn signatures_of_small_sets_compare_exactly() {
        let a = BottomKMinHash::from_keys(64, 7, &[1, 2, 3, 4]).unwrap();
        let b = BottomKMinHash::from_keys(64, 7, &[1, 2, 3, 4, 5]).unwrap();
        let sample = a.jaccard_sample(&b).unwrap();
        assert!(sample.exact());
        assert_eq!((sample.shared, sample.sampled), (4, 5));
        let big: Vec<u64> = (0..200).collect();
        let a = BottomKMinHash::from_keys(64, 7, &big).unwrap();
        assert!(!a.jaccard_sample(&a).unwrap().exact());
    }
}
