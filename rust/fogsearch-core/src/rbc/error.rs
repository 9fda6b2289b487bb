//! What can go wrong when a board set takes an observation.

use std::fmt;

use crate::chess::FenError;

#[derive(Debug, Clone, PartialEq)]
pub enum RbcError {
    /// The requested move is not among the move actions.
    IllegalRequest(String),
    /// No board in the set fits the observation.
    InconsistentObservation(String),
    /// The observation itself is malformed (square out of range, contradictory flags, …).
    MalformedObservation(String),
    /// The update would grow the set past its `max_boards` limit.
    TooLarge(String),
    /// A FEN could not be read.
    Fen(FenError),
    /// Bytes that do not decode to a board set.
    Corrupt(String),
    /// The caller asked the update to stop (Ctrl-C) before it finished; the set is unchanged.
    Interrupted,
}

impl fmt::Display for RbcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RbcError::IllegalRequest(m)
            | RbcError::InconsistentObservation(m)
            | RbcError::MalformedObservation(m)
            | RbcError::TooLarge(m)
            | RbcError::Corrupt(m) => f.write_str(m),
            RbcError::Interrupted => f.write_str("the update was stopped before it finished"),
            RbcError::Fen(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RbcError {}

impl From<FenError> for RbcError {
    fn from(e: FenError) -> Self {
        RbcError::Fen(e)
    }
}
