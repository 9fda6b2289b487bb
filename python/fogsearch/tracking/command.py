"""The ``fogsearch demo`` and ``fogsearch track`` commands: their arguments and handlers."""

from __future__ import annotations

import os

from reconchess import GameHistory

from fogsearch.arguments import (
    SEED,
    UsageError,
    bounded_int,
    existing_file,
    probability,
    writable_path,
)
from fogsearch.tracking.baseline_player import BASELINE_BOTS
from fogsearch.tracking.demo_game import play_baseline_game
from fogsearch.tracking.replay import TRACK_MAX_BOARDS
from fogsearch.tracking.report import print_report

MAX_TURNS_WHY = "the 100-half-move rule ends every game within about 6,300 turns"
BYTES_PER_BOARD = 420
"""Memory of a tracked board at an expansion's peak (bench/rbc_memory.py): bounds --max-boards."""


def add_parsers(subparsers) -> None:
    demo = subparsers.add_parser(
        "demo",
        help="a local game between two baseline bots, both sides tracked by fogsearch board sets",
    )
    demo.add_argument("--white", default="random", help="random, attacker, trout or a bot module")
    demo.add_argument("--black", default="attacker")
    demo.add_argument("--seed", type=SEED, default=0)
    demo.add_argument(
        "--max-turns",
        type=bounded_int(1, 10_000, MAX_TURNS_WHY),
        default=40,
        help="full turns before a draw",
    )
    demo.add_argument(
        "--sensing",
        choices=["greedy", "bot"],
        default="greedy",
        help="greedy: senses that shrink each side's set (default); bot: the bots' own random senses",
    )
    demo.add_argument(
        "--random-sense-rate",
        type=probability,
        default=0.25,
        help="share of greedy senses replaced by random ones (0..1)",
    )
    demo.add_argument("--save", default=None, help="save the reconchess GameHistory JSON here")
    demo.set_defaults(handler=run_demo)

    track = subparsers.add_parser(
        "track", help="replay a saved reconchess GameHistory through board sets"
    )
    track.add_argument("history", help="GameHistory JSON (as saved by reconchess)")
    for p in (demo, track):
        add_max_boards(p, "stop tracking a side whose set would grow past this many boards")
    track.set_defaults(handler=run_track)


def add_max_boards(parser, help_text: str) -> None:
    """``--max-boards``: a tracked side's bound, at most what this machine's memory holds
    (default the smaller of that and TRACK_MAX_BOARDS); ``demo``, ``track`` and ``replay``."""
    most = boards_in_memory()
    parser.add_argument(
        "--max-boards",
        type=bounded_int(
            1,
            most,
            f"a positive number of boards, at most what this machine's memory holds at "
            f"{BYTES_PER_BOARD} bytes a board",
            what="a whole number of boards",
        ),
        default=min(TRACK_MAX_BOARDS, most),
        help=help_text,
    )


def boards_in_memory() -> int:
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: 16 GiB assumed
        memory = 16 * 2**30
    return max(1, memory // BYTES_PER_BOARD)


def check_demo_player(name: str, side: str) -> None:
    """The demo plays reconchess bots without settings: a baseline name or a bot module/file."""
    from fogsearch.tournament.players import PlayerSpec

    if name not in BASELINE_BOTS and (
        ":" in name or "@" in name or name in ("fogsearch", "trout-set")
    ):
        raise UsageError(
            f"--{side} {name}: the demo plays {', '.join(BASELINE_BOTS)} or a reconchess bot "
            "module or .py file, without settings"
        )
    PlayerSpec(name).check()


def run_demo(args) -> int:
    check_demo_player(args.white, "white")
    check_demo_player(args.black, "black")
    if args.save:
        writable_path(args.save, "--save")
    print(
        f"{args.white} (white) vs {args.black} (black), seed {args.seed}, "
        f"{args.sensing} sensing; set sizes per turn:"
    )
    history = play_baseline_game(
        args.white, args.black, args.seed, args.max_turns, args.sensing, args.random_sense_rate
    )
    if args.save:
        history.save(args.save)
    return print_report(history, args.max_boards)


def run_track(args) -> int:
    path = existing_file(args.history, "game history")
    try:
        history = GameHistory.from_file(str(path))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSON, or not a history's
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"{path} is not a reconchess GameHistory JSON file ({first})") from None
    if not isinstance(history, GameHistory):
        raise UsageError(
            f"{path} is not a reconchess GameHistory JSON file (it holds a "
            f"{type(history).__name__}); save one with `fogsearch play --save` or GameHistory.save"
        )
    return print_report(history, args.max_boards)
