"""What a card match measured: each player's mean return per game with a 95% interval, each
seat's, and in a team game each team's points.

The unit of every interval is the deal: a player's result on a deal is its mean return over the
rotations and seats it held on that deal (duplicate play cancels the luck of the cards), a seat's
is its mean return over the rotations, and the interval is the normal one over deals, mean +-
1.96 sd / sqrt(deals).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from fogsearch._core import ttcg as native
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
    seat_ci95: list[list[float]] = field(default_factory=list)
    """Each seat's 95% interval over deals."""
    teams: list[TeamResult] = field(default_factory=list)
    """In a team game (Gongzhu: seats 0 and 2 against 1 and 3), each team's points."""

    def as_json(self) -> dict:
        """The ``--json`` object: players, mean_return, ci95 (low, high) and deals. An interval
        that one deal cannot give is ``null`` (strict JSON has no NaN)."""
        return {
            "players": self.players,
            "mean_return": [_finite(m) for m in self.mean_return],
            "ci95": [[_finite(x) for x in pair] for pair in self.ci95],
            "deals": self.deals,
        }


@dataclass
class TeamResult:
    """A pair of partners: which players (indices into the match's list) sat in it, its own
    points per game (the partners' summed, before the other team's are taken off) and its
    return (its points minus the other team's), each with a 95% interval over deals."""

    players: list[int]
    mean_points: float
    points_ci95: list[float]
    mean_return: float
    return_ci95: list[float]


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def partners(game: str) -> tuple[tuple[int, ...], ...]:
    """The seats that play together (none when every seat plays for itself), from the game's
    registry entry."""
    info = native.game_info(game)
    if info["teams"] == info["seats"]:
        return ()
    team_of = info["team_of"]
    return tuple(
        tuple(s for s in range(info["seats"]) if team_of[s] == t) for t in range(info["teams"])
    )


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def _mean_interval(values: list[float]) -> tuple[float, list[float]]:
    if not values:
        return float("nan"), [float("nan"), float("nan")]
    mean, low, high = interval(values)
    return mean, [low, high]


def summarize(records: list[CardRecord], players: list[str], game: str = "") -> MatchSummary:
    per_deal: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    seat_deal: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    team_deal: dict[tuple[int, ...], dict[int, list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    failed = 0
    pairs = partners(game)
    for r in records:
        if r.returns is None:
            failed += 1
            continue
        for seat, player in enumerate(r.seats):
            per_deal[r.deal_index][player].append(r.returns[seat])
            seat_deal[seat][r.deal_index].append(r.returns[seat])
        for pair in pairs:
            if r.points is None:
                continue
            who = tuple(sorted({r.seats[s] for s in pair}))
            points = sum(r.points[s] for s in pair)
            team_deal[who][r.deal_index].append((points, r.returns[pair[0]]))
    means, intervals = [], []
    table = [
        [sum(v[p]) / len(v[p]) if v[p] else float("nan") for p in range(len(players))]
        for _, v in sorted(per_deal.items())
    ]
    for p in range(len(players)):
        mean, ci = _mean_interval([row[p] for row in table if not math.isnan(row[p])])
        means.append(mean)
        intervals.append(ci)
    seat_games = [[x for games in seat_deal[s].values() for x in games] for s in sorted(seat_deal)]
    seat_ci = [
        _mean_interval([sum(v) / len(v) for v in seat_deal[s].values()])[1]
        for s in sorted(seat_deal)
    ]
    teams = []
    for who, by_deal in sorted(team_deal.items()):
        points = [sum(p for p, _ in games) / len(games) for games in by_deal.values()]
        returns = [sum(r for _, r in games) / len(games) for games in by_deal.values()]
        (mean_points, points_ci), (mean_return, return_ci) = map(_mean_interval, (points, returns))
        teams.append(TeamResult(list(who), mean_points, points_ci, mean_return, return_ci))
    return MatchSummary(
        players=list(players),
        mean_return=means,
        ci95=intervals,
        deals=len(per_deal),
        games=len(records),
        failed_games=failed,
        seat_mean_return=[sum(games) / len(games) for games in seat_games],
        per_deal=table,
        seat_ci95=seat_ci,
        teams=teams,
    )


def summary_table(summary: MatchSummary, game: str) -> str:
    """A plain-text table of the summary."""
    what = "team points minus the other team's" if partners(game) else "points"
    lines = [
        f"{summary.deals} deals, {summary.games} games; mean return per game ({what}), 95% interval",
        f"{'player':<40} {'mean':>9} {'95% interval':>22}",
    ]
    for name, mean, (low, high) in zip(
        summary.players, summary.mean_return, summary.ci95, strict=True
    ):
        lines.append(f"{name:<40} {mean:>9.2f} {f'[{low:.2f}, {high:.2f}]':>22}")
    for seat, (mean, (low, high)) in enumerate(
        zip(summary.seat_mean_return, summary.seat_ci95, strict=True)
    ):
        lines.append(f"{f'seat {seat}':<40} {mean:>9.2f} {f'[{low:.2f}, {high:.2f}]':>22}")
    if summary.teams:
        lines.append("teams (own points per game; return: minus the other team's)")
    for team in summary.teams:
        name = " + ".join(summary.players[p] for p in team.players)
        (low, high), (rlow, rhigh) = team.points_ci95, team.return_ci95
        lines.append(
            f"{name:<40} {team.mean_points:>9.2f} {f'[{low:.2f}, {high:.2f}]':>22}"
            f"  return {team.mean_return:+.2f} [{rlow:+.2f}, {rhigh:+.2f}]"
        )
    if summary.failed_games:
        lines.append(f"{summary.failed_games} games failed (errors stored with them)")
    return "\n".join(lines)
