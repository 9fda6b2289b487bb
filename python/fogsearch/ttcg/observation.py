"""Public and information states: what an observer knows about the deal, and constructing,
enumerating and weighting the deals consistent with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fogsearch._core import ttcg as _native
from fogsearch.ttcg.game import OhHellGame


@dataclass(frozen=True)
class DealConstraints:
    """What any consistent deal must satisfy. Owner codes: players ``0..P-1``, undealt pile ``P``,
    trump card ``P+1``; ``known_owner[c]`` is -1 for a hidden card; ``hidden_counts`` has one
    entry per player then the undealt pile; ``voids[p][s]`` marks suits player ``p`` has shown
    it lacks."""

    num_players: int
    num_suits: int
    num_ranks: int
    known_owner: tuple[int, ...]
    hidden_counts: tuple[int, ...]
    voids: tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class Observation:
    """A public state (``observer`` None) or a player's information state."""

    game: OhHellGame
    actions: tuple[int, ...]
    observer: int | None
    constraints: DealConstraints
    num_tricks: int
    dealer: int
    trump_card: int
    #: Bids and plays in order, as (player, action id).
    events: tuple[tuple[int, int], ...]
    #: Deal orders per assignment, (num_tricks!) ** players: histories = assignments x this.
    orders_per_assignment: int


def observe(game: OhHellGame, actions: Sequence[int], observer: int | None = None) -> Observation:
    """What ``observer`` (a player, or None for the public state) knows after ``actions``
    (OpenSpiel ids, chance included; the deal and trump card must be complete)."""
    acts = [int(a) for a in actions]
    d = _native.observe_ohhell(game.params, acts, observer)
    constraints = DealConstraints(
        d["num_players"],
        d["num_suits"],
        d["num_ranks"],
        tuple(d["known_owner"]),
        tuple(d["hidden_counts"]),
        tuple(tuple(v) for v in d["voids"]),
    )
    return Observation(
        game,
        tuple(acts),
        observer,
        constraints,
        d["num_tricks"],
        d["dealer"],
        d["trump_card"],
        tuple(tuple(e) for e in d["events"]),
        int(d["orders_per_assignment"]),
    )


def construct_deal(constraints: DealConstraints) -> np.ndarray:
    """A consistent deal assignment (uint8 owner code per card id) by max flow (Lemma 2).
    Raises InfeasibleConstraints naming the binding constraint when none exists."""
    return _native.construct_deal(constraints)


def enumerate_consistent(constraints: DealConstraints, limit: int = 1_000_000) -> np.ndarray:
    """Every consistent assignment (n x cards, uint8); NotImplementedError above ``limit``."""
    return _native.enumerate_consistent(constraints, limit=limit)


def enumerate_deals(
    observation: Observation, policy: Any = None, limit: int = 1_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """The exact joint range: every consistent assignment with positive reach (n x cards,
    uint8) and its log reach probability under ``policy`` (default uniform), unnormalised."""
    assignments, log_reach, _ = _native.enumerate_deals(
        observation.game.params,
        list(observation.actions),
        observation.observer,
        policy,
        limit,
    )
    return assignments, log_reach


def log_reach(observation: Observation, assignments: np.ndarray, policy: Any = None) -> np.ndarray:
    """Log reach of each assignment (n x cards uint8) along the observed public history."""
    arr = np.asarray(assignments)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.dtype != np.uint8:
        raise TypeError(f"assignments must be uint8 owner codes, got dtype {arr.dtype}")
    return _native.log_reach(
        observation.game.params, list(observation.actions), np.ascontiguousarray(arr), policy
    )
