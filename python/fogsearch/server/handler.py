"""The HTTP layer: the routes of the RBC server's API as reconchess 1.6.9's ``rc-connect``
(``reconchess/scripts/rc_connect.py``, ``rc_register.py``) and ``RemoteGame``
(``reconchess/game.py``) call them, on the standard library's ``ThreadingHTTPServer``.

Every route but ``GET /api/version`` and ``POST /api/users/`` (registration) takes HTTP basic
auth; an unknown username is registered with the password it first logs in with. Bodies are JSON
in reconchess's ``ChessJSONEncoder`` conventions (a move is ``{"type": "Move", "value": uci}``, a
piece ``{"type": "Piece", ...}``, a board its FEN, a colour ``true`` for White); a game's history
is reconchess's ``GameHistoryEncoder`` JSON. Errors are JSON too (``{"error": why}``), because
``rc-connect`` reads every answer as JSON: 400 a call the game cannot take, 401 bad credentials,
403 not your game or invitation, 404 nothing there, 409 a conflict, 413 a body over 64 KiB.
A trailing slash is optional on every path.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import chess
import reconchess
from reconchess import WinReason
from reconchess.history import GameHistoryEncoder
from reconchess.utilities import ChessJSONDecoder

from fogsearch.server.game import ActionRefused, NotAPlayer
from fogsearch.server.registry import Conflict, NotFound, Refused, Registry

MAX_BODY = 64 * 1024
"""Bytes a request body may have; the largest the API needs is a move or a sense square."""
IDLE_SECONDS = 120
"""An idle keep-alive connection is closed after this, so that its thread ends."""


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern
    handle: Callable[[Registry, str | None, re.Match, dict], dict | str]
    auth: bool = True


def _version(reg, user, m, body):
    return {"version": reconchess.__version__}


def _register(reg, user, m, body):
    name, password = body.get("username"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise ActionRefused("registration takes a username and a password")
    reg.register(name, password)
    return {"username": name}


def _users(reg, user, m, body):
    return {"usernames": reg.active_users()}


def _my_version(reg, user, m, body):
    return {"version": reg.store.user_field(user, "version")}


def _next_version(reg, user, m, body):
    version = reg.store.user_field(user, "version") + 1
    reg.store.set_user_field(user, "version", version)
    return {"version": version}


def _max_games(reg, user, m, body):
    value = body.get("max_games")
    if type(value) is not int or not 1 <= value <= 1_000:
        raise ActionRefused(f"max_games must be a whole number in 1..1000, not {value!r}")
    reg.store.set_user_field(user, "max_games", value)
    return {"max_games": value}


def _ranked(reg, user, m, body):
    value = body.get("ranked")
    if not isinstance(value, bool):
        raise ActionRefused(f"ranked must be true or false, not {value!r}")
    reg.store.set_user_field(user, "ranked", int(value))
    return {"ranked": value}


def _invitations(reg, user, m, body):
    return {"invitations": reg.poll_invitations(user)}


def _invite(reg, user, m, body):
    return {"game_id": reg.invite(user, body.get("opponent"), body.get("color"))}


def _accept(reg, user, m, body):
    return {"game_id": reg.accept(user, int(m["id"]))}


def _finish(reg, user, m, body):
    reg.finish_invitation(user, int(m["id"]))
    return {}


def _winner(game) -> bool | None:
    if not game.finished or game.result.winner == "draw":
        return None
    return game.result.winner == "white"


def _reason(game) -> WinReason | None:
    if not game.finished or game.result.win_reason is None:
        return None
    return WinReason[game.result.win_reason]


def _starting_board(game, user):
    game.color_of(user)  # only a player may ask
    return {"board": chess.Board()}


def _winner_color(game, user):
    game.color_of(user)
    return {"winner_color": _winner(game)}


def _win_reason(game, user):
    game.color_of(user)
    return {"win_reason": _reason(game)}


def _game_history(game, user) -> str:
    """The stored JSON as it is (``None`` until the game is over, as ``LocalGame`` answers)."""
    game.color_of(user)
    return '{"game_history": %s}' % (game.result.history_json if game.finished else "null")


GAME_GETS = {
    "color": lambda g, u: {"color": g.color_of(u)},
    "starting_board": _starting_board,
    "opponent_name": lambda g, u: {"opponent_name": g.opponent_of(u)},
    "sense_actions": lambda g, u: {"sense_actions": g.sense_actions(u)},
    "move_actions": lambda g, u: {"move_actions": g.move_actions(u)},
    "seconds_left": lambda g, u: {"seconds_left": g.seconds_left(u)},
    "is_my_turn": lambda g, u: {"is_my_turn": g.is_my_turn(u)},
    "opponent_move_results": lambda g, u: {"opponent_move_results": g.opponent_move_results(u)},
    "game_status": lambda g, u: g.status(u),
    "winner_color": _winner_color,
    "win_reason": _win_reason,
    "game_history": _game_history,
}
GAME_POSTS = {
    "ready": lambda g, u, b: g.mark_ready(u) or {},
    "sense": lambda g, u, b: {"sense_result": g.sense(u, b.get("square"))},
    "move": lambda g, u, b: {"move_result": g.move(u, b.get("requested_move"))},
    "end_turn": lambda g, u, b: g.end_turn(u) or {},
    "error_resign": lambda g, u, b: g.resign(u) or {},
}


def _game_get(reg, user, m, body):
    call = GAME_GETS.get(m["what"])
    if call is None:
        raise NotFound(f"no game endpoint {m['what']!r}")
    game = reg.game(int(m["id"]))
    with game.lock:
        game.refresh()
        return call(game, user)


def _game_post(reg, user, m, body):
    call = GAME_POSTS.get(m["what"])
    if call is None:
        raise NotFound(f"no game action {m['what']!r}")
    game = reg.game(int(m["id"]))
    with game.lock:
        game.refresh()
        return call(game, user, body)


ROUTES = [
    Route("GET", re.compile(r"/api/version"), _version, auth=False),
    Route("POST", re.compile(r"/api/users"), _register, auth=False),
    Route("GET", re.compile(r"/api/users"), _users),
    Route("GET", re.compile(r"/api/users/me/version"), _my_version),
    Route("POST", re.compile(r"/api/users/me/version"), _next_version),
    Route("POST", re.compile(r"/api/users/me/max_games"), _max_games),
    Route("POST", re.compile(r"/api/users/me/ranked"), _ranked),
    Route("GET", re.compile(r"/api/invitations"), _invitations),
    Route("POST", re.compile(r"/api/invitations"), _invite),
    Route("POST", re.compile(r"/api/invitations/(?P<id>\d{1,18})"), _accept),
    Route("POST", re.compile(r"/api/invitations/(?P<id>\d{1,18})/finish"), _finish),
    Route("GET", re.compile(r"/api/games/(?P<id>\d{1,18})/(?P<what>\w+)"), _game_get),
    Route("POST", re.compile(r"/api/games/(?P<id>\d{1,18})/(?P<what>\w+)"), _game_post),
]
STATUS = {ActionRefused: 400, Refused: 401, NotAPlayer: 403, NotFound: 404, Conflict: 409}


class HttpError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class RBCRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a polling client reuses its connection
    timeout = IDLE_SECONDS
    server: RBCHTTPServer

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def log_message(self, format: str, *args) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    def _dispatch(self, method: str) -> None:
        try:
            body = self._body()
            path = urlsplit(self.path).path.rstrip("/") or "/"
            matches = [(r, m) for r in ROUTES if (m := r.pattern.fullmatch(path)) is not None]
            if not matches:
                raise HttpError(404, f"no such endpoint {path}")
            chosen = [(r, m) for r, m in matches if r.method == method]
            if not chosen:
                raise HttpError(405, f"{path} does not take {method}")
            route, match = chosen[0]
            user = self._user() if route.auth else None
            payload = route.handle(self.server.registry, user, match, body)
            self._send(200, payload)
        except HttpError as exc:
            self._send(exc.status, {"error": str(exc)})
        except tuple(STATUS) as exc:
            status = next(code for kind, code in STATUS.items() if isinstance(exc, kind))
            self._send(status, {"error": str(exc)})
        except Exception as exc:  # noqa: BLE001 - a server bug: answer 500, log, keep serving
            traceback.print_exc(file=sys.stderr)
            self._send(500, {"error": f"{type(exc).__name__}: {exc}"})

    def _body(self) -> dict:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.close_connection = True
            raise HttpError(400, "Content-Length is not a number") from None
        if length > MAX_BODY:
            self.close_connection = True  # the unread body would be read as the next request
            raise HttpError(413, f"request body over {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw, cls=ChessJSONDecoder)
        except (ValueError, UnicodeDecodeError) as exc:
            raise HttpError(400, f"the body is not reconchess JSON: {exc}") from None
        if not isinstance(body, dict):
            raise HttpError(400, "the body must be a JSON object")
        return body

    def _user(self) -> str:
        header = self.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "basic" or not token:
            raise Refused("this endpoint takes HTTP basic auth")
        try:
            name, sep, password = base64.b64decode(token, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            raise Refused("malformed basic auth") from None
        if not sep:
            raise Refused("malformed basic auth")
        self.server.registry.authenticate(name, password)
        return name

    def _send(self, status: int, payload: dict | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload, cls=GameHistoryEncoder)
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="rbc"')
        self.end_headers()
        self.wfile.write(data)


class RBCHTTPServer(ThreadingHTTPServer):
    """The HTTP server with its :class:`Registry`; one thread per connection."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], registry: Registry, verbose: bool = False):
        self.registry = registry
        self.verbose = verbose
        super().__init__(address, RBCRequestHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}"
