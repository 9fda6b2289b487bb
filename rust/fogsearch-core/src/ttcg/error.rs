//! Errors of the trick-taking module.

use std::fmt;

use crate::stop::Halt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtcgError {
    /// Malformed input: out-of-range parameters, illegal actions, counts that do not add up.
    InvalidInput(String),
    /// Well-formed constraints that no deal satisfies; the message names the binding constraint.
    Infeasible(String),
    /// A request beyond what this implementation does (e.g. enumeration above its size limit).
    Unsupported(String),
    /// A size, count or run length above what one call may use; the message names the
    /// parameter, the limit and what the request would need (the bounds are in `limits`).
    TooLarge(String),
    /// The joint policy gives the observed actions probability zero under every deal considered:
    /// there is nothing to sample.
    ZeroReach(String),
    /// The caller asked the computation to stop ([`crate::stop::Stop`]); nothing was changed.
    Interrupted,
    /// The computation's own deadline passed before it could give an answer.
    DeadlinePassed,
}

impl TtcgError {
    /// What went wrong, as the caller reads it (every variant's message is text).
    pub fn message(&self) -> &str {
        match self {
            TtcgError::InvalidInput(m)
            | TtcgError::Infeasible(m)
            | TtcgError::Unsupported(m)
            | TtcgError::TooLarge(m)
            | TtcgError::ZeroReach(m) => m,
            TtcgError::Interrupted => "interrupted",
            TtcgError::DeadlinePassed => "the time limit passed before an answer",
        }
    }
}

impl fmt::Display for TtcgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for TtcgError {}

impl From<Halt> for TtcgError {
    fn from(h: Halt) -> Self {
        match h {
            Halt::Stopped => TtcgError::Interrupted,
            Halt::DeadlinePassed => TtcgError::DeadlinePassed,
        }
    }
}

pub(crate) fn invalid<T>(message: impl Into<String>) -> Result<T, TtcgError> {
    Err(TtcgError::InvalidInput(message.into()))
}

/// The message every sampler gives when the policy rules out the observed actions.
pub(crate) fn zero_reach(detail: impl fmt::Display) -> TtcgError {
    TtcgError::ZeroReach(format!(
        "the policy gives the observed actions probability zero under {detail}: no deal can be \
         sampled (a policy must give every observed action a positive probability)"
    ))
}
