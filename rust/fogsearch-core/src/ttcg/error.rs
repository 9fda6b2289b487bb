//! Errors of the trick-taking module.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtcgError {
    /// Malformed input: out-of-range parameters, illegal actions, counts that do not add up.
    InvalidInput(String),
    /// Well-formed constraints that no deal satisfies; the message names the binding constraint.
    Infeasible(String),
    /// A request beyond what this implementation does (e.g. enumeration above its size limit).
    Unsupported(String),
}

impl fmt::Display for TtcgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtcgError::InvalidInput(m) | TtcgError::Infeasible(m) | TtcgError::Unsupported(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for TtcgError {}

pub(crate) fn invalid<T>(message: impl Into<String>) -> Result<T, TtcgError> {
    Err(TtcgError::InvalidInput(message.into()))
}
