"""bench/decision_screen.py on a game of the StrangeFish2 match stored in bench/data."""

import argparse
import random
from pathlib import Path

import decision_screen
import pytest
from loss_replay import player_games, read_only
from reconchess.history import Turn

from fogsearch.bot.config import FogsearchBotConfig
from fogsearch.bot.judgement import request_scores
from fogsearch.bot.tracker import weighted_sample
from fogsearch.rbc import BoardSet
from fogsearch.search import board_table

DB = str(Path(__file__).parent / "data" / "strangefish2_e0.sqlite")
TASK = 0


@pytest.fixture(scope="module")
def game():
    db = read_only(DB)
    for index, color, _winner, history in player_games(db, "e0"):
        if index == TASK:
            return color, history
    raise AssertionError("task 0 is stored")


def test_a_variant_named_alone_is_the_bots_default():
    config = FogsearchBotConfig()
    base = decision_screen.variant("base")
    assert base.model == config.opponent.model
    assert base.king == config.king_loss_cp
    assert base.mean == config.mean_weight
    assert base.sample == config.set_limits.max_search_boards
    flat = decision_screen.variant("flat:temperature=0,sample=1024,king=9000")
    assert flat.model is None and flat.sample == 1024 and flat.king == 9000
    # Unknown keys, malformed values and values the bot itself refuses.
    bad_variants = (
        "x:nosuch=1",
        "x:sample=1.5",
        "x:king",
        "x:sample=0",
        "x:king=10",
        "x:power=2",
        "x:plies=0",
        "x:seconds=0",
    )
    for bad in bad_variants:
        with pytest.raises(argparse.ArgumentTypeError):
            decision_screen.variant(bad)


def test_every_replayed_turn_holds_the_truth_and_the_request_the_game_played(game):
    color, history = game
    models = [(200.0, 0.1), None]
    turns = 0
    for number, truth, played, sets in decision_screen.replayed_sets(
        history, color, models, 1_000_000
    ):
        turns += 1
        requested = history.requested_move(Turn(color, number))
        assert played == (requested.uci() if requested else "0000")
        for board_set in sets.values():
            assert truth in board_set
        # The same boards, weighed differently.
        assert len(sets[models[0]]) == len(sets[None])
        if turns == 12:
            break
    assert turns == 12


def _first_set_larger_than(boards, history, color, models):
    """The truth and the sets of the first turn whose set holds more than ``boards``."""
    for _number, truth, _played, sets in decision_screen.replayed_sets(
        history, color, models, 1_000_000
    ):
        if len(next(iter(sets.values()))) > boards:
            return truth, sets
    raise AssertionError(f"no set of more than {boards} boards")


def test_each_choice_is_the_best_score_on_its_own_sample_and_is_valued_on_the_truth(game):
    color, history = game
    variants = [
        decision_screen.variant("base"),
        decision_screen.variant("small:sample=8,king=9000"),
        decision_screen.variant("none:temperature=0,sample=16"),
    ]
    truth, sets = _first_set_larger_than(16, history, color, [v.model for v in variants])
    chosen, best = decision_screen.decide(sets, truth, color, variants, 7, 2, None, 1)
    on_truth = board_table(BoardSet(color, fens=[truth]), most_plies=2, least_plies=2, threads=1)
    truth_values = {
        ("0000" if m is None else m.uci()): int(v)
        for m, v in zip(on_truth.requests, on_truth.values[:, 0], strict=True)
    }
    assert best == max(truth_values.values())
    for v in variants:
        boards, weights = weighted_sample(
            sets[v.model], v.sample, random.Random(7), v.model is not None
        )
        own = board_table(boards, most_plies=2, least_plies=2, threads=1)
        scores = request_scores(own, weights, v.mean, None, v.king)
        request, value, seen = chosen[v.name]
        assert scores[request] == pytest.approx(max(scores.values()))
        assert value == truth_values[request]
        assert seen == (truth in boards)


def test_a_variant_with_its_own_table_chooses_on_it_and_is_measured_on_the_yardstick(game):
    color, history = game
    variants = [
        decision_screen.variant("base"),
        # Time enough for every board to reach its plies: the same table as a fixed depth's.
        decision_screen.variant("own:sample=8,seconds=600,plies=2"),
    ]
    truth, sets = _first_set_larger_than(16, history, color, [v.model for v in variants])
    chosen, best = decision_screen.decide(sets, truth, color, variants, 7, 1, None, 1, 3000.0, 3)
    alone = board_table(BoardSet(color, fens=[truth]), most_plies=3, least_plies=3, threads=1)
    yardstick = {
        ("0000" if m is None else m.uci()): int(v)
        for m, v in zip(alone.requests, alone.values[:, 0], strict=True)
    }
    assert best == max(yardstick.values())
    own = variants[1]
    boards, weights = weighted_sample(sets[own.model], 8, random.Random(7), True)
    table = board_table(boards, most_plies=2, least_plies=2, threads=1)
    scores = request_scores(table, weights, own.mean, None, own.king)
    for v in variants:
        request, value, _seen = chosen[v.name]
        assert value == yardstick[request]
    assert scores[chosen["own"][0]] == pytest.approx(max(scores.values()))


def test_a_variant_with_its_own_seconds_needs_a_yardstick():
    with pytest.raises(SystemExit):
        decision_screen.main([DB, "--player", "e0", "--variant", "own:seconds=1"])


def test_the_script_reports_each_variant_against_the_first(capsys):
    code = decision_screen.main(
        [
            DB,
            "--player",
            "e0",
            "--tasks",
            str(TASK),
            "--every",
            "6",
            "--seconds",
            "0.2",
            "--threads",
            "1",
            "--variant",
            "base",
            "--variant",
            "same",
            "--variant",
            "none:temperature=0",
            "--disasters",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    (count,) = [line for line in out.splitlines() if line.endswith(" decisions")]
    decisions = int(count.split()[0])
    assert decisions >= 3
    rows = {
        line.split(" | ")[0][2:]: line.split(" | ")
        for line in out.splitlines()
        if line.startswith("| ")
    }
    # A variant equal to the first chooses as it does on every turn.
    assert rows["same"][2] == "+0.0 ± 0.0" and rows["same"][5] == "0.0%"
    assert rows["base"][1] == rows["same"][1]
    assert "none" in rows
    assert decision_screen.DISASTER_HEAD.splitlines()[0] in out.splitlines()
