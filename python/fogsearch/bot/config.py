"""The bot's settings: one :class:`FogsearchBotConfig` holding the :class:`SearchConfig` it searches
with, the clock plan and the rule against reconchess's 100-half-move draw. Every setting is
checked when the config is built, so a bad one fails before a game rather than as a failed search
every turn (which the bot would survive by playing fallback moves: a silently random bot).

How each default was chosen, and the settings that measured no better and were removed, are in
``bench/NOTEBOOK.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, get_type_hints

import chess

from fogsearch.search import MAX_DEPTH, SearchConfig


def _check_int(owner: object, name: str, least: int, most: int | None = None) -> None:
    value = getattr(owner, name)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < least
        or (most is not None and value > most)
    ):
        wanted = "a non-negative integer" if least == 0 else f"an integer >= {least}"
        if most is not None:
            wanted = f"an integer in {least}..{most}"
        raise ValueError(f"{name} must be {wanted}, got {value!r}")


def _check_seconds(owner: object, name: str) -> None:
    value = getattr(owner, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a finite number of seconds >= 0, got {value!r}")


@dataclass(frozen=True)
class ClockPlan:
    """How a turn's time is taken from the clock: what is left beyond ``reserve_seconds``, spread
    over ``plan_turns`` turns, clamped to ``[min_turn_seconds, max_turn_seconds]``."""

    plan_turns: int = 25
    min_turn_seconds: float = 0.2
    max_turn_seconds: float = 20.0
    reserve_seconds: float = 15.0
    """Never plan to use the last this-many seconds of the clock."""

    def __post_init__(self) -> None:
        _check_int(self, "plan_turns", 1)
        for name in ("min_turn_seconds", "max_turn_seconds", "reserve_seconds"):
            _check_seconds(self, name)
        if self.min_turn_seconds > self.max_turn_seconds:
            raise ValueError(
                f"min_turn_seconds ({self.min_turn_seconds}) exceeds max_turn_seconds "
                f"({self.max_turn_seconds})"
            )


@dataclass(frozen=True)
class ProgressRule:
    """Against reconchess's 100-half-move draw, which the worst-case search cannot see: once the
    half-move clock may have reached ``progress_halfmoves``, play a request that resets it
    (a pawn move or a capture on most boards) within ``progress_margin_cp`` of the best; from
    ``progress_force_halfmoves`` (0: never), while not behind in material on any board, play one
    whatever the search values it."""

    progress_halfmoves: int = 40
    progress_margin_cp: int = 150
    progress_force_halfmoves: int = 90

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_int(self, f.name, 0)


MAX_TRACKED_BOARDS = 50_000_000
"""About 20 GiB at the peak of an expansion (420 bytes a board): beyond a tournament machine."""


def _bot_search() -> SearchConfig:
    return SearchConfig(mode="exact", sense_mode="min_size")


@dataclass(frozen=True)
class FogsearchBotConfig:
    """Settings of :class:`fogsearch.bot.FogsearchBot` (all have tournament-ready defaults)."""

    search: SearchConfig = field(default_factory=_bot_search)
    """How each turn's information-set search runs (its ``time_limit`` is set per turn by the
    clock plan; its ``seed`` also seeds the bot's samples of large sets)."""
    depth: int = 2
    """Deepest search depth (our moves); iterative deepening stops earlier when time runs out."""
    small_set_depth: int = 3
    """On sets of at most ``small_set_boards`` boards, search this deep instead, within
    ``small_set_seconds`` a turn (0: never)."""
    small_set_boards: int = 32
    small_set_seconds: float = 8.0
    max_search_boards: int = 256
    """Above this many boards the search works on a seeded uniform sample; tracking stays exact
    (up to ``max_tracked_boards``)."""
    max_tracked_boards: int = 4_000_000
    """Memory bound of the tracked set: an expansion peaks at about 420 bytes per board it makes
    (``bench/rbc_memory.py``), so up to about 1.6 GiB at this default.
    Tracking is exact below it; an opponent move that would expand the set past it is applied to
    a seeded sample of the boards instead (counted in ``approximations``), which may lose the true
    board (an observation then finds no board and the set is rebuilt from the log)."""
    clock: ClockPlan = field(default_factory=ClockPlan)
    tie_margin_cp: int = 50
    """Requests within this many centipawns of the best worst-case value tie (every request ties
    when the best one still loses our king on some board); a tie goes to the best mean over the
    boards of the one-reply outcome."""
    mate_threats: bool = True
    """In that tie-break, a request after which some reply leaves our king attacked with no move
    of ours saving it scores ``-MATE / 2`` on that board
    (:func:`fogsearch.search.mean_reply_values`)."""
    progress: ProgressRule = field(default_factory=ProgressRule)
    opening_as_black: str = "g8f6 e7e6 f8e7 e8g8"
    """Requests (UCI, space-separated) played as Black on the first turns, each while the search
    values it within ``opening_margin_cp`` of the best request, not losing, and every earlier one
    was taken as requested (empty: no line)."""
    opening_margin_cp: int = 200
    """The worst case over a set is pessimistic about quiet developing moves, so an opening held to
    ``tie_margin_cp`` would end on its first move."""

    def __post_init__(self) -> None:
        if not isinstance(self.search, SearchConfig):
            raise ValueError(f"search must be a SearchConfig, got {self.search!r}")
        if not isinstance(self.clock, ClockPlan):
            raise ValueError(f"clock must be a ClockPlan, got {self.clock!r}")
        if not isinstance(self.progress, ProgressRule):
            raise ValueError(f"progress must be a ProgressRule, got {self.progress!r}")
        for name, least, most in (
            ("depth", 1, MAX_DEPTH),
            ("small_set_depth", 0, MAX_DEPTH),
            ("small_set_boards", 1, None),
            ("max_search_boards", 1, None),
            ("max_tracked_boards", 256, MAX_TRACKED_BOARDS),
            ("tie_margin_cp", 0, None),
            ("opening_margin_cp", 0, None),
        ):
            _check_int(self, name, least, most)
        _check_seconds(self, "small_set_seconds")
        if self.small_set_seconds <= 0:
            raise ValueError(f"small_set_seconds must be positive, got {self.small_set_seconds!r}")
        if not isinstance(self.mate_threats, bool):
            raise ValueError(f"mate_threats must be a bool, got {self.mate_threats!r}")
        opening_moves(self.opening_as_black, "opening_as_black")


def opening_moves(line: str, setting: str = "opening line") -> list[chess.Move]:
    """The requests of a space-separated UCI line; ValueError naming ``setting`` and a malformed
    request."""
    if not isinstance(line, str):
        raise ValueError(f"{setting} must be a string of UCI moves, got {line!r}")
    moves = []
    for uci in line.split():
        try:
            moves.append(chess.Move.from_uci(uci))
        except ValueError:
            raise ValueError(f"{setting}: {uci!r} is not a UCI move") from None
    return moves


def flat_settings(
    config_class: type = FogsearchBotConfig,
) -> dict[str, tuple[tuple[str, ...], Any]]:
    """Every setting of ``config_class`` by its own name, nested configs (``search``, ``clock``,
    ``progress``) flattened: ``name -> (path, type)``. Names are unique across the nesting, so a
    player spec can say ``fogsearch:depth=3,mode=exact,plan_turns=30``. The search's
    ``time_limit`` is left out: the clock plan sets it every turn."""
    out: dict[str, tuple[tuple[str, ...], Any]] = {}

    def walk(cls: type, path: tuple[str, ...]) -> None:
        hints = get_type_hints(cls)
        for f in fields(cls):
            kind = hints[f.name]
            if is_dataclass(kind):
                walk(kind, (*path, f.name))
            elif (*path, f.name) != ("search", "time_limit"):
                # A flat name must say one setting: nested configs may not reuse a name.
                assert f.name not in out, f"setting {f.name!r} appears twice in {config_class}"
                out[f.name] = ((*path, f.name), kind)

    walk(config_class, ())
    return out


def from_settings(settings: Mapping[str, Any]) -> FogsearchBotConfig:
    """The default config with ``settings`` (flat names, see :func:`flat_settings`) applied; a
    ValueError naming an unknown setting (with the valid ones) or a value of the wrong type."""
    known = flat_settings()
    nested: dict[tuple[str, ...], dict[str, Any]] = {}
    for name, value in settings.items():
        if name not in known:
            valid = ", ".join(f"{n} ({_type_name(t)})" for n, (_, t) in sorted(known.items()))
            raise ValueError(f"unknown fogsearch setting {name!r}; valid settings: {valid}")
        path, kind = known[name]
        nested.setdefault(path[:-1], {})[path[-1]] = _converted(name, value, kind)
    config = FogsearchBotConfig()

    def build(obj: Any, path: tuple[str, ...]) -> Any:
        changes = dict(nested.get(path, {}))
        for f in fields(obj):
            child = getattr(obj, f.name)
            if is_dataclass(child):
                rebuilt = build(child, (*path, f.name))
                if rebuilt is not child:
                    changes[f.name] = rebuilt
        return replace(obj, **changes) if changes else obj

    return build(config, ())


def _type_name(kind: Any) -> str:
    return getattr(kind, "__name__", str(kind).replace("typing.", ""))


def _converted(name: str, value: Any, kind: Any) -> Any:
    """``value`` as the setting's type where that is lossless (an int for a float setting)."""
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind in (int, float, bool, str) and not (
        isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    ):
        raise ValueError(f"fogsearch setting {name} must be {_type_name(kind)}, got {value!r}")
    return value
