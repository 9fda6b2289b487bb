//! One board that refutes many requests (ours): two moves from the leaves, a request is often
//! refuted because on one board the opponent has a reply after which even knowing the board would
//! not save us: the board's own value with one move left, `max over our requests r' of w(r', y)`,
//! is at most alpha. A set is worth no more than any one of its boards (a smaller set is worth at
//! least as much), so that bound holds for every request that leaves the same reply on the same
//! board. An our-move node with two moves left keeps the last such (board, reply) it found and
//! tries it on each next request before searching it, as a killer move is tried first in chess:
//! the request is then refuted by one board's last move (about as many reply-table look-ups as
//! we have requests) instead of by expanding every board's replies and partitioning them by
//! sense. Values are unchanged (tested): the bound is a true upper bound, used only to fail low.
//!
//! Measured before building it (NOTEBOOK.md): at depth 3 from the start 84 % of the requests
//! that failed low at such nodes had one such (board, reply), and the one found for the previous
//! refuted request refuted 52 % of them (48 % at depth 4).

use crate::chess::{Board, Move, MoveList};

use super::super::eval::{INFINITY, MATE};
use super::super::rules::{opponent_replies, resolve};
use super::super::transposition::ReplyOutcome;
use super::last_move::LastMoves;
use super::{OurSet, TreeSearch};

/// A board two plies below an our-move node: the index of the board it came from in that node's
/// set, and the opponent's reply (`None`: a pass) after our request.
pub(super) type Lineage = (u32, Option<Move>);

impl TreeSearch<'_> {
    /// An upper bound at most `alpha` on `request`'s value (two moves left, from the our-move
    /// node at `ply`), from the board `lineage` names: its set board after `request`, then the
    /// reply, if that reply is still one the opponent has there; `None` when the board does not
    /// refute the request (or no longer exists).
    pub(super) fn lineage_bound(
        &mut self,
        set: &OurSet,
        (origin, reply): Lineage,
        request: Option<Move>,
        ply: u32,
        alpha: i32,
    ) -> Option<i32> {
        if alpha <= -INFINITY {
            return None;
        }
        self.tick();
        let board = set.boards.get(origin as usize)?;
        let (taken, captured) = resolve(board, request, set.shared_side);
        if captured.is_some() && captured == board.king_square(self.us.other()) {
            // A won board: it refutes nothing.
            return None;
        }
        let mut after = board.clone();
        after.push(taken);
        let mut replies = MoveList::new();
        opponent_replies(&after, &mut replies);
        if let Some(reply) = reply {
            let takes_our_king = Some(reply.to) == after.king_square(self.us);
            if takes_our_king || !replies.contains(&reply) {
                return None;
            }
        }
        let mut refuting = after;
        refuting.push(reply);
        // The board's own value with one move left, at the sense node's ply below the reply.
        self.last_move_of_one_board(&refuting, ply + 2, alpha)
    }

    /// `board`'s value as a one-board our-move node with one move left at `ply`, if it is at
    /// most `alpha`; `None` as soon as one request is seen to do better.
    fn last_move_of_one_board(&mut self, board: &Board, ply: u32, alpha: i32) -> Option<i32> {
        let key = board.zobrist();
        let mut replies = MoveList::new();
        let mut best = -INFINITY;
        for request in self.ordered_requests(std::slice::from_ref(board), None) {
            let (taken, captured) = resolve(board, request, true);
            if captured.is_some() && captured == board.king_square(self.us.other()) {
                return None;
            }
            let mut child = board.clone();
            child.push(taken);
            let child_key = child.zobrist_from(board, key);
            let value = match self.reply_outcome_cached(&child, child_key, &mut replies) {
                ReplyOutcome::TakesOurKing => -MATE + ply as i32 + 2,
                ReplyOutcome::WorstEvaluation(worst) => worst,
            };
            if self.aborted || value > alpha {
                return None;
            }
            best = best.max(value);
        }
        Some(best)
    }

    /// After a sense node with one move left failed low at `alpha`: if the board that refuted its
    /// last request refutes every request on its own, remember where it came from
    /// (`TreeSearch::culprit`) for the our-move node above.
    pub(super) fn note_culprit(
        &mut self,
        table: &mut LastMoves,
        boards: &[Board],
        keys: &[u64],
        lineage: &[Lineage],
        ply: u32,
        alpha: i32,
    ) {
        let Some(board) = table.killer_board() else {
            return;
        };
        if lineage.is_empty() || alpha <= -INFINITY {
            return;
        }
        let value = self.last_move_cell(table, boards, keys, &[board], ply, alpha, alpha + 1);
        if !self.aborted && value <= alpha {
            self.culprit = Some(lineage[board]);
        }
    }
}
