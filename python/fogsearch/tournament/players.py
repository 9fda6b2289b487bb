"""Who can play in a tournament: reconchess's baseline bots, fogsearch bots with settings, or any
``reconchess.Player`` named by module path or source file.

A :class:`PlayerSpec` is a small picklable value, so it travels to worker processes and Ray tasks;
the player object itself is built where the game is played.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from typing import Any

import reconchess

BASELINES = {
    "random": "reconchess.bots.random_bot",
    "attacker": "reconchess.bots.attacker_bot",
    "trout": "reconchess.bots.trout_bot",
}
STOCKFISH_ENV_VAR = "STOCKFISH_EXECUTABLE"


@dataclass(frozen=True)
class PlayerSpec:
    """A player: ``kind`` is a baseline name, ``"fogsearch"``, or a module path / ``.py`` file."""

    kind: str
    settings: dict[str, Any] = field(default_factory=dict)
    label: str | None = None

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if not self.settings:
            return self.kind
        args = ",".join(f"{k}={v}" for k, v in sorted(self.settings.items()))
        return f"{self.kind}:{args}"

    def settings_json(self) -> str:
        return json.dumps(self.settings, sort_keys=True)

    def __hash__(self) -> int:
        return hash((self.kind, self.settings_json(), self.label))

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Parses ``kind[:key=value,...][@label]``, e.g. ``fogsearch:depth=2@fog-d2`` or ``trout``.

        Values are read as JSON where possible (numbers, booleans), else kept as strings.
        """
        label = None
        if "@" in text:
            text, label = text.rsplit("@", 1)
        kind, _, args = text.partition(":")
        if not kind:
            raise ValueError(f"player spec {text!r} has no kind")
        settings: dict[str, Any] = {}
        for item in filter(None, args.split(",")):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise ValueError(f"player spec setting {item!r} is not key=value")
            try:
                settings[key] = json.loads(value)
            except json.JSONDecodeError:
                settings[key] = value
        return cls(kind=kind, settings=settings, label=label)

    def build(self) -> reconchess.Player:
        """Instantiates the player (in the process that will play the game)."""
        if self.kind == "fogsearch":
            from fogsearch.bot import FogsearchBot
            from fogsearch.bot.config import from_settings

            return FogsearchBot(from_settings(self.settings))
        if self.kind == "trout":
            ensure_stockfish_env()
        source = BASELINES.get(self.kind, self.kind)
        _, player_cls = reconchess.load_player(source)
        if self.settings:
            return player_cls(**self.settings)
        return player_cls()


def find_stockfish() -> str | None:
    """Path of the Stockfish binary: ``$STOCKFISH_EXECUTABLE``, then ``PATH``, then Debian's
    ``/usr/games/stockfish``."""
    candidates = [
        os.environ.get(STOCKFISH_ENV_VAR),
        shutil.which("stockfish"),
        "/usr/games/stockfish",
    ]
    return next((c for c in candidates if c and os.path.exists(c)), None)


def ensure_stockfish_env() -> str:
    path = find_stockfish()
    if path is None:
        raise RuntimeError(
            "TroutBot needs Stockfish: run scripts/install.sh (installs Debian's stockfish) "
            f"or set {STOCKFISH_ENV_VAR}"
        )
    os.environ[STOCKFISH_ENV_VAR] = path
    return path


def stockfish_version() -> str | None:
    """Stockfish's own version line (``Stockfish 15.1 by ...``), pinned in tournament results."""
    import subprocess

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
