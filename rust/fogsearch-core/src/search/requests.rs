//! Which sets can be searched, and which requests a search considers at the root.

use crate::chess::{Board, Color, Move};

use super::rules;
use super::SearchError;

/// Our side, if `boards` is a searchable set: not empty, one side to move, both kings present.
pub fn side_to_search(boards: &[Board]) -> Result<Color, SearchError> {
    let first = boards.first().ok_or(SearchError::EmptySet)?;
    let us = first.turn();
    if boards.iter().any(|b| b.turn() != us) {
        return Err(SearchError::MixedTurns);
    }
    if let Some(board) = boards.iter().find(|b| b.is_terminal()) {
        return Err(SearchError::MissingKing { fen: board.fen() });
    }
    Ok(us)
}

/// Root requests in move-action order, pass last: the union of the set's move actions.
pub fn root_requests(set: &[Board], us: Color) -> Vec<Option<Move>> {
    let mut requests: Vec<Option<Move>> = rules::union_of_move_actions(set, us)
        .into_iter()
        .map(Some)
        .collect();
    requests.push(None);
    requests
}

/// `requests`, or the set's root requests when none are given; an error for a set that cannot be
/// searched or for a request that is none of the set's move actions (resolution trusts that it
/// is).
pub fn known_requests(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
) -> Result<Vec<Option<Move>>, SearchError> {
    let us = side_to_search(boards)?;
    let known = root_requests(boards, us);
    let Some(requests) = requests else {
        return Ok(known);
    };
    if let Some(unknown) = requests
        .iter()
        .flatten()
        .find(|m| !known.contains(&Some(**m)))
    {
        return Err(SearchError::UnknownRequest { uci: unknown.uci() });
    }
    Ok(requests)
}
