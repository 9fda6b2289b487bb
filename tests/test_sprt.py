"""The SPRT: its statistics on simulated game pairs, and `fogsearch tournament --sprt`."""

import math
import random
import re

import pytest

from fogsearch.arguments import UsageError
from fogsearch.tournament.sprt import (
    PAIR_SCORES,
    SprtBounds,
    SprtState,
    constrained_mle,
    elo_estimate,
    llr,
    score_of_elo,
)

DRAWS = 0.3


def pair_probabilities(elo: float) -> list[float]:
    """Pentanomial probabilities of two independent games at ``elo`` with a draw rate of 0.3."""
    mean = score_of_elo(elo)
    win, loss = mean - DRAWS / 2, 1 - mean - DRAWS / 2
    game = [loss, DRAWS, win]  # 0, 0.5, 1 point
    pair = [0.0] * 5
    for i, a in enumerate(game):
        for j, b in enumerate(game):
            pair[i + j] += a * b
    return pair


def draw_pair(rng: random.Random, probs: list[float]) -> float:
    return rng.choices(PAIR_SCORES, weights=probs)[0]


def run_sprt(rng: random.Random, elo: float, bounds: SprtBounds) -> str:
    state, probs = SprtState.start(bounds), pair_probabilities(elo)
    while state.verdict is None:
        state.add_pair(draw_pair(rng, probs))
    return state.verdict


def test_the_constrained_fit_has_the_asked_mean_and_is_a_distribution():
    counts = [3, 10, 25, 9, 2]
    for mean in (0.3, 0.5, 0.55, 0.8):
        p = constrained_mle(counts, mean)
        assert sum(p) == pytest.approx(1.0, abs=1e-9)
        assert sum(pi * s / 2 for pi, s in zip(p, PAIR_SCORES, strict=True)) == pytest.approx(mean)
        assert min(p) > 0
    # At the empirical mean the fit is the empirical distribution itself.
    total = sum(counts)
    empirical = sum(c * s / 2 for c, s in zip(counts, PAIR_SCORES, strict=True)) / total
    assert constrained_mle(counts, empirical) == pytest.approx(
        [c / total for c in counts], abs=1e-6
    )


def test_the_llr_is_zero_midway_and_signed_by_the_result():
    assert llr([0, 0, 0, 0, 0], 0, 50) == 0.0
    level = [5, 20, 50, 20, 5]
    assert llr(level, 0, 50) < 0 < llr(level, -50, 0)
    assert llr([2, 10, 40, 30, 18], 0, 50) > 0


def test_a_known_elo_is_recovered_from_simulated_pairs():
    rng = random.Random(47)
    probs = pair_probabilities(40.0)
    counts = [0] * 5
    for _ in range(20_000):
        counts[PAIR_SCORES.index(draw_pair(rng, probs))] += 1
    est = elo_estimate(counts)
    assert est.low < 40.0 < est.high
    # The half-width at 20,000 pairs of this draw rate is about 3.3 Elo.
    assert abs(est.elo - 40.0) < 5.0
    assert 2.0 < (est.high - est.low) / 2 < 5.0


@pytest.mark.parametrize(
    ("elo", "wrong", "nominal"),
    [(0.0, "H1", "alpha"), (50.0, "H0", "beta")],
    ids=["false_positive_at_elo0", "false_negative_at_elo1"],
)
def test_error_rates_in_simulation_are_near_alpha_and_beta(elo, wrong, nominal):
    bounds = SprtBounds(elo0=0, elo1=50, alpha=0.05, beta=0.05, max_pairs=100_000)
    rng, runs = random.Random(2026), 300
    errors = sum(run_sprt(rng, elo, bounds) == wrong for _ in range(runs))
    rate = getattr(bounds, nominal)
    # The count of errors is binomial: 3 standard deviations (15 runs +- 11.3 of 300) above the
    # nominal rate is a failure by chance once in 700 tests. Below: Wald's bounds, crossed with
    # an overshoot, make the true rate somewhat under nominal, but not by a factor of 4.
    spread = 3 * math.sqrt(rate * (1 - rate) / runs)
    assert rate / 4 < errors / runs < rate + spread


def test_the_max_pairs_bound_ends_a_test_without_verdict():
    state = SprtState.start(SprtBounds(0, 50, max_pairs=4))
    for points in (1.0, 1.0, 1.0, 1.0):
        state.add_pair(points)
    assert state.verdict == "max pairs"
    assert "no verdict" in state.summary()


def test_bounds_are_parsed_and_checked():
    bounds = SprtBounds.parse("elo0=0,elo1=50", alpha=0.05, beta=0.1)
    assert (bounds.elo0, bounds.elo1, bounds.beta) == (0, 50, 0.1)
    assert bounds.lower == pytest.approx(math.log(0.1 / 0.95))
    assert bounds.upper == pytest.approx(math.log(0.9 / 0.05))
    for text in ("elo0=50,elo1=0", "elo1=5", "elo0=x,elo1=5", "elo0=0,elo1=5,elo2=7"):
        with pytest.raises(UsageError):
            SprtBounds.parse(text)
    with pytest.raises(UsageError):
        SprtBounds(0, 50, alpha=0.7)


def test_cli_sprt_plays_pairs_on_shared_seeds_and_resumes_from_stored_pairs(tmp_path, capsys):
    from fogsearch.cli import main as cli_main
    from fogsearch.tournament import ResultStore

    db = tmp_path / "sprt.sqlite"
    argv = ["tournament", "random", "attacker", "--sprt", "elo0=0,elo1=50", "--db", str(db)]
    argv += ["--seconds", "30", "--increment", "0", "--workers", "1", "--no-progress"]
    assert cli_main([*argv, "--max-pairs", "2"]) == 0
    out = capsys.readouterr().out
    assert "after 2 pairs" in out and "no verdict: stopped at the bound of 2 pairs" in out
    assert re.search(r"pentanomial 0/0\.5/1/1\.5/2: \d+/\d+/\d+/\d+/\d+", out)
    assert cli_main([*argv, "--max-pairs", "3"]) == 0
    out = capsys.readouterr().out
    assert "after 3 pairs" in out
    with ResultStore(db) as store:
        first, second = store.games(1), store.games(2)
    # The second run played only the third pair, colours swapped on one seed.
    assert [g["task_index"] for g in second] == [4, 5]
    assert second[0]["seed"] == second[1]["seed"] != first[0]["seed"]
    assert (second[0]["white"], second[1]["white"]) == ("random", "attacker")
    assert first[0]["seed"] == first[1]["seed"] and first[2]["seed"] == first[3]["seed"]


def test_cli_sprt_refuses_bad_bounds_in_one_line(tmp_path, capsys):
    from fogsearch.cli import main as cli_main

    argv = ["tournament", "random", "attacker", "--sprt", "elo0=50,elo1=0"]
    assert cli_main([*argv, "--db", str(tmp_path / "x.sqlite"), "--no-progress"]) == 2
    assert "elo0 < elo1" in capsys.readouterr().err


def test_the_constrained_fit_is_a_maximum_of_the_likelihood():
    """No step that keeps a distribution with the same mean raises the log-likelihood."""
    counts, mean = [4, 11, 30, 14, 6], 0.56
    p = constrained_mle(counts, mean)
    scores = [s / 2 for s in PAIR_SCORES]

    def loglik(q):
        return sum(n * math.log(x) for n, x in zip(counts, q, strict=True))

    rng = random.Random(5)
    for _ in range(200):
        v = [rng.gauss(0, 1) for _ in counts]
        # Project out the constant and the score directions: sum(v) = 0 and sum(v * s) = 0.
        for basis in ([1.0] * 5, [s - 0.5 for s in scores]):
            dot = sum(a * b for a, b in zip(v, basis, strict=True))
            norm = sum(b * b for b in basis)
            v = [a - dot / norm * b for a, b in zip(v, basis, strict=True)]
        step = [pi + 1e-3 * vi for pi, vi in zip(p, v, strict=True)]
        assert loglik(step) <= loglik(p) + 1e-9


def test_the_llr_agrees_with_its_normal_approximation_for_close_hypotheses():
    """For many pairs and close hypotheses the GSPRT's LLR is, to second order,
    N (mu1 - mu0) (2 mu_hat - mu0 - mu1) / (2 var)."""
    counts = [300, 1500, 4000, 1800, 400]
    pairs = sum(counts)
    scores = [s / 2 for s in PAIR_SCORES]
    mean = sum(n * s for n, s in zip(counts, scores, strict=True)) / pairs
    var = sum(n * (s - mean) ** 2 for n, s in zip(counts, scores, strict=True)) / pairs
    mu0, mu1 = score_of_elo(0), score_of_elo(10)
    approx = pairs * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * var)
    assert llr(counts, 0, 10) == pytest.approx(approx, rel=0.02)
