//! The opponent model with a chess engine's judgement: the likeliest boards' moves scored by an
//! engine's search instead of the one-ply material score.
//!
//! The one-ply score sees what a move wins at once; a strong opponent plays what a search finds.
//! Fit to StrangeFish2's stored moves (bench/opponent_model_fit.py), the one-ply model gains 0.21
//! nats per move over no model, Stockfish's scores at depth 1 another 0.24. An engine's search
//! of every move costs milliseconds a board, so only the likeliest boards get it: they carry the
//! weight that decides what the bot does, and each board's children still share its weight.

use std::sync::Mutex;

use crate::chess::{Board, Move};
use crate::stop::Limits;
use crate::uci::{engine_position, find_engine, Score, SearchLimit, UciEngine, UciError};

use super::{BoardSet, OpponentModel, RbcError};

/// The deepest search an engine move scorer asks for: every move of a board is searched, so
/// the cost grows fast with depth.
pub const MAX_SCORER_DEPTH: u32 = 12;
/// The most boards one call scores: at milliseconds a board, more would take a turn's time.
pub const MAX_SCORED_BOARDS: usize = 4096;
/// A mate the engine finds, as centipawns: the one-ply score of taking the king.
const MATE_CP: f64 = 2000.0;

/// A UCI engine scoring every move of the likeliest boards of a set.
pub struct EngineMoveScorer {
    engine: Mutex<UciEngine>,
    limit: SearchLimit,
}

/// Checks an engine move scorer's settings against their bounds: `boards` in
/// 0..=[`MAX_SCORED_BOARDS`], `depth` in 1..=[`MAX_SCORER_DEPTH`], `temperature_cp` as the
/// opponent model's. The message names the setting.
pub fn check_scorer_settings(
    boards: usize,
    depth: u32,
    temperature_cp: f64,
) -> Result<(), RbcError> {
    let bad = |m: String| Err(RbcError::MalformedObservation(m));
    if boards > MAX_SCORED_BOARDS {
        return bad(format!(
            "engine_boards must be in 0..={MAX_SCORED_BOARDS}, got {boards}"
        ));
    }
    if !(1..=MAX_SCORER_DEPTH).contains(&depth) {
        return bad(format!(
            "engine_depth must be in 1..={MAX_SCORER_DEPTH}, got {depth}"
        ));
    }
    OpponentModel::new(temperature_cp, 0.0)
        .map(|_| ())
        .map_err(|m| RbcError::MalformedObservation(format!("engine_{m}")))
}

impl EngineMoveScorer {
    /// Starts `engine` (a name on `PATH` or a path) to search every move to `depth` plies.
    pub fn new(engine: &str, depth: u32) -> Result<EngineMoveScorer, RbcError> {
        check_scorer_settings(0, depth, 50.0)?;
        let path = find_engine(engine).map_err(engine_error)?;
        Ok(EngineMoveScorer {
            engine: Mutex::new(UciEngine::start(&path).map_err(engine_error)?),
            limit: SearchLimit { depth, nodes: 0 },
        })
    }

    /// Scores every move of the `boards` likeliest boards of `set` (the opponent to move) and
    /// gives them to the set for its next expansion at `temperature_cp`
    /// ([`BoardSet::set_searched_moves`]). Boards are taken likeliest first until `limits`
    /// halts; a board the engine cannot read (one where the opponent could take our king, or
    /// has no legal move) keeps the one-ply model. Returns how many boards were scored; a set
    /// without weights, or with our side to move, gets none.
    pub fn score_likeliest(
        &self,
        set: &mut BoardSet,
        boards: usize,
        temperature_cp: f64,
        limits: Limits<'_>,
    ) -> Result<usize, RbcError> {
        check_scorer_settings(boards, self.limit.depth, temperature_cp)?;
        if set.opponent_model().is_none() || set.side_to_move() == set.color() {
            return Ok(0);
        }
        let weights = set.weights();
        let mut order: Vec<usize> = (0..set.len()).collect();
        order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let mut searched = Vec::new();
        for i in order.into_iter().take(boards) {
            if limits.halt().is_some() {
                break;
            }
            let board = &set.boards()[i];
            if !engine_can_read(board) {
                continue;
            }
            match engine.score_moves(&engine_position(board), self.limit, limits) {
                Ok(scores) => searched.push((i, scores.into_iter().map(as_cp).collect())),
                Err(UciError::Stopped) => break,
                Err(e) => return Err(engine_error(e)),
            }
        }
        let scored = searched.len();
        set.set_searched_moves(searched, temperature_cp)?;
        Ok(scored)
    }
}

/// Whether `board` (the opponent to move) is a position a chess engine accepts: the side not to
/// move is not in check, and the mover has a legal move.
fn engine_can_read(board: &Board) -> bool {
    !board.king_attacked(board.turn().other()) && !board.is_terminal() && has_legal_move(board)
}

fn has_legal_move(board: &Board) -> bool {
    let mut moves = crate::chess::MoveList::new();
    board.pseudo_legal_moves(&mut moves);
    moves.iter().any(|&m| {
        let mut after = board.clone();
        after.push(Some(m));
        !after.king_attacked(board.turn())
    })
}

fn as_cp((mv, score): (Move, Score)) -> (Move, f64) {
    let cp = match score {
        Score::Centipawns(cp) => f64::from(cp).clamp(-MATE_CP, MATE_CP),
        Score::Mate(n) if n > 0 => MATE_CP,
        Score::Mate(_) => -MATE_CP,
    };
    (mv, cp)
}

fn engine_error(e: UciError) -> RbcError {
    RbcError::Engine(format!("the opponent model's engine scoring: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;
    use crate::stop::{Stop, NEVER};

    fn scorer() -> Option<EngineMoveScorer> {
        match find_engine("stockfish") {
            Ok(_) => Some(EngineMoveScorer::new("stockfish", 1).unwrap()),
            Err(_) => {
                eprintln!("no stockfish: skipped");
                None
            }
        }
    }

    /// White's set where Black's queen may take the rook on d2 or not, one board of two
    /// likelier: only that board is scored.
    #[test]
    fn the_likeliest_boards_are_scored_and_weigh_the_engines_choice() {
        let Some(scorer) = scorer() else { return };
        let hanging = "4k3/8/8/3q4/8/1P6/3R1PP1/6K1 b - - 0 1";
        let quiet = "4k3/8/8/3q4/8/1P6/5PP1/3R2K1 b - - 0 1";
        let mut set = BoardSet::from_fens(Color::White, &[hanging, quiet]).unwrap();
        set.set_opponent_model(Some(OpponentModel::new(200.0, 0.1).unwrap()));
        let n = scorer
            .score_likeliest(&mut set, 1, 50.0, Limits::new(&NEVER, None))
            .unwrap();
        assert_eq!((n, set.searched_boards()), (1, 1));
        set.handle_opponent_move_result(true, Some(11)).unwrap();
        // Qxd2 was the only move taking on d2 on the first board: a certain child.
        assert_eq!(set.len(), 1);
        assert_eq!(set.searched_boards(), 0, "the scores are used once");
    }

    #[test]
    fn scored_probabilities_follow_the_engine_not_the_material() {
        let Some(scorer) = scorer() else { return };
        // The one-ply score ties White's 20 first moves and the pass; the engine does not.
        let mut one_ply = BoardSet::start(Color::Black);
        one_ply.set_opponent_model(Some(OpponentModel::new(200.0, 0.1).unwrap()));
        let mut searched = one_ply.clone();
        scorer
            .score_likeliest(&mut searched, 1, 50.0, Limits::new(&NEVER, None))
            .unwrap();
        for set in [&mut one_ply, &mut searched] {
            set.handle_opponent_move_result(false, None).unwrap();
        }
        let spread = |set: &BoardSet| {
            let w = set.weights();
            w.iter().cloned().fold(0.0, f64::max) / w.iter().cloned().fold(1.0, f64::min)
        };
        assert!(spread(&one_ply) < 1.0 + 1e-9);
        assert!(spread(&searched) > 2.0, "spread {}", spread(&searched));
    }

    #[test]
    fn a_raised_stop_scores_nothing_and_our_turn_or_no_model_scores_nothing() {
        let Some(scorer) = scorer() else { return };
        let stop = Stop::new();
        stop.request();
        let mut set = BoardSet::start(Color::Black);
        set.set_opponent_model(Some(OpponentModel::new(200.0, 0.1).unwrap()));
        assert_eq!(
            scorer.score_likeliest(&mut set, 8, 50.0, Limits::new(&stop, None)),
            Ok(0)
        );
        let mut ours = BoardSet::start(Color::White);
        ours.set_opponent_model(Some(OpponentModel::new(200.0, 0.1).unwrap()));
        assert_eq!(
            scorer.score_likeliest(&mut ours, 8, 50.0, Limits::new(&NEVER, None)),
            Ok(0)
        );
        let mut unweighted = BoardSet::start(Color::Black);
        assert_eq!(
            scorer.score_likeliest(&mut unweighted, 8, 50.0, Limits::new(&NEVER, None)),
            Ok(0)
        );
        assert!(matches!(
            EngineMoveScorer::new("stockfish", 0),
            Err(RbcError::MalformedObservation(_))
        ));
        assert!(check_scorer_settings(MAX_SCORED_BOARDS + 1, 1, 50.0).is_err());
        assert!(check_scorer_settings(8, 1, 0.5).is_err());
        assert!(check_scorer_settings(MAX_SCORED_BOARDS, MAX_SCORER_DEPTH, 50.0).is_ok());
        assert!(matches!(
            EngineMoveScorer::new("no-such-engine-fogsearch", 1),
            Err(RbcError::Engine(_))
        ));
    }
}
