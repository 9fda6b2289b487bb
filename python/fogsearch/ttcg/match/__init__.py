"""Card matches: ``fogsearch cards match`` and :func:`run_match`.

>>> from fogsearch.ttcg.match import run_match
>>> summary = run_match("gongzhu", ["if", "greed"], deals=4, seed=1)  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from fogsearch.arguments import cores
from fogsearch.ttcg.match.report import MatchSummary, summarize, summary_table
from fogsearch.ttcg.match.runner import (
    GAMES,
    CardRecord,
    CardTask,
    deal_actions,
    make_tasks,
    play_card_game,
    rotations,
    run_local,
    run_ray,
)
from fogsearch.ttcg.match.store import CardResultStore
from fogsearch.ttcg.players import parse_spec

__all__ = [
    "GAMES",
    "CardRecord",
    "CardResultStore",
    "CardTask",
    "MatchSummary",
    "deal_actions",
    "make_tasks",
    "play_card_game",
    "rotations",
    "run_match",
    "summarize",
    "summary_table",
]


def run_match(
    game: str,
    players: list[str],
    deals: int,
    seed: int = 0,
    params: dict | None = None,
    move_seconds: float | None = None,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    db: str | Path | None = None,
    progress: bool = False,
) -> MatchSummary:
    """Plays ``deals`` duplicate deals with every seat rotation and summarises them; stores every
    game in ``db`` (SQLite) when given."""
    params = dict(params or {})
    specs = [parse_spec(p, game) for p in players]
    names = [s.name for s in specs]
    threads = max(1, cores() // max(1, workers))
    tasks = make_tasks(game, params, specs, deals, seed, move_seconds, threads)
    records: list[CardRecord] = []
    source = run_ray(tasks, ray_address) if backend == "ray" else run_local(tasks, workers)
    store = CardResultStore(db) if db is not None else None
    try:
        if store is not None:
            ids = [store.player_id(s) for s in specs]
            tid = store.start_tournament(
                f"cards:{game}",
                {
                    "game": game,
                    "params": params,
                    "players": names,
                    "deals": deals,
                    "seed": seed,
                    "move_seconds": move_seconds,
                    "workers": workers,
                    "backend": backend,
                },
                _versions(),
            )
        from tqdm import tqdm

        for record in tqdm(source, total=len(tasks), disable=not progress, unit="game"):
            records.append(record)
            if store is not None:
                store.add_card_game(tid, record, ids)
    finally:
        source.close()
        if store is not None:
            store.close()
    return summarize(records, names, game)


def _versions() -> dict:
    import fogsearch

    info = {"fogsearch": fogsearch.__version__}
    try:
        from importlib.metadata import version

        import pyspiel  # noqa: F401

        info["open_spiel"] = version("open_spiel")
    except Exception:  # noqa: BLE001 - OpenSpiel is optional for Gongzhu matches
        pass
    return info
