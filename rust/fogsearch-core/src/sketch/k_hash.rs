//! k-hash MinHash, the kind datasketch builds: k seeded hash functions, each keeping its minimum.
//!
//! Slot i keeps min over keys of `(h(key) ^ s_i) * a_i` (wrapping, `a_i` odd), where `h` is the
//! seeded finaliser: an XOR and an odd multiplication are bijections of `u64`, so each slot is a
//! minimum under its own random permutation of the hashed keys. Two sets agree in a slot with
//! probability J, so the Jaccard estimate is the fraction of equal slots.

use rayon::prelude::*;

use super::encoding::{corrupt, Decoder, Encoder};
use super::error::{check_same, try_filled, try_zeroed, Limit, SketchError};
use super::hashing::{seed_salt, seeded_mix64};
use super::size_estimates::size_estimates_by_own_methods;
use crate::rng::Rng;

/// At most this many slots (24 MiB: a minimum, an xor and a multiplier per slot).
pub const MAX_K_HASH: u64 = 1 << 20;
const K_LIMIT: Limit = Limit {
    max: MAX_K_HASH,
    unit: "hash slots",
    bytes_each: 3 * std::mem::size_of::<u64>() as u64,
};

/// Checks a k-hash signature size: `k` between 1 and [`MAX_K_HASH`].
pub fn check_k_hash(k: u64) -> Result<(), SketchError> {
    K_LIMIT.check("k", k)
}
const MAGIC: &[u8; 4] = b"FSKH";
/// Keys hashed per block: the block's hashes stay in L1 while every slot sweeps over them.
const BLOCK: usize = 256;
/// Below this many key-slot updates a batch runs on the calling thread.
const PARALLEL_WORK: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KHashMinHash {
    k: usize,
    seed: u64,
    salt: u64,
    xors: Vec<u64>,
    multipliers: Vec<u64>,
    /// Slot minima; `u64::MAX` in a slot that has seen nothing (or only its maximum).
    minima: Vec<u64>,
}

impl KHashMinHash {
    pub fn new(k: usize, seed: u64) -> Result<Self, SketchError> {
        check_k_hash(k as u64)?;
        let mut xors = try_zeroed("k-hash MinHash", k)?;
        let mut multipliers = try_zeroed("k-hash MinHash", k)?;
        let minima = try_filled("k-hash MinHash", k, u64::MAX)?;
        let mut rng = Rng::stream(seed, 0x4B_4A54);
        for (xor, multiplier) in xors.iter_mut().zip(&mut multipliers) {
            *xor = rng.next_u64();
            *multiplier = rng.next_u64() | 1;
        }
        Ok(KHashMinHash {
            k,
            seed,
            salt: seed_salt(seed),
            xors,
            multipliers,
            minima,
        })
    }

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

    /// The k slot minima.
    pub fn values(&self) -> &[u64] {
        &self.minima
    }

    pub fn insert(&mut self, key: u64) {
        let hashed = seeded_mix64(key, self.salt);
        sweep(&mut self.minima, &self.xors, &self.multipliers, &[hashed]);
    }

    /// Inserts a batch: keys are hashed in blocks and each slot sweeps a block in a tight loop.
    /// Large batches split the slots across threads; every slot sees the same keys whatever the
    /// thread count, so the result does not depend on it.
    pub fn extend(&mut self, keys: &[u64]) {
        let salt = self.salt;
        let hashed: Vec<u64> = keys.iter().map(|&key| seeded_mix64(key, salt)).collect();
        let slots_per_task = if keys.len().saturating_mul(self.k) >= PARALLEL_WORK {
            self.k
                .div_ceil(rayon::current_num_threads().max(1) * 4)
                .max(8)
        } else {
            self.k
        };
        self.minima
            .par_chunks_mut(slots_per_task)
            .zip(self.xors.par_chunks(slots_per_task))
            .zip(self.multipliers.par_chunks(slots_per_task))
            .for_each(|((minima, xors), multipliers)| sweep(minima, xors, multipliers, &hashed));
    }

    pub fn merge(&mut self, other: &KHashMinHash) -> Result<(), SketchError> {
        self.check_compatible(other)?;
        for (mine, theirs) in self.minima.iter_mut().zip(&other.minima) {
            *mine = (*mine).min(*theirs);
        }
        Ok(())
    }

    pub(crate) fn check_compatible(&self, other: &KHashMinHash) -> Result<(), SketchError> {
        check_same("k", self.k as u64, other.k as u64)?;
        check_same("seed", self.seed, other.seed)
    }

    /// Whether no key has been inserted (every slot still at its initial maximum).
    pub fn is_empty(&self) -> bool {
        self.minima.iter().all(|&m| m == u64::MAX)
    }

    /// The number of distinct keys, estimated as k / Σ U_i − 1 with U_i the slot minima scaled to
    /// (0, 1] (as datasketch's `count`). Always an estimate: use the `*_with_sizes` methods when
    /// the sizes are known.
    pub fn cardinality(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let scale = 18_446_744_073_709_551_616.0;
        let sum: f64 = self.minima.iter().map(|&m| (m as f64 + 1.0) / scale).sum();
        (self.k as f64 / sum - 1.0).max(1.0)
    }

    /// The fraction of slots where the two signatures agree.
    pub fn jaccard(&self, other: &KHashMinHash) -> Result<f64, SketchError> {
        self.check_compatible(other)?;
        let equal = self
            .minima
            .iter()
            .zip(&other.minima)
            .filter(|(a, b)| a == b)
            .count();
        Ok(equal as f64 / self.k as f64)
    }

    pub fn clear(&mut self) {
        self.minima.fill(u64::MAX);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        Encoder::with_header(MAGIC, &[self.k as u64, self.seed], self.k)
            .u64s(&self.minima)
            .finish()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        let mut decoder = Decoder::new(bytes, MAGIC, "k-hash MinHash")?;
        let k = decoder.len(MAX_K_HASH)?;
        let seed = decoder.u64()?;
        // Check the payload before allocating k slots for it.
        if decoder.words_left() != k {
            return Err(corrupt(format!("expected {k} slot minima")));
        }
        let mut sketch = Self::new(k, seed).map_err(|e| corrupt(e.to_string()))?;
        sketch.minima = decoder.u64s(k)?;
        decoder.finish()?;
        Ok(sketch)
    }
}

/// Lowers each slot's minimum over all hashed keys. The per-slot reduction over a block compiles
/// to a vector loop; on x86-64 CPUs with AVX2 the same loop is compiled a second time for AVX2
/// (about 1.4x faster) and picked at run time, since default builds target baseline x86-64.
fn sweep(minima: &mut [u64], xors: &[u64], multipliers: &[u64], hashed: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the running CPU supports AVX2, checked just above.
            unsafe { sweep_avx2(minima, xors, multipliers, hashed) };
            return;
        }
    }
    sweep_portable(minima, xors, multipliers, hashed);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sweep_avx2(minima: &mut [u64], xors: &[u64], multipliers: &[u64], hashed: &[u64]) {
    sweep_portable(minima, xors, multipliers, hashed);
}

#[inline(always)]
fn sweep_portable(minima: &mut [u64], xors: &[u64], multipliers: &[u64], hashed: &[u64]) {
    for block in hashed.chunks(BLOCK) {
        for ((minimum, &xor), &multiplier) in minima.iter_mut().zip(xors).zip(multipliers) {
            *minimum = block
                .iter()
                .fold(*minimum, |m, &h| m.min((h ^ xor).wrapping_mul(multiplier)));
        }
    }
}

size_estimates_by_own_methods!(KHashMinHash);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sketch::SizeEstimates;

    #[test]
    fn identical_sets_agree_everywhere_and_disjoint_ones_almost_nowhere() {
        let a = KHashMinHash::from_keys(128, 1, &(0..1000).collect::<Vec<_>>()).unwrap();
        let mut reversed: Vec<u64> = (0..1000).rev().collect();
        reversed.extend(0..10);
        let b = KHashMinHash::from_keys(128, 1, &reversed).unwrap();
        assert_eq!(a.jaccard(&b).unwrap(), 1.0);
        let c = KHashMinHash::from_keys(128, 1, &(1000..2000).collect::<Vec<_>>()).unwrap();
        assert!(a.jaccard(&c).unwrap() <= 0.03);
    }

    #[test]
    fn batch_single_and_parallel_paths_agree() {
        let keys: Vec<u64> = (0..20_000).map(|i| i * 7919).collect();
        let batch = KHashMinHash::from_keys(256, 4, &keys).unwrap();
        let mut single = KHashMinHash::new(256, 4).unwrap();
        keys.iter().for_each(|&key| single.insert(key));
        assert_eq!(batch, single);
        let mut halves = KHashMinHash::from_keys(256, 4, &keys[..7000]).unwrap();
        halves
            .merge(&KHashMinHash::from_keys(256, 4, &keys[7000..]).unwrap())
            .unwrap();
        assert_eq!(batch, halves);
    }

    #[test]
    fn bytes_round_trip_and_mismatch() {
        let sketch = KHashMinHash::from_keys(16, 3, &[4, 5, 6]).unwrap();
        assert_eq!(
            KHashMinHash::from_bytes(&sketch.to_bytes()).unwrap(),
            sketch
        );
        assert!(matches!(
            sketch.jaccard(&KHashMinHash::new(16, 4).unwrap()),
            Err(SketchError::ParameterMismatch { .. })
        ));
        assert_eq!(
            KHashMinHash::new(0, 0).unwrap_err(),
            SketchError::ZeroParameter { name: "k" }
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn keys() -> impl Strategy<Value = Vec<u64>> {
            prop::collection::vec(0u64..60, 0..80)
        }

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(256))]

            #[test]
            fn merge_is_the_union_and_estimates_stay_in_bounds(
                k in 1usize..64, seed: u64, a in keys(), b in keys(),
            ) {
                let sa = KHashMinHash::from_keys(k, seed, &a).unwrap();
                let sb = KHashMinHash::from_keys(k, seed, &b).unwrap();
                let mut union = sa.clone();
                union.merge(&sb).unwrap();
                let all: Vec<u64> = b.iter().chain(&a).copied().collect();
                prop_assert_eq!(&union, &KHashMinHash::from_keys(k, seed, &all).unwrap());
                // Slot i of the signature is the minimum of slot i over the keys, one at a time.
                for (slot, &minimum) in sa.values().iter().enumerate() {
                    let model = a
                        .iter()
                        .map(|&key| KHashMinHash::from_keys(k, seed, &[key]).unwrap().values()[slot])
                        .min()
                        .unwrap_or(u64::MAX);
                    prop_assert_eq!(minimum, model);
                }
                let j = sa.jaccard(&sb).unwrap();
                let equal = sa.values().iter().zip(sb.values()).filter(|(x, y)| x == y).count();
                prop_assert_eq!(j, equal as f64 / k as f64);
                prop_assert_eq!(sa.jaccard(&sa).unwrap(), 1.0);
                let (size_a, size_b) = (a.len() as f64, b.len() as f64);
                let intersection = sa.intersection_size_with_sizes(&sb, (size_a, size_b)).unwrap();
                prop_assert!(intersection >= 0.0 && intersection <= size_a.min(size_b));
                prop_assert!((0.0..=1.0).contains(&sa.containment(&sb).unwrap()));
                prop_assert_eq!(sa.is_empty(), a.is_empty());
            }

            #[test]
            fn bytes_round_trip_and_corrupt_bytes_are_refused(
                k in 1usize..8, seed: u64, keys in keys(), flip_at: usize, flip: u8,
            ) {
                let sketch = KHashMinHash::from_keys(k, seed, &keys).unwrap();
                let bytes = sketch.to_bytes();
                prop_assert_eq!(&KHashMinHash::from_bytes(&bytes).unwrap(), &sketch);
                crate::sketch::check_decoder(
                    &bytes, KHashMinHash::from_bytes, KHashMinHash::to_bytes, flip_at, flip,
                );
            }
        }
    }
}
