"""Cache modes against the baseline, the Python API's contract and its errors."""

from __future__ import annotations

import chess
import pytest

from fogsearch import FogsearchError
from fogsearch.search import SearchConfig, SearchError, search

# Mid-game-like sets: a few guesses about the opponent's last move.
SETS = {
    "italian_guesses": [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2",
    ],
    "pawns_and_kings": [
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
        "3k4/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ],
    "start": [chess.STARTING_FEN],
}


# The full sense search over the three-board Italian set takes ~40 s; it runs with min_size only.
@pytest.mark.parametrize(
    "name, sense_mode",
    [(name, "min_size") for name in sorted(SETS)]
    + [("pawns_and_kings", "search"), ("start", "search")],
)
def test_exact_transpositions_never_change_a_value(name, sense_mode):
    base = search(SETS[name], 2, SearchConfig(mode="none", sense_mode=sense_mode))
    exact = search(SETS[name], 2, SearchConfig(mode="exact", sense_mode=sense_mode))
    assert exact.move_values == base.move_values
    assert exact.best_move == base.best_move and exact.value == base.value
    assert exact.stats.nodes <= base.stats.nodes


def test_threads_do_not_change_baseline_or_exact_values():
    for mode in ("none", "exact"):
        one = search(SETS["italian_guesses"], 2, SearchConfig(mode=mode, sense_mode="min_size"))
        two = search(
            SETS["italian_guesses"], 2, SearchConfig(mode=mode, sense_mode="min_size", threads=2)
        )
        assert one.move_values == two.move_values


@pytest.mark.parametrize("mode", ["sketch", "exact+sketch"])
def test_sketch_mode_reports_how_far_its_values_differ(mode):
    base = search(SETS["pawns_and_kings"], 2, SearchConfig(mode="none"))
    sketched = search(SETS["pawns_and_kings"], 2, SearchConfig(mode=mode, threshold=0.8))
    assert sketched.move_values.keys() == base.move_values.keys()
    deltas = {m: abs(sketched.move_values[m] - base.move_values[m]) for m in base.move_values}
    report = {"mean": sum(deltas.values()) / len(deltas), "max": max(deltas.values())}
    print(f"{mode}: |delta| mean {report['mean']:.1f} cp, max {report['max']} cp")
    assert sketched.stats.bounds_used > 0, "the sketch table supplied no bound at all"
    assert report["max"] >= 0


def test_result_types():
    result = search(SETS["start"], 1)
    assert isinstance(result.best_move, chess.Move)
    assert result.value == result.move_values[result.best_move.uci()]
    assert result.value == max(result.move_values.values())
    assert len(result.move_values) == 35 and "0000" in result.move_values  # 34 actions + pass
    assert result.depth == 1
    assert result.stats.nodes > 0 and result.stats.leaf_evaluations > 0
    assert result.stats.elapsed_seconds >= 0


def test_accepts_chess_boards():
    boards = [chess.Board(f) for f in SETS["italian_guesses"]]
    assert search(boards, 1).move_values == search(SETS["italian_guesses"], 1).move_values


def test_time_limit_returns_the_deepest_completed_depth():
    result = search(SETS["start"], 5, SearchConfig(mode="exact", time_limit=0.3))
    assert 1 <= result.depth < 5
    assert result.best_move is not None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "fast"}, "mode"),
        ({"threshold": 0.0}, "threshold"),
        ({"threshold": 1.5}, "threshold"),
        ({"k": 0}, "k"),
        ({"sketch_width": 0}, "sketch_width"),
        ({"table_size": -1}, "table_size"),
        ({"threads": 0}, "threads"),
        ({"sense_mode": "random"}, "sense_mode"),
        ({"leaf": "qsearch"}, "leaf"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_config_is_a_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SearchConfig(**kwargs)


def test_bad_sets_raise_clear_errors():
    with pytest.raises(SearchError, match="empty"):
        search([], 1)
    with pytest.raises(ValueError, match="board 1"):
        search([chess.STARTING_FEN, "not a fen"], 1)
    with pytest.raises(SearchError, match="same side to move"):
        search(
            [chess.STARTING_FEN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"], 1
        )
    with pytest.raises(SearchError, match="lacks a king"):
        search(["8/8/8/8/8/8/8/4K3 w - - 0 1"], 1)
    with pytest.raises(ValueError, match="depth"):
        search(SETS["start"], 0)
    with pytest.raises(TypeError):
        search(42, 1)
    assert issubclass(SearchError, FogsearchError)
