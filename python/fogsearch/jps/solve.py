"""CFR, Joint Policy Search and its brute-force baseline, and many seeds at once; thin wrappers
over ``fogsearch._core.jps`` (which releases the GIL and stops on Ctrl-C)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from fogsearch._core import jps as _native
from fogsearch._core.jps import Game, JpsError
from fogsearch.arguments import cores
from fogsearch.jps.game import Policy, load_game

__all__ = [
    "CfrResult",
    "JpsOutcome",
    "SeedsResult",
    "Step",
    "brute_force_step",
    "cfr",
    "expected_reward",
    "jps",
    "jps_step",
    "policy_change_density",
    "run_seeds",
    "run_seeds_many",
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


_CFR_INIT = re.compile(r"cfr(\d+)(k?)")


def _parse_init(init: str) -> tuple[str, int]:
    """``"cfr1k"`` -> ("cfr", 1000), ``"cfr250"`` -> ("cfr", 250), ``"uniform"`` -> random."""
    if init == "uniform":
        return "random", 0
    m = _CFR_INIT.fullmatch(init)
    if m is None:
        raise JpsError(f"init must be 'uniform' or 'cfr<iterations>' like 'cfr1k', got {init!r}")
    return "cfr", int(m.group(1)) * (1000 if m.group(2) else 1)


@dataclass(frozen=True)
class SeedsResult:
    """One JPS setting over many seeds; arrays are per seed."""

    game: str
    init: str
    states: int
    """Table 1's #States."""
    infosets: int
    """Table 1's #Infosets."""
    depth: int | None
    samples: int | None
    purify_start: bool
    seeds: npt.NDArray[np.uint64] = field(repr=False)
    init_values: npt.NDArray[np.float64] = field(repr=False)
    """The start's value as Table 1 reports it (CFR's purified last iterate, or the random
    policy's)."""
    start_values: npt.NDArray[np.float64] = field(repr=False)
    values: npt.NDArray[np.float64] = field(repr=False)
    iterations: npt.NDArray[np.float64] = field(repr=False)
    improvements: npt.NDArray[np.float64] = field(repr=False)
    links: npt.NDArray[np.float64] = field(repr=False)
    states_visited: npt.NDArray[np.float64] = field(repr=False)
    search_seconds: npt.NDArray[np.float64] = field(repr=False)
    evaluate_seconds: npt.NDArray[np.float64] = field(repr=False)
    init_seconds: npt.NDArray[np.float64] = field(repr=False)

    @property
    def mean(self) -> float:
        return float(self.values.mean())

    @property
    def best(self) -> float:
        return float(self.values.max())

    @property
    def init_mean(self) -> float:
        return float(self.init_values.mean())

    @property
    def init_best(self) -> float:
        return float(self.init_values.max())

    @property
    def seconds_per_iteration(self) -> float:
        """JPS's time per iteration: the evaluation of the current policy plus the search."""
        total = float(self.search_seconds.sum() + self.evaluate_seconds.sum())
        return total / max(float(self.iterations.sum()), 1.0)

    def summary(self) -> dict[str, Any]:
        """What ``fogsearch jps --json`` prints."""
        return {
            "mean": self.mean,
            "best": self.best,
            "states": self.states,
            "infosets": self.infosets,
            "seconds_per_iteration": self.seconds_per_iteration,
        }


def _threads(threads: int | None) -> int:
    return threads if threads is not None else max(1, min(cores(), 256))


def run_seeds_many(
    game: GameLike,
    init: str = "cfr1k",
    seeds: int = 1000,
    settings: Sequence[dict[str, Any]] = ({},),
    *,
    first_seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> list[SeedsResult]:
    """For each seed: a start (``init``: ``"cfr1k"`` is the paper's CFR for 1,000 iterations,
    ``"cfr<N>"`` for N, ``"uniform"`` a random policy), then JPS once per entry of ``settings``
    (keys ``depth``, ``samples``, ``iterations`` as :func:`jps`, and ``purify_start``: JPS starts
    from CFR's raw last iterate, as the paper's code does, unless it is true), all from the same
    start. Seeds run in parallel on ``threads`` workers (default: all cores); results do not
    depend on the thread count. ``progress`` shows a tqdm bar (on stderr)."""
    g = _game(game)
    kind, cfr_iterations = _parse_init(init)
    searches = []
    for s in settings:
        unknown = set(s) - {"depth", "samples", "iterations", "purify_start"}
        if unknown:
            raise JpsError(
                f"unknown JPS settings {sorted(unknown)}; use depth, samples, iterations, "
                "purify_start"
            )
        searches.append(
            (
                bool(s.get("purify_start", False)),
                _depth(g, s.get("depth", "paper")),
                s.get("samples"),
                s.get("iterations", 100),
            )
        )
    workers = _threads(threads)
    if not 1 <= seeds <= 1_000_000:
        raise JpsError(f"seeds must be between 1 and 1000000, got {seeds}")
    # Chunks keep the progress bar moving; each chunk still uses every worker.
    chunk = max(4 * workers, 8)
    parts: list[dict[str, Any]] = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=seeds, desc=f"{g.name} {init}", unit="seed")
    try:
        done = 0
        while done < seeds:
            count = min(chunk, seeds - done)
            parts.append(
                _native.run_seeds(
                    g,
                    init=kind,
                    cfr_iterations=max(cfr_iterations, 1),
                    searches=searches,
                    first_seed=first_seed + done,
                    count=count,
                    threads=workers,
                )
            )
            done += count
            if bar is not None:
                bar.update(count)
    finally:
        if bar is not None:
            bar.close()

    def cat(key: str) -> npt.NDArray[Any]:
        return np.concatenate([p[key] for p in parts])

    results = []
    for k, (purify_start, depth, samples, _) in enumerate(searches):
        results.append(
            SeedsResult(
                game=g.name,
                init=init,
                states=g.num_states,
                infosets=g.num_infosets,
                depth=depth,
                samples=samples,
                purify_start=purify_start,
                seeds=cat("seed"),
                init_values=cat("init_value"),
                start_values=cat("start_value")[:, k],
                values=cat("value")[:, k],
                iterations=cat("iterations")[:, k],
                improvements=cat("improvements")[:, k],
                links=cat("links")[:, k],
                states_visited=cat("states")[:, k],
                search_seconds=cat("search_seconds")[:, k],
                evaluate_seconds=cat("evaluate_seconds")[:, k],
                init_seconds=cat("init_seconds"),
            )
        )
    return results


def run_seeds(
    game: GameLike,
    init: str = "cfr1k",
    seeds: int = 1000,
    *,
    samples: int | None = None,
    depth: Depth = "paper",
    iterations: int = 100,
    first_seed: int = 0,
    threads: int | None = None,
    purify_start: bool = False,
    progress: bool = False,
) -> SeedsResult:
    """Table 1 (or, with ``samples``, Table 2) over ``seeds`` seeds: see :func:`run_seeds_many`."""
    settings = [
        {
            "depth": depth,
            "samples": samples,
            "iterations": iterations,
            "purify_start": purify_start,
        }
    ]
    return run_seeds_many(
        game, init, seeds, settings, first_seed=first_seed, threads=threads, progress=progress
    )[0]
