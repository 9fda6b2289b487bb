"""Human-readable tournament summaries: a table and a plot."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

from fogsearch.tournament.rating import Pairing, Standing


def _fmt_elo(x: float) -> str:
    return "inf" if math.isinf(x) and x > 0 else "-inf" if math.isinf(x) else f"{x:+.0f}"


def _clock(used: list[float]) -> str:
    """Mean and most seconds of clock a player spent a game ("-": not recorded)."""
    if not used:
        return f"{'-':>7} {'-':>7}"
    return f"{sum(used) / len(used):>7.1f} {max(used):>7.1f}"


def summary_table(ranked: list[Standing], pairs: list[Pairing]) -> str:
    lines = [
        f"{'player':<32} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>6} "
        f"{'Elo':>6} {'95% CI':>15} {'crash':>5} {'time':>4} {'fallbk':>6} "
        f"{'clock s':>7} {'max s':>7}"
    ]
    for s in ranked:
        lines.append(
            f"{s.name:<32} {s.games:>5} {s.wins:>4} {s.draws:>4} {s.losses:>4} {s.score:>6.3f} "
            f"{s.elo:>+6.0f} {f'[{s.elo_low:+.0f}, {s.elo_high:+.0f}]':>15} {s.crashes:>5} {s.timeouts:>4} {s.fallbacks:>6} "
            f"{_clock(s.clock_used_s)}"
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
NAME_WIDTH = 26
"""Player names are wrapped at this many characters in the plot's tick labels."""


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


def _wrapped(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` on lines of about ``width`` characters, broken after its ``:`` and ``,`` (a
    spec's kind and settings), never inside a setting."""
    parts = re.split(r"(?<=[:,])", name)
    lines = [""]
    for part in parts:
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def plot_standings(ranked: list[Standing], pairs: list[Pairing], path: str | Path) -> Path:
    """Elo with intervals, and the score matrix, in one figure (PNG, PDF or SVG by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import to_rgb
    from matplotlib.ticker import MaxNLocator

    names = [s.name for s in ranked]
    # Rows carry the names, numbered by rank; columns only the numbers, since rotated
    # multi-line names under a matrix run into each other.
    labels = [_wrapped(f"{rank}. {n}") for rank, n in enumerate(names, 1)]
    lines_per_label = max(label.count("\n") + 1 for label in labels)
    height = max(3.5, (0.45 + 0.2 * lines_per_label) * len(names) + 2.0)
    fig, (ax_elo, ax_mat) = plt.subplots(
        1, 2, figsize=(13, height), gridspec_kw={"width_ratios": [1, 1.1]}
    )

    y = np.arange(len(names))[::-1]
    elo = np.array([s.elo for s in ranked])
    err = np.array([[s.elo - s.elo_low for s in ranked], [s.elo_high - s.elo for s in ranked]])
    ax_elo.errorbar(elo, y, xerr=err, fmt="o", capsize=4, color="tab:blue")
    for yi, s in zip(y, ranked, strict=True):
        ax_elo.annotate(
            f"{s.elo:+.0f}",
            (s.elo, yi),
            textcoords="offset points",
            xytext=(0, 7),
            ha="center",
            fontsize=9,
        )
    ax_elo.set_yticks(y, labels, fontsize=9)
    ax_elo.set_ylim(-0.7, len(names) - 0.3)
    # Few ticks, so that four-digit Elo labels with their signs never run into each other.
    ax_elo.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax_elo.tick_params(axis="x", labelsize=9)
    ax_elo.set_xlabel("Elo relative to the field's mean")
    ax_elo.axvline(0, color="grey", lw=0.5)
    ax_elo.grid(axis="x", alpha=0.3)
    ax_elo.set_title("Elo (maximum a posteriori) with 95% interval")

    index = {n: i for i, n in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    games = np.zeros((len(names), len(names)), dtype=int)
    for p in pairs:
        matrix[index[p.player], index[p.opponent]] = p.score
        games[index[p.player], index[p.opponent]] = p.games
    # Grey for pairs that did not play, and the diagonal.
    cmap = plt.get_cmap("RdYlGn").with_extremes(bad="#dddddd")
    im = ax_mat.imshow(np.ma.masked_invalid(matrix), vmin=0, vmax=1, cmap=cmap)
    ax_mat.set_xticks(range(len(names)), [str(rank) for rank in range(1, len(names) + 1)])
    ax_mat.set_xlabel("opponent (numbered as the rows)")
    ax_mat.set_yticks(range(len(names)), labels, fontsize=9)
    for (i, j), v in np.ndenumerate(matrix):
        if np.isnan(v):
            continue
        # Dark text on light cells, white on dark ones (the colormap's ends are dark).
        r, g, b = to_rgb(cmap(v))
        luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
        ax_mat.text(
            j,
            i,
            f"{v:.2f}\n({games[i, j]})",
            ha="center",
            va="center",
            fontsize=9,
            color="black" if luminance > 0.5 else "white",
        )
    ax_mat.set_title("score of row against column (games)")
    bar = fig.colorbar(im, ax=ax_mat, fraction=0.046)
    bar.set_label("score")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
