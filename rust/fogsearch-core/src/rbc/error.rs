//! Errors of the RBC rules and board sets; every message says what was wrong.

use crate::chess::{FenError, Move};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RbcError {
    /// A requested move that is not among the move actions (reconchess raises `ValueError`).
    IllegalRequest {
        requested: Move,
        message: String,
    },
    /// A well-formed observation that no board in the set is consistent with.
    InconsistentObservation {
        message: String,
    },
    /// An observation that cannot be right whatever the board (bad square, contradictory flags).
    MalformedObservation {
        message: String,
    },
    Fen(FenError),
}

impl fmt::Display for RbcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RbcError::IllegalRequest { message, .. } => f.write_str(message),
            RbcError::InconsistentObservation { message } => f.write_str(message),
            RbcError::MalformedObservation { message } => f.write_str(message),
            RbcError::Fen(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RbcError {}

impl From<FenError> for RbcError {
    fn from(e: FenError) -> Self {
        RbcError::Fen(e)
    }
}
