//! Perfect-information alpha-beta on single boards: what each request is worth on each board of
//! a small set if both sides then saw the board.
//!
//! The information-set search is exact about what we do not know but shallow: with the board
//! known (a set of one), it still sees only our move, a reply, our next move and a reply, scored
//! statically. On small sets a per-board search can go deeper and resolve captures at its leaves
//! (quiescence), which is where the bot lost material against TroutBot with the board known
//! (bench/RESULTS.md). RBC rules: moves are pseudo-legal, a pass is a move, and taking the king
//! wins (`MATE` less the ply).

use crate::chess::{Board, Move, MoveList};
use crate::stop::{Halt, Limits};

use super::eval::{evaluate, INFINITY, MATE, PIECE_VALUES};
use super::rules::{own_sides_agree, resolve};

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 1024;

/// Per request, per board: the request's value (our point of view) after `plies` further plies
/// of full-width search and a capture search at the leaves; the reason it halted when `limits`
/// ended it first.
pub fn request_board_values(
    boards: &[Board],
    requests: &[Option<Move>],
    plies: u32,
    limits: Limits<'_>,
) -> Result<Vec<Vec<i32>>, Halt> {
    let Some(first) = boards.first() else {
        return Ok(vec![Vec::new(); requests.len()]);
    };
    let us = first.turn();
    let shared_side = own_sides_agree(boards, us);
    let mut searcher = BoardSearcher {
        nodes: 0,
        limits,
        halted: None,
    };
    let mut values = Vec::with_capacity(requests.len());
    for &request in requests {
        let mut row = Vec::with_capacity(boards.len());
        for board in boards {
            let (taken, captured) = resolve(board, request, shared_side);
            if captured.is_some() && captured == board.king_square(us.other()) {
                row.push(MATE - 1);
                continue;
            }
            let mut child = board.clone();
            child.push(taken);
            row.push(-searcher.negamax(&child, plies, 1, -INFINITY, INFINITY));
            if let Some(halt) = searcher.halted {
                return Err(halt);
            }
        }
        values.push(row);
    }
    Ok(values)
}

struct BoardSearcher<'s> {
    nodes: u64,
    limits: Limits<'s>,
    halted: Option<Halt>,
}

impl BoardSearcher<'_> {
    fn tick(&mut self) {
        self.nodes += 1;
        if self.halted.is_none() && self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            self.halted = self.limits.halt();
        }
    }

    /// The value of `board` for its side to move, `depth` plies deep, `ply` plies below the root
    /// request.
    fn negamax(&mut self, board: &Board, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
        self.tick();
        if self.halted.is_some() {
            return 0;
        }
        let moves = match ordered_moves(board, false) {
            Ok(moves) => moves,
            Err(KingCapture) => return MATE - ply as i32 - 1,
        };
        if depth == 0 {
            return self.quiesce(board, moves, alpha, beta);
        }
        let mut alpha = alpha;
        let mut best = -INFINITY;
        for mv in moves.into_iter().map(Some).chain(std::iter::once(None)) {
            let mut child = board.clone();
            child.push(mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta || self.halted.is_some() {
                break;
            }
        }
        best
    }

    /// Stand pat, or capture: `moves` are the side to move's moves, best first (only the
    /// captures are tried).
    fn quiesce(&mut self, board: &Board, moves: Vec<Move>, alpha: i32, beta: i32) -> i32 {
        let standing = evaluate(board, board.turn());
        if standing >= beta {
            return standing;
        }
        let mut alpha = alpha.max(standing);
        let mut best = standing;
        for mv in moves.into_iter().filter(|m| is_capture(board, *m)) {
            self.tick();
            if self.halted.is_some() {
                return 0;
            }
            let mut child = board.clone();
            child.push(Some(mv));
            let replies = match ordered_moves(&child, true) {
                Ok(replies) => replies,
                Err(KingCapture) => continue, // the capture leaves our king en prise
            };
            let score = -self.quiesce(&child, replies, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The side to move can take the opponent's king.
struct KingCapture;

/// The side to move's moves (only captures with `captures_only`), most valuable victim first and
/// then least valuable attacker; quiet moves after captures. `Err` when one takes the king.
fn ordered_moves(board: &Board, captures_only: bool) -> Result<Vec<Move>, KingCapture> {
    let mut list = MoveList::new();
    board.pseudo_legal_moves(&mut list);
    let their_king = board.king_square(board.turn().other());
    if list.iter().any(|m| Some(m.to) == their_king) {
        return Err(KingCapture);
    }
    let mut moves: Vec<(i32, Move)> = list
        .iter()
        .filter(|m| !captures_only || is_capture(board, **m))
        .map(|&m| (-order_key(board, m), m))
        .collect();
    moves.sort_by_key(|&(key, _)| key);
    Ok(moves.into_iter().map(|(_, m)| m).collect())
}

fn is_capture(board: &Board, mv: Move) -> bool {
    board.by_color(board.turn().other()).contains(mv.to)
}

/// Larger first: captures by victim value times ten less the attacker's value, then quiet moves.
fn order_key(board: &Board, mv: Move) -> i32 {
    let value = |square| {
        board
            .piece_at(square)
            .map_or(0, |p| PIECE_VALUES[p.piece_type.index()])
    };
    if is_capture(board, mv) {
        10 * value(mv.to) - value(mv.from) + 100_000
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::{Stop, NEVER};
    use std::time::Instant;

    /// Plain minimax over the same moves (pass included, king capture wins), with a capture
    /// search at the leaves that is itself plain minimax: no pruning, no ordering.
    fn minimax(board: &Board, depth: u32, ply: u32) -> i32 {
        let mut list = MoveList::new();
        board.pseudo_legal_moves(&mut list);
        let their_king = board.king_square(board.turn().other());
        if list.iter().any(|m| Some(m.to) == their_king) {
            return MATE - ply as i32 - 1;
        }
        if depth == 0 {
            return capture_minimax(board, &list);
        }
        let mut best = -INFINITY;
        for mv in list.iter().copied().map(Some).chain(std::iter::once(None)) {
            let mut child = board.clone();
            child.push(mv);
            best = best.max(-minimax(&child, depth - 1, ply + 1));
        }
        best
    }

    fn capture_minimax(board: &Board, list: &MoveList) -> i32 {
        let mut best = evaluate(board, board.turn());
        for &mv in list.iter().filter(|m| is_capture(board, **m)) {
            let mut child = board.clone();
            child.push(Some(mv));
            let mut replies = MoveList::new();
            child.pseudo_legal_moves(&mut replies);
            let our_king = child.king_square(child.turn().other());
            if replies.iter().any(|m| Some(m.to) == our_king) {
                continue;
            }
            best = best.max(-capture_minimax(&child, &replies));
        }
        best
    }

    const POSITIONS: [&str; 4] = [
        "r1bqkb1r/ppp1nppp/4p3/4N1B1/8/2N4P/PPP1BPP1/R2QK2R b KQkq - 0 11",
        "3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1",
        "4k3/8/2b5/3n4/4P3/8/8/3QK3 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];

    #[test]
    fn alpha_beta_equals_plain_minimax() {
        for fen in POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            let requests: Vec<Option<Move>> = {
                let mut list = MoveList::new();
                board.pseudo_legal_moves(&mut list);
                list.iter().copied().map(Some).chain([None]).collect()
            };
            // The plain capture search is exponential in a busy middle game: no plies there.
            let plies = if fen.starts_with("r1bq") { 0 } else { 2 };
            let values =
                request_board_values(std::slice::from_ref(&board), &requests, plies, no_limits())
                    .unwrap();
            for (request, row) in requests.iter().zip(&values) {
                let mut child = board.clone();
                child.push(*request);
                let expected = -minimax(&child, plies, 1);
                assert_eq!(row[0], expected, "{fen} {request:?}");
            }
        }
    }

    #[test]
    fn a_back_rank_mate_is_found() {
        // Rd8 and the king is taken next move whatever Black does (a pass included).
        let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mate = Some(Move::from_uci("d1d8").unwrap());
        let values = request_board_values(&[board], &[mate, None], 2, no_limits()).unwrap();
        assert_eq!(values[0][0], MATE - 3);
        assert!(values[1][0] < MATE / 2);
    }

    #[test]
    fn a_passed_deadline_or_a_stop_gives_no_values() {
        let board = Board::start();
        let past = Some(Instant::now());
        let requests: Vec<Option<Move>> = vec![None; 64];
        let limits = Limits::new(&NEVER, past);
        assert_eq!(
            request_board_values(std::slice::from_ref(&board), &requests, 4, limits),
            Err(Halt::DeadlinePassed)
        );
        let stop = Stop::new();
        stop.request();
        assert_eq!(
            request_board_values(&[board], &requests, 4, Limits::new(&stop, None)),
            Err(Halt::Stopped)
        );
    }

    fn no_limits() -> Limits<'static> {
        Limits::new(&NEVER, None)
    }
}
