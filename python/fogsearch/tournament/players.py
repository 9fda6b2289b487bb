"""Who can play in a tournament: reconchess's baseline bots, ``trout-set`` (TroutBot's play on a
board its exact set allows), fogsearch bots with settings, or any ``reconchess.Player`` named by
module path or source file.

A :class:`PlayerSpec` is a small picklable value, so it travels to worker processes and Ray tasks;
the player object itself is built where the game is played. :meth:`PlayerSpec.check` builds
everything but the player in the process that asks, so a misspelt kind or a bad setting is a
:class:`~fogsearch.arguments.UsageError` before the first game, not a crash in every game.
"""

from __future__ import annotations

import difflib
import inspect
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import reconchess

from fogsearch.arguments import UsageError
from fogsearch.opponents.stockfish import (
    STOCKFISH_ENV_VAR,
    find_stockfish,
    require_stockfish,
    stockfish_version,
)
from fogsearch.settings import config_from_settings
from fogsearch.tournament.clock import check_clock

__all__ = [
    "BASELINES",
    "KINDS",
    "STOCKFISH_ENV_VAR",
    "PlayerSpec",
    "ensure_stockfish_env",
    "find_stockfish",
    "stockfish_version",
]

BASELINES = {
    "random": "reconchess.bots.random_bot",
    "attacker": "reconchess.bots.attacker_bot",
    "trout": "reconchess.bots.trout_bot",
}
KINDS = {
    "random": "reconchess's RandomBot",
    "attacker": "reconchess's AttackerBot",
    "trout": "reconchess's TroutBot, as shipped (Stockfish)",
    "trout-set": "TroutBot's play on boards from an exact board set (Stockfish; move_seconds=...)",
    "fogsearch": "the fogsearch bot (FogsearchBotConfig settings)",
}
"""The named player kinds; any other kind is a reconchess bot module path or ``.py`` file."""
RESERVED = {
    "python": "the interpreter the player's process runs under (a bot module or .py file only)",
    "seconds": "the player's own clock in seconds (instead of the tournament's --seconds)",
    "increment": "the player's own increment in seconds (instead of --increment)",
}
"""Settings of the match, not of the bot: kept in the spec (so in its name and its stored
settings), never passed to the bot."""
ENGINE_KINDS = frozenset({"trout", "trout-set"})
"""Kinds that play with Stockfish (its version is stored with the results)."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player: ``kind`` is a name in :data:`KINDS`, or a module path / ``.py`` file."""

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

    @property
    def bot_settings(self) -> dict[str, Any]:
        """The settings the bot itself takes (without :data:`RESERVED`)."""
        return {k: v for k, v in self.settings.items() if k not in RESERVED}

    @property
    def python(self) -> str | None:
        """The interpreter of this player's process, when it is not fogsearch's own."""
        value = self.settings.get("python")
        return None if value is None else str(value)

    def clock(self, seconds: float, increment: float) -> tuple[float, float]:
        """This player's clock: its own ``seconds``/``increment`` settings, else the given."""
        return (
            float(self.settings.get("seconds", seconds)),
            float(self.settings.get("increment", increment)),
        )

    def host_request(self, game_seed: int) -> dict:
        """How :mod:`~fogsearch.tournament.player_host` builds this player in its process:
        under another interpreter, by loading the bot as reconchess does (fogsearch may not
        be installed there); under ours, by :func:`build_spec`."""
        if self.python:
            return {
                "op": "build",
                "source": BASELINES.get(self.kind, self.kind),
                "settings": self.bot_settings,
                "seed": game_seed,
            }
        return {
            "op": "build",
            "factory": "fogsearch.tournament.players:build_spec",
            "args": {"kind": self.kind, "settings": self.settings, "game_seed": game_seed},
            "seed": game_seed,
        }

    def settings_json(self) -> str:
        return json.dumps(self.settings, sort_keys=True)

    def __hash__(self) -> int:
        return hash((self.kind, self.settings_json(), self.label))

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Parses ``kind[:key=value,...][@label]``, e.g. ``fogsearch:depth=2@fog-d2`` or ``trout``.

        Values are read as JSON where possible (numbers, booleans), else kept as strings; they are
        converted to each setting's type when the player is built. Raises
        :class:`~fogsearch.arguments.UsageError` (a ``ValueError``) for malformed text.
        """
        original, label = text, None
        if "@" in text:
            text, label = text.rsplit("@", 1)
            if not label.strip():
                raise UsageError(f"player spec {original!r} has an empty label after @")
        kind, _, args = text.partition(":")
        if not kind:
            raise UsageError(f"player spec {original!r} has no kind; {kinds_allowed()}")
        settings: dict[str, Any] = {}
        for item in filter(None, args.split(",")):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise UsageError(
                    f"player spec {original!r}: setting {item!r} is not key=value "
                    "(kind:key=value,key=value@label)"
                )
            if key in settings:
                raise UsageError(f"player spec {original!r} gives {key} twice")
            try:
                settings[key] = json.loads(value)
            except json.JSONDecodeError:
                settings[key] = value
        return cls(kind=kind, settings=settings, label=label)

    def check(self) -> None:
        """Raises :class:`~fogsearch.arguments.UsageError` unless this player can be built:
        its kind is known or loads as a reconchess bot, its settings are its own and of the
        right types (the config is built here, so its own checks run), and the Stockfish it
        needs is installed. Nothing is started (no engine, no game)."""
        self._check_reserved()
        if self.python:
            return  # its module is loaded by the other interpreter, in the player's process
        if self.kind == "fogsearch":
            self.fogsearch_config()
        elif self.kind == "trout-set":
            self.trout_set_config()
            self._stockfish()
        else:
            if self.kind == "trout":
                self._stockfish()
            player_cls = self._player_class()
            try:
                inspect.signature(player_cls).bind(**self.bot_settings)
            except TypeError:
                raise UsageError(
                    _settings_refused(self.kind, player_cls, self.bot_settings)
                ) from None

    def _check_reserved(self) -> None:
        seconds, increment = self.settings.get("seconds", 60.0), self.settings.get("increment", 0)
        try:
            check_clock(seconds, increment)
        except UsageError as exc:
            raise UsageError(f"player {self.name}: {exc}") from None
        if "python" not in self.settings:
            return
        if self.kind in KINDS and self.kind not in BASELINES:
            raise UsageError(
                f"player {self.name}: python= runs a bot module or .py file under another "
                f"interpreter; {self.kind} is fogsearch's own and runs under this one"
            )
        python = Path(str(self.settings["python"]))
        if not (python.is_file() and os.access(python, os.X_OK)):
            raise UsageError(f"player {self.name}: python={python} is not an executable file")
        if self.kind.endswith(".py") and not Path(self.kind).is_file():
            raise UsageError(f"player {self.kind}: no such bot file")
        probe = subprocess.run(
            [str(python), "-c", "import reconchess, chess"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise UsageError(
                f"player {self.name}: python={python} cannot import reconchess and chess, "
                f"which its player process needs: {last}"
            )

    def fogsearch_config(self):
        """The ``FogsearchBotConfig`` of these settings (:class:`UsageError` if they are bad).
        The bot's config says which of its fields are settings and of which types
        (``fogsearch.bot.config.from_settings``: nested configs' fields by their own names, the
        search's time limit left to the clock plan); building it runs every config's checks."""
        from fogsearch.bot.config import from_settings

        try:
            return from_settings(self.bot_settings)
        except (ValueError, TypeError) as exc:
            raise UsageError(f"{_spec_text(self.kind, self.settings)}: {exc}") from None

    def trout_set_config(self):
        from fogsearch.opponents.trout_set import TroutSetConfig

        return config_from_settings(TroutSetConfig, self.bot_settings, "trout-set")

    def build(self, game_seed: int | None = None) -> reconchess.Player:
        """Instantiates the player (in the process that will play the game). A fogsearch bot
        whose settings name no ``seed`` is seeded with ``game_seed``, so that the games of a
        tournament differ while each replays."""
        if self.kind == "fogsearch":
            from fogsearch.bot import FogsearchBot

            if game_seed is not None and "seed" not in self.settings:
                seeded = PlayerSpec(self.kind, {**self.bot_settings, "seed": game_seed % 2**64})
                return FogsearchBot(seeded.fogsearch_config())
            return FogsearchBot(self.fogsearch_config())
        if self.kind == "trout-set":
            from fogsearch.opponents.trout_set import TroutSetBot

            return TroutSetBot(self.trout_set_config())
        if self.kind == "trout":
            ensure_stockfish_env()
        player_cls = self._player_class()
        if self.bot_settings:
            return player_cls(**self.bot_settings)
        return player_cls()

    def _player_class(self) -> type[reconchess.Player]:
        source = BASELINES.get(self.kind, self.kind)
        if self.kind not in BASELINES:
            path = Path(self.kind)
            if self.kind.endswith(".py") and not path.is_file():
                raise UsageError(f"player {self.kind}: no such bot file")
            if not path.is_file() and not _module_name(self.kind):
                raise UsageError(_unknown_kind(self.kind))
        try:
            _, player_cls = reconchess.load_player(source)
        except ModuleNotFoundError as exc:
            if exc.name and self.kind.split(".")[0] == exc.name.split(".")[0]:
                raise UsageError(_unknown_kind(self.kind)) from None
            raise UsageError(f"player {self.kind} cannot be loaded: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - any failure to import the user's bot is theirs
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageError(f"player {self.kind} cannot be loaded: {first}") from None
        return player_cls

    def _stockfish(self) -> None:
        try:
            require_stockfish(self.kind)
        except RuntimeError as exc:
            raise UsageError(str(exc)) from None


def build_spec(kind: str, settings: dict[str, Any], game_seed: int) -> reconchess.Player:
    """The player of a spec, in a player process of fogsearch's own interpreter."""
    return PlayerSpec(kind, settings).build(game_seed)


def ensure_stockfish_env() -> str:
    """The Stockfish path, set in ``$STOCKFISH_EXECUTABLE`` for reconchess's TroutBot."""
    return require_stockfish("TroutBot")


def _spec_text(kind: str, settings: dict[str, Any]) -> str:
    return f"{kind}:" + ",".join(f"{k}={v}" for k, v in settings.items())


def kinds_allowed() -> str:
    named = ", ".join(KINDS)
    return f"player kinds are {named}, or a reconchess bot module or .py file"


def _unknown_kind(kind: str) -> str:
    close = difflib.get_close_matches(kind, list(KINDS), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown player kind {kind!r}{hint}; {kinds_allowed()}"


def _module_name(text: str) -> bool:
    """Whether ``text`` reads as a dotted Python module path."""
    return all(part.isidentifier() for part in text.split("."))


def _settings_refused(kind: str, player_cls: type, settings: dict[str, Any]) -> str:
    params = [
        p
        for p in inspect.signature(player_cls).parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    given = ",".join(settings)
    if not params:
        return f"{kind} takes no settings (got {given})"
    return (
        f"{kind} does not take the settings {given}; it takes {', '.join(p.name for p in params)}"
    )
