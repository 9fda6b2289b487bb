//! Reconnaissance Blind Chess rules as reconchess 1.6.9 applies them, and board sets.

mod board_set;
mod distribution;
mod error;
mod opponent_model;
mod rules;
mod sense;
mod unique;

pub use board_set::BoardSet;
pub use distribution::{state_index, SQUARE_STATES};
pub use error::RbcError;
pub use opponent_model::{move_score, OpponentModel};
pub use rules::{
    after_taken_move, capture_square, move_actions, normalize_request, opponent_moves,
    resolve_request, revise_move, revise_request, Resolution,
};
pub use sense::{sense_result, sense_squares, SenseResult, SENSE_SQUARES};
