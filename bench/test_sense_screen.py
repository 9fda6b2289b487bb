"""bench/sense_screen.py on a game of the StrangeFish2 match stored in bench/data."""

import argparse
import random
from pathlib import Path

import chess
import pytest
import sense_screen
from loss_replay import player_games, read_only
from reconchess.history import Turn

from fogsearch.bot.config import FogsearchBotConfig
from fogsearch.bot.judgement import request_scores
from fogsearch.bot.sensing import decision_sense, smallest_expected_set
from fogsearch.bot.tracker import weighted_sample
from fogsearch.observations import sense_result
from fogsearch.rbc import BoardSet
from fogsearch.search import board_table

DB = str(Path(__file__).parent / "data" / "strangefish2_e0.sqlite")
TASK = 0
MODEL = FogsearchBotConfig().opponent.model


@pytest.fixture(scope="module")
def game():
    db = read_only(DB)
    for index, color, _winner, history in player_games(db, "e0"):
        if index == TASK:
            return color, history
    raise AssertionError("task 0 is stored")


def _turn_with_more_than(boards, history, color):
    """A copy of the set before the first sense with more than ``boards`` boards, its truth and
    the square sensed in the game."""
    for _number, truth, played, before in sense_screen.replayed_senses(
        history, color, MODEL, 1_000_000
    ):
        if len(before) > boards:
            return truth, played, before.copy()
    raise AssertionError(f"no set of more than {boards} boards")


def test_a_policy_is_parsed_with_the_bots_bounds():
    plain = sense_screen.policy("decision")
    assert plain.kind == "decision" and plain.plies == FogsearchBotConfig().sensing.sense_plies
    deeper = sense_screen.policy("decision:plies=3,seconds=4")
    assert (deeper.name, deeper.plies, deeper.seconds) == ("decision:plies=3,seconds=4", 3, 4.0)
    refused = (
        "random",
        "decision:depth=2",
        "decision:plies=1.5",
        "decision:seconds=0",
        "size:plies=3",
        "x:",
    )
    # Unknown policies and keys, malformed values, and settings on a policy that takes none.
    for bad in refused:
        with pytest.raises(argparse.ArgumentTypeError):
            sense_screen.policy(bad)


def test_a_sense_read_off_the_truth_is_what_the_referee_answered(game):
    color, history = game
    turns = 0
    for number, truth, played, before in sense_screen.replayed_senses(
        history, color, MODEL, 1_000_000
    ):
        stored = sense_result(history.sense_result(Turn(color, number)))
        assert sense_screen.sensed(truth, played) == stored
        # A sense on the true board never rules the true board out, wherever it looks.
        assert truth in before
        for square in (chess.A1, chess.H8, chess.E4):
            assert truth in sense_screen.after_sense(before, truth, square)
        turns += 1
        if turns == 15:
            break
    assert turns == 15


def test_the_set_after_the_played_sense_is_the_games(game):
    color, history = game
    truth, played, before = _turn_with_more_than(16, history, color)
    after = sense_screen.after_sense(before, truth, played)
    assert len(after) < len(before)
    replayed = None
    for number, _truth, _played, board_set in sense_screen.replayed_senses(
        history, color, MODEL, 1_000_000
    ):
        if len(board_set) == len(before) and _truth == truth:
            board_set.handle_sense_result(list(history.sense_result(Turn(color, number))))
            replayed = board_set
            break
    assert replayed is not None
    assert sorted(replayed.fens()) == sorted(after.fens())
    # The set before the sense is left as it was.
    assert len(sense_screen.after_sense(before, truth, None)) == len(before)


def test_each_policy_senses_as_the_bot_would(game):
    color, history = game
    truth, played, before = _turn_with_more_than(16, history, color)
    expected = before.sense_stats()
    squares = list(chess.SQUARES)
    assert sense_screen.sense_square(sense_screen.policy("played"), before, played, 7, 1) == played
    assert sense_screen.sense_square(sense_screen.policy("none"), before, played, 7, 1) is None
    by_size = sense_screen.sense_square(sense_screen.policy("size"), before, played, 7, 1)
    assert by_size == smallest_expected_set(expected, squares)
    # Time enough for every board's table: the bot's own decision sense on the same sample.
    config = FogsearchBotConfig()
    boards, weights = weighted_sample(before, 256, random.Random(7), True)
    own = decision_sense(
        boards, weights, squares, expected, config.mean_weight, 1, 1, 600, config.king_loss_cp
    )
    decision = sense_screen.policy("decision:plies=1,seconds=600")
    assert sense_screen.sense_square(decision, before, played, 7, 1) == own.square


def test_each_move_is_the_best_score_on_its_own_set_and_is_valued_on_the_truth(game):
    color, history = game
    truth, played, before = _turn_with_more_than(16, history, color)
    after = {
        "played": sense_screen.after_sense(before, truth, played),
        "none": before,
        "corner": sense_screen.after_sense(before, truth, chess.A1),
    }
    chosen, best = sense_screen.choose_moves(after, truth, color, 7, 2, None, 1)
    on_truth = board_table(BoardSet(color, fens=[truth]), most_plies=2, least_plies=2, threads=1)
    truth_values = {
        ("0000" if m is None else m.uci()): int(v)
        for m, v in zip(on_truth.requests, on_truth.values[:, 0], strict=True)
    }
    assert best == max(truth_values.values())
    config = FogsearchBotConfig()
    for name, board_set in after.items():
        boards, weights = weighted_sample(board_set, 256, random.Random(7), True)
        own = board_table(boards, most_plies=2, least_plies=2, threads=1)
        scores = request_scores(own, weights, config.mean_weight, None, config.king_loss_cp)
        request, value, seen = chosen[name]
        assert scores[request] == pytest.approx(max(scores.values()))
        assert value == truth_values[request]
        assert seen == (truth in boards)


def test_the_script_reports_each_policy_against_the_first(capsys):
    code = sense_screen.main(
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
            "played",
            "--variant",
            "decision:seconds=0.2",
            "--variant",
            "none",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    (count,) = [line for line in out.splitlines() if line.endswith(" decisions")]
    assert int(count.split()[0]) >= 3
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| ")]
    outcomes = {row[0][2:]: row for row in rows if len(row) == 9}
    assert outcomes["played"][2] == "+0.0 ± 0.0" and outcomes["played"][6] == "100.0%"
    assert outcomes["none"][6] == "0.0%"
    left = {row[0][2:]: float(row[1]) for row in rows if len(row) == 3 and row[1][0].isdigit()}
    # No sense leaves the set as it was: never fewer boards than a sense.
    assert left["none"] >= left["played"]


def test_each_policy_is_named_once():
    with pytest.raises(SystemExit):
        sense_screen.main([DB, "--player", "e0", "--variant", "size", "--variant", "size"])
