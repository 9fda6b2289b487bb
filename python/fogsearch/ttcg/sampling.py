"""Sampling deals from the joint range of an observed Oh Hell state.

``JointRange`` ties an observed history (OpenSpiel action ids for oh_hell, or a Gongzhu history),
an observer and a joint policy to the samplers: the TTCG Gibbs sampler on many chains, and its baselines (exact uniform deals,
importance sampling with that uniform proposal, iid draws from exact enumeration). Every sample is
a deal *assignment*: one owner code per card id (players ``0..P-1``, undealt pile ``P``, trump card
``P+1``); deal order never changes an information state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fogsearch._core import FogsearchError
from fogsearch._core import ttcg as _native
from fogsearch._core.ttcg import LimitExceededError
from fogsearch.diagnostics import acceptance_rate

__all__ = ["GibbsDraws", "JointRange"]


@dataclass(frozen=True)
class GibbsDraws:
    """Draws of several Gibbs chains."""

    samples: np.ndarray
    """uint8 array ``(chain, draw, card)`` of owner codes."""
    transitions: np.ndarray
    """Transitions run by each chain (burn-in included)."""
    accepted: np.ndarray
    """Accepted proposals of each chain."""

    @property
    def acceptance_rate(self) -> float:
        return acceptance_rate(self.accepted, self.transitions)

    def flat(self) -> np.ndarray:
        """All draws as one ``(chain * draw, card)`` array."""
        return self.samples.reshape(-1, self.samples.shape[-1])

    def statistic(self, fn) -> np.ndarray:
        """``fn`` applied to each draw, shaped ``(chain, draw)`` for :func:`rhat` and
        :func:`ess_bulk`."""
        c, d, _ = self.samples.shape
        return np.array([fn(a) for a in self.flat()], dtype=float).reshape(c, d)


def _count(name: str, value: Any, minimum: int = 0) -> int:
    """A size argument as an int, refused with its name when negative or beyond 64 bits (larger
    sizes are refused by the core with the memory they would need)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if value < minimum:
        raise FogsearchError(f"{name} must be at least {minimum}, got {value}")
    if value >= 2**63:
        raise LimitExceededError(f"{name} = {value} is beyond any size one call can use")
    return value


def _rebuild(params, actions, observer, policy, game) -> JointRange:
    return JointRange(params, actions, observer, policy, game=game)


def _params_dict(params: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in params.items()}


class JointRange:
    """Deals consistent with ``observer``'s view of ``actions`` (``None``: the public state),
    weighted by their reach probability under ``policy`` (``None``: every player uniform over legal
    actions; or a built-in policy of ``fogsearch.ttcg``; or a callable, asked under the GIL).

    ``game`` is a name of the core's registry (``fogsearch._core.ttcg.GAMES``: ``"oh_hell"``,
    ``"gongzhu"``, ...); ``params`` are OpenSpiel's for it (Gongzhu has none). Raises ``InfeasibleConstraints`` when no deal is consistent and ``FogsearchError`` (a
    ``ValueError``) for malformed parameters or actions.

    Every sampler is bounded: sizes whose output would pass ``MAX_OUTPUT_BYTES`` (4 GiB) and runs
    of more than ``MAX_TRANSITIONS`` transitions raise ``LimitExceededError`` before any work;
    a policy that gives the observed actions probability zero raises ``ZeroReachError`` on every
    path; Ctrl-C stops any of them within a second (``KeyboardInterrupt``). ``threads`` (default:
    every core) is the number of workers of the shared pool a call runs on; results do not depend
    on it.
    """

    def __init__(
        self,
        params: Mapping[str, Any],
        actions: Sequence[int],
        observer: int | None = None,
        policy: Any = None,
        *,
        game: str = "oh_hell",
    ) -> None:
        self.params = _params_dict(params)
        self.actions = [int(a) for a in actions]
        self.observer = observer
        self.game = game
        self.policy = policy
        self._range = _native.ObservedRange(self.params, self.actions, observer, policy, game)

    def __reduce__(self):
        # Rebuilt from what defines it (the native range is derived, and immutable): copies and
        # pickles are independent, equal ranges when the policy pickles.
        return (_rebuild, (self.params, self.actions, self.observer, self.policy, self.game))

    @classmethod
    def from_pyspiel(
        cls, state: Any, observer: int | None = None, policy: Any = None
    ) -> JointRange:
        """The joint range at a pyspiel state of a game of the core's registry (OpenSpiel's
        ``oh_hell``, or the ``gongzhu`` game :mod:`fogsearch.ttcg.gongzhu_pyspiel` registers)."""
        game = state.get_game()
        name = game.get_type().short_name
        return cls(game.get_parameters(), state.history(), observer, policy, game=name)

    @property
    def num_cards(self) -> int:
        return self._range.num_cards

    def gibbs(
        self,
        num_chains: int = 4,
        draws: int = 1000,
        *,
        burn_in: int = 0,
        thin: int = 1,
        seed: int = 0,
        starts: np.ndarray | None = None,
        kernel: str = "ringswap",
        threads: int | None = None,
    ) -> GibbsDraws:
        """Runs ``num_chains`` TTCG Gibbs chains in parallel (GIL released), each from its own
        randomised max-flow construction (or the given ``starts`` rows), discarding ``burn_in``
        transitions and then recording every ``thin``-th state ``draws`` times. The same seed gives
        the same draws on any number of threads.

        ``kernel`` is the transition: ``"ringswap"``, the paper's (a RingSwap proposal re-dealing
        a neighbouring suit-length table, Metropolis-Hastings acceptance; one reach evaluation per
        transition), or ``"pairs"``: nine transitions in ten re-split up to three hidden cards of
        each of two owners among themselves in proportion to reach (Metropolised Gibbs; up to 20
        reach evaluations per transition), the tenth a RingSwap step. Both leave the joint range
        invariant; on peaked ranges ``"pairs"`` needs far fewer transitions per independent
        draw (bench/RESULTS.md). With ``"pairs"``, ``accepted`` counts the transitions that moved
        the chain."""
        if starts is not None:
            starts = np.ascontiguousarray(starts, dtype=np.uint8)
        samples, transitions, accepted = self._range.gibbs(
            _count("num_chains", num_chains),
            _count("draws", draws),
            _count("burn_in", burn_in),
            _count("thin", thin, 1),
            _count("seed", seed),
            starts,
            kernel,
            threads,
        )
        return GibbsDraws(samples, transitions, accepted)

    def starts(self, n: int, seed: int = 0) -> np.ndarray:
        """``n`` different consistent deals of positive reach from randomised max-flow
        constructions."""
        return self._range.starts(_count("n", n), _count("seed", seed))

    def uniform(self, n: int, seed: int = 0) -> np.ndarray:
        """``n`` exact uniform draws over consistent deals (no policy weighting)."""
        return self._range.uniform(_count("n", n), _count("seed", seed))

    def importance(self, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Uniform draws and their log importance weights (log reach)."""
        return self._range.importance(_count("n", n), _count("seed", seed))

    def exact(
        self, limit: int = 1_000_000, threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every consistent deal of positive reach and its log reach (NotImplementedError if there
        are more than ``limit``)."""
        return self._range.exact(_count("limit", limit), threads)

    def true_samples(
        self, n: int, seed: int = 0, limit: int = 1_000_000, threads: int | None = None
    ) -> np.ndarray:
        """``n`` iid draws from the exactly enumerated joint range."""
        return self._range.true_samples(
            _count("n", n), _count("seed", seed), _count("limit", limit), threads
        )

    def transition_matrix(
        self, limit: int = 5_000, kernel: str = "ringswap", threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every consistent deal (rows, in :meth:`exact`'s order), its log reach, and the exact
        one-step transition matrix ``P`` of a Gibbs chain with ``kernel`` (see :meth:`gibbs`;
        ``P[i, j]``: probability of moving from deal ``i`` to deal ``j``), for reading the
        chain's mixing exactly on small states: the exact range ``pi`` satisfies
        ``pi @ P == pi``, and the chain is reversible, so its spectrum gives the autocorrelation
        of any statistic. Raises NotImplementedError, as :meth:`exact` does, when more than
        ``limit`` deals are consistent (the matrix has ``n**2`` entries)."""
        return self._range.transition_matrix(_count("limit", limit), kernel, threads)

    def log_reach(self, assignments: np.ndarray) -> np.ndarray:
        """Unnormalised log reach of each deal (rows of owner codes)."""
        return self._range.log_target(np.ascontiguousarray(assignments, dtype=np.uint8))

    def count_violations(self, assignments: np.ndarray) -> int:
        """How many deals break a constraint (known cards, voids, hand sizes)."""
        return self._range.count_violations(np.ascontiguousarray(assignments, dtype=np.uint8))
