//! reconchess 1.6.9's move rules: the move actions offered to a player, the queen-promotion
//! default, how a request is revised against the true board, and the reported capture square.

use super::error::RbcError;
use crate::chess::{attack_tables, Board, Color, Move, MoveList, PieceType, Square};

const BACK_RANKS: u64 = 0xFF | 0xFF << 56;
const PROMOTION_PIECES: [PieceType; 4] = [
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];

/// The board as the side to move knows it: enemy pieces removed, no e.p. square, and only
/// castling rights its own king and rooks still support.
fn own_pieces_only(board: &Board) -> Board {
    let mut mine = Board::empty();
    let me = board.turn();
    for square in board.occupied_by(me) {
        mine.set_piece_at(square, board.piece_at(square));
    }
    mine.set_turn(me);
    let own_rights = match me {
        Color::White => crate::chess::WHITE_KINGSIDE | crate::chess::WHITE_QUEENSIDE,
        Color::Black => crate::chess::BLACK_KINGSIDE | crate::chess::BLACK_QUEENSIDE,
    };
    mine.set_castling_rights(board.castling_rights() & own_rights);
    mine
}

/// reconchess `move_actions`: pseudo-legal moves on the board without enemy pieces (castles
/// need only rights and no own piece between king and rook), plus every pawn diagonal not
/// holding an own piece, with the unpromoted and all four promoted forms on a back rank.
/// Duplicates are kept out; order is generation order.
pub fn move_actions(board: &Board) -> Vec<Move> {
    let mine = own_pieces_only(board);
    let mut list = MoveList::new();
    mine.pseudo_legal_moves_ignoring_missing_kings(&mut list);
    let mut actions: Vec<Move> = list.as_slice().to_vec();
    let me = board.turn();
    let own = board.occupied_by(me).0;
    let pawn_attacks = &attack_tables().pawn[me.index()];
    for from in board.pieces_of(PieceType::Pawn, me) {
        let mut targets = pawn_attacks[from as usize] & !own;
        while targets != 0 {
            let to = targets.trailing_zeros() as Square;
            targets &= targets - 1;
            let candidates = std::iter::once(None).chain(
                PROMOTION_PIECES
                    .iter()
                    .map(|&p| Some(p))
                    .filter(|_| BACK_RANKS >> to & 1 != 0),
            );
            for promotion in candidates {
                let mv = Move::new(from, to, promotion);
                if !actions.contains(&mv) {
                    actions.push(mv);
                }
            }
        }
    }
    actions
}

/// reconchess `add_pawn_queen_promotion`: a pawn request to a back rank without a promotion
/// piece becomes a queen promotion. Other requests are returned unchanged.
pub fn normalize_request(board: &Board, m: Move) -> Move {
    let is_pawn = m.squares_valid()
        && board
            .piece_at(m.from)
            .is_some_and(|p| p.piece_type == PieceType::Pawn);
    if is_pawn && BACK_RANKS >> m.to & 1 != 0 && m.promotion.is_none() {
        Move::new(m.from, m.to, Some(PieceType::Queen))
    } else {
        m
    }
}

fn is_pseudo_legal_any_kings(board: &Board, m: Move) -> bool {
    if !m.squares_valid() {
        return false;
    }
    let mut list = MoveList::new();
    board.pseudo_legal_moves_ignoring_missing_kings(&mut list);
    list.contains(&m)
}

/// python-chess `is_castling`: a king moving two or more files, or onto an own rook.
fn is_castling(board: &Board, m: Move) -> bool {
    let Some(piece) = board.piece_at(m.from) else {
        return false;
    };
    if piece.piece_type != PieceType::King {
        return false;
    }
    let file_distance = (m.from % 8).abs_diff(m.to % 8);
    file_distance > 1
        || board
            .pieces_of(PieceType::Rook, board.turn())
            .contains(m.to)
}

/// reconchess `revise_move`: the move the true board lets the request become. A pseudo-legal
/// move (RBC castles included) stays; a blocked castle passes; pawns and sliders stop at the
/// longest pseudo-legal prefix of their path (so a slider captures the first enemy piece);
/// anything else passes. `None` is a pass.
pub fn revise_move(board: &Board, m: Move) -> Option<Move> {
    if !m.squares_valid() || !board.occupied_by(board.turn()).contains(m.from) {
        return None;
    }
    if is_pseudo_legal_any_kings(board, m) {
        return Some(m);
    }
    if is_castling(board, m) {
        return None;
    }
    let piece_type = board.piece_at(m.from)?.piece_type;
    if !matches!(
        piece_type,
        PieceType::Pawn | PieceType::Rook | PieceType::Bishop | PieceType::Queen
    ) {
        return None;
    }
    // Try the squares nearer the start, from the target backwards.
    let between = attack_tables().between[m.from as usize][m.to as usize];
    let mut path: Vec<Square> = crate::chess::Bitboard(between).collect();
    if m.to > m.from {
        path.reverse();
    }
    path.into_iter()
        .map(|to| Move::new(m.from, to, m.promotion))
        .find(|&candidate| is_pseudo_legal_any_kings(board, candidate))
}

/// Whether `taken` captures e.p. on `board` (python-chess `is_en_passant`).
fn is_en_passant(board: &Board, taken: Move) -> bool {
    let diff = (taken.to as i32 - taken.from as i32).abs();
    board.ep_square() == Some(taken.to)
        && board
            .piece_at(taken.from)
            .is_some_and(|p| p.piece_type == PieceType::Pawn)
        && (diff == 7 || diff == 9)
        && !board.occupied().contains(taken.to)
}

/// reconchess `capture_square_of_move`: where `taken` captures, the captured pawn's square for
/// e.p., `None` if it captures nothing.
pub fn capture_square(board: &Board, taken: Move) -> Option<Square> {
    if !taken.squares_valid() {
        return None;
    }
    if is_en_passant(board, taken) {
        let ep = board.ep_square()?;
        return Some(match board.turn() {
            Color::White => ep - 8,
            Color::Black => ep + 8,
        });
    }
    if board.occupied_by(board.turn().other()).contains(taken.to) {
        Some(taken.to)
    } else {
        None
    }
}

/// What the true board made of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub taken: Option<Move>,
    pub capture_square: Option<Square>,
}

/// The whole of reconchess `LocalGame.move` before the push: normalise the request, check it is
/// a move action, revise it and find the capture square. `None` (a pass) is always allowed.
pub fn resolve_request(board: &Board, requested: Option<Move>) -> Result<Resolution, RbcError> {
    let Some(requested) = requested else {
        return Ok(Resolution {
            taken: None,
            capture_square: None,
        });
    };
    let normalized = normalize_request(board, requested);
    if !move_actions(board).contains(&normalized) {
        return Err(RbcError::IllegalRequest {
            requested,
            message: format!(
                "requested move {requested} is not among the move actions of the side to move"
            ),
        });
    }
    let taken = revise_move(board, normalized);
    Ok(Resolution {
        taken,
        capture_square: taken.and_then(|t| capture_square(board, t)),
    })
}

/// Every move the side to move may have TAKEN: the pass (`None`, first), then every RBC
/// pseudo-legal move (e.p. and RBC castles included; a shortened slide is itself pseudo-legal).
pub fn opponent_moves(board: &Board) -> Vec<Option<Move>> {
    let mut list = MoveList::new();
    board.pseudo_legal_moves(&mut list);
    std::iter::once(None)
        .chain(list.iter().map(|&m| Some(m)))
        .collect()
}
