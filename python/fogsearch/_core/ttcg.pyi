"""Type stubs for ``fogsearch._core.ttcg``: trick-taking card games (the core's generic layer with
Oh Hell and Gongzhu), observations, deal samplers, players and matches' deals.

``params`` is a dict of OpenSpiel's oh_hell parameter names (as ``game.get_parameters()``). Card ids
are ``rank * num_suits + suit`` (suits C, D, S, H). Owner codes in deal assignments: players
``0..P-1``, the undealt pile ``P``, the face-up trump card ``P+1``. Every long call releases the
GIL, runs on the shared worker pools (``threads``: default every core, at most 256) and stops
within a second on Ctrl-C (``KeyboardInterrupt``).
"""

from collections.abc import Callable, Sequence
from typing import Any, Protocol, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from fogsearch._core import FogsearchError

__all__ = [
    "InfeasibleConstraints",
    "ZeroReachError",
    "LimitExceededError",
    "MAX_OUTPUT_BYTES",
    "MAX_TRANSITIONS",
    "BuiltinPolicy",
    "GongzhuModel",
    "TabularPolicy",
    "OhHellState",
    "GongzhuState",
    "observe_ohhell",
    "observe_gongzhu",
    "gongzhu_random_play_check",
    "construct_deal",
    "enumerate_consistent",
    "enumerate_deals",
    "walk_histories",
    "log_reach",
    "Resampler",
    "history_from_deal",
    "ObservedRange",
    "Player",
    "sample_deals",
    "play_deal",
    "GAMES",
    "CardState",
    "game_info",
    "trace_game",
    "CARD_SEARCH_SETTINGS",
    "card_search_defaults",
    "SAMPLER_SETTINGS",
]

MAX_OUTPUT_BYTES: int
"""The most bytes one call may return (4 GiB)."""
MAX_TRANSITIONS: int
"""The most Gibbs transitions one call may run (2^36)."""

class InfeasibleConstraints(FogsearchError):
    """No deal is consistent with the constraints; the message names the binding constraint
    (which players, how many hidden cards they need, which suits they are void in)."""

class ZeroReachError(FogsearchError):
    """The joint policy gives the observed actions probability zero under every deal considered;
    the same error on every sampling path."""

class LimitExceededError(FogsearchError):
    """A size, count, thread number or run length above what one call may use; the message names
    the parameter, the limit and what the request would need."""

# ---- policies ----------------------------------------------------------------------------------

@final
class BuiltinPolicy:
    """A joint policy computed in Rust (see ``fogsearch.ttcg.policy``)."""

    @staticmethod
    def uniform() -> BuiltinPolicy: ...
    @staticmethod
    def bias(seed: int, bias: float) -> BuiltinPolicy:
        """Probability ``bias`` (in [0, 1]) on one action per information state."""
    @staticmethod
    def softmax(seed: int, beta: float) -> BuiltinPolicy:
        """pi(a | I) proportional to exp(beta u(I, a)), u ~ U(0, 1); ``beta`` finite, >= 0."""
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> BuiltinPolicy: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class GongzhuModel:
    """Gongzhu's models of play from Mr. Greed's scores q: ``greed(beta)`` the softmax policy
    pi(a | I) proportional to exp(beta q_a); ``iec(beta)`` IEC's unnormalised correction factor
    exp(-beta (q_max - q_a)) on the important slices (a deal's reach under it is IEC's score)."""

    @staticmethod
    def greed(beta: float) -> GongzhuModel: ...
    @staticmethod
    def iec(beta: float) -> GongzhuModel: ...

@final
class TabularPolicy:
    """Action probabilities per information state, learnt by ``q_learning``: independent
    Q-learning by self-play on oh_hell with ``params`` (``num_tricks_fixed`` set), every-visit
    Monte Carlo targets at rate ``alpha``, played epsilon-greedily. Unvisited information states
    are played uniformly."""

    @staticmethod
    def q_learning(
        params: _Params,
        episodes: int = 100_000,
        epsilon: float = 0.1,
        alpha: float = 0.05,
        seed: int = 0,
    ) -> TabularPolicy: ...
    def __len__(self) -> int: ...

# ---- games -------------------------------------------------------------------------------------

class _GameState:
    """What every native game state offers (not a runtime class: the stubs' shared part)."""

    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def current_player(self) -> int: ...
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def history(self) -> list[int]: ...
    def clone(self) -> Self: ...

@final
class OhHellState(_GameState):
    """An oh_hell state with OpenSpiel's rules, action ids and player codes (-1 chance, -4
    terminal). ``apply_action`` of an illegal action raises ``FogsearchError`` and leaves the
    state unchanged. Pickles and copies through its bytes."""

    def __new__(cls, params: _Params) -> Self: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> OhHellState: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...

@final
class GongzhuState(_GameState):
    """A Gongzhu game: 52 chance actions deal round-robin from seat 0, then seat 0 leads.
    ``returns()``: each seat's team points minus the other team's; ``points()``: its own."""

    def __new__(cls) -> Self: ...
    @staticmethod
    def from_actions(actions: Sequence[int]) -> GongzhuState: ...
    @staticmethod
    def deal_actions(hands: Sequence[Sequence[int]]) -> list[int]:
        """The dealing actions of four 13-card hands that use every card once."""
    def points(self) -> list[float]: ...
    def dealt_hands(self) -> list[list[int]]: ...
    def hands(self) -> list[list[int]]: ...
    def taken(self) -> list[list[int]]: ...
    def plays(self) -> list[tuple[int, int]]:
        """Every play so far as (seat, card)."""
    def current_trick(self) -> list[int]: ...
    def clone(self) -> GongzhuState: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> GongzhuState: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...

GAMES: tuple[str, ...]
"""The names of the registry's trick-taking games."""

@final
class CardState(_GameState):
    """Any game of the registry (``GAMES``) by name, with OpenSpiel's rules, action ids and
    player codes (-1 chance, -4 terminal). ``apply_action`` of an illegal action raises
    ``FogsearchError`` and leaves the state unchanged."""

    def __new__(cls, game: str, params: _Params | None = None) -> Self: ...
    @property
    def game(self) -> str: ...
    def num_players(self) -> int: ...
    def at_table(self) -> bool:
        """Whether play has started (chance and any passes are behind)."""

def game_info(game: str, params: _Params | None = None) -> dict[str, Any]:
    """The registry's entry: name, seats, teams, team_of, params (defaults), search (the card
    search's settings), greed_players, openspiel_ismcts."""

def trace_game(
    game: str, params: _Params | None, histories: Sequence[Sequence[int]]
) -> list[tuple[list[list[int]], list[int], list[float]]]:
    """Per history of ``game`` (the registry's name): legal actions at every state along it,
    the player to act at each (OpenSpiel codes), the final returns."""

def observe_ohhell(
    params: _Params, actions: Sequence[int], observer: int | None = None
) -> dict[str, Any]:
    """What ``observer`` (None: the public) knows: the constraints' fields, the table and the
    public events."""

def observe_gongzhu(actions: Sequence[int], observer: int | None = None) -> dict[str, Any]:
    """As ``observe_ohhell``, for a Gongzhu history."""

def gongzhu_random_play_check(games: int, seed: int = 0) -> dict[str, Any]:
    """``games`` random-play Gongzhu games in Rust, the rules' invariants checked after each."""

# ---- deals -------------------------------------------------------------------------------------

class _DealConstraints(Protocol):
    """What the deal functions read (``fogsearch.ttcg.observation.DealConstraints``)."""

    @property
    def num_players(self) -> int: ...
    @property
    def num_suits(self) -> int: ...
    @property
    def num_ranks(self) -> int: ...
    @property
    def known_owner(self) -> Sequence[int]: ...
    @property
    def hidden_counts(self) -> Sequence[int]: ...
    @property
    def voids(self) -> Sequence[Sequence[bool]]: ...

def construct_deal(constraints: _DealConstraints) -> npt.NDArray[np.uint8]:
    """A consistent deal by max flow; ``InfeasibleConstraints`` when none exists."""

def enumerate_consistent(
    constraints: _DealConstraints, limit: int = 1_000_000
) -> npt.NDArray[np.uint8]:
    """Every consistent deal; ``NotImplementedError`` above ``limit``."""

def enumerate_deals(
    params: _Params,
    actions: Sequence[int],
    observer: int | None = None,
    policy: _Policy = None,
    limit: int = 1_000_000,
    threads: int | None = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], float]:
    """Deals of positive reach, their log reach, and deal orders per deal."""

def walk_histories(
    params: _Params,
    actions: Sequence[int],
    observer: int | None = None,
    policy: _Policy = None,
    limit: int = 1_000_000,
    threads: int | None = None,
) -> tuple[int, float]:
    """(number of OpenSpiel histories, sum of their reach relative to the likeliest deal)."""

def log_reach(
    params: _Params,
    actions: Sequence[int],
    assignments: npt.NDArray[np.uint8],
    policy: _Policy = None,
) -> npt.NDArray[np.float64]: ...
def history_from_deal(
    params: _Params, actions: Sequence[int], player: int, assignment: Sequence[int], seed: int
) -> list[int]:
    """The history of ``actions`` re-dealt as ``assignment`` (checked against ``player``'s
    information state), deal order uniform by ``seed``."""

@final
class Resampler:
    """Histories of one player's information state drawn exactly from its joint range (the
    enumeration is done once, here)."""

    def __new__(
        cls,
        params: _Params,
        actions: Sequence[int],
        player: int,
        policy: _Policy = None,
        limit: int = 200_000,
        threads: int | None = None,
    ) -> Self: ...
    @property
    def num_deals(self) -> int: ...
    def histories(self, n: int, seed: int) -> list[list[int]]: ...
    def serialized(self, n: int, seed: int) -> list[str]:
        """The histories in OpenSpiel's serialization (for ``game.deserialize_state``)."""
    def one_serialized(self, seed: int) -> str: ...

@final
class ObservedRange:
    """The joint range of an observed oh_hell (``params``) or Gongzhu (``game="gongzhu"``) state."""

    def __new__(
        cls,
        params: _Params,
        actions: Sequence[int],
        observer: int | None = None,
        policy: _Policy = None,
        game: str = "oh_hell",
    ) -> Self: ...
    @property
    def num_cards(self) -> int: ...
    @property
    def hidden_counts(self) -> list[int]: ...
    def starts(self, n: int, seed: int = 0) -> npt.NDArray[np.uint8]: ...
    def gibbs(
        self,
        num_chains: int,
        draws: int,
        burn_in: int = 0,
        thin: int = 1,
        seed: int = 0,
        starts: npt.NDArray[np.uint8] | None = None,
        kernel: str = "ringswap",
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
    def uniform(self, n: int, seed: int = 0) -> npt.NDArray[np.uint8]: ...
    def importance(
        self, n: int, seed: int = 0
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]: ...
    def exact(
        self, limit: int = 1_000_000, threads: int | None = None
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]: ...
    def transition_matrix(
        self, limit: int = 5_000, kernel: str = "ringswap", threads: int | None = None
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def true_samples(
        self, n: int, seed: int = 0, limit: int = 1_000_000, threads: int | None = None
    ) -> npt.NDArray[np.uint8]: ...
    def log_target(self, assignments: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]: ...
    def count_violations(self, assignments: npt.NDArray[np.uint8]) -> int: ...

def sample_deals(
    state: _State,
    sampler: str = "us",
    n: int = 16,
    seed: int = 0,
    **settings: Any,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """Deals the sampler draws for the seat to act (us, ss, us+iec, ss+iec, gibbs, pairs) and
    their self-normalised log weights. ``settings``: named as ``SAMPLER_SETTINGS`` (unset: the
    core's defaults for the game), e.g. ``strata``: SS's p(S_j), each stratum's share of the
    consistent deals (``"exact"``) or the paper's 1/t (``"equal"``)."""

# ---- players -----------------------------------------------------------------------------------

@final
class Player:
    """``random()``, ``mr_if()`` and ``greed()`` (Gongzhu), or ``search(...)``."""

    @staticmethod
    def random() -> Player: ...
    @staticmethod
    def mr_if() -> Player: ...
    @staticmethod
    def greed() -> Player: ...
    @staticmethod
    def search(game: str = "gongzhu", params: _Params | None = None, **settings: Any) -> Player:
        """The searching player; ``settings`` named as ``CARD_SEARCH_SETTINGS`` (None or unset:
        the game's default, ``card_search_defaults``), checked by the core."""
    @property
    def kind(self) -> str: ...
    def act(self, state: _State, seed: int) -> int: ...
    def explain(self, state: _State, seed: int) -> dict[str, Any]:
        """The searching player's move with each legal action's value over the deals."""

CARD_SEARCH_SETTINGS: tuple[str, ...]
"""The searching player's settings, by name (``fogsearch.ttcg.search_config.CardSearchConfig``)."""

SAMPLER_SETTINGS: tuple[str, ...]
"""The sampler's settings, by name (what ``sample_deals`` takes as keywords)."""

def card_search_defaults(game: str, params: _Params | None = None) -> dict[str, Any]:
    """Every search setting's default for ``game`` (``seconds`` is unset: no time budget)."""

def play_deal(
    state: _State, players: Sequence[Player], seed: int
) -> tuple[list[int], list[float], list[float]]:
    """A deal played to the end in Rust: (public actions, points, returns)."""

# Argument types (forward references are fine in a stub).
_Params = dict[str, Any]
_Policy = (
    BuiltinPolicy
    | GongzhuModel
    | TabularPolicy
    | Callable[[int, dict[str, Any], list[int]], Sequence[float]]
    | None
)
_State = OhHellState | GongzhuState | CardState
