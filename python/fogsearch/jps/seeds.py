"""Many seeds of one JPS experiment, in parallel: for each seed a start (the paper's CFR or a
random policy), then JPS with each setting from that start (Table 1 and Table 2 of the paper)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fogsearch._core import jps as _native
from fogsearch._core.jps import JpsError
from fogsearch.arguments import cores
from fogsearch.jps.solve import Depth, GameLike, _depth, _game
from fogsearch.limits import MAX_THREADS

__all__ = ["SeedsResult", "run_seeds", "run_seeds_many"]


_CFR_INIT = re.compile(r"cfr(\d+)(k?)")


def _parse_init(init: str) -> tuple[str, int]:
    """``"cfr1k"`` -> ("cfr", 1000), ``"cfr250"`` -> ("cfr", 250), ``"random"`` -> a random
    policy. ``"uniform"`` is the old spelling of ``"random"`` (the start was never the uniform
    policy, which is what CFR's ``start="uniform"`` means); it still works, with a
    DeprecationWarning, because ``fogsearch jps --init uniform`` offered it."""
    if init == "uniform":
        warnings.warn(
            "init 'uniform' starts from a random policy; call it 'random'",
            DeprecationWarning,
            stacklevel=3,
        )
        return "random", 0
    if init == "random":
        return "random", 0
    m = _CFR_INIT.fullmatch(init)
    if m is None:
        raise JpsError(f"init must be 'random' or 'cfr<iterations>' like 'cfr1k', got {init!r}")
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
    return threads if threads is not None else max(1, min(cores(), MAX_THREADS))


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
    ``"cfr<N>"`` for N, ``"random"`` a random policy), then JPS once per entry of ``settings``
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
    # The core sees one chunk of seeds at a time, so the total is checked here, with its bound.
    if not 1 <= seeds <= _native.MAX_SEEDS:
        raise JpsError(f"seeds must be between 1 and {_native.MAX_SEEDS}, got {seeds}")
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
