"""The bot's knowledge of the board: an exact board set, the log of what it observed, and the way
back to a consistent set when an observation fits no board.

Tracking is exact while the set stays under its bound. An opponent move that would expand it past
the bound is applied to a seeded sample of its boards instead (counted in ``approximations``),
which may lose the true board; a later observation that fits no board then rebuilds the set from
the log (counted in ``recoveries``), skipping what no board fits.
"""

from __future__ import annotations

import logging
import random

import chess
import numpy as np

from fogsearch import FogsearchError
from fogsearch.observations import MoveResult, Observation
from fogsearch.rbc import BoardSet, BoardSetTooLargeError

log = logging.getLogger("fogsearch.bot")

EXPANSION_FACTOR = 32
"""About 30 opponent replies per board: a sample this many times smaller should fit."""


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
    ``threads`` expand the set; ``opponent_model`` (``(temperature_cp, uniform_share,
    threat_weight)`` or ``None``) weighs its boards (:meth:`fogsearch.rbc.BoardSet.set_opponent_model`)."""

    def __init__(
        self,
        color: chess.Color,
        max_boards: int,
        rng: random.Random,
        threads: int | None = None,
        opponent_model: tuple[float, float, float] | None = None,
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

    def _new_set(self, fens: list[str] | None = None) -> BoardSet:
        board_set = BoardSet(
            self.color, fens=fens, threads=self.threads, max_boards=self.max_boards
        )
        if self.opponent_model is not None:
            board_set.set_opponent_model(*self.opponent_model)
        return board_set

    def observe(self, observation: Observation) -> None:
        """Applies ``observation`` to the set; if no board fits it, rebuilds the set from the log."""
        self.log.append(observation)
        try:
            self.board_set = self._apply(self.board_set, observation)
        except FogsearchError as exc:
            log.warning("observation %r is inconsistent with the board set: %s", observation, exc)
            self.recoveries += 1
            self.board_set = self.rebuild()

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

    def observe_prepared(self, observation: Observation, board_set: BoardSet) -> None:
        """Logs ``observation`` and takes ``board_set`` as the set it leaves: the same set that
        :meth:`observe` would have computed (the bot's pondering made it ahead)."""
        self.log.append(observation)
        self.board_set = board_set

    def _apply(self, board_set: BoardSet, observation: Observation) -> BoardSet:
        """``board_set`` after one observation: the same set updated exactly, or, when an opponent
        move would expand it past the bound, that move applied to a seeded sample of its boards,
        small enough for the expansion to fit."""
        try:
            observation.apply(board_set)
            return board_set
        except BoardSetTooLargeError:
            boards = len(board_set)
        keep = max(1, min(boards - 1, self.max_boards // EXPANSION_FACTOR))
        while True:
            sample = board_set.subset(self.rng.sample(range(boards), keep))
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
