//! Errors of the sketch constructors, comparisons and decoders.
//!
//! Every message is a sentence for the person who passed the value: it names the parameter, the
//! limit and why the limit exists (the memory the value would need), because these errors reach
//! Python users unchanged, and through the search configuration too.

use crate::limits::human_bytes;
use std::fmt;

/// Why a sketch could not be built, combined, compared or decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum SketchError {
    /// A size parameter (`k`, `width`, `depth`) was zero.
    ZeroParameter { name: &'static str },
    /// A size parameter exceeds its limit. `bytes_each` is the memory one unit of it needs (0
    /// where the limit is not about memory); `unit` names what is counted, in the plural.
    TooLarge {
        name: &'static str,
        value: u64,
        max: u64,
        unit: &'static str,
        bytes_each: u64,
    },
    /// Memory for a sketch of a valid size could not be had from the allocator.
    OutOfMemory { what: &'static str, bytes: u64 },
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
    /// A Jaccard similarity handed to an estimator was outside `[0, 1]` or NaN.
    InvalidJaccard { value: f64 },
    /// Bytes that do not decode to a sketch of the expected type.
    Corrupt { reason: String },
    /// Two batches that must pair up element by element have different lengths.
    LengthMismatch { keys: usize, weights: usize },
}

/// A value that may have been saturated at `u64::MAX` on its way in (a product of sizes, or a
/// Python int beyond 64 bits): then all that is known is that it is at least that much.
fn amount(value: u64) -> String {
    if value == u64::MAX {
        format!("{value} or more")
    } else {
        value.to_string()
    }
}

impl fmt::Display for SketchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SketchError::ZeroParameter { name } => write!(f, "{name} must be at least 1, got 0"),
            SketchError::TooLarge {
                name,
                value,
                max,
                unit,
                bytes_each: 0,
            } => write!(
                f,
                "{name} = {} is too large: at most {max} {unit} are allowed",
                amount(*value)
            ),
            SketchError::TooLarge {
                name,
                value,
                max,
                unit,
                bytes_each,
            } => write!(
                f,
                "{name} = {} is too large: {} {unit} would need {} of memory{}; at most {max} \
                 {unit} ({}) are allowed",
                amount(*value),
                amount(*value),
                human_bytes(*value as u128 * *bytes_each as u128),
                if *value == u64::MAX { " or more" } else { "" },
                human_bytes(*max as u128 * *bytes_each as u128),
            ),
            SketchError::OutOfMemory { what, bytes } => write!(
                f,
                "could not allocate {} for the {what}: the machine does not have that much \
                 memory free; use a smaller sketch",
                human_bytes(*bytes as u128)
            ),
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
            SketchError::InvalidJaccard { value } => {
                write!(f, "jaccard must lie in [0, 1], got {value}")
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

/// A limit on one size parameter: the most `unit`s allowed, and the memory each one needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit {
    pub(crate) max: u64,
    pub(crate) unit: &'static str,
    pub(crate) bytes_each: u64,
}

impl Limit {
    /// Checks a size parameter: at least 1 and at most `max`.
    pub(crate) fn check(self, name: &'static str, value: u64) -> Result<(), SketchError> {
        if value == 0 {
            return Err(SketchError::ZeroParameter { name });
        }
        if value > self.max {
            return Err(SketchError::TooLarge {
                name,
                value,
                max: self.max,
                unit: self.unit,
                bytes_each: self.bytes_each,
            });
        }
        Ok(())
    }
}

/// Element types whose all-zero bit pattern is the value 0.
///
/// # Safety
/// Implement only for types where every zero byte pattern is a valid value.
pub(crate) unsafe trait ZeroIsValid: Copy {}
// SAFETY: integers: all-zero bytes are the integer 0.
unsafe impl ZeroIsValid for i64 {}
// SAFETY: as above.
unsafe impl ZeroIsValid for u8 {}
// SAFETY: as above.
unsafe impl ZeroIsValid for u64 {}

/// A vector of `len` zeros, or [`SketchError::OutOfMemory`] where the allocator refuses:
/// `vec![0; len]` would abort the process instead, taking a Python session with it. Like
/// `vec![0; len]` it asks for zeroed memory, which the system hands out lazily, so a large sketch
/// costs memory only where it is written.
pub(crate) fn try_zeroed<T: ZeroIsValid>(
    what: &'static str,
    len: usize,
) -> Result<Vec<T>, SketchError> {
    let out_of_memory = || SketchError::OutOfMemory {
        what,
        bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    };
    if len == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| out_of_memory())?;
    // SAFETY: `layout` has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if ptr.is_null() {
        return Err(out_of_memory());
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `len` values of `T`,
    // and all `len` of them are initialised: zero bytes are a valid `T` (`ZeroIsValid`).
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// A vector of `len` copies of `value`, or [`SketchError::OutOfMemory`] where the allocator
/// refuses (see [`try_zeroed`]; this one writes every element).
pub(crate) fn try_filled<T: Clone>(
    what: &'static str,
    len: usize,
    value: T,
) -> Result<Vec<T>, SketchError> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| SketchError::OutOfMemory {
            what,
            bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        })?;
    values.resize(len, value);
    Ok(values)
}

/// Checks that two sketches agree on a parameter before they are merged or compared.
pub(crate) fn check_same(name: &'static str, left: u64, right: u64) -> Result<(), SketchError> {
    if left == right {
        Ok(())
    } else {
        Err(SketchError::ParameterMismatch { name, left, right })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_errors_read_as_sentences_with_the_limit_and_the_memory() {
        let counters = Limit {
            max: 1 << 28,
            unit: "counters",
            bytes_each: 8,
        };
        assert_eq!(
            counters
                .check("width * depth", 5 << 40)
                .unwrap_err()
                .to_string(),
            "width * depth = 5497558138880 is too large: 5497558138880 counters would need 40.0 \
             TiB of memory; at most 268435456 counters (2.0 GiB) are allowed"
        );
        assert!(counters
            .check("width * depth", u64::MAX)
            .unwrap_err()
            .to_string()
            .starts_with("width * depth = 18446744073709551615 or more is too large"));
        let rows = Limit {
            max: 64,
            unit: "rows",
            bytes_each: 0,
        };
        assert_eq!(
            rows.check("depth", 65).unwrap_err().to_string(),
            "depth = 65 is too large: at most 64 rows are allowed"
        );
        assert_eq!(
            rows.check("depth", 0).unwrap_err().to_string(),
            "depth must be at least 1, got 0"
        );
        assert_eq!(human_bytes(512), "512 bytes");
    }

    #[test]
    fn allocation_failure_is_an_error_not_an_abort() {
        assert_eq!(try_zeroed::<i64>("counters", 5).unwrap(), vec![0; 5]);
        assert_eq!(
            try_filled("minima", 3, u64::MAX).unwrap(),
            vec![u64::MAX; 3]
        );
        // More than the address space: refused by the layout or the allocator, not aborted.
        let huge = usize::MAX / 16;
        assert!(matches!(
            try_zeroed::<i64>("counters", huge),
            Err(SketchError::OutOfMemory { .. })
        ));
        assert!(matches!(
            try_filled("minima", huge, 0u64),
            Err(SketchError::OutOfMemory { .. })
        ));
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
    }
}
