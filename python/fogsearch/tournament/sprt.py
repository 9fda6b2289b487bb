"""Sequential probability ratio tests on game pairs, as chess engines judge a change.

Games are played in pairs, colours swapped on a shared seed, and each pair scores 0, 0.5, 1, 1.5
or 2 points for the tested player: the pentanomial counts. The test is the generalised SPRT that
fishtest uses: under the logistic Elo model a hypothesis ``elo`` means an expected score per game
of ``1 / (1 + 10**(-elo / 400))``; the log-likelihood ratio compares the maximum-likelihood
pentanomial distributions whose mean is each hypothesis' score. The test stops when the ratio
leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: below, H0 (the change is not
``elo1`` better) is accepted; above, H1.

Everything here is arithmetic on counts (derived from the maths, not from any implementation),
so that it can be tested on simulated results in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fogsearch.arguments import UsageError

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Points the tested player takes from a game pair, the pentanomial's five outcomes."""
ZERO_COUNT = 1e-3
"""Stands in for an outcome not seen yet, so that the constrained maximum-likelihood fit has a
solution from the first pair on (with every pair a win, no distribution on the seen outcomes
alone has a mean below 1)."""
MAX_PAIRS = 100_000
MAX_ELO = 1_000.0
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SprtBounds:
    """The hypotheses (Elo for the tested player) and the error rates the test is run at."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    max_pairs: int = 1_000

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and abs(value) <= MAX_ELO):
                raise UsageError(f"SPRT {name} must be a number in -{MAX_ELO:g}..{MAX_ELO:g}")
        if not self.elo0 < self.elo1:
            raise UsageError(f"SPRT needs elo0 < elo1, got {self.elo0:g} and {self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0 < value < 0.5):
                raise UsageError(f"SPRT {name} must be in (0, 0.5), got {value!r}")
        if isinstance(self.max_pairs, bool) or not 1 <= self.max_pairs <= MAX_PAIRS:
            raise UsageError(f"SPRT max pairs must be in 1..{MAX_PAIRS:,}, got {self.max_pairs!r}")

    @property
    def lower(self) -> float:
        """Below this LLR H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Above this LLR H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    @classmethod
    def parse(cls, text: str, alpha: float = 0.05, beta: float = 0.05, max_pairs: int = 1_000):
        """``elo0=0,elo1=50`` (as ``--sprt`` takes it)."""
        values = {}
        for item in filter(None, text.split(",")):
            key, sep, value = item.partition("=")
            if not sep or key not in ("elo0", "elo1") or key in values:
                raise UsageError(f"--sprt takes elo0=E0,elo1=E1, got {text!r}")
            try:
                values[key] = float(value)
            except ValueError:
                raise UsageError(f"--sprt {key} must be a number, got {value!r}") from None
        if set(values) != {"elo0", "elo1"}:
            raise UsageError(f"--sprt takes elo0=E0,elo1=E1, got {text!r}")
        return cls(values["elo0"], values["elo1"], alpha, beta, max_pairs)


def score_of_elo(elo: float) -> float:
    """Expected score per game of a player ``elo`` stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """Inverse of :func:`score_of_elo`; infinite at a score of 0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _frequencies(counts) -> tuple[list[float], list[float]]:
    """Per-game scores of the five outcomes and their empirical frequencies (unseen ones at
    :data:`ZERO_COUNT`)."""
    if len(counts) != len(PAIR_SCORES) or any(c < 0 for c in counts):
        raise ValueError(f"pentanomial counts are five non-negative numbers, got {counts!r}")
    filled = [c if c > 0 else ZERO_COUNT for c in counts]
    total = sum(filled)
    return [s / 2 for s in PAIR_SCORES], [c / total for c in filled]


def constrained_mle(counts, mean: float) -> list[float]:
    """The pentanomial distribution of largest likelihood for ``counts`` whose per-game mean
    score is ``mean`` (0 < mean < 1).

    By Lagrange, ``p_i = f_i / (1 + lam * (s_i - mean))`` with ``f`` the empirical
    frequencies; ``lam`` is the root of ``g(lam) = sum f_i (s_i - mean) / (1 + lam (s_i -
    mean))``, which decreases on the interval where every denominator is positive, so Newton's
    steps kept inside it by bisection find it."""
    scores, freqs = _frequencies(counts)
    d = [s - mean for s in scores]
    # Denominators stay positive for lam in (-1/max d, -1/min d); d has both signs for 0<mean<1.
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    lam = 0.0
    for _ in range(100):
        g = sum(f * x / (1 + lam * x) for f, x in zip(freqs, d, strict=True))
        if abs(g) < 1e-13:
            break
        if g > 0:
            lo = lam
        else:
            hi = lam
        slope = -sum(f * x * x / (1 + lam * x) ** 2 for f, x in zip(freqs, d, strict=True))
        step = lam - g / slope
        lam = step if lo < step < hi else (lo + hi) / 2
    return [f / (1 + lam * x) for f, x in zip(freqs, d, strict=True)]


def llr(counts, elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for the
    pentanomial ``counts`` of pairs: ``sum n_i log(p1_i / p0_i)``."""
    if sum(counts) == 0:
        return 0.0
    p0 = constrained_mle(counts, score_of_elo(elo0))
    p1 = constrained_mle(counts, score_of_elo(elo1))
    return sum(n * math.log(b / a) for n, a, b in zip(counts, p0, p1, strict=True) if n > 0)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float
    score: float
    """Mean score per game."""


def elo_estimate(counts) -> EloEstimate:
    """Elo of the tested player with its 95 % interval, from the pairs' mean score and the
    variance of a pair's score (which, unlike a trinomial's, counts the correlation of a pair's
    two games on one seed)."""
    pairs = sum(counts)
    if pairs == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5)
    scores = [s / 2 for s in PAIR_SCORES]
    mean = sum(n * s for n, s in zip(counts, scores, strict=True)) / pairs
    var = sum(n * (s - mean) ** 2 for n, s in zip(counts, scores, strict=True)) / pairs
    half = Z95 * math.sqrt(var / pairs)
    return EloEstimate(
        elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half), mean
    )


@dataclass
class SprtState:
    """A running test: the pentanomial counts so far and what they say."""

    bounds: SprtBounds
    counts: list[int]

    @classmethod
    def start(cls, bounds: SprtBounds) -> SprtState:
        return cls(bounds, [0] * len(PAIR_SCORES))

    def add_pair(self, points: float) -> None:
        """Adds a pair in which the tested player took ``points`` (0, 0.5, ..., 2)."""
        index = PAIR_SCORES.index(points)
        self.counts[index] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def llr(self) -> float:
        return llr(self.counts, self.bounds.elo0, self.bounds.elo1)

    @property
    def verdict(self) -> str | None:
        """``"H1"`` or ``"H0"`` once a bound is crossed, ``"max pairs"`` when the bound on
        pairs ends the test first, else ``None``."""
        value = self.llr
        if value >= self.bounds.upper:
            return "H1"
        if value <= self.bounds.lower:
            return "H0"
        if self.pairs >= self.bounds.max_pairs:
            return "max pairs"
        return None

    def summary(self) -> str:
        est = elo_estimate(self.counts)
        verdict = self.verdict
        said = {
            "H1": f"H1 accepted (elo >= {self.bounds.elo1:g})",
            "H0": f"H0 accepted (elo <= {self.bounds.elo0:g})",
            "max pairs": f"no verdict: stopped at the bound of {self.bounds.max_pairs} pairs",
            None: "no verdict yet",
        }[verdict]
        b = self.bounds
        return (
            f"SPRT elo0={b.elo0:g} elo1={b.elo1:g} alpha={b.alpha:g} beta={b.beta:g}: "
            f"LLR {self.llr:.2f} ({b.lower:.2f}, {b.upper:.2f}) after {self.pairs} pairs; "
            f"Elo {est.elo:+.1f} [{est.low:+.1f}, {est.high:+.1f}] (95 %); "
            f"pentanomial 0/0.5/1/1.5/2: {'/'.join(str(c) for c in self.counts)}; {said}"
        )
