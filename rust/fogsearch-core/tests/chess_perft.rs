//! RBC pseudo-legal perft vectors. The first three were measured with reconchess 1.6.9's move
//! generation before the core was written; the others were
//! produced by a python-chess reference perft (pseudo-legal moves without python-chess's castles,
//! plus RBC castles; no children without both kings), the same reference the pytest suite runs.

use fogsearch_core::chess::Board;

fn perft(fen: &str, depth: u32) -> u64 {
    Board::from_fen(fen).unwrap().perft(depth)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
const PROMOTIONS: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -";

#[test]
fn start_depth_4() {
    assert_eq!(perft(START, 1), 20);
    assert_eq!(perft(START, 2), 400);
    assert_eq!(perft(START, 4), 197_742);
}

#[test]
fn kiwipete_depth_3() {
    assert_eq!(perft(KIWIPETE, 3), 98_903);
}

#[test]
fn promotions_depth_3() {
    assert_eq!(perft(PROMOTIONS, 3), 71_811);
}

#[test]
fn a_perft_deeper_than_the_limit_is_refused_before_any_work() {
    use fogsearch_core::chess::{PerftTooDeep, MAX_PERFT_DEPTH};
    let board =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let stop = &fogsearch_core::stop::NEVER;
    assert_eq!(
        board.perft_checked(MAX_PERFT_DEPTH + 1, stop),
        Err(PerftTooDeep(MAX_PERFT_DEPTH + 1))
    );
    assert_eq!(board.perft_checked(2, stop), Ok(Some(400)));
}
