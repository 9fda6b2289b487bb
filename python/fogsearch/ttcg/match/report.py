"""What a card match measured: each player's mean return per game with a 95% interval, per seat
and per team.

The unit of the interval is the deal: a player's result on a deal is its mean return over the
rotations and seats it held on that deal (duplicate play cancels the luck of the cards), and the
interval is the normal one over deals, mean +- 1.96 sd / sqrt(deals).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from fogsearch.tournament.rating import Z95
from fogsearch.ttcg.match.runner import CardRecord


@dataclass
class MatchSummary:
    players: list[str]
    mean_return: list[float]
    ci95: list[list[float]]
    deals: int
    games: int
    failed_games: int
    seat_mean_return: list[float]
    """Mean return of each seat over every game (how much the seat itself is worth)."""
    per_deal: list[list[float]]
    """Each deal's result of each player (its mean return over the seats it held), for paired
    comparisons between players."""

    def as_json(self) -> dict:
        """The ``--json`` object: players, mean_return, ci95 (low, high) and deals."""
        return {
            "players": self.players,
            "mean_return": self.mean_return,
            "ci95": self.ci95,
            "deals": self.deals,
        }


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def summarize(records: list[CardRecord], players: list[str]) -> MatchSummary:
    per_deal: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    seats: dict[int, list[float]] = defaultdict(list)
    failed = 0
    for r in records:
        if r.returns is None:
            failed += 1
            continue
        for seat, player in enumerate(r.seats):
            per_deal[r.deal_index][player].append(r.returns[seat])
            seats[seat].append(r.returns[seat])
    means, intervals = [], []
    table = [
        [sum(v[p]) / len(v[p]) if v[p] else float("nan") for p in range(len(players))]
        for _, v in sorted(per_deal.items())
    ]
    for p in range(len(players)):
        values = [row[p] for row in table if not math.isnan(row[p])]
        if not values:
            means.append(float("nan"))
            intervals.append([float("nan"), float("nan")])
            continue
        mean, low, high = interval(values)
        means.append(mean)
        intervals.append([low, high])
    return MatchSummary(
        players=list(players),
        mean_return=means,
        ci95=intervals,
        deals=len(per_deal),
        games=len(records),
        failed_games=failed,
        seat_mean_return=[sum(seats[s]) / len(seats[s]) for s in sorted(seats)],
        per_deal=table,
    )


def summary_table(summary: MatchSummary, game: str) -> str:
    """A plain-text table of the summary."""
    what = "team points minus the other team's" if game == "gongzhu" else "points"
    lines = [
        f"{summary.deals} deals, {summary.games} games; mean return per game ({what}), 95% interval",
        f"{'player':<40} {'mean':>9} {'95% interval':>22}",
    ]
    for name, mean, (low, high) in zip(
        summary.players, summary.mean_return, summary.ci95, strict=True
    ):
        lines.append(f"{name:<40} {mean:>9.2f} {f'[{low:.2f}, {high:.2f}]':>22}")
    lines.append(
        "seats: " + ", ".join(f"{s}: {m:.2f}" for s, m in enumerate(summary.seat_mean_return))
    )
    if summary.failed_games:
        lines.append(f"{summary.failed_games} games failed (errors stored with them)")
    return "\n".join(lines)
