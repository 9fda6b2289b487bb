//! How likely each of the opponent's moves is on a board: the weights a board set keeps through
//! its expansions.
//!
//! A board's weight is the probability of the history that leads to it: each expansion gives a
//! child its parent's weight times the probability of the opponent's move, and positions reached
//! by several histories sum their weights; observations then drop boards, and the weights are
//! renormalised (Bayes' rule, the observation being certain). The move model is a softmax over a
//! static score of every move the opponent may take on the board (the pass included), mixed with
//! the uniform distribution so that no board's weight vanishes under a wrong model:
//!
//! `p(m) = uniform_share / n + (1 - uniform_share) * exp(s(m) / T) / Σ exp(s / T)`
//!
//! The score `s(m)` is what the move wins at once, from the mover's side: the material it captures
//! (or promotes to), less the moved piece's value where our pieces then take it for free or for
//! less, with a large penalty for leaving its own king en prise and a large bonus for taking our
//! king (a board where the opponent could have taken our king, and the game went on, is
//! unlikely). A move that attacks our king scores a bonus on top: in RBC a check we do not see
//! loses the king next turn, so opponents seek checks even where our pieces could take the
//! checker (AttackerBot's knight rush, Nh4-f3 into a pawn's attack, was weighed as a knight
//! thrown away, and the boards with it were left out of those we judged on). Scores see the
//! board; what the opponent knew of it is not modelled. A term for what a quiet move threatens
//! to win was tried and lost its sequential test (bench/NOTEBOOK.md, "the threat weight").

use crate::chess::{Board, Color, Move, MoveList, PieceType, MATERIAL_POINTS};

/// The score of a move that leaves the mover's own king en prise.
const KING_LEFT_EN_PRISE: f64 = -1000.0;
/// The score of a move that takes our king.
const KING_TAKEN: f64 = 2000.0;
/// What attacking our king adds to a move's score: a rook's worth, so that a check with a minor
/// piece into a pawn's attack still outscores a quiet move (by 200 cp, 2.7 times as likely at
/// the bot's 200 cp temperature), and a queen check into our king's reach does not.
const KING_ATTACKED: f64 = 500.0;

/// The softmax temperature and the uniform share of the move model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpponentModel {
    /// Centipawns per unit of log-probability: lower trusts the scores more.
    pub temperature_cp: f64,
    /// The share of each move's probability spread evenly over every move, in [0, 1].
    pub uniform_share: f64,
}

impl OpponentModel {
    /// The model, if its settings are in bounds; a message naming the setting otherwise.
    pub fn new(temperature_cp: f64, uniform_share: f64) -> Result<OpponentModel, String> {
        if !(temperature_cp.is_finite() && (1.0..=100_000.0).contains(&temperature_cp)) {
            return Err(format!(
                "temperature_cp must be in 1..100000 centipawns, got {temperature_cp}"
            ));
        }
        if !(0.0..=1.0).contains(&uniform_share) {
            return Err(format!(
                "uniform_share must be in [0, 1], got {uniform_share}"
            ));
        }
        Ok(OpponentModel {
            temperature_cp,
            uniform_share,
        })
    }

    /// The score of `mv` on `board` under this model: [`move_score`]; the pass (`None`) scores
    /// 0, as a quiet move does.
    pub fn score(&self, board: &Board, mv: Option<Move>) -> f64 {
        mv.map_or(0.0, |mv| move_score(board, mv))
    }

    /// Every move the opponent may take on `board` (theirs to move; `None` is the pass), with
    /// its probability. `moves` is scratch space.
    pub fn move_probabilities(
        &self,
        board: &Board,
        moves: &mut MoveList,
    ) -> Vec<(Option<Move>, f64)> {
        let scored = self.scores(board, moves);
        self.softmax(scored)
    }

    /// Every move the opponent may take on `board` and the pass, each with [`OpponentModel::score`].
    fn scores(&self, board: &Board, moves: &mut MoveList) -> Vec<(Option<Move>, f64)> {
        moves.clear();
        board.pseudo_legal_moves(moves);
        std::iter::once(None)
            .chain(moves.iter().map(|&m| Some(m)))
            .map(|m| (m, self.score(board, m)))
            .collect()
    }

    /// The scores' softmax at the model's temperature, mixed with the uniform share.
    fn softmax(&self, mut scored: Vec<(Option<Move>, f64)>) -> Vec<(Option<Move>, f64)> {
        let top = scored
            .iter()
            .map(|&(_, s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for (_, s) in scored.iter_mut() {
            *s = ((*s - top) / self.temperature_cp).exp();
            total += *s;
        }
        let even = self.uniform_share / scored.len() as f64;
        for (_, s) in scored.iter_mut() {
            *s = even + (1.0 - self.uniform_share) * *s / total;
        }
        scored
    }
}

/// What `mv` wins at once for the side to move on `board` (see the module documentation).
pub fn move_score(board: &Board, mv: Move) -> f64 {
    let mover = board.turn();
    let them = mover.other();
    if Some(mv.to) == board.king_square(them) {
        return KING_TAKEN;
    }
    let Some(moved) = board.piece_at(mv.from) else {
        return 0.0;
    };
    let mut child = board.clone();
    child.push(Some(mv));
    // The material count (the king's capture is scored apart).
    let material = |b: &Board, color: Color| -> f64 {
        PieceType::ALL
            .iter()
            .map(|&p| points(p) * b.pieces_of(p, color).count() as f64)
            .sum()
    };
    // Captures (e.p. included) and promotions, as the material they change.
    let mut score = (material(board, them) - material(&child, them))
        + (material(&child, mover) - material(board, mover));
    if child.king_attacked(mover) {
        return score + KING_LEFT_EN_PRISE;
    }
    if child.king_attacked(them) {
        score += KING_ATTACKED;
    }
    if let Some(landed) = child
        .piece_at(mv.to)
        .filter(|p| p.piece_type != PieceType::King)
    {
        let occupied = child.occupied();
        let attackers = child.attackers_to(mv.to, occupied);
        let takers = attackers & child.by_color(them);
        if takers.any() {
            let cheapest = PieceType::ALL
                .into_iter()
                .find(|&p| (takers & child.pieces_of(p, them)).any())
                .map_or(0.0, points);
            let defended = (attackers & child.by_color(mover)).any();
            let moved_value = points(landed.piece_type).max(points(moved.piece_type));
            let lost = if defended {
                (moved_value - cheapest).max(0.0)
            } else {
                moved_value
            };
            if lost > 0.0 {
                return score - lost;
            }
        }
    }
    score
}

/// A piece's material points, as a score.
fn points(piece_type: PieceType) -> f64 {
    f64::from(MATERIAL_POINTS[piece_type.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probabilities(fen: &str, model: OpponentModel) -> Vec<(Option<Move>, f64)> {
        let board = Board::from_fen(fen).unwrap();
        model.move_probabilities(&board, &mut MoveList::new())
    }

    fn of(probabilities: &[(Option<Move>, f64)], uci: &str) -> f64 {
        let mv = Move::from_uci(uci).ok();
        probabilities.iter().find(|(m, _)| *m == mv).unwrap().1
    }

    #[test]
    fn probabilities_sum_to_one_and_the_uniform_share_is_a_floor() {
        let model = OpponentModel::new(100.0, 0.2).unwrap();
        let p = probabilities("4k3/8/8/3q4/8/8/3R4/4K3 b - - 0 1", model);
        let total: f64 = p.iter().map(|(_, x)| x).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let floor = 0.2 / p.len() as f64;
        assert!(p.iter().all(|&(_, x)| x >= floor));
    }

    #[test]
    fn a_free_rook_is_likelier_than_a_queen_move_into_a_pawns_attack() {
        let model = OpponentModel::new(100.0, 0.0).unwrap();
        // Black's queen can take the rook on d2 (defended by nothing) or step to c4, where the
        // pawn on b3 takes it; the f2 and g2 pawns keep it from checking.
        let p = probabilities("4k3/8/8/3q4/8/1P6/3R1PP1/6K1 b - - 0 1", model);
        assert!(of(&p, "d5d2") > 0.8);
        assert!(of(&p, "d5c4") < 1e-3 * of(&p, "d5a5"));
        assert!(of(&p, "0000") > of(&p, "d5c4"));
    }

    #[test]
    fn taking_our_king_dominates_and_leaving_theirs_en_prise_is_unlikely() {
        let model = OpponentModel::new(100.0, 0.0).unwrap();
        let p = probabilities("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", model);
        assert!(of(&p, "a1e1") > 0.999);
        let q = probabilities("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", model);
        // The king steps off the e-file rather than along it.
        assert!(of(&q, "e8e7") < 1e-3 * of(&q, "e8d8"));
    }

    /// AttackerBot's rush: Black's knight on h4 may check from f3, where White's g2 pawn takes it
    /// if White knows it is there, step to g6 (quiet), or take the g2 pawn with check, where the
    /// bishop on f1 takes it.
    const RUSH: &str = "rnbqkb1r/pppppppp/8/8/7n/2N1P3/PPPPNPPP/R1BQKB1R b KQkq - 5 4";

    #[test]
    fn a_check_is_likelier_than_a_quiet_move_even_into_a_pawns_attack() {
        let model = OpponentModel::new(200.0, 0.0).unwrap();
        let p = probabilities(RUSH, model);
        assert!(of(&p, "h4f3") > 2.5 * of(&p, "h4g6"));
        let board = Board::from_fen(RUSH).unwrap();
        let score = |uci: &str| move_score(&board, Move::from_uci(uci).unwrap());
        assert_eq!(score("h4f3"), KING_ATTACKED - 300.0);
        assert_eq!(score("h4g6"), 0.0);
        assert_eq!(score("h4g2"), 100.0 + KING_ATTACKED - 300.0); // a pawn taken, with check
    }

    use crate::rbc::BoardSet;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn a_first_expansion_weighs_each_child_by_its_move() {
        let model = OpponentModel::new(100.0, 0.3).unwrap();
        let mut set = BoardSet::start(Color::Black);
        set.set_opponent_model(Some(model));
        set.handle_opponent_move_result(false, None).unwrap();
        let expected: Vec<f64> = model
            .move_probabilities(&Board::start(), &mut MoveList::new())
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        let mut got = set.weights();
        let mut want = expected.clone();
        got.sort_by(f64::total_cmp);
        want.sort_by(f64::total_cmp);
        assert!(close(&got, &want), "{got:?} {want:?}");
    }

    #[test]
    fn weights_follow_bayes_rule_through_expansion_sense_and_move() {
        // Brute force over histories: the weight of a board is the sum over the histories that
        // reach it of the product of their moves' probabilities, renormalised over the boards
        // the observations keep.
        let model = OpponentModel::new(80.0, 0.1).unwrap();
        let start = Board::from_fen("r3k3/1p6/8/8/8/8/1P6/R3K3 w - - 0 1").unwrap();
        let mut set = BoardSet::new(Color::White, vec![start.clone()]).unwrap();
        set.set_opponent_model(Some(model));
        let request = Some(Move::from_uci("a1a7").unwrap());
        set.handle_move_result(request, request, false, None)
            .unwrap();
        set.handle_opponent_move_result(false, None).unwrap();
        let mut after = start.clone();
        after.push(request);
        let mut expected: Vec<(Board, f64)> = Vec::new();
        for (mv, p) in model.move_probabilities(&after, &mut MoveList::new()) {
            let mut child = after.clone();
            if mv.is_some_and(|m| crate::rbc::capture_square(&after, m).is_some()) {
                continue;
            }
            child.push(mv);
            match expected.iter_mut().find(|(b, _)| b.same_position(&child)) {
                Some((_, w)) => *w += p,
                None => expected.push((child, p)),
            }
        }
        let total: f64 = expected.iter().map(|(_, w)| w).sum();
        assert_eq!(set.len(), expected.len());
        for (board, weight) in set.boards().iter().zip(set.weights()) {
            let want = expected
                .iter()
                .find(|(b, _)| b.same_position(board))
                .unwrap()
                .1
                / total;
            assert!((weight - want).abs() < 1e-12);
        }
        // A sense keeps a subset; its weights are renormalised in proportion.
        let before: Vec<(Board, f64)> = set.boards().iter().cloned().zip(set.weights()).collect();
        set.handle_sense_result(&[(crate::chess::parse_square("b7").unwrap(), None)])
            .unwrap();
        let kept: f64 = before
            .iter()
            .filter(|(b, _)| set.boards().iter().any(|k| k.same_position(b)))
            .map(|(_, w)| w)
            .sum();
        for (board, weight) in set.boards().iter().zip(set.weights()) {
            let prior = before
                .iter()
                .find(|(b, _)| b.same_position(board))
                .unwrap()
                .1;
            assert!((weight - prior / kept).abs() < 1e-12);
        }
    }

    #[test]
    fn weights_do_not_depend_on_the_thread_count_and_survive_bytes_and_subsets() {
        let model = OpponentModel::new(150.0, 0.1).unwrap();
        let expanded = |threads: usize| {
            crate::pool::install(threads, || {
                let mut set = BoardSet::start(Color::White);
                set.set_opponent_model(Some(model));
                let e2e4 = Some(Move::from_uci("e2e4").unwrap());
                set.handle_move_result(e2e4, e2e4, false, None).unwrap();
                set.handle_opponent_move_result(false, None).unwrap();
                let d2d4 = Some(Move::from_uci("d2d4").unwrap());
                set.handle_move_result(d2d4, d2d4, false, None).unwrap();
                set.handle_opponent_move_result(false, None).unwrap();
                set
            })
            .unwrap()
        };
        let serial = expanded(1);
        let parallel = expanded(4);
        assert!(serial.len() > 128, "the set must be large enough to split");
        assert_eq!(serial.boards(), parallel.boards());
        assert!(close(&serial.weights(), &parallel.weights()));
        let back = BoardSet::from_bytes(&serial.to_bytes()).unwrap();
        assert!(close(&back.weights(), &serial.weights()));
        assert_eq!(back.opponent_model(), Some(model));
        let sub = serial.subset(&[3, 1, 3]).unwrap();
        let w = serial.weights();
        assert!(close(
            &sub.weights(),
            &[w[3] / (w[1] + w[3]), w[1] / (w[1] + w[3])]
        ));
    }

    #[test]
    fn settings_out_of_bounds_are_refused() {
        assert!(OpponentModel::new(0.0, 0.1).is_err());
        assert!(OpponentModel::new(f64::NAN, 0.1).is_err());
        assert!(OpponentModel::new(100.0, 1.5).is_err());
        assert!(OpponentModel::new(100.0, 0.1).is_ok());
    }
}
