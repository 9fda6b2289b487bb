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
    method: str = "auto",
    limit: int = DEFAULT_ENUMERATION_LIMIT,
    burn_in: int = 200,
) -> Any:
    """A policy-aware ``ResampleFromInfostate`` for ``oh_hell``.

    Returns a new pyspiel state, replayed from ``game.new_initial_state()``, in which ``player``'s
    information state is unchanged and the hidden cards -- the undealt pile included -- are drawn
    from the joint range under ``policy`` (default: every player uniform over its legal actions),
    with a uniform deal order. The state must be past the deal (trump card turned up).

    ``method``: ``"exact"`` draws from the exact enumeration (NotImplementedError when more than
    ``limit`` deals are consistent); ``"gibbs"`` takes the end of one TTCG Gibbs chain of
    ``burn_in`` transitions from a randomised max-flow start (approximate, any size, built-in
    policies only); ``"auto"`` is exact up to ``limit`` deals, Gibbs beyond.
    """
    if method not in ("auto", "exact", "gibbs"):
        raise ValueError(f"method must be 'auto', 'exact' or 'gibbs', got {method!r}")
    game = pyspiel_state.get_game()
    name = game.get_type().short_name
    if name != "oh_hell":
        raise ValueError(f"resample_from_infostate supports oh_hell only, got {name}")
    params = dict(game.get_parameters())
    actions = [int(a) for a in pyspiel_state.history()]
    new_actions = None
    if method != "gibbs":
        try:
            new_actions = _core.ttcg_resample_history(
                params, actions, int(player), int(seed), policy, limit
            )
        except NotImplementedError:
            if method == "exact":
                raise
    if new_actions is None:
        joint = _core.TtcgRange(params, actions, int(player), policy)
        draws, _, _ = joint.gibbs(num_chains=1, draws=1, burn_in=int(burn_in), seed=int(seed))
        deal = [int(o) for o in draws[0, -1]]
        new_actions = _core.ttcg_history_from_deal(params, actions, int(player), deal, int(seed))
    state = game.new_initial_state()
    for a in new_actions:
        state.apply_action(a)
    return state


def resample_many_from_infostate(
    pyspiel_state: Any,
    player: int,
    n: int,
    seed: int,
    policy: Any = None,
    *,
    limit: int = DEFAULT_ENUMERATION_LIMIT,
) -> list[Any]:
    """``n`` independent exact resamples (as :func:`resample_from_infostate` with
    ``method="exact"``), enumerating the joint range once; draw ``i`` uses stream ``i`` of
    ``seed``."""
    game = pyspiel_state.get_game()
    params = dict(game.get_parameters())
    actions = [int(a) for a in pyspiel_state.history()]
    histories = _core.ttcg_resample_histories(
        params, actions, int(player), int(seed), int(n), policy, limit
    )
    states = []
    for history in histories:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        states.append(state)
    return states
