//! The static evaluation at the leaves: material plus piece-square tables, in centipawns, from the
//! point of view of the side we search for. The tables are generated from a few simple chess ideas
//! (advance pawns, centralise minor pieces, rooks on the seventh, king at home) rather than tuned,
//! so that tests can rebuild them from [`piece_square_table`] and the search stays reproducible.

use crate::chess::{square_file, Board, Color, Move, PieceType, Square};

/// The score of capturing the opponent's king (a win); losing ours scores `-MATE`. Both are
/// moved towards zero by the ply at which they happen, so faster wins are preferred.
pub const MATE: i32 = 100_000;
/// Scores beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// A set-search value at or below `-KING_LOST_IN_SEARCH` loses our king within the searched plies
/// on some board whatever we request: a king capture scores `-(MATE - ply)` and no search reaches
/// 1,000 plies. Narrower than `MATE_BOUND` on purpose: that one also counts an engine's long mates
/// (down to `MATE - 2001`) as mates, and a boards judgement's `-king_loss_cp` (1,000 to 10^6)
/// between the two would be read differently, changing the bot's play. `search::MATED`, the
/// one-reply outcome of a capture the opponent forces next move, is the third, milder, threshold.
pub const KING_LOST_IN_SEARCH: i32 = MATE - 1_000;
/// Larger than any score; the open alpha-beta window is `(-INFINITY, INFINITY)`.
pub const INFINITY: i32 = 1_000_000;

/// The evaluation's material values in centipawns, indexed by `PieceType::index()` (pawn ..
/// king): tuned for the evaluation, unlike the plain count `chess::MATERIAL_POINTS`.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The bonus of a `piece_type` of White standing on `square` (python-chess numbering, a1 = 0);
/// Black's table is the mirror image (`square ^ 56`).
pub fn piece_square_table(piece_type: PieceType, square: u8) -> i32 {
    let file = (square % 8) as i32;
    let rank = (square / 8) as i32;
    // 0 on the edge, 3 in the centre, per axis.
    let file_centrality = file.min(7 - file);
    let rank_centrality = rank.min(7 - rank);
    let centrality = file_centrality + rank_centrality;
    match piece_type {
        PieceType::Pawn => {
            let advance = if (1..=6).contains(&rank) {
                6 * (rank - 1)
            } else {
                0
            };
            let centre = if (3..=4).contains(&file) && (2..=4).contains(&rank) {
                10
            } else {
                0
            };
            advance + centre
        }
        PieceType::Knight => 5 * centrality - 15,
        PieceType::Bishop => 3 * centrality - 6,
        PieceType::Rook => {
            let seventh = if rank == 6 { 15 } else { 0 };
            let central_file = if (3..=4).contains(&file) { 3 } else { 0 };
            seventh + central_file
        }
        PieceType::Queen => 2 * centrality - 4,
        PieceType::King => {
            if rank == 0 {
                if matches!(file, 1 | 2 | 6) {
                    10
                } else {
                    0
                }
            } else {
                -10 * rank
            }
        }
    }
}

struct Tables {
    /// `[color][piece][square]`: material plus placement bonus.
    score: [[[i32; 64]; 6]; 2],
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut score = [[[0; 64]; 6]; 2];
        for piece_type in PieceType::ALL {
            let p = piece_type.index();
            for square in 0..64u8 {
                let white = PIECE_VALUES[p] + piece_square_table(piece_type, square);
                score[Color::White.index()][p][square as usize] = white;
                score[Color::Black.index()][p][(square ^ 56) as usize] = white;
            }
        }
        Tables { score }
    })
}

/// Material plus placement of `board` from `us`'s point of view, in centipawns.
pub fn evaluate(board: &Board, us: Color) -> i32 {
    let t = tables();
    let mut total = 0;
    for color in [Color::White, Color::Black] {
        let sign = if color == us { 1 } else { -1 };
        let table = &t.score[color.index()];
        for piece_type in PieceType::ALL {
            let row = &table[piece_type.index()];
            for square in board.pieces_of(piece_type, color) {
                total += sign * row[square as usize];
            }
        }
    }
    total
}

/// `evaluate(child, us)` for the child `board.push(mv)` would make, from `value = evaluate(board,
/// us)`, without making it: only the squares [`Board::push`] empties or fills are rescored. The
/// leaves score every reply of every board this way, and copying and updating a board for each
/// cost more than the scoring.
pub fn evaluate_after(board: &Board, mv: Option<Move>, value: i32, us: Color) -> i32 {
    let mover = board.turn();
    let Some((mv, piece)) =
        mv.and_then(|m| Some((m, board.piece_at(m.from).filter(|p| p.color == mover)?)))
    else {
        return value; // a pass, or a move of no piece of the side to move: no square changes
    };
    let t = tables();
    let score = |color: Color, piece_type: PieceType, square: Square| {
        let s = t.score[color.index()][piece_type.index()][square as usize];
        if color == us {
            s
        } else {
            -s
        }
    };
    let mut total = value - score(mover, piece.piece_type, mv.from);
    if board.is_castle(piece, mv) {
        let (rook_from, rook_to) = Board::castling_rook_squares(mv);
        if let Some(rook) = board.piece_at(rook_from) {
            total += score(rook.color, rook.piece_type, rook_to)
                - score(rook.color, rook.piece_type, rook_from);
        }
        return total + score(mover, PieceType::King, mv.to);
    }
    let is_pawn = piece.piece_type == PieceType::Pawn;
    let taken = board.piece_at(mv.to);
    if let Some(taken) = taken {
        total -= score(taken.color, taken.piece_type, mv.to);
    } else if is_pawn
        && Some(mv.to) == board.ep_square()
        && square_file(mv.to) != square_file(mv.from)
    {
        let passed = if mover == Color::White {
            mv.to - 8
        } else {
            mv.to + 8
        };
        if let Some(pawn) = board.piece_at(passed) {
            total -= score(pawn.color, pawn.piece_type, passed);
        }
    }
    let placed = mv.promotion.filter(|_| is_pawn).unwrap_or(piece.piece_type);
    total + score(mover, placed, mv.to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::test_walk::for_each_move;

    /// Along every move (captures, castling, e.p., promotions and passes included) of three plies
    /// from a few busy positions, the evaluation scored before the move equals the child's, for
    /// both sides.
    #[test]
    fn the_evaluation_after_a_move_equals_the_childs() {
        let mut moves = 0;
        for_each_move(300, |parent, mv, child| {
            for us in [Color::White, Color::Black] {
                let after = evaluate_after(parent, mv, evaluate(parent, us), us);
                assert_eq!(after, evaluate(child, us), "{mv:?} on {parent:?}");
            }
            moves += 1;
        });
        assert!(moves > 1_000, "the walk covers many moves ({moves})");
    }

    #[test]
    fn the_lost_king_threshold_sits_between_every_capture_and_the_mate_bound() {
        // Our moves and replies up to MAX_DEPTH, then the per-board plies: far below 1,000.
        const DEEPEST: i32 = (2 * crate::search::MAX_DEPTH + crate::search::MAX_BOARD_PLIES) as i32;
        const { assert!(-(MATE - DEEPEST) <= -KING_LOST_IN_SEARCH) };
        const { assert!(KING_LOST_IN_SEARCH > MATE_BOUND && KING_LOST_IN_SEARCH < MATE) };
    }

    #[test]
    fn start_position_is_balanced_for_both_sides() {
        let board = Board::start();
        assert_eq!(evaluate(&board, Color::White), 0);
        assert_eq!(evaluate(&board, Color::Black), 0);
    }

    #[test]
    fn a_missing_queen_costs_its_value_and_placement() {
        let board =
            Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        // Black's queen on d8 mirrors White's on d1: 900 + 2 * (3 + 0) - 4 = 902.
        assert_eq!(evaluate(&board, Color::White), 902);
        assert_eq!(evaluate(&board, Color::Black), -902);
    }

    #[test]
    fn centralised_knight_beats_a_cornered_one() {
        assert!(
            piece_square_table(PieceType::Knight, 27) > piece_square_table(PieceType::Knight, 0)
        );
    }
}
