"""``fogsearch play``: one game of the fogsearch bot against an opponent, logged turn by turn.

The log has a row per turn of each player that keeps a turn log (the fogsearch bot does), under a
header that names each column and its unit. A turn is a full turn, as in chess: White's and
Black's k-th turns are both turn k, and the result line counts turns the same way.
"""

from __future__ import annotations

import argparse
import logging
import sys

import chess

from fogsearch.arguments import SEED, bounded_seconds, writable_path
from fogsearch.tournament import GameTask, PlayerSpec, play_game
from fogsearch.tournament.command import add_match_arguments, match_options
from fogsearch.tournament.runner import core_blocks
from fogsearch.tournament.schedule import (
    CLOCK_WHY,
    INCREMENT_WHY,
    MAX_INCREMENT,
    MAX_SECONDS_PER_PLAYER,
    MIN_SECONDS_PER_PLAYER,
)

COLUMNS = (
    # (header, width, what it is, with its unit)
    ("turn", 4, "full turn (White's and Black's k-th turns are turn k)"),
    ("side", 5, "the colour that played it"),
    ("boards", 7, "boards in the set after the opponent's move"),
    ("sense", 5, "the square sensed"),
    ("sensed", 7, "boards left after the sense"),
    ("request", 7, "the move requested (UCI; pass: none)"),
    ("taken", 7, "the move the referee made of it"),
    ("capture", 7, "where it captured"),
    ("after", 7, "boards after the move"),
    ("value_cp", 8, "the best request's value in centipawns (positive: ours is better)"),
    ("depth", 5, "information-set search depth completed, in our moves"),
    ("plies", 5, "per-board search plies completed on every board (-1: static values on some)"),
    ("search_s", 8, "seconds the search took"),
    ("budget_s", 8, "seconds it was allowed"),
    ("turn_s", 8, "seconds the whole turn took on the clock (set updates, sense, move)"),
    ("clock_s", 8, "seconds left on the clock before the move"),
)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("play", help="play one game: the fogsearch bot against an opponent")
    p.add_argument(
        "--opponent",
        default="random",
        help="player spec (random, attacker, trout, trout-set, fogsearch, a bot module or file)",
    )
    p.add_argument(
        "--color", choices=["white", "black"], default="white", help="fogsearch's colour"
    )
    p.add_argument("--bot", default="fogsearch", help="fogsearch bot spec, e.g. fogsearch:depth=1")
    p.add_argument(
        "--seconds",
        type=bounded_seconds(MIN_SECONDS_PER_PLAYER, MAX_SECONDS_PER_PLAYER, CLOCK_WHY),
        default=900.0,
        help="clock per player (reconchess: 900)",
    )
    p.add_argument(
        "--increment",
        type=bounded_seconds(0.0, MAX_INCREMENT, INCREMENT_WHY),
        default=5.0,
        help="seconds added per turn (5)",
    )
    p.add_argument("--seed", type=SEED, default=0)
    p.add_argument("--save", default=None, help="save the reconchess GameHistory JSON here")
    p.add_argument("--html", default=None, help="write the game's replay page here")
    add_match_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(format="%(name)s: %(message)s", stream=sys.stdout)
    bot, opponent = PlayerSpec.parse(args.bot), PlayerSpec.parse(args.opponent)
    for spec in (bot, opponent):
        spec.check()
    for path, what in ((args.save, "--save"), (args.html, "--html")):
        if path:
            writable_path(path, what)
    white, black = (bot, opponent) if args.color == "white" else (opponent, bot)
    print(
        f"{white.name} (white) vs {black.name} (black), {args.seconds:g}s + {args.increment:g}s "
        "a turn"
    )
    log = TurnLog(sys.stdout)
    options = match_options(args)
    options.check()
    task = options.apply(GameTask(0, white, black, args.seed, args.seconds, args.increment))
    record = play_game(
        task,
        on_turn=log.turn,
        cores=core_blocks(options.cores_per_player, 1, options.cores_per_game)[0],
    )
    print(
        f"result: {record.winner} ({record.reason}) in turn {log.last_turn} (white played "
        f"{log.played[chess.WHITE]} turns, black {log.played[chess.BLACK]}) in "
        f"{record.duration_s:.1f}s; clocks left white {record.white_seconds_left:.1f}s, "
        f"black {record.black_seconds_left:.1f}s"
    )
    for side in ("white", "black"):
        fallbacks = getattr(record, f"{side}_fallbacks")
        if fallbacks:
            print(f"warning: {side} decided {fallbacks} turns without its search (see the log)")
    if record.error:
        print(record.error, file=sys.stderr)
    if args.save:
        with open(args.save, "w") as fp:
            fp.write(record.history_json)
        print(f"saved GameHistory to {args.save}")
    if args.html and record.history_json:
        from fogsearch.replay.command import save_replay

        print(f"replay page: {save_replay(record.history_json, args.html, log.entries)}")
    return 0 if record.crashed is None else 1


class TurnLog:
    """Prints a row per turn of each player that keeps a ``turn_log`` (a list of dicts, one per
    turn, as the fogsearch bot keeps), under a header of the columns and their units."""

    def __init__(self, out) -> None:
        self.out = out
        self.played = {chess.WHITE: 0, chess.BLACK: 0}
        self.logged = {chess.WHITE: 0, chess.BLACK: 0}
        self.entries: dict[chess.Color, list[dict]] = {}
        """The turn log entries by colour, for the replay page."""
        self.header_printed = False

    @property
    def last_turn(self) -> int:
        return max(self.played.values())

    def turn(self, color: chess.Color, player, game) -> None:
        self.played[color] += 1
        turn_log = getattr(player, "turn_log", None)
        if not isinstance(turn_log, list) or len(turn_log) <= self.logged[color]:
            return
        self.logged[color] = len(turn_log)
        self.entries.setdefault(color, []).append(dict(turn_log[-1]))
        if not self.header_printed:
            self._print_header()
        print(self.row(self.played[color], color, turn_log[-1]), file=self.out, flush=True)

    def _print_header(self) -> None:
        self.header_printed = True
        print("columns:", file=self.out)
        for name, _, what in COLUMNS:
            print(f"  {name:<9} {what}", file=self.out)
        print(" ".join(f"{name:>{width}}" for name, width, _ in COLUMNS), file=self.out, flush=True)

    @staticmethod
    def row(turn: int, color: chess.Color, t: dict) -> str:
        def number(key: str, digits: int = 0) -> str:
            value = t.get(key)
            return "-" if value is None else f"{value:.{digits}f}"

        cells = (
            str(turn),
            chess.COLOR_NAMES[color],
            number("after_opponent"),
            t.get("sense") or "-",
            number("after_sense"),
            t.get("requested") or "none",
            t.get("taken") or "none",
            t.get("capture") or "-",
            number("after_move"),
            number("value"),
            number("depth"),
            number("plies"),
            number("search_seconds", 2),
            number("budget", 2),
            number("turn_seconds", 2),
            number("seconds_left", 1),
        )
        return " ".join(
            f"{cell:>{width}}" for cell, (_, width, _) in zip(cells, COLUMNS, strict=True)
        )
