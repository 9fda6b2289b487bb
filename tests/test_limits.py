"""The core's limits table is what every interface enforces: each bound is accepted and one past
it refused, in Python and in the native module alike."""

from __future__ import annotations

import pytest

from fogsearch import _core, rbc, search
from fogsearch.limits import LIMITS, MAX_THREADS, MAX_UCI_DEPTH, MAX_UCI_NODES


def test_the_table_names_each_limit_the_modules_export():
    assert set(LIMITS) == {
        "threads",
        "search_depth",
        "board_plies",
        "uci_depth",
        "uci_nodes",
        "perft_depth",
    }
    assert LIMITS["search_depth"] == search.MAX_DEPTH
    assert LIMITS["board_plies"] == search.MAX_BOARD_PLIES
    assert LIMITS["perft_depth"] == rbc.MAX_PERFT_DEPTH


def test_the_thread_bound_is_the_native_one_on_both_sides_of_it():
    assert _core.rbc.BoardSet(True, threads=MAX_THREADS).threads == MAX_THREADS
    with pytest.raises(ValueError, match=str(MAX_THREADS)):
        _core.rbc.BoardSet(True, threads=MAX_THREADS + 1)
    with pytest.raises(ValueError, match=f"1..{MAX_THREADS}"):
        search.board_table(["4k3/8/8/8/8/8/8/3KR3 w - - 0 1"], threads=MAX_THREADS + 1)


@pytest.mark.parametrize(
    ("name", "value"), [("depth", MAX_UCI_DEPTH + 1), ("nodes", MAX_UCI_NODES + 1)]
)
def test_an_engine_limit_past_the_core_bound_is_refused(name, value):
    with pytest.raises(ValueError, match=f"{name} must be an integer in"):
        search.EngineJudge("stockfish", **{name: value})


def test_depth_and_plies_past_the_core_bound_are_refused_by_the_core():
    # Python checks only the type; the core's SearchError (a ValueError) names the value.
    fen = "4k3/8/8/8/8/8/8/3KR3 w - - 0 1"
    with pytest.raises(ValueError, match=f"depth must be at most {search.MAX_DEPTH}"):
        search.search([fen], search.MAX_DEPTH + 1)
    with pytest.raises(ValueError, match=f"plies must be at most {search.MAX_BOARD_PLIES}"):
        search.board_values([fen], plies=search.MAX_BOARD_PLIES + 1)
    with pytest.raises(ValueError, match="most_plies"):
        search.board_table([fen], most_plies=search.MAX_BOARD_PLIES + 1)
    with pytest.raises(ValueError, match="depth must be a non-negative integer"):
        search.search([fen], -1)


def test_check_limit_bounds_a_setting_by_the_core_table():
    # The bot config's early checks go through this one core function.
    most = LIMITS["search_depth"]
    assert _core.check_limit("depth", "search_depth", 1, most) == most
    assert _core.check_limit("small_set_depth", "search_depth", 0, 0) == 0
    for bad in (0, -5, most + 1):
        with pytest.raises(
            ValueError, match=rf"^depth must be an integer in 1\.\.{most}, got {bad}$"
        ):
            _core.check_limit("depth", "search_depth", 1, bad)
    with pytest.raises(ValueError, match="no limit named"):
        _core.check_limit("depth", "no_such_limit", 1, 1)


def test_the_bot_config_refuses_plies_past_the_core_bound_before_a_game():
    from fogsearch.bot.config import FogsearchBotConfig, SenseRule

    most = LIMITS["board_plies"]
    assert SenseRule(sense_plies=0).sense_plies == 0
    assert FogsearchBotConfig(board_plies=most).board_plies == most
    with pytest.raises(ValueError, match=rf"sense_plies must be an integer in 0\.\.{most}"):
        SenseRule(sense_plies=most + 1)
    deepest = LIMITS["search_depth"]
    for bad in (2**64, True, 2.0):
        with pytest.raises(ValueError, match=rf"depth must be an integer in 1\.\.{deepest}, got"):
            FogsearchBotConfig(depth=bad)
