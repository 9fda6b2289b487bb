"""Tournament formats: which games to play, with colours alternating and a seed per game."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations

from fogsearch.arguments import UsageError
from fogsearch.tournament.clock import (  # noqa: F401 - the clock's bounds, as before
    CLOCK_WHY,
    INCREMENT_WHY,
    MAX_INCREMENT,
    MAX_SECONDS_PER_PLAYER,
    MIN_SECONDS_PER_PLAYER,
    check_clock,
)
from fogsearch.tournament.openings import BOOK, check_book, check_book_plies
from fogsearch.tournament.players import PlayerSpec

MAX_GAMES_PER_PAIRING = 10_000
GAMES_WHY = "10,000 games pin a pairing's Elo difference to about +-7; run more into the same --db"


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing it has to look up."""

    index: int
    white: PlayerSpec
    black: PlayerSpec
    seed: int
    seconds_per_player: float = 900.0
    seconds_increment: float = 5.0
    isolated: bool = True
    """Each player in a process of its own (as on the RBC server); false: in the game's."""
    ponder: bool = True
    """Call a waiting player's ``while_we_wait`` (isolated players only)."""
    grace_s: float = 30.0
    """Seconds a call may overrun the mover's clock before its process is killed."""
    cores_per_player: int = 0
    """Cores each player's process is pinned to (0: not pinned)."""
    cores_per_game: int = 0
    """Cores both players' processes are pinned to, shared (0: not shared; see
    :class:`MatchOptions`)."""
    book_plies: int = 0
    """Half-moves of the opening book's line (picked by ``seed``) played for the players."""
    book: tuple[str, ...] | None = None
    """The book's lines (UCI, space-separated); None: the built-in book."""


MAX_GRACE = 3_600.0
GRACE_WHY = "seconds a call may overrun its clock before its player is killed, at most an hour"
MAX_CORES_PER_PLAYER = 1_024


@dataclass(frozen=True)
class MatchOptions:
    """How games are played, the same for every game of a tournament (see :class:`GameTask`)."""

    isolated: bool = True
    ponder: bool = True
    grace_s: float = 30.0
    cores_per_player: int = 0
    cores_per_game: int = 0
    """Both players of a game pinned to the same cores, as engine-testing frameworks play one
    game a core: a player computes only on its own turn, so one that does not ponder has all of
    them whenever it moves, and a 2-core machine plays two games at once. Needs ``ponder`` off
    (a pondering player would compute on its opponent's cores during its opponent's turn)."""
    book_plies: int = 0
    book: tuple[str, ...] | None = None
    """The lines of ``--book FILE`` (:func:`fogsearch.tournament.openings.load_book`); None: the
    built-in book. Stored with each run, so a test from another book is another test."""

    def check(self) -> None:
        if not (isinstance(self.grace_s, (int, float)) and 0 <= self.grace_s <= MAX_GRACE):
            raise UsageError(f"the grace must be in 0..{MAX_GRACE:,g} ({GRACE_WHY})")
        _check_cores(self.cores_per_player, "cores per player")
        _check_cores(self.cores_per_game, "cores per game")
        if (self.cores_per_player or self.cores_per_game) and not self.isolated:
            raise UsageError("pinning players to cores needs each in its own process")
        if self.cores_per_player and self.cores_per_game:
            raise UsageError(
                "--cores-per-player gives each player cores of its own, --cores-per-game one "
                "block the two share: choose one"
            )
        if self.cores_per_game and self.ponder:
            raise UsageError(
                "--cores-per-game needs --no-ponder: a pondering player would compute on the "
                "cores its opponent is moving on"
            )
        if self.book is not None:
            check_book(self.book)
        check_book_plies(self.book_plies, BOOK if self.book is None else self.book)
        if self.book is not None and not self.book_plies:
            raise UsageError("a book of one's own (--book) needs --book-plies of at least 1")

    def apply(self, task: GameTask) -> GameTask:
        return replace(
            task,
            isolated=self.isolated,
            ponder=self.ponder,
            grace_s=float(self.grace_s),
            cores_per_player=self.cores_per_player,
            cores_per_game=self.cores_per_game,
            book_plies=self.book_plies,
            book=self.book,
        )


def _check_cores(count, what: str) -> None:
    if isinstance(count, bool) or not (
        isinstance(count, int) and 0 <= count <= MAX_CORES_PER_PLAYER
    ):
        raise UsageError(f"{what} must be in 0..{MAX_CORES_PER_PLAYER}")


def _pairing_games(a: PlayerSpec, b: PlayerSpec, games: int):
    for g in range(games):
        yield (a, b) if g % 2 == 0 else (b, a)


def round_robin(
    players: list[PlayerSpec], games_per_pairing: int
) -> list[tuple[PlayerSpec, PlayerSpec]]:
    """Every pair plays ``games_per_pairing`` games, colours alternating."""
    _check(players, games_per_pairing, minimum=2)
    return [
        pair
        for a, b in combinations(players, 2)
        for pair in _pairing_games(a, b, games_per_pairing)
    ]


def gauntlet(
    hero: PlayerSpec, opponents: list[PlayerSpec], games_per_pairing: int
) -> list[tuple[PlayerSpec, PlayerSpec]]:
    """``hero`` plays each opponent ``games_per_pairing`` games, colours alternating."""
    _check([hero, *opponents], games_per_pairing, minimum=2)
    return [pair for opp in opponents for pair in _pairing_games(hero, opp, games_per_pairing)]


def make_tasks(
    pairings: list[tuple[PlayerSpec, PlayerSpec]],
    seed: int,
    seconds_per_player: float = 900.0,
    seconds_increment: float = 5.0,
) -> list[GameTask]:
    check_clock(seconds_per_player, seconds_increment)
    return [
        GameTask(i, white, black, seed * 1_000_003 + i, seconds_per_player, seconds_increment)
        for i, (white, black) in enumerate(pairings)
    ]


def _check(players: list[PlayerSpec], games_per_pairing: int, minimum: int) -> None:
    if len(players) < minimum:
        raise UsageError(
            f"a tournament needs at least {minimum} players, got {len(players)}"
            + (f" ({players[0].name})" if players else "")
        )
    twice = [name for name, n in Counter(p.name for p in players).items() if n > 1]
    if twice:
        raise UsageError(
            f"player names must be unique: {', '.join(twice)} appears more than once "
            "(give each its own label: kind:settings@label)"
        )
    if (
        isinstance(games_per_pairing, bool)
        or not isinstance(games_per_pairing, int)
        or not 1 <= games_per_pairing <= MAX_GAMES_PER_PAIRING
    ):
        raise UsageError(
            f"games per pairing must be in 1..{MAX_GAMES_PER_PAIRING:,} ({GAMES_WHY}), "
            f"got {games_per_pairing!r}"
        )
