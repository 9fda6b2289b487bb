"""Resuming a tournament (``fogsearch tournament ... --resume``): a long match, such as 30 games
at 300 s + 5 s, runs across sessions. Each run is a tournament row of its own; a run that resumes
plays only the games no earlier run of the same tournament stored, and its standings count the
games of every run (the earlier runs' ids are kept in its configuration, under ``resumes``).

A match of two players may be lengthened: ``--games 32 --resume`` after a 30-game match plays
games 31 and 32 and counts all 32, since game ``i``'s colours and seed depend on ``i`` alone. With
more players the game count stays part of the tournament's identity, because a pairing's games
are numbered after the games of the pairings before it."""

from __future__ import annotations

import json
from dataclasses import asdict

from fogsearch.tournament.schedule import MatchOptions
from fogsearch.tournament.store import ResultStore

RUN_ONLY = ("workers", "backend", "resumes")
"""Configuration that says how a run was played, not which tournament it is."""


def _is_one_pairing(config: dict) -> bool:
    return len(config.get("players", [])) == 2 and "games_per_pairing" in config


def _identity(config: dict) -> str:
    length = ("games_per_pairing",) if _is_one_pairing(config) else ()
    kept = {k: v for k, v in config.items() if k not in RUN_ONLY + length}
    if "options" in kept:
        # An option added later (the book) stands at its default in a run stored before it.
        kept["options"] = {**asdict(MatchOptions()), **kept["options"]}
    return json.dumps(kept, sort_keys=True)


def earlier_runs(store: ResultStore, fmt: str, config: dict) -> list[int]:
    """The ids of the stored runs of the same tournament (format, players, games, clocks, seed,
    match options), oldest first."""
    rows = store.conn.execute(
        "SELECT id, config_json FROM tournaments WHERE format = ? ORDER BY id", (fmt,)
    ).fetchall()
    key = _identity(config)
    return [tid for tid, text in rows if _identity(json.loads(text)) == key]


def stored_indices(store: ResultStore, tournament_ids: list[int]) -> set[int]:
    """The task indices of the games those runs stored (a lost game is played again)."""
    return {g["task_index"] for tid in tournament_ids for g in store.games(tid)}


def match_games(store: ResultStore, tournament_id: int) -> list[dict]:
    """The games of a run and of the runs it resumed, one per task index, oldest first; a
    shortened two-player match leaves out the earlier runs' games past its length."""
    config = store.tournament(tournament_id)["config"]
    length = config["games_per_pairing"] if _is_one_pairing(config) else None
    games: dict[int, dict] = {}
    for tid in [*config.get("resumes", []), tournament_id]:
        for game in store.games(tid):
            if length is None or game["task_index"] < length:
                games.setdefault(game["task_index"], game)
    return sorted(games.values(), key=lambda g: g["id"])
