"""Drop-in replacements for OpenSpiel's oh_hell utilities."""

from __future__ import annotations

from typing import Any

from fogsearch import _core

#: Above this many consistent deals, exact enumeration is refused.
DEFAULT_ENUMERATION_LIMIT = 200_000


def resample_from_infostate(
    pyspiel_state: Any,
    player: int,
    seed: int,
    policy: Any = None,
    *,
    limit: int = DEFAULT_ENUMERATION_LIMIT,
) -> Any:
    """An exact, policy-aware ``ResampleFromInfostate`` for ``oh_hell``.

    Returns a new pyspiel state, replayed from ``game.new_initial_state()``, in which ``player``'s
    information state is unchanged and the hidden cards -- the undealt pile included -- are drawn
    from the exact joint range under ``policy`` (default: every player uniform over its legal
    actions), with a uniform deal order. The state must be past the deal (trump card turned up).
    Raises NotImplementedError when more than ``limit`` deals are consistent.
    """
    game = pyspiel_state.get_game()
    name = game.get_type().short_name
    if name != "oh_hell":
        raise ValueError(f"resample_from_infostate supports oh_hell only, got {name}")
    params = dict(game.get_parameters())
    actions = [int(a) for a in pyspiel_state.history()]
    new_actions = _core.ttcg_resample_history(
        params, actions, int(player), int(seed), policy, limit
    )
    state = game.new_initial_state()
    for a in new_actions:
        state.apply_action(a)
    return state
