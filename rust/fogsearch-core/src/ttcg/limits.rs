//! Bounds on what one call may allocate or run, checked where sizes enter, before any work.
//!
//! Every size a caller passes (draws, chains, resamples, an enumeration limit) turns into memory
//! the call returns, and every run length (burn-in, thinning) into time. A mistaken `2**40` must
//! be refused with a message, not abort the process when the allocation fails or run for weeks.

use super::error::TtcgError;
use crate::limits::human_bytes;

/// The most bytes one call may return (its output arrays): 4 GiB, far above what the samplers'
/// uses need (a million 52-card deals is 52 MB) and below the memory of the machines they run on.
pub const MAX_OUTPUT_BYTES: u128 = 4 << 30;

/// The most Gibbs transitions one call may run: 2^36 (6.9e10). At the 1-8 million transitions a
/// second one core runs (bench/RESULTS.md) that is hours to days; longer runs are better split
/// into calls (chains can be restarted from the last draws).
pub const MAX_TRANSITIONS: u128 = 1 << 36;

/// Refuses `count` items of `bytes_each` bytes when together they exceed [`MAX_OUTPUT_BYTES`];
/// `what` names the parameter as the caller knows it (e.g. "n = 1000 draws").
pub fn check_output(what: &str, count: u128, bytes_each: u128) -> Result<(), TtcgError> {
    let total = count.saturating_mul(bytes_each);
    if total > MAX_OUTPUT_BYTES {
        return Err(TtcgError::TooLarge(format!(
            "{what} would need {} ({bytes_each} bytes each); one call may return at most {}: \
             ask for fewer, over several calls",
            human_bytes(total),
            human_bytes(MAX_OUTPUT_BYTES)
        )));
    }
    Ok(())
}

/// Refuses a run of more than [`MAX_TRANSITIONS`] Gibbs transitions.
pub fn check_transitions(what: &str, transitions: u128) -> Result<(), TtcgError> {
    if transitions > MAX_TRANSITIONS {
        return Err(TtcgError::TooLarge(format!(
            "{what} is {transitions} transitions; one call may run at most {MAX_TRANSITIONS} \
             (2^36, hours to days at 1-8 million a second per core): split the run"
        )));
    }
    Ok(())
}

/// A vector of `n` default items, or [`TtcgError::TooLarge`] when the allocator refuses it (the
/// byte bound above is checked first; this catches a machine with less memory than that).
pub fn try_vec<T: Clone>(what: &str, n: usize, value: T) -> Result<Vec<T>, TtcgError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        TtcgError::TooLarge(format!(
            "{what}: the system could not allocate {} for it",
            human_bytes(n as u128 * std::mem::size_of::<T>() as u128)
        ))
    })?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_above_the_bound_are_refused_with_what_they_would_need() {
        assert!(check_output("n = 10 draws", 10, 12).is_ok());
        let err = check_output("n = 1099511627776 draws", 1 << 40, 12).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("12.0 TiB") && text.contains("4.0 GiB"),
            "{text}"
        );
        assert!(check_transitions("burn_in", 1 << 62).is_err());
        assert!(check_transitions("burn_in", 1000).is_ok());
        assert_eq!(try_vec("x", 3, 0u8).unwrap(), vec![0, 0, 0]);
    }
}
