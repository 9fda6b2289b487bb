"""bench/sample_refutation.py: the weighted draw's arithmetic, the refuted boards against a
board-by-board search, and the shares of the odds match's game 12, whose knight move c5d3 the
likeliest boards showed safe."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sample_refutation as bench
from loss_replay import player_games, read_only

from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet
from fogsearch.search import board_table
from fogsearch.tracking import observations

BENCH = Path(__file__).parent
ODDS = BENCH / "data" / "strangefish2_odds.sqlite"


def _game_12():
    for index, color, _, history in player_games(read_only(str(ODDS)), "fogsearch"):
        if index + 1 == 12:
            return color, history
    raise AssertionError("the odds match has a game 12")


@pytest.fixture(scope="module")
def game_12_losses():
    color, history = _game_12()
    return {r.turn: r for r in bench.refutations(12, history, color, plies=2, seed=0)}


class Offset(random.Random):
    """A generator whose ``random()`` is a given offset."""

    def __init__(self, offset: float):
        super().__init__(0)
        self.offset = offset

    def random(self) -> float:
        return self.offset


def test_each_board_takes_the_floor_or_the_ceiling_of_its_draws_and_the_mean_is_its_weight():
    weights = np.random.default_rng(3).random(40) ** 4
    weights /= weights.sum()
    size = 16
    grid = [bench.systematic_draw(weights, size, Offset((k + 0.5) / 1000)) for k in range(1000)]
    for shares in grid:
        counts = shares * size
        assert np.allclose(counts, counts.round()) and counts.sum() == size
        assert np.all(counts >= np.floor(size * weights) - 1e-9)
        assert np.all(counts <= np.ceil(size * weights) + 1e-9)
    assert np.allclose(np.mean(grid, axis=0), weights, atol=1e-3)


def test_refuted_boards_are_those_a_one_board_search_finds_a_pawn_below_its_best():
    color, history = _game_12()
    board_set = BoardSet(color)
    for seen in observations(history, color):
        if isinstance(seen.observation, MoveResult) and seen.turn_number == 7:
            break
        seen.apply(board_set)
    move = seen.observation.requested
    refuted = bench.refuted_boards(board_set, move, plies=2)
    assert len(refuted) == len(board_set) == 83
    requests = board_table(board_set, most_plies=0, least_plies=0).requests
    for index in range(len(board_set)):
        one = board_table(board_set.subset([index]), requests, most_plies=2, least_plies=2)
        values = one.values[:, 0]
        below = values[requests.index(move)] <= values.max() - bench.REFUTED_CP
        assert refuted[index] == below, index
    assert 0 < refuted.sum() < len(board_set)


def test_a_set_within_the_sample_shows_the_same_share_everywhere(game_12_losses):
    small = game_12_losses[8]  # c5d4 on 83 boards: the sample is the whole set
    assert (small.move, small.boards) == ("c5d4", 83)
    assert small.likeliest_weight == pytest.approx(1.0)
    assert small.likeliest == pytest.approx(small.whole)
    assert abs(small.draw - small.whole) <= 1 / bench.SAMPLE * small.boards


def test_the_likeliest_boards_hid_the_knight_moves_refutation_and_a_draw_shows_it(game_12_losses):
    # Turn 12: c5d3, the knight lost on d3, on a set of 3,799 boards whose 256 likeliest held a
    # third of the weight.
    knight = game_12_losses[12]
    assert (knight.move, knight.boards) == ("c5d3", 3799)
    assert 0.25 < knight.likeliest_weight < 0.40
    assert 0.10 < knight.whole < 0.25
    assert knight.likeliest < knight.whole / 4
    assert knight.draw > knight.whole / 2


def test_the_script_prints_a_row_per_loss_and_the_summaries():
    done = subprocess.run(
        [sys.executable, "sample_refutation.py", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCH,
    )
    assert done.returncode == 0 and "usage:" in done.stdout
    rows = [bench.Refutation(1, 2, "e2e4", 300, 0.5, 0.2, 0.05, 0.2)]
    assert bench.summary(rows, "gambles").startswith("gambles (1 turns): mean refuted share whole")
    assert "likeliest 1, on the draw 0" in bench.summary(rows, "gambles")
