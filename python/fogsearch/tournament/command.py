"""``fogsearch tournament``: play a round robin or gauntlet, store it, print and plot standings."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from fogsearch.tournament import (
    PlayerSpec,
    ResultStore,
    colour_split,
    plot_standings,
    run_tournament,
    stalled_notes,
    standings,
    summary_table,
)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "tournament",
        help="play a round robin or gauntlet between reconchess players",
        description=(
            "Players are kind[:key=value,...][@label]: random, attacker, trout (Stockfish), "
            "fogsearch (e.g. fogsearch:depth=2,search_mode=exact@fog2), or a reconchess bot module "
            "path / .py file."
        ),
    )
    p.add_argument("players", nargs="+", help="player specs; with --gauntlet the first is the hero")
    p.add_argument("--games", type=int, default=2, help="games per pairing (colours alternate)")
    p.add_argument("--gauntlet", action="store_true", help="first player against each other one")
    p.add_argument("--db", default="tournament.sqlite", help="SQLite results file (appended to)")
    p.add_argument(
        "--seconds", type=float, default=900.0, help="clock per player (reconchess: 900)"
    )
    p.add_argument("--increment", type=float, default=5.0, help="seconds added per turn (5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="parallel games")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: local Ray)")
    p.add_argument("--plot", default=None, help="write the standings plot (PNG) here")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    players = [PlayerSpec.parse(text) for text in args.players]
    try:
        with sigterm_as_interrupt():
            tid = _play(args, players)
    except KeyboardInterrupt:
        print(
            f"stopped: the running games were terminated; finished games are stored in {args.db}",
            file=sys.stderr,
        )
        return 130  # the shell's code for a job ended by an interrupt
    with ResultStore(args.db) as store:
        info = store.tournament(tid)
        games = store.games(tid)
        lost = store.lost_games(tid)
        notes = stalled_notes(games, store.history_json)
    ranked, pairs = standings(games)
    print(f"tournament {tid} in {args.db}: {len(games)} games; versions {info['versions']}")
    print(summary_table(ranked, pairs))
    print("", *colour_split(games), sep="\n")
    if notes:
        print("", *notes, sep="\n")
    if lost:
        print(f"\n{len(lost)} games are not in the table: their process died before reporting")
        for g in lost:
            print(
                f"  game {g['task_index']} {g['white']} vs {g['black']} (seed {g['seed']}): {g['why']}"
            )
    if args.plot:
        print(f"plot: {plot_standings(ranked, pairs, Path(args.plot))}")
    return 0


@contextmanager
def sigterm_as_interrupt():
    """Within the block SIGTERM raises KeyboardInterrupt, as Ctrl-C does, so that a tournament
    stopped by ``kill`` or a job scheduler unwinds and terminates its game processes instead of
    leaving them running (Python's default SIGTERM exits without unwinding)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def _play(args: argparse.Namespace, players: list[PlayerSpec]) -> int:
    return run_tournament(
        args.db,
        players,
        games_per_pairing=args.games,
        fmt="gauntlet" if args.gauntlet else "round_robin",
        seconds_per_player=args.seconds,
        seconds_increment=args.increment,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        progress=not args.no_progress,
    )
