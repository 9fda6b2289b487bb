"""``fogsearch serve`` and ``fogsearch connect`` as processes, against reconchess's unmodified
``rc-connect``; and ``connect``'s ponder loop in process. Every process has a timeout, so a hang
fails the test instead of hanging it, and each is killed with its children at the end."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import pytest
import requests
from reconchess import load_player, play_remote_game
from reconchess.history import GameHistoryDecoder
from server_checks import listening_url, replay_history

from fogsearch.cli import main as cli_main
from fogsearch.server.client import POLL_SECONDS, play_game, wait_for_turn
from fogsearch.server.handler import RBCHTTPServer
from fogsearch.server.registry import Registry
from fogsearch.server.store import ServerStore

BOTS = Path(__file__).parent / "bots"
PONDERING_BOT = str(BOTS / "pondering_bot.py")
SLOW_BOT = str(BOTS / "slow_attacker_bot.py")


@pytest.fixture
def processes():
    """Starts processes in sessions of their own; kills each session at the end."""
    started: list[subprocess.Popen] = []

    def start(args, **kwargs):
        proc = subprocess.Popen(args, start_new_session=True, text=True, **kwargs)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)


def _serve(start, db, *extra):
    proc = start(
        [sys.executable, "-m", "fogsearch", "serve", "--port", "0", "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    return proc, listening_url(proc)


def _rc_connect(start, url, bot, username, password, log):
    return start(
        [
            sys.executable,
            "-m",
            "reconchess.scripts.rc_connect",
            bot,
            "--server-url",
            url,
            "--username",
            username,
            "--password",
            password,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _finish(proc, timeout, what):
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} did not finish in {timeout} s")


def test_rc_connect_plays_fogsearch_connect_through_fogsearch_serve(processes, tmp_path):
    db, ponder_log = tmp_path / "server.sqlite", tmp_path / "ponder.jsonl"
    # No increment: every second of a game is on a clock, so two games end within 2 x 2 x 20 s
    # of play (a 30 s + 1 s pair of near-instant bots can play on for minutes).
    serve, url = _serve(
        processes,
        db,
        *("--pair", "alice", "bob", "--games", "2", "--seconds", "20", "--increment", "0"),
    )
    with open(tmp_path / "rc_connect.log", "w") as rc_log:
        _rc_connect(processes, url, "reconchess.bots.attacker_bot", "alice", "pa", rc_log)
    connect = processes(
        [sys.executable, "-m", "fogsearch", "connect", PONDERING_BOT, "--server-url", url]
        + ["--username", "bob", "--password", "pb", "--games", "2", "--poll-seconds", "1"],
        env={**os.environ, "PONDER_LOG": str(ponder_log)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert _finish(serve, 240, "fogsearch serve --pair") == 0, serve.stdout.read()
    assert _finish(connect, 60, "fogsearch connect --games 2") == 0, connect.stdout.read()
    served = serve.stdout.read()
    assert "match 1: all 2 games played" in served
    rows = (
        sqlite3.connect(db)
        .execute(
            "SELECT white, black, status, winner, win_reason, history_json, match_id "
            "FROM games ORDER BY id"
        )
        .fetchall()
    )
    assert [r[:3] for r in rows] == [("alice", "bob", "finished"), ("bob", "alice", "finished")]
    for white, black, _, winner, reason, history_json, match_id in rows:
        history = json.loads(history_json, cls=GameHistoryDecoder)
        replay_history(history, white, black)
        winner_color = history.get_winner_color()
        assert winner == {True: "white", False: "black", None: "draw"}[winner_color]
        assert reason == history.get_win_reason().name and match_id == 1
    assert "Authentication Error" not in (tmp_path / "rc_connect.log").read_text()
    # our client pondered in both games, and only while rc-connect's bot had the move
    records = [json.loads(line) for line in ponder_log.read_text().splitlines()]
    assert [r["color"] for r in records] == [chess.BLACK, chess.WHITE]
    for record in records:
        assert record["calls_on_my_turn"] == 0
        assert sum(record["waits"]) > 0


def test_a_wrong_password_is_refused_by_the_server_for_both_clients(processes, tmp_path):
    serve, url = _serve(processes, tmp_path / "server.sqlite")
    assert requests.get(f"{url}/api/invitations/", auth=("bob", "pb"), timeout=10).ok
    connect = processes(
        [sys.executable, "-m", "fogsearch", "connect", "random", "--server-url", url]
        + ["--username", "bob", "--password", "wrong"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert _finish(connect, 60, "fogsearch connect") == 2
    err = connect.stderr.read().strip()
    assert len(err.splitlines()) == 1 and "refused bob" in err and "wrong password" in err
    with open(tmp_path / "rc.log", "w") as log:
        rc = _rc_connect(processes, url, "reconchess.bots.random_bot", "bob", "wrong", log)
    _finish(rc, 60, "rc-connect with a wrong password")
    assert "Authentication Error!" in (tmp_path / "rc.log").read_text()
    assert serve.poll() is None  # the server goes on serving


def test_serve_and_connect_answer_user_errors_with_exit_2(tmp_path, capsys):
    db = str(tmp_path / "s.sqlite")
    for argv in (
        ["serve", "--db", db, "--pair", "alice", "alice", "--games", "2"],
        ["serve", "--db", db, "--pair", "alice", "bob"],
        ["serve", "--db", db, "--pair", "alice", "bob", "--games", "0"],
        ["serve", "--db", db, "--seconds", "0.5"],
        ["serve", "--db", str(tmp_path / "no" / "s.sqlite")],
        ["connect", "no_such_bot_kind", "--username", "u", "--password", "p"],
        ["connect", "random", "--username", "u", "--password", "p", "--games", "-1"],
    ):
        assert cli_main(argv) == 2, argv
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert cli_main(["serve", "--db", db, "--port", port]) == 2
        assert "cannot listen" in capsys.readouterr().err


PONDER_GAME_SEED = 3


def _ponder_game(tmp_path, monkeypatch, ponder):
    """One game in process: the pondering bot through our client, against reconchess's
    ``play_remote_game`` with a bot that takes 0.3 s a move; returns its ponder record."""
    log = tmp_path / f"ponder-{ponder}.jsonl"
    monkeypatch.setenv("PONDER_LOG", str(log))
    store = ServerStore(tmp_path / f"s-{ponder}.sqlite")
    registry = Registry(store)
    httpd = RBCHTTPServer(("127.0.0.1", 0), registry)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    _, pondering_bot = load_player(PONDERING_BOT)
    _, slow_bot = load_player(SLOW_BOT)
    # Both bots draw from `random`, one turn at a time: a seed fixes the game and so its length
    # (unseeded, an AttackerBot that missed the king once kept a game going for over ten minutes).
    random.seed(PONDER_GAME_SEED)
    try:
        game = registry.create_game("slow", "ponder", 60.0, 1.0, invite=())
        slow = threading.Thread(
            target=play_remote_game, args=(httpd.url, game.id, ("slow", "x"), slow_bot())
        )
        slow.start()
        result = play_game(httpd.url, game.id, ("ponder", "y"), pondering_bot(), ponder=ponder)
        slow.join(timeout=60)
        assert not slow.is_alive()
    finally:
        httpd.shutdown()
        httpd.server_close()
        store.close()
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    return result, record


def test_connect_ponders_in_every_wait_for_the_opponent_and_never_on_its_turn(
    tmp_path, monkeypatch
):
    outcome, record = _ponder_game(tmp_path, monkeypatch, ponder=True)
    assert record["color"] == chess.BLACK and record["calls_on_my_turn"] == 0
    waits = record["waits"]
    history = outcome.history
    replay_history(history, "slow", "ponder")
    assert record["winner_color"] == outcome.winner_color
    if history.num_turns(chess.BLACK) == history.num_turns(chess.WHITE):
        assert waits[-1] == 0  # our move ended the game: there was nothing left to wait for
        waits = waits[:-1]
    # one wait per White turn (White moves first), each at least the 0.3 s White takes
    assert len(waits) == history.num_turns(chess.WHITE)
    assert all(calls >= 1 for calls in waits), waits
    _, quiet = _ponder_game(tmp_path, monkeypatch, ponder=False)
    assert sum(quiet["waits"]) == 0 and quiet["calls_on_my_turn"] == 0


class _FakeGame:
    """A game whose opponent moves for ``seconds``; then it is our turn."""

    def __init__(self, seconds):
        self.until = time.monotonic() + seconds

    def status(self):
        return {"is_over": False, "is_my_turn": time.monotonic() >= self.until}


class _Ponderer:
    def __init__(self, work_seconds):
        self.work_seconds, self.calls = work_seconds, 0

    def while_we_wait(self):
        self.calls += 1
        if self.work_seconds:
            time.sleep(self.work_seconds)


def test_the_ponder_loop_calls_a_working_bot_back_to_back_and_an_idle_one_once_a_poll():
    working, idle = _Ponderer(0.005), _Ponderer(0.0)
    assert wait_for_turn(_FakeGame(0.5), working, ponder=True) is False
    assert wait_for_turn(_FakeGame(0.5), idle, ponder=True) is False
    assert working.calls >= 20  # about 100 slices of 5 ms in 0.5 s
    assert 1 <= idle.calls <= 0.5 / POLL_SECONDS + 2  # one call a poll, not a spinning core
    off = _Ponderer(0.0)
    assert wait_for_turn(_FakeGame(0.2), off, ponder=False) is False and off.calls == 0
