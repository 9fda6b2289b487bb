//! CountSketch (Charikar, Chen and Farach-Colton 2002): `depth` rows of `width` signed counters.
//!
//! A key is added to one counter per row, with a ±1 sign from the same row hash; a row's estimate
//! is its counter times the key's sign, and the sketch's estimate is the median over rows. With
//! `width = w` each row's error has standard deviation at most `||f_tail||_2 / sqrt(w)`, and the
//! median over `depth` rows makes a large error exponentially unlikely in `depth`.
//!
//! Counters saturate: every sum is clamped to `[-COUNTER_LIMIT, COUNTER_LIMIT]`, where
//! `COUNTER_LIMIT = 2^63 - 1`. Wrapping (the old behaviour) turned two updates of `2^63 - 1` into
//! an estimate of -2, a heavy key into the lightest; a saturated counter reads as "at least this
//! much" instead. The range is symmetric so that a key's sign never changes what it can read: a
//! lone key's counters are then its clamped running sum times ±1 in every row, and its estimate
//! that clamped sum exactly. Below the limit, updates and merges are exact integer sums (linear,
//! associative, commutative); once a counter has been clamped, the order of updates can matter.

use super::encoding::{corrupt, Decoder, Encoder};
use super::error::{check_same, try_zeroed, Limit, SketchError};
use super::hashing::{seed_salt, seeded_mix64};
use crate::rng::Rng;

/// The largest magnitude a counter (and so an estimate) can hold: `i64::MAX`. `i64::MIN` is never
/// held, so negating a counter for a key of sign -1 is always exact.
pub const COUNTER_LIMIT: i64 = i64::MAX;
/// At most this many rows: a median over more rows buys nothing measurable, and a row's estimates
/// for one key fit in a fixed array of this size.
pub const MAX_DEPTH: u64 = 64;
/// At most this many counters in all: 2 GiB of `i64`.
pub const MAX_COUNTERS: u64 = 1 << 28;
const DEPTH_LIMIT: Limit = Limit {
    max: MAX_DEPTH,
    unit: "rows",
    bytes_each: 0,
};
const COUNTERS_LIMIT: Limit = Limit {
    max: MAX_COUNTERS,
    unit: "counters",
    bytes_each: std::mem::size_of::<i64>() as u64,
};
const MAGIC: &[u8; 4] = b"FSCS";

/// Checks a CountSketch shape before anything is allocated: `width` and `depth` at least 1,
/// `depth` at most [`MAX_DEPTH`] and `width * depth` at most [`MAX_COUNTERS`] (2 GiB). The
/// errors are sentences for a user; the search configuration runs the same check.
pub fn check_count_sketch_shape(width: u64, depth: u64) -> Result<(), SketchError> {
    if width == 0 {
        return Err(SketchError::ZeroParameter { name: "width" });
    }
    DEPTH_LIMIT.check("depth", depth)?;
    COUNTERS_LIMIT.check("width * depth", width.saturating_mul(depth))
}

/// Adds a signed weight (`sign * weight`, `weight != i64::MIN` so that it is exact) to a
/// counter, clamping. The clamp is a branch taken only at the limits, out of line: a
/// conditional move there would lengthen the load-add-store chain of a counter that a heavy key
/// hits again and again (and a branch on the sign, random per row, cost about 4x).
#[inline]
fn add_clamped(counter: i64, signed_weight: i64) -> i64 {
    match counter.checked_add(signed_weight) {
        Some(sum) if sum != i64::MIN => sum,
        _ => clamp_sum(counter, signed_weight),
    }
}

#[cold]
#[inline(never)]
fn clamp_sum(counter: i64, signed_weight: i64) -> i64 {
    (counter as i128 + signed_weight as i128).clamp(-(COUNTER_LIMIT as i128), COUNTER_LIMIT as i128)
        as i64
}

/// Where a key lands in one row: its counter index and its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RowHash {
    multiplier: u64,
    offset: u64,
}

impl RowHash {
    /// Multiply-add-shift on an already mixed key: the top 32 bits choose the bucket (Lemire's
    /// range reduction), the next bit the sign.
    #[inline]
    fn locate(self, mixed: u64, width: u64) -> (usize, i64) {
        let g = mixed
            .wrapping_mul(self.multiplier)
            .wrapping_add(self.offset);
        let bucket = ((g >> 32) * width) >> 32;
        let sign = 1 - 2 * ((g >> 31) & 1) as i64;
        (bucket as usize, sign)
    }
}

/// Room for the counters one key touches, one per row, as flat indices into
/// [`CountSketch::counters`] (the first `depth` are used).
pub(crate) type Cells = [usize; MAX_DEPTH as usize];

/// A CountSketch over `u64` keys with `i64` weights and saturating counters (see the module
/// documentation).
#[derive(Clone, Debug)]
pub struct CountSketch {
    width: usize,
    depth: usize,
    seed: u64,
    salt: u64,
    rows: Vec<RowHash>,
    counters: Vec<i64>,
    /// An upper bound on every counter's magnitude: the magnitudes of the weights added since the
    /// counters were zero (saturating). While it stays within [`COUNTER_LIMIT`] no counter can
    /// reach the limit, and updates skip the per-row clamp (about 1.25x faster); real counts stay
    /// far below 2^63, so in practice the clamp never runs.
    magnitude_bound: u64,
}

/// Sketches are equal when their parameters and counters are: the magnitude bound is bookkeeping.
impl PartialEq for CountSketch {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width
            && self.depth == other.depth
            && self.seed == other.seed
            && self.counters == other.counters
    }
}

impl Eq for CountSketch {}

impl CountSketch {
    /// A zeroed sketch with `depth` rows of `width` counters; the row hashes come from `seed`.
    /// The shape is checked by [`check_count_sketch_shape`] before anything is allocated.
    pub fn new(width: usize, depth: usize, seed: u64) -> Result<Self, SketchError> {
        check_count_sketch_shape(width as u64, depth as u64)?;
        let counters = try_zeroed("CountSketch counters", width * depth)?;
        let mut rng = Rng::stream(seed, 0xC0_5E7C);
        let rows = (0..depth)
            .map(|_| RowHash {
                multiplier: rng.next_u64() | 1,
                offset: rng.next_u64(),
            })
            .collect();
        Ok(CountSketch {
            width,
            depth,
            seed,
            salt: seed_salt(seed),
            rows,
            counters,
            magnitude_bound: 0,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Adds `weight` occurrences of `key` (negative weights remove); counters saturate.
    #[inline]
    pub fn update(&mut self, key: u64, weight: i64) {
        if self.within_bound(weight) {
            self.add::<false>(key, weight);
        } else if weight == i64::MIN {
            self.update_most_negative(key);
        } else {
            self.add::<true>(key, weight);
        }
    }

    /// Adds `sign * weight` to the key's counter in each row, clamping if `CLAMP` (without it the
    /// caller has checked the magnitude bound, so no counter can pass the limit).
    #[inline(always)]
    fn add<const CLAMP: bool>(&mut self, key: u64, weight: i64) {
        let mixed = seeded_mix64(key, self.salt);
        let width = self.width as u64;
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            let counter = &mut self.counters[row * self.width + bucket];
            *counter = if CLAMP {
                add_clamped(*counter, sign * weight)
            } else {
                counter.wrapping_add(sign.wrapping_mul(weight))
            };
        }
    }

    /// Checks a batch (`weights`, when given, one per key) and records its total weight
    /// magnitude in the bound when every counter then stays within the limit; says whether it did
    /// (then the batch may go through the clamp-free
    /// [`update_and_estimate_clamp_free`](Self::update_and_estimate_clamp_free)). The bound is
    /// checked once for the whole batch: per key, its bookkeeping cost a third of the update's
    /// throughput.
    pub(crate) fn reserve_batch(
        &mut self,
        keys: &[u64],
        weights: Option<&[i64]>,
    ) -> Result<bool, SketchError> {
        check_batch(keys, weights)?;
        let bound = self
            .magnitude_bound
            .saturating_add(batch_magnitude(keys.len(), weights));
        let clamp_free = bound <= COUNTER_LIMIT as u64;
        if clamp_free {
            self.magnitude_bound = bound;
        }
        Ok(clamp_free)
    }

    /// [`update_and_estimate_at`](Self::update_and_estimate_at) for a key whose weight is part of
    /// a batch [`reserve_batch`](Self::reserve_batch) accepted.
    #[inline]
    pub(crate) fn update_and_estimate_clamp_free(
        &mut self,
        key: u64,
        weight: i64,
        cells: &mut [usize],
    ) -> i64 {
        let mut per_row = self.add_to_rows::<false>(key, weight, cells);
        median(&mut per_row[..self.depth])
    }

    /// Records `weight`'s magnitude in the bound and says whether every counter stays within the
    /// limit whatever the key (then adding needs no clamp).
    #[inline]
    fn within_bound(&mut self, weight: i64) -> bool {
        self.magnitude_bound = self.magnitude_bound.saturating_add(weight.unsigned_abs());
        self.magnitude_bound <= COUNTER_LIMIT as u64
    }

    /// As [`add`](Self::add), also writing the counters' indices to `cells` and returning the
    /// key's reading of each row.
    #[inline(always)]
    fn add_to_rows<const CLAMP: bool>(
        &mut self,
        key: u64,
        weight: i64,
        cells: &mut [usize],
    ) -> [i64; MAX_DEPTH as usize] {
        let mixed = seeded_mix64(key, self.salt);
        let width = self.width as u64;
        let mut per_row = [0i64; MAX_DEPTH as usize];
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            let cell = row * self.width + bucket;
            let counter = if CLAMP {
                add_clamped(self.counters[cell], sign * weight)
            } else {
                self.counters[cell].wrapping_add(sign.wrapping_mul(weight))
            };
            self.counters[cell] = counter;
            cells[row] = cell;
            // Exact: a counter is never i64::MIN.
            per_row[row] = sign * counter;
        }
        per_row
    }

    /// `update(key, i64::MIN)`: `-i64::MIN` does not exist, so the weight goes in as two halves
    /// of one sign, which clamp exactly as the whole. Out of line: the hot loop keeps one
    /// predictable test.
    #[cold]
    #[inline(never)]
    fn update_most_negative(&mut self, key: u64) {
        self.update(key, i64::MIN / 2);
        self.update(key, i64::MIN / 2);
    }

    /// Adds a batch: `weights[i]` occurrences of `keys[i]`, or one of each when `weights` is `None`.
    pub fn update_many(
        &mut self,
        keys: &[u64],
        weights: Option<&[i64]>,
    ) -> Result<(), SketchError> {
        let clamp_free = self.reserve_batch(keys, weights)?;
        match (weights, clamp_free) {
            (None, true) => keys.iter().for_each(|&key| self.add::<false>(key, 1)),
            (None, false) => keys.iter().for_each(|&key| self.update(key, 1)),
            (Some(weights), true) => keys
                .iter()
                .zip(weights)
                .for_each(|(&key, &w)| self.add::<false>(key, w)),
            (Some(weights), false) => keys
                .iter()
                .zip(weights)
                .for_each(|(&key, &w)| self.update(key, w)),
        }
        Ok(())
    }

    /// The median over rows of the key's signed counters: an unbiased estimate of its total weight
    /// while no counter it shares has saturated.
    #[inline]
    pub fn estimate(&self, key: u64) -> i64 {
        self.median_of_rows(seeded_mix64(key, self.salt))
    }

    /// Estimates for a batch of keys.
    pub fn estimate_many(&self, keys: &[u64]) -> Vec<i64> {
        keys.iter().map(|&key| self.estimate(key)).collect()
    }

    /// Adds `weight` to `key` and returns its new estimate, hashing the key once.
    #[inline]
    pub fn update_and_estimate(&mut self, key: u64, weight: i64) -> i64 {
        let mut cells = [0; MAX_DEPTH as usize];
        self.update_and_estimate_at(key, weight, &mut cells)
    }

    /// As [`update_and_estimate`](Self::update_and_estimate), also writing the flat index of the
    /// counter the key touched in each row to `cells[..depth]` (for [`TopK`](super::TopK), which
    /// refreshes the tracked keys that share them).
    #[inline]
    pub(crate) fn update_and_estimate_at(
        &mut self,
        key: u64,
        weight: i64,
        cells: &mut [usize],
    ) -> i64 {
        let mut per_row = if self.within_bound(weight) {
            self.add_to_rows::<false>(key, weight, cells)
        } else if weight == i64::MIN {
            self.update_most_negative(key);
            self.cells_of(key, cells);
            return self.estimate(key);
        } else {
            self.add_to_rows::<true>(key, weight, cells)
        };
        median(&mut per_row[..self.depth])
    }

    /// The flat counter indices of `key`, one per row, in `cells[..depth]`.
    pub(crate) fn cells_of(&self, key: u64, cells: &mut [usize]) {
        let mixed = seeded_mix64(key, self.salt);
        let width = self.width as u64;
        for (row, hash) in self.rows.iter().enumerate() {
            cells[row] = row * self.width + hash.locate(mixed, width).0;
        }
    }

    /// The estimate of an already mixed key.
    fn median_of_rows(&self, mixed: u64) -> i64 {
        let width = self.width as u64;
        let mut per_row = [0i64; MAX_DEPTH as usize];
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            // Exact: a counter is never i64::MIN.
            per_row[row] = sign * self.counters[row * self.width + bucket];
        }
        median(&mut per_row[..self.depth])
    }

    /// Adds `other`'s counters (saturating): the result sketches the concatenation of both streams
    /// while no counter reaches the limit.
    pub fn merge(&mut self, other: &CountSketch) -> Result<(), SketchError> {
        self.check_compatible(other)?;
        self.magnitude_bound = self.magnitude_bound.saturating_add(other.magnitude_bound);
        if self.magnitude_bound <= COUNTER_LIMIT as u64 {
            for (mine, theirs) in self.counters.iter_mut().zip(&other.counters) {
                *mine += *theirs;
            }
        } else {
            for (mine, theirs) in self.counters.iter_mut().zip(&other.counters) {
                // Exact: `theirs` is never i64::MIN.
                *mine = add_clamped(*mine, *theirs);
            }
        }
        Ok(())
    }

    pub(crate) fn check_compatible(&self, other: &CountSketch) -> Result<(), SketchError> {
        check_same("width", self.width as u64, other.width as u64)?;
        check_same("depth", self.depth as u64, other.depth as u64)?;
        check_same("seed", self.seed, other.seed)
    }

    /// Zeroes every counter, keeping the parameters.
    pub fn clear(&mut self) {
        self.counters.fill(0);
        self.magnitude_bound = 0;
    }

    /// The counters, row after row (for inspection and tests).
    pub fn counters(&self) -> &[i64] {
        &self.counters
    }

    /// The compact byte form (see `encoding`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = [self.width as u64, self.depth as u64, self.seed];
        Encoder::with_header(MAGIC, &header, self.counters.len())
            .i64s(&self.counters)
            .finish()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "CountSketch")?;
        let width = decoder.u64()?;
        let depth = decoder.u64()?;
        let seed = decoder.u64()?;
        check_count_sketch_shape(width, depth).map_err(|e| corrupt(e.to_string()))?;
        // Check the payload before allocating, so forged sizes cannot make us allocate gigabytes.
        if decoder.words_left() as u64 != width * depth {
            return Err(corrupt(format!(
                "expected {} counters for width {width} and depth {depth}",
                width * depth
            )));
        }
        let mut sketch = CountSketch::new(width as usize, depth as usize, seed)?;
        sketch.counters = decoder.i64s(sketch.counters.len())?;
        decoder.finish()?;
        if sketch.counters.contains(&i64::MIN) {
            return Err(corrupt(format!(
                "a counter holds {}, outside the saturating range [-{COUNTER_LIMIT}, \
                 {COUNTER_LIMIT}]",
                i64::MIN
            )));
        }
        sketch.magnitude_bound = sketch
            .counters
            .iter()
            .map(|c| c.unsigned_abs())
            .max()
            .unwrap_or(0);
        Ok(sketch)
    }
}

/// A batch's weights, when given, are one a key.
fn check_batch(keys: &[u64], weights: Option<&[i64]>) -> Result<(), SketchError> {
    match weights {
        Some(weights) if weights.len() != keys.len() => Err(SketchError::LengthMismatch {
            keys: keys.len(),
            weights: weights.len(),
        }),
        _ => Ok(()),
    }
}

/// The total magnitude of a batch's weights (one each when `weights` is `None`), saturating.
fn batch_magnitude(keys: usize, weights: Option<&[i64]>) -> u64 {
    weights.map_or(keys as u64, |weights| {
        weights
            .iter()
            .fold(0u64, |sum, w| sum.saturating_add(w.unsigned_abs()))
    })
}

/// The median of a short slice; the mean of the two middle values (rounded toward zero) when even.
fn median(values: &mut [i64]) -> i64 {
    values.sort_unstable();
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        ((values[n / 2 - 1] as i128 + values[n / 2] as i128) / 2) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_parameters_are_refused_with_their_names() {
        assert_eq!(
            CountSketch::new(0, 3, 1).unwrap_err(),
            SketchError::ZeroParameter { name: "width" }
        );
        assert_eq!(
            CountSketch::new(8, 0, 1).unwrap_err(),
            SketchError::ZeroParameter { name: "depth" }
        );
        assert!(matches!(
            CountSketch::new(1 << 30, 64, 1),
            Err(SketchError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_lone_key_is_counted_exactly() {
        let mut sketch = CountSketch::new(64, 5, 9).unwrap();
        sketch.update(42, 7);
        sketch.update(42, -2);
        assert_eq!(sketch.estimate(42), 5);
        assert_eq!(sketch.update_and_estimate(42, 1), 6);
    }

    #[test]
    fn heavy_keys_are_estimated_within_the_tail_bound() {
        // 200 keys with counts 1000/i on a 256-wide sketch: the tail l2 norm over sqrt(width)
        // bounds each row's standard deviation; the median of 7 rows stays within 3 of them.
        let mut sketch = CountSketch::new(256, 7, 3).unwrap();
        let counts: Vec<i64> = (1..=200).map(|i| 1000 / i).collect();
        for (key, &count) in counts.iter().enumerate() {
            sketch.update(key as u64 * 0x9E37, count);
        }
        let tail: f64 = counts.iter().map(|&c| (c * c) as f64).sum::<f64>().sqrt();
        let bound = 3.0 * tail / 16.0;
        for (key, &count) in counts.iter().enumerate().take(20) {
            let err = (sketch.estimate(key as u64 * 0x9E37) - count).abs() as f64;
            assert!(err <= bound, "key {key}: error {err} > {bound}");
        }
    }

    #[test]
    fn merge_equals_sketching_the_concatenated_stream() {
        let mut left = CountSketch::new(32, 3, 5).unwrap();
        let mut right = CountSketch::new(32, 3, 5).unwrap();
        let mut both = CountSketch::new(32, 3, 5).unwrap();
        for key in 0..500u64 {
            let target = if key % 3 == 0 { &mut left } else { &mut right };
            target.update(key % 97, key as i64 - 100);
            both.update(key % 97, key as i64 - 100);
        }
        left.merge(&right).unwrap();
        assert_eq!(left, both);
        let other_seed = CountSketch::new(32, 3, 6).unwrap();
        assert!(matches!(
            left.merge(&other_seed),
            Err(SketchError::ParameterMismatch { name: "seed", .. })
        ));
    }

    #[test]
    fn bytes_round_trip_and_garbage_is_refused() {
        let mut sketch = CountSketch::new(16, 4, 77).unwrap();
        sketch
            .update_many(&[1, 2, 3, 2], Some(&[5, -1, 2, 9]))
            .unwrap();
        let bytes = sketch.to_bytes();
        assert_eq!(CountSketch::from_bytes(&bytes).unwrap(), sketch);
        assert!(CountSketch::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(CountSketch::from_bytes(b"nonsense").is_err());
        // A forged header claiming 2^28 counters is refused before anything is allocated.
        let forged = Encoder::new(MAGIC, 3).u64(1 << 22).u64(64).u64(0).finish();
        assert!(matches!(
            CountSketch::from_bytes(&forged),
            Err(SketchError::Corrupt { .. })
        ));
    }

    #[test]
    fn the_issue_reproducer_saturates_instead_of_wrapping() {
        let mut sketch = CountSketch::new(8, 3, 0).unwrap();
        sketch.update(7, i64::MAX);
        sketch.update(7, i64::MAX);
        assert_eq!(sketch.estimate(7), COUNTER_LIMIT);
        let mut down = CountSketch::new(8, 3, 0).unwrap();
        down.update(7, i64::MIN);
        down.update(7, i64::MIN);
        assert_eq!(down.estimate(7), -COUNTER_LIMIT);
        let mut merged = sketch.clone();
        merged.merge(&sketch).unwrap();
        assert_eq!(merged.estimate(7), COUNTER_LIMIT);
        merged.merge(&down).unwrap();
        assert_eq!(merged.estimate(7), 0);
    }

    #[test]
    fn shape_errors_name_the_limit_and_the_memory() {
        let message = CountSketch::new(1 << 40, 5, 0).unwrap_err().to_string();
        assert_eq!(
            message,
            "width * depth = 5497558138880 is too large: 5497558138880 counters would need 40.0 \
             TiB of memory; at most 268435456 counters (2.0 GiB) are allowed"
        );
        assert_eq!(
            check_count_sketch_shape(8, 65).unwrap_err().to_string(),
            "depth = 65 is too large: at most 64 rows are allowed"
        );
        // Bytes that claim an impossible shape are refused as corrupt, before any allocation.
        let forged = Encoder::new(MAGIC, 3).u64(u64::MAX).u64(64).u64(0).finish();
        assert!(matches!(
            CountSketch::from_bytes(&forged),
            Err(SketchError::Corrupt { .. })
        ));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// Weights that reach the counters' limits quickly, mixed with ordinary ones.
        fn weight() -> impl Strategy<Value = i64> {
            prop_oneof![
                4 => -20i64..20,
                1 => Just(i64::MAX),
                1 => Just(i64::MIN),
                1 => Just(i64::MAX - 1),
                1 => Just(i64::MIN + 1),
                1 => -(1i64 << 62)..(1i64 << 62),
            ]
        }

        fn updates(max_key: u64, len: usize) -> impl Strategy<Value = Vec<(u64, i64)>> {
            prop::collection::vec((0..max_key, weight()), 0..len)
        }

        fn small_updates(len: usize) -> impl Strategy<Value = Vec<(u64, i64)>> {
            prop::collection::vec((0u64..40, -1000i64..1000), 0..len)
        }

        fn clamp(value: i128) -> i64 {
            value.clamp(-(COUNTER_LIMIT as i128), COUNTER_LIMIT as i128) as i64
        }

        /// The brute-force model: every counter is the running sum of its signed weights,
        /// clamped after each addition.
        fn model(sketch: &CountSketch, updates: &[(u64, i64)]) -> Vec<i64> {
            let mut counters = vec![0i64; sketch.width * sketch.depth];
            for &(key, weight) in updates {
                let mixed = seeded_mix64(key, sketch.salt);
                for (row, hash) in sketch.rows.iter().enumerate() {
                    let (bucket, sign) = hash.locate(mixed, sketch.width as u64);
                    let cell = &mut counters[row * sketch.width + bucket];
                    *cell = clamp(*cell as i128 + sign as i128 * weight as i128);
                }
            }
            counters
        }

        fn model_estimate(sketch: &CountSketch, counters: &[i64], key: u64) -> i64 {
            let mixed = seeded_mix64(key, sketch.salt);
            let mut rows: Vec<i128> = sketch
                .rows
                .iter()
                .enumerate()
                .map(|(row, hash)| {
                    let (bucket, sign) = hash.locate(mixed, sketch.width as u64);
                    sign as i128 * counters[row * sketch.width + bucket] as i128
                })
                .collect();
            rows.sort_unstable();
            let n = rows.len();
            let median = if n % 2 == 1 {
                rows[n / 2]
            } else {
                (rows[n / 2 - 1] + rows[n / 2]) / 2
            };
            median as i64
        }

        fn sketched(width: usize, depth: usize, seed: u64, updates: &[(u64, i64)]) -> CountSketch {
            let mut sketch = CountSketch::new(width, depth, seed).unwrap();
            for &(key, weight) in updates {
                sketch.update(key, weight);
            }
            sketch
        }

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(512))]

            #[test]
            fn counters_are_the_clamped_running_sums(
                width in 1usize..12, depth in 1usize..8, seed: u64, updates in updates(16, 40),
            ) {
                let sketch = sketched(width, depth, seed, &updates);
                let counters = model(&sketch, &updates);
                prop_assert_eq!(sketch.counters(), &counters[..]);
                prop_assert!(!sketch.counters().contains(&i64::MIN));
                for key in 0..16 {
                    prop_assert_eq!(sketch.estimate(key), model_estimate(&sketch, &counters, key));
                }
                // update_and_estimate and update_many agree with single updates.
                let mut again = CountSketch::new(width, depth, seed).unwrap();
                let (keys, weights): (Vec<u64>, Vec<i64>) = updates.iter().copied().unzip();
                again.update_many(&keys, Some(&weights)).unwrap();
                prop_assert_eq!(&again, &sketch);
                let mut stepwise = CountSketch::new(width, depth, seed).unwrap();
                for &(key, weight) in &updates {
                    let estimate = stepwise.update_and_estimate(key, weight);
                    prop_assert_eq!(estimate, stepwise.estimate(key));
                }
            }

            #[test]
            fn a_lone_key_reads_its_clamped_running_sum(
                width in 1usize..8, depth in 1usize..8, seed: u64, key: u64,
                weights in prop::collection::vec(weight(), 0..12),
            ) {
                // The counters' range is symmetric, so every row holds +-(the clamped running sum)
                // and the median is that sum exactly, whatever the row signs.
                let mut sketch = CountSketch::new(width, depth, seed).unwrap();
                let mut sum = 0i64;
                for &weight in &weights {
                    sketch.update(key, weight);
                    sum = clamp(sum as i128 + weight as i128);
                    prop_assert_eq!(sketch.estimate(key), sum);
                }
            }

            #[test]
            fn merging_adds_counters_with_saturation(
                width in 1usize..10, depth in 1usize..6, seed: u64,
                left in updates(12, 25), right in updates(12, 25),
            ) {
                let mut merged = sketched(width, depth, seed, &left);
                let other = sketched(width, depth, seed, &right);
                merged.merge(&other).unwrap();
                let sketch = sketched(width, depth, seed, &left);
                for (i, &counter) in merged.counters().iter().enumerate() {
                    let sum = sketch.counters()[i] as i128 + other.counters()[i] as i128;
                    prop_assert_eq!(counter, clamp(sum));
                }
            }

            #[test]
            fn below_the_limit_sketches_are_linear(
                width in 1usize..32, depth in 1usize..8, seed: u64,
                left in small_updates(60), right in small_updates(60),
            ) {
                // Merging is sketching the concatenation, in either order; removing every update
                // again leaves zeros.
                let mut merged = sketched(width, depth, seed, &left);
                merged.merge(&sketched(width, depth, seed, &right)).unwrap();
                let both: Vec<(u64, i64)> = left.iter().chain(&right).copied().collect();
                prop_assert_eq!(&merged, &sketched(width, depth, seed, &both));
                let reversed: Vec<(u64, i64)> = both.iter().rev().copied().collect();
                prop_assert_eq!(&merged, &sketched(width, depth, seed, &reversed));
                for &(key, weight) in &both {
                    merged.update(key, -weight);
                }
                prop_assert!(merged.counters().iter().all(|&c| c == 0));
            }

            #[test]
            fn bytes_round_trip_and_corrupt_bytes_are_refused(
                width in 1usize..6, depth in 1usize..4, seed: u64, updates in updates(8, 10),
                flip_at: usize, flip: u8,
            ) {
                let sketch = sketched(width, depth, seed, &updates);
                let bytes = sketch.to_bytes();
                prop_assert_eq!(&CountSketch::from_bytes(&bytes).unwrap(), &sketch);
                crate::sketch::check_decoder(
                    &bytes, CountSketch::from_bytes, CountSketch::to_bytes, flip_at, flip,
                );
            }
        }
    }
}
