"""The ``fogsearch`` command line: play, track, demo and bench (the tournament has its own tests)."""

import json
from pathlib import Path

import pytest
from reconchess import GameHistory

from fogsearch.cli import main as cli_main

FAST_BOT = "fogsearch:max_turn_seconds=0.2,min_turn_seconds=0.05"
"""The bot at its defaults, with short turns."""


def test_play_logs_a_game_saves_it_and_track_replays_it(tmp_path, capsys):
    saved = tmp_path / "game.json"
    code = cli_main(
        ["play", "--bot", FAST_BOT, "--opponent", "attacker", "--seconds", "60", "--seed", "2"]
        + ["--save", str(saved)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"{FAST_BOT} (white) vs attacker (black)")
    assert "result: " in out and f"saved GameHistory to {saved}" in out
    assert "without its search" not in out
    history = GameHistory.from_file(str(saved))
    assert history.num_turns() > 0
    white_turns, black_turns = history.num_turns(True), history.num_turns(False)
    assert f"in turn {white_turns} (white played {white_turns} turns, black {black_turns})" in out
    assert f"\n{white_turns:>4} white " in out  # its last row

    # AttackerBot senses at random, so its set is never shrunk and grows without bound: the replay
    # stops tracking it at the limit instead of running out of memory (as it once did).
    # 100 boards: passed by its third turn, so even a short game (an 8-turn rush) shows it.
    code = cli_main(["track", str(saved), "--max-boards", "100"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{history.num_turns()} turns" in out
    assert "black: tracking stopped at turn" in out and "would pass 100 boards" in out
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
        "fogsearch: error: unknown bench areas ['nonsense']; choose from rbc, sketch, search, ttcg, jps"
    )


README = str(Path(__file__).parents[1] / "README.md")
KINDS = "player kinds are random, attacker, trout, trout-set, fogsearch, or a reconchess bot"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["tournament", "fogsearch", "radnom"], ["unknown player kind 'radnom'", "random?", KINDS]),
        (
            ["tournament", "fogsearch:depth=abc", "random"],
            ["fogsearch setting depth=abc: abc is not an int"],
        ),
        (["tournament", "fogsearch:depth=0", "random"], ["depth must be an integer in 1.."]),
        (["tournament", "fogsearch:mode=best", "random"], ['mode must be one of "none", "exact"']),
        (["play", "--opponent", "atacker"], ["unknown player kind 'atacker'", KINDS]),
        (
            ["play", "--bot", "fogsearch:bogus=1"],
            ["no setting 'bogus'; its settings are judge (str)"],
        ),
        (["play", "--opponent", "trout-set:bogus=1"], ["trout-set has no setting 'bogus'"]),
        (["play", "--opponent", "trout-set:move_seconds=0"], ["move_seconds must be in 0.001.."]),
        (["play", "--bot", "nowhere/bot.py"], ["player nowhere/bot.py: no such bot file"]),
        (["play", "--opponent", "random:speed=3"], ["random takes no settings"]),
        (["track", "missing.json"], ["game history missing.json does not exist"]),
        (["track", README], ["is not a reconchess GameHistory JSON file"]),
        (["tournament", "random", "attacker", "--games", "0"], ["--games: 0 is out of bounds"]),
        (["tournament", "random", "attacker", "--games", "x"], ["'x' is not a whole number"]),
        (["tournament", "random", "attacker", "--workers", "0"], ["--workers: 0 is out of"]),
        (["tournament", "random", "attacker", "--seconds", "nan"], ["--seconds: nan is out of"]),
        (["tournament", "random"], ["at least 2 players, got 1 (random)"]),
        (["tournament", "random", "random"], ["names must be unique: random appears more"]),
        (["tournament", "random", "attacker", "--plot", "x.jpg"], ["name a .png, .pdf, .svg"]),
        (["tournament", "random", "attacker", "--db", "no/such/dir/r.sqlite"], ["no/such/dir"]),
        (["tournament", "random", "attacker", "--db", README], ["not an SQLite database"]),
        (["play", "--seconds", "-5"], ["--seconds: -5 is out of bounds: use 1..86,400 seconds"]),
        (["play", "--save", "no/such/dir/g.json"], ["--save no/such/dir/g.json: its folder"]),
        (["demo", "--max-turns", "-1"], ["--max-turns: -1 is out of bounds", "6,300 turns"]),
        (["demo", "--random-sense-rate", "2"], ["2 is not a probability"]),
        (["demo", "--white", "radnom"], ["unknown player kind 'radnom'"]),
        (["bench", "nonsense"], ["unknown bench areas ['nonsense']"]),
    ],
)
def test_a_user_error_is_one_line_and_exit_2_before_any_game(tmp_path, capsys, argv, says):
    if argv[0] == "tournament" and "--db" not in argv:
        argv = [*argv, "--db", str(tmp_path / "results.sqlite")]
    readme_before = Path(README).read_bytes()
    assert cli_main(argv) == 2
    out, err = capsys.readouterr()
    assert err.startswith("fogsearch: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in says:
        assert fragment in err
    assert out == ""  # no game began: nothing was announced or logged
    assert not (tmp_path / "results.sqlite").exists()
    assert Path(README).read_bytes() == readme_before  # refused, not written to


def test_the_play_log_names_its_columns_and_counts_turns_as_the_result_does(tmp_path, capsys):
    saved = tmp_path / "game.json"
    bot = "fogsearch:depth=1,max_turn_seconds=0.1,min_turn_seconds=0.05,small_set_depth=0"
    argv = ["play", "--bot", bot, "--opponent", "attacker", "--color", "black"]
    code = cli_main([*argv, "--seconds", "60", "--seed", "4", "--save", str(saved)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == f"attacker (white) vs {bot} (black), 60s + 5s a turn"
    assert out[1] == "columns:"
    header = next(i for i, line in enumerate(out) if line.split()[:2] == ["turn", "side"])
    assert out[header].split() == [
        "turn", "side", "boards", "sense", "sensed", "request", "taken", "capture", "after",
        "value_cp", "depth", "plies", "search_s", "budget_s", "turn_s", "clock_s",
    ]  # fmt: skip
    legend = out[2:header]
    assert [line.split()[0] for line in legend] == out[header].split()
    assert "centipawns" in out[2 + 9] and "seconds" in out[2 + 15]  # value_cp, clock_s
    rows = [line.split() for line in out[header + 1 :] if line.split()[:1] != ["result:"]]
    rows = [r for r in rows if len(r) == 16]
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    assert {r[1] for r in rows} == {"black"}
    result = next(line for line in out if line.startswith("result: "))
    history = GameHistory.from_file(str(saved))
    white_turns, black_turns = history.num_turns(True), history.num_turns(False)
    assert len(rows) == black_turns
    assert (
        f"in turn {max(white_turns, black_turns)} (white played {white_turns} turns, "
        f"black {black_turns})" in result
    )
