"""The bot's knowledge of the board: an exact board set, the log of what it observed, and the way
back to a consistent set when an observation fits no board.

Tracking is exact while the set stays under its bound. An opponent move that would expand it past
the bound is applied to a seeded sample of its boards instead (counted in ``approximations``),
which may lose the true board; a later observation that fits no board then rebuilds the set from
the log (counted in ``recoveries``), skipping what no board fits. So is an opponent move whose
expansion would take longer than the clock allows it (``observe``'s ``seconds``): the expansion's
time is linear in the boards expanded, at a rate the tracker measures over the game.
"""

from __future__ import annotations

import logging
import random
import time

import chess
import numpy as np

from fogsearch import FogsearchError
from fogsearch.observations import MoveResult, Observation, OpponentMoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError

log = logging.getLogger("fogsearch.bot")

EXPANSION_FACTOR = 32
"""About 30 opponent replies per board: a sample this many times smaller should fit."""
SECONDS_PER_PARENT = 2e-5
"""What expanding one board by the opponent's moves takes before the game has measured it: 15-21
microseconds on one core with the opponent model, whatever the set's size (5,000 boards in 0.09
s, 368,113 in 5.8 s, making 3.3 M), 8-12 without it. The time follows the boards expanded,
not the boards made: per board made it grew fivefold from 250 thousand made to 3.3 M."""
LEAST_CLOCK_PARENTS = 2_000
"""A clock this short still expands this many boards (tens of milliseconds)."""
RATE_PARENTS = 1_000
"""Expansions of fewer boards are not timed for the rate: fixed costs would dominate."""
RATE_SMOOTHING = 0.5
"""The weight of the latest timed expansion in the running rate."""


def likeliest(weights: np.ndarray, size: int, tie_break: np.ndarray) -> np.ndarray:
    """The indices of the ``size`` largest ``weights``, largest first, equal weights in the order
    of ``tie_break`` (as ``np.lexsort((tie_break, -weights))[:size]``), in time linear in the
    set: a full sort of a set of millions took a second of the turn."""
    count = len(weights)
    if size >= count:
        return np.lexsort((tie_break, -weights))
    threshold = np.partition(weights, count - size)[count - size]  # the size-th largest
    above = np.flatnonzero(weights > threshold)
    tied = np.flatnonzero(weights == threshold)
    tied = tied[np.argsort(tie_break[tied], kind="stable")[: size - len(above)]]
    chosen = np.concatenate([above, tied])
    return chosen[np.lexsort((tie_break[chosen], -weights[chosen]))]


def uniform_sample(board_set: BoardSet, size: int, rng: random.Random) -> BoardSet:
    """``board_set``, or a uniform sample of ``size`` of its boards drawn with ``rng`` when it is
    larger."""
    boards = len(board_set)
    if boards <= size:
        return board_set
    return board_set.subset(rng.sample(range(boards), size))


def weighted_sample(
    board_set: BoardSet, size: int, rng: random.Random, modelled: bool
) -> tuple[BoardSet, np.ndarray]:
    """At most ``size`` boards of ``board_set`` with their weights (summing to 1): without an
    opponent model (``modelled`` False), a uniform sample with equal weights; with one, the
    ``size`` likeliest boards (equal weights in an order drawn with ``rng``)."""
    if not modelled:
        boards = uniform_sample(board_set, size, rng)
        return boards, np.full(len(boards), 1.0 / len(boards))
    weights = board_set.weights()
    if len(weights) <= size:
        return board_set, weights
    tie_break = np.random.default_rng(rng.getrandbits(64)).random(len(weights))
    chosen = likeliest(weights, size, tie_break)
    kept = weights[chosen]
    return board_set.subset(chosen.tolist()), kept / kept.sum()


class Tracker:
    """The board set of the player of ``color``, capped at ``max_boards``, with its log.
    ``rng`` draws the samples (shared with the bot, so a seeded game is reproducible);
    ``threads`` expand the set; ``opponent_model`` (``(temperature_cp, uniform_share)`` or
    ``None``) weighs its boards (:meth:`fogsearch.rbc.BoardSet.set_opponent_model`)."""

    def __init__(
        self,
        color: chess.Color,
        max_boards: int,
        rng: random.Random,
        threads: int | None = None,
        opponent_model: tuple[float, float] | None = None,
    ):
        self.color = color
        self.max_boards = max_boards
        self.rng = rng
        self.threads = threads
        self.opponent_model = opponent_model
        self.board_set = self._new_set()
        self.log: list[Observation] = []
        self.recoveries = 0
        self.approximations = 0
        self._deadline: float | None = None
        """When the clock's share for the expansion under way runs out (monotonic seconds)."""
        self.seconds_per_parent = SECONDS_PER_PARENT
        """The measured time of expanding one board by the opponent's moves (a running average
        over this game's expansions)."""
        self.growth: float | None = None
        """Boards made per board expanded in the last exact expansion of
        :data:`RATE_PARENTS` boards or more."""

    def _new_set(self, fens: list[str] | None = None) -> BoardSet:
        board_set = BoardSet(
            self.color, fens=fens, threads=self.threads, max_boards=self.max_boards
        )
        if self.opponent_model is not None:
            board_set.set_opponent_model(*self.opponent_model)
        return board_set

    def observe(self, observation: Observation, seconds: float | None = None) -> None:
        """Applies ``observation`` to the set; if no board fits it, rebuilds the set from the log.
        ``seconds`` bounds an opponent move's expansion: a set that would take longer at the
        measured rate is expanded from a seeded uniform sample of as many boards as fit (at least
        :data:`LEAST_CLOCK_PARENTS`), counted in ``approximations``."""
        self.log.append(observation)
        board_set = self.board_set
        self._deadline = None
        if seconds is not None and isinstance(observation, OpponentMoveResult):
            board_set = self._fit_clock(board_set, seconds)
            self._deadline = time.monotonic() + seconds
        try:
            parents, approximations = len(board_set), self.approximations
            began = time.monotonic()
            self.board_set = self._apply(board_set, observation)
            if (
                isinstance(observation, OpponentMoveResult)
                and approximations == self.approximations
            ):
                self._time_expansion(parents, len(self.board_set), time.monotonic() - began)
        except FogsearchError as exc:
            log.warning("observation %r is inconsistent with the board set: %s", observation, exc)
            self.recoveries += 1
            self.board_set = self.rebuild()
        finally:
            self._deadline = None

    def _fit_clock(self, board_set: BoardSet, seconds: float) -> BoardSet:
        """``board_set``, or the sample of it whose expansion fits ``seconds`` at the measured
        rate."""
        fits = max(LEAST_CLOCK_PARENTS, int(seconds / self.seconds_per_parent))
        boards = len(board_set)
        if boards <= fits:
            return board_set
        self.approximations += 1
        log.warning(
            "expanding %d boards would take about %.1f s, more than the clock allows (%.1f s): "
            "expanding a sample of %d (tracking is approximate from here)",
            boards,
            boards * self.seconds_per_parent,
            seconds,
            fits,
        )
        return self._expansion_sample(board_set, fits)

    def _expansion_sample(self, board_set: BoardSet, size: int) -> BoardSet:
        """A seeded uniform sample of ``size`` boards to expand, kept in the set's order: the
        same 300,000 boards expanded in 6.0 s in the set's order and 9.3 s in the order drawn."""
        return board_set.subset(sorted(self.rng.sample(range(len(board_set)), size)))

    def _time_expansion(self, parents: int, children: int, seconds: float) -> None:
        if parents >= RATE_PARENTS:
            latest = seconds / parents
            self.seconds_per_parent += RATE_SMOOTHING * (latest - self.seconds_per_parent)
            self.growth = children / parents

    def _expected_past_bound(self, boards: int, observation: Observation) -> bool:
        """Whether expanding ``boards`` boards by the opponent's moves would pass the bound at the
        last growth measured. Such an expansion is refused only once it has passed the bound, so
        trying it anyway costs the time of making ``max_boards`` boards (4 M: 5-9 s on one core)
        before the sample is expanded."""
        predicted = boards * (self.growth or 0.0)
        return isinstance(observation, OpponentMoveResult) and predicted > self.max_boards

    def rebuild(self) -> BoardSet:
        """Replays the log from the start, skipping any observation no board fits, so the set again
        holds every board consistent with the rest of what was seen (a superset of the truth when
        an observation was wrong). Never returns an empty set."""
        rebuilt = self._new_set()
        for observation in self.log:
            try:
                rebuilt = self._apply(rebuilt, observation)
            except FogsearchError:
                if isinstance(observation, MoveResult):
                    rebuilt = self._force_own_move(rebuilt, observation)
        return rebuilt

    def sample(self, size: int) -> BoardSet:
        """The set, or a seeded uniform sample of ``size`` of its boards when it is larger."""
        return uniform_sample(self.board_set, size, self.rng)

    def weighted_sample(self, size: int) -> tuple[BoardSet, np.ndarray]:
        """:func:`weighted_sample` of the set, with the tracker's generator."""
        return weighted_sample(self.board_set, size, self.rng, self.opponent_model is not None)

    def _apply(self, board_set: BoardSet, observation: Observation) -> BoardSet:
        """``board_set`` after one observation: the same set updated exactly, or, when an opponent
        move would expand it past the bound (or is expected to at the last growth measured), that
        move applied to a seeded sample of its boards, small enough for the expansion to fit."""
        boards = len(board_set)
        if not self._expected_past_bound(boards, observation):
            try:
                observation.apply(board_set)
                return board_set
            except BoardSetTooLargeError:
                pass
        keep = max(1, min(boards - 1, self.max_boards // EXPANSION_FACTOR))
        if self._deadline is not None:
            # The refused expansion ran until it passed the bound (seconds, at millions of
            # boards): the sample gets only what is left of the clock's share.
            left = self._deadline - time.monotonic()
            keep = min(keep, max(LEAST_CLOCK_PARENTS, int(left / self.seconds_per_parent)))
        while True:
            sample = self._expansion_sample(board_set, keep)
            try:
                observation.apply(sample)
                break
            except BoardSetTooLargeError:
                if keep == 1:
                    raise
                keep //= 2
        self.approximations += 1
        log.warning(
            "%r would grow %d boards past max_tracked_boards=%d; applied to a sample of %d "
            "(tracking is approximate from here: %d boards)",
            observation,
            boards,
            self.max_boards,
            keep,
            len(sample),
        )
        return sample

    def _force_own_move(self, board_set: BoardSet, move: MoveResult) -> BoardSet:
        """Our own move is certain even when its observation fits no board: apply the taken move
        wherever it is possible, and drop only boards where it is not."""
        boards = []
        for board in board_set.to_boards():
            taken = (
                move.taken if move.taken is not None and board.is_pseudo_legal(move.taken) else None
            )
            if move.captured_opponent_piece and move.capture_square is not None:
                board.remove_piece_at(move.capture_square)
            board.push(taken or chess.Move.null())
            boards.append(board.fen())
        if not boards:
            board = chess.Board()
            board.turn = not self.color
            boards.append(board.fen())
        return self._new_set(boards)
