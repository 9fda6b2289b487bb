"""``fogsearch cards match``: duplicate deals between card players, with seats rotated; mean
returns with 95% intervals; results in SQLite. ``fogsearch cards games``: the registry's games
and their defaults."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path

from fogsearch._core import FogsearchError
from fogsearch._core import ttcg as native
from fogsearch.tournament.command import sigterm_as_interrupt
from fogsearch.ttcg.match.runner import GAMES
from fogsearch.ttcg.match.store import CardResultStore
from fogsearch.ttcg.players import KINDS, build_player, parse_spec

MAX_DEALS = 1_000_000
MAX_MOVE_SECONDS = 3600.0
MAX_WORKERS = 256


class UsageError(Exception):
    """A mistake on the command line: one line, exit status 2."""


def add_parser(subparsers) -> None:
    cards = subparsers.add_parser("cards", help="trick-taking card games: matches between players")
    sub = cards.add_subparsers(dest="cards_command", required=True)
    p = sub.add_parser(
        "match",
        help="duplicate deals between card players, seats rotated",
        description=(
            f"Players: {', '.join(KINDS)}, as kind[:key=value,...][@label] (see "
            "fogsearch.ttcg.players). Gongzhu takes 2 players (teams, each copied into both "
            "partner seats) or 4; other games one per seat (oh_hell: 3 by default)."
        ),
    )
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--players", nargs="+", required=True, metavar="SPEC")
    p.add_argument("--deals", type=int, required=True, help="distinct deals (each rotated)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--move-seconds", type=float, default=None, help="time per move of searches")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a game parameter (OpenSpiel's names), repeatable")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--workers", type=int, default=1, help="games in parallel processes")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--ray-address", default=None)
    p.add_argument("--db", default=None, help="SQLite results file (appended to)")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(handler=run)
    games = sub.add_parser(
        "games",
        help="each game's seats, parameters with their defaults, and the card search's defaults",
    )
    games.add_argument("--json", action="store_true", help="print the registry's entries as JSON")
    games.set_defaults(handler=run_games)


def run_games(args: argparse.Namespace) -> int:
    """The core registry's entries (fogsearch._core.ttcg.game_info) with every card-search
    default (CardSearchConfig.defaults, by the core's names), so that no default is restated
    elsewhere: a search player takes these unless its spec names them."""
    infos = [
        {**native.game_info(game), "search": native.card_search_defaults(game, None)}
        for game in GAMES
    ]
    if args.json:
        print(json.dumps(infos))
        return 0
    for info in infos:
        params = ", ".join(f"{k}={v}" for k, v in info["params"].items()) or "none"
        search = ", ".join(f"{k}={v}" for k, v in info["search"].items())
        print(
            f"{info['name']}: {info['seats']} seats, {info['teams']} teams\n"
            f"  parameters: {params}\n  search defaults: {search}"
        )
    return 0


def _params(game: str, items: list[str]) -> dict:
    if items and not native.game_info(game)["params"]:
        with_params = [g for g in GAMES if native.game_info(g)["params"]]
        raise UsageError(f"--param is for {', '.join(with_params)}; {game} has no parameters")
    params = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--param {item!r} is not KEY=VALUE")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            raise UsageError(
                f"--param {key} must be a number or true/false, got {value!r}"
            ) from None
    try:
        native.CardState(game, params)
    except (FogsearchError, ValueError, TypeError) as e:
        raise UsageError(f"{game} parameters: {e}") from None
    return params


def check(args: argparse.Namespace) -> dict:
    """Every argument, checked before the first game; returns the game's parameters."""
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals must be 1 to {MAX_DEALS}, got {args.deals}")
    if args.move_seconds is not None and not 0 < args.move_seconds <= MAX_MOVE_SECONDS:
        raise UsageError(
            f"--move-seconds must be above 0 and at most {MAX_MOVE_SECONDS:g}, got {args.move_seconds}"
        )
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1 to {MAX_WORKERS}, got {args.workers}")
    params = _params(args.game, args.param)
    info = native.game_info(args.game, params)
    seats, teams = info["seats"], info["teams"]
    allowed = (teams, seats) if teams < seats else (seats,)
    if len(args.players) not in allowed:
        raise UsageError(
            f"{args.game} takes {' or '.join(map(str, allowed))} players, got {len(args.players)}"
        )
    names = []
    for text in args.players:
        try:
            spec = parse_spec(text, args.game)
            build_player(spec, args.game, params, args.move_seconds)
        except (FogsearchError, ValueError, TypeError) as e:
            raise UsageError(f"player {text!r}: {e}") from None
        names.append(spec.name)
    if len(set(names)) != len(names):
        raise UsageError(f"player names must differ (label copies with @name): {names}")
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UsageError("--backend ray needs ray: pip install 'fogsearch[ray]'") from None
    if args.db is not None:
        folder = Path(args.db).resolve().parent
        if not folder.is_dir():
            raise UsageError(f"--db {args.db}: the folder {folder} does not exist")
        # Opened (and each player registered) now, so that a database that is not ours, or a
        # name stored with other settings, stops the match before its first game.
        try:
            with CardResultStore(args.db) as store:
                for text in args.players:
                    store.player_id(parse_spec(text, args.game))
        except (sqlite3.Error, ValueError) as e:
            raise UsageError(f"--db {args.db}: {e}") from None
    return params


def run(args: argparse.Namespace) -> int:
    from fogsearch.ttcg.match import run_match, summary_table

    try:
        params = check(args)
    except UsageError as e:
        print(f"fogsearch cards match: {e}", file=sys.stderr)
        return 2
    try:
        with sigterm_as_interrupt():
            summary = run_match(
                args.game,
                args.players,
                args.deals,
                seed=args.seed,
                params=params,
                move_seconds=args.move_seconds,
                workers=args.workers,
                backend=args.backend,
                ray_address=args.ray_address,
                db=args.db,
                progress=not args.no_progress and not args.json,
            )
    except KeyboardInterrupt:
        print("stopped: the running games were terminated", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(summary.as_json()))
    else:
        print(summary_table(summary, args.game))
        if args.db:
            print(f"games stored in {os.path.abspath(args.db)}")
    return 0
