//! The 17 rule vectors of NOTES.md §1 (reconchess 1.6.9 ground truth): position, request,
//! resolution (taken move or pass, and the capture square).

use fogsearch_core::chess::{parse_square, Board, Move};
use fogsearch_core::rbc::{move_actions, resolve_request};

/// (FEN, request, taken move or "pass", capture square or "")
const RULE_VECTORS: [(&str, &str, &str, &str); 17] = [
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e3", ""),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", "pass", ""),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", "pass", ""),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", "pass", ""),
    ("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3", "e2d3", "d3"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6", "d5"),
    ("4k3/8/8/8/8/8/8/R1n1n2K w - - 0 1", "a1g1", "a1c1", "c1"),
    ("4k3/8/8/8/3p4/8/8/B6K w - - 0 1", "a1h8", "a1d4", "d4"),
    ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", "e1g1", ""),
    ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "e1g1", "e1g1", ""),
    ("4k3/8/8/8/8/8/8/4K1nR w K - 0 1", "e1g1", "pass", ""),
    ("4k3/8/8/8/8/8/8/Rn2K3 w Q - 0 1", "e1c1", "pass", ""),
    ("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a7a8q", ""),
    ("n7/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "pass", ""),
    ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "pass", ""),
    ("n7/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "b7a8n", "a8"),
    ("8/8/8/8/8/8/3k4/4K3 w - - 0 1", "e1d2", "e1d2", "d2"),
];

#[test]
fn seventeen_rule_vectors_resolve_as_reconchess() {
    for (fen, request, taken, capture) in RULE_VECTORS {
        let board = Board::from_fen(fen).unwrap();
        let resolution = resolve_request(&board, Some(Move::from_uci(request).unwrap()))
            .unwrap_or_else(|e| panic!("{fen} {request}: {e}"));
        let expected_taken = (taken != "pass").then(|| Move::from_uci(taken).unwrap());
        let expected_capture = (!capture.is_empty()).then(|| parse_square(capture).unwrap());
        assert_eq!(resolution.taken, expected_taken, "{fen} {request}");
        assert_eq!(
            resolution.capture_square, expected_capture,
            "{fen} {request}"
        );
    }
}

#[test]
fn start_position_offers_34_move_actions() {
    assert_eq!(move_actions(&Board::start()).len(), 34);
}

#[test]
fn request_outside_move_actions_is_an_illegal_request() {
    let board = Board::start();
    let err = resolve_request(&board, Some(Move::from_uci("e2e5").unwrap())).unwrap_err();
    assert!(err.to_string().contains("e2e5"), "{err}");
}

#[test]
fn pass_is_always_allowed() {
    let r = resolve_request(&Board::start(), None).unwrap();
    assert_eq!((r.taken, r.capture_square), (None, None));
}
