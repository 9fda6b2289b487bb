"""Win/draw/loss tables and Elo ratings with confidence intervals.

Ratings are the maximum a posteriori Bradley-Terry (logistic Elo) fit to all games, draws scoring
one half, with a weak normal prior (sd 1000 Elo) that keeps perfect scores finite and centres the
ratings on 0. Intervals come from the Laplace approximation (inverse Hessian), for each rating
relative to the field's mean: games fix only differences, so the uncentred covariance holds the
prior's width of the common offset (about +-1400 Elo), which no number of games narrows. Per
pairing, the score's Wilson interval is mapped through the Elo curve, which stays finite at 100%
scores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

ELO_SCALE = 400.0 / math.log(10.0)
PRIOR_SD = 1000.0
Z95 = 1.959964


class _Scored:
    """Games and score from the ``wins``, ``draws`` and ``losses`` of a record."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")


@dataclass
class Standing(_Scored):
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    crashes: int = 0
    timeouts: int = 0
    fallbacks: int = 0
    """Turns played without the bot's own decision-making (its search failed), over its games."""
    clock_used_s: list[float] = field(default_factory=list)
    """Seconds of its clock it spent in each game that recorded them."""
    elo: float = 0.0
    elo_low: float = 0.0
    elo_high: float = 0.0


@dataclass
class Pairing(_Scored):
    player: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def elo_interval(self) -> tuple[float, float, float]:
        """Elo difference implied by the score, with its 95% Wilson-based interval."""
        low, high = wilson_interval(self.score, self.games)
        return score_to_elo(self.score), score_to_elo(low), score_to_elo(high)


def wilson_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def score_to_elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _outcome_for_white(winner: str) -> float:
    return {"white": 1.0, "black": 0.0, "draw": 0.5}[winner]


def standings(games: Iterable[dict]) -> tuple[list[Standing], list[Pairing]]:
    """Per-player standings (with Elo) and per-ordered-pair results from stored games."""
    games = list(games)
    table: dict[str, Standing] = {}
    pairs: dict[tuple[str, str], Pairing] = {}
    for g in games:
        for colour, name, opponent in (
            ("white", g["white"], g["black"]),
            ("black", g["black"], g["white"]),
        ):
            s = table.setdefault(name, Standing(name))
            p = pairs.setdefault((name, opponent), Pairing(name, opponent))
            s.fallbacks += g.get(f"{colour}_fallbacks") or 0
            if g.get(f"{colour}_clock_used_s") is not None:
                s.clock_used_s.append(g[f"{colour}_clock_used_s"])
            if g["winner"] == "draw":
                s.draws += 1
                p.draws += 1
            elif g["winner"] == colour:
                s.wins += 1
                p.wins += 1
            else:
                s.losses += 1
                p.losses += 1
                if g.get("crashed") == colour:
                    s.crashes += 1
                elif g.get("reason") == "TIMEOUT":
                    s.timeouts += 1
    names = sorted(table)
    ratings, sds = fit_elo(names, games)
    for name, r, sd in zip(names, ratings, sds, strict=True):
        st = table[name]
        st.elo, st.elo_low, st.elo_high = r, r - Z95 * sd, r + Z95 * sd
    ranked = sorted(table.values(), key=lambda s: -s.elo)
    return ranked, sorted(pairs.values(), key=lambda p: (p.player, p.opponent))


def fit_elo(
    names: list[str], games: list[dict], iterations: int = 100
) -> tuple[np.ndarray, np.ndarray]:
    """MAP logistic-Elo ratings, centred on 0, and their standard deviations about the field's
    mean (Newton's method)."""
    index = {n: i for i, n in enumerate(names)}
    n = len(names)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    white = np.array([index[g["white"]] for g in games], dtype=np.int64)
    black = np.array([index[g["black"]] for g in games], dtype=np.int64)
    score = np.array([_outcome_for_white(g["winner"]) for g in games])
    r = np.zeros(n)  # in natural-log units; Elo = r * ELO_SCALE
    prior_precision = (ELO_SCALE / PRIOR_SD) ** 2
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(r[white] - r[black])))
        grad = -prior_precision * r
        np.add.at(grad, white, score - p)
        np.add.at(grad, black, p - score)
        w = p * (1 - p)
        hess = -prior_precision * np.eye(n)
        np.add.at(hess, (white, white), -w)
        np.add.at(hess, (black, black), -w)
        np.add.at(hess, (white, black), w)
        np.add.at(hess, (black, white), w)
        step = np.linalg.solve(hess, grad)
        r -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    centring = np.eye(n) - 1.0 / n
    cov = centring @ np.linalg.inv(-hess) @ centring
    return r * ELO_SCALE, np.sqrt(np.clip(np.diag(cov), 0.0, None)) * ELO_SCALE
