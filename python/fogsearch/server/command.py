"""The ``fogsearch serve`` and ``fogsearch connect`` subcommands."""

from __future__ import annotations

import argparse
import getpass
import sys
import threading

import reconchess

from fogsearch.arguments import SEED, UsageError, bounded_int, bounded_seconds
from fogsearch.server.client import listen
from fogsearch.server.handler import RBCHTTPServer
from fogsearch.server.pairing import PairTerms, run_pairing
from fogsearch.server.registry import Registry
from fogsearch.server.store import ServerStore
from fogsearch.server.transport import OFFICIAL_SERVER, AuthRefused, Lobby, ServerUnreachable
from fogsearch.tournament.players import PlayerSpec
from fogsearch.tournament.schedule import (
    CLOCK_WHY,
    GAMES_WHY,
    INCREMENT_WHY,
    MAX_GAMES_PER_PAIRING,
    MAX_INCREMENT,
    MAX_SECONDS_PER_PLAYER,
    MIN_SECONDS_PER_PLAYER,
)

TICK_SECONDS = 0.25
"""How often the server's referee looks at every game's clock, though no player asks."""
PORT = bounded_int(0, 65_535, "a TCP port; 0 takes a free one and prints it")
SECONDS = bounded_seconds(MIN_SECONDS_PER_PLAYER, MAX_SECONDS_PER_PLAYER, CLOCK_WHY)
INCREMENT = bounded_seconds(0.0, MAX_INCREMENT, INCREMENT_WHY)


def add_parsers(subparsers) -> None:
    _add_serve(subparsers)
    _add_connect(subparsers)


def _add_serve(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run an RBC server (the official server's HTTP API) with every game in SQLite",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=PORT, default=8000, help="port (8000; 0: a free one)")
    p.add_argument("--db", default="rbc-server.sqlite", help="SQLite file for users and games")
    p.add_argument(
        "--pair",
        nargs=2,
        metavar=("USER_A", "USER_B"),
        help="invite these two users to --games games, colours alternating, then exit",
    )
    p.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES_PER_PAIRING, GAMES_WHY),
        default=None,
        help="games of the --pair match",
    )
    p.add_argument("--seconds", type=SECONDS, default=900.0, help="clock per player (900)")
    p.add_argument("--increment", type=INCREMENT, default=5.0, help="seconds per turn (5)")
    p.add_argument(
        "--start-grace",
        type=bounded_seconds(1.0, 3_600.0, "a game waits at most an hour for its players"),
        default=120.0,
        help="seconds a game waits for both players to be ready before its clocks start (120)",
    )
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.set_defaults(handler=run_serve)


def _add_connect(subparsers) -> None:
    p = subparsers.add_parser(
        "connect",
        help="play a bot in the games an RBC server invites it to (pondering while it waits)",
    )
    p.add_argument("bot", help="player spec: fogsearch[:settings], random, a module:Class, a .py")
    p.add_argument("--server-url", default=OFFICIAL_SERVER, help=f"server ({OFFICIAL_SERVER})")
    p.add_argument("--username", default=None, help="login (asked if not given)")
    p.add_argument("--password", default=None, help="password (asked if not given)")
    p.add_argument(
        "--games",
        type=bounded_int(0, MAX_GAMES_PER_PAIRING, GAMES_WHY),
        default=0,
        help="stop after this many games (0: play until interrupted)",
    )
    p.add_argument(
        "--max-concurrent-games",
        type=bounded_int(1, 16, "each game is a process with its own bot"),
        default=1,
        help="games at once (1: the bot has the machine to itself)",
    )
    p.add_argument("--no-ponder", action="store_true", help="do not call while_we_wait()")
    p.add_argument("--ranked", action="store_true", help="enter ranked matches")
    p.add_argument(
        "--new-version",
        action="store_true",
        help="with --ranked: count this as a new version of the bot",
    )
    p.add_argument(
        "--poll-seconds",
        type=bounded_seconds(0.5, 10.0, "a server counts a client connected while it polls"),
        default=5.0,
        help="seconds between invitation polls (5, as rc-connect)",
    )
    p.add_argument("--seed", type=SEED, default=0, help="a game's bot seed is this + its game id")
    p.set_defaults(handler=run_connect)


def _say(text: str) -> None:
    print(f"fogsearch serve: {text}", flush=True)


def run_serve(args: argparse.Namespace) -> int:
    if (args.pair is None) != (args.games is None):
        raise UsageError("--pair USER_A USER_B and --games N go together")
    terms = None
    if args.pair:
        user_a, user_b = args.pair
        terms = PairTerms(user_a, user_b, args.games, args.seconds, args.increment)
    store = ServerStore(args.db)
    registry = Registry(
        store,
        default_seconds=args.seconds,
        default_increment=args.increment,
        start_grace=args.start_grace,
        announce=_say,
    )
    try:
        httpd = RBCHTTPServer((args.host, args.port), registry, verbose=args.verbose)
    except OSError as exc:
        store.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    stop = threading.Event()
    threads = [
        threading.Thread(target=httpd.serve_forever, name="rbc-http", daemon=True),
        threading.Thread(target=_referee, args=(registry, stop), name="rbc-ref", daemon=True),
    ]
    for thread in threads:
        thread.start()
    _say(f"listening on {httpd.url} (reconchess {reconchess.__version__}, db {args.db})")
    try:
        if terms is None:
            stop.wait()
        else:
            run_pairing(registry, terms, log=_say, stop=stop)
    finally:
        stop.set()
        httpd.shutdown()
        httpd.server_close()
        threads[1].join()
        store.close()
    return 0


def _referee(registry: Registry, stop: threading.Event) -> None:
    while not stop.wait(TICK_SECONDS):
        registry.tick()


def run_connect(args: argparse.Namespace) -> int:
    spec = PlayerSpec.parse(args.bot)
    spec.check()
    if args.new_version and not args.ranked:
        raise UsageError("--new-version is for --ranked play")
    username = args.username or _ask("Username: ", input)
    password = args.password if args.password is not None else _ask("Password: ", getpass.getpass)
    lobby = Lobby(args.server_url, (username, password))
    try:
        version = lobby.reconchess_version()
        if version != reconchess.__version__:
            raise UsageError(
                f"{args.server_url} runs reconchess {version}; this client has "
                f"{reconchess.__version__} (install reconchess=={version})"
            )
        if args.ranked and (args.new_version or lobby.bot_version() == 0):
            lobby.next_bot_version()
        lobby.set_ranked(args.ranked)
        print(
            f"fogsearch connect: {username} at {args.server_url}, playing {spec.name}", flush=True
        )
        failed = listen(
            lobby,
            spec,
            games=args.games,
            max_concurrent=args.max_concurrent_games,
            ponder=not args.no_ponder,
            seed=args.seed,
            poll_seconds=args.poll_seconds,
            say=lambda text: print(f"fogsearch connect: {text}", flush=True),
        )
    except AuthRefused as exc:
        raise UsageError(f"{args.server_url} refused {username}: {exc}") from None
    except ServerUnreachable as exc:
        raise RuntimeError(f"server unreachable: {exc}") from None
    finally:
        if args.ranked:
            _leave_ranked(lobby)
    return 1 if failed else 0


def _leave_ranked(lobby: Lobby) -> None:
    """As rc-connect does on its way out: a bot that is not listening is not in ranked play."""
    try:
        lobby.set_ranked(False)
    except Exception:  # noqa: BLE001 - best effort on the way out; the server may be gone
        print("fogsearch connect: could not leave ranked play", file=sys.stderr)


def _ask(prompt: str, read) -> str:
    if not sys.stdin.isatty():
        raise UsageError(f"{prompt.rstrip(': ')} not given and no terminal to ask on")
    return read(prompt)
