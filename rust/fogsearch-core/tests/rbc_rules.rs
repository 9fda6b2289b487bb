//! The 17 rule vectors (position, request, resolution) measured on reconchess 1.6.9, its
//! ground truth, and board-set behaviour.

use fogsearch_core::chess::{parse_square, Board, Color, Move, Piece, PieceType};
use fogsearch_core::rbc::{move_actions, resolve_request, BoardSet, RbcError};

/// (position, request, taken move or "pass", capture square or "-")
const RULE_VECTORS: [(&str, &str, &str, &str); 17] = [
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e3", "-"),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", "pass", "-"),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", "pass", "-"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", "pass", "-"),
    ("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3", "e2d3", "d3"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6", "d5"),
    ("4k3/8/8/8/8/8/8/R1n1n2K w - - 0 1", "a1g1", "a1c1", "c1"),
    ("4k3/8/8/8/3p4/8/8/B6K w - - 0 1", "a1h8", "a1d4", "d4"),
    ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", "e1g1", "-"),
    ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "e1g1", "e1g1", "-"),
    ("4k3/8/8/8/8/8/8/4K1nR w K - 0 1", "e1g1", "pass", "-"),
    ("4k3/8/8/8/8/8/8/Rn2K3 w Q - 0 1", "e1c1", "pass", "-"),
    ("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a7a8q", "-"),
    ("n7/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "pass", "-"),
    ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "pass", "-"),
    ("n7/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "b7a8n", "a8"),
    ("8/8/8/8/8/8/3k4/4K3 w - - 0 1", "e1d2", "e1d2", "d2"),
];

#[test]
fn reconchess_rule_vectors() {
    for (fen, request, taken, capture) in RULE_VECTORS {
        let board = Board::from_fen(fen).unwrap();
        let r = resolve_request(&board, Some(Move::from_uci(request).unwrap()))
            .unwrap_or_else(|e| panic!("{fen} {request}: {e}"));
        let want_taken = (taken != "pass").then(|| Move::from_uci(taken).unwrap());
        let want_capture = (capture != "-").then(|| parse_square(capture).unwrap());
        assert_eq!(r.taken, want_taken, "{fen} {request}");
        assert_eq!(r.capture_square, want_capture, "{fen} {request}");
    }
}

#[test]
fn start_position_offers_34_move_actions() {
    assert_eq!(move_actions(&Board::start()).len(), 34);
}

#[test]
fn request_outside_move_actions_is_refused() {
    let board = Board::start();
    let err = resolve_request(&board, Some(Move::from_uci("e2e5").unwrap())).unwrap_err();
    assert!(matches!(err, RbcError::IllegalRequest(_)), "{err}");
    assert!(err.to_string().contains("e2e5"), "{err}");
}

#[test]
fn pass_is_always_allowed() {
    let r = resolve_request(&Board::start(), None).unwrap();
    assert_eq!((r.taken, r.capture_square), (None, None));
}

#[test]
fn white_first_turn_expansion_is_a_no_op_and_black_sees_twenty_one_boards() {
    let mut white = BoardSet::start(Color::White);
    white.handle_opponent_move_result(false, None).unwrap();
    assert_eq!(white.len(), 1);

    let mut black = BoardSet::start(Color::Black);
    black.handle_opponent_move_result(false, None).unwrap();
    // 20 moves + a pass; the four double pushes give the same positions as without e.p. (no
    // black pawn can take), so all 21 positions are distinct.
    assert_eq!(black.len(), 21);
}

#[test]
fn failed_updates_leave_the_set_unchanged() {
    let mut set = BoardSet::start(Color::Black);
    set.handle_opponent_move_result(false, None).unwrap();
    let before: Vec<String> = set.boards().iter().map(Board::fen).collect();

    let bad_sense = [(
        parse_square("e4").unwrap(),
        Some(Piece::new(PieceType::Queen, Color::White)),
    )];
    assert!(matches!(
        set.handle_sense_result(&bad_sense),
        Err(RbcError::InconsistentObservation(_))
    ));
    assert!(matches!(
        set.handle_sense_result(&[(64, None)]),
        Err(RbcError::MalformedObservation(_))
    ));
    assert!(matches!(
        set.handle_move_result(Some(Move::from_uci("e7e2").unwrap()), None, false, None),
        Err(RbcError::IllegalRequest(_))
    ));
    assert!(matches!(
        set.handle_move_result(None, None, true, None),
        Err(RbcError::MalformedObservation(_))
    ));

    let after: Vec<String> = set.boards().iter().map(Board::fen).collect();
    assert_eq!(before, after);
}

#[test]
fn sensing_splits_and_sense_stats_measure_the_split() {
    let mut set = BoardSet::start(Color::Black);
    set.handle_opponent_move_result(false, None).unwrap();
    let stats = set.sense_stats();
    assert_eq!(stats.len(), 36);
    // Sensing far from White's pieces (e.g. d7) reveals nothing new: all 21 boards stay.
    let d7 = parse_square("d7").unwrap();
    assert_eq!(stats.iter().find(|(sq, _)| *sq == d7).unwrap().1, 21.0);
    // Every expectation lies between 1 and the set size.
    assert!(stats.iter().all(|&(_, e)| (1.0..=21.0).contains(&e)));

    let truth = {
        let mut b = Board::start();
        b.push(Some(Move::from_uci("e2e4").unwrap()));
        b
    };
    let e3 = parse_square("e3").unwrap();
    let window = fogsearch_core::rbc::sense_result(&truth, e3);
    set.handle_sense_result(&window).unwrap();
    assert!(set.contains(&truth));
    assert!(set.len() < 21);
}

/// Three opponent moves of Black's set with our passes in between: thousands of parents, enough for
/// the parallel expansion to split them into pieces and merge them.
fn large_black_set() -> BoardSet {
    let mut set = BoardSet::start(Color::Black);
    for _ in 0..3 {
        set.handle_opponent_move_result(false, None).unwrap();
        set.handle_move_result(None, None, false, None).unwrap();
    }
    set
}

#[test]
fn parallel_expansion_equals_the_serial_one_in_order() {
    let mut serial = large_black_set();
    serial.set_parallel(false);
    serial.handle_opponent_move_result(false, None).unwrap();
    assert!(serial.len() > 10_000);
    for threads in [2, 3, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut parallel = large_black_set();
        assert!(pool.install(|| parallel.would_use_threads()));
        pool.install(|| parallel.handle_opponent_move_result(false, None))
            .unwrap();
        assert_eq!(parallel.boards(), serial.boards(), "{threads} threads");
    }
}

#[test]
fn an_expansion_over_max_boards_fails_in_either_mode_and_keeps_the_set() {
    for parallel in [false, true] {
        let mut set = large_black_set();
        set.set_parallel(parallel);
        set.set_max_boards(Some(5_000)).unwrap();
        let before = set.boards().to_vec();
        let result = set.handle_opponent_move_result(false, None);
        assert!(matches!(result, Err(RbcError::TooLarge(_))), "{result:?}");
        assert_eq!(set.boards(), &before[..]);
    }
}

#[test]
fn boards_where_we_took_the_king_do_not_survive_the_opponents_move() {
    // Our bishop took on f8: on the first board that was Black's king (the game would be over),
    // on the second a knight. Black has moved since, so only the second board's children remain.
    let fens = [
        "r1bq1Bnr/pppp1p1p/4p3/8/3PPP1P/PP3NPB/R2N4/3QK2R b K - 0 21",
        "r1bqkBnr/pppp1p1p/4p3/8/3PPP1P/PP3NPB/R2N4/3QK2R b Kkq - 0 21",
    ];
    let mut set = BoardSet::from_fens(Color::White, &fens).unwrap();
    set.handle_opponent_move_result(false, None).unwrap();
    assert!(set.len() > 1);
    assert!(set.boards().iter().all(|b| !b.is_terminal()));

    let mut over = BoardSet::from_fens(Color::White, &fens[..1]).unwrap();
    assert!(matches!(
        over.handle_opponent_move_result(false, None),
        Err(RbcError::InconsistentObservation(_))
    ));
    assert_eq!(over.len(), 1);
}

#[test]
fn sense_stats_count_the_expected_boards_left_and_check_is_counted() {
    // Black to move; the white rook gives check on two boards, which differ from the other two
    // only on the first rank.
    let set = BoardSet::from_fens(
        Color::Black,
        &[
            "4k3/8/8/8/8/8/8/4K2R b - - 0 1",
            "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4RK2 b - - 0 1",
        ],
    )
    .unwrap();
    assert_eq!(set.boards_in_check(), 2);
    let stats = set.sense_stats();
    let at = |name: &str| {
        let sq = parse_square(name).unwrap();
        stats.iter().find(|s| s.0 == sq).unwrap().1
    };
    // e2 sees d1-f1: {K e1, K e1} stay together, the two other boards split off.
    assert_eq!(at("e2"), 1.5);
    // e7 sees only Black's king: nothing is told apart.
    assert_eq!(at("e7"), 4.0);
    // b2 sees a1: the a1 rook's board splits off.
    assert_eq!(at("b2"), 2.5);
}
