//! RBC pseudo-legal perft against the values in NOTES.md §1 (python-chess reference).

use fogsearch_core::chess::Board;

fn perft(fen: &str, depth: u32) -> u64 {
    Board::from_fen(fen).unwrap().perft(depth)
}

#[test]
fn start_position_depth_4_is_197742() {
    assert_eq!(Board::start().perft(4), 197_742);
}

#[test]
fn kiwipete_depth_3_is_98903() {
    assert_eq!(
        perft(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
            3
        ),
        98_903
    );
}

#[test]
fn promotion_castling_position_depth_3_is_71811() {
    assert_eq!(
        perft(
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -",
            3
        ),
        71_811
    );
}
