"""Opening book for matches between deterministic bots (``--book-plies N``).

On small early sets the fogsearch bot's search is exact, so two of its versions replay the same
game from the same start whatever the game's seed: in 33 games of an SPRT at 60 s + 1 s, only 21
histories were distinct, and one was played five times. Chess engines are tested from a book of
openings, each played twice with colours swapped; this is that book for RBC. A game's seed picks
a line; its first ``plies`` half-moves are requested for the players (each still senses, and
learns the result of its move, as in any turn), and the game goes on from there. Both games of
an SPRT pair share a seed, so they play the same line with colours swapped.

The built-in lines are common openings, four half-moves each, legal from the start (a test
checks). ``--book FILE`` plays a book of one's own instead (:func:`load_book`): one line of UCI
moves per opening, as an engine tester gives cutechess its openings. A test of a change that acts
only in some openings (the Black line after 1. e4, say) runs from those, and so needs fewer games;
a match can start from the openings the target opponent plays.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess

from fogsearch.arguments import UsageError

MAX_BOOK_PLIES = 20
"""The most half-moves played from a line (ten moves each, a long engine-testing book's)."""
BOOK_PLIES_WHY = f"half-moves of the book's line played for the players, at most {MAX_BOOK_PLIES}"
BUILT_IN_PLIES = 4
"""Every line of the built-in book has this many half-moves."""
MAX_BOOK_LINES = 10_000
"""The most lines a book file may hold: its lines are stored with each run, so that the database
says what was played."""
MAX_BOOK_BYTES = 1_000_000

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


def book_line(seed: int, plies: int, book: tuple[str, ...] | None = None) -> list[chess.Move]:
    """The first ``plies`` half-moves of the line of ``book`` (None: the built-in one) that
    ``seed`` picks (none for 0 plies)."""
    lines = BOOK if book is None else book
    check_book_plies(plies, lines, ValueError)
    if not plies:
        return []
    line = lines[random.Random(seed).randrange(len(lines))]
    return [chess.Move.from_uci(text) for text in line.split()[:plies]]


def check_book_plies(plies, lines: tuple[str, ...], error: type[ValueError] = UsageError) -> None:
    """Raises ``error`` unless ``plies`` is a count of half-moves that every line has."""
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_BOOK_PLIES:
        raise error(f"book plies must be in 0..{MAX_BOOK_PLIES} ({BOOK_PLIES_WHY}), got {plies!r}")
    if not lines:
        raise error("the opening book has no lines")
    shortest = min(len(line.split()) for line in lines)
    if plies > shortest:
        whose = "the built-in book's lines" if lines is BOOK else "the book's shortest line"
        raise error(f"book plies ({plies}) exceed the {shortest} half-moves of {whose}")


def load_book(path: str | Path) -> tuple[str, ...]:
    """The lines of a book file: one opening per line, UCI half-moves separated by spaces, each
    legal from the start; blank lines and ``#`` comments are skipped. A mistake names its line."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BOOK_BYTES:
            raise UsageError(f"the book {path} has {size:,} bytes; at most {MAX_BOOK_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read the book {path}: {error}") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.split("#", 1)[0].split())
        if not line:
            continue
        _check_legal(line, f"the book {path}, line {number}")
        lines.append(line)
        if len(lines) > MAX_BOOK_LINES:
            raise UsageError(f"the book {path} has more than {MAX_BOOK_LINES:,} lines")
    if not lines:
        raise UsageError(f"the book {path} has no lines")
    return tuple(lines)


def check_book(lines) -> None:
    """Raises :class:`UsageError` unless ``lines`` (a book given to the library) is a tuple of
    at most :data:`MAX_BOOK_LINES` lines, each legal from the start."""
    if not isinstance(lines, tuple) or not all(isinstance(line, str) for line in lines):
        raise UsageError(f"a book is a tuple of lines of UCI moves, got {type(lines).__name__}")
    if not 1 <= len(lines) <= MAX_BOOK_LINES:
        raise UsageError(f"a book has 1..{MAX_BOOK_LINES:,} lines, got {len(lines):,}")
    for number, line in enumerate(lines, start=1):
        _check_legal(line, f"the book's line {number}")


def _check_legal(line: str, where: str) -> None:
    board, played = chess.Board(), []
    for text in line.split():
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise UsageError(f"{where}: {text!r} is not a UCI move") from None
        if not board.is_legal(move):
            after = " ".join(played) or "the start"
            raise UsageError(f"{where}: {text} is not legal after {after}")
        board.push(move)
        played.append(text)


class BookMove:
    """A player whose move this turn is the book's; its sense and every callback are its own."""

    def __init__(self, player, move: chess.Move):
        self._player, self._move = player, move

    def choose_move(self, move_actions, seconds_left) -> chess.Move:
        return self._move

    def __getattr__(self, name):
        return getattr(self._player, name)
