"""Tournaments between reconchess players: round robin or gauntlet, games in parallel processes
(or on Ray), each player in a process of its own (:mod:`~fogsearch.tournament.isolation`:
another interpreter, pinned cores, pondering, kills on overrun), results in SQLite, standings
with Elo intervals; sequential tests of one player against another in
:mod:`~fogsearch.tournament.sequential` (statistics in :mod:`~fogsearch.tournament.sprt`).

>>> from fogsearch.tournament import PlayerSpec, run_tournament
>>> tid = run_tournament("results.sqlite", [PlayerSpec("random"), PlayerSpec("attacker")],
...                      games_per_pairing=2, seconds_per_player=60)  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from fogsearch.arguments import UsageError, cores
from fogsearch.tournament.players import ENGINE_KINDS, KINDS, PlayerSpec, stockfish_version
from fogsearch.tournament.rating import Pairing, Standing, standings
from fogsearch.tournament.report import (
    colour_split,
    plot_standings,
    stalled_notes,
    summary_table,
)
from fogsearch.tournament.resume import earlier_runs, stored_indices
from fogsearch.tournament.runner import BACKENDS, GameRecord, LostGame, core_blocks, play_game
from fogsearch.tournament.schedule import (
    GameTask,
    MatchOptions,
    gauntlet,
    make_tasks,
    round_robin,
)
from fogsearch.tournament.store import ResultStore

log = logging.getLogger(__name__)

__all__ = [
    "FORMATS",
    "KINDS",
    "GameRecord",
    "GameTask",
    "LostGame",
    "MatchOptions",
    "Pairing",
    "PlayerSpec",
    "ResultStore",
    "Standing",
    "TournamentStopped",
    "colour_split",
    "gauntlet",
    "make_tasks",
    "play_game",
    "plot_standings",
    "prepare_tournament",
    "round_robin",
    "run_tournament",
    "standings",
    "stalled_notes",
    "summary_table",
]

FORMATS = ("round_robin", "gauntlet")
WORKERS_PER_CORE = 4
"""More games at once than cores already take time from each game's clock (a clock runs while
its game waits for a core); beyond this many per core that is a typo, not a choice."""


class TournamentStopped(KeyboardInterrupt):
    """A tournament stopped by Ctrl-C or SIGTERM, after it was marked ``stopped`` in its
    database; the games finished by then are stored."""

    def __init__(self, tournament_id: int, reason: str):
        super().__init__(reason)
        self.tournament_id = tournament_id
        self.reason = reason


def store_record(
    store: ResultStore, tournament_id: int, ids: dict[str, int], record: GameRecord | LostGame
) -> bool:
    """Stores a game as it ends (a lost one apart); whether it was played to a result."""
    white, black = ids[record.white], ids[record.black]
    if isinstance(record, LostGame):
        store.add_lost_game(tournament_id, record, white, black)
        return False
    store.add_game(tournament_id, record, white, black)
    return True


@contextmanager
def recording_the_end(store: ResultStore, tournament_id: int, records) -> Iterator[None]:
    """Marks how the games played in the block ended: ``finished``; ``stopped`` by Ctrl-C or
    SIGTERM (then :class:`TournamentStopped`); ``failed`` with the error. Closes ``records``
    (the games' iterator) whatever happens, which stops the games still running now rather than
    when the interpreter gets round to collecting it."""
    try:
        yield
    except KeyboardInterrupt as exc:
        reason = str(exc) or "SIGINT (Ctrl-C)"
        store.end_tournament(tournament_id, "stopped", reason)
        raise TournamentStopped(tournament_id, reason) from exc
    except Exception as exc:
        store.end_tournament(tournament_id, "failed", f"{type(exc).__name__}: {exc}")
        raise
    finally:
        records.close()
    store.end_tournament(tournament_id, "finished")


def versions(players: list[PlayerSpec]) -> dict:
    import chess
    import reconchess

    import fogsearch

    info = {
        "fogsearch": fogsearch.__version__,
        "reconchess": getattr(reconchess, "__version__", "1.6.9"),
        "chess": chess.__version__,
    }
    if any(p.kind in ENGINE_KINDS for p in players):
        info["stockfish"] = stockfish_version()
    return info


def prepare_tournament(
    players: list[PlayerSpec],
    games_per_pairing: int,
    fmt: str = "round_robin",
    seconds_per_player: float = 900.0,
    seconds_increment: float = 5.0,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    options: MatchOptions | None = None,
) -> list[GameTask]:
    """The games of a tournament, after checking everything about it that can be checked before
    the first game (formats, counts, clocks, and each player: its kind, its settings against its
    config, the Stockfish it needs). Raises :class:`~fogsearch.arguments.UsageError`."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown tournament format {fmt!r}; use one of {', '.join(FORMATS)}")
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; use one of {', '.join(sorted(BACKENDS))}")
    most = WORKERS_PER_CORE * cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= most:
        raise UsageError(
            f"workers must be in 1..{most} ({WORKERS_PER_CORE} per core: each game is a process "
            f"and its clock runs while it waits for a core), got {workers!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise UsageError(f"seed must be an int in [0, 2**32), got {seed!r}")
    if fmt == "round_robin":
        pairings = round_robin(players, games_per_pairing)
    else:
        if not players:
            raise UsageError("a gauntlet needs a hero and at least one opponent")
        pairings = gauntlet(players[0], players[1:], games_per_pairing)
    options = options or MatchOptions()
    options.check()
    if backend == "local":
        # Enough cores for every game at once.
        core_blocks(options.cores_per_player, workers, options.cores_per_game)
    elif options.cores_per_player or options.cores_per_game:
        raise UsageError(
            "--cores-per-player and --cores-per-game pin on this machine: --backend local"
        )
    tasks = [
        options.apply(t) for t in make_tasks(pairings, seed, seconds_per_player, seconds_increment)
    ]
    for player in players:
        player.check()
    return tasks


def run_tournament(
    db: str | Path,
    players: list[PlayerSpec],
    games_per_pairing: int,
    fmt: str = "round_robin",
    seconds_per_player: float = 900.0,
    seconds_increment: float = 5.0,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
    options: MatchOptions | None = None,
    resume: bool = False,
) -> int:
    """Plays a tournament, storing every game as it finishes; returns the tournament id.

    ``resume``: play only the games that no earlier run of the same tournament in ``db`` stored
    (:mod:`~fogsearch.tournament.resume`).

    ``fmt="gauntlet"`` pits ``players[0]`` against each of the others. Everything is checked
    before the first game (:func:`prepare_tournament`, and the database is fogsearch's): a
    :class:`~fogsearch.arguments.UsageError` then. A tournament stopped by Ctrl-C (or SIGTERM
    turned into one) is marked ``stopped`` in the database and raises
    :class:`TournamentStopped`.
    """
    tasks = prepare_tournament(
        players,
        games_per_pairing,
        fmt,
        seconds_per_player,
        seconds_increment,
        seed,
        workers,
        backend,
        options,
    )
    config = {
        "players": [{"name": p.name, "kind": p.kind, "settings": p.settings} for p in players],
        "games_per_pairing": games_per_pairing,
        "seconds_per_player": seconds_per_player,
        "seconds_increment": seconds_increment,
        "seed": seed,
        "workers": workers,
        "backend": backend,
        "options": asdict(options or MatchOptions()),
    }
    with ResultStore(db) as store:
        ids = store.register_players(players)
        if resume:
            config["resumes"] = earlier_runs(store, fmt, config)
            done = stored_indices(store, config["resumes"])
            tasks = [t for t in tasks if t.index not in done]
        tournament_id = store.start_tournament(fmt, config, versions(players), len(tasks))
        if backend == "ray":
            records = BACKENDS["ray"](tasks, ray_address)
        else:
            records = BACKENDS["local"](tasks, workers)
        from tqdm import tqdm

        stored = 0
        with recording_the_end(store, tournament_id, records):
            for record in tqdm(
                records, total=len(tasks), disable=not progress, desc="games", unit="game"
            ):
                stored += store_record(store, tournament_id, ids, record)
    if stored < len(tasks):
        log.warning(
            "%d of %d games have no result (lost, see above, or stopped)",
            len(tasks) - stored,
            len(tasks),
        )
    return tournament_id
