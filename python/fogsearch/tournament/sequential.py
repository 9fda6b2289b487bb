"""``fogsearch tournament A B --sprt``: game pairs until the SPRT decides.

Pair ``k`` is two games on one seed, A White in the first (task ``2k``) and Black in the second
(task ``2k + 1``), so that the opening luck of a seed is played from both sides. After every pair
both of whose games are stored, the pentanomial counts and the log-likelihood ratio are updated
(:mod:`fogsearch.tournament.sprt`); the test stops at a bound, or at the bound on pairs.

A test is resumed by running it again into the same ``--db`` with the same players, seed and
clock: the pairs stored by earlier runs count, and only the missing games are played.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from fogsearch.arguments import UsageError
from fogsearch.tournament import (
    MatchOptions,
    PlayerSpec,
    ResultStore,
    prepare_tournament,
    recording_the_end,
    store_record,
    versions,
)
from fogsearch.tournament.runner import run_local
from fogsearch.tournament.schedule import GameTask
from fogsearch.tournament.sprt import SprtBounds, SprtState

FORMAT = "sprt"
POINTS = {"white": (1.0, 0.0), "black": (0.0, 1.0), "draw": (0.5, 0.5)}


def pair_tasks(
    a: PlayerSpec, b: PlayerSpec, pairs: int, seed: int, seconds: float, increment: float
) -> list[GameTask]:
    """The games of ``pairs`` pairs: each pair one seed, colours swapped."""
    tasks = []
    for k in range(pairs):
        pair_seed = (seed * 1_000_003 + k) % 2**63
        tasks.append(GameTask(2 * k, a, b, pair_seed, seconds, increment))
        tasks.append(GameTask(2 * k + 1, b, a, pair_seed, seconds, increment))
    return tasks


def points_of_a(game: dict, a_name: str) -> float:
    """A's points from a stored game."""
    white, black = POINTS[game["winner"]]
    return white if game["white"] == a_name else black


def _key(config: dict) -> tuple:
    """What makes two runs the same test (their pairs may be pooled)."""
    return (
        tuple(p["name"] for p in config["players"]),
        config["seed"],
        config["seconds_per_player"],
        config["seconds_increment"],
        # A test from the book and one without it, or from another book, play different games;
        # runs before the book existed had none, and runs before --book the built-in one.
        config.get("options", {}).get("book_plies", 0),
        _lines(config.get("options", {}).get("book")),
    )


def _lines(book) -> tuple[str, ...] | None:
    """A stored book (a JSON list) and one given now (a tuple) compare equal."""
    return None if book is None else tuple(book)


def stored_points(store: ResultStore, config: dict) -> dict[int, float]:
    """A's points by task index from earlier runs of the same test in ``store``."""
    points: dict[int, float] = {}
    a_name = config["players"][0]["name"]
    rows = store.conn.execute("SELECT id, config_json FROM tournaments WHERE format = ?", (FORMAT,))
    for tid, config_json in rows.fetchall():
        if _key(json.loads(config_json)) != _key(config):
            continue
        for game in store.games(tid):
            points.setdefault(game["task_index"], points_of_a(game, a_name))
    return points


def add_complete_pairs(state: SprtState, points: dict[int, float], counted: set[int]) -> None:
    """Adds to ``state`` each pair whose two games are in ``points`` and not yet counted."""
    for index in sorted(points):
        k = index // 2
        if k not in counted and 2 * k in points and 2 * k + 1 in points:
            counted.add(k)
            state.add_pair(points[2 * k] + points[2 * k + 1])


def run_sprt(
    db: str | Path,
    players: list[PlayerSpec],
    bounds: SprtBounds,
    seconds_per_player: float = 60.0,
    seconds_increment: float = 1.0,
    seed: int = 0,
    workers: int = 1,
    options: MatchOptions | None = None,
    progress: bool = True,
) -> tuple[int, SprtState]:
    """Runs (or resumes) the SPRT of ``players[0]`` against ``players[1]``; returns the
    tournament id of this run and the test's state over every stored pair."""
    if len(players) != 2:
        raise UsageError(f"an SPRT is between two players, got {len(players)}")
    options = options or MatchOptions()
    # Checks players, clocks, workers, cores and options as any tournament.
    prepare_tournament(
        players, 2, "round_robin", seconds_per_player, seconds_increment, seed, workers,
        "local", options,
    )  # fmt: skip
    config = {
        "players": [{"name": p.name, "kind": p.kind, "settings": p.settings} for p in players],
        "seconds_per_player": seconds_per_player,
        "seconds_increment": seconds_increment,
        "seed": seed,
        "workers": workers,
        "sprt": asdict(bounds),
        "options": asdict(options),
    }
    a, b = players
    state, counted = SprtState.start(bounds), set()
    with ResultStore(db) as store:
        ids = store.register_players(players)
        points = stored_points(store, config)
        add_complete_pairs(state, points, counted)
        tasks = [
            options.apply(t)
            for t in pair_tasks(a, b, bounds.max_pairs, seed, seconds_per_player, seconds_increment)
            if t.index not in points and t.index // 2 not in counted
        ]
        tid = store.start_tournament(FORMAT, config, versions(players), len(tasks))
        if state.verdict is not None or not tasks:
            store.end_tournament(tid, "finished")
            return tid, state
        _play(store, tid, ids, tasks, workers, state, points, counted, a.name, progress)
    return tid, state


def _play(store, tid, ids, tasks, workers, state, points, counted, a_name, progress) -> None:
    from tqdm import tqdm

    records = run_local(tasks, workers)
    bar = tqdm(total=state.bounds.max_pairs, initial=state.pairs, disable=not progress,
               desc="SPRT pairs", unit="pair")  # fmt: skip
    bar.set_postfix_str(f"LLR {state.llr:.2f} ({state.bounds.lower:.2f}, {state.bounds.upper:.2f})")
    # Closing the games' iterator also stops the games still running once the test is decided.
    with recording_the_end(store, tid, records), bar:
        for record in records:
            if not store_record(store, tid, ids, record):
                continue
            points[record.task_index] = points_of_a(record.to_dict(), a_name)
            before = state.pairs
            add_complete_pairs(state, points, counted)
            if state.pairs > before:
                bar.update(state.pairs - before)
                bar.set_postfix_str(
                    f"LLR {state.llr:.2f} ({state.bounds.lower:.2f}, {state.bounds.upper:.2f})"
                )
            if state.verdict is not None:
                break
