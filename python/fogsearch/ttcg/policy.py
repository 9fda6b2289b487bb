"""Joint policies for reach probabilities: built-ins computed in Rust, or any Python callable.

A callable policy is called as ``policy(player, info, legal_actions)`` and returns one probability
per legal action. ``info`` is a dict with ``num_tricks``, ``dealer``, ``trump_card``,
``dealt_hand`` (the player's whole dealt hand, card ids), ``current_hand`` and ``public_actions``
(the bids and plays so far, OpenSpiel action ids) -- everything the player's OpenSpiel information
state holds.
"""

from __future__ import annotations

from fogsearch._core import ttcg as _native


class _Builtin:
    _builtin: _native.BuiltinPolicy

    def __repr__(self) -> str:
        return repr(self._builtin)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Builtin) and self._builtin == other._builtin

    def __hash__(self) -> int:
        return hash(bytes(self._builtin.to_bytes()))


class UniformPolicy(_Builtin):
    """Every player uniform over its legal actions (the default)."""

    def __init__(self) -> None:
        self._builtin = _native.BuiltinPolicy.uniform()


class BiasPolicy(_Builtin):
    """The supplement's random policies: probability ``bias`` on one action per information state
    (chosen by a seeded hash), the rest uniform over the other legal actions."""

    def __init__(self, seed: int, bias: float) -> None:
        self._builtin = _native.BuiltinPolicy.bias(seed, bias)


class SoftmaxPolicy(_Builtin):
    """pi(a | I) proportional to exp(beta * u(I, a)), u ~ U(0, 1) by a seeded hash of (I, a)."""

    def __init__(self, seed: int, beta: float) -> None:
        self._builtin = _native.BuiltinPolicy.softmax(seed, beta)
