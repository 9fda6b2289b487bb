"""The searching card player's settings as one object, mirroring the core's ``CardSearchConfig``:
a field left ``None`` takes the game's default, and every default lives in the core (the game's
registry entry and the sampler's; :meth:`CardSearchConfig.defaults` reads them). Python converts
types only: the core checks every value and its error reaches Python as a ``ValueError`` (or
``LimitExceededError`` for a bound)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fogsearch._core import ttcg as _native

__all__ = ["CardSearchConfig"]


@dataclass(frozen=True)
class CardSearchConfig:
    """How the searching player decides (see ``fogsearch._core.ttcg.Player.search``).

    The search's own: deals: deals sampled per move. iterations: UCB-MCTS iterations per deal.
    seconds: a time budget per move instead. exploration: UCB's c, in points. threads: workers the
    deals are searched on. shared_tree: one information-set tree over all deals instead of a tree
    per deal. Its sampler's: sampler: ``us``, ``ss``, ``us+iec``, ``ss+iec``, ``gibbs`` or
    ``pairs``. model_beta: the Greed model of play of Gongzhu's Gibbs sampler. iec_beta: IEC's
    beta. key_cards, strata: SS's key cards and stratum weights (``exact`` or ``equal``). chains,
    burn_in, thin: Gibbs's.
    """

    deals: int | None = None
    iterations: int | None = None
    seconds: float | None = None
    exploration: float | None = None
    threads: int | None = None
    shared_tree: bool | None = None
    sampler: str | None = None
    model_beta: float | None = None
    iec_beta: float | None = None
    key_cards: int | None = None
    strata: str | None = None
    chains: int | None = None
    burn_in: int | None = None
    thin: int | None = None

    @classmethod
    def defaults(cls, game: str, params: dict | None = None) -> CardSearchConfig:
        """Every setting's default for ``game`` with ``params``, as the core holds them."""
        return cls(**_native.card_search_defaults(game, params))

    def settings(self) -> dict[str, Any]:
        """The settings given (not ``None``), by the core's names."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def player(self, game: str, params: dict | None = None) -> _native.Player:
        """The searching player for ``game`` with these settings (checked by the core)."""
        return _native.Player.search(game, params or None, **self.settings())
