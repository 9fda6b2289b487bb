"""Does the search's sample hide the boards on which a losing move was refuted?

Above ``max_search_boards`` (256) boards the bot judges its requests on a sample of its set: the
256 likeliest under its opponent model. For every turn of the named player after which the
opponent's reply took material on the true board (the turns of ``fogsearch losses``), this
replays the player's set up to that move exactly, with the bot's default opponent model for its
weights, and asks on which boards the move it played was refuted: its value at ``--plies`` (2)
plies (``fogsearch.search.board_table``) a pawn or more below the board's best request. It prints
the refuted share (by weight) over the whole set, over the 256 likeliest (their weights
renormalised) and over a 256-point weighted draw (systematic resampling, the share of the draws
each board took), with the weight the likeliest hold. A move refuted on a fair share of the whole
set but on little of the likeliest was a risk the sample hid from the search; a weighted draw
estimates the whole set's share without bias.

    python bench/sample_refutation.py data/strangefish2_odds.sqlite data/strangefish2_v2.sqlite \
        --player fogsearch
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
from dataclasses import dataclass

import chess
import numpy as np
from loss_replay import player_games, read_only
from reconchess.history import Turn

from fogsearch.analysis.losses import DEFAULT_MAX_BOARDS, DEFAULT_MODEL, material
from fogsearch.bot.tracker import likeliest
from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.search import board_table
from fogsearch.tracking import observations

SAMPLE = 256
"""The bot's default ``max_search_boards``."""
REFUTED_CP = 100
"""A move is refuted on a board where it scores at least this much below the board's best
request."""
MOST_BOARDS = 20_000
"""The whole set's share of a larger set is counted on an even stride of this many boards."""
GAMBLE = (0.01, 0.5)
"""A move refuted on a share of the whole set in this range was a bet on the set, not a blunder
on every board nor a surprise on none."""


@dataclass
class Refutation:
    game: int
    turn: int
    move: str
    boards: int
    likeliest_weight: float
    """The weight the ``SAMPLE`` likeliest boards hold."""
    whole: float
    likeliest: float
    draw: float


def refuted_boards(board_set: BoardSet, move: chess.Move | None, plies: int) -> np.ndarray:
    """Per board of ``board_set`` (ours to move), whether ``move`` scores at least
    ``REFUTED_CP`` below the board's best request at ``plies`` plies."""
    requests = board_table(board_set, most_plies=0, least_plies=0).requests
    if move not in requests:  # a request no board allows (taken as a pass) still has a value
        requests.append(move)
    table = board_table(board_set, requests, most_plies=plies, least_plies=plies)
    row = table.values[table.requests.index(move)]
    return row <= table.values.max(axis=0) - REFUTED_CP


def systematic_draw(weights: np.ndarray, size: int, rng: random.Random) -> np.ndarray:
    """Each board's share of ``size`` draws in proportion to ``weights``: one uniform offset and
    ``size`` evenly spaced points on the cumulative weight, so a board weighing ``w`` (of a total
    of 1) takes ``floor(size w)`` or ``ceil(size w)`` of them and the shares are unbiased for
    the weights."""
    cumulative = np.cumsum(weights) / weights.sum()
    points = (np.arange(size) + rng.random()) / size
    drawn = np.minimum(np.searchsorted(cumulative, points, side="right"), len(weights) - 1)
    return np.bincount(drawn, minlength=len(weights)) / size


def whole_indices(boards: int) -> np.ndarray:
    """The boards the whole set's share is counted on: all, or an even stride of
    ``MOST_BOARDS``."""
    if boards <= MOST_BOARDS:
        return np.arange(boards)
    return np.unique(np.linspace(0, boards - 1, MOST_BOARDS).round().astype(int))


def judge(board_set: BoardSet, move: chess.Move | None, plies: int, rng: random.Random):
    """``move``'s refuted share over ``board_set`` (by weight), over its ``SAMPLE`` likeliest
    boards (renormalised) and over a weighted draw of ``SAMPLE``; and the weight the likeliest
    hold. Only the boards a share needs are judged: the whole set's stride, the likeliest, the
    drawn."""
    weights = board_set.weights()
    weights = weights / weights.sum()
    stride = whole_indices(len(weights))
    top = likeliest(weights, SAMPLE, np.arange(len(weights), dtype=float))
    drawn = systematic_draw(weights, SAMPLE, rng)
    needed = np.union1d(np.union1d(stride, top), np.flatnonzero(drawn))
    refuted = np.zeros(len(weights), dtype=bool)
    refuted[needed] = refuted_boards(board_set.subset(needed.tolist()), move, plies)
    on_stride = weights[stride]
    return (
        float(on_stride[refuted[stride]].sum() / on_stride.sum()),
        float(weights[top][refuted[top]].sum() / weights[top].sum()),
        float(drawn[refuted].sum()),
        float(weights[top].sum()),
    )


def _reply_took_material(history, color: chess.Color, seen) -> bool:
    """Whether the opponent's move after ours (``seen``, our move's result) lowered our true
    material."""
    reply = Turn(not color, seen.turn_number + (0 if color == chess.WHITE else 1))
    if not history.has_move(reply) or history.taken_move(reply) is None:
        return False
    after_move = chess.Board(seen.truth_fen)
    return material(history.truth_board_after_move(reply), color) < material(after_move, color)


def refutations(game: int, history, color: chess.Color, plies: int, seed: int):
    """A :class:`Refutation` for every move of ``color`` after which the reply took material,
    until the set grows past the tracker's bound."""
    board_set = BoardSet(color, max_boards=DEFAULT_MAX_BOARDS)
    board_set.set_opponent_model(*DEFAULT_MODEL)
    for seen in observations(history, color):
        if isinstance(seen.observation, MoveResult) and _reply_took_material(history, color, seen):
            move = seen.observation.requested
            rng = random.Random(f"{seed}-{game}-{seen.turn_number}")
            whole, top, draw, held = judge(board_set, move, plies, rng)
            name = move.uci() if move else "pass"
            yield Refutation(
                game, seen.turn_number + 1, name, len(board_set), held, whole, top, draw
            )
        try:
            seen.apply(board_set)
        except BoardSetTooLargeError:
            return


def summary(rows: list[Refutation], label: str) -> str:
    if not rows:
        return f"{label}: none"
    mean = {k: statistics.mean(getattr(r, k) for r in rows) for k in ("whole", "likeliest", "draw")}
    refuted = [r for r in rows if r.whole > 0]
    hid = sum(r.likeliest <= r.whole / 2 for r in refuted)
    drew = sum(r.draw <= r.whole / 2 for r in refuted)
    return (
        f"{label} ({len(rows)} turns): mean refuted share whole {mean['whole']:.3f}, "
        f"likeliest {mean['likeliest']:.3f}, draw {mean['draw']:.3f}; of the {len(refuted)} "
        f"refuted somewhere, half the whole's share or less on the likeliest {hid}, "
        f"on the draw {drew}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+", help="tournament SQLite files")
    parser.add_argument("--player", required=True, help="the player's name in the databases")
    parser.add_argument("--plies", type=int, default=2, choices=range(1, 5))
    parser.add_argument("--seed", type=int, default=0, help="seeds the weighted draws")
    args = parser.parse_args()
    rows: list[Refutation] = []
    print(
        "| database | game | turn | move | boards | likeliest hold "
        "| refuted: whole | likeliest | draw |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for path in args.databases:
        db: sqlite3.Connection = read_only(path)
        for index, color, _, history in player_games(db, args.player):
            for r in refutations(index + 1, history, color, args.plies, args.seed):
                rows.append(r)
                print(
                    f"| {path} | {r.game} | {r.turn} | {r.move} | {r.boards} | "
                    f"{r.likeliest_weight:.2f} | {r.whole:.3f} | {r.likeliest:.3f} | "
                    f"{r.draw:.3f} |",
                    flush=True,
                )
    print()
    sampled = [r for r in rows if r.boards > SAMPLE]  # where the search saw a sample
    for label, chosen in (("all", rows), (f"sets over {SAMPLE} boards", sampled)):
        print(summary(chosen, label))
        print(summary([r for r in chosen if GAMBLE[0] <= r.whole <= GAMBLE[1]], "  gambles"))


if __name__ == "__main__":
    main()
