//! The information set of an RBC player: every board the true position may be, deduplicated by
//! position (placement, side to move, castling rights, effective e.p. square), kept exact.
//!
//! Updates mirror `reconchess.Player`'s callbacks. Each computes the new boards into fresh
//! storage and replaces the set only on success, so a failing call leaves the set unchanged.
//! Large sets are processed with rayon; results are in the same order whatever the thread count
//! (order-preserving collects, then an in-order dedup keeping the first occurrence).

use super::error::RbcError;
use super::rules::resolve_request;
use crate::chess::{square_name, Board, Color, FenError, Move, MoveList, Piece, PieceType, Square};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Below this many boards, work stays on the calling thread.
const PARALLEL_THRESHOLD: usize = 512;

/// The 36 sense squares whose 3x3 window lies on the board: b2..g7.
pub const SENSE_SQUARES: [Square; 36] = {
    let mut squares = [0u8; 36];
    let mut i = 0;
    while i < 36 {
        squares[i] = ((i / 6 + 1) * 8 + i % 6 + 1) as u8;
        i += 1;
    }
    squares
};

/// Zobrist keys are already uniformly mixed, so the map uses them as their own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Debug)]
pub struct BoardSet {
    color: Color,
    boards: Vec<Board>,
    /// `keys[i] == boards[i].zobrist()`.
    keys: Vec<u64>,
}

fn compute_keys(boards: &[Board]) -> Vec<u64> {
    if boards.len() >= PARALLEL_THRESHOLD {
        boards.par_iter().map(Board::zobrist).collect()
    } else {
        boards.iter().map(Board::zobrist).collect()
    }
}

/// Keeps the first board of each position, in order. Equal keys are confirmed by comparing
/// positions, so a 64-bit key collision can never merge two different positions.
fn dedup_in_order(boards: Vec<Board>) -> (Vec<Board>, Vec<u64>) {
    let keys = compute_keys(&boards);
    let mut first_index = KeyMap::with_capacity_and_hasher(boards.len(), Default::default());
    let mut kept_boards = Vec::with_capacity(boards.len());
    let mut kept_keys = Vec::with_capacity(boards.len());
    for (board, key) in boards.into_iter().zip(keys) {
        let duplicate = match first_index.get(&key) {
            None => false,
            Some(&i) if kept_boards[i as usize] == board => true,
            Some(_) => kept_boards
                .iter()
                .zip(&kept_keys)
                .any(|(b, &k): (&Board, &u64)| k == key && b.same_position(&board)),
        };
        if !duplicate {
            first_index.entry(key).or_insert(kept_boards.len() as u32);
            kept_boards.push(board);
            kept_keys.push(key);
        }
    }
    (kept_boards, kept_keys)
}

/// Runs `f` on every board (in parallel when large), concatenating the outputs in board order.
fn flat_map_in_order<F>(boards: &[Board], f: F) -> Vec<Board>
where
    F: Fn(&Board, &mut Vec<Board>) + Sync,
{
    if boards.len() >= PARALLEL_THRESHOLD {
        let chunk = boards
            .len()
            .div_ceil(4 * rayon::current_num_threads().max(1))
            .max(64);
        boards
            .par_chunks(chunk)
            .map(|part| {
                let mut out = Vec::new();
                for b in part {
                    f(b, &mut out);
                }
                out
            })
            .collect::<Vec<_>>()
            .concat()
    } else {
        let mut out = Vec::new();
        for b in boards {
            f(b, &mut out);
        }
        out
    }
}

/// The capture observation as a checked value: `Some(square)` for a capture there.
fn capture_observation(
    captured: bool,
    square: Option<Square>,
    whose: &str,
) -> Result<Option<Square>, RbcError> {
    match (captured, square) {
        (true, None) => Err(RbcError::MalformedObservation {
            message: format!("{whose}: a capture was reported without a capture square"),
        }),
        (false, Some(s)) => Err(RbcError::MalformedObservation {
            message: format!(
                "{whose}: capture square {} given although no capture was reported",
                square_label(s)
            ),
        }),
        (_, Some(s)) if s >= 64 => Err(RbcError::MalformedObservation {
            message: format!("{whose}: capture square {s} is not a square (must be 0..63)"),
        }),
        (_, s) => Ok(s),
    }
}

fn square_label(square: Square) -> String {
    if square < 64 {
        square_name(square)
    } else {
        square.to_string()
    }
}

fn describe_capture(observed: Option<Square>) -> String {
    match observed {
        Some(s) => format!("capture at {}", square_name(s)),
        None => "no capture".to_string(),
    }
}

/// Where the mover's pseudo-legal move `m` captures (e.p. reports the captured pawn's square).
#[inline]
fn capture_square_fast(board: &Board, m: Move) -> Option<Square> {
    let mover = board.turn();
    if board.occupied_by(mover.other()).contains(m.to) {
        return Some(m.to);
    }
    // In the pseudo-legal list, a pawn moving diagonally to an empty square captures e.p.
    let is_pawn = board.pieces_of(PieceType::Pawn, mover).contains(m.from);
    if is_pawn && m.from % 8 != m.to % 8 {
        return Some(match mover {
            Color::White => m.to - 8,
            Color::Black => m.to + 8,
        });
    }
    None
}

impl BoardSet {
    /// The set of the player of `color` holding `boards`, deduplicated (first occurrence kept).
    pub fn new(color: Color, boards: Vec<Board>) -> BoardSet {
        let (boards, keys) = dedup_in_order(boards);
        BoardSet {
            color,
            boards,
            keys,
        }
    }

    /// The set at the start of the game: the start position only.
    pub fn start(color: Color) -> BoardSet {
        BoardSet::new(color, vec![Board::start()])
    }

    /// The set of the boards given as FENs; fails on the first invalid FEN.
    pub fn from_fens<S: AsRef<str>>(color: Color, fens: &[S]) -> Result<BoardSet, FenError> {
        let boards = fens
            .iter()
            .map(|f| Board::from_fen(f.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BoardSet::new(color, boards))
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

    /// Position keys, `keys()[i] == boards()[i].zobrist()`.
    pub fn keys(&self) -> Vec<u64> {
        self.keys.clone()
    }

    pub fn keys_slice(&self) -> &[u64] {
        &self.keys
    }

    /// FENs (python-chess layout, e.p. square only where a capture is possible).
    pub fn fens(&self) -> Vec<String> {
        self.boards.iter().map(Board::fen).collect()
    }

    /// Whether the set holds the position of `fen` (clocks ignored).
    pub fn contains_fen(&self, fen: &str) -> Result<bool, FenError> {
        let board = Board::from_fen(fen)?;
        Ok(self.contains_board(&board))
    }

    pub fn contains_board(&self, board: &Board) -> bool {
        let key = board.zobrist();
        self.keys
            .iter()
            .zip(&self.boards)
            .any(|(&k, b)| k == key && b.same_position(board))
    }

    fn replace(&mut self, boards: Vec<Board>, keys: Vec<u64>) {
        self.boards = boards;
        self.keys = keys;
    }

    /// reconchess `handle_opponent_move_result`: expands each board by every move the opponent
    /// may have taken (pass included) and keeps the children whose capture observation matches.
    /// Children where our king was captured are dropped (the game would be over). Boards that
    /// already have our side to move (White's first turn) are kept as they are when no capture
    /// is reported.
    pub fn handle_opponent_move_result(
        &mut self,
        captured_my_piece: bool,
        capture_square: Option<Square>,
    ) -> Result<(), RbcError> {
        let observed =
            capture_observation(captured_my_piece, capture_square, "opponent move result")?;
        let me = self.color;
        let children = flat_map_in_order(&self.boards, |parent, out| {
            expand_by_opponent_moves(parent, me, observed, out)
        });
        if children.is_empty() {
            return Err(RbcError::InconsistentObservation {
                message: format!(
                    "no board in the set ({} boards) is consistent with {} after the opponent's move",
                    self.boards.len(),
                    describe_capture(observed)
                ),
            });
        }
        let (boards, keys) = dedup_in_order(children);
        self.replace(boards, keys);
        Ok(())
    }

    /// reconchess `handle_sense_result`: keeps the boards matching every `(square, piece)`.
    pub fn handle_sense_result(
        &mut self,
        result: &[(Square, Option<Piece>)],
    ) -> Result<(), RbcError> {
        for (i, &(square, piece)) in result.iter().enumerate() {
            if square >= 64 {
                return Err(RbcError::MalformedObservation {
                    message: format!(
                        "sense result: square {square} is not a square (must be 0..63)"
                    ),
                });
            }
            if let Some(&(_, other)) = result[..i].iter().find(|(s, _)| *s == square) {
                if other != piece {
                    return Err(RbcError::MalformedObservation {
                        message: format!(
                            "sense result: square {} is reported twice with different contents",
                            square_name(square)
                        ),
                    });
                }
            }
        }
        let matches = |b: &Board| result.iter().all(|&(s, p)| b.piece_at(s) == p);
        let kept: Vec<(Board, u64)> = if self.boards.len() >= PARALLEL_THRESHOLD {
            self.boards
                .par_iter()
                .zip(self.keys.par_iter())
                .filter(|(b, _)| matches(b))
                .map(|(b, &k)| (b.clone(), k))
                .collect()
        } else {
            self.boards
                .iter()
                .zip(&self.keys)
                .filter(|(b, _)| matches(b))
                .map(|(b, &k)| (b.clone(), k))
                .collect()
        };
        if kept.is_empty() {
            let shown: Vec<String> = result
                .iter()
                .map(|&(s, p)| format!("{}={}", square_name(s), p.map_or('.', |p| p.symbol())))
                .collect();
            return Err(RbcError::InconsistentObservation {
                message: format!(
                    "no board in the set ({} boards) is consistent with the sense result [{}]",
                    self.boards.len(),
                    shown.join(" ")
                ),
            });
        }
        let (boards, keys) = kept.into_iter().unzip();
        self.replace(boards, keys);
        Ok(())
    }

    /// reconchess `handle_move_result`: keeps the boards on which `requested` resolves to
    /// exactly `taken` with that capture, and plays `taken` (a pass for `None`) on them.
    pub fn handle_move_result(
        &mut self,
        requested: Option<Move>,
        taken: Option<Move>,
        captured_opponent_piece: bool,
        capture_square: Option<Square>,
    ) -> Result<(), RbcError> {
        let observed = capture_observation(captured_opponent_piece, capture_square, "move result")?;
        for (what, m) in [("requested", requested), ("taken", taken)] {
            if let Some(m) = m.filter(|m| !m.squares_valid()) {
                return Err(RbcError::MalformedObservation {
                    message: format!(
                        "move result: {what} move has a square outside 0..63 (from {}, to {})",
                        m.from, m.to
                    ),
                });
            }
        }
        let me = self.color;
        let mut illegal_everywhere = !self.boards.is_empty();
        let mut any_illegal: Option<RbcError> = None;
        let mut results = Vec::with_capacity(self.boards.len());
        for board in &self.boards {
            if board.turn() != me {
                illegal_everywhere = false;
                continue;
            }
            match resolve_request(board, requested) {
                Err(e) => {
                    any_illegal.get_or_insert(e);
                }
                Ok(r) => {
                    illegal_everywhere = false;
                    if r.taken == taken && r.capture_square == observed {
                        let mut child = board.clone();
                        child.push(taken);
                        results.push(child);
                    }
                }
            }
        }
        if illegal_everywhere {
            if let Some(e) = any_illegal {
                return Err(e);
            }
        }
        if results.is_empty() {
            let show = |m: Option<Move>| m.map_or("pass".to_string(), |m| m.to_uci());
            return Err(RbcError::InconsistentObservation {
                message: format!(
                    "no board in the set ({} boards) is consistent with request {} resolving to {} with {}",
                    self.boards.len(),
                    show(requested),
                    show(taken),
                    describe_capture(observed)
                ),
            });
        }
        let (boards, keys) = dedup_in_order(results);
        self.replace(boards, keys);
        Ok(())
    }

    /// For each of the 36 sense squares (b2, c2, ..., g7), the expected number of boards left
    /// after sensing there: sum over distinct 3x3 window contents r of n_r^2 / N.
    pub fn sense_stats(&self) -> [(Square, f64); 36] {
        let mailboxes: Vec<[u8; 64]> = self.boards.iter().map(mailbox).collect();
        let n = mailboxes.len() as f64;
        let expected_left = |&square: &Square| -> (Square, f64) {
            if mailboxes.is_empty() {
                return (square, 0.0);
            }
            let mut codes: Vec<u64> = mailboxes.iter().map(|m| window_code(m, square)).collect();
            codes.sort_unstable();
            let mut sum_sq = 0f64;
            let mut run = 0u64;
            for i in 0..codes.len() {
                run += 1;
                if i + 1 == codes.len() || codes[i + 1] != codes[i] {
                    sum_sq += (run * run) as f64;
                    run = 0;
                }
            }
            (square, sum_sq / n)
        };
        let stats: Vec<(Square, f64)> = if self.boards.len() >= PARALLEL_THRESHOLD {
            SENSE_SQUARES.par_iter().map(expected_left).collect()
        } else {
            SENSE_SQUARES.iter().map(expected_left).collect()
        };
        let mut out = [(0u8, 0f64); 36];
        out.copy_from_slice(&stats);
        out
    }
}

/// Piece codes per square: 0 empty, 1..6 white pawn..king, 7..12 black.
fn mailbox(board: &Board) -> [u8; 64] {
    let mut m = [0u8; 64];
    for color in [Color::White, Color::Black] {
        for pt in PieceType::ALL {
            let code = pt as u8 + 6 * color.index() as u8;
            for sq in board.pieces_of(pt, color) {
                m[sq as usize] = code;
            }
        }
    }
    m
}

/// The 3x3 window around a non-edge square, 4 bits per square (exact, no hashing).
#[inline]
fn window_code(m: &[u8; 64], center: Square) -> u64 {
    let mut code = 0u64;
    for dr in [-8i32, 0, 8] {
        for df in [-1i32, 0, 1] {
            let sq = (center as i32 + dr + df) as usize;
            code = code << 4 | m[sq] as u64;
        }
    }
    code
}

/// Appends the children of `parent` consistent with the capture observation.
fn expand_by_opponent_moves(
    parent: &Board,
    me: Color,
    observed: Option<Square>,
    out: &mut Vec<Board>,
) {
    if parent.turn() == me {
        // No opponent move precedes this observation (White's first turn).
        if observed.is_none() {
            out.push(parent.clone());
        }
        return;
    }
    let Some(my_king) = parent.king_square(me) else {
        return;
    };
    if observed.is_none() {
        let mut child = parent.clone();
        child.push(None);
        out.push(child);
    }
    let mut moves = MoveList::new();
    parent.pseudo_legal_moves(&mut moves);
    for &m in moves.iter() {
        if m.to == my_king || capture_square_fast(parent, m) != observed {
            continue;
        }
        let mut child = parent.clone();
        child.push(Some(m));
        out.push(child);
    }
}
