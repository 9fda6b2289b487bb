//! Bottom-k MinHash (the paper's "minimal k values"): the k smallest hashed keys of a set.
//!
//! One seeded bijection `h` of `u64` is applied to every key and the k smallest distinct values
//! are kept, sorted. Since `h` is a bijection, two distinct keys never share a value: while fewer
//! than k distinct keys have been seen the signature *is* the hashed set, and every estimate below
//! is exact.
//!
//! Jaccard uses the k smallest values of the *union* of two signatures, which are the k smallest
//! hashes of A ∪ B; each of them lies in A ∩ B exactly when it appears in both signatures. Comparing
//! the two signatures' own minima position by position instead would be biased.

use super::encoding::{corrupt, Decoder, Encoder};
use super::error::{check_same, Limit, SketchError};
use super::hashing::{seed_salt, seeded_mix64};
use super::size_estimates::size_estimates_by_own_methods;

/// At most this many values per signature (128 MiB once full).
pub const MAX_BOTTOM_K: u64 = 1 << 24;
const K_LIMIT: Limit = Limit {
    max: MAX_BOTTOM_K,
    unit: "signature values",
    bytes_each: std::mem::size_of::<u64>() as u64,
};
const MAGIC: &[u8; 4] = b"FSBK";

/// Checks a bottom-k signature size: `k` between 1 and [`MAX_BOTTOM_K`].
pub fn check_bottom_k(k: u64) -> Result<(), SketchError> {
    K_LIMIT.check("k", k)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BottomKMinHash {
    k: usize,
    seed: u64,
    salt: u64,
    /// The k smallest hashed values seen, ascending and distinct.
    values: Vec<u64>,
}

impl BottomKMinHash {
    pub fn new(k: usize, seed: u64) -> Result<Self, SketchError> {
        check_bottom_k(k as u64)?;
        Ok(BottomKMinHash {
            k,
            seed,
            salt: seed_salt(seed),
            values: Vec::new(),
        })
    }

    /// The signature of a whole set of keys.
    pub fn from_keys(k: usize, seed: u64, keys: &[u64]) -> Result<Self, SketchError> {
        let mut sketch = Self::new(k, seed)?;
        sketch.extend(keys);
        Ok(sketch)
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The signature: the hashed values kept, ascending (at most k of them).
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// Whether k values are held (from then on, sizes are estimated rather than counted).
    pub fn is_full(&self) -> bool {
        self.values.len() == self.k
    }

    /// The largest value a new key must beat to enter (everything enters until the signature fills).
    #[inline]
    fn threshold(&self) -> u64 {
        if self.is_full() {
            self.values[self.k - 1]
        } else {
            u64::MAX
        }
    }

    #[inline]
    pub fn insert(&mut self, key: u64) {
        let value = seeded_mix64(key, self.salt);
        if value < self.threshold() || !self.is_full() {
            self.admit(value);
        }
    }

    /// Inserts a batch. Once the signature is full a key costs one hash and one comparison; only
    /// about k·ln(n/k) of n distinct keys ever get past the threshold.
    pub fn extend(&mut self, keys: &[u64]) {
        let salt = self.salt;
        let mut threshold = self.threshold();
        for &key in keys {
            let value = seeded_mix64(key, salt);
            // `threshold` is u64::MAX until the signature fills, so test fullness second.
            if value < threshold || !self.is_full() {
                self.admit(value);
                threshold = self.threshold();
            }
        }
    }

    /// Puts a value below the threshold into the sorted signature, dropping the largest if full.
    fn admit(&mut self, value: u64) {
        if let Err(slot) = self.values.binary_search(&value) {
            if self.is_full() {
                self.values.pop();
            }
            self.values.insert(slot, value);
        }
    }

    /// Folds `other` in: the result is the signature of the union of both sets.
    pub fn merge(&mut self, other: &BottomKMinHash) -> Result<(), SketchError> {
        self.check_compatible(other)?;
        let mut union = Vec::with_capacity(self.k.min(self.values.len() + other.values.len()));
        union_smallest(&self.values, &other.values, self.k, |v| union.push(v));
        self.values = union;
        Ok(())
    }

    pub(crate) fn check_compatible(&self, other: &BottomKMinHash) -> Result<(), SketchError> {
        check_same("k", self.k as u64, other.k as u64)?;
        check_same("seed", self.seed, other.seed)
    }

    /// The number of distinct keys: exact while the signature is not full; otherwise the
    /// estimate (k − 1) / U_(k), where U_(k) is the k-th smallest value scaled to (0, 1].
    pub fn cardinality(&self) -> f64 {
        if !self.is_full() {
            return self.values.len() as f64;
        }
        let kth = (self.values[self.k - 1] as f64 + 1.0) / 18_446_744_073_709_551_616.0;
        if self.k == 1 {
            // (k-1)/U is 0 for k = 1; 1/U - 1 is the maximum-likelihood-style fallback.
            return (1.0 / kth - 1.0).max(1.0);
        }
        (self.k as f64 - 1.0) / kth
    }

    /// Jaccard similarity |A ∩ B| / |A ∪ B|, from the k smallest values of the union.
    pub fn jaccard(&self, other: &BottomKMinHash) -> Result<f64, SketchError> {
        let sample = self.jaccard_sample(other)?;
        if sample.sampled == 0 {
            // Both sets empty: call them identical.
            return Ok(1.0);
        }
        Ok(sample.shared as f64 / sample.sampled as f64)
    }

    /// The evidence behind [`jaccard`](Self::jaccard): the union's k smallest values, how many of
    /// them both sets hold, and whether they are the whole union (then the estimate is exact).
    pub fn jaccard_sample(&self, other: &BottomKMinHash) -> Result<JaccardSample, SketchError> {
        self.check_compatible(other)?;
        // Counted, not collected: the search compares signatures at every node.
        let mut sampled = 0usize;
        let mut last = None;
        let shared = union_smallest(&self.values, &other.values, self.k, |v| {
            sampled += 1;
            last = Some(v);
        });
        let held_up_to = |values: &[u64]| last.map_or(0, |l| values.partition_point(|&v| v <= l));
        let held = (held_up_to(&self.values), held_up_to(&other.values));
        let whole = (
            !self.is_full() && held.0 == self.values.len(),
            !other.is_full() && held.1 == other.values.len(),
        );
        Ok(JaccardSample {
            shared,
            sampled,
            held,
            whole,
        })
    }

    pub fn clear(&mut self) {
        self.values.clear();
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let header = [self.k as u64, self.seed, self.values.len() as u64];
        Encoder::with_header(MAGIC, &header, self.values.len())
            .u64s(&self.values)
            .finish()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "bottom-k MinHash")?;
        let k = decoder.len(MAX_BOTTOM_K)?;
        let seed = decoder.u64()?;
        let held = decoder.len(MAX_BOTTOM_K)?;
        let mut sketch = Self::new(k, seed).map_err(|e| corrupt(e.to_string()))?;
        if held > k {
            return Err(corrupt(format!("{held} values exceed k = {k}")));
        }
        sketch.values = decoder.u64s(held)?;
        decoder.finish()?;
        if sketch.values.windows(2).any(|w| w[0] >= w[1]) {
            return Err(corrupt(
                "signature values not strictly ascending".to_string(),
            ));
        }
        Ok(sketch)
    }
}

/// See [`BottomKMinHash::jaccard_sample`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JaccardSample {
    /// Values in both sets' signatures among the union's smallest.
    pub shared: usize,
    /// The union's smallest values looked at (at most k).
    pub sampled: usize,
    /// How many of the sampled values each set holds (this signature's, the other's): `shared`
    /// over one of them estimates the fraction of that set that lies in the other.
    pub held: (usize, usize),
    /// Whether each signature holds its whole set and every one of its values was sampled; then
    /// that fraction is exact.
    pub whole: (bool, bool),
}

impl JaccardSample {
    /// Both signatures hold their whole sets and every value was looked at: the sample is the
    /// whole union and `shared / sampled` is the Jaccard index itself.
    pub fn exact(&self) -> bool {
        self.whole.0 && self.whole.1
    }
}

/// Emits the (at most k) smallest distinct values of the union of two ascending lists, in order,
/// and returns how many of them appear in both lists.
fn union_smallest(a: &[u64], b: &[u64], k: usize, mut emit: impl FnMut(u64)) -> usize {
    let mut shared = 0;
    let mut emitted = 0;
    let (mut i, mut j) = (0, 0);
    while emitted < k && (i < a.len() || j < b.len()) {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                shared += 1;
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(_), Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!("loop condition"),
        };
        emit(next);
        emitted += 1;
    }
    shared
}

size_estimates_by_own_methods!(BottomKMinHash);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sketch::SizeEstimates;

    #[test]
    fn small_sets_are_estimated_exactly() {
        // A = 0..60, B = 30..100: |A∩B| = 30, |A∪B| = 100, J = 0.3; k = 128 > both sizes.
        let a: Vec<u64> = (0..60).collect();
        let b: Vec<u64> = (30..100).collect();
        let sa = BottomKMinHash::from_keys(128, 1, &a).unwrap();
        let sb = BottomKMinHash::from_keys(128, 1, &b).unwrap();
        assert_eq!(sa.cardinality(), 60.0);
        assert_eq!(sa.jaccard(&sb).unwrap(), 0.3);
        assert!((sa.intersection_size(&sb).unwrap() - 30.0).abs() < 1e-9);
        assert!((sa.containment(&sb).unwrap() - 0.5).abs() < 1e-12);
        assert!((sb.containment(&sa).unwrap() - 30.0 / 70.0).abs() < 1e-12);
    }

    #[test]
    fn duplicates_and_order_do_not_matter() {
        let keys: Vec<u64> = (0..1000).collect();
        let mut shuffled = keys.clone();
        shuffled.extend_from_slice(&keys[..300]);
        crate::rng::Rng::new(3).shuffle(&mut shuffled);
        let a = BottomKMinHash::from_keys(64, 9, &keys).unwrap();
        let b = BottomKMinHash::from_keys(64, 9, &shuffled).unwrap();
        assert_eq!(a, b);
        let mut one_by_one = BottomKMinHash::new(64, 9).unwrap();
        shuffled.iter().for_each(|&key| one_by_one.insert(key));
        assert_eq!(one_by_one, a);
    }

    #[test]
    fn merge_is_the_signature_of_the_union() {
        let mut a = BottomKMinHash::from_keys(32, 2, &(0..500).collect::<Vec<_>>()).unwrap();
        let b = BottomKMinHash::from_keys(32, 2, &(400..900).collect::<Vec<_>>()).unwrap();
        let union = BottomKMinHash::from_keys(32, 2, &(0..900).collect::<Vec<_>>()).unwrap();
        a.merge(&b).unwrap();
        assert_eq!(a, union);
    }

    #[test]
    fn cardinality_estimate_is_close_for_large_sets() {
        let sketch = BottomKMinHash::from_keys(1024, 5, &(0..100_000).collect::<Vec<_>>()).unwrap();
        // Relative standard error about 1/sqrt(k-2) ≈ 3.1%; allow 4 of them.
        let relative = (sketch.cardinality() / 100_000.0 - 1.0).abs();
        assert!(relative < 0.125, "{}", sketch.cardinality());
    }

    #[test]
    fn mismatched_parameters_are_refused() {
        let a = BottomKMinHash::new(16, 1).unwrap();
        assert!(matches!(
            a.jaccard(&BottomKMinHash::new(32, 1).unwrap()),
            Err(SketchError::ParameterMismatch { name: "k", .. })
        ));
        assert!(matches!(
            a.jaccard(&BottomKMinHash::new(16, 2).unwrap()),
            Err(SketchError::ParameterMismatch { name: "seed", .. })
        ));
        assert_eq!(
            BottomKMinHash::new(0, 1).unwrap_err(),
            SketchError::ZeroParameter { name: "k" }
        );
        assert!(matches!(
            a.intersection_size_with_sizes(&a, (-1.0, 3.0)),
            Err(SketchError::InvalidSize { .. })
        ));
    }

    #[test]
    fn bytes_round_trip() {
        let sketch = BottomKMinHash::from_keys(8, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).unwrap();
        assert_eq!(
            BottomKMinHash::from_bytes(&sketch.to_bytes()).unwrap(),
            sketch
        );
        assert!(BottomKMinHash::from_bytes(&sketch.to_bytes()[..20]).is_err());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use std::collections::BTreeSet;

        fn keys() -> impl Strategy<Value = Vec<u64>> {
            // Keys from a small range, so that sets overlap and repeat keys.
            prop::collection::vec(0u64..60, 0..80)
        }

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(512))]

            /// Against the brute-force model: the k smallest distinct hashed keys, and estimates
            /// that are exact while both signatures hold their whole sets.
            #[test]
            fn signatures_and_estimates_match_the_brute_force_model(
                k in 1usize..40, seed: u64, a in keys(), b in keys(),
            ) {
                let sa = BottomKMinHash::from_keys(k, seed, &a).unwrap();
                let sb = BottomKMinHash::from_keys(k, seed, &b).unwrap();
                let salt = seed_salt(seed);
                let hashed = |keys: &[u64]| -> BTreeSet<u64> {
                    keys.iter().map(|&key| seeded_mix64(key, salt)).collect()
                };
                let (ha, hb) = (hashed(&a), hashed(&b));
                prop_assert_eq!(sa.values(), &ha.iter().take(k).copied().collect::<Vec<_>>()[..]);
                let mut union = sa.clone();
                union.merge(&sb).unwrap();
                let all: Vec<u64> = a.iter().chain(&b).copied().collect();
                prop_assert_eq!(&union, &BottomKMinHash::from_keys(k, seed, &all).unwrap());

                let j = sa.jaccard(&sb).unwrap();
                prop_assert!((0.0..=1.0).contains(&j));
                prop_assert_eq!(j, sb.jaccard(&sa).unwrap());
                let (size_a, size_b) = (ha.len() as f64, hb.len() as f64);
                let intersection = sa.intersection_size_with_sizes(&sb, (size_a, size_b)).unwrap();
                prop_assert!(intersection >= 0.0 && intersection <= size_a.min(size_b));
                let containment = sa.containment(&sb).unwrap();
                prop_assert!((0.0..=1.0).contains(&containment));
                if ha.len() < k {
                    prop_assert_eq!(sa.cardinality(), size_a);
                }
                // The union's k smallest values are the whole union: every estimate is exact.
                let both = ha.union(&hb).count();
                if both <= k {
                    let shared = ha.intersection(&hb).count() as f64;
                    let exact = if both == 0 { 1.0 } else { shared / both as f64 };
                    prop_assert_eq!(j, exact);
                    prop_assert_eq!(sa.jaccard_sample(&sb).unwrap().exact(), ha.len() < k && hb.len() < k);
                    prop_assert!((intersection - shared).abs() < 1e-9);
                }
                if sa.is_full() {
                    prop_assert!(sa.cardinality() > 0.0 && sa.cardinality().is_finite());
                }
            }

            #[test]
            fn bytes_round_trip_and_corrupt_bytes_are_refused(
                k in 1usize..12, seed: u64, keys in keys(), flip_at: usize, flip: u8,
            ) {
                let sketch = BottomKMinHash::from_keys(k, seed, &keys).unwrap();
                let bytes = sketch.to_bytes();
                prop_assert_eq!(&BottomKMinHash::from_bytes(&bytes).unwrap(), &sketch);
                crate::sketch::check_decoder(
                    &bytes, BottomKMinHash::from_bytes, BottomKMinHash::to_bytes, flip_at, flip,
                );
            }
        }
    }
}
