"""The ``fogsearch`` command line: play, track, demo and bench (the tournament has its own tests)."""

import json
from pathlib import Path

from reconchess import GameHistory

from fogsearch.cli import main as cli_main


def test_play_logs_a_game_saves_it_and_track_replays_it(tmp_path, capsys):
    saved = tmp_path / "game.json"
    code = cli_main(
        ["play", "--opponent", "attacker", "--seconds", "60", "--seed", "2", "--save", str(saved)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("fogsearch (white) vs attacker (black)")
    assert "result: " in out and f"saved GameHistory to {saved}" in out
    assert "without its search" not in out
    history = GameHistory.from_file(str(saved))
    assert history.num_turns() > 0

    # AttackerBot senses at random, so its set is never shrunk and grows without bound: the replay
    # stops tracking it at the limit instead of running out of memory (as it once did).
    code = cli_main(["track", str(saved), "--max-boards", "1000"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{history.num_turns()} turns" in out
    assert "black: tracking stopped at turn" in out and "would pass 1000 boards" in out
    assert "the true board was in both sides' sets while tracked" in out


def test_play_warns_when_the_bot_played_without_its_search(capsys):
    bot = str(Path(__file__).parent / "bots" / "failing_search_bot.py")
    code = cli_main(["play", "--bot", bot, "--opponent", "random", "--seconds", "60"])
    out = capsys.readouterr().out
    assert code == 0  # it survived every failed search
    assert "warning: white decided" in out and "turns without its search" in out


def test_demo_tracks_both_sides_and_saves_the_history(tmp_path, capsys):
    saved = tmp_path / "demo.json"
    code = cli_main(["demo", "--seed", "1", "--max-turns", "10", "--save", str(saved)])
    out = capsys.readouterr().out
    assert code == 0
    assert "the true board was in both sides' sets at every step" in out
    assert json.loads(saved.read_text())  # a reconchess GameHistory JSON


def test_bench_lists_the_scripts_of_each_area(capsys):
    assert cli_main(["bench", "ttcg", "--list"]) == 0
    listed = capsys.readouterr().out.split()
    names = {p.rsplit("/", 1)[-1] for p in listed}
    assert {"ttcg_value_estimation.py", "ttcg_mixing.py", "ttcg_throughput.py"} <= names
    assert all(n.startswith("ttcg_") for n in names)
    assert cli_main(["bench", "nonsense"]) == 2


def test_arguments_after_double_dash_are_for_bench_only(capsys):
    assert cli_main(["track", "game.json", "--", "--states", "1"]) == 2
    assert "only for `fogsearch bench`" in capsys.readouterr().err
    # With --list nothing runs, whatever the scripts would have been given.
    assert cli_main(["bench", "search", "--list", "--", "--depths", "1"]) == 0
    listed = capsys.readouterr().out.split()
    assert listed and all(p.endswith(".py") and "/search_" in p for p in listed)


def test_track_refuses_a_bound_of_no_boards(capsys):
    assert cli_main(["track", "game.json", "--max-boards", "0"]) == 2
    assert "a positive number of boards" in capsys.readouterr().err


def test_a_command_line_error_is_one_line_and_exit_2(capsys):
    assert cli_main(["nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fogsearch: error: argument command: invalid choice: 'nonsense'")
    assert err.count("\n") == 1
    assert cli_main(["--debug", "bench", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "UsageError" in err
    assert err.rstrip().splitlines()[-1] == (
        "fogsearch: error: unknown bench areas ['nonsense']; choose from rbc, sketch, search, ttcg"
    )
