//! Specification tests for the information-set search.

use super::sketch_bounds::point_probabilities;
use super::*;
use crate::chess::{Board, Color};

fn boards(fens: &[&str]) -> Vec<Board> {
    fens.iter().map(|f| Board::from_fen(f).unwrap()).collect()
}

/// A set a player held in a recorded game (29 boards).
fn recorded_set_12() -> Vec<Board> {
    include_str!("testdata/recorded_set_12.fens")
        .lines()
        .map(|f| Board::from_fen(f).unwrap())
        .collect()
}

fn config(mode: Mode) -> RbcSearchConfig {
    RbcSearchConfig {
        mode,
        ..RbcSearchConfig::default()
    }
}

#[test]
fn capturing_a_visible_king_is_a_win_on_our_first_move() {
    let set = boards(&["4k3/8/8/8/8/8/8/3KR3 w - - 0 1"]);
    let result = search(&set, 1, &config(Mode::None)).unwrap();
    assert_eq!(result.value, MATE - 1);
    assert_eq!(result.best_move, Some(Move::from_uci("e1e8").unwrap()));
}

#[test]
fn a_king_attacked_on_any_board_loses_unless_we_act() {
    // Black's rook on e8 attacks our king on e1 on one of the two boards; passing loses on it.
    let set = boards(&[
        "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        "7k/8/8/8/8/8/8/r3K3 w - - 0 1",
    ]);
    let result = search(&set, 1, &config(Mode::None)).unwrap();
    let pass = result
        .move_values
        .iter()
        .find(|(m, _)| m.is_none())
        .unwrap()
        .1;
    assert_eq!(pass, -MATE + 2);
    assert!(result.value > -MATE + 2, "a king move escapes both threats");
}

#[test]
fn every_mode_gives_the_same_best_value_at_depth_one() {
    let set = boards(&[
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
    ]);
    let base = search(&set, 1, &config(Mode::None)).unwrap();
    let exact = search(&set, 1, &config(Mode::Exact)).unwrap();
    assert_eq!(base.move_values, exact.move_values);
}

/// The exact tables never move a value. At depth 3 the reply and sense nodes of different
/// requests repeat too (a pawn push blocked on every board is the pass), and the table serves them.
#[test]
fn exact_tables_never_change_a_value_at_depths_two_and_three() {
    let set = boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ]);
    for (depth, sense_mode) in [2, 3]
        .into_iter()
        .flat_map(|d| [(d, SenseMode::Search), (d, SenseMode::MinSize)])
    {
        let mut c = config(Mode::None);
        c.sense_mode = sense_mode;
        let base = search(&set, depth, &c).unwrap();
        c.mode = Mode::Exact;
        let exact = search(&set, depth, &c).unwrap();
        let case = format!("depth {depth}, {sense_mode:?}");
        assert_eq!(base.move_values, exact.move_values, "{case}");
        assert!(exact.stats.table_hits > 0, "{case}");
        assert!(exact.stats.reply_table_hits > 0, "{case}");
        // Deeper, more sets repeat: at depth 3 the tables take out more than half the nodes.
        let shrink = if depth == 3 { 2 } else { 1 };
        assert!(exact.stats.nodes * shrink < base.stats.nodes, "{case}");
    }
}

/// The pruned sense search gives the full sense search's value for every root request, with far
/// fewer nodes: on the start at depth 3 (the paper's experiment, where most sense nodes have
/// several choices), on a middlegame set and on a recorded set at depth 2, with and without the
/// exact tables.
#[test]
fn the_pruned_sense_search_keeps_every_value_with_fewer_nodes() {
    let middlegame = boards(&[
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1bqkb1r/pppp1ppp/2n5/4p3/2B1n3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ]);
    let cases = [
        (vec![Board::start()], 3, Mode::Exact),
        (middlegame.clone(), 2, Mode::None),
        (middlegame, 2, Mode::Exact),
        (recorded_set_12(), 2, Mode::Exact),
    ];
    for (set, depth, mode) in cases {
        let mut c = config(mode);
        let full = search(&set, depth, &c).unwrap();
        c.sense_mode = SenseMode::Finest;
        let pruned = search(&set, depth, &c).unwrap();
        let case = format!("{} boards, depth {depth}, {mode:?}", set.len());
        assert_eq!(full.move_values, pruned.move_values, "{case}");
        assert!(pruned.stats.nodes < full.stats.nodes, "{case}");
    }
}

/// With one move left after a sense, the exact modes score a sense node's cells from one table of
/// what each request leaves on each board (`tree::last_move`) instead of as our-move nodes. Every
/// root value stays the baseline's: on a recorded set, on sets where a request takes the
/// opponent's king on some boards and where a reply takes ours on some, with both sense searches.
#[test]
fn the_last_moves_table_keeps_every_value() {
    let king_hunt = boards(&[
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "8/4k3/8/8/8/8/8/R3K3 w - - 0 1",
        "r7/4k3/8/8/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/3q4/R3K3 w - - 0 1",
    ]);
    // A cornered king: whatever Black replies to a quiet move, the sense shows where its king
    // went and some request takes it, so every cell of the sense wins.
    let cornered = boards(&["k7/8/1Q6/8/8/8/8/R3K3 w - - 0 1"]);
    let cases = [
        (recorded_set_12(), 2),
        (king_hunt, 2),
        (cornered, 2),
        (vec![Board::start()], 2),
    ];
    for (set, depth) in cases {
        for sense_mode in [SenseMode::Search, SenseMode::Finest] {
            let mut c = config(Mode::None);
            c.sense_mode = sense_mode;
            let base = search(&set, depth, &c).unwrap();
            c.mode = Mode::Exact;
            let exact = search(&set, depth, &c).unwrap();
            let case = format!("{} boards, depth {depth}, {sense_mode:?}", set.len());
            assert_eq!(base.move_values, exact.move_values, "{case}");
        }
    }
}

/// With two moves left, an our-move node first tries the board (and reply) that refuted its last
/// refuted request on each next request (`tree::refutation`). It is only a bound used to fail
/// low, so every root value at depth 3 stays the baseline's, on sets where it refutes (the
/// count of nodes shows it did) and where replies win or lose a king.
#[test]
fn a_refuting_board_tried_first_keeps_every_value() {
    let pawns = boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
        "3k4/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ]);
    let knights = boards(&[
        "4k3/8/8/3n4/8/8/3P4/R3K3 w Q - 0 1",
        "4k3/8/8/8/4n3/8/3P4/R3K3 w Q - 0 1",
    ]);
    let cornered = boards(&["k7/8/1Q6/8/8/8/8/R3K3 w - - 0 1"]);
    for (set, sense_mode) in [
        (pawns, SenseMode::Finest),
        (knights, SenseMode::MinSize),
        (cornered, SenseMode::Finest),
    ] {
        let mut c = config(Mode::None);
        c.sense_mode = sense_mode;
        let base = search(&set, 3, &c).unwrap();
        c.mode = Mode::Exact;
        let exact = search(&set, 3, &c).unwrap();
        let case = format!("{} boards, {sense_mode:?}", set.len());
        assert_eq!(base.move_values, exact.move_values, "{case}");
    }
}

/// A middlegame set where both tables are busy at depth 2 with the full sense search: the exact
/// modes reproduce the baseline's value for every root request, and exact containments (the
/// default threshold 1) keep the sketch modes on it too.
#[test]
fn exact_tables_and_proven_containments_keep_every_value_in_a_middlegame() {
    let set = boards(&[
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1bqkb1r/pppp1ppp/2n5/4p3/2B1n3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ]);
    let base = search(&set, 2, &config(Mode::None)).unwrap();
    for mode in [Mode::Exact, Mode::Sketch, Mode::ExactAndSketch] {
        let accelerated = search(&set, 2, &config(mode)).unwrap();
        assert_eq!(base.move_values, accelerated.move_values, "{mode:?}");
    }
    let exact = search(&set, 2, &config(Mode::Exact)).unwrap();
    assert!(exact.stats.reply_table_hits > 0);
    assert!(exact.stats.leaf_evaluations < base.stats.leaf_evaluations);
}

/// A set a player held in a recorded game (29 boards). Its search meets a 39-board table entry
/// beside a 490-board set whose sampled Jaccard index overstated their overlap: before the bound
/// probabilities were capped by the sampled share, that read as containment and moved the root
/// value of b1a3 by 9 cp.
#[test]
fn sketch_bounds_keep_every_value_on_a_recorded_set() {
    let set = recorded_set_12();
    let exact = search(&set, 2, &config(Mode::Exact)).unwrap();
    let sketched = search(&set, 2, &config(Mode::ExactAndSketch)).unwrap();
    assert!(sketched.stats.bounds_used > 0);
    assert_eq!(exact.move_values, sketched.move_values);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let set = boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "3k4/8/8/8/8/8/3PP3/4K3 w - - 0 1",
    ]);
    for mode in [Mode::None, Mode::Exact] {
        let mut c = config(mode);
        let one = search(&set, 2, &c).unwrap();
        c.threads = 2;
        let two = search(&set, 2, &c).unwrap();
        assert_eq!(one.move_values, two.move_values);
        assert_eq!(one.best_move, two.best_move);
    }
}

#[test]
fn bad_configs_and_sets_are_rejected_with_reasons() {
    let set = boards(&["4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    let mut c = config(Mode::Sketch);
    c.threshold = 1.5;
    let err = search(&set, 1, &c).unwrap_err();
    assert!(err.to_string().contains("threshold"));
    assert_eq!(
        search(&[], 1, &config(Mode::None)).unwrap_err(),
        SearchError::EmptySet
    );
    assert_eq!(
        search(&set, 0, &config(Mode::None)).unwrap_err(),
        SearchError::ZeroDepth
    );
    let mixed = boards(&[
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
    ]);
    assert_eq!(
        search(&mixed, 1, &config(Mode::None)).unwrap_err(),
        SearchError::MixedTurns
    );
    let kingless = boards(&["8/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(matches!(
        search(&kingless, 1, &config(Mode::None)),
        Err(SearchError::MissingKing { .. })
    ));
}

#[test]
fn sketch_mode_uses_bounds_and_stays_near_the_baseline() {
    let set = boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ]);
    let base = search(&set, 2, &config(Mode::None)).unwrap();
    let sketch = search(&set, 2, &config(Mode::Sketch)).unwrap();
    assert!(sketch.stats.bounds_used > 0);
    assert_eq!(base.move_values.len(), sketch.move_values.len());
}

#[test]
fn a_time_limit_returns_a_completed_depth() {
    let set = vec![Board::start()];
    let mut c = config(Mode::Exact);
    c.time_limit = Some(std::time::Duration::from_millis(200));
    let result = search(&set, 6, &c).unwrap();
    assert!(result.depth >= 1 && result.depth < 6);
    assert_eq!(result.move_values.len(), 35);
}

/// A depth-1 value on one board with the mate distance taken out: the request's one-reply outcome.
fn one_board_outcome(board: &Board, request: Option<Move>) -> Option<f64> {
    let result = search(std::slice::from_ref(board), 1, &config(Mode::None)).unwrap();
    let value = result.move_values.iter().find(|(m, _)| *m == request)?.1;
    Some(match value {
        v if v > MATE - 100 => f64::from(MATE),
        v if v < -MATE + 100 => -f64::from(MATE),
        v => f64::from(v),
    })
}

#[test]
fn mean_reply_values_average_each_boards_one_move_search() {
    // Our own side is the same on every board, so every request is each board's move action.
    let set = boards(&[
        "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        "7k/8/8/8/8/8/8/r3K3 w - - 0 1",
        "7k/8/8/8/3q4/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ]);
    let requests = root_requests(&set, Color::White);
    let means: Vec<f64> = mean_reply_values(&set, None, LeafMode::Static, false)
        .unwrap()
        .into_iter()
        .map(|(_, mean)| mean)
        .collect();
    assert_eq!(means.len(), requests.len());
    for (&request, &mean) in requests.iter().zip(&means) {
        let expected: f64 = set
            .iter()
            .map(|b| one_board_outcome(b, request).expect("shared side: a move action everywhere"))
            .sum::<f64>()
            / set.len() as f64;
        assert!(
            (mean - expected).abs() < 1e-9,
            "{request:?}: {mean} vs {expected}"
        );
    }
    // Passing leaves our king to the rook on two boards of four; a king step to f2 to none.
    let of = |uci: Option<&str>| {
        let request = uci.map(|u| Move::from_uci(u).unwrap());
        means[requests.iter().position(|&r| r == request).unwrap()]
    };
    assert!(of(None) < -f64::from(MATE) / 2.0 + 1000.0);
    assert!(of(Some("e1f2")) > of(None));
}

#[test]
fn mean_reply_values_refuse_what_search_refuses() {
    assert_eq!(
        mean_reply_values(&[], None, LeafMode::Static, false),
        Err(SearchError::EmptySet)
    );
    let mixed = boards(&[
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
    ]);
    assert_eq!(
        mean_reply_values(&mixed, None, LeafMode::Static, false),
        Err(SearchError::MixedTurns)
    );
    let kingless = boards(&["8/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(matches!(
        mean_reply_values(&kingless, None, LeafMode::Static, false),
        Err(SearchError::MissingKing { .. })
    ));
    let start = [Board::start()];
    let through_own_pawn = Move::from_uci("a1a8").unwrap();
    assert_eq!(
        mean_reply_values(
            &start,
            Some(vec![None, Some(through_own_pawn)]),
            LeafMode::Static,
            false
        ),
        Err(SearchError::UnknownRequest {
            uci: "a1a8".to_string()
        })
    );
    let blocked_later = Move::from_uci("e2e4").unwrap();
    assert!(mean_reply_values(
        &start,
        Some(vec![Some(blocked_later), None]),
        LeafMode::Static,
        false
    )
    .is_ok());
}

/// What sensing at `centre` shows on `board`, written independently of the sense module.
fn window(board: &Board, centre: u8) -> Vec<Option<crate::chess::Piece>> {
    let (rank, file) = (i32::from(centre / 8), i32::from(centre % 8));
    let mut out = Vec::new();
    for r in rank - 1..=rank + 1 {
        for f in file - 1..=file + 1 {
            out.push(board.piece_at((r * 8 + f) as u8));
        }
    }
    out
}

#[test]
fn sense_values_are_the_best_mean_per_cell_weighted_by_cell_size() {
    let set = recorded_set_12();
    let us = set[0].turn();
    let requests = root_requests(&set, us);
    let values = sense_values(&set, None, LeafMode::Static).unwrap();
    let best_mean = |cell: &[Board]| {
        // A tracked set shares our side, so each cell has the same move actions as the set.
        mean_reply_values(cell, Some(requests.clone()), LeafMode::Static, false)
            .unwrap()
            .into_iter()
            .map(|(_, mean)| mean)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    assert!((values.unsensed - best_mean(&set)).abs() < 1e-6);
    assert_eq!(values.by_square.len(), 36);
    let mut informative = 0;
    for &(square, value) in &values.by_square {
        let mut cells: Vec<(Vec<Option<crate::chess::Piece>>, Vec<Board>)> = Vec::new();
        for board in &set {
            let seen = window(board, square);
            match cells.iter_mut().find(|(w, _)| *w == seen) {
                Some((_, cell)) => cell.push(board.clone()),
                None => cells.push((seen, vec![board.clone()])),
            }
        }
        let expected: f64 = cells
            .iter()
            .map(|(_, cell)| best_mean(cell) * cell.len() as f64)
            .sum::<f64>()
            / set.len() as f64;
        assert!(
            (value - expected).abs() < 1e-6,
            "square {square}: {value} vs {expected}"
        );
        assert!(value >= values.unsensed - 1e-6);
        informative += usize::from(value > values.unsensed + 1e-6);
    }
    assert!(informative > 0, "some sense should change the best request");
}

#[test]
fn sensing_where_a_check_may_be_is_worth_a_king() {
    // A rook on e8 or on a1 checks our king on two boards, a queen on d4 covers f2 on a third:
    // no one request keeps the king on all four, but any sense that tells the boards apart does.
    let set = boards(&[
        "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        "7k/8/8/8/8/8/8/r3K3 w - - 0 1",
        "7k/8/8/8/3q4/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ]);
    let values = sense_values(&set, None, LeafMode::Static).unwrap();
    let at = |name: &str| {
        values
            .at(crate::chess::parse_square(name).unwrap())
            .unwrap()
    };
    // Without a sense one board in four loses the king.
    assert!(values.unsensed < -f64::from(MATE) / 4.0 + 1000.0);
    // d4's window holds the queen: knowing whether she is there keeps the king on every board.
    assert!(at("d4") > -1000.0);
    // b7's window is empty on every board: it tells nothing.
    assert_eq!(at("b7"), values.unsensed);
    assert_eq!(
        sense_values(&[], None, LeafMode::Static),
        Err(SearchError::EmptySet)
    );
    assert_eq!(
        sense_values(&set, Some(Vec::new()), LeafMode::Static),
        Err(SearchError::NoRequests)
    );
}

fn with_leaf(leaf: LeafMode) -> RbcSearchConfig {
    RbcSearchConfig {
        mode: Mode::Exact,
        sense_mode: SenseMode::MinSize,
        leaf,
        ..RbcSearchConfig::default()
    }
}

#[test]
fn the_exchange_leaf_sees_that_a_defended_knight_is_not_lost() {
    // Black's queen can take our knight on d4, which the e3 pawn guards.
    let set = boards(&["3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1"]);
    let pass_value = |leaf| {
        let result = search(&set, 1, &with_leaf(leaf)).unwrap();
        result
            .move_values
            .iter()
            .find(|(m, _)| m.is_none())
            .unwrap()
            .1
    };
    let (plain, exchange) = (pass_value(LeafMode::Static), pass_value(LeafMode::Exchange));
    // The static leaf scores Qxd4 as a knight lost; after exd4 it loses Black the queen.
    assert!(plain < 0, "static leaf: {plain}");
    assert!(
        exchange - plain >= 300,
        "static {plain}, exchange {exchange}"
    );
}

/// The exchange leaf only adds non-negative gains to leaf values, and min/max are monotone, so
/// no value may fall below the static leaf's: checked per root request on a recorded set, for
/// the search and for the mean one-reply outcomes.
#[test]
fn the_exchange_leaf_never_values_below_the_static_leaf() {
    let set = recorded_set_12();
    for depth in [1, 2] {
        let plain = search(&set, depth, &with_leaf(LeafMode::Static)).unwrap();
        let exchange = search(&set, depth, &with_leaf(LeafMode::Exchange)).unwrap();
        let mut raised = 0;
        for ((request, p), (same, e)) in plain.move_values.iter().zip(&exchange.move_values) {
            assert_eq!(request, same);
            assert!(
                e >= p,
                "depth {depth}, {request:?}: exchange {e} < static {p}"
            );
            raised += usize::from(e > p);
        }
        assert!(raised > 0, "depth {depth}: no request valued differently");
    }
    let plain = mean_reply_values(&set, None, LeafMode::Static, false).unwrap();
    let exchange = mean_reply_values(&set, None, LeafMode::Exchange, false).unwrap();
    for ((request, p), (_, e)) in plain.iter().zip(&exchange) {
        assert!(e >= p, "{request:?}: mean {e} < {p}");
    }
}

#[test]
fn leaf_names_parse_and_unknown_ones_are_refused() {
    assert_eq!(LeafMode::from_name("static"), Ok(LeafMode::Static));
    assert_eq!(LeafMode::from_name("exchange"), Ok(LeafMode::Exchange));
    assert_eq!(LeafMode::from_name("king_safety"), Ok(LeafMode::KingSafety));
    assert!(matches!(
        LeafMode::from_name("quiescence"),
        Err(SearchError::InvalidConfig(_))
    ));
}

/// On a recorded set, looking for mate threats changes a request's mean only by moving boards
/// from their evaluation down to `-MATE / 2`: never up, and never for a board already lost.
#[test]
fn mate_threat_means_are_never_above_one_reply_means() {
    let set = recorded_set_12();
    let plain = mean_reply_values(&set, None, LeafMode::Static, false).unwrap();
    let threats = mean_reply_values(&set, None, LeafMode::Static, true).unwrap();
    assert_eq!(plain.len(), threats.len());
    for ((request, p), (same, t)) in plain.iter().zip(&threats) {
        assert_eq!(request, same);
        assert!(t <= p, "{request:?}: {t} > {p}");
    }
}

#[test]
fn a_raised_stop_interrupts_even_depth_one() {
    let set = vec![Board::start()];
    let stop = crate::stop::Stop::new();
    stop.request();
    for threads in [1, 2] {
        let c = RbcSearchConfig {
            threads,
            ..config(Mode::Exact)
        };
        assert_eq!(
            search_stoppable(&set, 1, &c, &stop).unwrap_err(),
            SearchError::Interrupted
        );
    }
}

#[test]
fn depth_is_bounded() {
    let set = vec![Board::start()];
    let err = search(&set, 1_000, &config(Mode::None)).unwrap_err();
    assert!(err.to_string().contains("at most 32"), "{err}");
}

/// Boards of `set` picked by a seeded generator: `size` of them, or fewer if `from` runs out.
fn pick(rng: &mut crate::rng::Rng, from: &[usize], size: usize) -> Vec<usize> {
    let mut pool = from.to_vec();
    rng.shuffle(&mut pool);
    pool.truncate(size);
    pool.sort_unstable();
    pool
}

/// The paper's rule on real values: pairs of sets from a recorded set, q built from a few
/// boards of X and a few from outside it, each valued exactly (depth 1, no tables: exhaustive
/// minimax, itself checked against the brute force in tests/test_search_bruteforce.py). Every
/// bound the point rule uses with probability p >= threshold is checked; the share that holds
/// must reach the claimed probabilities (their sum, less three standard deviations).
#[test]
fn point_rule_bounds_hold_at_their_claimed_rate_against_exhaustive_values() {
    use crate::sketch::BottomKMinHash;
    use std::collections::HashMap;
    let set = recorded_set_12();
    let keys: Vec<u64> = set.iter().map(|b| b.zobrist()).collect();
    let all: Vec<usize> = (0..set.len()).collect();
    let mut values: HashMap<Vec<usize>, i32> = HashMap::new();
    let mut value_of = |subset: &Vec<usize>| -> i32 {
        *values.entry(subset.clone()).or_insert_with(|| {
            let boards: Vec<Board> = subset.iter().map(|&i| set[i].clone()).collect();
            search(&boards, 1, &config(Mode::None)).unwrap().value
        })
    };
    for (k, threshold) in [(64, 0.8), (64, 0.9), (8, 0.8)] {
        let mut rng = crate::rng::Rng::new(17);
        let (mut claimed, mut variance, mut held, mut used) = (0.0, 0.0, 0usize, 0usize);
        for _ in 0..300 {
            // q: m + r boards; r of them (chosen at random within q) lie outside X.
            let q_size = 4 + (rng.next_u64() % 12) as usize;
            let q = pick(&mut rng, &all, q_size);
            let r = (rng.next_u64() % 3) as usize;
            let outside: Vec<usize> = pick(&mut rng, &q, r);
            let inside: Vec<usize> = q.iter().copied().filter(|i| !outside.contains(i)).collect();
            let rest: Vec<usize> = all.iter().copied().filter(|i| !q.contains(i)).collect();
            let extra_size = (rng.next_u64() % 4) as usize;
            let extra = pick(&mut rng, &rest, extra_size);
            let mut x: Vec<usize> = inside.iter().copied().chain(extra).collect();
            x.sort_unstable();
            if x.is_empty() {
                continue;
            }
            let signature = |s: &[usize]| {
                let ks: Vec<u64> = s.iter().map(|&i| keys[i]).collect();
                BottomKMinHash::from_keys(k, 5, &ks).unwrap()
            };
            let sample = signature(&x).jaccard_sample(&signature(&q)).unwrap();
            let (p_upper, p_lower) = point_probabilities(sample, x.len(), q.len());
            let (vx, vq) = (value_of(&x), value_of(&q));
            for (p, holds) in [(p_upper, vx <= vq), (p_lower, vx >= vq)] {
                if p + 1e-9 >= threshold {
                    used += 1;
                    held += usize::from(holds);
                    claimed += p.min(1.0);
                    variance += p.min(1.0) * (1.0 - p.min(1.0));
                }
            }
        }
        eprintln!(
            "k {k} threshold {threshold}: {held} of {used} bounds held, {claimed:.1} claimed"
        );
        assert!(used >= 100, "k {k}: only {used} bounds used");
        assert!(
            held as f64 >= claimed - 3.0 * variance.sqrt(),
            "k {k} threshold {threshold}: {held} of {used} held, {claimed:.1} claimed"
        );
        assert!(held as f64 >= threshold * used as f64 - 3.0 * variance.sqrt());
    }
}

/// Sets our side could hold: subsets of a recorded set (one own side, so one set of move
/// actions), small crafted sets and the start.
fn sets_for_parallel_tests() -> Vec<Vec<Board>> {
    let recorded = recorded_set_12();
    let mut rng = crate::rng::Rng::new(3);
    let all: Vec<usize> = (0..recorded.len()).collect();
    let mut sets: Vec<Vec<Board>> = [1, 2, 3, 5, 8, 13, 29]
        .into_iter()
        .map(|size| {
            pick(&mut rng, &all, size)
                .into_iter()
                .map(|i| recorded[i].clone())
                .collect()
        })
        .collect();
    sets.push(boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
        "3k4/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ]));
    sets.push(vec![Board::start()]);
    sets
}

/// Root splitting searches each root request with an open window, so with a shared set table and
/// a reply table per worker the values in modes none and exact are the single-threaded search's
/// for any thread count.
#[test]
fn parallel_root_values_equal_the_single_threaded_search() {
    for (index, set) in sets_for_parallel_tests().iter().enumerate() {
        // The full sense search on the small sets (pruned on every other), the min-size sense
        // on the large ones.
        let sense_mode = match (set.len() <= 3, index % 2) {
            (true, 0) => SenseMode::Search,
            (true, _) => SenseMode::Finest,
            (false, _) => SenseMode::MinSize,
        };
        for mode in [Mode::None, Mode::Exact] {
            let mut c = config(mode);
            c.sense_mode = sense_mode;
            let one = search(set, 2, &c).unwrap();
            for threads in [2, 3, 4, 7] {
                c.threads = threads;
                let many = search(set, 2, &c).unwrap();
                let case = format!(
                    "set {index} ({} boards), {mode:?}, {threads} threads",
                    set.len()
                );
                assert_eq!(one.move_values, many.move_values, "{case}");
                assert_eq!(one.best_move, many.best_move, "{case}");
                assert_eq!(many.timeline.len(), one.move_values.len(), "{case}");
            }
        }
    }
}

/// With a root margin the root is alpha-beta too. The best request and its value are the full
/// search's, so is every value within the margin, and every other request is reported just under
/// the margin (where its true value lies) and listed as below it; the result is the same for any
/// thread count, and the search visits fewer nodes. Iterative deepening (a time limit) orders
/// each depth by the last one's values and keeps all of this.
#[test]
fn a_root_margin_keeps_the_best_and_every_value_within_it() {
    let mut sets = sets_for_parallel_tests();
    sets.truncate(6);
    sets.push(vec![Board::start()]);
    for (index, set) in sets.iter().enumerate() {
        let depth = 2;
        let mut c = config(Mode::Exact);
        c.sense_mode = if set.len() <= 3 {
            SenseMode::Finest
        } else {
            SenseMode::MinSize
        };
        let full = search(set, depth, &c).unwrap();
        assert!(full.below_margin.is_empty());
        for margin in [0, 25] {
            c.root_margin = Some(margin);
            c.threads = 1;
            let one = search(set, depth, &c).unwrap();
            let case = format!("set {index} ({} boards), margin {margin}", set.len());
            assert_eq!(
                (one.best_move, one.value),
                (full.best_move, full.value),
                "{case}"
            );
            let cap = full.value - margin as i32 - 1;
            for ((request, value), (_, true_value)) in one.move_values.iter().zip(&full.move_values)
            {
                if *true_value > cap {
                    assert_eq!(value, true_value, "{case}: {request:?}");
                    assert!(!one.below_margin.contains(request), "{case}");
                } else {
                    assert_eq!(*value, cap, "{case}: {request:?}");
                    assert!(one.below_margin.contains(request), "{case}");
                }
            }
            if set.len() == 1 && margin == 0 {
                assert!(!one.below_margin.is_empty());
                assert!(one.stats.nodes < full.stats.nodes, "{case}");
            }
            for threads in [2, 3] {
                c.threads = threads;
                let many = search(set, depth, &c).unwrap();
                assert_eq!(
                    many.move_values, one.move_values,
                    "{case}, {threads} threads"
                );
                assert_eq!(many.below_margin, one.below_margin, "{case}");
                assert_eq!(many.best_move, one.best_move, "{case}");
            }
            c.threads = 1;
            c.time_limit = Some(std::time::Duration::from_secs(3600));
            let deepened = search(set, depth, &c).unwrap();
            assert_eq!(deepened.move_values, one.move_values, "{case}, deepened");
            c.time_limit = None;
        }
    }
    // The paper's position and depth: the same best request and value from a third of the nodes.
    let start = [Board::start()];
    let mut c = config(Mode::Exact);
    c.sense_mode = SenseMode::Finest;
    let full = search(&start, 3, &c).unwrap();
    c.root_margin = Some(0);
    let best = search(&start, 3, &c).unwrap();
    assert_eq!((best.best_move, best.value), (full.best_move, full.value));
    assert!(best.stats.nodes * 2 < full.stats.nodes);
}

/// A searcher keeps its tables: searching a game's sets one after another (and then again) gives
/// exactly the values of fresh searches in exact mode, the second pass finds what the first
/// stored, and a searcher with tiny tables stays within them and still gives the same values.
#[test]
fn a_searcher_keeps_its_tables_and_exact_values_across_searches() {
    let sets = sets_for_parallel_tests();
    let mut c = config(Mode::Exact);
    c.sense_mode = SenseMode::MinSize;
    let fresh: Vec<SearchResult> = sets.iter().map(|s| search(s, 2, &c).unwrap()).collect();
    let mut kept = Searcher::new(c.clone()).unwrap();
    let mut small = Searcher::new(RbcSearchConfig {
        table_entries: 100,
        reply_entries: 1_000,
        threads: 2,
        ..c.clone()
    })
    .unwrap();
    for round in 0..2 {
        for (set, expected) in sets.iter().zip(&fresh) {
            let result = kept.search(set, 2).unwrap();
            assert_eq!(result.move_values, expected.move_values, "round {round}");
            if round == 1 {
                assert!(result.stats.table_hits > 0 && result.stats.nodes < expected.stats.nodes);
            }
            let result = small.search(set, 2).unwrap();
            assert_eq!(
                result.move_values, expected.move_values,
                "small, round {round}"
            );
            // Two workers' reply tables of 500 boards each, given back after every search.
            let sizes = small.table_sizes();
            assert!(sizes.sets <= 128 && sizes.replies <= 1_000, "{sizes:?}");
            assert!(sizes.replies > 0, "{sizes:?}");
        }
    }
    assert!(kept.table_sizes().sets > 0 && kept.table_sizes().replies > 0);
    kept.clear();
    assert_eq!(kept.table_sizes(), TableSizes::default());
}

/// A set met again in the sketch table is used as itself, whatever the rule and threshold: here
/// the Wilson rule at threshold 1, under which a sampled Jaccard index of 1 would not be enough.
#[test]
fn sketch_modes_use_a_sets_own_entry_exactly() {
    let set = recorded_set_12();
    let c = RbcSearchConfig {
        mode: Mode::Sketch,
        k: 8,
        table_size: 4096,
        ..config(Mode::Sketch)
    };
    let mut searcher = Searcher::new(c).unwrap();
    let first = searcher.search(&set, 2).unwrap();
    let second = searcher.search(&set, 2).unwrap();
    assert!(
        second.stats.table_hits > first.stats.table_hits,
        "{:?}",
        second.stats
    );
    assert!(second.stats.nodes < first.stats.nodes);
    let exact = search(&set, 2, &config(Mode::Exact)).unwrap();
    assert_eq!(second.move_values, exact.move_values);
}

#[test]
fn the_timeline_lists_every_root_request_of_every_completed_depth() {
    let set = boards(&[
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ]);
    let mut c = config(Mode::Exact);
    c.time_limit = Some(std::time::Duration::from_secs(60));
    let result = search(&set, 2, &c).unwrap();
    let requests = result.move_values.len();
    assert_eq!(result.timeline.len(), 2 * requests);
    assert!(result
        .timeline
        .windows(2)
        .all(|w| w[0].seconds <= w[1].seconds));
    for completion in result.timeline.iter().filter(|c| c.depth == 2) {
        let value = result
            .move_values
            .iter()
            .find(|(m, _)| *m == completion.request)
            .unwrap()
            .1;
        assert_eq!(completion.value, value);
    }
}

/// The engine leaf (where Stockfish is installed): a hanging queen is taken, the engine's
/// scores are cached by position (a second search asks the engine nothing), and a missing engine
/// is refused with a message that says what to do.
#[test]
fn the_uci_leaf_scores_with_the_engine_and_caches_by_position() {
    let missing = RbcSearchConfig {
        leaf: LeafMode::Uci,
        uci_engine: "no-such-engine-fogsearch".to_string(),
        ..config(Mode::None)
    };
    let err = search(&[Board::start()], 1, &missing)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no-such-engine-fogsearch") && err.contains("PATH"),
        "{err}"
    );
    if crate::uci::find_engine("stockfish").is_err() {
        eprintln!("no stockfish: the engine half skipped");
        return;
    }
    let c = RbcSearchConfig {
        leaf: LeafMode::Uci,
        uci_depth: 4,
        threads: 2,
        ..config(Mode::None)
    };
    // Black's queen on d4 hangs to the knight on f3 on both boards.
    let set = boards(&[
        "4k3/8/8/8/3q4/5N2/PP6/4K3 w - - 0 1",
        "3k4/8/8/8/3q4/5N2/PP6/4K3 w - - 0 1",
    ]);
    let mut searcher = Searcher::new(c).unwrap();
    let first = searcher.search(&set, 1).unwrap();
    assert_eq!(first.best_move, Some(Move::from_uci("f3d4").unwrap()));
    assert!(first.value > 300, "{}", first.value);
    assert!(first.stats.leaf_evaluations > 0);
    let second = searcher.search(&set, 1).unwrap();
    assert_eq!(second.move_values, first.move_values);
    assert_eq!(second.stats.leaf_evaluations, 0);
    assert!(second.stats.reply_table_hits > 0);
    assert!(matches!(
        mean_reply_values(&set, None, LeafMode::Uci, false),
        Err(SearchError::InvalidConfig(_))
    ));
}
