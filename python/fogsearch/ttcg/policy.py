"""Joint policies for reach probabilities: built-ins computed in Rust, or any Python callable.

A callable policy is called as ``policy(player, info, legal_actions)`` and returns one probability
per legal action. ``info`` is a dict with ``num_tricks``, ``dealer``, ``trump_card``,
``dealt_hand`` (the player's whole dealt hand, card ids), ``current_hand`` and ``public_actions``
(the bids and plays so far, OpenSpiel action ids) -- everything the player's OpenSpiel information
state holds.
"""

from __future__ import annotations

from fogsearch import _core


class _Builtin:
    _builtin: _core.BuiltinPolicy

    def __repr__(self) -> str:
        return repr(self._builtin)


class UniformPolicy(_Builtin):
    """Every player uniform over its legal actions (the default)."""

    def __init__(self) -> None:
        self._builtin = _core.BuiltinPolicy.uniform()


class BiasPolicy(_Builtin):
    """The supplement's random policies: probability ``bias`` on one action per information state
    (chosen by a seeded hash), the rest uniform over the other legal actions."""

    def __init__(self, seed: int, bias: float) -> None:
        self._builtin = _core.BuiltinPolicy.bias(seed, bias)


class SoftmaxPolicy(_Builtin):
    """pi(a | I) proportional to exp(beta * u(I, a)), u ~ U(0, 1) by a seeded hash of (I, a)."""

    def __init__(self, seed: int, beta: float) -> None:
        self._builtin = _core.BuiltinPolicy.softmax(seed, beta)
