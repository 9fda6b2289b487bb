"""Talking to an RBC server (the official one or ``fogsearch serve``): the lobby's calls
(version, invitations, max_games, ranked) and reconchess's ``RemoteGame`` with bounded requests.

``rc-connect`` and ``RemoteGame`` retry a failed request for ever and send it with no timeout,
so a server that goes away hangs them; here each request times out, and a server that stays
unreachable (or answers 5xx) for ``UNREACHABLE_SECONDS`` raises :class:`ServerUnreachable`.
A 401 raises :class:`AuthRefused`; any other refusal a ``ValueError`` with the server's text, as
``RemoteGame`` does.
"""

from __future__ import annotations

import json
import time

import requests
from reconchess import RemoteGame
from reconchess.utilities import ChessJSONDecoder, ChessJSONEncoder

OFFICIAL_SERVER = "https://rbc.jhuapl.edu"
REQUEST_SECONDS = 30.0
"""Timeout of one request; a game call answers in milliseconds."""
UNREACHABLE_SECONDS = 300.0
"""How long a server may fail every request before the client gives up on it."""
FIRST_CONTACT_SECONDS = 15.0
"""How long the first call (the version check) retries: a wrong URL fails in seconds."""
RETRY_SECONDS = 0.5


class AuthRefused(Exception):
    """The server refused the username and password (HTTP 401)."""


class ServerUnreachable(Exception):
    """The server failed every request for :data:`UNREACHABLE_SECONDS`."""


def request(
    session: requests.Session,
    method: str,
    url: str,
    *,
    data: str | None = None,
    decoder=ChessJSONDecoder,
    unreachable_seconds: float = UNREACHABLE_SECONDS,
):
    """The decoded JSON answer to one call, retried while the server is down or answers 5xx."""
    failing_since = None
    while True:
        try:
            response = session.request(method, url, data=data, timeout=REQUEST_SECONDS)
        except requests.RequestException as exc:
            failure = f"{type(exc).__name__}: {exc}"
        else:
            if response.status_code == 200:
                return response.json(cls=decoder)
            if response.status_code == 401:
                raise AuthRefused(response.text)
            if response.status_code < 500:
                raise ValueError(f"{method} {url}: HTTP {response.status_code}: {response.text}")
            failure = f"HTTP {response.status_code}"
        now = time.monotonic()
        failing_since = now if failing_since is None else failing_since
        if now - failing_since >= unreachable_seconds:
            raise ServerUnreachable(
                f"{method} {url} failed for {unreachable_seconds:g} s: {failure}"
            )
        time.sleep(RETRY_SECONDS)


class Lobby:
    """The calls ``rc-connect`` makes outside a game, for one user."""

    def __init__(self, server_url: str, auth: tuple[str, str], **kwargs):
        self.server_url = server_url.rstrip("/")
        self.auth = auth
        self.session = requests.Session()
        self.session.auth = auth
        self.kwargs = kwargs

    def _call(self, method: str, path: str, payload: dict | None = None, **options):
        data = None if payload is None else json.dumps(payload, cls=ChessJSONEncoder)
        url = f"{self.server_url}/api/{path}"
        return request(self.session, method, url, data=data, **{**self.kwargs, **options})

    def reconchess_version(self) -> str:
        return self._call("GET", "version", unreachable_seconds=FIRST_CONTACT_SECONDS)["version"]

    def invitations(self) -> list[int]:
        return self._call("GET", "invitations/")["invitations"]

    def accept(self, invitation_id: int) -> int:
        return self._call("POST", f"invitations/{invitation_id}")["game_id"]

    def finish(self, invitation_id: int) -> None:
        self._call("POST", f"invitations/{invitation_id}/finish")

    def error_resign(self, game_id: int) -> None:
        self._call("POST", f"games/{game_id}/error_resign")

    def set_max_games(self, max_games: int) -> None:
        self._call("POST", "users/me/max_games", {"max_games": max_games})

    def set_ranked(self, ranked: bool) -> None:
        self._call("POST", "users/me/ranked", {"ranked": ranked})

    def bot_version(self) -> int:
        return self._call("GET", "users/me/version")["version"]

    def next_bot_version(self) -> None:
        self._call("POST", "users/me/version")


class BoundedRemoteGame(RemoteGame):
    """reconchess's ``RemoteGame`` (every endpoint as it calls it) with bounded requests."""

    def __init__(self, server_url: str, game_id: int, auth: tuple[str, str]):
        super().__init__(server_url.rstrip("/"), game_id, auth)

    def _get(self, endpoint, decoder_cls=ChessJSONDecoder):
        return request(self.session, "GET", f"{self.game_url}/{endpoint}", decoder=decoder_cls)

    def _post(self, endpoint, obj):
        data = json.dumps(obj, cls=ChessJSONEncoder)
        return request(self.session, "POST", f"{self.game_url}/{endpoint}", data=data)

    def status(self) -> dict:
        """``game_status``: ``is_over`` and ``is_my_turn``, in one call."""
        return self._get("game_status")
