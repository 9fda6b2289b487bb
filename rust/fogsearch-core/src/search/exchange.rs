//! The static exchange on one square: what the side to move wins by recapturing there.
//!
//! A leaf follows the opponent's reply, so the static evaluation scores a reply that takes a
//! defended piece as if the piece were simply lost, and the worst reply over a board is then
//! usually "take the most valuable piece anything attacks". In RBC we are told the square where
//! our piece was taken, so recapturing there is a move we can make knowingly; the `exchange` leaf
//! adds its gain. Nothing forbids a king from stepping into an attack in RBC, so the king counts
//! as worth more than any exchange: neither side recaptures with it onto a square still attacked.

use crate::chess::{Bitboard, Board, Color, PieceType, Square};

use super::eval::PIECE_VALUES;

/// A king lost in an exchange ends the game; larger than any sum of the other pieces.
const KING_EXCHANGE_VALUE: i32 = 20_000;

/// A piece's worth in an exchange: its material value, the king's above any exchange.
pub fn exchange_value(piece_type: PieceType) -> i32 {
    match piece_type {
        PieceType::King => KING_EXCHANGE_VALUE,
        other => PIECE_VALUES[other.index()],
    }
}

/// The least valuable of `color`'s pieces in `attackers`, with its exchange value.
fn least_valuable(board: &Board, attackers: Bitboard, color: Color) -> Option<(Square, i32)> {
    PieceType::ALL.into_iter().find_map(|piece_type| {
        (attackers & board.pieces_of(piece_type, color))
            .first()
            .map(|square| (square, exchange_value(piece_type)))
    })
}

/// What the side to move on `board` wins in material by capturing the opponent's piece on
/// `square` and letting both sides recapture there, each free to stop: 0 when nothing stands on
/// `square`, when it is our own, or when every first capture loses. Each side recaptures with its
/// least valuable piece (the usual static exchange: an order that keeps an x-ray blocked can do
/// better, and is not seen); promotions are not counted.
pub fn recapture_gain(board: &Board, square: Square) -> i32 {
    let us = board.turn();
    let Some(target) = board.piece_at(square) else {
        return 0;
    };
    if target.color == us {
        return 0;
    }
    // gains[d]: what the side making capture d nets if the exchange stopped right after it.
    let mut gains = [0i32; 33];
    let mut depth = 0;
    let mut occupied = board.occupied();
    let mut on_square = exchange_value(target.piece_type);
    let mut side = us;
    while let Some((from, value)) =
        least_valuable(board, board.attackers_to(square, occupied), side)
    {
        gains[depth] = on_square - if depth == 0 { 0 } else { gains[depth - 1] };
        depth += 1;
        if on_square == KING_EXCHANGE_VALUE {
            break; // a king was taken: the game is over
        }
        on_square = value;
        occupied = occupied.without(from);
        side = side.other();
    }
    // Unwind: each side captures only where that beats stopping.
    while depth > 1 {
        depth -= 1;
        gains[depth - 1] = gains[depth - 1].min(-gains[depth]);
    }
    if depth == 0 {
        0
    } else {
        gains[0].max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::test_walk::for_each_move_pair;
    use crate::chess::{square_rank, MoveList};

    /// Captures onto `square` only, each side recapturing with its least valuable piece (lowest
    /// square first among equals, as the swap list takes them) or stopping, played move by move
    /// with the board's own move generator.
    fn move_by_move_exchange(board: &Board, square: Square) -> i32 {
        let Some(taken) = board.piece_at(square) else {
            return 0;
        };
        let mut moves = MoveList::new();
        board.pseudo_legal_moves(&mut moves);
        let cheapest = moves.iter().filter(|m| m.to == square).min_by_key(|m| {
            let mover = board.piece_at(m.from).unwrap().piece_type;
            (exchange_value(mover), m.from)
        });
        let Some(&capture) = cheapest else {
            return 0;
        };
        let mut child = board.clone();
        child.push(Some(capture));
        (exchange_value(taken.piece_type) - move_by_move_exchange(&child, square)).max(0)
    }

    fn gain(fen: &str, square: &str) -> i32 {
        let board = Board::from_fen(fen).unwrap();
        recapture_gain(&board, crate::chess::parse_square(square).unwrap())
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        // White's rook takes the knight on d5; nothing of Black's guards it.
        assert_eq!(gain("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d5"), 320);
    }

    #[test]
    fn a_queen_does_not_take_a_pawn_a_pawn_defends() {
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d5"), 0);
    }

    #[test]
    fn the_cheapest_attacker_goes_first_and_a_losing_recapture_is_not_made() {
        // exd5 wins the knight; Bxd5 would win the pawn back, but then Qxd5 takes the bishop.
        assert_eq!(gain("4k3/8/2b5/3n4/4P3/8/8/3QK3 w - - 0 1", "d5"), 320);
        // Without White's queen Black recaptures: a knight for a pawn.
        assert_eq!(gain("4k3/8/2b5/3n4/4P3/8/8/4K3 w - - 0 1", "d5"), 320 - 100);
    }

    #[test]
    fn a_rook_behind_a_rook_joins_the_exchange() {
        // Two white rooks on the d-file against one black rook guarding the knight.
        assert_eq!(
            gain("3r2k1/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d5"),
            320 - 500 + 500
        );
    }

    #[test]
    fn a_king_never_recaptures_onto_a_guarded_square() {
        // Black's king could take the pawn on e7, but White's rook guards it.
        assert_eq!(gain("4k3/4P3/8/8/8/8/8/4RK2 b - - 0 1", "e7"), 0);
        // Unguarded, the king takes it.
        assert_eq!(gain("4k3/4P3/8/8/8/8/8/5K2 b - - 0 1", "e7"), 100);
    }

    #[test]
    fn own_pieces_and_empty_squares_gain_nothing() {
        assert_eq!(gain("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1"), 0);
        assert_eq!(gain("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d4"), 0);
    }

    /// On every square of the opponent's along three plies from busy positions, the swap list
    /// agrees with the exchange played out on real boards (back ranks left out, where pawns
    /// promote): attackers, x-rays, kings and the unwinding all checked against the move
    /// generator.
    #[test]
    fn swap_list_equals_the_exchange_played_move_by_move() {
        let mut checked = 0;
        for_each_move_pair(60, |_, board| {
            if board.is_terminal() {
                return; // a king is gone: the move generator has nothing to play
            }
            for square in board.by_color(board.turn().other()) {
                if matches!(square_rank(square), 0 | 7) {
                    continue;
                }
                assert_eq!(
                    recapture_gain(board, square),
                    move_by_move_exchange(board, square),
                    "{} on {}",
                    board.fen(),
                    crate::chess::square_name(square)
                );
                checked += 1;
            }
        });
        assert!(checked > 1_000, "only {checked} squares checked");
    }
}
