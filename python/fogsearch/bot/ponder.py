"""What the bot does on the opponent's turn (``while_we_wait``): the work of its own coming turn
that does not depend on the opponent's move result, done in short slices and reused, or dropped
when it no longer applies.

A slice at a time (the caller loops ``while_we_wait``; each slice is one expansion or the board
table of a few boards, tenths of a second):

1. the set expanded by the opponent's moves for "no capture", the commonest result, and its
   sense statistics;
2. the sense decision's board table (:func:`fogsearch.bot.sensing.decision_sense`) on the boards
   the sense would judge: the likeliest boards of that set, drawn with a copy of the bot's random
   generator, searched to the sense's plies a few boards per slice with no deadline (each board's
   values are its own, so the pieces join into the table one call would give);
3. the same for a capture on each square of ours, likeliest attacked first: the expansions and
   their statistics, then their tables.

Reuse is checked, not assumed: an expansion is used only if the set has not changed since it
was made (the tracker's log is as long), and for that very observation; the table only for the
very boards, in the same order, that the sense then judges. Anything else is dropped. Nothing
here draws from the bot's generator or changes what it decides when its own searches complete:
the reused work is what the turn would have computed.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator

import chess
import numpy as np

from fogsearch import FogsearchError
from fogsearch.bot.tracker import Tracker, weighted_sample
from fogsearch.observations import OpponentMoveResult
from fogsearch.rbc import BoardSet
from fogsearch.search import BoardTable, board_table

log = logging.getLogger("fogsearch.bot")

PONDER_MAX_BOARDS = 10_000
"""Larger sets are not expanded ahead: one expansion (and its sense statistics) would no longer
be a short slice. Children cost about 0.3 microseconds each on one core (6,668 boards made
122,945 in 0.04 s), and a set makes up to about 30 times its boards; 13,803 boards made 265,495 in a 0.9 s slice on a
loaded machine."""
TABLE_SLICE_BOARDS = 2
"""Boards in the first slice of each sense table; later slices take as many boards as the last
slice's time per board says fit ``SLICE_SECONDS``, at most ``MOST_SLICE_BOARDS``."""
MOST_SLICE_BOARDS = 8
"""Boards differ tenfold in search time: 16 boards at two plies took up to 1.5 s in a middle
game, and slices grown to 64 on quick boards took up to 3 s on the next set's."""
SLICE_SECONDS = 0.2
"""What one slice of the table aims to take."""
IDLE_WAIT_SECONDS = 0.02
"""``while_we_wait`` with no work left waits this long: a caller that loops it must not spin a
core the opponent may share."""
ATTACK_SAMPLE = 64
"""Boards read to order our squares by how often the opponent attacks them."""


class Ponder:
    """The opponent's turn's work for our next turn (see the module's docstring)."""

    def __init__(self) -> None:
        self.drop()

    def drop(self) -> None:
        self._steps: Iterator[None] | None = None
        self._stamp = -1
        self._sets: dict[chess.Square | None, BoardSet] = {}
        """The set after each opponent move result pondered, by its capture square."""
        self._all_stats: dict[chess.Square | None, dict[int, float]] = {}
        self._tables: dict[chess.Square | None, tuple[np.ndarray, int, BoardTable]] = {}
        self._stats: dict[int, float] | None = None
        self._table: tuple[np.ndarray, int, BoardTable] | None = None
        """The sense statistics and table for the result that came, until the sense takes them."""
        self.last_slice: tuple[str, float] = ("", 0.0)
        """What the last slice did and how long it took (for the benchmark)."""
        self.reused: list[str] = []
        """What the last turn reused (``"set"``, ``"stats"``, ``"table"``), for the turn log."""

    def start(
        self, tracker: Tracker, rng: random.Random, sample_size: int, plies: int, threads: int
    ) -> None:
        """Plans the work for the opponent's coming turn, from the set as our turn ends."""
        self.drop()
        self._stamp = len(tracker.log)
        if len(tracker.board_set) <= PONDER_MAX_BOARDS:
            state = rng.getstate()
            self._steps = self._work(tracker, state, sample_size, plies, threads)

    @property
    def busy(self) -> bool:
        """Whether work is left for the opponent's turn."""
        return self._steps is not None

    def step(self) -> bool:
        """One slice of the work; False when none is left."""
        if self._steps is None:
            return False
        began = time.monotonic()
        done = next(self._steps, StopIteration)
        if done is StopIteration:
            self._steps = None
        else:
            self.last_slice = (str(done), time.monotonic() - began)
        return self._steps is not None

    def _work(self, tracker: Tracker, state, size: int, plies: int, threads: int):
        """No capture first (expansion, statistics, table), then every capture square's
        expansion and statistics, likeliest attacked first, then their tables."""
        parent = tracker.board_set
        modelled = tracker.opponent_model is not None
        squares: list[chess.Square | None] = [None, *_our_squares_by_attacks(parent)]
        for at, square in enumerate(squares):
            children = self._expand(parent, square)
            if children is not None:
                self._all_stats[square] = children.sense_stats()
            yield f"expansion of {len(parent)} boards to {len(children) if children else 0}"
            if at == 0 and children is not None and plies > 0:
                yield from self._sense_table(None, children, state, size, plies, threads, modelled)
        for square in squares[1:]:
            if square in self._sets and plies > 0:
                children = self._sets[square]
                yield from self._sense_table(
                    square, children, state, size, plies, threads, modelled
                )

    def _expand(self, parent: BoardSet, square: chess.Square | None) -> BoardSet | None:
        children = parent.copy()
        try:
            OpponentMoveResult(square is not None, square).apply(children)
        except FogsearchError:  # too large, or no board fits: the turn does it as without pondering
            return None
        self._sets[square] = children
        return children

    def _sense_table(self, square, children, state, size, plies, threads, modelled):
        """The sense's table on the boards it would judge after ``square``'s result: drawn with
        the bot's generator as it stands now, which nothing draws from before the sense."""
        rng = random.Random()
        rng.setstate(state)
        boards, _ = weighted_sample(children, size, rng, modelled)
        if len(boards) < 2:
            return
        # The request rows a whole-table call would have: every root request of these boards.
        requests = board_table(boards, most_plies=0, least_plies=0, threads=threads).requests
        values, plies_done, nodes = [], [], 0
        start, count = 0, TABLE_SLICE_BOARDS
        while start < len(boards):
            piece = boards.subset(range(start, min(start + count, len(boards))))
            began = time.monotonic()
            part = board_table(piece, requests, plies, least_plies=None, threads=threads)
            values.append(part.values)
            plies_done.append(part.plies)
            nodes += part.nodes
            start += len(piece)
            count = _next_slice(len(piece), time.monotonic() - began)
            yield f"table of {len(piece)} boards"
        table = BoardTable(
            requests, np.concatenate(values, axis=1), np.concatenate(plies_done), nodes
        )
        self._tables[square] = (boards.zobrist_keys(), plies, table)

    # -- reuse on our turn -----------------------------------------------------------------------
    def observe(
        self, tracker: Tracker, observation: OpponentMoveResult, seconds: float | None = None
    ) -> None:
        """Applies the opponent's move result to the tracker, with the pondered set when it was
        made from the tracker's set as it stands and for this observation; otherwise with
        ``seconds`` for the expansion (:meth:`Tracker.observe`)."""
        self._steps = None
        well_formed = observation.captured_my_piece == (observation.capture_square is not None)
        prepared = (
            self._sets.pop(observation.capture_square, None)
            if well_formed and self._stamp == len(tracker.log)
            else None
        )
        square = observation.capture_square
        self._stats, self._table = self._all_stats.get(square), self._tables.get(square)
        self._sets, self._all_stats, self._tables = {}, {}, {}
        if prepared is None:
            self._stats = self._table = None
            tracker.observe(observation, seconds)
            return
        tracker.observe_prepared(observation, prepared)
        self.reused.append("set")
        self._stamp = len(tracker.log)

    def sense_stats(self, tracker: Tracker) -> dict[int, float]:
        """The set's sense statistics, pondered if they are the set's as it stands."""
        stats, self._stats = self._stats, None
        if stats is not None and self._stamp == len(tracker.log):
            self.reused.append("stats")
            return stats
        return tracker.board_set.sense_stats()

    def sense_table(self, boards: BoardSet, plies: int) -> BoardTable | None:
        """The pondered sense table if it is for exactly ``boards`` (in order) at ``plies``."""
        pondered, self._table = self._table, None
        if pondered is None:
            return None
        keys, at_plies, table = pondered
        if at_plies != plies or not np.array_equal(keys, boards.zobrist_keys()):
            return None
        self.reused.append("table")
        return table


def _our_squares_by_attacks(board_set: BoardSet) -> list[chess.Square]:
    """The squares of our pieces (the same on every board), those the opponent attacks on more of
    a few boards spread over the set first."""
    count = len(board_set)
    boards = [
        chess.Board(board_set.fen(i)) for i in range(0, count, max(1, count // ATTACK_SAMPLE))
    ]
    ours = chess.SquareSet(boards[0].occupied_co[board_set.color])
    attacks = {sq: sum(b.is_attacked_by(not board_set.color, sq) for b in boards) for sq in ours}
    return sorted(ours, key=lambda sq: (-attacks[sq], sq))


def _next_slice(boards: int, seconds: float) -> int:
    """The next table slice's boards, from the last one's ``boards`` and ``seconds``: as many as
    fit ``SLICE_SECONDS`` at its time per board, 1 to ``MOST_SLICE_BOARDS``. Each board's values
    are its own, so the slicing never changes the table."""
    per_board = max(seconds, 1e-6) / boards
    return max(1, min(MOST_SLICE_BOARDS, int(SLICE_SECONDS / per_board)))
