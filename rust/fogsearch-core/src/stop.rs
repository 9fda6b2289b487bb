//! Stopping long computations from outside.
//!
//! A search, a board-set update, a Gibbs run or an enumeration can take seconds to minutes. The
//! caller (the Python bindings, on Ctrl-C) must be able to end it early without killing threads:
//! the computation polls a [`Stop`] at points where giving up leaves nothing half-changed, and
//! returns its `Interrupted` error there. Polling is one relaxed atomic load, cheap enough for
//! every node of a search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A request to stop, shared between the caller and the computation (and its worker threads).
#[derive(Debug, Default)]
pub struct Stop {
    requested: AtomicBool,
}

impl Stop {
    /// A flag that nobody has raised yet.
    pub const fn new() -> Self {
        Stop {
            requested: AtomicBool::new(false),
        }
    }

    /// Asks every computation polling this flag to stop.
    pub fn request(&self) {
        self.requested.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }
}

/// A flag that is never raised, for callers with nothing to stop them (tests, Rust users).
pub static NEVER: Stop = Stop::new();

/// The reason a computation ended early: a stop request, or its own deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    Stopped,
    DeadlinePassed,
}

/// A stop flag together with an optional deadline: what a time-limited, interruptible
/// computation polls.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'s> {
    pub stop: &'s Stop,
    pub deadline: Option<Instant>,
}

impl<'s> Limits<'s> {
    pub fn new(stop: &'s Stop, deadline: Option<Instant>) -> Self {
        Limits { stop, deadline }
    }

    /// Why the computation must end now, if it must.
    #[inline]
    pub fn halt(&self) -> Option<Halt> {
        if self.stop.requested() {
            Some(Halt::Stopped)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Halt::DeadlinePassed)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_raised_flag_is_seen_and_never_is_never_raised() {
        let stop = Stop::new();
        assert!(!stop.requested());
        stop.request();
        assert!(stop.requested());
        assert!(!NEVER.requested());
        assert_eq!(Limits::new(&stop, None).halt(), Some(Halt::Stopped));
    }

    #[test]
    fn a_passed_deadline_halts_and_a_future_one_does_not() {
        let past = Instant::now() - Duration::from_millis(1);
        let future = Instant::now() + Duration::from_secs(3600);
        assert_eq!(
            Limits::new(&NEVER, Some(past)).halt(),
            Some(Halt::DeadlinePassed)
        );
        assert_eq!(Limits::new(&NEVER, Some(future)).halt(), None);
        assert_eq!(Limits::new(&NEVER, None).halt(), None);
    }
}
