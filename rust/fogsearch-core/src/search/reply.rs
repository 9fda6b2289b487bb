//! The opponent's best reply on one board, and what it leaves a request on average over a set.
//!
//! The search values a set by its worst board, so in a set where some board loses whatever we do,
//! or where one board fixes every value, many requests tie. [`mean_outcomes`] separates them:
//! the mean over the boards of each request's one-reply outcome, with a king capture either way
//! counted at `±MATE`, so the mean first minimises the share of boards that lose our king.
//! With `mate_threats` it also sees one move further on each board: a board where some reply
//! leaves our king attacked with no move of ours that saves it counts `-MATED`. When every request
//! loses our king on some board of the set, this mean alone chooses the move, and a one-reply
//! mean then walks the king into mates it cannot see.

use crate::chess::{Board, Color, Move, MoveList};

use super::eval::{evaluate, evaluate_after, INFINITY, MATE};
use super::exchange::recapture_gain;
use super::king_safety::king_safety;
use super::rules::{opponent_replies, own_sides_agree, resolve};
use super::transposition::ReplyOutcome;
use super::LeafMode;

/// The opponent's best reply on `board` (theirs to move), scored from `us`'s point of view with
/// the `leaf` evaluation, and how many boards it scored. The `king_safety` leaf adds the safety of
/// `board` itself to every reply's evaluation.
pub fn worst_reply(
    board: &Board,
    us: Color,
    leaf: LeafMode,
    replies: &mut MoveList,
) -> (ReplyOutcome, u64) {
    opponent_replies(board, replies);
    if let Some(king) = board.king_square(us) {
        if replies.iter().any(|m| m.to == king) {
            return (ReplyOutcome::TakesOurKing, 0);
        }
    }
    let standing = evaluate(board, us);
    let mut worst = INFINITY;
    for reply in std::iter::once(None).chain(replies.iter().copied().map(Some)) {
        let mut value = evaluate_after(board, reply, standing, us);
        if leaf == LeafMode::Exchange {
            if let Some(to) = reply
                .map(|m| m.to)
                .filter(|&to| board.by_color(us).contains(to))
            {
                let mut child = board.clone();
                child.push(reply);
                value += recapture_gain(&child, to);
            }
        }
        worst = worst.min(value);
    }
    if leaf == LeafMode::KingSafety {
        worst += king_safety(board, us);
    }
    (
        ReplyOutcome::WorstEvaluation(worst),
        replies.len() as u64 + 1,
    )
}

/// The outcome of a board on which the opponent can force the capture of our king on its next
/// move (a mate, seen with the board known to both sides): below any evaluation, above a capture
/// the opponent can make at once.
pub const MATED: i32 = MATE / 2;

/// For each request, the mean over `boards` (all ours to move) of its one-reply outcome (see
/// [`request_outcomes`]). An empty set gives no values.
pub fn mean_outcomes(
    boards: &[Board],
    requests: &[Option<Move>],
    leaf: LeafMode,
    mate_threats: bool,
) -> Vec<f64> {
    if boards.is_empty() {
        return Vec::new();
    }
    request_outcomes(boards, requests, leaf, mate_threats)
        .into_iter()
        .map(|row| row.iter().sum::<f64>() / boards.len() as f64)
        .collect()
}

/// For each request, for each board of `boards` (all ours to move), its one-reply outcome: `MATE`
/// where it takes the opponent's king, `-MATE` where a reply then takes ours, otherwise the worst
/// evaluation after the reply (scored by `leaf`), or, with `mate_threats`, `-MATED` where a reply
/// forces the capture of our king (see [`forces_king_capture`]).
pub fn request_outcomes(
    boards: &[Board],
    requests: &[Option<Move>],
    leaf: LeafMode,
    mate_threats: bool,
) -> Vec<Vec<f64>> {
    let Some(first) = boards.first() else {
        return vec![Vec::new(); requests.len()];
    };
    let us = first.turn();
    let them = us.other();
    let shared_side = own_sides_agree(boards, us);
    let mut replies = MoveList::new();
    let mut escapes = MoveList::new();
    requests
        .iter()
        .map(|&request| {
            boards
                .iter()
                .map(|board| {
                    let (taken, captured) = resolve(board, request, shared_side);
                    if captured.is_some() && captured == board.king_square(them) {
                        return f64::from(MATE);
                    }
                    let mut child = board.clone();
                    child.push(taken);
                    match worst_reply(&child, us, leaf, &mut replies).0 {
                        ReplyOutcome::TakesOurKing => -f64::from(MATE),
                        ReplyOutcome::WorstEvaluation(_)
                            if mate_threats
                                && forces_king_capture(&child, us, &mut replies, &mut escapes) =>
                        {
                            -f64::from(MATED)
                        }
                        ReplyOutcome::WorstEvaluation(value) => f64::from(value),
                    }
                })
                .collect()
        })
        .collect()
}

/// Whether the opponent, to move on `board`, has a reply after which our king is attacked and
/// every move of ours leaves it attacked (or a reply takes it at once). Both sides are assumed to
/// see the board: a mate there is one the opponent can find, and an escape one we could.
pub fn forces_king_capture(
    board: &Board,
    us: Color,
    replies: &mut MoveList,
    escapes: &mut MoveList,
) -> bool {
    opponent_replies(board, replies);
    replies.iter().any(|&reply| {
        let mut after = board.clone();
        after.push(Some(reply));
        after.king_square(us).is_none()
            || (after.king_attacked(us) && !has_escape(&after, us, escapes))
    })
}

/// Whether some move of ours on `board` (ours to move) leaves our king unattacked or takes theirs.
fn has_escape(board: &Board, us: Color, moves: &mut MoveList) -> bool {
    board.pseudo_legal_moves(moves);
    moves.iter().any(|&mv| {
        let mut after = board.clone();
        after.push(Some(mv));
        after.king_square(us.other()).is_none() || !after.king_attacked(us)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    fn forced(fen: &str) -> bool {
        let b = board(fen);
        let us = b.turn().other();
        forces_king_capture(&b, us, &mut MoveList::new(), &mut MoveList::new())
    }

    #[test]
    fn a_back_rank_mate_forces_the_capture_and_luft_or_a_guard_prevents_it() {
        // White to move: Ra8+ leaves Black's king on h8 nowhere to go.
        assert!(forced("7k/6pp/8/8/8/8/5PPP/R5K1 w - - 0 1"));
        // With h6 played the king escapes to h7; with a rook on d8 it takes on a8.
        assert!(!forced("7k/6p1/7p/8/8/8/5PPP/R5K1 w - - 0 1"));
        assert!(!forced("3r3k/6pp/8/8/8/8/5PPP/R5K1 w - - 0 1"));
    }

    #[test]
    fn a_check_that_can_be_answered_forces_nothing() {
        // Ra8+ is met by Kg7 (no pawn there), or by the bishop on c6 taking the rook.
        assert!(!forced("7k/7p/8/8/8/8/5PPP/R5K1 w - - 0 1"));
        assert!(!forced("7k/6pp/2b5/8/8/8/5PPP/R5K1 w - - 0 1"));
    }

    #[test]
    fn a_king_already_en_prise_is_taken_at_once() {
        // The rook on a8 already attacks h8: the capture itself is the forcing reply.
        assert!(forced("R6k/6pp/8/8/8/8/5PPP/6K1 w - - 0 1"));
    }

    #[test]
    fn taking_their_king_is_an_escape_from_any_check() {
        // After Ra8+ Black's queen on e1 takes White's king: the check does not matter.
        assert!(!forced("7k/6pp/8/8/8/8/5PPP/R3q1K1 w - - 0 1"));
    }

    #[test]
    fn mate_threats_only_lower_outcomes_to_mated() {
        let boards = vec![
            board("7k/6pp/8/8/8/8/5PPP/R5K1 b - - 0 1"),
            board("7k/6p1/7p/8/8/8/5PPP/R5K1 b - - 0 1"),
        ];
        let requests = [None, Some(Move::from_uci("h8g8").unwrap())];
        let plain = request_outcomes(&boards, &requests, LeafMode::Static, false);
        let threats = request_outcomes(&boards, &requests, LeafMode::Static, true);
        // A pass leaves the back-rank mate on the first board only.
        assert_eq!(threats[0][0], -f64::from(MATED));
        assert_eq!(threats[0][1], plain[0][1]);
        // Kg8 gives the king f8/f7: no mate anywhere.
        assert_eq!(threats[1], plain[1]);
        assert!(plain[0][0] > -f64::from(MATED));
    }
}
