"""``fogsearch tournament``: play a round robin or gauntlet, store it, print and plot standings.

Everything is checked before the first game: the player specs (kinds, settings and their types,
Stockfish), counts and clocks, the results database (fogsearch's, or new) and the plot's path.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from fogsearch.arguments import SEED, UsageError, bounded_int, bounded_seconds, cores, probability
from fogsearch.tournament import (
    KINDS,
    WORKERS_PER_CORE,
    MatchOptions,
    PlayerSpec,
    ResultStore,
    TournamentStopped,
    colour_split,
    plot_standings,
    prepare_tournament,
    run_tournament,
    stalled_notes,
    standings,
    summary_table,
)
from fogsearch.tournament.openings import BOOK_PLIES_WHY, MAX_BOOK_PLIES, load_book
from fogsearch.tournament.report import PLOT_FORMATS, check_plot_path
from fogsearch.tournament.resume import match_games
from fogsearch.tournament.schedule import (
    CLOCK_WHY,
    GAMES_WHY,
    GRACE_WHY,
    INCREMENT_WHY,
    MAX_CORES_PER_PLAYER,
    MAX_GAMES_PER_PAIRING,
    MAX_GRACE,
    MAX_INCREMENT,
    MAX_SECONDS_PER_PLAYER,
    MIN_SECONDS_PER_PLAYER,
)
from fogsearch.tournament.sprt import MAX_PAIRS, SprtBounds

SECONDS = bounded_seconds(MIN_SECONDS_PER_PLAYER, MAX_SECONDS_PER_PLAYER, CLOCK_WHY)
INCREMENT = bounded_seconds(0.0, MAX_INCREMENT, INCREMENT_WHY)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "tournament",
        help="play a round robin or gauntlet between reconchess players",
        description=(
            f"Players are kind[:key=value,...][@label]; kinds: {', '.join(KINDS)} "
            "(e.g. fogsearch:depth=2,mode=exact@fog2, trout-set:move_seconds=2), "
            "or a reconchess bot module path / .py file. Settings of the match, not the bot: "
            "python=/path/to/python (run a bot module or file under that interpreter), "
            "seconds=S and increment=I (that player's own clock)."
        ),
    )
    p.add_argument("players", nargs="+", help="player specs; with --gauntlet the first is the hero")
    p.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES_PER_PAIRING, GAMES_WHY),
        default=2,
        help="games per pairing (colours alternate)",
    )
    p.add_argument("--gauntlet", action="store_true", help="first player against each other one")
    p.add_argument("--db", default="tournament.sqlite", help="SQLite results file (appended to)")
    p.add_argument(
        "--seconds", type=SECONDS, default=900.0, help="clock per player (reconchess: 900)"
    )
    p.add_argument("--increment", type=INCREMENT, default=5.0, help="seconds added per turn (5)")
    p.add_argument("--seed", type=SEED, default=0)
    p.add_argument(
        "--workers",
        type=bounded_int(
            1,
            WORKERS_PER_CORE * cores(),
            f"{WORKERS_PER_CORE} per core: each game is a process whose clock runs while it "
            "waits for a core",
        ),
        default=None,
        help="games played at once (default: one per core; with --cores-per-player N, one per "
        "2N cores)",
    )
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: local Ray)")
    p.add_argument(
        "--plot",
        default=None,
        help=f"write the standings plot here ({', '.join('.' + f for f in PLOT_FORMATS)})",
    )
    p.add_argument("--html", default=None, help="write a replay page per game and index.html here")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--resume",
        action="store_true",
        help="play only the games that earlier runs of this same tournament (players, games, "
        "clock, seed, options) stored in --db lack; the standings count every run; a "
        "two-player match resumed with more --games is lengthened",
    )
    add_match_arguments(p)
    add_sprt_arguments(p)
    p.set_defaults(handler=run)


def add_match_arguments(p) -> None:
    """How each game is played: its players' processes, cores, pondering and overrun grace."""
    p.add_argument(
        "--cores-per-player",
        type=bounded_int(0, MAX_CORES_PER_PLAYER, "cores pinned to each player's process"),
        default=0,
        metavar="N",
        help="pin each player's process and its children (engines) to its own N cores of this "
        "process's affinity; each game at once needs 2N (default 0: not pinned)",
    )
    p.add_argument(
        "--cores-per-game",
        type=bounded_int(0, MAX_CORES_PER_PLAYER, "cores pinned to each game's two players"),
        default=0,
        metavar="N",
        help="instead: pin both players of each game to the same N cores, as engine testing "
        "plays a game a core (each side computes only on its turn); needs --no-ponder",
    )
    p.add_argument(
        "--no-ponder",
        action="store_true",
        help="do not call a waiting player's while_we_wait() during the other side's turn",
    )
    p.add_argument(
        "--grace",
        metavar="SECONDS",
        type=bounded_seconds(0.0, MAX_GRACE, GRACE_WHY),
        default=30.0,
        help="seconds a call may run past its clock before its player is killed (30)",
    )
    p.add_argument(
        "--book-plies",
        type=bounded_int(0, MAX_BOOK_PLIES, BOOK_PLIES_WHY),
        default=0,
        metavar="N",
        help="play the first N half-moves of an opening-book line that each game's seed picks "
        "(an SPRT pair shares its line, colours swapped): deterministic bots otherwise replay "
        "the same games (default 0)",
    )
    p.add_argument(
        "--book",
        metavar="FILE",
        default=None,
        help="with --book-plies: the opening lines, one per line in UCI (e2e4 e7e5 ...), "
        "instead of the built-in 36 (default: those)",
    )
    p.add_argument(
        "--in-process",
        action="store_true",
        help="play both players in the game's process (no pinning, pondering or overrun kill)",
    )


def add_sprt_arguments(p) -> None:
    p.add_argument(
        "--sprt",
        default=None,
        metavar="elo0=E0,elo1=E1",
        help="sequential test of the first player against the second: game pairs (colours "
        "swapped on one seed) until the pentanomial LLR crosses a bound",
    )
    p.add_argument("--alpha", type=probability, default=0.05, help="SPRT false-positive rate")
    p.add_argument("--beta", type=probability, default=0.05, help="SPRT false-negative rate")
    p.add_argument(
        "--max-pairs",
        type=bounded_int(1, MAX_PAIRS, "an SPRT that has not decided by then ends without verdict"),
        default=1_000,
        metavar="N",
        help="pairs after which an SPRT ends without verdict (1000; --games is not used)",
    )


def match_options(args: argparse.Namespace) -> MatchOptions:
    return MatchOptions(
        isolated=not args.in_process,
        ponder=not args.no_ponder,
        grace_s=args.grace,
        cores_per_player=args.cores_per_player,
        cores_per_game=args.cores_per_game,
        book_plies=args.book_plies,
        book=None if args.book is None else load_book(args.book),
    )


def run(args: argparse.Namespace) -> int:
    players = [PlayerSpec.parse(text) for text in args.players]
    if args.workers is None:
        per_game = args.cores_per_game or 2 * args.cores_per_player
        args.workers = max(1, cores() // (per_game or 1))
    if args.ray_address and args.backend != "ray":
        raise UsageError("--ray-address is for --backend ray")
    if args.sprt is not None:
        return run_sprt_command(args, players)
    fmt = "gauntlet" if args.gauntlet else "round_robin"
    # Checked here as well as by run_tournament, so that a bad plot path or database is
    # reported before the database is opened for writing and before any game.
    prepare_tournament(
        players,
        args.games,
        fmt,
        args.seconds,
        args.increment,
        args.seed,
        args.workers,
        args.backend,
        match_options(args),
    )
    if args.plot:
        check_plot_path(args.plot)
    if args.html:
        from fogsearch.replay.tournament_pages import check_folder

        check_folder(args.html)
    stopped = None
    try:
        with sigterm_as_interrupt():
            tid = _play(args, players, fmt)
    except TournamentStopped as exc:
        stopped, tid = exc, exc.tournament_id
    print_summary(args.db, tid, args.plot)
    if args.html:
        from fogsearch.replay.tournament_pages import write_tournament_pages

        print(f"replay pages: {write_tournament_pages(args.db, tid, args.html)}")
    if stopped is not None:
        print(
            f"stopped by {stopped.reason}: the running games were terminated; the finished ones "
            f"are stored in {args.db} (tournament {tid}, marked stopped)",
            file=sys.stderr,
        )
        return 130  # the shell's code for a job ended by an interrupt
    return 0


def print_summary(db: str, tid: int, plot: str | None) -> None:
    """The tournament's standings, notes and lost games; the plot, if asked for."""
    with ResultStore(db) as store:
        info = store.tournament(tid)
        games = store.games(tid)
        lost = store.lost_games(tid)
        everything = match_games(store, tid)
        notes = stalled_notes(everything, store.history_json)
    planned = info["games_planned"]
    print(f"tournament {tid} in {db}: {len(games)} of {planned} games; versions {info['versions']}")
    resumed = info["config"].get("resumes")
    if resumed:
        print(
            f"resumes tournaments {', '.join(map(str, resumed))}: the standings count their "
            f"games too, {len(everything)} in all"
        )
    this_run = len(games) + len(lost)
    games = everything
    ranked, pairs = standings(games)
    if info["status"] == "stopped":
        print(
            f"STOPPED by {info['stop_reason']} after {this_run} of {planned} games: "
            "the standings are of the games finished before the stop"
        )
    if not games:
        print("no game finished: no standings")
    else:
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
    if plot and games:
        print(f"plot: {plot_standings(ranked, pairs, Path(plot))}")


@contextmanager
def sigterm_as_interrupt():
    """Within the block SIGTERM raises KeyboardInterrupt, as Ctrl-C does, so that a tournament
    stopped by ``kill`` or a job scheduler unwinds, is marked stopped, and terminates its game
    processes instead of leaving them running (Python's default SIGTERM exits without
    unwinding)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _play(args: argparse.Namespace, players: list[PlayerSpec], fmt: str) -> int:
    return run_tournament(
        args.db,
        players,
        games_per_pairing=args.games,
        fmt=fmt,
        seconds_per_player=args.seconds,
        seconds_increment=args.increment,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        progress=not args.no_progress,
        options=match_options(args),
        resume=args.resume,
    )


def run_sprt_command(args: argparse.Namespace, players: list[PlayerSpec]) -> int:
    from fogsearch.tournament.sequential import run_sprt

    if args.gauntlet or args.backend != "local" or args.plot or args.html:
        raise UsageError(
            "--sprt plays two players locally: no --gauntlet, --backend, --plot or --html"
        )
    bounds = SprtBounds.parse(args.sprt, args.alpha, args.beta, args.max_pairs)
    stopped = None
    try:
        with sigterm_as_interrupt():
            tid, state = run_sprt(
                args.db,
                players,
                bounds,
                args.seconds,
                args.increment,
                args.seed,
                args.workers,
                match_options(args),
                progress=not args.no_progress,
            )
    except TournamentStopped as exc:
        stopped, tid, state = exc, exc.tournament_id, None
    print_summary(args.db, tid, None)
    if state is not None:
        print("", state.summary(), sep="\n")
    if stopped is not None:
        print(
            f"stopped by {stopped.reason}: the finished games are stored in {args.db}; run the "
            "same command again to resume the test",
            file=sys.stderr,
        )
        return 130
    return 0
