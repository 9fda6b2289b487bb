//! MinHash of either kind behind one type, and the estimators both kinds share.
//!
//! How set sizes are obtained for intersection and containment:
//! - `intersection_size`/`containment` use each signature's own `cardinality()`: exact for a
//!   bottom-k signature that is not full (fewer than k distinct keys), the estimate (k−1)/U_(k)
//!   once it is, and datasketch's k/ΣU_i − 1 for k-hash signatures;
//! - the `*_with_sizes` variants take the sizes from the caller (the search knows its sets' sizes
//!   exactly), leaving the Jaccard estimate as the only source of error.
//!
//! Both go through |A ∩ B| = J(|A| + |B|)/(1 + J), which follows from |A ∪ B| = |A| + |B| − |A ∩ B|;
//! the paper prints (1 − J) in the denominator, an erratum.

use super::bottom_k::BottomKMinHash;
use super::error::SketchError;
use super::k_hash::KHashMinHash;

/// |A ∩ B| from the Jaccard similarity and the two set sizes: J(|A| + |B|)/(1 + J), clamped to
/// `[0, min(|A|, |B|)]` (an estimated J can imply more overlap than the smaller set allows).
pub fn intersection_from_jaccard(j: f64, size_a: f64, size_b: f64) -> f64 {
    let j = j.clamp(0.0, 1.0);
    (j * (size_a + size_b) / (1.0 + j)).clamp(0.0, size_a.min(size_b).max(0.0))
}

/// |A ∩ B| / |A|, clamped to [0, 1]; 1 for an empty A (the empty set is contained in every set).
fn containment_from_parts(intersection: f64, size_self: f64) -> f64 {
    if size_self <= 0.0 {
        1.0
    } else {
        (intersection / size_self).clamp(0.0, 1.0)
    }
}

fn validate_size(name: &'static str, value: f64) -> Result<(), SketchError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(SketchError::InvalidSize { name, value })
    }
}

/// Which MinHash signature to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinHashKind {
    /// The k smallest hashes under one hash function ([`BottomKMinHash`]).
    BottomK,
    /// The minimum under each of k hash functions ([`KHashMinHash`]).
    KHash,
}

impl MinHashKind {
    pub fn name(self) -> &'static str {
        match self {
            MinHashKind::BottomK => "bottom_k",
            MinHashKind::KHash => "k_hash",
        }
    }

    /// Parses the names used by the Python API.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "bottom_k" => Some(MinHashKind::BottomK),
            "k_hash" => Some(MinHashKind::KHash),
            _ => None,
        }
    }
}

/// A MinHash signature whose kind is chosen at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MinHash {
    BottomK(BottomKMinHash),
    KHash(KHashMinHash),
}

/// Applies `$body` to the inner signatures of two MinHashes of the same kind, or fails.
macro_rules! same_kind {
    ($left:expr, $right:expr, |$a:ident, $b:ident| $body:expr) => {
        match ($left, $right) {
            (MinHash::BottomK($a), MinHash::BottomK($b)) => $body,
            (MinHash::KHash($a), MinHash::KHash($b)) => $body,
            (l, r) => Err(SketchError::KindMismatch {
                left: l.kind().name(),
                right: r.kind().name(),
            }),
        }
    };
}

/// Applies `$body` to the inner signature of one MinHash.
macro_rules! either {
    ($value:expr, |$s:ident| $body:expr) => {
        match $value {
            MinHash::BottomK($s) => $body,
            MinHash::KHash($s) => $body,
        }
    };
}

impl MinHash {
    pub fn new(kind: MinHashKind, k: usize, seed: u64) -> Result<Self, SketchError> {
        Ok(match kind {
            MinHashKind::BottomK => MinHash::BottomK(BottomKMinHash::new(k, seed)?),
            MinHashKind::KHash => MinHash::KHash(KHashMinHash::new(k, seed)?),
        })
    }

    pub fn kind(&self) -> MinHashKind {
        match self {
            MinHash::BottomK(_) => MinHashKind::BottomK,
            MinHash::KHash(_) => MinHashKind::KHash,
        }
    }

    pub fn k(&self) -> usize {
        either!(self, |s| s.k())
    }

    pub fn seed(&self) -> u64 {
        either!(self, |s| s.seed())
    }

    /// The signature: ascending bottom-k values, or the k slot minima.
    pub fn values(&self) -> &[u64] {
        either!(self, |s| s.values())
    }

    pub fn insert(&mut self, key: u64) {
        either!(self, |s| s.insert(key))
    }

    pub fn extend(&mut self, keys: &[u64]) {
        either!(self, |s| s.extend(keys))
    }

    pub fn cardinality(&self) -> f64 {
        either!(self, |s| s.cardinality())
    }

    pub fn clear(&mut self) {
        either!(self, |s| s.clear())
    }

    pub fn merge(&mut self, other: &MinHash) -> Result<(), SketchError> {
        same_kind!(self, other, |a, b| a.merge(b))
    }

    pub fn jaccard(&self, other: &MinHash) -> Result<f64, SketchError> {
        same_kind!(self, other, |a, b| a.jaccard(b))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        either!(self, |s| s.to_bytes())
    }

    /// Decodes either kind (the magic bytes say which).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SketchError> {
        match bytes.get(..4) {
            Some(b"FSBK") => Ok(MinHash::BottomK(BottomKMinHash::from_bytes(bytes)?)),
            Some(b"FSKH") => Ok(MinHash::KHash(KHashMinHash::from_bytes(bytes)?)),
            _ => Err(SketchError::Corrupt {
                reason: "not a serialised MinHash".to_string(),
            }),
        }
    }
}

/// Intersection and containment estimates, derived from what each signature estimates itself
/// (Jaccard similarity and set size), the same way for every kind of MinHash.
pub trait SizeEstimates {
    fn jaccard(&self, other: &Self) -> Result<f64, SketchError>;
    fn cardinality(&self) -> f64;

    /// |A ∩ B| with the sizes from each signature's [`cardinality`](Self::cardinality).
    fn intersection_size(&self, other: &Self) -> Result<f64, SketchError> {
        self.intersection_size_with_sizes(other, self.cardinality(), other.cardinality())
    }

    /// |A ∩ B| from known set sizes (the search knows its sets' sizes exactly).
    fn intersection_size_with_sizes(
        &self,
        other: &Self,
        size_self: f64,
        size_other: f64,
    ) -> Result<f64, SketchError> {
        validate_size("size_self", size_self)?;
        validate_size("size_other", size_other)?;
        let j = self.jaccard(other)?;
        Ok(intersection_from_jaccard(j, size_self, size_other))
    }

    /// Containment |A ∩ B| / |A| of this set in `other`.
    fn containment(&self, other: &Self) -> Result<f64, SketchError> {
        self.containment_with_sizes(other, self.cardinality(), other.cardinality())
    }

    fn containment_with_sizes(
        &self,
        other: &Self,
        size_self: f64,
        size_other: f64,
    ) -> Result<f64, SketchError> {
        let intersection = self.intersection_size_with_sizes(other, size_self, size_other)?;
        Ok(containment_from_parts(intersection, size_self))
    }
}

impl SizeEstimates for MinHash {
    fn jaccard(&self, other: &MinHash) -> Result<f64, SketchError> {
        MinHash::jaccard(self, other)
    }

    fn cardinality(&self) -> f64 {
        MinHash::cardinality(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersection_formula_inverts_jaccard() {
        // |A| = 60, |B| = 70, |A∩B| = 30: J = 30/100 = 0.3 and 0.3·130/1.3 = 30. The paper's
        // (1 − J) denominator would give 0.3·130/0.7 ≈ 55.7, more than the true overlap.
        assert!((intersection_from_jaccard(0.3, 60.0, 70.0) - 30.0).abs() < 1e-9);
        assert_eq!(intersection_from_jaccard(1.0, 50.0, 50.0), 50.0);
        assert_eq!(intersection_from_jaccard(0.0, 50.0, 80.0), 0.0);
        assert_eq!(intersection_from_jaccard(0.9, 10.0, 1000.0), 10.0);
    }

    #[test]
    fn kinds_do_not_mix() {
        let a = MinHash::new(MinHashKind::BottomK, 8, 0).unwrap();
        let b = MinHash::new(MinHashKind::KHash, 8, 0).unwrap();
        assert_eq!(
            a.jaccard(&b).unwrap_err(),
            SketchError::KindMismatch {
                left: "bottom_k",
                right: "k_hash"
            }
        );
        assert_eq!(MinHash::from_bytes(&b.to_bytes()).unwrap(), b);
        assert_eq!(MinHashKind::from_name("k_hash"), Some(MinHashKind::KHash));
    }
}
