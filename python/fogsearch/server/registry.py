"""The server's state between requests: users (registered on first login), who is connected,
invitations, and the games in play, each with its own lock.

Locks: a game's lock may be held while this registry's lock is taken (a game's end is recorded
here), never the other way round: the registry copies what it needs under its lock and lets go
before it touches a game.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import chess

from fogsearch.server.game import ActionRefused, NotAPlayer, ServerGame
from fogsearch.server.store import GameResult, ServerStore
from fogsearch.server.stored_game import StoredGame

USERNAME = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
"""Names a user may take: letters, digits, ``_.-``, at most 64 (they appear in logs and URLs)."""
MAX_PASSWORD = 256
MAX_USERS = 10_000
"""Users a server registers; a local server needs a handful, the bound stops a runaway client."""
MAX_GAMES_IN_PLAY = 256
"""Games in play at once (``POST /api/invitations/`` makes one per call)."""
FINISHED_IN_MEMORY = 512
"""Finished games kept in memory for their players' last calls; older ones are read back from
the store."""
ACTIVE_SECONDS = 20.0
"""A user is connected while its last invitations poll is this recent (``rc-connect`` polls
every 5 s)."""


class NotFound(Exception):
    """No such game or invitation (HTTP 404)."""


class Conflict(Exception):
    """The call contradicts the state (HTTP 409): an invitation accepted twice, a name taken."""


class Refused(Exception):
    """Bad credentials (HTTP 401)."""


@dataclass
class Invitation:
    id: int
    game_id: int
    username: str
    accepted: bool = False
    finished: bool = False


class Registry:
    """Users, invitations and games; ``default_seconds``/``default_increment`` are the clock of
    a game a user invites another to (the official server's is 900 s + 5 s)."""

    def __init__(
        self,
        store: ServerStore,
        *,
        default_seconds: float = 900.0,
        default_increment: float = 5.0,
        start_grace: float = 120.0,
        active_seconds: float = ACTIVE_SECONDS,
        announce: Callable[[str], None] | None = None,
    ):
        self.store = store
        self.default_seconds = default_seconds
        self.default_increment = default_increment
        self.start_grace = start_grace
        self.active_seconds = active_seconds
        self.announce = announce
        self._lock = threading.Lock()
        self.changed = threading.Condition(self._lock)
        """Notified when a game ends or an invitation is finished (the pairing waits on it)."""
        self._games: OrderedDict[int, ServerGame] = OrderedDict()
        self._invitations: dict[int, Invitation] = {}
        self._last_poll: dict[str, float] = {}
        self._credentials: dict[str, bytes] = {}  # name -> sha256 of a verified password

    # -- users ------------------------------------------------------------------------------

    def authenticate(self, name: str, password: str) -> None:
        """Raises :class:`Refused` unless ``password`` is ``name``'s; an unknown ``name`` is
        registered with it."""
        if not USERNAME.fullmatch(name):
            raise Refused("a username is 1-64 letters, digits, '_', '.' or '-'")
        if len(password) > MAX_PASSWORD:
            raise Refused(f"a password is at most {MAX_PASSWORD} characters")
        quick = hashlib.sha256(password.encode()).digest()
        with self._lock:
            known = self._credentials.get(name)
        if known is not None:
            if hmac.compare_digest(known, quick):
                return
            raise Refused(f"wrong password for {name}")
        if self.store.user_count() >= MAX_USERS and not self.is_user(name):
            raise Refused(f"this server registers at most {MAX_USERS:,} users")
        _, right = self.store.check_or_create_user(name, password)
        if not right:
            raise Refused(f"wrong password for {name}")
        with self._lock:
            self._credentials[name] = quick

    def register(self, name: str, password: str) -> None:
        """``POST /api/users/`` (``rc-register``): :class:`Conflict` if the name is taken."""
        if not USERNAME.fullmatch(name) or not 0 < len(password) <= MAX_PASSWORD:
            raise ActionRefused(
                "a username is 1-64 letters, digits, '_', '.' or '-'; a password 1-256 characters"
            )
        if self.store.user_count() >= MAX_USERS:
            raise ActionRefused(f"this server registers at most {MAX_USERS:,} users")
        if not self.store.create_user(name, password):
            raise Conflict(f"{name} is already in use")

    def is_user(self, name: str) -> bool:
        try:
            self.store.user_field(name, "version")
        except KeyError:
            return False
        return True

    def active_users(self) -> list[str]:
        horizon = time.monotonic() - self.active_seconds
        with self._lock:
            return sorted(u for u, t in self._last_poll.items() if t >= horizon)

    def is_connected(self, name: str) -> bool:
        return name in self.active_users()

    # -- invitations ------------------------------------------------------------------------

    def poll_invitations(self, user: str) -> list[int]:
        """The ids of ``user``'s unaccepted invitations to games still in play; the poll marks
        the user connected."""
        with self._lock:
            self._last_poll[user] = time.monotonic()
            open_ids = []
            for inv in self._invitations.values():
                if inv.username != user or inv.accepted or inv.finished:
                    continue
                game = self._games.get(inv.game_id)
                if game is None or game.finished:
                    inv.finished = True  # too late to play; nothing to accept
                    self.store.mark_invitation(inv.id, "finished")
                    continue
                open_ids.append(inv.id)
            self.changed.notify_all()
            return open_ids

    def accept(self, user: str, invitation_id: int) -> int:
        with self._lock:
            inv = self._own_invitation(user, invitation_id)
            if inv.accepted:
                raise Conflict(f"invitation {invitation_id} was already accepted")
            inv.accepted = True
        self.store.mark_invitation(invitation_id, "accepted")
        return inv.game_id

    def finish_invitation(self, user: str, invitation_id: int) -> None:
        with self._lock:
            inv = self._own_invitation(user, invitation_id)
            inv.finished = True
            self.changed.notify_all()
        self.store.mark_invitation(invitation_id, "finished")

    def invitations_open(self, game_ids: set[int]) -> int:
        """How many invitations to these games are not yet finished by their players."""
        with self._lock:
            return sum(
                1 for i in self._invitations.values() if i.game_id in game_ids and not i.finished
            )

    def _own_invitation(self, user: str, invitation_id: int) -> Invitation:
        inv = self._invitations.get(invitation_id)
        if inv is None:
            raise NotFound(f"no invitation {invitation_id}")
        if inv.username != user:
            raise NotAPlayer(f"invitation {invitation_id} is not {user}'s")
        return inv

    def invite(self, sender: str, opponent: str, color) -> int:
        """``POST /api/invitations/``: a game of ``sender`` (playing ``color``) against
        ``opponent``, who is invited; the sender plays it by its id."""
        if not isinstance(color, bool):
            raise ActionRefused(f"color must be true (white) or false (black), not {color!r}")
        if opponent == sender:
            raise ActionRefused("a user cannot invite itself")
        if not isinstance(opponent, str) or not self.is_user(opponent):
            raise NotFound(f"no user {opponent!r}")
        white, black = (sender, opponent) if color == chess.WHITE else (opponent, sender)
        game = self.create_game(
            white, black, self.default_seconds, self.default_increment, invite=(opponent,)
        )
        return game.id

    # -- games ------------------------------------------------------------------------------

    def create_game(
        self,
        white: str,
        black: str,
        seconds: float,
        increment: float,
        *,
        invite: tuple[str, ...],
        match_id: int | None = None,
    ) -> ServerGame:
        """A new game in play, with an invitation for each user in ``invite``."""
        with self._lock:
            in_play = sum(1 for g in self._games.values() if not g.finished)
        if in_play >= MAX_GAMES_IN_PLAY:
            raise ActionRefused(f"this server plays at most {MAX_GAMES_IN_PLAY} games at once")
        game_id = self.store.create_game(white, black, seconds, increment, match_id)
        game = ServerGame(
            id=game_id,
            white=white,
            black=black,
            seconds=seconds,
            increment=increment,
            on_end=self._game_ended,
            start_grace=self.start_grace,
            match_id=match_id,
        )
        invitations = [
            Invitation(self.store.create_invitation(game_id, u), game_id, u) for u in invite
        ]
        with self._lock:
            self._games[game_id] = game
            for inv in invitations:
                self._invitations[inv.id] = inv
            self._forget_old_games()
        return game

    def game(self, game_id: int) -> ServerGame | StoredGame:
        """The game in play or finished in this run, else a finished one read from the store."""
        with self._lock:
            game = self._games.get(game_id)
        if game is not None:
            return game
        row = self.store.finished_game(game_id)
        if row is None:
            raise NotFound(f"no game {game_id}")
        return StoredGame.from_row(row)

    def tick(self) -> None:
        """Starts due clocks and ends games whose time ran out, though no player asks."""
        with self._lock:
            playing = [g for g in self._games.values() if not g.finished]
        for game in playing:
            with game.lock:
                game.refresh()

    def _game_ended(self, game: ServerGame, result: GameResult) -> None:
        self.store.finish_game(game.id, result)
        if self.announce is not None:
            self.announce(
                f"game {game.id}: {game.white} (white) vs {game.black} (black): {describe(result)}"
            )
        with self._lock:
            self.changed.notify_all()

    def _forget_old_games(self) -> None:
        finished = [gid for gid, g in self._games.items() if g.finished]
        for gid in finished[: max(0, len(finished) - FINISHED_IN_MEMORY)]:
            del self._games[gid]
            for inv_id in [i.id for i in self._invitations.values() if i.game_id == gid]:
                del self._invitations[inv_id]


def describe(result: GameResult) -> str:
    """``white won by KING_CAPTURE in 41 turns`` (a draw: ``draw by MOVE_LIMIT ...``)."""
    verdict = "draw" if result.winner == "draw" else f"{result.winner} won"
    return (
        f"{verdict} by {result.win_reason} in {result.turns} turns "
        f"(clocks {result.white_seconds_left:.1f} s / {result.black_seconds_left:.1f} s)"
    )
