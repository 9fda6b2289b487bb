//! King safety for the `king_safety` leaf: how exposed each king stands, in centipawns.
//!
//! The bot's TroutBot losses were decided moves before the search saw a king capture: its king
//! stood with open squares around it and several enemy pieces aimed there, and the material
//! evaluation saw nothing wrong until one reply away. Two classical terms measure that:
//!
//! - **attacks on the king's zone** (the king's square and its neighbours): each enemy knight,
//!   bishop, rook and queen adds its weight for each zone square it attacks, and the sum is scaled
//!   by how many pieces take part, since one piece alone seldom mates;
//! - **the pawn shield**, while the king is on its first two ranks and the enemy has a queen: on
//!   each of the king's file and its neighbours, a pawn of ours one rank ahead costs nothing, two
//!   ranks ahead a little, none the most.
//!
//! The leaf scores the board after our request and before the opponent's reply, once per board,
//! rather than every board after every reply (about 30 times the work).

use crate::chess::{
    king_attacks, piece_attacks, square_file, square_rank, Board, Color, PieceType, Square,
};

/// Weight per attacked zone square of a knight, bishop, rook and queen.
const ZONE_WEIGHTS: [(PieceType, i32); 4] = [
    (PieceType::Knight, 2),
    (PieceType::Bishop, 2),
    (PieceType::Rook, 3),
    (PieceType::Queen, 5),
];

/// Centipawns per weight unit, indexed by how many pieces attack the zone (4 or more: the last).
const ATTACKER_SCALE: [i32; 5] = [0, 2, 5, 8, 10];

/// Shield penalty per file: our pawn one rank ahead of the king, two ranks ahead, or neither.
const SHIELD_NEAR: i32 = 0;
const SHIELD_FAR: i32 = 8;
const SHIELD_MISSING: i32 = 20;

/// Our king's safety against theirs: `king_danger(board, them) - king_danger(board, us)`.
pub fn king_safety(board: &Board, us: Color) -> i32 {
    king_danger(board, us.other()) - king_danger(board, us)
}

/// How exposed `color`'s king stands on `board` (0 or more; 0 without that king).
pub fn king_danger(board: &Board, color: Color) -> i32 {
    let Some(king) = board.king_square(color) else {
        return 0;
    };
    zone_attack_danger(board, color, king) + shield_danger(board, color, king)
}

fn zone_attack_danger(board: &Board, color: Color, king: Square) -> i32 {
    let zone = king_attacks(king).with(king);
    let occupied = board.occupied();
    let mut units = 0;
    let mut attackers = 0;
    for (piece_type, weight) in ZONE_WEIGHTS {
        for square in board.pieces_of(piece_type, color.other()) {
            let hits = (piece_attacks(piece_type, square, occupied) & zone).count() as i32;
            if hits > 0 {
                units += weight * hits;
                attackers += 1;
            }
        }
    }
    units * ATTACKER_SCALE[attackers.min(ATTACKER_SCALE.len() - 1)]
}

fn shield_danger(board: &Board, color: Color, king: Square) -> i32 {
    let home_rank = if color == Color::White { 0 } else { 7 };
    let forward: i32 = if color == Color::White { 1 } else { -1 };
    let rank = square_rank(king) as i32;
    let steps_from_home = (rank - home_rank) * forward;
    let enemy_queens = board.pieces_of(PieceType::Queen, color.other());
    if steps_from_home > 1 || enemy_queens.is_empty() {
        return 0;
    }
    let pawns = board.pieces_of(PieceType::Pawn, color);
    let pawn_at = |file: i32, rank: i32| {
        (0..8).contains(&rank) && pawns.contains((rank * 8 + file) as Square)
    };
    let king_file = square_file(king) as i32;
    (king_file - 1..=king_file + 1)
        .filter(|file| (0..8).contains(file))
        .map(|file| {
            if pawn_at(file, rank + forward) {
                SHIELD_NEAR
            } else if pawn_at(file, rank + 2 * forward) {
                SHIELD_FAR
            } else {
                SHIELD_MISSING
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn the_start_position_is_safe_for_both_kings() {
        let start = Board::start();
        assert_eq!(king_danger(&start, Color::White), 0);
        assert_eq!(king_danger(&start, Color::Black), 0);
        assert_eq!(king_safety(&start, Color::White), 0);
    }

    #[test]
    fn a_castled_king_behind_its_pawns_beats_one_with_its_shield_gone() {
        let sheltered = board("6k1/5ppp/8/8/8/8/5PPP/q5K1 w - - 0 1");
        let bare = board("6k1/5ppp/8/8/8/8/8/q5K1 w - - 0 1");
        // The queen on a1 sees along the first rank as far as the king: f1 and g1 of the zone,
        // 2 squares * weight 5 * the one-attacker scale 2.
        assert_eq!(zone_attack_danger(&sheltered, Color::White, 6), 20);
        assert_eq!(shield_danger(&sheltered, Color::White, 6), 0);
        assert_eq!(shield_danger(&bare, Color::White, 6), 3 * SHIELD_MISSING);
        assert!(king_danger(&bare, Color::White) > king_danger(&sheltered, Color::White));
    }

    #[test]
    fn a_pawn_two_ranks_ahead_shields_less_than_one_rank_ahead() {
        let near = board("6k1/8/8/8/8/8/5PPP/q5K1 w - - 0 1");
        let far = board("6k1/8/8/8/8/6P1/5P1P/q5K1 w - - 0 1");
        assert_eq!(shield_danger(&near, Color::White, 6), 0);
        assert_eq!(shield_danger(&far, Color::White, 6), SHIELD_FAR);
    }

    #[test]
    fn no_enemy_queen_means_no_shield_term_and_an_advanced_king_has_none() {
        let queenless = board("6k1/8/8/8/8/8/8/6K1 w - - 0 1");
        assert_eq!(shield_danger(&queenless, Color::White, 6), 0);
        let advanced = board("6k1/8/8/8/8/6K1/8/q7 w - - 0 1");
        assert_eq!(shield_danger(&advanced, Color::White, 22), 0);
    }

    #[test]
    fn more_attackers_scale_the_danger_up() {
        // Black's king on g8; White's rook on e7 sees along the seventh rank.
        let rook = board("6k1/4R3/8/8/8/8/8/6K1 b - - 0 1");
        let rook_and_knight = board("6k1/4R3/5N2/8/8/8/8/6K1 b - - 0 1");
        // The rook hits f7, g7 and h7 of the zone: 3 squares * weight 3, one attacker.
        assert_eq!(
            zone_attack_danger(&rook, Color::Black, 62),
            9 * ATTACKER_SCALE[1]
        );
        // The knight on f6 adds g8 and h7 (2 squares, 4 units); two attackers.
        assert_eq!(
            zone_attack_danger(&rook_and_knight, Color::Black, 62),
            13 * ATTACKER_SCALE[2]
        );
    }

    #[test]
    fn safety_is_the_difference_of_the_two_dangers_and_antisymmetric() {
        let fen = "r1bq1rk1/ppp2ppp/2n5/3Np3/2B1P1Q1/8/PPP2PPP/R3K2R w KQ - 0 1";
        let b = board(fen);
        let white = king_safety(&b, Color::White);
        assert_eq!(white, -king_safety(&b, Color::Black));
        assert_eq!(
            white,
            king_danger(&b, Color::Black) - king_danger(&b, Color::White)
        );
        assert!(king_danger(&b, Color::Black) > 0);
    }

    #[test]
    fn a_board_without_the_king_has_no_danger() {
        let kingless = board("8/8/8/8/8/8/8/q5K1 w - - 0 1");
        assert_eq!(king_danger(&kingless, Color::Black), 0);
    }
}
