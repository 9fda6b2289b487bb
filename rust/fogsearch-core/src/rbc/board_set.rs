//! The information set of an RBC player: every board consistent with what it has observed.
//!
//! Updates mirror `reconchess.Player`'s callbacks. Each one builds the new set aside and replaces
//! the old one only on success, so a failed update leaves the set exactly as it was. Large sets are
//! processed with rayon; results are collected in input order and deduplicated keeping the first
//! occurrence, so the set is the same whatever the thread count.
//!
//! With an [`OpponentModel`] the set also keeps a weight per board, the probability of the board
//! given what was observed (see `opponent_model`), normalised to sum to 1; without one every
//! board weighs the same.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::chess::{Board, Color, Move, MoveList, Piece, PieceType, Square, ENCODED_BOARD_BYTES};
use crate::stop::{Stop, NEVER};

use super::error::RbcError;
use super::opponent_model::OpponentModel;
use super::rules::{capture_square, resolve_request};
use super::sense::{sense_squares, SENSE_SQUARES};
use super::unique::{dedup_in_order, dedup_weighted, ShardedUnique, UniqueBoards};

/// Below this many boards the work is too small to be worth spreading over threads.
const PARALLEL_THRESHOLD: usize = 128;
/// Parents expanded at a time in parallel, so a limit is enforced before memory runs out.
const EXPANSION_BLOCK: usize = 1 << 15;
/// Parents expanded between two looks at the stop flag on one thread (about a millisecond).
const SERIAL_STOP_INTERVAL: usize = 1 << 10;

/// The encoded form's first bytes ("fogsearch board set") and version.
const MAGIC: &[u8; 4] = b"FSBS";
const FORMAT_VERSION: u8 = 2;
const HEADER_BYTES: usize = 4 + 1 + 1 + 1 + 8 + 8;

#[derive(Clone, Debug)]
pub struct BoardSet {
    color: Color,
    boards: Vec<Board>,
    max_boards: Option<usize>,
    /// Whether large updates may use rayon's threads (those of the pool the caller runs in).
    parallel: bool,
    /// With a model, each board's probability (one per board, summing to 1).
    weighting: Option<(OpponentModel, Vec<f64>)>,
}

impl BoardSet {
    /// The set of the player of `color`, from `boards` (deduplicated by position). Every board
    /// must have the same side to move, and there must be at least one.
    pub fn new(color: Color, boards: Vec<Board>) -> Result<BoardSet, RbcError> {
        let Some(first) = boards.first() else {
            return Err(RbcError::MalformedObservation(
                "a board set needs at least one board".into(),
            ));
        };
        let turn = first.turn();
        if let Some(odd) = boards.iter().find(|b| b.turn() != turn) {
            return Err(RbcError::MalformedObservation(format!(
                "every board of a set must have the same side to move; {} differs from {}",
                odd.fen(),
                first.fen()
            )));
        }
        Ok(BoardSet {
            color,
            boards: dedup_in_order(boards),
            max_boards: None,
            parallel: true,
            weighting: None,
        })
    }

    /// The set at the start of a game: the starting position alone.
    pub fn start(color: Color) -> BoardSet {
        BoardSet {
            color,
            boards: vec![Board::start()],
            max_boards: None,
            parallel: true,
            weighting: None,
        }
    }

    pub fn from_fens<S: AsRef<str>>(color: Color, fens: &[S]) -> Result<BoardSet, RbcError> {
        let boards = fens
            .iter()
            .map(|f| Board::from_fen(f.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        BoardSet::new(color, boards)
    }

    /// Tracking is exact and uncapped by default. With a limit, an update that would leave more
    /// than `max_boards` boards fails with [`RbcError::TooLarge`] (the set unchanged) instead of
    /// exhausting memory. A set already larger than the limit refuses it (unchanged).
    pub fn set_max_boards(&mut self, max_boards: Option<usize>) -> Result<(), RbcError> {
        if let Some(limit) = max_boards.filter(|&limit| self.boards.len() > limit) {
            return Err(RbcError::TooLarge(format!(
                "the set holds {} boards, more than max_boards = {limit}",
                self.boards.len()
            )));
        }
        self.max_boards = max_boards;
        Ok(())
    }

    /// Keeps a weight per board under `model` from now on (every board equally likely now), or
    /// (`None`) drops the weights.
    pub fn set_opponent_model(&mut self, model: Option<OpponentModel>) {
        self.weighting = model.map(|model| {
            let weights = match self.weighting.take() {
                Some((_, weights)) => weights,
                None => vec![1.0 / self.boards.len() as f64; self.boards.len()],
            };
            (model, weights)
        });
    }

    pub fn opponent_model(&self) -> Option<OpponentModel> {
        self.weighting.as_ref().map(|(model, _)| *model)
    }

    /// Each board's probability, in the set's order (equal without a model).
    pub fn weights(&self) -> Vec<f64> {
        match &self.weighting {
            Some((_, weights)) => weights.clone(),
            None => vec![1.0 / self.boards.len() as f64; self.boards.len()],
        }
    }

    /// The boards at `indices`, in that order (repeats kept once), as a set of the same player
    /// with the same limit and model (weights renormalised over the boards kept): a sample of a
    /// large set for the search, without copying it whole.
    pub fn subset(&self, indices: &[usize]) -> Result<BoardSet, RbcError> {
        if indices.is_empty() {
            return Err(RbcError::MalformedObservation(
                "a board set needs at least one board; no index was given".into(),
            ));
        }
        if let Some(&i) = indices.iter().find(|&&i| i >= self.boards.len()) {
            return Err(RbcError::MalformedObservation(format!(
                "index {i} is outside the set's {} boards",
                self.boards.len()
            )));
        }
        // The set's boards are distinct, so only a repeated index repeats a board: it is the
        // same board, not a second history, and its weight counts once.
        let mut seen = std::collections::HashSet::with_capacity(indices.len());
        let kept: Vec<usize> = indices
            .iter()
            .copied()
            .filter(|&i| seen.insert(i))
            .collect();
        let boards: Vec<Board> = kept.iter().map(|&i| self.boards[i].clone()).collect();
        let weighting = self.weighting.as_ref().map(|(model, weights)| {
            (
                *model,
                normalised(kept.iter().map(|&i| weights[i]).collect()),
            )
        });
        Ok(BoardSet {
            color: self.color,
            boards,
            max_boards: self.max_boards,
            parallel: self.parallel,
            weighting,
        })
    }

    /// The set as bytes (a header, then [`ENCODED_BOARD_BYTES`] per board), for pickling.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.boards.len() * ENCODED_BOARD_BYTES);
        out.extend_from_slice(MAGIC);
        out.push(FORMAT_VERSION);
        out.push(self.color.index() as u8);
        out.push(u8::from(self.parallel));
        out.extend_from_slice(&self.max_boards.map_or(u64::MAX, |m| m as u64).to_le_bytes());
        out.extend_from_slice(&(self.boards.len() as u64).to_le_bytes());
        for board in &self.boards {
            board.encode_into(&mut out);
        }
        // Version 2: then 0, or 1 with the model's two settings and a weight per board.
        match &self.weighting {
            None => out.push(0),
            Some((model, weights)) => {
                out.push(1);
                out.extend_from_slice(&model.temperature_cp.to_le_bytes());
                out.extend_from_slice(&model.uniform_share.to_le_bytes());
                for w in weights {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        out
    }

    /// The set encoded by [`BoardSet::to_bytes`]; every length is checked before anything is
    /// allocated, and every board is checked as it is read.
    pub fn from_bytes(bytes: &[u8]) -> Result<BoardSet, RbcError> {
        let corrupt = |why: String| RbcError::Corrupt(format!("cannot read a board set: {why}"));
        if bytes.len() < HEADER_BYTES || &bytes[..4] != MAGIC {
            return Err(corrupt("these bytes are not an encoded board set".into()));
        }
        let version = bytes[4];
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(corrupt(format!(
                "format version {version} is not 1..{FORMAT_VERSION}"
            )));
        }
        let color = match bytes[5] {
            0 => Color::White,
            1 => Color::Black,
            other => return Err(corrupt(format!("colour {other} is not 0 or 1"))),
        };
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let max_boards = match word(7) {
            u64::MAX => None,
            m => Some(usize::try_from(m).map_err(|_| corrupt(format!("max_boards {m}")))?),
        };
        let count = word(15);
        let needed = count.saturating_mul(ENCODED_BOARD_BYTES as u64);
        let rest = &bytes[HEADER_BYTES..];
        if (rest.len() as u64) < needed || (version == 1 && rest.len() as u64 != needed) {
            return Err(corrupt(format!(
                "{count} boards need {needed} bytes, got {}",
                rest.len()
            )));
        }
        let (body, tail) = rest.split_at(needed as usize);
        let weighting = if version == 1 {
            None
        } else {
            read_weighting(tail, count as usize).map_err(corrupt)?
        };
        let boards = body
            .chunks_exact(ENCODED_BOARD_BYTES)
            .enumerate()
            .map(|(i, chunk)| {
                Board::decode(chunk).map_err(|why| corrupt(format!("board {i}: {why}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut set = BoardSet::new(color, boards)?;
        if set.len() as u64 != count {
            return Err(corrupt("a board appears twice".into()));
        }
        set.set_max_boards(max_boards)?;
        set.parallel = bytes[6] != 0;
        set.weighting = weighting;
        Ok(set)
    }

    pub fn max_boards(&self) -> Option<usize> {
        self.max_boards
    }

    /// With `false`, every update runs on the calling thread alone (no rayon at all), which
    /// saves waking a pool's threads for a single-threaded caller. The results are the same.
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Whether the next update would spread work over threads: only large sets are split.
    pub fn would_use_threads(&self) -> bool {
        self.uses_threads(self.boards.len())
    }

    fn uses_threads(&self, n: usize) -> bool {
        self.parallel && n >= PARALLEL_THRESHOLD && rayon::current_num_threads() > 1
    }

    pub fn color(&self) -> Color {
        self.color
    }

    pub fn len(&self) -> usize {
        self.boards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The most half-moves any board has gone without a capture or a pawn move (0 when empty).
    pub fn max_halfmove_clock(&self) -> u32 {
        self.boards
            .iter()
            .map(Board::halfmove_clock)
            .max()
            .unwrap_or(0)
    }

    pub fn keys(&self) -> Vec<u64> {
        self.boards.iter().map(Board::zobrist).collect()
    }

    pub fn contains(&self, board: &Board) -> bool {
        let key = board.zobrist();
        self.boards
            .iter()
            .any(|b| b.zobrist() == key && b.same_position(board))
    }

    pub fn contains_fen(&self, fen: &str) -> Result<bool, RbcError> {
        Ok(self.contains(&Board::from_fen(fen)?))
    }

    pub fn side_to_move(&self) -> Color {
        self.boards[0].turn()
    }

    /// reconchess `handle_opponent_move_result`: every board expands by every move the opponent
    /// may have taken (a pass included); children whose capture observation differs, and children
    /// where our king was taken, are dropped. Boards where our last move took the opponent's king
    /// are dropped too: the opponent has moved, so the game did not end there. A no-op when our side is already to move (White's
    /// first turn).
    pub fn handle_opponent_move_result(
        &mut self,
        captured_my_piece: bool,
        capture_square: Option<Square>,
    ) -> Result<(), RbcError> {
        self.handle_opponent_move_result_stoppable(captured_my_piece, capture_square, &NEVER)
    }

    /// [`BoardSet::handle_opponent_move_result`], given up with [`RbcError::Interrupted`] (the set
    /// unchanged) once `stop` is raised: expanding millions of boards takes seconds.
    pub fn handle_opponent_move_result_stoppable(
        &mut self,
        captured_my_piece: bool,
        capture_square: Option<Square>,
        stop: &Stop,
    ) -> Result<(), RbcError> {
        let observed = checked_capture(captured_my_piece, capture_square, "captured_my_piece")?;
        if self.side_to_move() == self.color {
            return match observed {
                None => Ok(()),
                Some(sq) => Err(RbcError::InconsistentObservation(format!(
                    "a capture at {} was reported, but no opponent move has been made since our last move",
                    crate::chess::square_name(sq)
                ))),
            };
        }
        let n = self.boards.len();
        let parallel = self.would_use_threads();
        let parents = Parents {
            boards: &self.boards,
            weighting: self.weighting.as_ref().map(|(m, w)| (m, w.as_slice())),
        };
        let (children, weights) = expand_all(
            parents,
            self.color,
            observed,
            self.max_boards,
            parallel,
            stop,
        )?;
        if children.is_empty() {
            return Err(RbcError::InconsistentObservation(format!(
                "no board in the set ({n} boards) is consistent with {} after the opponent's move",
                describe_capture(observed)
            )));
        }
        self.boards = children;
        if let Some((_, kept)) = self.weighting.as_mut() {
            *kept = normalised(weights);
        }
        Ok(())
    }

    /// reconchess `handle_sense_result`: keep the boards that show exactly these pieces.
    pub fn handle_sense_result(
        &mut self,
        result: &[(Square, Option<Piece>)],
    ) -> Result<(), RbcError> {
        for &(sq, _) in result {
            if sq >= 64 {
                return Err(RbcError::MalformedObservation(format!(
                    "sense result square {sq} is not 0..63"
                )));
            }
        }
        let fits = |b: &Board| result.iter().all(|&(sq, piece)| b.piece_at(sq) == piece);
        let keep: Vec<bool> = map_boards(&self.boards, self.would_use_threads(), fits);
        if !keep.contains(&true) {
            return Err(RbcError::InconsistentObservation(format!(
                "no board in the set ({} boards) matches the sense result",
                self.boards.len()
            )));
        }
        // A subset of a deduplicated set needs no deduplication.
        self.boards = filtered(&self.boards, &keep);
        if let Some((_, weights)) = self.weighting.as_mut() {
            *weights = normalised(filtered(weights, &keep));
        }
        Ok(())
    }

    /// reconchess `handle_move_result`: keep the boards on which `requested` resolves to exactly
    /// `taken` with this capture, and make the move on them.
    pub fn handle_move_result(
        &mut self,
        requested: Option<Move>,
        taken: Option<Move>,
        captured_opponent_piece: bool,
        capture_square: Option<Square>,
    ) -> Result<(), RbcError> {
        let observed = checked_capture(
            captured_opponent_piece,
            capture_square,
            "captured_opponent_piece",
        )?;
        if self.side_to_move() != self.color {
            return Err(RbcError::MalformedObservation(
                "the boards have the opponent to move: call handle_opponent_move_result first"
                    .into(),
            ));
        }
        let outcomes = map_boards(
            &self.boards,
            self.would_use_threads(),
            |b| match resolve_request(b, requested) {
                Err(_) => (true, Vec::new()),
                Ok(r) if r.taken == taken && r.capture_square == observed => {
                    let mut child = b.clone();
                    child.push(taken);
                    (false, vec![child])
                }
                Ok(_) => (false, Vec::new()),
            },
        );
        if outcomes.iter().all(|(illegal, _)| *illegal) {
            return Err(RbcError::IllegalRequest(format!(
                "requested move {} is not among the move actions",
                requested.map_or("pass".to_string(), |m| m.uci())
            )));
        }
        let children = outcomes.into_iter().map(|(_, c)| c).collect();
        let n = self.boards.len();
        self.replace(children, || {
            format!(
                "no board in the set ({n} boards) resolves request {} to {} with {}",
                requested.map_or("pass".to_string(), |m| m.uci()),
                taken.map_or("pass".to_string(), |m| m.uci()),
                describe_capture(observed)
            )
        })
    }

    /// For each of the 36 non-edge sense squares, the expected number of boards left after sensing
    /// there: Σ n_r² / N over the partition of the set by what the sense would show.
    pub fn sense_stats(&self) -> Vec<(Square, f64)> {
        let parallel = self.would_use_threads();
        let boards: Vec<[u8; 64]> = if parallel {
            self.boards.par_iter().map(mailbox).collect()
        } else {
            self.boards.iter().map(mailbox).collect()
        };
        let total = boards.len() as f64;
        let stat = |center: Square| {
            let window = sense_squares(center);
            // Boards per sense result.
            let mut cells: HashMap<u64, u64> = HashMap::new();
            for m in &boards {
                let key = window
                    .iter()
                    .fold(0u64, |k, &sq| k << 4 | m[sq as usize] as u64);
                *cells.entry(key).or_insert(0) += 1;
            }
            let expected = cells.values().map(|&n| (n * n) as f64).sum::<f64>() / total;
            (center, expected)
        };
        if parallel {
            SENSE_SQUARES.par_iter().map(|&sq| stat(sq)).collect()
        } else {
            SENSE_SQUARES.iter().map(|&sq| stat(sq)).collect()
        }
    }

    /// How many boards have our king in check: where the opponent captures it next unless we act.
    pub fn boards_in_check(&self) -> usize {
        self.boards
            .iter()
            .filter(|b| b.king_attacked(self.color))
            .count()
    }

    /// Commits `children` (per parent, in order) if any survive; otherwise an inconsistency error
    /// and the set untouched.
    fn replace(
        &mut self,
        children: Vec<Vec<Board>>,
        message: impl FnOnce() -> String,
    ) -> Result<(), RbcError> {
        let weights: Option<Vec<f64>> = self.weighting.as_ref().map(|(_, weights)| {
            children
                .iter()
                .zip(weights)
                .flat_map(|(c, &w)| std::iter::repeat_n(w, c.len()))
                .collect()
        });
        let boards: Vec<Board> = children.into_iter().flatten().collect();
        if boards.is_empty() {
            return Err(RbcError::InconsistentObservation(message()));
        }
        let (boards, weights) = dedup_weighted(boards, weights);
        if let Some(limit) = self.max_boards.filter(|&limit| boards.len() > limit) {
            return Err(RbcError::TooLarge(format!(
                "the update would leave {} boards, more than max_boards = {limit}",
                boards.len()
            )));
        }
        self.boards = boards;
        if let Some((_, kept)) = self.weighting.as_mut() {
            *kept = normalised(weights);
        }
        Ok(())
    }
}

/// The weighting encoded after `count` boards: 0, or 1 with the model's two settings, then
/// `count` weights. (Tag 2, a model with a threat term, is no longer read: the term lost its
/// test and left the code.)
fn read_weighting(tail: &[u8], count: usize) -> Result<Option<(OpponentModel, Vec<f64>)>, String> {
    let float = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&tail[at..at + 8]);
        f64::from_le_bytes(w)
    };
    match tail.first() {
        Some(0) if tail.len() == 1 => return Ok(None),
        Some(0) => return Err(format!("{} bytes follow an unweighted set", tail.len() - 1)),
        Some(1) => {}
        _ => return Err("the weights' tag is neither 0 nor 1".into()),
    }
    let first_weight = 1 + 8 * 2;
    let expected = first_weight as u64 + 8 * count as u64;
    if tail.len() as u64 != expected {
        return Err(format!(
            "the weights after {count} boards take {} bytes, not {expected}",
            tail.len()
        ));
    }
    let model = OpponentModel::new(float(1), float(9))?;
    let weights: Vec<f64> = (0..count).map(|i| float(first_weight + 8 * i)).collect();
    if weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
        return Err("a weight is negative or not finite".into());
    }
    Ok(Some((model, normalised(weights))))
}

/// `weights` scaled to sum to 1; equal weights when they sum to 0 (every history was judged
/// impossible by the model, which the uniform share prevents unless it is 0) or overflow.
fn normalised(mut weights: Vec<f64>) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 && total.is_finite() {
        weights.iter_mut().for_each(|w| *w /= total);
    } else {
        let even = 1.0 / weights.len().max(1) as f64;
        weights.iter_mut().for_each(|w| *w = even);
    }
    weights
}

fn too_large(limit: usize, parents: usize) -> RbcError {
    RbcError::TooLarge(format!(
        "expanding {parents} boards by the opponent's possible moves would exceed max_boards = {limit}"
    ))
}

fn checked_capture(
    flag: bool,
    square: Option<Square>,
    name: &str,
) -> Result<Option<Square>, RbcError> {
    match (flag, square) {
        (true, Some(sq)) if sq < 64 => Ok(Some(sq)),
        (false, None) => Ok(None),
        (true, Some(sq)) => Err(RbcError::MalformedObservation(format!(
            "capture square {sq} is not 0..63"
        ))),
        (true, None) => Err(RbcError::MalformedObservation(format!(
            "{name} is True but capture_square is None"
        ))),
        (false, Some(_)) => Err(RbcError::MalformedObservation(format!(
            "{name} is False but a capture_square was given"
        ))),
    }
}

fn describe_capture(square: Option<Square>) -> String {
    square.map_or("no capture".to_string(), |sq| {
        format!("a capture at {}", crate::chess::square_name(sq))
    })
}

/// The boards to expand, with their model and weights if the set keeps them.
#[derive(Clone, Copy)]
struct Parents<'a> {
    boards: &'a [Board],
    weighting: Option<(&'a OpponentModel, &'a [f64])>,
}

impl Parents<'_> {
    /// The model of the parents' moves (None without weights).
    fn model(&self) -> Option<&OpponentModel> {
        self.weighting.map(|(model, _)| model)
    }
}

/// Adds the children of `board` (opponent to move, of weight `weight`) whose capture observation
/// is `observed` to `out`, skipping those where our king was taken; with a `model`, each child
/// weighs `weight` times its move's probability. A board whose opponent king we already took has
/// none: on it the game ended with our move, yet the opponent has moved.
fn expand_opponent_into(
    board: &Board,
    weight: f64,
    model: Option<&OpponentModel>,
    us: Color,
    observed: Option<Square>,
    out: &mut UniqueBoards,
) {
    if board.is_terminal() {
        return;
    }
    let key = board.zobrist();
    let mut add_child = |m: Option<Move>, p: f64| {
        let mut child = board.clone();
        child.push(m);
        if child.pieces_of(PieceType::King, us).any() {
            out.insert(child.zobrist_from(board, key), child, weight * p);
        }
    };
    let mut moves = MoveList::new();
    if let Some(model) = model {
        for (mv, p) in model.move_probabilities(board, &mut moves) {
            if mv.map_or(observed.is_none(), |m| capture_square(board, m) == observed) {
                add_child(mv, p);
            }
        }
        return;
    }
    if observed.is_none() {
        add_child(None, 1.0);
    }
    board.pseudo_legal_moves(&mut moves);
    for &mv in moves.iter() {
        if capture_square(board, mv) == observed {
            add_child(Some(mv), 1.0);
        }
    }
}

/// The distinct children of `parents`, in the order a serial expansion finds them, whatever the
/// thread count: each parallel piece deduplicates its own children, and the pieces are merged in
/// parent order. Fails as soon as more than `limit` distinct children are found.
/// With a model, the children's weights (unnormalised) come too; without one, every child
/// weighs the number of its histories.
fn expand_all(
    parents: Parents<'_>,
    us: Color,
    observed: Option<Square>,
    limit: Option<usize>,
    parallel: bool,
    stop: &Stop,
) -> Result<(Vec<Board>, Vec<f64>), RbcError> {
    let over = |found: usize| limit.is_some_and(|limit| found > limit);
    let weight = |i: usize| parents.weighting.map_or(1.0, |(_, w)| w[i]);
    let count = parents.boards.len();
    if !parallel {
        let mut out = UniqueBoards::with_capacity(count * 2);
        for (i, board) in parents.boards.iter().enumerate() {
            if i % SERIAL_STOP_INTERVAL == 0 && stop.requested() {
                return Err(RbcError::Interrupted);
            }
            expand_opponent_into(board, weight(i), parents.model(), us, observed, &mut out);
            if over(out.len()) {
                return Err(too_large(limit.unwrap_or(0), count));
            }
        }
        return Ok(out.into_weighted());
    }
    let threads = rayon::current_num_threads();
    let mut merged = ShardedUnique::new(threads * 2);
    // Blocks bound the memory an over-limit expansion takes before it is refused.
    for start in (0..count).step_by(EXPANSION_BLOCK) {
        if stop.requested() {
            return Err(RbcError::Interrupted);
        }
        let block = start..(start + EXPANSION_BLOCK).min(count);
        // Pieces small enough to balance the threads, large enough that local deduplication pays.
        let piece = (block.len() / (threads * 8)).clamp(16, 1024);
        let pieces: Vec<UniqueBoards> = block
            .collect::<Vec<usize>>()
            .par_chunks(piece)
            .map(|chunk| {
                let mut local = UniqueBoards::with_capacity(chunk.len() * 4);
                for &i in chunk {
                    let board = &parents.boards[i];
                    expand_opponent_into(
                        board,
                        weight(i),
                        parents.model(),
                        us,
                        observed,
                        &mut local,
                    );
                }
                local
            })
            .collect();
        merged.extend(pieces);
        if over(merged.len()) {
            return Err(too_large(limit.unwrap_or(0), count));
        }
    }
    Ok(merged.into_weighted())
}

/// The items whose `keep` flag is set, in order.
fn filtered<T: Clone>(items: &[T], keep: &[bool]) -> Vec<T> {
    items
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(item, _)| item.clone())
        .collect()
}

fn map_boards<T: Send>(
    boards: &[Board],
    parallel: bool,
    f: impl Fn(&Board) -> T + Sync + Send,
) -> Vec<T> {
    if parallel {
        boards.par_iter().map(f).collect()
    } else {
        boards.iter().map(f).collect()
    }
}

/// Piece codes by square: 0 empty, 1..6 White pawn..king, 7..12 Black.
fn mailbox(board: &Board) -> [u8; 64] {
    let mut m = [0u8; 64];
    for color in [Color::White, Color::Black] {
        for p in PieceType::ALL {
            for sq in board.pieces_of(p, color) {
                m[sq as usize] = p as u8 + 6 * color.index() as u8;
            }
        }
    }
    m
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Black's set after White's first move: 21 boards (20 moves and the pass).
    pub(crate) fn black_after_first_move() -> BoardSet {
        let mut set = BoardSet::start(Color::Black);
        set.handle_opponent_move_result(false, None).unwrap();
        set
    }

    #[test]
    fn bytes_round_trip_and_corruption_is_refused() {
        let mut set = black_after_first_move();
        set.set_max_boards(Some(1000)).unwrap();
        let bytes = set.to_bytes();
        let back = BoardSet::from_bytes(&bytes).unwrap();
        assert_eq!(back.boards(), set.boards());
        assert_eq!(back.color(), Color::Black);
        assert_eq!(back.max_boards(), Some(1000));
        for bad in [&bytes[..10], &bytes[..bytes.len() - 1], b"FSBX".as_slice()] {
            assert!(matches!(
                BoardSet::from_bytes(bad),
                Err(RbcError::Corrupt(_))
            ));
        }
        let mut huge_count = bytes.clone();
        huge_count[15..23].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            BoardSet::from_bytes(&huge_count),
            Err(RbcError::Corrupt(_))
        ));
    }

    #[test]
    fn a_limit_below_the_size_is_refused_and_the_set_kept() {
        let mut set = black_after_first_move();
        let err = set.set_max_boards(Some(2)).unwrap_err();
        assert!(matches!(err, RbcError::TooLarge(_)));
        assert_eq!(set.max_boards(), None);
        assert_eq!(set.len(), 21);
    }

    #[test]
    fn subsets_keep_the_order_asked_and_refuse_bad_indices() {
        let set = black_after_first_move();
        let sub = set.subset(&[5, 2, 5, 9]).unwrap();
        let expected = [&set.boards()[5], &set.boards()[2], &set.boards()[9]];
        assert_eq!(sub.boards().iter().collect::<Vec<_>>(), expected);
        assert!(set.subset(&[21]).is_err());
        assert!(set.subset(&[]).is_err());
    }

    #[test]
    fn a_raised_stop_leaves_the_set_unchanged() {
        let mut set = black_after_first_move();
        set.handle_sense_result(&[]).unwrap();
        let mut white = BoardSet::new(
            Color::White,
            set.boards()
                .iter()
                .map(|b| {
                    let mut b = b.clone();
                    b.push(None);
                    b
                })
                .collect(),
        )
        .unwrap();
        let before = white.boards().to_vec();
        white.handle_move_result(None, None, false, None).unwrap();
        let stop = Stop::new();
        stop.request();
        let err = white
            .handle_opponent_move_result_stoppable(false, None, &stop)
            .unwrap_err();
        assert_eq!(err, RbcError::Interrupted);
        assert_ne!(white.boards(), &before[..]); // the move result was applied...
        let after_move = white.boards().to_vec();
        assert!(white
            .handle_opponent_move_result_stoppable(false, None, &stop)
            .is_err());
        assert_eq!(white.boards(), &after_move[..]); // ...the interrupted expansion was not
    }
}
