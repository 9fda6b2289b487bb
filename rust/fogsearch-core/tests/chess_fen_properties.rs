//! FEN and move parsing never panic, and what they accept round-trips.

use fogsearch_core::chess::{Board, Move, MoveList};
use fogsearch_core::rng::Rng;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// A board reached by `plies` random pseudo-legal moves (passes included) from the start.
fn random_board(seed: u64, plies: usize) -> Board {
    let mut rng = Rng::new(seed);
    let mut board = Board::start();
    for _ in 0..plies {
        let mut moves = MoveList::new();
        board.pseudo_legal_moves(&mut moves);
        if moves.is_empty() || board.is_terminal() {
            break;
        }
        let pick = rng.below(moves.len() as u64 + 1) as usize;
        board.push(moves.as_slice().get(pick).copied());
    }
    board
}

proptest! {
    // A fixed seed: every run tries the same cases, so a failure reproduces anywhere.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: RngSeed::Fixed(20261126),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_text_parses_or_is_refused(text in ".{0,120}") {
        if let Ok(board) = Board::from_fen(&text) {
            prop_assert_eq!(Board::from_fen(&board.fen()).unwrap(), board);
        }
    }

    #[test]
    fn fen_like_text_parses_or_is_refused(
        placement in "[pnbrqkPNBRQK1-8/]{1,80}",
        turn in "[wbx]",
        castling in "[KQkq-]{1,5}",
        ep in "(-|[a-h][1-8])",
        halfmove in "[0-9]{1,4}",
        fullmove in "[0-9]{1,4}",
    ) {
        let text = format!("{placement} {turn} {castling} {ep} {halfmove} {fullmove}");
        if let Ok(board) = Board::from_fen(&text) {
            prop_assert_eq!(Board::from_fen(&board.fen()).unwrap(), board);
        }
    }

    #[test]
    fn boards_of_real_play_round_trip(seed in any::<u64>(), plies in 0usize..120) {
        let board = random_board(seed, plies);
        prop_assert_eq!(Board::from_fen(&board.fen()).unwrap(), board.clone());
        let mut bytes = Vec::new();
        board.encode_into(&mut bytes);
        prop_assert_eq!(Board::decode(&bytes).unwrap(), board);
    }

    #[test]
    fn any_bytes_decode_or_are_refused(bytes in proptest::collection::vec(any::<u8>(), 82..=82)) {
        if let Ok(board) = Board::decode(&bytes) {
            let mut again = Vec::new();
            board.encode_into(&mut again);
            prop_assert_eq!(Board::decode(&again).unwrap(), board);
        }
    }

    #[test]
    fn any_text_is_a_move_or_is_refused(text in ".{0,8}") {
        if let Ok(mv) = Move::from_uci(&text) {
            prop_assert_eq!(Move::from_uci(&mv.uci()).unwrap(), mv);
        }
    }
}
