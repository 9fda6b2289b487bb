//! MinHash of either kind behind one type, chosen at run time.

use super::bottom_k::{check_bottom_k, BottomKMinHash};
use super::error::SketchError;
use super::k_hash::{check_k_hash, KHashMinHash};
use super::size_estimates::size_estimates_by_own_methods;

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

/// Checks a MinHash size before anything is allocated: `k` at least 1 and at most the kind's
/// limit ([`MAX_BOTTOM_K`](super::MAX_BOTTOM_K) values, or [`MAX_K_HASH`](super::MAX_K_HASH)
/// slots, each with the memory it needs in the message). The search configuration runs the same
/// check on its signature size.
pub fn check_minhash_k(kind: MinHashKind, k: u64) -> Result<(), SketchError> {
    match kind {
        MinHashKind::BottomK => check_bottom_k(k),
        MinHashKind::KHash => check_k_hash(k),
    }
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

size_estimates_by_own_methods!(MinHash);

#[cfg(test)]
mod tests {
    use super::*;

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
