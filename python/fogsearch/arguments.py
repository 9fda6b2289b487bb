"""What a user asks the command line for, checked before anything runs: :class:`UsageError`, and
argparse types for counts, clocks and paths, each with its bound and the reason for it.

The command line prints a :class:`UsageError` as one line and exits 2; so does the tournament
library (``run_tournament``) raise it, as a ``ValueError``, for a setup it cannot play.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path


class UsageError(ValueError):
    """A mistake in what was asked (a player spec, a setting, a count, a clock, a path), found
    before any game is played. Its message says what was wrong and what is allowed."""


def bounded_int(
    least: int, most: int, why: str, *, what: str = "a whole number"
) -> Callable[[str], int]:
    """An argparse type: an integer in ``[least, most]``; out of bounds, the message says ``why``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"{value} is out of bounds: use {least}..{most:,} ({why})"
            )
        return value

    return parse


def bounded_seconds(least: float, most: float, why: str) -> Callable[[str], float]:
    """An argparse type: seconds in ``[least, most]`` (finite)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"{text} is out of bounds: use {least:g}..{most:,g} seconds ({why})"
            )
        return value

    return parse


def probability(text: str) -> float:
    """An argparse type: a probability in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a probability (0..1)")
    return value


SEED = bounded_int(
    0, 2**32 - 1, "seeds numpy's generator, which takes 32 bits", what="a whole-number seed"
)


def cores() -> int:
    """Cores this process may run on (the affinity mask where the platform has one), not the
    machine's count: a process pinned to one core (a tournament player, a container) searches
    on one thread. Every default of "every core" in the package and in bench/ reads this, as the
    native module's default reads Rust's ``available_parallelism``, which honours the same mask."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def existing_file(path: str | Path, what: str) -> Path:
    """``path`` as a Path when it names a readable file; else a :class:`UsageError` naming it."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"{what} {path} does not exist")
    if not path.is_file():
        raise UsageError(f"{what} {path} is not a file")
    if not os.access(path, os.R_OK):
        raise UsageError(f"{what} {path} is not readable")
    return path


def writable_path(path: str | Path, what: str) -> Path:
    """``path`` as a Path when a file can be written there: its folder exists and is writable,
    and it is not a folder itself; else a :class:`UsageError` naming it. Checked before a game
    whose result would otherwise be lost at the end."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"{what} {path} is a folder; name a file")
    if not folder.is_dir():
        raise UsageError(f"{what} {path}: its folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{what} {path} is not writable")
    return path
