"""``fogsearch._core.jps``: Joint Policy Search (paper 002) on its four tabular games. A game is
a shared, immutable handle; policies cross as flat float64 arrays (each decision information set's
action probabilities at its offset); results come back as dicts. Long calls release the GIL and
stop on Ctrl-C. The user-facing API is :mod:`fogsearch.jps`."""

from typing import Any, final

import numpy as np
import numpy.typing as npt

from fogsearch._core import JpsError as JpsError

__all__ = [
    "JpsError",
    "MAX_STATES",
    "MAX_SEEDS",
    "Game",
    "expected_reward",
    "purified",
    "random_policy",
    "cfr",
    "value_change",
    "policy_change_density",
    "start_infosets",
    "joint_policy_search",
    "jps_step",
    "brute_force_step",
    "run_seeds",
]

MAX_STATES: int
MAX_SEEDS: int
"""No game is enumerated with more states than this."""

_Probs = npt.NDArray[np.float64]

@final
class Game:
    """One of paper 002's games, enumerated: ``comm:l=L`` (1-7), ``mini_hanabi``,
    ``simple_bidding:n=N`` (2-64) or ``mini_bridge:n=N`` (1-6)."""

    def __new__(cls, name: str) -> Game: ...
    @property
    def name(self) -> str: ...
    @property
    def num_states(self) -> int:
        """Table 1's #States: every chance, decision and terminal state."""

    @property
    def num_infosets(self) -> int:
        """Table 1's #Infosets, counted as the paper's code keys them."""

    @property
    def num_decision_infosets(self) -> int:
        """Information sets where a player decides."""

    @property
    def num_policy_entries(self) -> int:
        """Length of a policy array."""

    @property
    def max_depth(self) -> int: ...
    @property
    def paper_depth(self) -> int | None:
        """The search depth D of the paper's §6 (``None``: full depth)."""

    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def max_chance_outcomes(self) -> int: ...
    def infosets(self) -> list[tuple[str, int, int, int]]:
        """Per decision information set: (label, player, first policy entry, number of
        actions)."""

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The tree, one entry per state in breadth-first order: ``parent``, ``first_child``,
        ``num_children``, ``action``, ``player`` (-1 chance, -4 terminal), ``infoset``,
        ``utility``, ``chance_prob``."""

    def action_label(self, player: int, action: int) -> str | None:
        """The label of ``action`` for ``player`` (OpenSpiel's ids: -1 chance); None for an id or
        action without one."""

    def deal_view(self, player: int, action: int) -> str | None:
        """What ``player`` sees of the deal ``action`` at the root (its private value)."""

    def __reduce__(self) -> tuple[type[Game], tuple[str]]:
        """A game pickles as its name and is enumerated again from it."""

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def expected_reward(game: Game, probs: _Probs) -> float: ...
def purified(game: Game, probs: _Probs) -> _Probs:
    """Each information set's most likely action with certainty (the lowest on ties)."""

def random_policy(game: Game, seed: int) -> _Probs:
    """Independent U(0, 1) weights per information set, normalised."""

def cfr(
    game: Game,
    iterations: int,
    *,
    plus: bool,
    alternating: bool,
    start: str,
    exploration: float,
    seed: int,
) -> tuple[_Probs, _Probs, float]:
    """CFR (``start`` "uniform" or "random"): ``(current, average, mean_value)``."""

def value_change(game: Game, old: _Probs, new: _Probs) -> tuple[float, list[tuple[int, float]]]:
    """Theorem 1: ``(total, [(infoset, J(I)), ...])`` for the change ``old -> new``."""

def policy_change_density(game: Game, old: _Probs, new: _Probs) -> _Probs:
    """The policy-change density of every state (Eq. 5)."""

def start_infosets(game: Game, depth: int | None = None) -> list[int]:
    """The first information sets (``depth=None``) or all those at ``depth``."""

def joint_policy_search(
    game: Game,
    policy: _Probs,
    *,
    depth: int | None,
    samples: int | None,
    iterations: int,
    seed: int,
) -> dict[str, Any]:
    """Algorithm 1 from ``policy``: ``policy`` (the result), ``value``, ``initial_value``, ``history``,
    ``predicted``, ``iterations``, ``improvements``, ``stats``."""

def jps_step(
    game: Game, probs: _Probs, starts: list[int], depth: int | None = None
) -> dict[str, Any]:
    """One JPS iteration from ``starts``: ``gain``, ``chain``, ``stats``."""

def brute_force_step(
    game: Game, probs: _Probs, starts: list[int], depth: int | None = None
) -> dict[str, Any]:
    """The same chains, each valued by evaluating the whole game: ``gain``, ``chain``,
    ``stats``."""

def run_seeds(
    game: Game,
    *,
    init: str,
    cfr_iterations: int,
    searches: list[tuple[bool, int | None, int | None, int]],
    first_seed: int,
    count: int,
    threads: int,
) -> dict[str, npt.NDArray[Any]]:
    """Per seed a start (``init`` "cfr" or "random"), then each ``(purify_start, depth, samples,
    iterations)`` JPS setting: arrays per seed (``seed``, ``init_value``, ``init_seconds``) and per seed and
    setting (``start_value``, ``value``, ``iterations``, ``improvements``, ``links``,
    ``states``, ``evaluations``, ``search_seconds``, ``evaluate_seconds``)."""
