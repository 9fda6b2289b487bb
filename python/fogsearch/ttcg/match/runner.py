"""Card matches: duplicate deals, each played once per seat rotation, in this process, in worker
processes, or on Ray.

A deal is the list of actions before play: chance's (for oh_hell also the number of tricks, the
dealer and the trump card) and, in Hearts, the passes, drawn at random; so every rotation plays
the same cards. Every game of the core's
registry is played the same way; seats and teams come from its entry. When every player is native
(Rust), a whole game is one call into the core; when OpenSpiel's ISMCTS plays, the game runs on a
pyspiel state and the core's state side by side.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np

from fogsearch._core import ttcg as native
from fogsearch.tournament.players import PlayerSpec
from fogsearch.ttcg.players import build_player

GAMES: tuple[str, ...] = tuple(native.GAMES)


@dataclass(frozen=True)
class CardTask:
    """One game of a match: the deal, who sits where, and the seeds."""

    index: int
    game: str
    params: tuple[tuple[str, object], ...]
    deal_index: int
    rotation: int
    deal: tuple[int, ...]
    seats: tuple[int, ...]
    """For each seat, the index of its player in the match's player list."""
    specs: tuple[PlayerSpec, ...]
    seed: int
    move_seconds: float | None = None
    threads: int | None = None
    """Worker threads of each searching player that sets none (shared out among the games)."""


@dataclass
class CardRecord:
    task_index: int
    deal_index: int
    rotation: int
    seats: list[int]
    seed: int
    deal: list[int]
    returns: list[float] | None
    points: list[float] | None
    public_actions: list[int]
    duration_s: float
    error: str | None = None


def new_state(game: str, params: dict):
    return native.CardState(game, params)


def deal_actions(game: str, params: dict, seed: int) -> list[int]:
    """The actions before play of a uniformly random deal drawn from ``seed``: chance's, and in a
    game whose seats decide something before play (Hearts' passes) those decisions too, drawn
    uniformly (the players play from the first bid or card)."""
    rng = np.random.default_rng(seed)
    state = new_state(game, params)
    actions = []
    while not state.at_table():
        legal = state.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        state.apply_action(a)
        actions.append(a)
    return actions


def deal_seed(match_seed: int, deal_index: int) -> int:
    """The seed of a match's deal ``deal_index``: it draws the deal (:func:`deal_actions`) and
    seeds the players of every rotation of it."""
    return match_seed * 1_000_003 + deal_index


def seat_pattern(info: dict, num_players: int) -> list[int]:
    """Which of the listed players sits where in rotation 0 (``info`` is the game's
    ``game_info``): a team game with one player per team copies each player into its partners'
    seats (Gongzhu: across the table)."""
    return [s % num_players for s in range(info["seats"])]


def rotations(info: dict, num_players: int) -> int:
    """Seat rotations per deal: in a team game the teams swap seats (shift by one); otherwise
    every player sits in every seat."""
    return info["teams"] if info["teams"] < info["seats"] else num_players


def make_tasks(
    game: str,
    params: dict,
    specs: list[PlayerSpec],
    deals: int,
    seed: int,
    move_seconds: float | None = None,
    threads: int | None = None,
) -> list[CardTask]:
    info = native.game_info(game, params)
    pattern = seat_pattern(info, len(specs))
    tasks = []
    for d in range(deals):
        deal = tuple(deal_actions(game, params, deal_seed(seed, d)))
        for r in range(rotations(info, len(specs))):
            seats = tuple(pattern[(s - r) % len(pattern)] for s in range(len(pattern)))
            tasks.append(
                CardTask(
                    index=len(tasks),
                    game=game,
                    params=tuple(sorted(params.items())),
                    deal_index=d,
                    rotation=r,
                    deal=deal,
                    seats=seats,
                    specs=tuple(specs),
                    seed=deal_seed(seed, d),
                    move_seconds=move_seconds,
                    threads=threads,
                )
            )
    return tasks


def play_card_game(task: CardTask) -> CardRecord:
    """Plays ``task`` to the end in this process. A player that raises ends the game with its
    error recorded and no returns."""
    params = dict(task.params)
    started = time.perf_counter()
    public: list[int] = []
    try:
        players = []
        for s, p in enumerate(task.seats):
            spec = task.specs[p]
            if spec.kind == "search" and "threads" not in spec.settings and task.threads:
                spec = PlayerSpec(spec.kind, {**spec.settings, "threads": task.threads}, spec.label)
            players.append(build_player(spec, task.game, params, task.move_seconds, task.seed + s))
        state = new_state(task.game, params)
        for a in task.deal:
            state.apply_action(a)
        if not any(p.needs_pyspiel for p in players):
            public, points, returns = native.play_deal(
                state, [p.native for p in players], task.seed
            )
        else:
            import pyspiel

            spiel = pyspiel.load_game(task.game, params).new_initial_state()
            for a in task.deal:
                spiel.apply_action(a)
            move = 0
            while not state.is_terminal():
                seat = state.current_player()
                a = players[seat].act(state, spiel, task.seed * 7919 + move)
                state.apply_action(a)
                spiel.apply_action(a)
                public.append(a)
                move += 1
            returns = state.returns()
            points = list(returns)
        error = None
    except Exception:  # noqa: BLE001 - recorded with the game, the match goes on
        returns = points = None
        error = traceback.format_exc()
    return CardRecord(
        task_index=task.index,
        deal_index=task.deal_index,
        rotation=task.rotation,
        seats=list(task.seats),
        seed=task.seed,
        deal=list(task.deal),
        returns=None if returns is None else [float(x) for x in returns],
        points=None if points is None else [float(x) for x in points],
        public_actions=[int(a) for a in public],
        duration_s=time.perf_counter() - started,
        error=error,
    )


def run_local(tasks: list[CardTask], workers: int) -> Iterator[CardRecord]:
    """Plays ``tasks`` on ``workers`` spawned worker processes (one: in this process), yielding
    records as games finish. A card game takes milliseconds to seconds, so workers are kept for
    many games (in chunks) rather than started per game as the RBC tournament's are; closing the
    iterator early terminates them."""
    if workers <= 1:
        for task in tasks:
            yield play_card_game(task)
        return
    pool = get_context("spawn").Pool(workers)
    try:
        chunk = max(1, min(16, len(tasks) // (4 * workers)))
        yield from pool.imap_unordered(play_card_game, tasks, chunksize=chunk)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_ray(tasks: list[CardTask], address: str | None = None) -> Iterator[CardRecord]:
    """Plays ``tasks`` as Ray tasks (``pip install fogsearch[ray]``)."""
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the Ray backend needs ray: pip install 'fogsearch[ray]'") from exc
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remote_play = ray.remote(play_card_game)
    pending = [remote_play.remote(t) for t in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
