"""Human-readable tournament summaries: a table and a plot."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

from fogsearch.tournament.rating import Pairing, Standing


def _fmt_elo(x: float) -> str:
    return "inf" if math.isinf(x) and x > 0 else "-inf" if math.isinf(x) else f"{x:+.0f}"


def summary_table(ranked: list[Standing], pairs: list[Pairing]) -> str:
    lines = [
        f"{'player':<32} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>6} "
        f"{'Elo':>6} {'95% CI':>15} {'crash':>5} {'time':>4} {'fallbk':>6}"
    ]
    for s in ranked:
        lines.append(
            f"{s.name:<32} {s.games:>5} {s.wins:>4} {s.draws:>4} {s.losses:>4} {s.score:>6.3f} "
            f"{s.elo:>+6.0f} {f'[{s.elo_low:+.0f}, {s.elo_high:+.0f}]':>15} {s.crashes:>5} {s.timeouts:>4} {s.fallbacks:>6}"
        )
    lines.append("")
    lines.append(
        f"{'player':<32} {'opponent':<32} {'W':>4} {'D':>4} {'L':>4} {'score':>6} {'Elo diff (95% CI)':>24}"
    )
    for p in pairs:
        elo, low, high = p.elo_interval()
        lines.append(
            f"{p.player:<32} {p.opponent:<32} {p.wins:>4} {p.draws:>4} {p.losses:>4} {p.score:>6.3f} "
            f"{_fmt_elo(elo):>6} [{_fmt_elo(low)}, {_fmt_elo(high)}]"
        )
    warnings = fallback_warnings(ranked)
    if warnings:
        lines += ["", *warnings]
    return "\n".join(lines)


def fallback_warnings(ranked: list[Standing]) -> list[str]:
    """A warning per player that played turns without its search: its results then measure its
    fallback (random) play as much as its settings."""
    return [
        f"WARNING: {s.name} decided {s.fallbacks} turns without its search (it failed; see the "
        "game logs): its results do not measure its settings alone"
        for s in ranked
        if s.fallbacks
    ]


STALL_TURNS = 3
STALL_SHARE = 0.8


def stopped_moving(history: dict, color: bool) -> bool:
    """Whether the player of ``color`` stopped moving in a reconchess ``GameHistory`` (as JSON):
    from its first turn without a requested move on, it requested none on at least
    ``STALL_TURNS`` turns and ``STALL_SHARE`` of its turns. TroutBot does this once its Stockfish
    process has died: it then passes every turn, save a capture of a king it believes it sees."""
    requests = history["requested_moves"].get("true" if color else "false", [])
    first = next((i for i, request in enumerate(requests) if request is None), None)
    if first is None:
        return False
    passes = sum(request is None for request in requests[first:])
    return passes >= STALL_TURNS and passes >= STALL_SHARE * (len(requests) - first)


def stalled_notes(games: list[dict], history_of: Callable[[int], str]) -> list[str]:
    """A line per player and opponent where the player stopped moving in some games
    (:func:`stopped_moving`), with the opponent's record in those games and in the others: wins
    against an opponent that stopped playing say little about the one who won them. Games
    stored without a history (a crash before the game began) are skipped."""
    records: dict[tuple[str, str], dict[bool, list[int]]] = {}
    for game in games:
        history = json.loads(history_of(game["id"]) or "null")
        if not isinstance(history, dict) or "requested_moves" not in history:
            continue
        for color, player, opponent in ((True, "white", "black"), (False, "black", "white")):
            stalled = stopped_moving(history, color)
            record = records.setdefault((game[player], game[opponent]), {})
            wdl = record.setdefault(stalled, [0, 0, 0])
            wdl[_wdl_index(game["winner"], opponent)] += 1
    lines = []
    for (player, opponent), record in records.items():
        if True not in record:
            continue
        stalled, other = record[True], record.get(False, [0, 0, 0])
        lines.append(
            f"NOTE: {player} stopped moving (requested no move on most turns from some turn on) "
            f"in {sum(stalled)} of {sum(stalled) + sum(other)} games against {opponent}, who "
            f"scored {_wdl(stalled)} in them and {_wdl(other)} in the other {sum(other)}"
        )
    return lines


def colour_split(games: list[dict]) -> list[str]:
    """A line per player and opponent with the player's record as White and as Black apart: in
    RBC the colours differ more than in chess (the first mover meets an unobserved set of one
    board, the second a set grown by the opponent's first move), and a bot's weak colour hides
    in its total."""
    records: dict[tuple[str, str], dict[str, list[int]]] = {}
    for game in games:
        for player, opponent in (("white", "black"), ("black", "white")):
            record = records.setdefault((game[player], game[opponent]), {})
            wdl = record.setdefault(player, [0, 0, 0])
            wdl[_wdl_index(game["winner"], player)] += 1
    return [
        f"{player} against {opponent}: as White {_wdl(record.get('white', [0, 0, 0]))}, "
        f"as Black {_wdl(record.get('black', [0, 0, 0]))}"
        for (player, opponent), record in records.items()
    ]


def _wdl_index(winner: str, side: str) -> int:
    """Where a game with ``winner`` counts in ``side``'s win-draw-loss list."""
    return 1 if winner == "draw" else 0 if winner == side else 2


def _wdl(counts: list[int]) -> str:
    return "-".join(str(n) for n in counts)


PLOT_FORMATS = ("png", "pdf", "svg")
"""File types the standings plot is written as (by the path's suffix)."""


def check_plot_path(path: str | Path) -> Path:
    """``path`` if the plot can be written there (a known suffix, an existing writable folder);
    else a :class:`~fogsearch.arguments.UsageError`, checked before any game is played."""
    from fogsearch.arguments import UsageError, writable_path

    path = writable_path(path, "plot")
    if path.suffix.lower().lstrip(".") not in PLOT_FORMATS:
        raise UsageError(
            f"plot {path}: name a {', '.join('.' + f for f in PLOT_FORMATS)} file "
            "(the suffix picks the format)"
        )
    return path


def plot_standings(ranked: list[Standing], pairs: list[Pairing], path: str | Path) -> Path:
    """Elo with intervals, and the score matrix, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [s.name for s in ranked]
    fig, (ax_elo, ax_mat) = plt.subplots(1, 2, figsize=(12, 0.6 * len(names) + 2.5))
    y = np.arange(len(names))[::-1]
    elo = np.array([s.elo for s in ranked])
    err = np.array([[s.elo - s.elo_low for s in ranked], [s.elo_high - s.elo for s in ranked]])
    ax_elo.errorbar(elo, y, xerr=err, fmt="o", capsize=4)
    ax_elo.set_yticks(y, names)
    ax_elo.set_xlabel("Elo (MAP, 95% interval)")
    ax_elo.axvline(0, color="grey", lw=0.5)

    index = {n: i for i, n in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    for p in pairs:
        matrix[index[p.player], index[p.opponent]] = p.score
    im = ax_mat.imshow(matrix, vmin=0, vmax=1, cmap="RdYlGn")
    ax_mat.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax_mat.set_yticks(range(len(names)), names)
    for (i, j), v in np.ndenumerate(matrix):
        if not np.isnan(v):
            ax_mat.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8)
    ax_mat.set_title("score of row against column")
    fig.colorbar(im, ax=ax_mat, fraction=0.046)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
