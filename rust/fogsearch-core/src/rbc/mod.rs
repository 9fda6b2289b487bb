//! Reconnaissance Blind Chess rules as reconchess 1.6.9 applies them, and board sets.
//!
//! - rules: move actions, the queen-promotion default, revised moves, capture squares;
//! - [`BoardSet`]: a player's exact information set, updated by reconchess's callbacks.

mod board_set;
mod error;
mod rules;

pub use board_set::{BoardSet, SENSE_SQUARES};
pub use error::RbcError;
pub use rules::{
    capture_square, move_actions, normalize_request, opponent_moves, resolve_request, revise_move,
    Resolution,
};
