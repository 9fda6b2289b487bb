"""The RBC server in process (loopback, a free port): reconchess's own ``RemoteGame`` plays
through it, its API's refusals have the right status codes, the referee ends games on time, and
the SQLite file keeps users, games and matches across a restart."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import chess
import pytest
import requests
from reconchess import WinReason, play_remote_game
from reconchess.bots.attacker_bot import AttackerBot
from reconchess.bots.random_bot import RandomBot
from reconchess.history import GameHistoryDecoder
from server_checks import replay_history

from fogsearch.arguments import UsageError
from fogsearch.server.handler import RBCHTTPServer
from fogsearch.server.pairing import PairTerms, run_pairing
from fogsearch.server.registry import Registry
from fogsearch.server.store import ServerStore


class Server:
    """A server on a free loopback port with its registry and store."""

    def __init__(self, path, **registry_options):
        self.store = ServerStore(path)
        self.registry = Registry(self.store, **registry_options)
        self.httpd = RBCHTTPServer(("127.0.0.1", 0), self.registry)
        self.url = self.httpd.url
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def call(self, method, path, auth=None, payload=None):
        data = None if payload is None else json.dumps(payload)
        return requests.request(method, f"{self.url}/api/{path}", auth=auth, data=data, timeout=10)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.store.close()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "server.sqlite", start_grace=60.0)
    yield srv
    srv.close()


ALICE, BOB = ("alice", "pa"), ("bob", "pb")


def _login(server, *users):
    for user in users:
        assert server.call("GET", "invitations/", auth=user).status_code == 200


def _move(server, user, game_id, action, payload=None):
    return server.call("POST", f"games/{game_id}/{action}", auth=user, payload=payload or {})


def test_reconchess_remote_games_play_through_the_server_and_are_stored(server):
    _login(server, ALICE, BOB)
    game = server.registry.create_game("alice", "bob", 60.0, 1.0, invite=("alice", "bob"))
    results = {}

    def play(user, bot):
        results[user[0]] = play_remote_game(server.url, game.id, user, bot)

    threads = [
        threading.Thread(target=play, args=(ALICE, AttackerBot())),
        threading.Thread(target=play, args=(BOB, RandomBot())),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a RemoteGame did not finish"
    (w_winner, w_reason, w_history), (b_winner, b_reason, b_history) = (
        results["alice"],
        results["bob"],
    )
    assert (w_winner, w_reason) == (b_winner, b_reason)
    assert w_reason in (WinReason.KING_CAPTURE, WinReason.MOVE_LIMIT, WinReason.TIMEOUT)
    assert w_history == b_history
    replay_history(w_history, "alice", "bob")
    row = (
        sqlite3.connect(server.store.path)
        .execute("SELECT white, black, status, winner, win_reason, history_json, turns FROM games")
        .fetchone()
    )
    assert row[:3] == ("alice", "bob", "finished")
    assert row[3] == {True: "white", False: "black", None: "draw"}[w_winner]
    assert row[4] == w_reason.name
    stored = json.loads(row[5], cls=GameHistoryDecoder)
    assert stored == w_history and row[6] == stored.num_turns()


def test_a_user_is_registered_on_first_login_and_a_wrong_password_is_401(server, tmp_path):
    assert server.call("GET", "version").json() == {"version": "1.6.9"}
    assert server.call("GET", "invitations/", auth=ALICE).json() == {"invitations": []}
    wrong = server.call("GET", "invitations/", auth=("alice", "not-pa"))
    assert wrong.status_code == 401 and "wrong password" in wrong.json()["error"]
    assert wrong.headers["WWW-Authenticate"].startswith("Basic")
    assert server.call("GET", "users/").status_code == 401  # no credentials at all
    assert server.call("GET", "users/", auth=("bad name!", "x")).status_code == 401
    assert server.call("GET", "users/", auth=ALICE).json() == {"usernames": ["alice"]}
    # rc-register's route: a taken name is 409
    assert server.call("POST", "users/", payload={"username": "carol", "password": "pc"}).ok
    taken = server.call("POST", "users/", payload={"username": "carol", "password": "x"})
    assert taken.status_code == 409
    server.close()
    again = Server(tmp_path / "server.sqlite")  # the password sticks across a restart
    try:
        assert again.call("GET", "invitations/", auth=ALICE).status_code == 200
        assert again.call("GET", "invitations/", auth=("alice", "pb")).status_code == 401
        assert again.call("GET", "invitations/", auth=("carol", "pc")).status_code == 200
    finally:
        again.close()
    server.close = lambda: None  # already closed


def test_user_settings_and_invitations_follow_rc_connect(server):
    assert server.call("POST", "users/me/max_games", ALICE, {"max_games": 3}).json() == {
        "max_games": 3
    }
    assert server.call("POST", "users/me/max_games", ALICE, {"max_games": 0}).status_code == 400
    assert server.call("POST", "users/me/ranked", ALICE, {"ranked": True}).json() == {
        "ranked": True
    }
    assert server.call("GET", "users/me/version", ALICE).json() == {"version": 0}
    assert server.call("POST", "users/me/version", ALICE).json() == {"version": 1}
    _login(server, BOB)
    # rc_play_on_server's send_invitation: the sender plays the game by its id
    sent = server.call("POST", "invitations/", ALICE, {"opponent": "bob", "color": False})
    game_id = sent.json()["game_id"]
    [invitation] = server.call("GET", "invitations/", auth=BOB).json()["invitations"]
    assert server.call("POST", f"invitations/{invitation}", auth=ALICE).status_code == 403
    assert server.call("POST", f"invitations/{invitation}", auth=BOB).json() == {"game_id": game_id}
    assert server.call("POST", f"invitations/{invitation}", auth=BOB).status_code == 409
    assert server.call("GET", "invitations/", auth=BOB).json() == {"invitations": []}
    assert server.call("POST", f"invitations/{invitation}/finish", auth=BOB).json() == {}
    assert server.call("POST", "invitations/999", auth=BOB).status_code == 404
    assert server.call("GET", f"games/{game_id}/color", auth=ALICE).json() == {"color": False}
    assert server.call("GET", f"games/{game_id}/opponent_name", auth=BOB).json() == {
        "opponent_name": "alice"
    }
    assert server.call("GET", f"games/{game_id}/color", auth=("eve", "pe")).status_code == 403
    assert server.call("GET", "games/12345/color", auth=BOB).status_code == 404
    assert server.call("GET", f"games/{game_id}/no_such", auth=BOB).status_code == 404


def test_the_server_refuses_calls_out_of_turn_or_out_of_order(server):
    _login(server, ALICE, BOB)
    game = server.registry.create_game("alice", "bob", 60.0, 1.0, invite=())
    gid = game.id
    assert _move(server, ALICE, gid, "sense", {"square": 36}).status_code == 400  # not started
    assert _move(server, ALICE, gid, "ready").ok and _move(server, BOB, gid, "ready").ok
    status = server.call("GET", f"games/{gid}/game_status", auth=ALICE).json()
    assert status == {"is_over": False, "is_my_turn": True}
    assert _move(server, BOB, gid, "sense", {"square": 36}).status_code == 400
    assert _move(server, ALICE, gid, "move", {"requested_move": None}).status_code == 400
    assert _move(server, ALICE, gid, "sense", {"square": True}).status_code == 400
    assert _move(server, ALICE, gid, "sense", {"square": 64}).status_code == 400
    sensed = _move(server, ALICE, gid, "sense", {"square": chess.E7}).json()["sense_result"]
    assert {s for s, _ in sensed} == {
        chess.square(f, r) for f in (3, 4, 5) for r in (5, 6, 7)
    }  # d6..f8 around e7
    assert _move(server, ALICE, gid, "sense", {"square": chess.E7}).status_code == 400
    bad = {"requested_move": {"type": "Move", "value": "e2e5"}}
    assert _move(server, ALICE, gid, "move", bad).status_code == 400
    e4 = {"requested_move": {"type": "Move", "value": "e2e4"}}
    moved = _move(server, ALICE, gid, "move", e4).json()["move_result"]
    assert moved[:2] == [{"type": "Move", "value": "e2e4"}] * 2 and moved[2] is None
    assert _move(server, ALICE, gid, "move", e4).status_code == 400
    assert _move(server, ALICE, gid, "end_turn").ok
    assert server.call("GET", f"games/{gid}/is_my_turn", auth=BOB).json() == {"is_my_turn": True}
    assert server.call("GET", f"games/{gid}/move_actions", auth=ALICE).status_code == 400
    seconds = server.call("GET", f"games/{gid}/seconds_left", auth=ALICE).json()["seconds_left"]
    assert 60.0 < seconds <= 61.0  # the increment was added at end_turn


def test_error_resign_loses_for_the_caller_whoever_is_to_move(server):
    game = server.registry.create_game("alice", "bob", 60.0, 1.0, invite=())
    for user in (ALICE, BOB):
        assert _move(server, user, game.id, "ready").ok
    assert _move(server, BOB, game.id, "error_resign").ok  # White is to move
    assert server.call("GET", f"games/{game.id}/winner_color", auth=ALICE).json() == {
        "winner_color": True
    }
    reason = server.call("GET", f"games/{game.id}/win_reason", auth=BOB).json()
    assert reason == {"win_reason": {"type": "WinReason", "value": "RESIGN"}}
    assert server.store.finished_game(game.id)["winner"] == "white"


def test_a_finished_game_is_answered_from_the_store_after_a_restart(server, tmp_path):
    game = server.registry.create_game("alice", "bob", 60.0, 1.0, invite=())
    assert _move(server, ALICE, game.id, "error_resign").ok
    before = server.call("GET", f"games/{game.id}/game_history", auth=BOB).json()
    server.close()
    server.close = lambda: None
    again = Server(tmp_path / "server.sqlite")
    try:
        for user in (ALICE, BOB):
            status = again.call("GET", f"games/{game.id}/game_status", auth=user).json()
            assert status == {"is_over": True, "is_my_turn": False}
        after = again.call("GET", f"games/{game.id}/game_history", auth=BOB).json()
        assert after == before and after["game_history"]["win_reason"]["value"] == "RESIGN"
        winner = again.call("GET", f"games/{game.id}/winner_color", auth=ALICE).json()
        assert winner == {"winner_color": False}
        assert _move(again, ALICE, game.id, "end_turn").ok  # a finished game takes no turn
        assert again.call("GET", f"games/{game.id}/color", auth=("carol", "c")).status_code == 403
        # ids go on from the stored ones
        assert again.registry.create_game("a", "b", 1.0, 0.0, invite=()).id == game.id + 1
    finally:
        again.close()


def test_the_referee_ends_a_game_on_time_with_no_player_asking(server):
    server.registry.start_grace = 0.2  # nobody readies: the clocks start anyway
    game = server.registry.create_game("alice", "bob", 0.3, 0.0, invite=("alice", "bob"))
    deadline = time.monotonic() + 10
    while not game.finished and time.monotonic() < deadline:
        server.registry.tick()
        time.sleep(0.05)
    row = server.store.finished_game(game.id)
    assert row is not None and (row["winner"], row["win_reason"]) == ("black", "TIMEOUT")
    assert row["white_seconds_left"] <= 0 < row["black_seconds_left"]
    history = json.loads(row["history_json"], cls=GameHistoryDecoder)
    assert history.get_win_reason() == WinReason.TIMEOUT
    # the late invitation is no longer offered
    assert server.call("GET", "invitations/", auth=ALICE).json() == {"invitations": []}


def _resigning_client(registry, stop, loser, on_game):
    """Polls like rc-connect; ``loser`` resigns each game it is invited to at once."""
    seen = set()
    while not stop.is_set():
        for user in ("alice", "bob"):
            for inv in registry.poll_invitations(user):
                if inv in seen:
                    continue
                seen.add(inv)
                game_id = registry.accept(user, inv)
                game = registry.game(game_id)
                on_game(game)
                if stop.is_set():
                    return
                if user == loser:
                    with game.lock:
                        game.resign(user)
                registry.finish_invitation(user, inv)
        time.sleep(0.02)


def test_a_pair_match_resumes_after_a_restart_with_its_colours(tmp_path):
    path = tmp_path / "server.sqlite"
    terms = PairTerms("alice", "bob", 2, 30.0, 1.0)
    store = ServerStore(path)
    registry = Registry(store)
    stop, games = threading.Event(), []

    def first_run_game(game):  # the server "stops" once the second game has begun
        games.append(game)
        if len(games) == 3:  # the second game's first invitation
            stop.set()

    client = threading.Thread(
        target=_resigning_client, args=(registry, stop, "bob", first_run_game)
    )
    client.start()
    assert run_pairing(registry, terms, log=lambda s: None, stop=stop, poll_seconds=0.02) is False
    stop.set()
    client.join()
    store.close()

    store = ServerStore(path)  # the restart: the game cut off is abandoned
    statuses = store.conn.execute("SELECT white, status FROM games ORDER BY id").fetchall()
    assert statuses == [("alice", "finished"), ("bob", "abandoned")]
    registry, stop = Registry(store), threading.Event()
    client = threading.Thread(target=_resigning_client, args=(registry, stop, "bob", lambda g: 0))
    client.start()
    logged = []
    assert run_pairing(registry, terms, log=logged.append, poll_seconds=0.02, linger_seconds=5)
    stop.set()
    client.join()
    assert any("resuming, 1 of 2" in line for line in logged)
    rows = store.conn.execute(
        "SELECT white, black, status, winner FROM games WHERE status = 'finished' ORDER BY id"
    ).fetchall()
    assert rows == [("alice", "bob", "finished", "white"), ("bob", "alice", "finished", "black")]
    assert store.conn.execute("SELECT status FROM matches").fetchall() == [("finished",)]
    store.close()


def test_the_store_refuses_a_file_that_is_not_a_server_file(tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE things (x)").connection.commit()
    with pytest.raises(UsageError, match="not a fogsearch server file"):
        ServerStore(other)
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just words " * 100)
    with pytest.raises(UsageError, match="not an SQLite database"):
        ServerStore(text)
    with pytest.raises(UsageError, match="names alice twice"):
        PairTerms("alice", "alice", 2, 30.0, 1.0)


def test_a_pair_game_waits_until_both_users_have_polled(server):
    terms = PairTerms("alice", "bob", 1, 30.0, 1.0)
    stop = threading.Event()
    pairing = threading.Thread(
        target=run_pairing,
        args=(server.registry, terms),
        kwargs={"log": lambda s: None, "stop": stop, "poll_seconds": 0.02, "linger_seconds": 1},
    )
    pairing.start()
    try:
        _login(server, ALICE)
        time.sleep(0.5)
        games = sqlite3.connect(server.store.path).execute("SELECT count(*) FROM games")
        assert games.fetchone() == (0,)
        _login(server, BOB)
        deadline = time.monotonic() + 10
        while (
            time.monotonic() < deadline
            and not server.call("GET", "invitations/", auth=BOB).json()["invitations"]
        ):
            time.sleep(0.05)
        [alice_inv] = server.call("GET", "invitations/", auth=ALICE).json()["invitations"]
        game_id = server.call("POST", f"invitations/{alice_inv}", auth=ALICE).json()["game_id"]
        assert server.call("GET", f"games/{game_id}/color", auth=ALICE).json() == {"color": True}
        assert _move(server, ALICE, game_id, "error_resign").ok
        pairing.join(timeout=10)
        assert not pairing.is_alive()
    finally:
        stop.set()
        pairing.join(timeout=10)
