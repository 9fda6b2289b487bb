"""The fogsearch bot's per-turn log, read back: the table ``fogsearch play`` prints, or the bot's
own log lines (``fogsearch.bot`` logger, :func:`fogsearch.bot.player.format_turn`). Entries are
dicts with the keys of the bot's ``turn_log``, one per turn of the bot."""

from __future__ import annotations

import re
from pathlib import Path

import chess
from reconchess import GameHistory

from fogsearch.replay.reading import ReplayError

MAX_LOG_BYTES = 16 * 2**20
"""A log line per turn: a game's log is a few hundred kB at most."""

_BOT_LINE = re.compile(
    r"turn\s+(?P<turn>\d+)\s+boards\s+(?P<after_opponent>\S+) -> sense (?P<sense>\S+)\s+"
    r"\((?P<sense_by>[^)]*)\) ->\s+(?P<after_sense>\S+) -> move (?P<requested>\S+)\s+"
    r"\(took (?P<taken>[^,)]+)(?:, captured (?P<capture>\w+))?\) ->\s+(?P<after_move>\S+)\s+"
    r"value\s+(?P<value>\S+)\s+depth (?P<depth>\S+) plies (?P<plies>\S+) in\s+"
    r"(?P<search_seconds>[\d.]+)s\s+clock\s+(?P<seconds_left>[\d.]+)s\s+budget\s+"
    r"(?P<budget>[\d.]+)s\s+turn\s+(?P<turn_seconds>[\d.]+)s"
)
# The `play` table's columns (fogsearch.play.COLUMNS), by the bot's turn_log keys.
_TABLE_KEYS = (
    "turn", "side", "after_opponent", "sense", "after_sense", "requested", "taken", "capture",
    "after_move", "value", "depth", "plies", "search_seconds", "budget", "turn_seconds",
    "seconds_left",
)  # fmt: skip
_NUMBERS = {"after_opponent", "after_sense", "after_move", "value", "depth", "plies"}
_SECONDS = {"search_seconds", "budget", "turn_seconds", "seconds_left"}


def read_turn_log(path: str | Path, history: GameHistory) -> dict[chess.Color, list[dict]]:
    """The bot's entries in the log at ``path``, by the colour it played in ``history``."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise ReplayError(f"{path}: larger than a turn log's {MAX_LOG_BYTES} bytes")
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read it ({exc.strerror})") from None
    by_color = parse_turn_log(text)
    if None in by_color:
        color = _color_of(by_color.pop(None), history, path)
        by_color = {color: _entries(text)}
    if not by_color:
        raise ReplayError(f"{path}: no turn of the fogsearch bot's log in it")
    return by_color


def parse_turn_log(text: str) -> dict[chess.Color | None, list[dict]]:
    """Entries by colour (the ``play`` table names it); the bot's own lines, which do not, under
    None."""
    table: dict[chess.Color | None, list[dict]] = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) == len(_TABLE_KEYS) and cells[0].isdigit() and cells[1] in chess.COLOR_NAMES:
            entry = {k: _value(k, c) for k, c in zip(_TABLE_KEYS, cells, strict=True)}
            table.setdefault(chess.COLOR_NAMES.index(cells[1]) == 1, []).append(entry)
    if table:
        return table
    entries = _entries(text)
    return {None: entries} if entries else {}


def _entries(text: str) -> list[dict]:
    return [
        {k: _value(k, v) for k, v in m.groupdict().items()}
        for m in map(_BOT_LINE.search, text.splitlines())
        if m
    ]


def _value(key: str, text: str | None):
    if text in (None, "-", "?"):
        return None
    if key in ("requested", "taken") and text in ("pass", "none"):
        return None
    try:
        if key in _NUMBERS or key == "turn":
            return int(text)
        if key in _SECONDS:
            return float(text)
    except ValueError:
        return None
    return text


def _color_of(entries: list[dict], history: GameHistory, path: Path) -> chess.Color:
    """The side whose taken moves the log's match best (the bot's lines do not name it)."""
    matches = {}
    for color in (chess.WHITE, chess.BLACK):
        taken = [
            _uci(history.taken_move(t)) if history.has_move(t) else None
            for t in history.turns(color)
        ]
        matches[color] = sum(
            e.get("taken") == t for e, t in zip(entries, taken, strict=False)
        ) / max(1, len(entries))
    best = max(matches, key=matches.get)
    if matches[best] < 0.9:
        raise ReplayError(
            f"{path}: the log's moves are not either side's moves in this game "
            f"({matches[best]:.0%} match {chess.COLOR_NAMES[best]})"
        )
    return best


def _uci(move: chess.Move | None) -> str | None:
    return move.uci() if move else None
