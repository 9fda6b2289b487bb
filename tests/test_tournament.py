"""The tournament client: scheduling, playing, storing, rating and the CLI."""

import json
import logging
import math
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.arguments import UsageError
from fogsearch.cli import main as cli_main
from fogsearch.tournament import (
    GameRecord,
    GameTask,
    LostGame,
    PlayerSpec,
    ResultStore,
    colour_split,
    gauntlet,
    play_game,
    round_robin,
    run_tournament,
    stalled_notes,
    standings,
    summary_table,
)
from fogsearch.tournament.rating import fit_elo, score_to_elo, wilson_interval
from fogsearch.tournament.report import stopped_moving
from fogsearch.tournament.runner import run_local, run_ray
from fogsearch.tournament.store import APPLICATION_ID, SCHEMA_VERSION

CRASHING_BOT = str(Path(__file__).parent / "bots" / "crashing_bot.py")
DYING_BOT = str(Path(__file__).parent / "bots" / "dying_bot.py")


def test_player_spec_parses_kind_settings_and_label():
    spec = PlayerSpec.parse("fogsearch:depth=2,search_mode=exact,threads=1@fog2")
    assert spec.kind == "fogsearch"
    assert spec.settings == {"depth": 2, "search_mode": "exact", "threads": 1}
    assert spec.name == "fog2"
    assert PlayerSpec.parse("random").name == "random"
    assert PlayerSpec.parse("fogsearch:depth=1").name == "fogsearch:depth=1"
    with pytest.raises(ValueError, match="key=value"):
        PlayerSpec.parse("fogsearch:depth")


def test_round_robin_alternates_colours_for_every_pair():
    a, b, c = PlayerSpec("random"), PlayerSpec("attacker"), PlayerSpec("trout")
    games = round_robin([a, b, c], games_per_pairing=4)
    assert len(games) == 3 * 4
    for x, y in [(a, b), (a, c), (b, c)]:
        as_white = sum(1 for w, bl in games if (w, bl) == (x, y))
        as_black = sum(1 for w, bl in games if (w, bl) == (y, x))
        assert as_white == as_black == 2


def test_gauntlet_pits_the_hero_against_each_opponent():
    hero, o1, o2 = PlayerSpec("attacker"), PlayerSpec("random"), PlayerSpec("trout")
    games = gauntlet(hero, [o1, o2], games_per_pairing=3)
    assert len(games) == 6
    assert all(hero in pair for pair in games)
    with pytest.raises(ValueError, match="unique"):
        gauntlet(hero, [hero], 2)
    with pytest.raises(ValueError, match=r"games per pairing must be in 1\.\.10,000"):
        round_robin([hero, o1], 0)


def test_a_crash_is_a_loss_for_the_side_that_crashed():
    crasher = PlayerSpec(CRASHING_BOT, label="crasher")
    record = play_game(GameTask(0, PlayerSpec("random"), crasher, seed=3, seconds_per_player=60))
    assert record.crashed == "black"
    assert record.winner == "white" and record.reason == "CRASH"
    assert "deliberate crash on move 3" in record.error
    history = json.loads(record.history_json, cls=GameHistoryDecoder)
    assert isinstance(history, GameHistory)


def test_a_killed_game_process_loses_only_that_game(caplog):
    """Players in the game's process (isolated=False): the bot's death kills the game's
    process, as the kernel kills a referee that runs out of memory."""
    dying = PlayerSpec(DYING_BOT, label="dying")
    tasks = [
        GameTask(0, PlayerSpec("random"), dying, seed=3, seconds_per_player=60, isolated=False),
        GameTask(1, PlayerSpec("random"), PlayerSpec("attacker"), seed=4, seconds_per_player=60),
        GameTask(2, dying, PlayerSpec("random"), seed=5, seconds_per_player=60, isolated=False),
    ]
    with caplog.at_level(logging.WARNING, logger="fogsearch.tournament.runner"):
        records = list(run_local(tasks, workers=2))
    assert [r.task_index for r in records if isinstance(r, GameRecord)] == [1]
    lost = sorted((r for r in records if isinstance(r, LostGame)), key=lambda r: r.task_index)
    assert [(r.task_index, r.white, r.black) for r in lost] == [
        (0, "random", "dying"),
        (2, "dying", "random"),
    ]
    assert all("exit code -9" in r.why for r in lost)
    logged = [r.getMessage() for r in caplog.records if "was lost" in r.getMessage()]
    assert len(logged) == 2


@pytest.mark.parametrize("bad_side", ["white", "black"])
def test_a_bot_with_bad_settings_loses_before_the_game_starts(bad_side):
    bad = PlayerSpec.parse("fogsearch:tie_margin_cp=-1")
    good = PlayerSpec("random")
    white, black = (bad, good) if bad_side == "white" else (good, bad)
    record = play_game(GameTask(0, white, black, seed=3, seconds_per_player=60))
    assert record.crashed == bad_side and record.reason == "CRASH"
    assert "tie_margin_cp must be a non-negative int" in record.error
    assert record.turns == 0
    assert isinstance(json.loads(record.history_json, cls=GameHistoryDecoder), GameHistory)


def test_tiny_tournament_is_stored_and_summarised(tmp_path):
    db = tmp_path / "t.sqlite"
    players = [
        PlayerSpec("random"),
        PlayerSpec("attacker"),
        PlayerSpec(CRASHING_BOT, label="crasher"),
    ]
    tid = run_tournament(
        db, players, games_per_pairing=2, seconds_per_player=60, seed=5, workers=2, progress=False
    )
    with ResultStore(db) as store:
        games = store.games(tid)
        info = store.tournament(tid)
        first_history = store.history_json(games[0]["id"])
    assert len(games) == 6
    assert info["format"] == "round_robin" and info["config"]["games_per_pairing"] == 2
    assert {g["winner"] for g in games} <= {"white", "black", "draw"}
    assert all(g["duration_s"] >= 0 and g["turns"] > 0 for g in games)
    crash_games = [g for g in games if "crasher" in (g["white"], g["black"])]
    assert len(crash_games) == 4
    history = json.loads(first_history, cls=GameHistoryDecoder)
    assert history.num_turns() == games[0]["turns"]

    ranked, pairs = standings(games)
    by_name = {s.name: s for s in ranked}
    assert sum(s.games for s in ranked) == 2 * len(games)
    assert sum(s.wins for s in ranked) == sum(s.losses for s in ranked)
    crasher = by_name["crasher"]
    assert crasher.losses == crasher.crashes  # every game it lost, it lost by crashing
    assert ranked[-1].name == "crasher" or crasher.crashes < 4
    table = summary_table(ranked, pairs)
    assert "crasher" in table and "Elo" in table and "clock s" in table
    # The clock each side used: what it started with, plus an increment per turn, less what is left.
    for g in games:
        history = json.loads(store_history(db, g["id"]), cls=GameHistoryDecoder)
        for colour, side in (("white", True), ("black", False)):
            used = 60 + 5 * history.num_turns(side) - g[f"{colour}_seconds_left"]
            assert g[f"{colour}_clock_used_s"] == pytest.approx(used)
            assert 0 <= g[f"{colour}_clock_used_s"] < 60 + 5 * history.num_turns(side)
    assert sorted(by_name["random"].clock_used_s) == sorted(
        g[f"{c}_clock_used_s"] for g in games for c in ("white", "black") if g[c] == "random"
    )
    with ResultStore(db) as store:
        notes = stalled_notes(games, store.history_json)  # reads the stored GameHistory JSON
    names = {"random", "attacker", "crasher"}
    assert all(note.split()[1] in names for note in notes), notes


def store_history(db, game_id: int) -> str:
    with ResultStore(db) as store:
        return store.history_json(game_id)


def _history(white: list, black: list) -> str:
    """The part of a reconchess GameHistory's JSON that stopped_moving reads."""
    move = {"type": "Move", "value": "e2e4"}
    as_json = [[move if m else None for m in requests] for requests in (white, black)]
    return json.dumps({"requested_moves": {"true": as_json[0], "false": as_json[1]}})


def test_a_player_that_stops_moving_is_noted_with_the_opponents_record_apart():
    live, dead, late = [1] * 8, [1, 1, 0, 0, 1, 0, 0, 0], [1] * 6 + [0, 0]
    histories = {
        1: _history(live, dead),  # black stopped (5 of its last 6 turns without a move)
        2: _history(dead, live),
        3: _history(live, live),
        4: _history(live, late),  # two passes at the end: not enough to say
    }
    games = [
        {"id": 1, "white": "hero", "black": "trout", "winner": "white"},
        {"id": 2, "white": "trout", "black": "hero", "winner": "draw"},
        {"id": 3, "white": "hero", "black": "trout", "winner": "black"},
        {"id": 4, "white": "hero", "black": "trout", "winner": "white"},
    ]
    assert stopped_moving(json.loads(histories[1]), False)
    assert not stopped_moving(json.loads(histories[1]), True)
    assert not stopped_moving(json.loads(histories[4]), False)
    assert not stopped_moving(json.loads(_history(live, [1, 0, 1, 1, 1, 0, 0, 0])), False)
    notes = stalled_notes(games, histories.__getitem__)
    assert len(notes) == 1
    assert stalled_notes(games[:1], lambda game_id: "") == []  # no history stored: skipped
    assert notes[0].startswith("NOTE: trout stopped moving")
    assert (
        "in 2 of 4 games against hero, who scored 1-1-0 in them and 1-0-1 in the other 2"
        in (notes[0])
    )


def test_each_pairing_is_split_by_colour_from_each_side():
    games = [
        {"white": "hero", "black": "trout", "winner": "white"},
        {"white": "trout", "black": "hero", "winner": "white"},
        {"white": "hero", "black": "trout", "winner": "draw"},
        {"white": "trout", "black": "hero", "winner": "black"},
        {"white": "trout", "black": "hero", "winner": "black"},
        {"white": "hero", "black": "random", "winner": "white"},
    ]
    assert colour_split(games) == [
        "hero against trout: as White 1-1-0, as Black 2-0-1",
        "trout against hero: as White 1-0-2, as Black 0-1-1",
        "hero against random: as White 1-0-0, as Black 0-0-0",
        "random against hero: as White 0-0-0, as Black 0-0-1",
    ]


def test_ray_backend_plays_the_same_games_as_the_local_one(tmp_path):
    """The optional Ray backend (a local Ray instance here) runs the same seeded games as the
    process pool: same pairings, colours, winners and lengths."""
    ray = pytest.importorskip("ray")
    players = [PlayerSpec("random"), PlayerSpec("attacker")]
    outcomes = {}
    try:
        for backend in ("local", "ray"):
            db = tmp_path / f"{backend}.sqlite"
            tid = run_tournament(
                db,
                players,
                games_per_pairing=4,
                seconds_per_player=60,
                seed=11,
                workers=2,
                backend=backend,
                progress=False,
            )
            with ResultStore(db) as store:
                games = store.games(tid)
            outcomes[backend] = sorted(
                (g["white"], g["black"], g["winner"], g["turns"]) for g in games
            )
    finally:
        ray.shutdown()
    assert len(outcomes["ray"]) == 4
    assert outcomes["ray"] == outcomes["local"]


def test_a_killed_ray_worker_loses_only_that_game(caplog):
    ray = pytest.importorskip("ray")
    dying = PlayerSpec(DYING_BOT, label="dying")
    tasks = [  # the dying bot in the game's own process (isolated=False) kills the Ray worker
        GameTask(0, PlayerSpec("random"), dying, seed=3, seconds_per_player=60, isolated=False),
        GameTask(1, PlayerSpec("random"), PlayerSpec("attacker"), seed=4, seconds_per_player=60),
    ]
    try:
        with caplog.at_level(logging.WARNING, logger="fogsearch.tournament.runner"):
            records = list(run_ray(tasks))
    finally:
        ray.shutdown()
    assert [r.task_index for r in records if isinstance(r, GameRecord)] == [1]
    assert [r.task_index for r in records if isinstance(r, LostGame)] == [0]
    assert any("game 0" in r.getMessage() and "was lost" in r.getMessage() for r in caplog.records)


def test_reusing_a_name_for_other_settings_is_refused(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.player_id(PlayerSpec("fogsearch", {"depth": 1}, label="fog"))
        with pytest.raises(ValueError, match="already stored"):
            store.player_id(PlayerSpec("fogsearch", {"depth": 2}, label="fog"))


def test_elo_fit_recovers_a_known_rating_gap():
    # A scores 75% against B: the logistic Elo gap is 400*log10(3) = 190.8.
    games = [{"white": "A", "black": "B", "winner": "white"}] * 300 + [
        {"white": "B", "black": "A", "winner": "white"}
    ] * 100
    ratings, sds = fit_elo(["A", "B"], games)
    gap = ratings[0] - ratings[1]
    assert abs(gap - 400 * math.log10(3)) < 2.0 * (sds[0] + sds[1])
    assert abs(gap - 190.8) < 15
    # 400 games at 75 %: the gap's sd is 1/sqrt(400 * 0.75 * 0.25) natural units, 20.1 Elo, and
    # each of two ratings about their mean carries half of it.
    assert ratings[0] == pytest.approx(-ratings[1])
    assert sds[0] == pytest.approx(sds[1]) == pytest.approx(20.1 / 2, rel=0.05)


def test_a_player_interval_narrows_with_games_in_a_field_of_three():
    # (white, black, winner) of one round: A scores 1.5 of 2 against B and C, B against C.
    one_round = ("ABwhite", "BAdraw", "BCwhite", "CAblack", "CBdraw", "ACdraw")

    def field(repeats: int) -> list[dict]:
        return [{"white": g[0], "black": g[1], "winner": g[2:]} for g in one_round] * repeats

    _, few = fit_elo(["A", "B", "C"], field(10))
    _, many = fit_elo(["A", "B", "C"], field(40))
    assert np.all(few < 150)  # the common offset's +-1400 Elo is not in them
    assert many == pytest.approx(few / 2, rel=0.05)  # four times the games: half the width


def test_wilson_interval_and_elo_curve():
    low, high = wilson_interval(1.0, 100)
    assert 0.95 < low < 1.0 and high == 1.0
    assert score_to_elo(0.5) == 0.0
    assert math.isinf(score_to_elo(1.0))
    assert score_to_elo(low) > 500  # 100/100 wins: at least ~+500 Elo with 95% confidence


def test_cli_tournament_prints_standings(tmp_path, capsys):
    db = tmp_path / "cli.sqlite"
    plot = tmp_path / "standings.png"
    code = cli_main(
        [
            "tournament",
            "random",
            "attacker",
            "--games",
            "2",
            "--seconds",
            "60",
            "--workers",
            "1",
            "--db",
            str(db),
            "--plot",
            str(plot),
            "--no-progress",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"tournament 1 in {db}: 2 of 2 games;")
    assert "STOPPED" not in out
    assert "random" in out and "attacker" in out and "Elo" in out
    assert "random against attacker: as White " in out
    assert plot.exists() and plot.stat().st_size > 1000


FAILING_SEARCH_BOT = str(Path(__file__).parent / "bots" / "failing_search_bot.py")
SLEEPY_BOT = str(Path(__file__).parent / "bots" / "sleepy_bot.py")


def test_turns_played_without_the_search_are_stored_and_flagged(tmp_path):
    """A bot whose search fails still finishes its games on fallback moves; the count of such
    turns is stored per game and the summary warns that its results are not its settings'."""
    db = tmp_path / "fallbacks.sqlite"
    players = [PlayerSpec(FAILING_SEARCH_BOT, label="failing"), PlayerSpec("random")]
    tid = run_tournament(db, players, games_per_pairing=2, seconds_per_player=60, progress=False)
    with ResultStore(db) as store:
        games = store.games(tid)
    assert len(games) == 2
    for g in games:
        failing = "white" if g["white"] == "failing" else "black"
        other = "black" if failing == "white" else "white"
        own_turns = (g["turns"] + (failing == "white")) // 2
        # Every move it chose was a fallback; a game can end before its last turn's move.
        assert own_turns - 1 <= g[f"{failing}_fallbacks"] <= own_turns
        assert g[f"{failing}_fallbacks"] >= 1 and g[f"{other}_fallbacks"] == 0
    ranked, pairs = standings(games)
    by_name = {s.name: s for s in ranked}
    assert by_name["failing"].fallbacks == sum(
        g["white_fallbacks"] + g["black_fallbacks"] for g in games
    )
    assert by_name["random"].fallbacks == 0
    table = summary_table(ranked, pairs)
    assert "WARNING: failing decided" in table and "WARNING: random" not in table


def test_a_working_fogsearch_bot_records_no_fallbacks():
    quick = PlayerSpec("fogsearch", {"min_turn_seconds": 0.05, "max_turn_seconds": 0.2})
    task = GameTask(0, quick, PlayerSpec("random"), seed=3, seconds_per_player=60)
    record = play_game(task)
    assert record.crashed is None and record.turns > 0
    assert record.white_fallbacks == 0 and record.black_fallbacks == 0


FIRST_SCHEMA = """
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
    settings_json TEXT NOT NULL);
CREATE TABLE tournaments (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, format TEXT NOT NULL,
    config_json TEXT NOT NULL, versions_json TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL REFERENCES
    tournaments(id), task_index INTEGER NOT NULL, white_id INTEGER NOT NULL REFERENCES players(id),
    black_id INTEGER NOT NULL REFERENCES players(id), seed INTEGER NOT NULL, winner TEXT NOT NULL
    CHECK (winner IN ('white', 'black', 'draw')), reason TEXT NOT NULL, crashed TEXT CHECK
    (crashed IS NULL OR crashed IN ('white', 'black')), error TEXT, duration_s REAL NOT NULL,
    white_seconds_left REAL NOT NULL, black_seconds_left REAL NOT NULL, turns INTEGER NOT NULL,
    finished_at TEXT NOT NULL, history_json TEXT NOT NULL, UNIQUE (tournament_id, task_index));
INSERT INTO players (name, kind, settings_json) VALUES ('a', 'random', '{}'), ('b', 'random', '{}');
INSERT INTO tournaments (started_at, format, config_json, versions_json)
    VALUES ('t', 'round_robin', '{}', '{}');
INSERT INTO games (tournament_id, task_index, white_id, black_id, seed, winner, reason,
    duration_s, white_seconds_left, black_seconds_left, turns, finished_at, history_json)
    VALUES (1, 0, 1, 2, 0, 'white', 'KING_CAPTURE', 1.0, 50.0, 50.0, 9, 't', '{}');
"""
"""fogsearch's first results schema (before the version stamp, the fallback columns and the
lost_games table), with one game."""


def _pragmas(db) -> tuple[int, int]:
    conn = sqlite3.connect(db)
    try:
        return tuple(conn.execute(f"PRAGMA {p}").fetchone()[0] for p in PRAGMAS)
    finally:
        conn.close()


PRAGMAS = ("application_id", "user_version")


def test_a_new_database_is_stamped_as_fogsearchs_with_its_schema_version(tmp_path):
    db = tmp_path / "new.sqlite"
    with ResultStore(db):
        pass
    assert _pragmas(db) == (APPLICATION_ID, SCHEMA_VERSION)
    with ResultStore(db) as store:  # reopened as it is
        assert store.latest_tournament_id() is None


def test_a_results_database_of_the_first_schema_is_upgraded(tmp_path):
    db = tmp_path / "old.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript(FIRST_SCHEMA)
    conn.close()
    with ResultStore(db) as store:
        (old,) = store.games(1)
        assert store.tournament(1)["status"] is None  # how it ended was not recorded then
        record = play_game(GameTask(1, PlayerSpec("random"), PlayerSpec("random"), 4, 60))
        store.add_game(1, record, 1, 2)
        games = store.games(1)
    assert old["winner"] == "white" and old["white_fallbacks"] == old["black_fallbacks"] == 0
    assert old["white_clock_used_s"] is None  # not recorded then
    assert len(games) == 2 and games[1]["white_clock_used_s"] is not None
    assert _pragmas(db) == (APPLICATION_ID, SCHEMA_VERSION)


@pytest.mark.parametrize(
    ("script", "says"),
    [
        (
            "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, score REAL);"
            "INSERT INTO games (title, score) VALUES ('chess night', 3.5);",
            "is not fogsearch's (it holds the tables games)",
        ),
        (
            FIRST_SCHEMA + "CREATE TABLE invoices (id INTEGER PRIMARY KEY);",
            "is not fogsearch's (it holds the tables games, invoices, players, tournaments)",
        ),
        (
            "CREATE TABLE players (id INTEGER PRIMARY KEY, handle TEXT);"
            "CREATE TABLE tournaments (id INTEGER PRIMARY KEY);"
            "CREATE TABLE games (id INTEGER PRIMARY KEY);",
            "its players table has the columns handle, id",
        ),
        ("PRAGMA application_id = 1234; CREATE TABLE t (x);", "belongs to another application"),
        (
            f"PRAGMA application_id = {int.from_bytes(b'FOGS', 'big')}; PRAGMA user_version = 99;",
            "written by a newer fogsearch (schema 99; this one reads up to",
        ),
    ],
)
def test_a_database_that_is_not_fogsearchs_is_refused_unchanged(tmp_path, capsys, script, says):
    db = tmp_path / "theirs.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript(script)
    conn.close()
    before = db.read_bytes()
    with pytest.raises(UsageError, match=re.escape(says)):
        ResultStore(db)
    argv = ["tournament", "random", "attacker", "--db", str(db), "--seconds", "60"]
    assert cli_main([*argv, "--workers", "1", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and says in err and str(db) in err and err.count("\n") == 1
    assert db.read_bytes() == before


def test_a_name_stored_with_other_settings_registers_none_of_the_players(tmp_path):
    db = tmp_path / "names.sqlite"
    with ResultStore(db) as store:
        store.player_id(PlayerSpec("fogsearch", {"depth": 1}, label="fog"))
        with pytest.raises(UsageError, match="already stored"):
            store.register_players(
                [PlayerSpec("random"), PlayerSpec("fogsearch", {"depth": 2}, label="fog")]
            )
        names = [row[0] for row in store.conn.execute("SELECT name FROM players")]
    assert names == ["fog"]


def test_stopping_early_terminates_the_games_still_running():
    import multiprocessing
    import threading

    tasks = [
        GameTask(0, PlayerSpec("random"), PlayerSpec("attacker"), seed=4, seconds_per_player=60),
        GameTask(1, PlayerSpec(SLEEPY_BOT), PlayerSpec("random"), seed=5, seconds_per_player=60),
    ]
    games = run_local(tasks, workers=2)
    assert next(games).task_index == 0
    sleeping = [p for p in multiprocessing.active_children() if p.is_alive()]
    assert sleeping, "the sleepy game should still be running"
    closer = threading.Thread(target=games.close)
    closer.start()
    closer.join(60)  # the sleepy game alone would take an hour
    assert not closer.is_alive()
    assert not any(p.is_alive() for p in sleeping)


def _game_processes_of(pid: int) -> list[int]:
    """Linux: the spawned multiprocessing children of ``pid`` (not its resource tracker)."""
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmdline:
            children.append(int(entry.name))
    return children


def _parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError):
        return None


def _descendants_of(root: int) -> list[int]:
    """Linux: every live process below ``root`` (games, players' hosts, their engines)."""
    parents = {
        int(e.name): _parent_of(int(e.name)) for e in Path("/proc").iterdir() if e.name.isdigit()
    }
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        found += children
        frontier += children
    return found


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_sigterm_stops_a_cli_tournament_and_its_game_processes(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "stopped.sqlite"
    command = [sys.executable, "-m", "fogsearch", "tournament", SLEEPY_BOT, "random"]
    command += ["--games", "2", "--workers", "2", "--seconds", "60", "--db", str(db)]
    proc = subprocess.Popen([*command, "--no-progress"], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        games = []
        while len(games) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            games = _game_processes_of(proc.pid)
        assert len(games) == 2, "both games should be running"
        time.sleep(0.5)  # the players' hosts are starting: a stop then once left them orphaned
        family = _descendants_of(proc.pid)
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            alive = {pid: _cmdline(pid) for pid in family if _alive(pid)}
            pytest.fail(f"the tournament did not stop in 60 s; still running: {alive}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1].startswith("stopped by SIGTERM: the running games were")
    deadline = time.monotonic() + 10  # the kernel's parent-death kills are asynchronous
    while any(map(_alive, family)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = {pid: _cmdline(pid) for pid in family if _alive(pid)}
    assert not left, f"processes outlived it: {left}"
    with ResultStore(db) as store:
        info = store.tournament(store.latest_tournament_id())
    assert info["status"] == "stopped" and info["stop_reason"] == "SIGTERM"
    assert info["ended_at"] and info["games_planned"] == 2


def test_an_interrupted_tournament_is_marked_stopped_and_summarised(tmp_path, capsys, monkeypatch):
    """Ctrl-C after the first stored game: the tournament is marked stopped in the database,
    and the summary says so above the standings of the games finished before the stop."""
    from fogsearch.tournament import store as store_module

    add_game = store_module.ResultStore.add_game

    def add_then_interrupt(self, *args):
        add_game(self, *args)
        raise KeyboardInterrupt

    monkeypatch.setattr(store_module.ResultStore, "add_game", add_then_interrupt)
    db = tmp_path / "interrupted.sqlite"
    argv = ["tournament", "random", "attacker", "--games", "3", "--seconds", "60"]
    code = cli_main([*argv, "--workers", "1", "--db", str(db), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 130
    assert "1 of 3 games" in out
    assert "STOPPED by SIGINT (Ctrl-C) after 1 of 3 games" in out
    assert "random against attacker" in out  # the standings of the one game
    assert "marked stopped" in err
    with ResultStore(db) as store:
        info = store.tournament(store.latest_tournament_id())
        assert len(store.games(info["id"])) == 1
    assert info["status"] == "stopped" and info["stop_reason"] == "SIGINT (Ctrl-C)"


def test_games_whose_process_died_are_stored_as_lost_and_reported(tmp_path, capsys):
    db = tmp_path / "lost.sqlite"
    code = cli_main(
        [
            "tournament",
            f"{DYING_BOT}@dying",
            "random",
            "attacker",
            "--games",
            "2",
            "--seconds",
            "60",
            "--workers",
            "2",
            "--db",
            str(db),
            "--no-progress",
            "--in-process",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    with ResultStore(db) as store:
        tid = store.latest_tournament_id()
        games = store.games(tid)
        lost = store.lost_games(tid)
    assert len(games) == 2 and all("dying" not in (g["white"], g["black"]) for g in games)
    assert len(lost) == 4 and all("dying" in (g["white"], g["black"]) for g in lost)
    assert all("exit code -9" in g["why"] for g in lost)
    assert "4 games are not in the table: their process died before reporting" in out


def test_each_game_seeds_a_fogsearch_bot_unless_its_spec_names_a_seed():
    assert PlayerSpec("fogsearch").build(7).config.search.seed == 7
    assert PlayerSpec("fogsearch").build(-1).config.search.seed == 2**64 - 1
    assert PlayerSpec("fogsearch", {"seed": 3}).build(7).config.search.seed == 3
    assert PlayerSpec("fogsearch").build().config.search.seed == 0
