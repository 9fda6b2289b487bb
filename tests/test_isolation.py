"""Players in processes of their own, as on the RBC server: interpreters, pinning, pondering,
kills on overrun and crashes (issue 47)."""

import ast
import os
import sys
from pathlib import Path

import chess
import pytest

from fogsearch.arguments import UsageError
from fogsearch.tournament import (
    GameTask,
    MatchOptions,
    PlayerSpec,
    ResultStore,
    play_game,
    run_tournament,
)
from fogsearch.tournament.isolation import HOST
from fogsearch.tournament.referee import ClockedGame
from fogsearch.tournament.runner import core_blocks

BOTS = Path(__file__).parent / "bots"
PROBE_BOT = str(BOTS / "probe_bot.py")
SLEEPY_BOT = str(BOTS / "sleepy_bot.py")
DYING_BOT = str(BOTS / "dying_bot.py")
CRASHING_BOT = str(BOTS / "crashing_bot.py")


def logs_of(task: GameTask, cores=None):
    """The record and each side's turn log (as the referee kept it) of ``task``."""
    logs = {}

    def keep(color, player, game):
        logs[color] = player.turn_log

    return play_game(task, on_turn=keep, cores=cores), logs


def test_the_player_host_imports_nothing_of_fogsearch():
    """It runs under other interpreters, where only reconchess and chess can be relied on."""
    tree = ast.parse(HOST.read_text())
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert "fogsearch" not in imported
    assert imported <= set(sys.stdlib_module_names) | {"chess", "reconchess", "numpy"}


def test_each_player_runs_in_its_own_process_under_the_named_interpreter():
    python = os.path.realpath(sys.executable)
    probe = PlayerSpec.parse(f"{PROBE_BOT}:python={python}@probe")
    task = GameTask(0, probe, PlayerSpec(PROBE_BOT), seed=3, seconds_per_player=30)
    record, logs = logs_of(task)
    assert record.crashed is None and record.reason == "KING_CAPTURE"
    white, black = logs[chess.WHITE][0], logs[chess.BLACK][0]
    assert len({white["pid"], black["pid"], os.getpid()}) == 3
    # python= loads the bot as reconchess does, without fogsearch; our own kinds load through it.
    assert white["executable"] == python and not white["fogsearch_imported"]
    assert black["fogsearch_imported"]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pins two players to a core each")
def test_each_player_and_its_children_are_pinned_to_their_own_cores():
    mine = sorted(os.sched_getaffinity(0))
    task = GameTask(0, PlayerSpec(PROBE_BOT), PlayerSpec(PROBE_BOT), seed=3, seconds_per_player=30)
    _, logs = logs_of(task, cores=core_blocks(1, 1)[0])
    assert logs[chess.WHITE][0]["affinity"] == [mine[0]]
    assert logs[chess.BLACK][0]["affinity"] == [mine[1]]
    assert logs[chess.WHITE][0]["child_affinity"] == str([mine[0]])
    assert logs[chess.BLACK][0]["child_affinity"] == str([mine[1]])


def test_pinning_needs_two_cores_a_player_pair_for_every_game_at_once():
    mine = len(os.sched_getaffinity(0))
    with pytest.raises(UsageError, match="needs"):
        core_blocks(mine, 1)
    with pytest.raises(UsageError, match="lower --workers"):
        core_blocks(1, mine)
    assert core_blocks(0, 3) == [None, None, None]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="two games' blocks of a core each")
def test_cores_per_game_pins_both_players_of_a_game_to_its_own_shared_block():
    mine = sorted(os.sched_getaffinity(0))
    assert core_blocks(0, 2, per_game=1) == [([mine[0]], [mine[0]]), ([mine[1]], [mine[1]])]
    task = GameTask(
        0, PlayerSpec(PROBE_BOT), PlayerSpec(PROBE_BOT), seed=3, seconds_per_player=30,
        ponder=False,
    )  # fmt: skip
    _, logs = logs_of(task, cores=core_blocks(0, 2, per_game=1)[1])
    for color in chess.COLORS:
        assert logs[color][0]["affinity"] == [mine[1]]
        assert logs[color][0]["child_affinity"] == str([mine[1]])
    with pytest.raises(UsageError, match="--cores-per-game 1 with .* needs"):
        core_blocks(0, len(mine) + 1, per_game=1)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="two games at once, a core each")
def test_a_tournament_with_cores_per_game_plays_each_game_on_one_core_of_its_own(tmp_path):
    mine = sorted(os.sched_getaffinity(0))
    probes = [PlayerSpec(PROBE_BOT, label="a"), PlayerSpec(PROBE_BOT, label="b")]
    db = tmp_path / "t.sqlite"
    tid = run_tournament(
        db, probes, 4, seconds_per_player=30, seconds_increment=0, workers=2, progress=False,
        options=MatchOptions(cores_per_game=1, ponder=False),
    )  # fmt: skip
    with ResultStore(db) as store:
        games = store.games(tid)
        logs = [store.turn_logs(g["id"]) for g in games]
    assert len(games) == 4
    cores_of_games = []
    for game_logs in logs:
        (white,), (black,) = (
            game_logs[chess.WHITE][0]["affinity"],
            game_logs[chess.BLACK][0]["affinity"],
        )
        assert white == black  # the two players of a game share its core
        cores_of_games.append(white)
    # The first two games start at once, one on each block.
    assert set(cores_of_games) == set(mine[:2])


@pytest.mark.parametrize(
    "options, says",
    [
        (MatchOptions(cores_per_game=1), "needs --no-ponder"),
        (MatchOptions(cores_per_game=1, cores_per_player=1, ponder=False), "choose one"),
        (MatchOptions(cores_per_game=1, ponder=False, isolated=False), "its own process"),
        (MatchOptions(cores_per_game=-1, ponder=False), "cores per game must be"),
        (MatchOptions(cores_per_game=True, ponder=False), "cores per game must be"),
    ],
)
def test_shared_cores_are_refused_where_one_player_could_slow_the_other(options, says):
    with pytest.raises(UsageError, match=says):
        options.check()


@pytest.mark.parametrize("ponder", [True, False])
def test_a_waiting_player_ponders_on_its_own_clock_unless_told_not_to(ponder):
    probe = PlayerSpec(PROBE_BOT, label="probe")
    task = GameTask(0, probe, PlayerSpec("random"), seed=3, seconds_per_player=30, ponder=ponder)
    record, logs = logs_of(task)
    assert record.crashed is None
    ponders = [row["ponders"] for row in logs[chess.WHITE] if "ponders" in row]
    if not ponder:
        assert set(ponders) == {0}
        return
    # It pondered during the other side's turns (RandomBot's turns take about a millisecond, so
    # on some the request came before the first while_we_wait), and stopped when its turn came.
    assert len(ponders) / 2 < ponders[-1] <= len(ponders) + 1
    # Its next call waits for its running while_we_wait (0.02 s): its clock pays, the mover's not
    # (measured: 0.90 s against RandomBot's 0.14 s over 95 turns; 0.04 s each without pondering).
    assert record.white_clock_used_s > 0.005 * len(ponders)
    assert record.black_clock_used_s < record.white_clock_used_s / 2


def test_a_call_past_its_clock_and_the_grace_is_killed_and_lost_on_time():
    task = GameTask(
        0, PlayerSpec("random"), PlayerSpec(SLEEPY_BOT), seed=3, seconds_per_player=2, grace_s=1
    )
    record = play_game(task)
    assert record.winner == "white" and record.reason == "TIMEOUT"
    assert record.crashed is None and "killed" in record.error and record.error.startswith("black")
    # Killed at its clock (2 s) and the grace (1 s), not after the hour it sleeps.
    assert record.duration_s < 10 and record.black_seconds_left <= -1


def test_a_player_process_that_dies_is_that_sides_crash():
    task = GameTask(0, PlayerSpec(DYING_BOT), PlayerSpec("random"), seed=3, seconds_per_player=30)
    record = play_game(task)
    assert record.crashed == "white" and record.winner == "black" and record.reason == "CRASH"
    assert "exit code -9" in record.error


def test_a_crash_in_a_player_process_is_recorded_with_its_traceback():
    task = GameTask(
        0, PlayerSpec("random"), PlayerSpec(CRASHING_BOT), seed=3, seconds_per_player=30
    )
    record = play_game(task)
    assert record.crashed == "black" and record.reason == "CRASH"
    assert "Traceback" in record.error and "deliberate crash on move 3" in record.error


def test_overruns_and_crashes_neither_stop_nor_hang_a_tournament(tmp_path):
    from fogsearch.tournament import MatchOptions

    db = tmp_path / "rough.sqlite"
    players = [
        PlayerSpec("random"),
        PlayerSpec(SLEEPY_BOT, label="sleepy"),
        PlayerSpec(DYING_BOT, label="dying"),
    ]
    options = MatchOptions(grace_s=0.5)
    tid = run_tournament(
        db, players, 1, seconds_per_player=2, seconds_increment=0, workers=2,
        progress=False, options=options,
    )  # fmt: skip
    with ResultStore(db) as store:
        games = store.games(tid)
        assert store.tournament(tid)["status"] == "finished"
    assert len(games) == 3
    reasons = {frozenset((g["white"], g["black"])): (g["reason"], g["winner"]) for g in games}
    assert reasons[frozenset(("random", "sleepy"))][0] == "TIMEOUT"
    assert reasons[frozenset(("random", "dying"))][0] == "CRASH"


def test_a_player_may_have_its_own_clock_which_is_stored(tmp_path):
    fast = PlayerSpec.parse("random:seconds=20,increment=0@fast")
    db = tmp_path / "odds.sqlite"
    tid = run_tournament(
        db, [fast, PlayerSpec("attacker")], 2, seconds_per_player=40, seconds_increment=2,
        workers=1, progress=False,
    )  # fmt: skip
    with ResultStore(db) as store:
        games = store.games(tid)
    assert len(games) == 2
    for g in games:
        side = "white" if g["white"] == "fast" else "black"
        other = "black" if side == "white" else "white"
        assert (g[f"{side}_clock_s"], g[f"{side}_increment_s"]) == (20, 0)
        assert (g[f"{other}_clock_s"], g[f"{other}_increment_s"]) == (40, 2)
        # Its clock got no increment: what it has left is what it had less what it used.
        assert g[f"{side}_seconds_left"] == pytest.approx(20 - g[f"{side}_clock_used_s"])


def test_the_referee_adds_each_sides_own_increment():
    game = ClockedGame({chess.WHITE: 10.0, chess.BLACK: 20.0}, {chess.WHITE: 1.0, chess.BLACK: 3.0})
    game.start()
    game.end_turn()
    game.end_turn()
    assert game.seconds_left_by_color[chess.WHITE] == pytest.approx(11.0, abs=0.05)
    assert game.seconds_left_by_color[chess.BLACK] == pytest.approx(23.0, abs=0.05)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("fogsearch:python=/usr/bin/python3", "fogsearch's own"),
        ("random:python=/no/such/python", "not an executable file"),
        ("random:seconds=0", "seconds per player must be"),
        ("random:increment=-1", "increment must be"),
    ],
)
def test_bad_match_settings_are_refused_before_a_game(text, says):
    with pytest.raises(UsageError, match=says):
        PlayerSpec.parse(text).check()


@pytest.mark.parametrize(
    "pinning, says",
    [
        (["--cores-per-player", "1000"], "needs 2000 cores"),  # more than it may use
        (["--cores-per-game", "1"], "--no-ponder"),  # shared cores with pondering players
    ],
)
def test_cli_refuses_a_bad_pinning_in_one_line(tmp_path, capsys, pinning, says):
    from fogsearch.cli import main as cli_main

    argv = ["tournament", "random", "attacker", *pinning, "--workers", "1"]
    assert cli_main([*argv, "--db", str(tmp_path / "x.sqlite"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
    assert not (tmp_path / "x.sqlite").exists()


def test_a_ponder_call_that_overruns_into_its_turn_is_the_ponderers_time_loss():
    slow = PlayerSpec(str(BOTS / "slow_ponder_bot.py"), label="slow")
    task = GameTask(
        0, slow, PlayerSpec("random"), seed=3, seconds_per_player=2, seconds_increment=0,
        grace_s=0.5,
    )  # fmt: skip
    record = play_game(task)
    assert record.winner == "black" and record.reason == "TIMEOUT"
    assert record.error.startswith("white") and "opponent_move_result" in record.error
    # The mover (RandomBot) played its turn while white pondered, on a clock of its own.
    assert record.black_clock_used_s < 0.5 and record.white_seconds_left <= -0.5


def test_the_hosts_folder_does_not_shadow_a_bots_modules(tmp_path, monkeypatch):
    """A bot module named like one of the tournament's own (``report``) loads from the working
    folder, as with ``python -m``, not from beside the host script."""
    (tmp_path / "report.py").write_text(
        "from reconchess.bots.random_bot import RandomBot\n\n"
        "class ReportBot(RandomBot):\n    pass\n\n\n"
        "def get_player():\n    return ReportBot\n"
    )
    monkeypatch.chdir(tmp_path)
    python = os.path.realpath(sys.executable)
    spec = PlayerSpec.parse(f"report:python={python}@mine")
    record = play_game(GameTask(0, spec, PlayerSpec("random"), seed=3, seconds_per_player=30))
    assert record.crashed is None, record.error
