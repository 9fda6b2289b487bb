"""The core's limits, read from the native module's table (``fogsearch._core.LIMITS``, written
once in the core's ``limits.rs``) rather than restated: Python checks a value's type and range
with these bounds where it enters, so that its messages and the core's agree."""

from __future__ import annotations

from fogsearch._core import LIMITS

__all__ = ["LIMITS", "MAX_THREADS", "MAX_UCI_DEPTH", "MAX_UCI_NODES"]

MAX_THREADS: int = LIMITS["threads"]
"""Worker threads of any call (more threads than cores only add switching)."""
MAX_UCI_DEPTH: int = LIMITS["uci_depth"]
"""A UCI engine's search depth a position."""
MAX_UCI_NODES: int = LIMITS["uci_nodes"]
"""A UCI engine's node budget a position."""
