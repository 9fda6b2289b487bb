"""Drop-in replacements for OpenSpiel's oh_hell utilities."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fogsearch._core import ttcg as _native
from fogsearch._core.ttcg import LimitExceededError
from fogsearch.ttcg.sampling import _count

#: Above this many consistent deals, exact enumeration is refused.
DEFAULT_ENUMERATION_LIMIT = 200_000

#: Memory of one pyspiel oh_hell state (measured: 4.6 KiB at 70 actions, RSS over 100,000 states);
#: bounds how many states one call may build.
PYSPIEL_STATE_BYTES = 5 * 1024

#: The most pyspiel states one call may return: the core's output bound over their size.
MAX_STATES = _native.MAX_OUTPUT_BYTES // PYSPIEL_STATE_BYTES

# Resamplers of recent information states: ISMCTS resamples one state once per simulation, and
# the enumeration behind a resampler is most of the cost of a single resample.
_CACHE_SIZE = 64
_resamplers: OrderedDict[tuple, Any] = OrderedDict()


def _policy_key(policy: Any) -> bytes | None:
    """A cache key for policies whose answers cannot change (built-in ones); None otherwise."""
    if policy is None:
        return b"uniform"
    builtin = getattr(policy, "_builtin", policy)
    if isinstance(builtin, _native.BuiltinPolicy):
        return bytes(builtin.to_bytes())
    return None


def _oh_hell_game(pyspiel_state: Any) -> Any:
    # The resampler replays OpenSpiel histories whose chance actions it knows: the games whose
    # registry entry says OpenSpiel's ISMCTS may use it.
    game = pyspiel_state.get_game()
    name = game.get_type().short_name
    games = [g for g in _native.GAMES if _native.game_info(g)["openspiel_ismcts"]]
    if name not in games:
        raise ValueError(f"resampling supports {', '.join(games)} only, got {name}")
    return game


def _resampler(pyspiel_state: Any, game: Any, player: int, policy: Any, limit: int) -> Any:
    """The cached resampler of ``player``'s information state at ``pyspiel_state``, keyed by the
    game (its string names its parameters) and the history (its serialization), both cheap to
    read; built (the range enumerated) on a miss."""
    key_policy = _policy_key(policy)
    key = None
    if key_policy is not None:  # a callable may answer differently next time: never cached
        key = (str(game), pyspiel_state.serialize(), player, key_policy, limit)
        found = _resamplers.get(key)
        if found is not None:
            _resamplers.move_to_end(key)
            return found
    _oh_hell_game(pyspiel_state)
    params = dict(game.get_parameters())
    actions = [int(a) for a in pyspiel_state.history()]
    made = _native.Resampler(params, actions, player, policy, limit)
    if key is not None:
        _resamplers[key] = made
        if len(_resamplers) > _CACHE_SIZE:
            _resamplers.popitem(last=False)
    return made


def _small(name: str, value: Any) -> int:
    # The common case, an int in range, without the general check's cost.
    if type(value) is int and 0 <= value < 1 << 63:
        return value
    return _count(name, value)


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

    Returns a new pyspiel state in which ``player``'s information state is unchanged and the hidden
    cards -- the undealt pile included -- are drawn from the joint range under ``policy`` (default:
    every player uniform over its legal actions), with a uniform deal order. The state must be past
    the deal (trump card turned up).

    ``method``: ``"exact"`` draws from the exact enumeration (NotImplementedError when more than
    ``limit`` deals are consistent, which is counted before anything is listed); ``"gibbs"`` takes
    the end of one TTCG Gibbs chain of ``burn_in`` transitions from a randomised max-flow start of
    positive reach (approximate, any size); ``"auto"`` is exact up to ``limit`` deals, Gibbs
    beyond. The enumerations of the last 64 information states resampled with a built-in policy
    are kept, so repeated resampling of one state (ISMCTS) costs a draw and a C++ replay.

    A policy that gives the observed actions probability zero raises ``ZeroReachError`` whatever
    the method.
    """
    if method not in ("auto", "exact", "gibbs"):
        raise ValueError(f"method must be 'auto', 'exact' or 'gibbs', got {method!r}")
    game = pyspiel_state.get_game()
    player, seed = _small("player", player), _small("seed", seed)
    limit, burn_in = _small("limit", limit), _small("burn_in", burn_in)
    if method != "gibbs":
        try:
            resampler = _resampler(pyspiel_state, game, player, policy, limit)
        except NotImplementedError:
            if method == "exact":
                raise
        else:
            return game.deserialize_state(resampler.one_serialized(seed))
    _oh_hell_game(pyspiel_state)
    params = dict(game.get_parameters())
    actions = [int(a) for a in pyspiel_state.history()]
    joint = _native.ObservedRange(params, actions, player, policy)
    draws, _, _ = joint.gibbs(1, 1, burn_in, 1, seed)
    deal = [int(o) for o in draws[0, -1]]
    new_actions = _native.history_from_deal(params, actions, player, deal, seed)
    return game.deserialize_state("".join(f"{a}\n" for a in new_actions))


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
    ``seed``. ``n`` above :data:`MAX_STATES` raises ``LimitExceededError`` (the states would need
    more than 4 GiB)."""
    game = _oh_hell_game(pyspiel_state)
    n = _count("n", n)
    if n > MAX_STATES:
        raise LimitExceededError(
            f"n = {n} pyspiel states would need about {n * PYSPIEL_STATE_BYTES / 2**30:.1f} GiB "
            f"({PYSPIEL_STATE_BYTES} bytes each); one call may build at most {MAX_STATES}"
        )
    resampler = _resampler(
        pyspiel_state, game, _count("player", player), policy, _count("limit", limit)
    )
    return [game.deserialize_state(s) for s in resampler.serialized(n, _count("seed", seed))]
