"""Where Stockfish is: ``$STOCKFISH_EXECUTABLE`` (reconchess's TroutBot reads it), ``PATH``, or
Debian's ``/usr/games/stockfish`` (``scripts/install.sh`` installs Debian's package)."""

from __future__ import annotations

import os
import shutil
import subprocess

STOCKFISH_ENV_VAR = "STOCKFISH_EXECUTABLE"


def find_stockfish() -> str | None:
    """Path of the Stockfish binary: ``$STOCKFISH_EXECUTABLE``, then ``PATH``, then Debian's
    ``/usr/games/stockfish``; ``None`` if there is none."""
    candidates = [
        os.environ.get(STOCKFISH_ENV_VAR),
        shutil.which("stockfish"),
        "/usr/games/stockfish",
    ]
    return next((c for c in candidates if c and os.path.exists(c)), None)


def require_stockfish(who: str) -> str:
    """The Stockfish path, also put in ``$STOCKFISH_EXECUTABLE`` for reconchess's TroutBot; a
    ``RuntimeError`` saying how to install it if there is none."""
    path = find_stockfish()
    if path is None:
        raise RuntimeError(
            f"{who} needs Stockfish: run scripts/install.sh (installs Debian's stockfish) "
            f"or set {STOCKFISH_ENV_VAR}"
        )
    os.environ[STOCKFISH_ENV_VAR] = path
    return path


def stockfish_version() -> str | None:
    """Stockfish's own version line (``Stockfish 15.1 by ...``), pinned in tournament results."""
    path = find_stockfish()
    if path is None:
        return None
    try:
        out = subprocess.run(
            [path], input="quit\n", capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = out.strip().splitlines()[0] if out.strip() else ""
    return first or None
