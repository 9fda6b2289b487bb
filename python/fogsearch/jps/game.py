"""Games (enumerated in the core) and policies over their information sets."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from fogsearch._core import jps as _native
from fogsearch._core.jps import Game

__all__ = ["Game", "Policy", "load_game"]


@functools.lru_cache(maxsize=16)
def load_game(name: str) -> Game:
    """The game ``name`` (``comm:l=L``, ``mini_hanabi``, ``simple_bidding:n=N``,
    ``mini_bridge:n=N``), enumerated once and cached. Raises :class:`JpsError` naming what is
    wrong with the name and what is allowed."""
    return Game(name)


@functools.lru_cache(maxsize=16)
def _layout(game: Game) -> tuple[dict[str, int], list[tuple[str, int, int, int]]]:
    infosets = game.infosets()
    return {label: i for i, (label, _, _, _) in enumerate(infosets)}, infosets


@dataclass(frozen=True)
class Policy:
    """Action probabilities of every decision information set of ``game``, flat: information
    set ``i``'s are ``probs[offset_i : offset_i + num_actions_i]`` (see :meth:`at`). The array
    is a read-only copy; policies are checked by the core when used."""

    game: Game
    probs: npt.NDArray[np.float64] = field(repr=False)

    def __post_init__(self) -> None:
        probs = np.array(self.probs, dtype=np.float64, copy=True)
        probs.setflags(write=False)
        object.__setattr__(self, "probs", probs)

    @classmethod
    def uniform(cls, game: Game) -> Policy:
        probs = np.empty(game.num_policy_entries)
        for _, _, offset, n in _layout(game)[1]:
            probs[offset : offset + n] = 1.0 / n
        return cls(game, probs)

    @classmethod
    def random(cls, game: Game, seed: int) -> Policy:
        """Independent U(0, 1) weights at each information set, normalised (the paper's random
        start)."""
        return cls(game, _native.random_policy(game, seed))

    def infoset(self, label: str) -> int:
        """The index of the information set labelled ``label`` (OpenSpiel's information-state
        string, e.g. ``"p1:d0 p0:a2"`` in Mini-Hanabi)."""
        index = _layout(self.game)[0].get(label)
        if index is None:
            raise KeyError(f"{self.game.name} has no information set {label!r}")
        return index

    def at(self, infoset: int | str) -> npt.NDArray[np.float64]:
        """The action probabilities of one information set (by index or label)."""
        i = self.infoset(infoset) if isinstance(infoset, str) else infoset
        _, _, offset, n = _layout(self.game)[1][i]
        return self.probs[offset : offset + n]

    def purified(self) -> Policy:
        """Each information set's most likely action with certainty (the lowest on ties)."""
        return Policy(self.game, _native.purified(self.game, self.probs))

    def value(self) -> float:
        """The expected common reward."""
        return _native.expected_reward(self.game, self.probs)
