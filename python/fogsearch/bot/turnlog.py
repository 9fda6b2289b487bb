"""The bot's turn log: one readable line per turn (:func:`format_turn`), and its reading back
(:func:`parse_turn`), so a stored game's log tells the loss analysis what the bot weighed."""

from __future__ import annotations

import re

TOP_REQUESTS = 5
"""How many of the best-valued requests a turn's log line lists."""


def top_requests(move_values: dict[str, int], count: int = TOP_REQUESTS) -> list[tuple[str, int]]:
    """The ``count`` best-valued requests, best first (equal values in request order)."""
    ranked = sorted(move_values.items(), key=lambda item: (-item[1], item[0]))
    return [(request, int(value)) for request, value in ranked[:count]]


def format_turn(t: dict) -> str:
    """One readable log line per turn."""
    value = t.get("value")
    top = t.get("top")
    weighed = f"  top {','.join(f'{r}:{v}' for r, v in top)}" if top else ""
    return (
        f"turn {t.get('turn', '?'):>3}  boards {t.get('after_opponent', '?'):>6} -> "
        f"sense {t.get('sense') or '-':<2} ({t.get('sense_by', '-')}) -> "
        f"{t.get('after_sense', '?'):>5} -> "
        f"move {t.get('requested') or 'pass':<6} (took {t.get('taken') or 'pass'}"
        f"{', captured ' + t['capture'] if t.get('capture') else ''}) -> {t.get('after_move', '?'):>5}"
        f"  value {value if value is not None else '-':>6}  depth {t.get('depth') or '-'}"
        f" plies {t.get('plies', '-')}"
        f" in {t.get('search_seconds', 0):5.2f}s  clock {t.get('seconds_left', 0):6.1f}s"
        f" budget {t.get('budget', 0):5.2f}s turn {t.get('turn_seconds', 0):5.2f}s{weighed}"
    )


_LINE = re.compile(
    r"turn\s+(?P<turn>\d+)\s+boards\s+(?P<after_opponent>\d+) -> "
    r"sense (?P<sense>\S+)\s+\((?P<sense_by>[^)]*)\) ->\s+(?P<after_sense>\d+) -> "
    r"move (?P<requested>\S+)\s+\(took (?P<taken>[^,)]+)(?:, captured (?P<capture>\w+))?\) ->"
    r"\s+(?P<after_move>\d+)\s+value\s+(?P<value>\S+)\s+depth (?P<depth>\S+) plies (?P<plies>\S+)"
    r" in\s+(?P<search_seconds>[\d.]+)s\s+clock\s+(?P<seconds_left>[\d.]+)s"
    r" budget\s+(?P<budget>[\d.]+)s turn\s+(?P<turn_seconds>[\d.]+)s"
    r"(?:\s+top (?P<top>\S+))?"
)
_INTEGERS = ("turn", "after_opponent", "after_sense", "after_move", "value", "depth", "plies")
_SECONDS = ("search_seconds", "seconds_left", "budget", "turn_seconds")


def parse_turn(line: str) -> dict | None:
    """The fields of a :func:`format_turn` line found anywhere in ``line`` (a logger's prefix is
    allowed), or None when it holds none. Missing values (``-``) read as None, a pass as None."""
    found = _LINE.search(line)
    if found is None:
        return None
    fields: dict = found.groupdict()
    for name in _INTEGERS:
        fields[name] = None if fields[name] in (None, "-") else int(fields[name])
    for name in _SECONDS:
        fields[name] = float(fields[name])
    for name in ("sense", "requested", "taken"):
        if fields[name] in ("-", "pass"):
            fields[name] = None
    top = fields.pop("top")
    fields["top"] = (
        [(request, int(value)) for request, value in (item.split(":") for item in top.split(","))]
        if top
        else []
    )
    return fields


def read_turn_log(text: str) -> dict[int, dict]:
    """Every turn line of a log, by turn number (a later line for a turn replaces an earlier)."""
    turns = {}
    for line in text.splitlines():
        fields = parse_turn(line)
        if fields is not None:
            turns[fields["turn"]] = fields
    return turns
