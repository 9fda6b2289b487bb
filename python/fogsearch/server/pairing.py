"""``fogsearch serve --pair A B --games N``: a match of N games between two users, one at a time,
colours alternating (A is White in the match's first game), each started once both users are
connected (have polled their invitations lately), as the official server invites its players.

The match is stored: a server restarted with the same terms and file resumes it, counting the
games already finished (a game cut off by the restart is played again with the same colours).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from fogsearch.arguments import UsageError
from fogsearch.server.registry import USERNAME, Registry

LINGER_SECONDS = 15.0
"""After the last game, how long the server waits for both clients to collect their results
(``finish`` their invitations) before it stops."""


@dataclass(frozen=True)
class PairTerms:
    user_a: str
    user_b: str
    games: int
    seconds: float
    increment: float

    def __post_init__(self) -> None:
        for name in (self.user_a, self.user_b):
            if not USERNAME.fullmatch(name):
                raise UsageError(
                    f"--pair: {name!r} is not a username (1-64 letters, digits, '_', '.' or '-')"
                )
        if self.user_a == self.user_b:
            raise UsageError(f"--pair names {self.user_a} twice; name two users")


def run_pairing(
    registry: Registry,
    terms: PairTerms,
    *,
    log: Callable[[str], None],
    stop: threading.Event | None = None,
    poll_seconds: float = 0.2,
    linger_seconds: float = LINGER_SECONDS,
) -> bool:
    """Plays the match; True when all its games are played, False if ``stop`` was set first."""
    stop = stop or threading.Event()
    store = registry.store
    match = store.open_match(
        terms.user_a, terms.user_b, terms.games, terms.seconds, terms.increment
    )
    played = match.finished_games
    if played:
        log(f"match {match.id}: resuming, {played} of {terms.games} games already played")
    game_ids: set[int] = set()
    while played < terms.games:
        if not _wait(registry, stop, poll_seconds, log, lambda: _both_connected(registry, terms)):
            return False
        white, black = (terms.user_a, terms.user_b)[:: 1 if played % 2 == 0 else -1]
        game = registry.create_game(
            white,
            black,
            terms.seconds,
            terms.increment,
            invite=(white, black),
            match_id=match.id,
        )
        game_ids.add(game.id)
        log(
            f"match {match.id}: game {played + 1} of {terms.games} is game {game.id}, "
            f"{white} (white) vs {black} (black), {terms.seconds:g} s + {terms.increment:g} s"
        )
        # Wait for the store, not the game's flag: the game is marked over before its result is
        # written, and counting the store then gave the next game the same colours.
        if not _wait(registry, stop, poll_seconds, None, more_recorded(store, match.id, played)):
            return False
        played = store.match_games_finished(match.id)
    store.finish_match(match.id)
    log(f"match {match.id}: all {terms.games} games played")
    deadline = time.monotonic() + linger_seconds
    _wait(
        registry,
        stop,
        poll_seconds,
        None,
        lambda: registry.invitations_open(game_ids) == 0 or time.monotonic() >= deadline,
    )
    return True


def more_recorded(store, match_id: int, played: int) -> Callable[[], bool]:
    """Whether the store holds more than ``played`` finished games of the match."""
    return lambda: store.match_games_finished(match_id) > played


def _both_connected(registry: Registry, terms: PairTerms) -> bool:
    return registry.is_connected(terms.user_a) and registry.is_connected(terms.user_b)


def _wait(
    registry: Registry,
    stop: threading.Event,
    poll_seconds: float,
    log: Callable[[str], None] | None,
    done: Callable[[], bool],
) -> bool:
    """Waits until ``done()`` (True) or ``stop`` is set (False); says once that it waits."""
    said = False
    while not done():
        if stop.is_set():
            return False
        if log is not None and not said:
            log("waiting for both users to connect (to poll their invitations)")
            said = True
        with registry.changed:
            registry.changed.wait(timeout=poll_seconds)
    return True
