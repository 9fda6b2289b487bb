//! Errors of the sketch constructors, comparisons and decoders.

use std::fmt;

/// Why a sketch could not be built, combined, compared or decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum SketchError {
    /// A size parameter (`k`, `width`, `depth`) was zero.
    ZeroParameter { name: &'static str },
    /// A size parameter exceeds what the sketch can allocate sensibly.
    TooLarge {
        name: &'static str,
        value: u64,
        max: u64,
    },
    /// Two sketches cannot be merged or compared because a parameter differs.
    ParameterMismatch {
        name: &'static str,
        left: u64,
        right: u64,
    },
    /// Two MinHash signatures are of different kinds (bottom-k against k-hash).
    KindMismatch {
        left: &'static str,
        right: &'static str,
    },
    /// A set size handed to an estimator was negative or not finite.
    InvalidSize { name: &'static str, value: f64 },
    /// Bytes that do not decode to a sketch of the expected type.
    Corrupt { reason: String },
    /// Two batches that must pair up element by element have different lengths.
    LengthMismatch { keys: usize, weights: usize },
}

impl fmt::Display for SketchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SketchError::ZeroParameter { name } => write!(f, "{name} must be at least 1, got 0"),
            SketchError::TooLarge { name, value, max } => {
                write!(f, "{name} = {value} is too large (at most {max})")
            }
            SketchError::ParameterMismatch { name, left, right } => write!(
                f,
                "sketches differ in {name} ({left} vs {right}); only sketches built with the same \
                 parameters can be merged or compared"
            ),
            SketchError::KindMismatch { left, right } => write!(
                f,
                "cannot combine a {left} MinHash with a {right} MinHash; use the same kind"
            ),
            SketchError::InvalidSize { name, value } => {
                write!(
                    f,
                    "{name} must be a finite non-negative set size, got {value}"
                )
            }
            SketchError::Corrupt { reason } => write!(f, "cannot decode sketch bytes: {reason}"),
            SketchError::LengthMismatch { keys, weights } => write!(
                f,
                "keys and weights must have the same length, got {keys} keys and {weights} weights"
            ),
        }
    }
}

impl std::error::Error for SketchError {}

/// Checks a size parameter: at least 1 and at most `max`.
pub(crate) fn check_size(name: &'static str, value: usize, max: u64) -> Result<(), SketchError> {
    if value == 0 {
        return Err(SketchError::ZeroParameter { name });
    }
    if value as u64 > max {
        return Err(SketchError::TooLarge {
            name,
            value: value as u64,
            max,
        });
    }
    Ok(())
}

/// Checks that two sketches agree on a parameter before they are merged or compared.
pub(crate) fn check_same(name: &'static str, left: u64, right: u64) -> Result<(), SketchError> {
    if left == right {
        Ok(())
    } else {
        Err(SketchError::ParameterMismatch { name, left, right })
    }
}
