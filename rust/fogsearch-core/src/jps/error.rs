//! Errors of the Joint Policy Search module.

use std::fmt;

/// What can go wrong when a caller asks for a game, a policy or a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JpsError {
    /// A game name that is not one of the four families, or a malformed parameter list.
    UnknownGame(String),
    /// A number outside its allowed range; the message names the parameter and the range.
    OutOfRange(String),
    /// A policy that does not belong to the game it is used with.
    PolicyMismatch(String),
    /// The caller asked the computation to stop (Ctrl-C from Python).
    Interrupted,
}

impl fmt::Display for JpsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JpsError::UnknownGame(m) | JpsError::OutOfRange(m) | JpsError::PolicyMismatch(m) => {
                f.write_str(m)
            }
            JpsError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for JpsError {}

/// `Ok(value)` when `lo <= value <= hi`, else an [`JpsError::OutOfRange`] naming `what`.
pub(crate) fn bounded<T>(what: &str, value: T, lo: T, hi: T) -> Result<T, JpsError>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if value < lo || value > hi {
        Err(JpsError::OutOfRange(format!(
            "{what} must be between {lo} and {hi}, got {value}"
        )))
    } else {
        Ok(value)
    }
}
