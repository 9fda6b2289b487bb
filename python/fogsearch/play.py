"""``fogsearch play``: one game of the fogsearch bot against an opponent, logged turn by turn."""

from __future__ import annotations

import argparse
import logging
import sys

from fogsearch.arguments import SEED, bounded_seconds, writable_path
from fogsearch.tournament import GameTask, PlayerSpec, play_game
from fogsearch.tournament.schedule import (
    CLOCK_WHY,
    INCREMENT_WHY,
    MAX_INCREMENT,
    MAX_SECONDS_PER_PLAYER,
    MIN_SECONDS_PER_PLAYER,
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
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(format="%(message)s", stream=sys.stdout)
    logging.getLogger("fogsearch.bot").setLevel(logging.INFO)
    bot, opponent = PlayerSpec.parse(args.bot), PlayerSpec.parse(args.opponent)
    for spec in (bot, opponent):
        spec.check()
    if args.save:
        writable_path(args.save, "--save")
    white, black = (bot, opponent) if args.color == "white" else (opponent, bot)
    print(
        f"{white.name} (white) vs {black.name} (black), {args.seconds:.0f}s + {args.increment:.0f}s"
    )
    record = play_game(GameTask(0, white, black, args.seed, args.seconds, args.increment))
    print(
        f"result: {record.winner} ({record.reason}) after {record.turns} turns in "
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
    return 0 if record.crashed is None else 1
