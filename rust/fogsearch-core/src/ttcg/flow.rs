//! Construction of a consistent deal (Lemma 2): integer max flow on source -> suits -> players and
//! the undealt pile -> sink, with the edges of revealed voids removed.

use super::constraints::{DealConstraints, Owner};
use super::error::TtcgError;

/// `lengths[s][o]`: how many hidden cards of suit `s` owner `o` (players, then the undealt pile)
/// holds.
pub type SuitLengths = Vec<Vec<usize>>;

/// A suit-length matrix satisfying the constraints, or [`TtcgError::Infeasible`] naming the
/// binding constraint.
pub fn construct_suit_lengths(constraints: &DealConstraints) -> Result<SuitLengths, TtcgError> {
    let _ = constraints;
    Err(TtcgError::Unsupported(
        "construct_suit_lengths: in progress".into(),
    ))
}

/// A deal assignment (owner per card id) consistent with `constraints`: known cards keep their
/// owners, hidden cards are handed out per [`construct_suit_lengths`] in ascending id order.
pub fn construct_assignment(constraints: &DealConstraints) -> Result<Vec<Owner>, TtcgError> {
    let lengths = construct_suit_lengths(constraints)?;
    Ok(assignment_from_lengths(constraints, &lengths))
}

/// Hands out each suit's hidden cards, ascending, to owners in order per `lengths`.
pub fn assignment_from_lengths(constraints: &DealConstraints, lengths: &SuitLengths) -> Vec<Owner> {
    let mut assignment: Vec<Owner> = constraints
        .known_owner
        .iter()
        .map(|o| o.unwrap_or(Owner::MAX))
        .collect();
    for (s, row) in lengths.iter().enumerate() {
        let mut cards = constraints
            .hidden_cards()
            .into_iter()
            .filter(|&c| constraints.suit_of(c) == s);
        for (owner, &n) in row.iter().enumerate() {
            for _ in 0..n {
                let c = cards.next().expect("suit lengths match the hidden cards");
                assignment[c as usize] = owner as Owner;
            }
        }
    }
    assignment
}
