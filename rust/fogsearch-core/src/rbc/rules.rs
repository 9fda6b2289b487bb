//! reconchess's move rules: the move actions offered to a player, how a request resolves on the
//! true board (`revise_move`), and the capture square a move reports.

use crate::chess::{
    square_file, square_rank, Bitboard, Board, Color, Move, MoveList, PieceType, Square,
};

use super::error::RbcError;

/// reconchess `move_actions`: pseudo-legal moves on the board with every enemy piece removed (so
/// slides pass through enemies and castling ignores check), plus every pawn diagonal that does
/// not hold an own piece, with all four promotions and the bare move on a back rank.
pub fn move_actions(board: &Board) -> Vec<Move> {
    let us = board.turn();
    let mut stripped = board.clone();
    for sq in board.by_color(us.other()) {
        stripped.remove_piece_at(sq);
    }
    stripped.clear_ep_square();
    let mut list = MoveList::new();
    stripped.generate_moves(&mut list);
    let mut actions: Vec<Move> = list.as_slice().to_vec();
    let own = board.by_color(us);
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    for from in board.pieces_of(PieceType::Pawn, us) {
        for to in crate::chess::pawn_attacks(us, from) & !own {
            actions.push(Move::new(from, to, None));
            if back_ranks.contains(to) {
                for p in [
                    PieceType::Knight,
                    PieceType::Bishop,
                    PieceType::Rook,
                    PieceType::Queen,
                ] {
                    actions.push(Move::new(from, to, Some(p)));
                }
            }
        }
    }
    actions
}

/// reconchess `add_pawn_queen_promotion`: a pawn request to a back rank without a promotion piece
/// becomes a queen promotion.
pub fn normalize_request(board: &Board, mv: Move) -> Move {
    let is_pawn = board
        .piece_at(mv.from)
        .is_some_and(|p| p.piece_type == PieceType::Pawn);
    let back_rank = matches!(square_rank(mv.to), 0 | 7);
    if is_pawn && back_rank && mv.promotion.is_none() {
        Move::new(mv.from, mv.to, Some(PieceType::Queen))
    } else {
        mv
    }
}

/// python-chess `is_castling`: a king move of more than one file.
fn is_castling(board: &Board, mv: Move) -> bool {
    board
        .piece_at(mv.from)
        .is_some_and(|p| p.piece_type == PieceType::King && p.color == board.turn())
        && square_file(mv.from).abs_diff(square_file(mv.to)) > 1
}

/// reconchess: a castle with the right and every square strictly between king and rook empty.
fn is_rbc_castle(board: &Board, mv: Move) -> bool {
    let rank = square_rank(mv.from);
    let kingside = square_file(mv.to) > square_file(mv.from);
    let rook_square = rank * 8 + if kingside { 7 } else { 0 };
    board.castling_rights().contains(rook_square)
        && between(mv.from, rook_square).all(|sq| board.piece_at(sq).is_none())
}

/// The squares strictly between `a` and `b` on a shared rank, file or diagonal, nearest `a` first.
fn between(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (df, dr) = (
        square_file(b) as i8 - square_file(a) as i8,
        square_rank(b) as i8 - square_rank(a) as i8,
    );
    let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
    let steps = if aligned {
        df.abs().max(dr.abs()) - 1
    } else {
        0
    };
    let step = df.signum() + 8 * dr.signum();
    (1..=steps.max(0)).map(move |i| (a as i8 + i * step) as Square)
}

/// reconchess `revise_move`: the move a request actually makes on `board`, or `None` for a pass.
/// Pseudo-legal moves and RBC castles are taken unchanged; other castles pass (an enemy in the way
/// is not captured); sliders and pawns stop at the farthest pseudo-legal square of their path,
/// keeping the promotion piece; knights and kings are never changed.
pub fn revise_move(board: &Board, mv: Move) -> Option<Move> {
    let piece = board.piece_at(mv.from)?;
    if is_castling(board, mv) {
        return is_rbc_castle(board, mv).then_some(mv);
    }
    // python-chess's `is_pseudo_legal` knows nothing of RBC's terminal boards.
    let mut legal = MoveList::new();
    board.generate_moves(&mut legal);
    if legal.contains(&mv) {
        return Some(mv);
    }
    match piece.piece_type {
        PieceType::Pawn | PieceType::Rook | PieceType::Bishop | PieceType::Queen => {
            let path: Vec<Square> = between(mv.from, mv.to).collect();
            std::iter::once(mv.to)
                .chain(path.into_iter().rev())
                .map(|to| Move::new(mv.from, to, mv.promotion))
                .find(|candidate| legal.contains(candidate))
        }
        _ => None,
    }
}

/// [`revise_move`] for a request from outside, checked first: its from-square must hold a piece
/// of the side to move (reconchess only ever revises move actions, which always do).
pub fn revise_request(board: &Board, mv: Move) -> Result<Option<Move>, RbcError> {
    if board
        .piece_at(mv.from)
        .is_none_or(|p| p.color != board.turn())
    {
        return Err(RbcError::IllegalRequest(format!(
            "{}: no piece of the side to move on its from-square",
            mv.uci()
        )));
    }
    Ok(revise_move(board, mv))
}

/// The board after the referee made `taken` on it (`None`: a pass, a null move): the move must be
/// pseudo-legal or a castle, as every taken move is.
pub fn after_taken_move(board: &Board, taken: Option<Move>) -> Result<Board, RbcError> {
    if let Some(m) = taken {
        let castle = board
            .piece_at(m.from)
            .is_some_and(|p| p.piece_type == PieceType::King)
            && m.from.abs_diff(m.to) == 2;
        if !board.is_pseudo_legal(m) && !castle {
            return Err(RbcError::IllegalRequest(format!(
                "{} is not pseudo-legal on {}",
                m.uci(),
                board.fen()
            )));
        }
    }
    let mut after = board.clone();
    after.push(taken);
    Ok(after)
}

/// reconchess `capture_square_of_move`: the square of the captured piece (for e.p., the captured
/// pawn's square), or `None` if `taken` captures nothing.
pub fn capture_square(board: &Board, taken: Move) -> Option<Square> {
    let us = board.turn();
    if board.by_color(us.other()).contains(taken.to) {
        return Some(taken.to);
    }
    let is_pawn = board.pieces_of(PieceType::Pawn, us).contains(taken.from);
    let diagonal = square_file(taken.from) != square_file(taken.to);
    if is_pawn && diagonal && board.ep_square() == Some(taken.to) {
        return Some(if us == Color::White {
            taken.to - 8
        } else {
            taken.to + 8
        });
    }
    None
}

/// How a request resolves on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    pub taken: Option<Move>,
    pub capture_square: Option<Square>,
}

/// reconchess `LocalGame.move` without the bookkeeping: normalise the request, check that it is a
/// move action, revise it and find its capture square. `None` requests a pass.
pub fn resolve_request(board: &Board, requested: Option<Move>) -> Result<Resolution, RbcError> {
    let Some(requested) = requested else {
        return Ok(Resolution {
            taken: None,
            capture_square: None,
        });
    };
    let mv = normalize_request(board, requested);
    if !move_actions(board).contains(&mv) {
        return Err(RbcError::IllegalRequest(format!(
            "requested move {} is not among the move actions",
            requested.uci()
        )));
    }
    let taken = revise_move(board, mv);
    Ok(Resolution {
        taken,
        capture_square: taken.and_then(|t| capture_square(board, t)),
    })
}

/// Every move the player to move may have *taken*: a pass, every pseudo-legal move (e.p. and
/// shortened slides included) and every RBC castle. Empty on a board without both kings.
pub fn opponent_moves(board: &Board) -> Vec<Option<Move>> {
    let mut list = MoveList::new();
    board.pseudo_legal_moves(&mut list);
    std::iter::once(None)
        .chain(list.iter().map(|&m| Some(m)))
        .collect()
}
