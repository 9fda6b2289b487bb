"""Oh Hell with OpenSpiel's ``oh_hell`` rules, parameter names and action ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fogsearch._core import ttcg as _native

DEFAULT_PARAMS: dict[str, Any] = dict(_native.game_info("oh_hell")["params"])
"""OpenSpiel's oh_hell defaults, as the core's registry holds them."""


class OhHellGame:
    """``OhHellGame(players=3, num_suits=4, ...)``: the parameters ``pyspiel.load_game("oh_hell",
    {...})`` takes. Invalid parameters raise ValueError naming the parameter."""

    def __init__(self, **params: Any) -> None:
        merged = {**DEFAULT_PARAMS, **params}
        _native.OhHellState(merged)  # validates
        self.params: dict[str, Any] = merged

    @classmethod
    def from_pyspiel(cls, game: Any) -> OhHellGame:
        """The same game as a ``pyspiel`` ``oh_hell`` game object."""
        return cls(**dict(game.get_parameters()))

    def new_initial_state(self) -> _native.OhHellState:
        return _native.OhHellState(self.params)

    def replay(self, actions: Sequence[int]) -> _native.OhHellState:
        """The state reached by ``actions`` (OpenSpiel ids, chance included); ValueError names the
        first illegal action."""
        state = self.new_initial_state()
        for i, a in enumerate(actions):
            try:
                state.apply_action(int(a))
            except ValueError as e:
                raise ValueError(f"action {i} of the history: {e}") from None
        return state

    def trace(
        self, histories: Sequence[Sequence[int]]
    ) -> list[tuple[list[list[int]], list[int], list[float]]]:
        """For every history, in one GIL-free call: the legal actions at every state along it
        (before each action and at the end), the player to act at each (-1 chance, -4 terminal,
        as OpenSpiel), and the returns at the end."""
        return _native.trace_game("oh_hell", self.params, [list(map(int, h)) for h in histories])

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"OhHellGame({args})"
