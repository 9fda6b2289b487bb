"""Opening book for matches between deterministic bots (``--book-plies N``).

On small early sets the fogsearch bot's search is exact, so two of its versions replay the same
game from the same start whatever the game's seed: in 33 games of an SPRT at 60 s + 1 s, only 21
histories were distinct, and one was played five times. Chess engines are tested from a book of
openings, each played twice with colours swapped; this is that book for RBC. A game's seed picks
a line; its first ``plies`` half-moves are requested for the players (each still senses, and
learns the result of its move, as in any turn), and the game goes on from there. Both games of
an SPRT pair share a seed, so they play the same line with colours swapped.

The lines are common openings, four half-moves each, legal from the start (a test checks).
"""

from __future__ import annotations

import random

import chess

MAX_BOOK_PLIES = 4
"""Every line has this many half-moves."""
BOOK_PLIES_WHY = f"half-moves of the book's line played for the players, at most {MAX_BOOK_PLIES}"

BOOK: tuple[str, ...] = (
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 e7e5 g1f3 g8f6",
    "e2e4 e7e5 b1c3 g8f6",
    "e2e4 e7e5 f1c4 g8f6",
    "e2e4 c7c5 g1f3 d7d6",
    "e2e4 c7c5 g1f3 b8c6",
    "e2e4 c7c5 g1f3 e7e6",
    "e2e4 c7c5 b1c3 b8c6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "e2e4 d7d6 d2d4 g8f6",
    "e2e4 g7g6 d2d4 f8g7",
    "e2e4 g8f6 e4e5 f6d5",
    "e2e4 d7d5 e4d5 d8d5",
    "e2e4 b8c6 g1f3 d7d6",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 d7d5 c2c4 c7c6",
    "d2d4 d7d5 g1f3 g8f6",
    "d2d4 g8f6 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6",
    "d2d4 g8f6 g1f3 d7d5",
    "d2d4 f7f5 g2g3 g8f6",
    "d2d4 e7e6 c2c4 f8b4",
    "d2d4 d7d6 e2e4 g8f6",
    "c2c4 e7e5 b1c3 g8f6",
    "c2c4 g8f6 b1c3 e7e6",
    "c2c4 c7c5 g1f3 g8f6",
    "c2c4 e7e6 b1c3 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "g1f3 g8f6 c2c4 g7g6",
    "g1f3 c7c5 c2c4 b8c6",
    "g2g3 d7d5 f1g2 g8f6",
    "b2b3 e7e5 c1b2 b8c6",
    "e2e3 d7d5 d2d4 g8f6",
    "b1c3 d7d5 e2e4 d5e4",
    "f2f4 d7d5 g1f3 g8f6",
)


def book_line(seed: int, plies: int) -> list[chess.Move]:
    """The first ``plies`` half-moves of the line that ``seed`` picks (none for 0 plies)."""
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_BOOK_PLIES:
        raise ValueError(f"book plies must be in 0..{MAX_BOOK_PLIES}, got {plies!r}")
    if not plies:
        return []
    line = BOOK[random.Random(seed).randrange(len(BOOK))]
    return [chess.Move.from_uci(text) for text in line.split()[:plies]]


class BookMove:
    """A player whose move this turn is the book's; its sense and every callback are its own."""

    def __init__(self, player, move: chess.Move):
        self._player, self._move = player, move

    def choose_move(self, move_actions, seconds_left) -> chess.Move:
        return self._move

    def __getattr__(self, name):
        return getattr(self._player, name)
