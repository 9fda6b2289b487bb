//! A sense node with one move left after the sense, searched through one table of what each
//! request leaves on each board.
//!
//! With one move left a cell's value is `max over requests r of min over its boards x of w(r, x)`,
//! where `w(r, x)` is the worst reply after `r` on `x` (or a win when `r` takes the king there). A
//! sense node tries many partitions of one set, so the same board meets the same request once per
//! choice whose searched cell holds it: at depth 4 from the start such nodes held 128 boards or
//! more with about 23 choices each, and scoring every cell as its own our-move node resolved,
//! pushed and looked up each (request, board) pair again for every choice. Here each pair is
//! scored once per sense node, when a cell first needs it, and the cells' values (and the one-board
//! values of the pruned sense search) are minima and maxima over the table. Values are exactly
//! the our-move nodes' (tested); only the node counts differ.

use crate::chess::{Board, Move, MoveList};

use super::super::eval::{INFINITY, MATE};
use super::super::rules::resolve;
use super::super::transposition::ReplyOutcome;
use super::TreeSearch;

/// Not scored yet (below every value a pair can have).
const UNSCORED: i32 = i32::MIN;

/// `w(r, x)` for one sense node's set, filled on demand.
pub(super) struct LastMoves {
    /// The set's requests (shared by every board: the caller checks that the boards agree on our
    /// side), best guess first.
    requests: Vec<Option<Move>>,
    boards: usize,
    /// Row-major, one row per request.
    scores: Vec<i32>,
    /// The request that set the last cell's value, tried first in the next cell.
    killer_request: usize,
    /// The board that refuted the last request tried, tried first for the next.
    killer_board: Option<usize>,
    replies: MoveList,
}

impl LastMoves {
    pub(super) fn new(requests: Vec<Option<Move>>, boards: usize) -> Self {
        LastMoves {
            scores: vec![UNSCORED; requests.len() * boards],
            requests,
            boards,
            killer_request: 0,
            killer_board: None,
            replies: MoveList::new(),
        }
    }
}

impl LastMoves {
    /// The board that refuted the last request tried.
    pub(super) fn killer_board(&self) -> Option<usize> {
        self.killer_board
    }
}

impl TreeSearch<'_> {
    /// The value of the cell `cell` (indices into `boards`) as an our-move node with one move
    /// left, in the window `(alpha, beta)`, fail-soft as [`TreeSearch::our_move`] is.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn last_move_cell(
        &mut self,
        table: &mut LastMoves,
        boards: &[Board],
        keys: &[u64],
        cell: &[usize],
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.tick();
        if self.aborted {
            return 0;
        }
        let first = table.killer_request;
        let order = std::iter::once(first).chain((0..table.requests.len()).filter(|&r| r != first));
        let mut best = -INFINITY;
        for r in order {
            self.tick();
            let value = self.last_move_request(table, boards, keys, cell, r, ply, alpha.max(best));
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                table.killer_request = r;
            }
            if best >= beta {
                break;
            }
        }
        best
    }

    /// `min over the boards of cell of w(r, x)`, the killer board first, stopping once it is at
    /// most `alpha` (fail-soft: the true value is at most the result).
    #[allow(clippy::too_many_arguments)]
    fn last_move_request(
        &mut self,
        table: &mut LastMoves,
        boards: &[Board],
        keys: &[u64],
        cell: &[usize],
        r: usize,
        ply: u32,
        alpha: i32,
    ) -> i32 {
        // Every board's opponent king taken: a win.
        let mut value = MATE - (ply as i32 + 1);
        let first = table.killer_board.filter(|x| cell.contains(x));
        let order = first
            .into_iter()
            .chain(cell.iter().copied().filter(|&x| Some(x) != first));
        for x in order {
            let score = self.last_move_score(table, boards, keys, r, x, ply);
            if self.aborted {
                return 0;
            }
            if score < value {
                value = score;
                table.killer_board = Some(x);
            }
            if value <= alpha {
                break;
            }
        }
        value
    }

    /// `w(r, x)`, scored on first use as [`TreeSearch::final_request_value`] scores one board.
    fn last_move_score(
        &mut self,
        table: &mut LastMoves,
        boards: &[Board],
        keys: &[u64],
        r: usize,
        x: usize,
        ply: u32,
    ) -> i32 {
        let slot = r * table.boards + x;
        if table.scores[slot] != UNSCORED {
            return table.scores[slot];
        }
        let board = &boards[x];
        let (taken, captured) = resolve(board, table.requests[r], true);
        let score = if captured.is_some() && captured == board.king_square(self.us.other()) {
            // A won board: it leaves the minimum to the others.
            MATE - (ply as i32 + 1)
        } else {
            let mut child = board.clone();
            child.push(taken);
            let key = child.zobrist_from(board, keys[x]);
            match self.reply_outcome_cached(&child, key, &mut table.replies) {
                ReplyOutcome::TakesOurKing => -MATE + ply as i32 + 2,
                ReplyOutcome::WorstEvaluation(worst) => worst,
            }
        };
        if !self.aborted {
            table.scores[slot] = score;
        }
        score
    }
}
