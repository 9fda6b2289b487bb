//! The opponent's best reply on one board, and what it leaves a request on average over a set.
//!
//! The search values a set by its worst board, so in a set where some board loses whatever we do,
//! or where one board fixes every value, many requests tie. [`mean_outcomes`] separates them:
//! the mean over the boards of each request's one-reply outcome, with a king capture either way
//! counted at `±MATE`, so the mean first minimises the share of boards that lose our king.

use crate::chess::{Board, Color, Move, MoveList};

use super::eval::{evaluate, evaluate_from, INFINITY, MATE};
use super::exchange::recapture_gain;
use super::rules::{opponent_replies, own_sides_agree, resolve};
use super::transposition::ReplyOutcome;
use super::LeafMode;

/// The opponent's best reply on `board` (theirs to move), scored from `us`'s point of view with
/// the `leaf` evaluation, and how many boards it scored.
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
        let mut child = board.clone();
        child.push(reply);
        let mut value = evaluate_from(&child, board, standing, us);
        if leaf == LeafMode::Exchange {
            if let Some(to) = reply
                .map(|m| m.to)
                .filter(|&to| board.by_color(us).contains(to))
            {
                value += recapture_gain(&child, to);
            }
        }
        worst = worst.min(value);
    }
    (
        ReplyOutcome::WorstEvaluation(worst),
        replies.len() as u64 + 1,
    )
}

/// For each request, the mean over `boards` (all ours to move) of its one-reply outcome (see
/// [`request_outcomes`]). An empty set gives no values.
pub fn mean_outcomes(boards: &[Board], requests: &[Option<Move>], leaf: LeafMode) -> Vec<f64> {
    if boards.is_empty() {
        return Vec::new();
    }
    request_outcomes(boards, requests, leaf)
        .into_iter()
        .map(|row| row.iter().sum::<f64>() / boards.len() as f64)
        .collect()
}

/// For each request, for each board of `boards` (all ours to move), its one-reply outcome: `MATE`
/// where it takes the opponent's king, `-MATE` where a reply then takes ours, otherwise the worst
/// evaluation after the reply (scored by `leaf`).
pub fn request_outcomes(
    boards: &[Board],
    requests: &[Option<Move>],
    leaf: LeafMode,
) -> Vec<Vec<f64>> {
    let Some(first) = boards.first() else {
        return vec![Vec::new(); requests.len()];
    };
    let us = first.turn();
    let them = us.other();
    let shared_side = own_sides_agree(boards, us);
    let mut replies = MoveList::new();
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
                        ReplyOutcome::WorstEvaluation(value) => f64::from(value),
                    }
                })
                .collect()
        })
        .collect()
}
