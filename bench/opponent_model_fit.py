"""How well the bot's opponent model predicts a real opponent: the mean log-likelihood per move
of the moves a player took in stored games.

Each of the player's moves is scored on the true board before it, given what its opponent (the
bot) observed of it: whether and where it took one of the bot's pieces. That is the probability
the bot's board set gives the true history's board at that step
(:meth:`fogsearch.rbc.BoardSet.handle_opponent_move_result` with the model's weights), so the
settings with the highest likelihood weigh the truth highest on average. The core's model is
scored over a grid of its two settings (``opponent_temperature_cp``,
``opponent_uniform_share``); a uniform share of 1 is the model-free baseline.

``--what-if`` also scores variants of the move score that the core does not have, re-scored
here in Python (:func:`what_if_score`), each at the bot's default settings: a check scored
without the checker's loss (in full or by half), and a threat weight (what a move from a safe
square threatens to win, times the weight), and the pass scored above a quiet move, two plies
(what a move wins less the best reply), a bonus for preparing a safe check, and the change of
placement in the core's piece-square tables. The base variant is checked against the core on
every move: the largest difference is printed and must be rounding.

``--engine-depth N`` scores every move by Stockfish at depth N instead (multipv over every legal
move), on a grid of temperatures: a ceiling for what a searched score could gain over the core's.

``--classes`` counts the player's moves by kind (a pass or failed request, a check with the
checker attacked or safe, a capture, a quiet move, one leaving its own king en prise) beside the
probability the model gives each kind on the true board, summed: where the two differ, the
model expects the wrong kind of move.

    python bench/opponent_model_fit.py bench/data/strangefish2_v2.sqlite \\
        bench/data/strangefish2.sqlite --player strangefish2 --what-if --classes --engine-depth 1
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import chess
import chess.engine
from loss_replay import player_games, read_only
from tqdm import tqdm

from fogsearch._core.rbc import pseudo_legal_moves  # the core's move list, for the softmax's n
from fogsearch._core.search import piece_square_tables
from fogsearch.analysis.losses import material
from fogsearch.bot.config import OpponentModel
from fogsearch.bot.requests import MATERIAL_CP
from fogsearch.rbc import BoardSet, capture_square, normalize_fen

TEMPERATURES_CP = (100.0, 150.0, 200.0, 300.0, 400.0, 600.0)
UNIFORM_SHARES = (0.05, 0.1, 0.2, 0.3)
DEFAULT_MODEL = (OpponentModel().opponent_temperature_cp, OpponentModel().opponent_uniform_share)
Score = Callable[[chess.Board, chess.Move | None], float]
"""A move's score on a board (None: the pass)."""

# The core's move-score terms (rust/fogsearch-core/src/rbc/opponent_model.rs), restated for the
# what-if variants only; the base variant's agreement with the core is checked on every move.
KING_TAKEN = 2000.0
KING_LEFT_EN_PRISE = -1000.0
KING_ATTACKED = 500.0


@dataclass(frozen=True)
class OpponentMove:
    """One move of the player: the true board before it (its side to move), the move taken
    (None: a pass) and the capture square the bot observed (None: nothing of the bot's taken)."""

    board: chess.Board
    taken: chess.Move | None
    capture_square: chess.Square | None
    after_fen: str


def opponent_moves(paths: list[str], player: str) -> Iterator[OpponentMove]:
    """Every move ``player`` took in the stored games of ``paths``."""
    for path in paths:
        with read_only(path) as db:
            for _, color, _, history in player_games(db, player):
                for turn in history.turns(color):
                    if not history.has_move(turn):
                        continue
                    board, taken = history.truth_board_before_move(turn), history.taken_move(turn)
                    if taken is not None and taken.to_square == board.king(not color):
                        continue  # the king's capture ends the game: no set is updated on it
                    yield OpponentMove(
                        board=board,
                        taken=taken,
                        capture_square=history.capture_square(turn),
                        after_fen=normalize_fen(history.truth_fen_after_move(turn)),
                    )


def core_log_likelihood(move: OpponentMove, model: tuple[float, float]) -> float:
    """The log of the weight the core's board set gives the true board after ``move``, expanded
    from the true board before it under ``model`` (``temperature_cp, uniform_share``) and
    filtered by the bot's observation."""
    board_set = BoardSet(not move.board.turn, [move.board.fen()])
    board_set.set_opponent_model(*model)
    board_set.handle_opponent_move_result(move.capture_square is not None, move.capture_square)
    fens = [normalize_fen(fen) for fen in board_set.fens()]
    return math.log(float(board_set.weights()[fens.index(move.after_fen)]))


def _value(piece_type: chess.PieceType) -> float:
    return float(MATERIAL_CP.get(piece_type, 0))


def _king_attacked(board: chess.Board, color: chess.Color) -> bool:
    king = board.king(color)
    return king is not None and board.is_attacked_by(not color, king)


def _threat(child: chess.Board, square: chess.Square, mover: chess.Color) -> float:
    """What the piece on ``square`` would win by taking one of the other side's pieces next (the
    king excluded): an unguarded piece whole, a guarded one less the attacker's value."""
    attacker = _value(child.piece_type_at(square))
    best = 0.0
    for target in child.attacks(square):
        piece = child.piece_at(target)
        if piece is None or piece.color == mover or piece.piece_type == chess.KING:
            continue
        guarded = bool(child.attackers(not mover, target))
        best = max(best, _value(piece.piece_type) - (attacker if guarded else 0.0))
    return best


def what_if_score(
    board: chess.Board,
    move: chess.Move | None,
    check_loss: float = 1.0,
    threat_weight: float = 0.0,
    pass_cp: float = 0.0,
    two_ply: bool = False,
    check_threat_cp: float = 0.0,
    placement_weight: float = 0.0,
) -> float:
    """The core's move score (``check_loss`` 1, ``threat_weight`` 0, ``pass_cp`` 0), with a
    checking piece's loss counted at ``check_loss`` of itself, for a move that loses nothing its
    threat added at ``threat_weight``, and the pass (``move`` None) scored ``pass_cp``.

    ``two_ply`` scores a move by what it wins less the best of the other side's replies, each
    scored by the core's one-ply score (:func:`two_ply_score`). ``check_threat_cp`` adds that
    much to a move after which the mover could check next from a square the other side does not
    attack: StrangeFish2 rewards such quiet threats on top of its engine's score.
    ``placement_weight`` adds that multiple of the moved piece's change of placement bonus in the
    core's piece-square tables (:func:`placement_change`) to a move that loses nothing."""
    if placement_weight and move is not None:
        base = what_if_score(board, move, check_loss, threat_weight, pass_cp)
        if base < 0.0 or base >= KING_TAKEN:
            return base
        return base + placement_weight * placement_change(board, move)
    if two_ply:
        return two_ply_score(board, move)
    if check_threat_cp and move is not None:
        base = what_if_score(board, move, check_loss, threat_weight, pass_cp)
        bonus = check_threat_cp if threatens_safe_check(board, move) else 0.0
        return base + bonus if -500.0 < base < 500.0 else base
    if move is None:
        return pass_cp
    mover, them = board.turn, not board.turn
    if move.to_square == board.king(them):
        return KING_TAKEN
    moved = board.piece_type_at(move.from_square)
    child = board.copy(stack=False)
    child.push(move)
    # The kings' counts cancel: a king taken has returned above.
    score = float(material(child, mover) - material(board, mover))
    if _king_attacked(child, mover):
        return score + KING_LEFT_EN_PRISE
    check = _king_attacked(child, them)
    if check:
        score += KING_ATTACKED
    landed = child.piece_type_at(move.to_square)
    if landed is None or landed == chess.KING:
        return score
    takers = child.attackers(them, move.to_square)
    if takers:
        # The king takes last: on a defended square it cannot take at all.
        cheapest = _value(min(child.piece_type_at(square) for square in takers))
        moved_value = max(_value(landed), _value(moved))
        defended = bool(child.attackers(mover, move.to_square))
        lost = max(moved_value - cheapest, 0.0) if defended else moved_value
        if check:
            lost *= check_loss
        if lost > 0:
            return score - lost
    return score + threat_weight * _threat(child, move.to_square, mover)


def _pseudo_legal(board: chess.Board) -> list[chess.Move]:
    """The core's pseudo-legal moves on ``board`` (castling through check included)."""
    return [chess.Move.from_uci(text) for text in pseudo_legal_moves(board.fen())]


@functools.cache
def _placement_tables() -> list[list[int]]:
    return piece_square_tables()[1]


def placement_change(board: chess.Board, move: chess.Move) -> float:
    """How much ``move`` raises the moved piece's placement bonus in the core's piece-square
    tables, from the mover's side (a promotion counts the new piece's bonus)."""
    tables = _placement_tables()
    mirror = 0 if board.turn == chess.WHITE else 56
    before = board.piece_type_at(move.from_square)
    after = move.promotion or before
    return float(
        tables[after - 1][move.to_square ^ mirror] - tables[before - 1][move.from_square ^ mirror]
    )


def threatens_safe_check(board: chess.Board, move: chess.Move) -> bool:
    """Whether, after ``move`` and a pass of the other side, the mover has a check from a
    square the other side does not attack (a move that checks at once does not count)."""
    mover = board.turn
    child = board.copy(stack=False)
    child.push(move)
    if _king_attacked(child, not mover) or _king_attacked(child, mover):
        return False
    child.push(chess.Move.null())
    for follow in _pseudo_legal(child):
        if child.piece_type_at(follow.from_square) == chess.KING:
            continue
        after = child.copy(stack=False)
        after.push(follow)
        if (
            _king_attacked(after, not mover)
            and not _king_attacked(after, mover)
            and not after.attackers(not mover, follow.to_square)
        ):
            return True
    return False


def two_ply_score(board: chess.Board, move: chess.Move | None) -> float:
    """What ``move`` (None: the pass) wins at once, its check bonus included, less the best of
    the other side's replies by the one-ply score (the pass among them, so never less than 0);
    a move that leaves the mover's king en prise, or takes the other king, scores as in one
    ply."""
    mover = board.turn
    if move is not None and move.to_square == board.king(not mover):
        return KING_TAKEN
    child = board.copy(stack=False)
    child.push(chess.Move.null() if move is None else move)
    score = float(material(child, mover) - material(board, mover))
    if _king_attacked(child, mover):
        return score + KING_LEFT_EN_PRISE
    if move is not None and _king_attacked(child, not mover):
        score += KING_ATTACKED
    best_reply = max((what_if_score(child, reply) for reply in _pseudo_legal(child)), default=0.0)
    return score - max(best_reply, 0.0)


ENGINE_TEMPERATURES_CP = (25.0, 50.0, 100.0, 200.0)
MATE_CP = 2000
"""A mate found by the engine, as centipawns (the core's king-capture score)."""


def engine_scores(
    board: chess.Board, engine: chess.engine.SimpleEngine, depth: int
) -> dict[chess.Move | None, float]:
    """Each of the core's pseudo-legal moves on ``board`` and the pass, scored for the mover by
    the engine at ``depth`` (every legal move searched, multipv). A move the engine cannot
    search (one chess forbids: castling through check, or leaving the king en prise; the pass)
    scores the engine's best less what the one-ply score loses against the best one-ply move;
    a board the engine cannot read at all (the other king en prise) is scored by one ply."""
    candidates: list[chess.Move | None] = [None, *_pseudo_legal(board)]
    one_ply = {m: what_if_score(board, m) for m in candidates}
    legal = list(board.legal_moves)
    if not legal or _king_attacked(board, not board.turn):
        return one_ply
    infos = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=len(legal))
    scored: dict[chess.Move | None, float] = {}
    for info in infos:
        if "pv" in info:
            score = info["score"].pov(board.turn).score(mate_score=MATE_CP)
            scored[info["pv"][0]] = float(max(-MATE_CP, min(MATE_CP, score)))
    best = max(scored.values())
    top_one_ply = max(one_ply.values())
    return {m: scored[m] if m in scored else best - (top_one_ply - one_ply[m]) for m in candidates}


def move_probabilities(
    board: chess.Board, score: Score, model: tuple[float, float]
) -> tuple[list[chess.Move | None], list[float]]:
    """The pass (None) and the core's pseudo-legal moves on ``board``, each with its probability
    under the softmax of ``score`` at ``model`` mixed with the uniform share, before any
    observation."""
    temperature, uniform = model
    candidates: list[chess.Move | None] = [None, *_pseudo_legal(board)]
    scores = [score(board, m) for m in candidates]
    top = max(scores)
    exps = [math.exp((s - top) / temperature) for s in scores]
    total = sum(exps)
    return candidates, [uniform / len(scores) + (1 - uniform) * e / total for e in exps]


def what_if_log_likelihood(
    move: OpponentMove,
    score: Score,
    model: tuple[float, float],
) -> float:
    """The log-probability of ``move`` under the softmax of ``score`` at ``model``, given the
    bot's observation, as the core forms it."""
    board = move.board
    candidates, probability = move_probabilities(board, score, model)

    def observed(m: chess.Move | None) -> chess.Square | None:
        return None if m is None else capture_square(board, m)[1]

    seen = sum(
        p
        for m, p in zip(candidates, probability, strict=True)
        if observed(m) == move.capture_square
    )
    return math.log(probability[candidates.index(move.taken)] / seen)


WHAT_IF = {
    "the core's score": {},
    "check scored without the checker's loss": {"check_loss": 0.0},
    "check with half the checker's loss": {"check_loss": 0.5},
    "threat weight 0.25": {"threat_weight": 0.25},
    "threat weight 0.5": {"threat_weight": 0.5},
    "threat weight 1": {"threat_weight": 1.0},
    "threat weight 2": {"threat_weight": 2.0},
    "the pass scored +100 cp": {"pass_cp": 100.0},
    "the pass scored +200 cp": {"pass_cp": 200.0},
    "the pass scored +300 cp": {"pass_cp": 300.0},
    "threat weight 0.5, the pass +200 cp": {"threat_weight": 0.5, "pass_cp": 200.0},
    "two plies: less the best reply": {"two_ply": True},
    "a safe check next: +100 cp": {"check_threat_cp": 100.0},
    "a safe check next: +200 cp": {"check_threat_cp": 200.0},
    "placement weight 2": {"placement_weight": 2.0},
    "placement weight 4": {"placement_weight": 4.0},
    "placement weight 8": {"placement_weight": 8.0},
    "placement weight 4, threat weight 0.5": {"placement_weight": 4.0, "threat_weight": 0.5},
}

MOVE_CLASSES = (
    "pass",
    "own king left en prise",
    "check, checker attacked",
    "check, checker safe",
    "capture",
    "quiet",
)
"""The classes of :func:`move_class`, in the order it tests them."""


def move_class(board: chess.Board, move: chess.Move | None) -> str:
    """Which of :data:`MOVE_CLASSES` ``move`` is on ``board``, the first that fits. A pass is
    also every request that fails on the board (StrangeFish2's pawn captures onto empty squares,
    which it plays as free looks): the board after it is the board before."""
    if move is None:
        return "pass"
    mover = board.turn
    child = board.copy(stack=False)
    child.push(move)
    if _king_attacked(child, mover):
        return "own king left en prise"
    if _king_attacked(child, not mover):
        attacked = bool(child.attackers(not mover, move.to_square))
        return "check, checker attacked" if attacked else "check, checker safe"
    return "capture" if board.piece_at(move.to_square) or board.is_en_passant(move) else "quiet"


def class_masses(moves: list[OpponentMove], score: Score) -> dict[str, float]:
    """Per class, the probability the model at the default settings gives it on the true board
    before each move (no observation yet), summed over ``moves``: the count it predicts."""
    masses = dict.fromkeys(MOVE_CLASSES, 0.0)
    for move in moves:
        candidates, probability = move_probabilities(move.board, score, DEFAULT_MODEL)
        for candidate, p in zip(candidates, probability, strict=True):
            masses[move_class(move.board, candidate)] += p
    return masses


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("databases", nargs="+", help="tournament SQLite files")
    parser.add_argument("--player", required=True, help="the stored player whose moves are fit")
    parser.add_argument("--what-if", action="store_true", help="also score the variants")
    parser.add_argument(
        "--classes", action="store_true", help="also count the moves by class, predicted and true"
    )
    parser.add_argument(
        "--engine-depth",
        type=int,
        default=0,
        help="also score each move by Stockfish at this depth (1-20; $STOCKFISH_EXECUTABLE)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.engine_depth <= 20:
        parser.error("--engine-depth must be in 0..20")
    moves = list(opponent_moves(args.databases, args.player))
    if not moves:
        raise SystemExit(f"no stored moves of {args.player!r}")
    print(f"{len(moves)} moves of {args.player}; mean log-likelihood per move (higher fits better)")
    print("\n| temperature (cp) | " + " | ".join(f"u = {u}" for u in UNIFORM_SHARES) + " |")
    print("|---" * (len(UNIFORM_SHARES) + 1) + "|")
    core = {}
    for temperature in TEMPERATURES_CP:
        for uniform in UNIFORM_SHARES:
            model = (temperature, uniform)
            core[model] = [core_log_likelihood(m, model) for m in moves]
        cells = [_mean(core[(temperature, u)]) for u in UNIFORM_SHARES]
        print(f"| {temperature:.0f} | " + " | ".join(f"{c:+.4f}" for c in cells) + " |")
    best = max(core, key=lambda model: _mean(core[model]))
    uniform = _mean([core_log_likelihood(m, (200.0, 1.0)) for m in moves])
    print(
        f"\nbest {best}: {_mean(core[best]):+.4f}; the default {DEFAULT_MODEL}: "
        f"{_mean(core[DEFAULT_MODEL]):+.4f}; uniform (u = 1): {uniform:+.4f}"
    )
    if args.what_if:
        _print_what_if(moves, core[DEFAULT_MODEL])
    if args.classes:
        _print_classes(moves)
    if args.engine_depth:
        _print_engine(moves, args.engine_depth)


def _print_engine(moves: list[OpponentMove], depth: int) -> None:
    """The fit of a softmax over Stockfish's scores at ``depth``, on a grid of temperatures at
    the default uniform share: how much a searched score could gain over the core's."""
    executable = os.environ.get("STOCKFISH_EXECUTABLE") or shutil.which("stockfish")
    if executable is None and os.path.exists("/usr/games/stockfish"):
        executable = "/usr/games/stockfish"
    if executable is None:
        raise SystemExit("no Stockfish: set STOCKFISH_EXECUTABLE or run scripts/install.sh")
    uniform = DEFAULT_MODEL[1]
    with chess.engine.SimpleEngine.popen_uci(executable) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        tables = [engine_scores(m.board, engine, depth) for m in tqdm(moves, desc="engine")]
    print(f"\nStockfish at depth {depth}, u = {uniform}:\n")
    print("| temperature (cp) | mean per move |")
    print("|---|---|")
    for temperature in ENGINE_TEMPERATURES_CP:
        scored = [
            what_if_log_likelihood(m, lambda _b, mv, t=table: t[mv], (temperature, uniform))
            for m, table in zip(moves, tables, strict=True)
        ]
        print(f"| {temperature:.0f} | {_mean(scored):+.4f} |")


CLASS_VARIANTS = ("the core's score", "threat weight 0.5", "the pass scored +200 cp")
"""The scores whose class counts ``--classes`` prints beside the truth."""


def _print_classes(moves: list[OpponentMove]) -> None:
    true = dict.fromkeys(MOVE_CLASSES, 0)
    for move in moves:
        true[move_class(move.board, move.taken)] += 1
    predicted = {
        name: class_masses(moves, functools.partial(what_if_score, **WHAT_IF[name]))
        for name in CLASS_VARIANTS
    }
    print(f"\nMoves by class at the default {DEFAULT_MODEL}: predicted (summed probability on")
    print("the true board before each move, no observation) and true.\n")
    print("| class | " + " | ".join(CLASS_VARIANTS) + " | true |")
    print("|---" * (len(CLASS_VARIANTS) + 1) + "|---:|")
    for name in MOVE_CLASSES:
        cells = " | ".join(f"{predicted[v][name]:.1f}" for v in CLASS_VARIANTS)
        print(f"| {name} | {cells} | {true[name]} |")


def _print_what_if(moves: list[OpponentMove], core_default: list[float]) -> None:
    checks = [
        i for i, m in enumerate(moves) if m.taken is not None and m.board.gives_check(m.taken)
    ]
    print(f"\nAt the default {DEFAULT_MODEL}; {len(checks)} of the moves give check.\n")
    print("| score | mean per move | mean per check |")
    print("|---|---|---|")
    for name, settings in WHAT_IF.items():
        variant = functools.partial(what_if_score, **settings)
        scored = [what_if_log_likelihood(m, variant, DEFAULT_MODEL) for m in moves]
        if not settings:
            gap = max(abs(a - b) for a, b in zip(scored, core_default, strict=True))
            print(f"<!-- largest difference from the core: {gap:.2e} -->")
        print(f"| {name} | {_mean(scored):+.4f} | {_mean([scored[i] for i in checks]):+.3f} |")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


if __name__ == "__main__":
    main()
