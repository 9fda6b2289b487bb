//! CountSketch (Charikar, Chen and Farach-Colton 2002): `depth` rows of `width` signed counters.
//!
//! A key is added to one counter per row, with a ±1 sign from the same row hash; a row's estimate
//! is its counter times the key's sign, and the sketch's estimate is the median over rows. With
//! `width = w` each row's error has standard deviation at most `||f_tail||_2 / sqrt(w)`, and the
//! median over `depth` rows makes a large error exponentially unlikely in `depth`.

use super::encoding::{Decoder, Encoder};
use super::error::{check_same, check_size, SketchError};
use super::hashing::{seed_salt, seeded_mix64};
use crate::rng::Rng;

/// At most this many rows: a median over more rows buys nothing measurable.
pub const MAX_DEPTH: u64 = 64;
/// At most this many counters in all (2 GiB of `i64`).
pub const MAX_COUNTERS: u64 = 1 << 28;
const MAGIC: &[u8; 4] = b"FSCS";

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

/// A CountSketch over `u64` keys with `i64` weights. Counters wrap on overflow, which keeps merging
/// associative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountSketch {
    width: usize,
    depth: usize,
    seed: u64,
    salt: u64,
    rows: Vec<RowHash>,
    counters: Vec<i64>,
}

impl CountSketch {
    /// A zeroed sketch with `depth` rows of `width` counters; the row hashes come from `seed`.
    pub fn new(width: usize, depth: usize, seed: u64) -> Result<Self, SketchError> {
        check_size("width", width, u32::MAX as u64)?;
        check_size("depth", depth, MAX_DEPTH)?;
        let counters = (width as u64).saturating_mul(depth as u64);
        if counters > MAX_COUNTERS {
            return Err(SketchError::TooLarge {
                name: "width * depth",
                value: counters,
                max: MAX_COUNTERS,
            });
        }
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
            counters: vec![0; counters as usize],
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

    /// Adds `weight` occurrences of `key` (negative weights remove).
    #[inline]
    pub fn update(&mut self, key: u64, weight: i64) {
        let mixed = seeded_mix64(key, self.salt);
        let width = self.width as u64;
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            let counter = &mut self.counters[row * self.width + bucket];
            *counter = counter.wrapping_add(sign.wrapping_mul(weight));
        }
    }

    /// Adds a batch: `weights[i]` occurrences of `keys[i]`, or one of each when `weights` is `None`.
    pub fn update_many(
        &mut self,
        keys: &[u64],
        weights: Option<&[i64]>,
    ) -> Result<(), SketchError> {
        match weights {
            None => keys.iter().for_each(|&key| self.update(key, 1)),
            Some(weights) => {
                if weights.len() != keys.len() {
                    return Err(SketchError::LengthMismatch {
                        keys: keys.len(),
                        weights: weights.len(),
                    });
                }
                keys.iter()
                    .zip(weights)
                    .for_each(|(&key, &w)| self.update(key, w));
            }
        }
        Ok(())
    }

    /// The median over rows of the key's signed counters: an unbiased estimate of its total weight.
    #[inline]
    pub fn estimate(&self, key: u64) -> i64 {
        let mixed = seeded_mix64(key, self.salt);
        self.median_of_rows(mixed)
    }

    /// Estimates for a batch of keys.
    pub fn estimate_many(&self, keys: &[u64]) -> Vec<i64> {
        keys.iter().map(|&key| self.estimate(key)).collect()
    }

    /// Adds `weight` to `key` and returns its new estimate, hashing the key once.
    #[inline]
    pub fn update_and_estimate(&mut self, key: u64, weight: i64) -> i64 {
        let mixed = seeded_mix64(key, self.salt);
        let width = self.width as u64;
        let mut per_row = [0i64; MAX_DEPTH as usize];
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            let counter = &mut self.counters[row * self.width + bucket];
            *counter = counter.wrapping_add(sign.wrapping_mul(weight));
            per_row[row] = sign.wrapping_mul(*counter);
        }
        median(&mut per_row[..self.depth])
    }

    fn median_of_rows(&self, mixed: u64) -> i64 {
        let width = self.width as u64;
        let mut per_row = [0i64; MAX_DEPTH as usize];
        for (row, hash) in self.rows.iter().enumerate() {
            let (bucket, sign) = hash.locate(mixed, width);
            per_row[row] = sign.wrapping_mul(self.counters[row * self.width + bucket]);
        }
        median(&mut per_row[..self.depth])
    }

    /// Adds `other`'s counters: the result sketches the concatenation of both streams.
    pub fn merge(&mut self, other: &CountSketch) -> Result<(), SketchError> {
        self.check_compatible(other)?;
        for (mine, theirs) in self.counters.iter_mut().zip(&other.counters) {
            *mine = mine.wrapping_add(*theirs);
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
    }

    /// The counters, row after row (for inspection and tests).
    pub fn counters(&self) -> &[i64] {
        &self.counters
    }

    /// The compact byte form (see `encoding`).
    pub fn to_bytes(&self) -> Vec<u8> {
        Encoder::new(MAGIC, 3 + self.counters.len())
            .u64(self.width as u64)
            .u64(self.depth as u64)
            .u64(self.seed)
            .i64s(&self.counters)
            .finish()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "CountSketch")?;
        let width = decoder.len(u32::MAX as u64)?;
        let depth = decoder.len(MAX_DEPTH)?;
        let seed = decoder.u64()?;
        let mut sketch = CountSketch::new(width, depth, seed)
            .map_err(|e| super::encoding::corrupt(e.to_string()))?;
        sketch.counters = decoder.i64s(sketch.counters.len())?;
        decoder.finish()?;
        Ok(sketch)
    }
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
    }
}
