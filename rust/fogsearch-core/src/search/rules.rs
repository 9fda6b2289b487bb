//! The RBC rules the search tree needs, as seen from an information set: our requests, how a
//! request resolves on one board, and the opponent's possible replies. All rule decisions are
//! `crate::rbc`'s; this module only adapts them to the tree's shapes.

use crate::chess::{Bitboard, Board, Color, Move, MoveList, PieceType, Square};
use crate::rbc;

/// What we observe after our request on one board: the move actually taken and the capture square.
pub type MoveObservation = (Option<Move>, Option<Square>);

/// The resolution of `request` on `board`. A request outside this board's move actions (possible
/// only in sets whose boards disagree about our own pieces) is treated as a pass on that board.
/// With `shared_side` the caller vouches that every board of the set has the same own pieces and
/// castling rights, so a request from the set's union of move actions is one of this board's and
/// the (costly) membership check is skipped.
pub fn resolve(board: &Board, request: Option<Move>, shared_side: bool) -> MoveObservation {
    match request {
        Some(mv) if shared_side => {
            let taken = rbc::revise_move(board, rbc::normalize_request(board, mv));
            (taken, taken.and_then(|t| rbc::capture_square(board, t)))
        }
        _ => match rbc::resolve_request(board, request) {
            Ok(resolution) => (resolution.taken, resolution.capture_square),
            Err(_) => (None, None),
        },
    }
}

/// Whether every board has the same own pieces and own castling rights (and so the same move
/// actions).
pub fn own_sides_agree(boards: &[Board], us: Color) -> bool {
    let Some(first) = boards.first() else {
        return true;
    };
    let side = own_side(first, us);
    boards[1..].iter().all(|b| own_side(b, us) == side)
}

/// The union of `move_actions` over `boards` (in first-seen order). A board set's boards agree on
/// our own pieces and castling rights, which alone decide the move actions, so the actions are
/// generated once per distinct own-side placement.
pub fn union_of_move_actions(boards: &[Board], us: Color) -> Vec<Move> {
    let mut seen_sides: Vec<[u64; 7]> = Vec::new();
    let mut actions: Vec<Move> = Vec::new();
    for board in boards {
        let side = own_side(board, us);
        if seen_sides.contains(&side) {
            continue;
        }
        seen_sides.push(side);
        for mv in rbc::move_actions(board) {
            if !actions.contains(&mv) {
                actions.push(mv);
            }
        }
    }
    actions
}

fn own_side(board: &Board, us: Color) -> [u64; 7] {
    let mut side = [0u64; 7];
    for piece_type in PieceType::ALL {
        side[piece_type.index()] = board.pieces_of(piece_type, us).0;
    }
    // Only our own rights: the opponent's rights differ between boards (did their king move?)
    // and never change our move actions.
    let our_back_rank = match us {
        Color::White => Bitboard::RANK_1,
        Color::Black => Bitboard::RANK_8,
    };
    side[6] = board.castling_rights().0 & our_back_rank.0;
    side
}

/// Every move the opponent may take on `board` (pass excluded; the caller adds it).
pub fn opponent_replies(board: &Board, list: &mut MoveList) {
    list.clear();
    board.pseudo_legal_moves(list);
}

/// The square where `taken` captures on `board` (the passed pawn's square for e.p.), if any.
pub fn capture_square(board: &Board, taken: Move) -> Option<Square> {
    rbc::capture_square(board, taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponents_castling_rights_do_not_split_our_side() {
        let kept = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let lost = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert!(own_sides_agree(&[kept.clone(), lost.clone()], Color::White));
        assert!(!own_sides_agree(
            &[kept.clone(), lost.clone()],
            Color::Black
        ));
        assert_eq!(
            union_of_move_actions(std::slice::from_ref(&kept), Color::White),
            union_of_move_actions(&[kept, lost], Color::White)
        );
    }
}
