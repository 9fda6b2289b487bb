//! Test support: every (parent, child) pair along a few plies of pseudo-legal moves (passes
//! included) from busy positions with castling, e.p. and promotion options. Incremental
//! computations (keys, evaluations) are checked against from-scratch ones along these pairs.

use super::{Board, Move, MoveList};

const BUSY_FENS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/P1k5/8/8/8/8/5Kp1/8 b - - 0 1",
];

/// Calls `visit(parent, child)` for every move of three plies from each busy position, keeping
/// at most `width` boards per ply.
pub(crate) fn for_each_move_pair(width: usize, mut visit: impl FnMut(&Board, &Board)) {
    for_each_move(width, |parent, _, child| visit(parent, child));
}

/// [`for_each_move_pair`] with the move (`None`: a pass) between parent and child.
pub(crate) fn for_each_move(width: usize, mut visit: impl FnMut(&Board, Option<Move>, &Board)) {
    for fen in BUSY_FENS {
        let mut frontier = vec![Board::from_fen(fen).unwrap()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for parent in &frontier {
                let mut moves = MoveList::new();
                parent.pseudo_legal_moves(&mut moves);
                for mv in std::iter::once(None).chain(moves.iter().map(|&m| Some(m))) {
                    let mut child = parent.clone();
                    child.push(mv);
                    visit(parent, mv, &child);
                    next.push(child);
                }
            }
            next.truncate(width);
            frontier = next;
        }
    }
}
