"""CFR, Joint Policy Search and its brute-force baseline, and many seeds at once; thin wrappers
over ``fogsearch._core.jps`` (which releases the GIL and stops on Ctrl-C)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from fogsearch._core import jps as _native
from fogsearch._core.jps import Game, JpsError
from fogsearch.jps.game import Policy, load_game

__all__ = [
    "CfrResult",
    "JpsOutcome",
    "Step",
    "brute_force_step",
    "cfr",
    "expected_reward",
    "jps",
    "jps_step",
    "policy_change_density",
    "start_infosets",
    "value_change",
]

GameLike = Game | str
Depth = int | None | Literal["paper"]


def _game(game: GameLike) -> Game:
    return load_game(game) if isinstance(game, str) else game


def _probs(game: Game, policy: Policy | npt.ArrayLike) -> npt.NDArray[np.float64]:
    if isinstance(policy, Policy):
        if policy.game is not game and policy.game.name != game.name:
            raise JpsError(f"the policy belongs to {policy.game.name}, not {game.name}")
        return policy.probs
    return np.ascontiguousarray(policy, dtype=np.float64)


def _depth(game: Game, depth: Depth) -> int | None:
    return game.paper_depth if depth == "paper" else depth


def expected_reward(game: GameLike, policy: Policy | npt.ArrayLike) -> float:
    """The expected common reward of ``policy``."""
    g = _game(game)
    return _native.expected_reward(g, _probs(g, policy))


@dataclass(frozen=True)
class CfrResult:
    current: Policy
    """The last iterate (what the paper's code keeps; purify it for Table 1's CFR1k row)."""
    average: Policy
    """The reach-weighted average of the iterates (linearly weighted for CFR+)."""
    mean_value: float
    """The current policy's game value, averaged over the iterations."""


def cfr(
    game: GameLike,
    iterations: int = 1000,
    *,
    seed: int = 0,
    schedule: Literal["paper", "openspiel"] = "paper",
    plus: bool = False,
    exploration: float | None = None,
) -> CfrResult:
    """Tabular CFR (CFR+ with ``plus=True``: regret matching+ and linear averaging).

    ``schedule="paper"``: the paper's code, all players updated at once from a random start
    (seeded), with Gaussian noise of std ``exploration`` (default 0.01) where no action has
    positive regret. ``"openspiel"``: OpenSpiel's ``CFRSolver``/``CFRPlusSolver``, players
    updated in turn from the uniform policy, no noise (default ``exploration`` 0).
    """
    if schedule not in ("paper", "openspiel"):
        raise JpsError(f"schedule must be 'paper' or 'openspiel', got {schedule!r}")
    paper = schedule == "paper"
    g = _game(game)
    current, average, mean_value = _native.cfr(
        g,
        iterations,
        plus=plus,
        alternating=not paper,
        start="random" if paper else "uniform",
        exploration=(0.01 if paper else 0.0) if exploration is None else exploration,
        seed=seed,
    )
    return CfrResult(Policy(g, current), Policy(g, average), mean_value)


@dataclass(frozen=True)
class JpsOutcome:
    policy: Policy
    """The final policy (full-state JPS) or the best iterate (sample-based)."""
    value: float
    initial_value: float
    history: list[float]
    """The value at the start of each iteration, then of the final policy."""
    predicted: list[float]
    """The gain each iteration's search predicted (Theorem 1)."""
    iterations: int
    improvements: int
    stats: dict[str, float]
    """Work counters: ``links`` (candidate changes examined), ``states`` (states visited),
    ``evaluations``, ``search_seconds``, ``evaluate_seconds``."""


def jps(
    game: GameLike,
    policy: Policy | npt.ArrayLike,
    *,
    depth: Depth = "paper",
    samples: int | None = None,
    iterations: int = 100,
    seed: int = 0,
) -> JpsOutcome:
    """Joint Policy Search (Algorithm 1) from ``policy``.

    ``depth``: the most information sets one joint change spans; ``"paper"`` (default) is §6's
    choice (3 for Simple Bidding N = 16 and Mini-Bridge N >= 4, else from the first information
    sets to the terminals); ``None`` is always the latter. ``samples``: sample-based JPS with that
    many states per starting information set (with replacement), returning the best of its
    ``iterations`` iterates; ``None`` sums over all states and stops when nothing improves.
    """
    g = _game(game)
    out = _native.joint_policy_search(
        g,
        _probs(g, policy),
        depth=_depth(g, depth),
        samples=samples,
        iterations=iterations,
        seed=seed,
    )
    return JpsOutcome(
        policy=Policy(g, out["policy"]),
        value=out["value"],
        initial_value=out["initial_value"],
        history=list(out["history"]),
        predicted=list(out["predicted"]),
        iterations=out["iterations"],
        improvements=out["improvements"],
        stats=dict(out["stats"]),
    )


def value_change(
    game: GameLike, old: Policy | npt.ArrayLike, new: Policy | npt.ArrayLike
) -> tuple[float, dict[int, float]]:
    """Theorem 1: the predicted ``v(new) - v(old)`` and its terms ``J(I)`` per changed
    information set, from the values under ``old`` and the reach under ``new``."""
    g = _game(game)
    total, terms = _native.value_change(g, _probs(g, old), _probs(g, new))
    return total, dict(terms)


def policy_change_density(
    game: GameLike, old: Policy | npt.ArrayLike, new: Policy | npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """The policy-change density ``rho(h)`` of every state (Eq. 5), in the core's state order."""
    g = _game(game)
    return _native.policy_change_density(g, _probs(g, old), _probs(g, new))


def start_infosets(game: GameLike, depth: int | None = None) -> list[int]:
    """Where chains start: the first information sets (``depth=None``) or all at ``depth``."""
    return _native.start_infosets(_game(game), depth)


@dataclass(frozen=True)
class Step:
    gain: float
    chain: list[tuple[int, int]]
    """``(information set, action index)`` links, upstream first."""
    stats: dict[str, float]


def jps_step(
    game: GameLike, policy: Policy | npt.ArrayLike, starts: Sequence[int], depth: int | None = None
) -> Step:
    """One JPS iteration's search from ``starts`` (at most ``depth`` links)."""
    g = _game(game)
    out = _native.jps_step(g, _probs(g, policy), list(starts), depth)
    return Step(out["gain"], [tuple(link) for link in out["chain"]], dict(out["stats"]))


def brute_force_step(
    game: GameLike, policy: Policy | npt.ArrayLike, starts: Sequence[int], depth: int | None = None
) -> Step:
    """The same chains as :func:`jps_step`, each valued by evaluating the whole game again."""
    g = _game(game)
    out = _native.brute_force_step(g, _probs(g, policy), list(starts), depth)
    return Step(out["gain"], [tuple(link) for link in out["chain"]], dict(out["stats"]))
