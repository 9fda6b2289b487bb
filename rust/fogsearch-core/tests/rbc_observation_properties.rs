//! Observations decoded from anything never panic, a refused one leaves the set as it was, and a
//! set's bytes decode to the same set or are refused.

use fogsearch_core::chess::{Color, Move, Piece, PieceType};
use fogsearch_core::rbc::BoardSet;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Black's set after White's first move (21 boards), a set with some variety.
fn black_set() -> BoardSet {
    let mut set = BoardSet::start(Color::Black);
    set.handle_opponent_move_result(false, None).unwrap();
    set
}

fn piece() -> impl Strategy<Value = Option<Piece>> {
    prop_oneof![
        Just(None),
        (0usize..6, any::<bool>()).prop_map(|(t, white)| Some(Piece::new(
            PieceType::ALL[t],
            if white { Color::White } else { Color::Black }
        ))),
    ]
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
    fn sense_results_of_any_shape_apply_or_change_nothing(
        result in proptest::collection::vec((any::<u8>(), piece()), 0..12)
    ) {
        let mut set = black_set();
        let before = set.boards().to_vec();
        if set.handle_sense_result(&result).is_err() {
            prop_assert_eq!(set.boards(), &before[..]);
        } else {
            for board in set.boards() {
                for &(sq, p) in &result {
                    prop_assert_eq!(board.piece_at(sq), p);
                }
            }
        }
    }

    #[test]
    fn opponent_move_reports_of_any_shape_apply_or_change_nothing(
        captured in any::<bool>(), square in proptest::option::of(any::<u8>())
    ) {
        // White's set after Black's reply is expected: White moved e2e4 first.
        let mut set = BoardSet::start(Color::White);
        set.handle_opponent_move_result(false, None).unwrap();
        let e2e4 = Move::from_uci("e2e4").unwrap();
        set.handle_move_result(Some(e2e4), Some(e2e4), false, None).unwrap();
        let before = set.boards().to_vec();
        if set.handle_opponent_move_result(captured, square).is_err() {
            prop_assert_eq!(set.boards(), &before[..]);
        } else {
            prop_assert!(!set.is_empty());
        }
    }

    #[test]
    fn move_reports_of_any_shape_apply_or_change_nothing(
        requested in "[a-h][1-8][a-h][1-8][qrbn]?",
        taken in proptest::option::of("[a-h][1-8][a-h][1-8][qrbn]?"),
        captured in any::<bool>(),
        square in proptest::option::of(any::<u8>()),
    ) {
        let mut set = black_set();
        set.handle_sense_result(&[]).unwrap();
        let requested = Move::from_uci(&requested).ok();
        let taken = taken.and_then(|t| Move::from_uci(&t).ok());
        let before = set.boards().to_vec();
        if set.handle_move_result(requested, taken, captured, square).is_err() {
            prop_assert_eq!(set.boards(), &before[..]);
        }
    }

    #[test]
    fn any_bytes_are_a_set_or_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(set) = BoardSet::from_bytes(&bytes) {
            let again = BoardSet::from_bytes(&set.to_bytes()).unwrap();
            prop_assert_eq!(again.boards(), set.boards());
        }
    }

    #[test]
    fn a_real_sets_bytes_with_one_byte_changed_decode_or_are_refused(
        at in 0usize..2000, value in any::<u8>()
    ) {
        let set = black_set();
        let mut bytes = set.to_bytes();
        let at = at % bytes.len();
        bytes[at] = value;
        if let Ok(decoded) = BoardSet::from_bytes(&bytes) {
            prop_assert!(!decoded.is_empty());
        }
    }
}
