//! What the samplers sample: an unnormalised log weight over deal assignments.

use super::constraints::Owner;

/// Unnormalised log target of an assignment: the log reach probability of a history with that
/// deal under the joint policy (any constant offset is irrelevant). `-inf` means unreachable.
pub trait LogTarget: Sync {
    fn log_weight(&self, assignment: &[Owner]) -> f64;
}

impl<F: Fn(&[Owner]) -> f64 + Sync> LogTarget for F {
    fn log_weight(&self, assignment: &[Owner]) -> f64 {
        self(assignment)
    }
}
