"""The core's limits, read from the native module's table (``fogsearch._core.LIMITS``, written
once in the core's ``limits.rs``) rather than restated. Python checks a value's type where it
enters; the range is the core's (:func:`checked`, or the core's own check when the value reaches
it), so that the messages agree."""

from __future__ import annotations

from fogsearch._core import LIMITS, check_limit

__all__ = ["LIMITS", "MAX_THREADS", "MAX_UCI_DEPTH", "MAX_UCI_NODES", "checked"]

MAX_THREADS: int = LIMITS["threads"]
"""Worker threads of any call (more threads than cores only add switching)."""
MAX_UCI_DEPTH: int = LIMITS["uci_depth"]
"""A UCI engine's search depth a position."""
MAX_UCI_NODES: int = LIMITS["uci_nodes"]
"""A UCI engine's node budget a position."""


def checked(setting: str, value: object, limit: str, least: int) -> int:
    """``value`` for ``setting``, an integer in ``least..LIMITS[limit]``: Python checks the type,
    the core the range (a ValueError naming the setting, the range and the value)."""
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        # Not an integer the core can take: the core's message, its bound read from the table.
        most = LIMITS.get(limit, "?")
        raise ValueError(f"{setting} must be an integer in {least}..{most}, got {value!r}")
    return check_limit(setting, limit, least, value)
