"""Would another sense have led to a better move against this opponent? Every sense of the named
player in stored games, made again under each sense policy, its result read off the true board,
and the move the bot would then choose valued on that true board.

``decision_screen.py`` found that neither the opponent model's weights nor twelve times the
search time tell the bot's move choices apart on StrangeFish2's positions: what is left is what
the bot knows when it chooses, and that is the sense. The stored games hold the true board at
every sense, so any sense's result can be read off it, and the set the bot would have had after
it is exact.

For each turn of the player (after ``--skip-turns``), the set before the sense is replayed exactly
from the player's observations. Each policy picks a square:

- ``played``: where the bot sensed in the game;
- ``size``: where the expected set left is smallest (``fogsearch.bot.sensing.smallest_expected_set``);
- ``decision[:plies=P,seconds=S]``: where the coming move choice gains most
  (``fogsearch.bot.sensing.decision_sense``, the bot's default, with its ``sense_plies`` and a
  sense time of ``S`` seconds);
- ``none``: no sense at all (the move chosen on the set as it stood before the sense).

The policy's square is sensed on the true board (as ``reconchess.LocalGame.sense`` reads it), the
set narrowed by that result, and the bot's default move decision made on it: its sample of the
likeliest boards, valued with every other policy's sample and the true board in one
perfect-information table (up to ``--plies`` within ``--seconds``), the request with the best
compound score. Its outcome is that request's value on the true board in the bot's utility. So the
policies differ only in what their sense told them.

Printed per policy: the columns of ``decision_screen.py`` (mean outcome and its paired difference
from the first policy, mean regret, the share of turns the true board was among the judged boards,
the share choosing another request than the first policy, avoidable king and piece losses), with
"as played" the share of turns it sensed where the bot did; and the mean set size after its sense.

    python bench/sense_screen.py bench/data/strangefish2_e0.sqlite --player e0 --every 4 \\
        --variant played --variant decision --variant size --variant none
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass

import chess
import numpy as np
from decision_screen import Outcomes, keys, report, screen_arguments
from loss_replay import player_games, read_only
from reconchess.history import Turn

from fogsearch.bot.config import FogsearchBotConfig, SenseRule
from fogsearch.bot.judgement import request_scores
from fogsearch.bot.requests import uci
from fogsearch.bot.sensing import decision_sense, smallest_expected_set
from fogsearch.bot.tracker import weighted_sample
from fogsearch.observations import SenseResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.search import BoardTable, board_table
from fogsearch.tracking import observations

POLICIES = ("played", "size", "decision", "none")


@dataclass(frozen=True)
class Policy:
    """One way of choosing the sense; ``plies`` and ``seconds`` apply to ``decision``."""

    name: str
    kind: str
    plies: int = SenseRule().sense_plies
    seconds: float = 2.0

    def __post_init__(self) -> None:
        if self.kind not in POLICIES:
            raise ValueError(f"the policy must be one of {POLICIES}, got {self.kind!r}")
        SenseRule(sense_plies=self.plies)  # the bot's own bounds
        if not 0.01 <= self.seconds <= 600:
            raise ValueError(f"seconds must be in [0.01, 600], got {self.seconds!r}")


def policy(text: str) -> Policy:
    """``KIND`` or ``KIND:KEY=VALUE,...`` (keys ``plies``, ``seconds``), named by the text."""
    kind, _, rest = text.partition(":")
    settings: dict[str, float] = {}
    try:
        for item in filter(None, rest.split(",")):
            key, value = item.split("=")
            if key not in ("plies", "seconds"):
                raise KeyError(key)
            settings[key] = int(value) if key == "plies" else float(value)
        if settings and kind != "decision":
            raise ValueError(f"only the decision sense takes settings, not {kind!r}")
        return Policy(text, kind, **settings)  # type: ignore[arg-type]
    except (ValueError, KeyError) as error:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not KIND[:plies=N,seconds=S] with KIND among {POLICIES}: {error}"
        ) from None


def sensed(truth_fen: str, square: chess.Square) -> SenseResult:
    """What a sense at ``square`` sees on the true board: the 3x3 window, clipped at the edges."""
    board = chess.Board(truth_fen)
    rank, file = chess.square_rank(square), chess.square_file(square)
    window = [
        chess.square(file + df, rank + dr)
        for dr in (1, 0, -1)
        for df in (-1, 0, 1)
        if 0 <= rank + dr <= 7 and 0 <= file + df <= 7
    ]
    return SenseResult(tuple((sq, board.piece_at(sq)) for sq in window))


def replayed_senses(history, color, model, max_boards):
    """Per turn of ``color`` that sensed: ``(turn number, truth FEN, square sensed in the game,
    the set just before the sense)``, until the set would pass ``max_boards``. The set is the
    replay's own; a caller that changes it copies it first."""
    board_set = BoardSet(color, max_boards=max_boards)
    if model is not None:
        board_set.set_opponent_model(*model)
    for seen in observations(history, color):
        if isinstance(seen.observation, SenseResult):
            square = history.sense(Turn(color, seen.turn_number))
            yield seen.turn_number, seen.truth_fen, square, board_set
        try:
            seen.apply(board_set)
        except BoardSetTooLargeError:
            return


def sense_square(p: Policy, before: BoardSet, played, rng_seed: int, threads: int):
    """The policy's square (None: no sense)."""
    if p.kind == "none":
        return None
    if p.kind == "played":
        return played
    config = FogsearchBotConfig()
    squares = list(chess.SQUARES)
    expected = before.sense_stats()
    if p.kind == "size":
        return smallest_expected_set(expected, squares)
    boards, weights = weighted_sample(
        before, config.set_limits.max_search_boards, random.Random(rng_seed), True
    )
    choice = decision_sense(
        boards,
        weights,
        squares,
        expected,
        config.mean_weight,
        p.plies,
        threads,
        p.seconds,
        config.king_loss_cp,
    )
    return choice.square


def after_sense(before: BoardSet, truth_fen: str, square) -> BoardSet:
    """The set after sensing ``square`` on the true board (``before`` itself when None)."""
    if square is None:
        return before
    after = before.copy()
    sensed(truth_fen, square).apply(after)
    return after


def choose_moves(after: dict, truth_fen, color, rng_seed, plies, seconds, threads):
    """Each policy's move request on its set after the sense (the bot's default sample and
    compound score), in one table with the true board: ``({name: (request, value on truth,
    truth judged)}, the best request's value on the truth)``."""
    config = FogsearchBotConfig()
    size = config.set_limits.max_search_boards
    samples = {
        name: weighted_sample(s, size, random.Random(rng_seed), True) for name, s in after.items()
    }
    fens = [fen for boards, _ in samples.values() for fen in boards.fens()]
    union = BoardSet(color, fens=[*fens, truth_fen])
    columns = {key: i for i, key in enumerate(keys(union))}
    (truth_key,) = keys(BoardSet(color, fens=[truth_fen]))
    table = board_table(union, most_plies=plies, least_plies=1, threads=threads, time_limit=seconds)
    requests = [uci(m) for m in table.requests]
    truth = dict(zip(requests, table.values[:, columns[truth_key]].tolist(), strict=True))
    chosen = {}
    for name, (boards, weights) in samples.items():
        cols = np.array([columns[key] for key in keys(boards)])
        judged = BoardTable(table.requests, table.values[:, cols], table.plies[cols], 0)
        scores = request_scores(judged, weights, config.mean_weight, None, config.king_loss_cp)
        best = max(scores, key=scores.__getitem__)
        chosen[name] = (best, int(truth[best]), truth_key in set(keys(boards)))
    return chosen, int(max(truth.values()))


def main(argv=None) -> int:
    p = screen_arguments(__doc__.split("\n\n")[0], policy)
    args = p.parse_args(argv)
    policies = args.variant
    if len({q.name for q in policies}) < len(policies):
        p.error("each --variant once")
    model = FogsearchBotConfig().opponent.model
    results = {q.name: Outcomes() for q in policies}
    sizes: dict[str, list[int]] = {q.name: [] for q in policies}
    base = policies[0].name
    decisions = 0
    started = time.monotonic()
    for path in args.databases:
        db = read_only(path)
        for index, color, _winner, history in player_games(db, args.player):
            if args.tasks is not None and index not in args.tasks:
                continue
            for number, truth, played, before in replayed_senses(
                history, color, model, args.max_boards
            ):
                if number < args.skip_turns or number % args.every:
                    continue
                seed = args.seed * 1_000_003 + index * 1_009 + number
                squares = {
                    q.name: sense_square(q, before, played, seed, args.threads) for q in policies
                }
                after = {name: after_sense(before, truth, sq) for name, sq in squares.items()}
                chosen, best_value = choose_moves(
                    after, truth, color, seed, args.plies, args.seconds, args.threads
                )
                decisions += 1
                for q in policies:
                    request, value, seen = chosen[q.name]
                    results[q.name].add(
                        value,
                        best_value,
                        seen,
                        request != chosen[base][0],
                        squares[q.name] == played,
                        args.outcome_king,
                    )
                    sizes[q.name].append(len(after[q.name]))
            print(
                f"{path} task {index}: {decisions} decisions, {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    if not decisions:
        print("no senses to screen")
        return 0
    report(results, base, decisions)
    print()
    print("| policy | mean boards after its sense | geometric mean |")
    print("|---|---|---|")
    for name, left in sizes.items():
        geometric = math.exp(np.mean(np.log(np.maximum(left, 1))))
        print(f"| {name} | {np.mean(left):.0f} | {geometric:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
