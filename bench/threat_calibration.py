"""Is the opponent model calibrated where the bot acts? After each move of the bot, the weight
its set gives to boards on which the opponent can hurt it at once, against how often the true
board was such a board. On sets larger than the search's sample, the bot's decision sees only
its ``--sample-boards`` likeliest boards (``max_search_boards``), renormalised: their share is
scored beside the whole set's (``sampled``), so what the sample leaves out is measured too.

The bot's move is a function of its set and weights alone, never of the true board, so a
calibrated model predicts the truth's frequency in every bin whatever the bot chose: if the
boards where the moved piece is attacked weigh 4 % on average, the truth should have it attacked
on about 4 % of those turns. A true rate above the weight means the model under-weighs the
opponent's threats exactly where the bot's moves run into them; the set's plain share (every
board alike) is printed beside it as the model-free prediction, and between the two the
tempered weights (each board's weight raised to a power below 1, normalised again).

Four events, each read on a board after our move (the opponent to move):

- ``moved attacked``: the opponent attacks the piece we just moved;
- ``moved en prise``: it is attacked by a cheaper piece, or attacked and not defended;
- ``piece en prise``: some knight, bishop, rook or queen of ours is en prise so;
- ``king attacked``: the opponent can take our king.

The sets are replayed exactly from the bot's observations (``fogsearch.tracking``) with the
opponent model given by ``--model`` (the bot's default when none is given; several compare);
a game's replay stops where its set would pass ``--max-boards``, and shares over sets above
``--share-boards`` are counted on an even stride of them.

    python bench/threat_calibration.py bench/data/strangefish2_v2.sqlite \\
        bench/data/strangefish2_odds.sqlite --player fogsearch --model 200,0.1 --model 200,0.3

``--king-events`` also lists each move of ours after which the opponent could take our king on
the true board: whether the check was already there unseen, the king walked into it, or a piece
of ours moved off the line, with the set's weight on such boards and the truth's rank by weight.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path

import chess
import numpy as np
from loss_replay import player_games, read_only

from fogsearch.analysis.losses import KING_CP, counted_boards
from fogsearch.arguments import bounded_int
from fogsearch.bot.config import MAX_TRACKED_BOARDS, OpponentModel, SetLimits
from fogsearch.bot.requests import MATERIAL_CP
from fogsearch.bot.tracker import likeliest
from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError, normalize_fen
from fogsearch.tracking import observations

Model = tuple[float, float]
"""``(temperature_cp, uniform_share)``, as the board set takes it."""
_BOT_MODEL = OpponentModel().model
assert _BOT_MODEL is not None, "the bot's default weighs its boards"
DEFAULT_MODEL: Model = _BOT_MODEL
BINS = (0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0)
"""Edges of the weighted-prediction bins; the last bin holds 1."""
CLAMP = 1e-3
"""Predictions are clamped to [CLAMP, 1 - CLAMP] for the log-loss: a weight of 0 on a board
that was the truth would score minus infinity."""
VALUES = {**MATERIAL_CP, chess.KING: KING_CP}
POWERS = (0.25, 0.5, 0.75)
"""Exponents of the tempered weights scored beside the model's (1) and the plain share (0): each
board's weight raised to the power and normalised again, a family between the two."""


def _en_prise(board: chess.Board, square: chess.Square, ours: chess.Color) -> bool:
    """Our piece on ``square`` can be taken at a profit: attacked by a cheaper piece, or
    attacked and not defended."""
    piece = board.piece_at(square)
    attackers = board.attackers(not ours, square)
    if piece is None or not attackers:
        return False
    cheapest = min(VALUES[board.piece_type_at(a)] for a in attackers)
    return cheapest < VALUES[piece.piece_type] or not board.is_attacked_by(ours, square)


def _moved_attacked(board: chess.Board, square: chess.Square | None, ours: chess.Color) -> bool:
    return square is not None and board.is_attacked_by(not ours, square)


def _moved_en_prise(board: chess.Board, square: chess.Square | None, ours: chess.Color) -> bool:
    return square is not None and _en_prise(board, square, ours)


def _piece_en_prise(board: chess.Board, _square: chess.Square | None, ours: chess.Color) -> bool:
    pieces = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
    return any(_en_prise(board, s, ours) for kind in pieces for s in board.pieces(kind, ours))


def _king_attacked(board: chess.Board, _square: chess.Square | None, ours: chess.Color) -> bool:
    king = board.king(ours)
    return king is not None and board.is_attacked_by(not ours, king)


Event = Callable[[chess.Board, chess.Square | None, chess.Color], bool]
EVENTS: dict[str, Event] = {
    "moved attacked": _moved_attacked,
    "moved en prise": _moved_en_prise,
    "piece en prise": _piece_en_prise,
    "king attacked": _king_attacked,
}


@dataclass(frozen=True)
class Prediction:
    """One turn and event: the set's weighted and plain share of boards with the event, and
    whether the true board had it."""

    weighted: float
    share: float
    truth: bool
    tempered: tuple[float, ...] = ()
    """The weighted share with the weights raised to each of :data:`POWERS`."""
    sampled: float = 0.0
    """The weighted share over the boards the bot's search judges (:func:`judged_sample`)."""


SAMPLE_BOARDS = SetLimits().max_search_boards


def judged_sample(board_set: BoardSet, size: int) -> BoardSet:
    """The boards the bot's search judges on ``board_set``: all of them, or the ``size``
    likeliest, their weights renormalised (``fogsearch.bot.tracker.weighted_sample``; the bot
    breaks ties in weight by a seeded draw, this by the set's order). Taken from the set after
    our move, they are the likeliest boards of the set the bot judged, as far as our move's
    result left them standing."""
    weights = board_set.weights()
    if len(weights) <= size:
        return board_set
    return board_set.subset(judged_indices(weights, size).tolist())


def judged_indices(weights: np.ndarray, size: int) -> np.ndarray:
    """The indices of :func:`judged_sample`'s boards in a set weighted ``weights`` (every index
    when there are at most ``size``)."""
    if len(weights) <= size:
        return np.arange(len(weights))
    return likeliest(weights, size, np.arange(len(weights)))


def turn_predictions(
    board_set: BoardSet,
    truth: chess.Board,
    moved_to: chess.Square | None,
    share_boards: int,
    sample_boards: int = SAMPLE_BOARDS,
) -> dict[str, Prediction]:
    """Each event's prediction by the set after our move (opponent to move) and the truth."""
    counted = counted_boards(board_set, share_boards)
    boards = counted.to_boards()
    every = counted is board_set
    weights = counted.weights()
    chosen = judged_indices(weights if every else board_set.weights(), sample_boards)
    # When every board is counted the judged ones are among them, their events already read.
    sample = None if every else board_set.subset(chosen.tolist())
    sample_list = [] if sample is None else sample.to_boards()
    ours = not truth.turn
    found = {}
    for name, event in EVENTS.items():
        has = np.array([event(board, moved_to, ours) for board in boards], dtype=bool)
        weighted, tempered = weighted_shares(weights, has)
        if sample is None:
            sampled = weighted_shares(weights[chosen], has[chosen])[0]
        else:
            in_sample = np.array([event(b, moved_to, ours) for b in sample_list], dtype=bool)
            sampled = weighted_shares(sample.weights(), in_sample)[0]
        found[name] = Prediction(
            weighted, float(has.mean()), event(truth, moved_to, ours), tempered, sampled
        )
    return found


def weighted_shares(weights: np.ndarray, has: np.ndarray) -> tuple[float, tuple[float, ...]]:
    """The weight of the boards in ``has`` (a mask), the weights normalised; then the same with
    the weights raised to each of :data:`POWERS` and normalised again."""
    weights = np.asarray(weights, dtype=np.float64)
    shares = []
    for power in (1.0, *POWERS):
        tempered = weights**power
        shares.append(float(tempered[has].sum() / tempered.sum()))
    return shares[0], tuple(shares[1:])


@dataclass(frozen=True)
class AfterOurMove:
    """One of our moves replayed: the set after it (opponent to move), the true board we faced
    and the one our move made, the move taken (None: none) and the turn's number."""

    board_set: BoardSet
    faced: chess.Board
    truth: chess.Board
    taken: chess.Move | None
    turn: int

    @property
    def moved_to(self) -> chess.Square | None:
        return self.taken.to_square if self.taken is not None else None


def replayed_moves(
    history, color: chess.Color, model: Model, max_boards: int
) -> Iterator[AfterOurMove]:
    """Each of ``color``'s moves in ``history``, its set replayed under ``model``, until the set
    would pass ``max_boards`` or our move took their king."""
    board_set = BoardSet(color, max_boards=max_boards)
    board_set.set_opponent_model(*model)
    faced = None
    for seen in observations(history, color):
        try:
            seen.apply(board_set)
        except BoardSetTooLargeError:
            return
        move = seen.observation
        if not isinstance(move, MoveResult):
            faced = seen.truth_fen
            continue
        truth = chess.Board(seen.truth_fen)
        if truth.king(not color) is None:
            return  # our move took their king: the game is over
        yield AfterOurMove(board_set, chess.Board(faced), truth, move.taken, seen.turn_number)


def game_predictions(
    history,
    color: chess.Color,
    model: Model,
    max_boards: int,
    share_boards: int,
    sample_boards: int = SAMPLE_BOARDS,
) -> Iterator[dict[str, Prediction]]:
    """The predictions after each of ``color``'s moves in ``history``, until its set would pass
    ``max_boards``."""
    for move in replayed_moves(history, color, model, max_boards):
        yield turn_predictions(
            move.board_set, move.truth, move.moved_to, share_boards, sample_boards
        )


@dataclass(frozen=True)
class KingEvent:
    """A move of ours after which the opponent could take our king on the true board: how
    (:func:`king_event`), the set's size, the weight and sampled weight of its boards where our
    king can be taken, and the true board's weight and rank by weight (0: the likeliest).
    ``turn`` is the game history's turn number, from 0 (the bot's turn log counts from 1)."""

    turn: int
    kind: str
    boards: int
    weighted: float
    sampled: float
    truth_weight: float
    truth_rank: int


def king_event(move: AfterOurMove, king: Prediction) -> KingEvent | None:
    """The :class:`KingEvent` of ``move`` (``king``: its ``king attacked`` prediction), or None
    when the truth left our king safe. Its kind:
    ``unseen check`` (our king was attacked before our move, which did not answer it), ``king
    walked in`` (the king moved to an attacked square), or ``line opened`` (another piece moved
    off a line to our king)."""
    ours = not move.truth.turn
    if not _king_attacked(move.truth, None, ours):
        return None
    if _king_attacked(move.faced, None, ours):
        kind = "unseen check"
    elif move.taken is not None and move.faced.piece_type_at(move.taken.from_square) == chess.KING:
        kind = "king walked in"
    else:
        kind = "line opened"
    weights = move.board_set.weights()
    fens = [normalize_fen(fen) for fen in move.board_set.fens()]
    truth_weight = float(weights[fens.index(normalize_fen(move.truth.fen()))])
    return KingEvent(
        move.turn,
        kind,
        len(fens),
        king.weighted,
        king.sampled,
        truth_weight,
        int((weights > truth_weight).sum()),
    )


@dataclass
class Tally:
    """An event's predictions over many turns, split by weighted-prediction bin."""

    rows: list[Prediction] = field(default_factory=list)

    def uncertain(self) -> list[Prediction]:
        """Turns whose set did not settle the event (neither no board nor every board)."""
        return [p for p in self.rows if 0.0 < p.share < 1.0]


def bin_of(weighted: float) -> int:
    """The index of ``weighted``'s bin in :data:`BINS` (1 falls in the last)."""
    return min(len(BINS) - 2, int(np.searchsorted(BINS, weighted, side="right")) - 1)


def log_loss(predictions: list[float], truths: list[bool]) -> float:
    """Mean negative log-likelihood of ``truths`` under ``predictions`` (lower is better)."""
    total = 0.0
    for p, t in zip(predictions, truths, strict=True):
        p = min(1.0 - CLAMP, max(CLAMP, p))
        total -= math.log(p if t else 1.0 - p)
    return total / max(1, len(truths))


def table(name: str, tally: Tally) -> str:
    """The markdown table of one event: per bin of the weighted prediction, the turns, the mean
    weighted and plain predictions and the true rate; then the totals and log-losses."""
    rows = tally.uncertain()
    lines = [
        f"**{name}**: {len(rows)} of {len(tally.rows)} turns uncertain",
        "",
        "| weighted | turns | mean weighted | mean sampled | mean share | true rate |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for index in range(len(BINS) - 1):
        chosen = [p for p in rows if bin_of(p.weighted) == index]
        if not chosen:
            continue
        lines.append(
            f"| {BINS[index]:.0%}-{BINS[index + 1]:.0%} | {len(chosen)} "
            f"| {np.mean([p.weighted for p in chosen]):.3f} "
            f"| {np.mean([p.sampled for p in chosen]):.3f} "
            f"| {np.mean([p.share for p in chosen]):.3f} "
            f"| {np.mean([p.truth for p in chosen]):.3f} |"
        )
    truths = [p.truth for p in rows]
    lines.append(
        f"| all | {len(rows)} | {sum(p.weighted for p in rows):.1f} "
        f"| {sum(p.sampled for p in rows):.1f} "
        f"| {sum(p.share for p in rows):.1f} | {sum(truths)} |"
    )
    lines += [
        "",
        f"Log-loss: weighted {log_loss([p.weighted for p in rows], truths):.4f}, "
        f"sampled {log_loss([p.sampled for p in rows], truths):.4f}, "
        f"share {log_loss([p.share for p in rows], truths):.4f} (the `all` row sums them).",
        "Tempered weights (power: sum predicted, log-loss): "
        + ", ".join(
            f"{power:g}: {sum(p.tempered[i] for p in rows):.1f}, "
            f"{log_loss([p.tempered[i] for p in rows], truths):.4f}"
            for i, power in enumerate(POWERS)
        )
        + ".",
    ]
    return "\n".join(lines)


def _model(text: str) -> Model:
    """``TEMPERATURE_CP,UNIFORM_SHARE``, checked as the bot's config checks them."""
    try:
        parts = [float(part) for part in text.split(",")]
        if len(parts) != 2:
            raise ValueError("two numbers")
        names = [f.name for f in fields(OpponentModel)]
        model = OpponentModel(**dict(zip(names, parts, strict=False))).model
        if model is None:
            raise ValueError("the temperature must not be 0")
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"a model is TEMPERATURE_CP,UNIFORM_SHARE, got {text!r} ({error})"
        ) from None
    return model


BOARDS = bounded_int(1, MAX_TRACKED_BOARDS, "the bot's own bound on a tracked set", what="a count")


def king_events_table(events: list[tuple[str, KingEvent]]) -> str:
    """The markdown table of ``(game, event)`` rows, then the count of each kind."""
    lines = [
        f"**our king attackable after our move**: {len(events)} turns",
        "",
        "| game | turn | kind | boards | weighted | sampled | truth's weight | truth's rank |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for game, e in events:
        lines.append(
            f"| {game} | {e.turn} | {e.kind} | {e.boards} | {e.weighted:.3f} | {e.sampled:.3f} "
            f"| {e.truth_weight:.4f} | {e.truth_rank} |"
        )
    kinds = sorted({e.kind for _, e in events})
    counts = ", ".join(f"{kind} {sum(e.kind == kind for _, e in events)}" for kind in kinds)
    return "\n".join([*lines, "", f"By kind: {counts or 'none'}."])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("databases", nargs="+", help="tournament databases (SQLite)")
    parser.add_argument("--player", required=True, help="the bot's player name in them")
    parser.add_argument(
        "--model", type=_model, action="append", help="TEMPERATURE_CP,UNIFORM_SHARE"
    )
    parser.add_argument("--max-boards", type=BOARDS, default=1_000_000)
    parser.add_argument("--share-boards", type=BOARDS, default=20_000)
    parser.add_argument("--sample-boards", type=BOARDS, default=SAMPLE_BOARDS)
    parser.add_argument(
        "--king-events", action="store_true", help="also list each turn our king was attackable"
    )
    args = parser.parse_args(argv)
    for model in args.model or [DEFAULT_MODEL]:
        tallies = {name: Tally() for name in EVENTS}
        events: list[tuple[str, KingEvent]] = []
        games = 0
        for path in args.databases:
            with read_only(path) as db:
                for index, color, _, history in player_games(db, args.player):
                    games += 1
                    for move in replayed_moves(history, color, model, args.max_boards):
                        turn = turn_predictions(
                            move.board_set,
                            move.truth,
                            move.moved_to,
                            args.share_boards,
                            args.sample_boards,
                        )
                        for name, prediction in turn.items():
                            tallies[name].rows.append(prediction)
                        event = args.king_events and king_event(move, turn["king attacked"])
                        if event:
                            events.append((f"{Path(path).stem} {index}", event))
        print(f"### model: {model[0]:g} cp, uniform share {model[1]:g}; {games} games\n")
        for name, tally in tallies.items():
            print(table(name, tally), "\n")
        if args.king_events:
            print(king_events_table(events), "\n")


if __name__ == "__main__":
    main()
