"""The bounds of a game's clock, which both a player's own clock (``seconds=`` in its spec) and a
tournament's are checked against: a module of its own so that the player specs and the schedule
both read it without importing each other."""

from __future__ import annotations

import math

from fogsearch.arguments import UsageError

MIN_SECONDS_PER_PLAYER = 1.0
MAX_SECONDS_PER_PLAYER = 86_400.0
CLOCK_WHY = "the clock is in seconds: at least one for a first turn, at most a day"
MAX_INCREMENT = 3_600.0
INCREMENT_WHY = "seconds added to a clock after each turn, at most an hour"


def check_clock(seconds_per_player: float, seconds_increment: float) -> None:
    """Raises :class:`UsageError` for a clock no game can be played with."""
    if not (
        isinstance(seconds_per_player, (int, float))
        and math.isfinite(seconds_per_player)
        and MIN_SECONDS_PER_PLAYER <= seconds_per_player <= MAX_SECONDS_PER_PLAYER
    ):
        raise UsageError(
            f"seconds per player must be in {MIN_SECONDS_PER_PLAYER:g}..{MAX_SECONDS_PER_PLAYER:,g} "
            f"({CLOCK_WHY}), got {seconds_per_player!r}"
        )
    if not (
        isinstance(seconds_increment, (int, float))
        and math.isfinite(seconds_increment)
        and 0 <= seconds_increment <= MAX_INCREMENT
    ):
        raise UsageError(
            f"the increment must be in 0..{MAX_INCREMENT:,g} seconds ({INCREMENT_WHY}), "
            f"got {seconds_increment!r}"
        )
