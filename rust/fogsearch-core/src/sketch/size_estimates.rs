//! The estimators every kind of MinHash shares: intersection size and containment from a Jaccard
//! estimate and set sizes.
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
//!
//! The signatures ([`BottomKMinHash`](super::BottomKMinHash), [`KHashMinHash`](super::KHashMinHash))
//! implement [`SizeEstimates`] here, and [`MinHash`](super::MinHash) wraps them; this module
//! depends on neither, so neither depends on the other.

use super::error::SketchError;

/// |A ∩ B| from the Jaccard similarity and the two set sizes: J(|A| + |B|)/(1 + J), clamped to
/// `[0, min(|A|, |B|)]` (an estimated J can imply more overlap than the smaller set allows).
///
/// One contract here and in Python: a Jaccard similarity outside `[0, 1]` (or NaN) and a set size
/// that is negative or not finite are the caller's errors, not values to clamp, because no
/// estimator returns them.
pub fn intersection_from_jaccard(j: f64, size_a: f64, size_b: f64) -> Result<f64, SketchError> {
    validate_size("size_a", size_a)?;
    validate_size("size_b", size_b)?;
    if !(0.0..=1.0).contains(&j) {
        return Err(SketchError::InvalidJaccard { value: j });
    }
    Ok(intersection_of_valid(j, size_a, size_b))
}

/// [`intersection_from_jaccard`] for values the caller has validated (a Jaccard estimate in
/// `[0, 1]`, finite non-negative sizes).
pub(crate) fn intersection_of_valid(j: f64, size_a: f64, size_b: f64) -> f64 {
    debug_assert!((0.0..=1.0).contains(&j) && size_a >= 0.0 && size_b >= 0.0);
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

/// An estimate, or why the inputs admit none.
pub type Estimate = Result<f64, SketchError>;

/// Intersection and containment estimates, derived from what each signature estimates itself
/// (Jaccard similarity and set size), the same way for every kind of MinHash.
pub trait SizeEstimates {
    fn jaccard(&self, other: &Self) -> Result<f64, SketchError>;
    fn cardinality(&self) -> f64;

    /// |A ∩ B| with the sizes from each signature's [`cardinality`](Self::cardinality).
    fn intersection_size(&self, other: &Self) -> Result<f64, SketchError> {
        self.intersection_size_with_sizes(other, (self.cardinality(), other.cardinality()))
    }

    /// |A ∩ B| from known set sizes `(|A|, |B|)` (the search knows its sets' sizes exactly).
    fn intersection_size_with_sizes(&self, other: &Self, sizes: (f64, f64)) -> Estimate {
        let (size_self, size_other) = sizes;
        validate_size("size_self", size_self)?;
        validate_size("size_other", size_other)?;
        let j = self.jaccard(other)?;
        Ok(intersection_of_valid(j, size_self, size_other))
    }

    /// Containment |A ∩ B| / |A| of this set in `other`.
    fn containment(&self, other: &Self) -> Result<f64, SketchError> {
        self.containment_with_sizes(other, (self.cardinality(), other.cardinality()))
    }

    /// Containment from known set sizes `(|A|, |B|)`.
    fn containment_with_sizes(&self, other: &Self, sizes: (f64, f64)) -> Estimate {
        let intersection = self.intersection_size_with_sizes(other, sizes)?;
        Ok(containment_from_parts(intersection, sizes.0))
    }
}

/// [`SizeEstimates`] for a signature by its own `jaccard` and `cardinality`: every kind of
/// MinHash has them as inherent methods (callers need no trait in scope), and this is the one
/// place that says the trait uses them.
macro_rules! size_estimates_by_own_methods {
    ($sketch:ty) => {
        impl $crate::sketch::SizeEstimates for $sketch {
            fn jaccard(&self, other: &Self) -> Result<f64, $crate::sketch::SketchError> {
                <$sketch>::jaccard(self, other)
            }

            fn cardinality(&self) -> f64 {
                <$sketch>::cardinality(self)
            }
        }
    };
}
pub(crate) use size_estimates_by_own_methods;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersection_formula_inverts_jaccard() {
        // |A| = 60, |B| = 70, |A∩B| = 30: J = 30/100 = 0.3 and 0.3·130/1.3 = 30. The paper's
        // (1 − J) denominator would give 0.3·130/0.7 ≈ 55.7, more than the true overlap.
        assert!((intersection_from_jaccard(0.3, 60.0, 70.0).unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(intersection_from_jaccard(1.0, 50.0, 50.0), Ok(50.0));
        assert_eq!(intersection_from_jaccard(0.0, 50.0, 80.0), Ok(0.0));
        assert_eq!(intersection_from_jaccard(0.9, 10.0, 1000.0), Ok(10.0));
    }

    #[test]
    fn a_jaccard_outside_zero_one_or_a_bad_size_is_an_error_not_clamped() {
        for j in [-0.1, 1.1, f64::NAN, f64::INFINITY] {
            let err = intersection_from_jaccard(j, 5.0, 6.0).unwrap_err();
            assert!(matches!(err, SketchError::InvalidJaccard { .. }));
            assert!(err.to_string().starts_with("jaccard must lie in [0, 1]"));
        }
        let err = intersection_from_jaccard(0.5, -1.0, 6.0).unwrap_err();
        assert_eq!(
            err,
            SketchError::InvalidSize {
                name: "size_a",
                value: -1.0
            }
        );
        let err = intersection_from_jaccard(0.5, 1.0, f64::NAN).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("size_b must be a finite non-negative set size"));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(1024))]

            #[test]
            fn intersection_stays_within_the_smaller_set_and_grows_with_jaccard(
                j in 0.0f64..=1.0, dj in 0.0f64..1.0, a in 0.0f64..1e12, b in 0.0f64..1e12,
            ) {
                let x = intersection_from_jaccard(j, a, b).unwrap();
                prop_assert!(x >= 0.0 && x <= a.min(b));
                prop_assert!(intersection_from_jaccard((j + dj).min(1.0), a, b).unwrap() >= x);
                // Exact inputs invert exactly: J = |A∩B| / |A∪B| gives |A∩B| back.
                let shared = a.min(b) * dj;
                let union = a + b - shared;
                if union > 0.0 {
                    let back = intersection_from_jaccard((shared / union).min(1.0), a, b).unwrap();
                    prop_assert!((back - shared).abs() <= 1e-6 * (1.0 + shared));
                }
                prop_assert_eq!(containment_from_parts(x, a).clamp(0.0, 1.0), containment_from_parts(x, a));
            }
        }
    }
}
