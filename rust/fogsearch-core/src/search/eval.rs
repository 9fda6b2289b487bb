//! The static evaluation at the leaves: material plus piece-square tables, in centipawns, from the
//! point of view of the side we search for. The tables are generated from a few simple chess ideas
//! (advance pawns, centralise minor pieces, rooks on the seventh, king at home) rather than tuned,
//! so that tests can rebuild them from [`piece_square_table`] and the search stays reproducible.

use crate::chess::{Board, Color, PieceType};

/// The score of capturing the opponent's king (a win); losing ours scores `-MATE`. Both are
/// moved towards zero by the ply at which they happen, so faster wins are preferred.
pub const MATE: i32 = 100_000;
/// Scores beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// Larger than any score; the open alpha-beta window is `(-INFINITY, INFINITY)`.
pub const INFINITY: i32 = 1_000_000;

/// Material values in centipawns, indexed by `PieceType::index()` (pawn .. king).
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

/// `evaluate(child, us)` from `parent_value = evaluate(parent, us)`: only squares whose occupant
/// changed are rescored, so a child one move away costs a few table reads instead of a full scan.
pub fn evaluate_from(child: &Board, parent: &Board, parent_value: i32, us: Color) -> i32 {
    let t = tables();
    let mut total = parent_value;
    for color in [Color::White, Color::Black] {
        let sign = if color == us { 1 } else { -1 };
        let table = &t.score[color.index()];
        for piece_type in PieceType::ALL {
            let row = &table[piece_type.index()];
            let before = parent.pieces_of(piece_type, color);
            let after = child.pieces_of(piece_type, color);
            for square in after & !before {
                total += sign * row[square as usize];
            }
            for square in before & !after {
                total -= sign * row[square as usize];
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::test_walk::for_each_move_pair;

    /// Along every move (captures, castling, e.p., promotions and passes included) of three plies
    /// from a few busy positions, the derived evaluation equals the full one for both sides.
    #[test]
    fn derived_evaluation_equals_full_evaluation() {
        for_each_move_pair(300, |parent, child| {
            for us in [Color::White, Color::Black] {
                let derived = evaluate_from(child, parent, evaluate(parent, us), us);
                assert_eq!(derived, evaluate(child, us));
            }
        });
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
