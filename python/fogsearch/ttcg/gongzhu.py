"""Gongzhu (ScrofaZero paper §2, Table 1): four players, partners across (seats 0 and 2 against 1
and 3), thirteen cards each, no bidding, no trump, follow suit.

Points go to the taker: hearts A -50, K -40, Q -30, J -20, 5-10 -10, 2-4 nothing (-200 in all,
but +200 to a player who takes all thirteen); the queen of spades (the pig) -100; the jack of
diamonds (the sheep) +100; the ten of clubs doubles the taker's other points, or counts +50 when
it is the only one of the sixteen scoring cards the player took. A seat's ``points()`` are its
own; its ``returns()`` are its team's points minus the other team's (so the game is zero-sum, and
a team's mean return is its winning points).

Cards are numbered as OpenSpiel numbers oh_hell's: ``rank * 4 + suit``, ranks from the two, suits
clubs, diamonds, spades, hearts. A game starts with 52 chance actions dealing the cards
round-robin from seat 0; seat 0 leads the first trick. The rules are the Rust core's
(``fogsearch_core::ttcg::gongzhu``); :mod:`fogsearch.ttcg.gongzhu_pyspiel` registers the same game
with OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fogsearch._core.ttcg import GongzhuState, observe_gongzhu

__all__ = [
    "CARD_NAMES",
    "GongzhuState",
    "PIG",
    "SHEEP",
    "TRANSFORMER",
    "card_name",
    "deal",
    "new_state",
    "observe_gongzhu",
]

SUITS = "CDSH"
RANKS = "23456789TJQKA"
PIG = 10 * 4 + 2
SHEEP = 9 * 4 + 1
TRANSFORMER = 8 * 4 + 0


def card_name(card: int) -> str:
    """``"QS"`` for the pig: rank then suit."""
    return RANKS[card // 4] + SUITS[card % 4]


CARD_NAMES = [card_name(c) for c in range(52)]


def deal(seed: int) -> list[int]:
    """The 52 dealing actions of a uniformly random deal drawn from ``seed``."""
    return [int(c) for c in np.random.default_rng(seed).permutation(52)]


def new_state(deal_actions: Sequence[int] | None = None) -> GongzhuState:
    """A game before the deal, or after ``deal_actions`` (52 card ids)."""
    if deal_actions is None:
        return GongzhuState()
    return GongzhuState.from_actions([int(a) for a in deal_actions])
