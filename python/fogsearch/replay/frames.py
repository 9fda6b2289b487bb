"""Both sides of a game replayed through exact board sets, and per turn and side what the page
draws: the true board, the sense and its result, the move, the set sizes and the belief heatmap.

The heatmap is the side's set after its sense (the boards its move was chosen on): per square,
the share of boards holding each opponent piece type (:meth:`BoardSet.square_distribution`),
uniform over the set and, for the side whose bot log is given, weighted by the bot's opponent
model. Shares are stored in units of 1/10,000 so that a 100-turn page stays small.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import groupby

import chess
import numpy as np
from reconchess import GameHistory
from reconchess.history import Turn

from fogsearch.bot.config import OpponentModel
from fogsearch.observations import MoveResult, OpponentMoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError, FogsearchError
from fogsearch.replay.reading import ReplayError
from fogsearch.tracking import TRACK_MAX_BOARDS, Seen, observations

SHARE_UNITS = 10_000
"""Shares are stored as whole numbers of 1/SHARE_UNITS."""
LOW_TRUTH_SHARE = 0.1
"""A turn where the true board's share of the side's set falls below this is marked."""
PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
OPPONENT_MODEL = OpponentModel().model
"""The fogsearch bot's default opponent model (:class:`fogsearch.bot.OpponentModel`)."""


@dataclass
class Frame:
    """One side's turn as the page shows it. Squares are 0 (a1) … 63 (h8)."""

    turn: int  # 1, 2, … (White's and Black's k-th turns are both turn k)
    color: chess.Color
    truth: str  # the true board before the move (FEN)
    opponent_capture: int | None  # where the opponent took one of our pieces just before
    sense: int | None = None
    sense_result: list[tuple[int, str | None]] = field(default_factory=list)
    requested: str | None = None
    taken: str | None = None
    capture: int | None = None  # where our move captured
    before_sense: int | None = None  # set sizes; None once tracking stopped
    after_sense: int | None = None
    after_move: int | None = None
    truth_share: float | None = None  # the true board's share of the set after the sense
    belief: list[list[int]] | None = None  # [piece type 1..6 - 1][square], opponent's pieces
    model_belief: list[list[int]] | None = None
    model_truth_share: float | None = None
    lost_material: bool = False
    log: dict | None = None
    stopped: str | None = None

    fell_below: bool = False  # the true board's share fell below LOW_TRUTH_SHARE this turn

    @property
    def share(self) -> float | None:
        """The true board's share, weighted where the set keeps weights."""
        return self.model_truth_share if self.model_truth_share is not None else self.truth_share

    @property
    def marked(self) -> bool:
        return self.lost_material or self.fell_below


def game_frames(
    history: GameHistory,
    logs: dict[chess.Color, list[dict]] | None = None,
    max_boards: int = TRACK_MAX_BOARDS,
) -> dict[chess.Color, list[Frame]]:
    """Per side, a frame per turn it played. ``logs``: the bot's per-turn log entries by colour
    (that side's beliefs are also weighted by the opponent model)."""
    logs = logs or {}
    return {
        color: side_frames(history, color, logs.get(color), max_boards)
        for color in (chess.WHITE, chess.BLACK)
    }


def side_frames(
    history: GameHistory, color: chess.Color, log: list[dict] | None, max_boards: int
) -> list[Frame]:
    board_set: BoardSet | None = BoardSet(color, max_boards=max_boards)
    if log is not None and OPPONENT_MODEL is not None:
        board_set.set_opponent_model(*OPPONENT_MODEL)
    frames: list[Frame] = []
    material = None
    for turn_number, seen in groupby(observations(history, color), key=lambda s: s.turn_number):
        seen = list(seen)
        frame = Frame(turn_number + 1, color, seen[0].truth_fen, None)
        lost = _material(seen[0].truth_fen, color)
        frame.lost_material = material is not None and lost < material
        turn = Turn(color, turn_number)
        frame.sense = history.sense(turn) if history.has_sense(turn) else None
        material = lost
        if log is not None and turn_number < len(log):
            frame.log = log[turn_number]
        board_set = _replay_turn(frame, seen, board_set)
        before = frames[-1].share if frames else 1.0
        frame.fell_below = (
            frame.share is not None
            and frame.share < LOW_TRUTH_SHARE
            and (before is None or before >= LOW_TRUTH_SHARE)
        )
        frames.append(frame)
    return frames


def _replay_turn(frame: Frame, seen: list[Seen], board_set: BoardSet | None) -> BoardSet | None:
    """Fills ``frame`` from the turn's observations, applying them to ``board_set``; the set
    after the turn, or None once tracking has stopped."""
    for obs in seen:
        o = obs.observation
        if isinstance(o, OpponentMoveResult):
            frame.opponent_capture = o.capture_square
        elif isinstance(o, MoveResult):
            frame.requested = o.requested.uci() if o.requested else None
            frame.taken = o.taken.uci() if o.taken else None
            frame.capture = o.capture_square
        else:
            frame.sense_result = [(sq, p.symbol() if p else None) for sq, p in o.result]
        if board_set is None:
            continue
        if isinstance(o, MoveResult):
            _draw_belief(frame, board_set, frame.truth)
        try:
            obs.apply(board_set)
        except BoardSetTooLargeError as exc:
            frame.stopped = f"tracking stopped: {exc}"
            board_set = None
            continue
        except FogsearchError as exc:
            raise ReplayError(
                f"turn {frame.turn} ({chess.COLOR_NAMES[frame.color]}): the observations "
                f"contradict each other ({exc})"
            ) from None
        if obs.truth_fen not in board_set:
            raise ReplayError(
                f"turn {frame.turn} ({chess.COLOR_NAMES[frame.color]}): the true board is not "
                "among the boards the observations allow"
            )
        size = len(board_set)
        if isinstance(o, OpponentMoveResult):
            frame.before_sense = frame.after_sense = size
        elif isinstance(o, MoveResult):
            frame.after_move = size
        else:
            frame.after_sense = size
    if board_set is not None and frame.belief is None:  # a last turn without a move
        _draw_belief(frame, board_set, frame.truth)
    return board_set


def _draw_belief(frame: Frame, board_set: BoardSet, truth_fen: str) -> None:
    """The opponent's pieces' shares over the set as it is now (uniform, and weighted where the
    set keeps weights), and the true board's share of the set."""
    opponent = 7 if frame.color == chess.WHITE else 1  # the opponent's pawn column
    frame.belief = _units(board_set.square_distribution(), opponent)
    # The replay checks after every observation that the true board is in the set.
    frame.truth_share = 1.0 / len(board_set)
    if board_set.opponent_model is not None:
        weights = board_set.weights()
        frame.model_belief = _units(board_set.square_distribution(weights), opponent)
        index = _truth_index(board_set, truth_fen)
        frame.model_truth_share = None if index is None else float(weights[index])


def _units(distribution: np.ndarray, first_column: int) -> list[list[int]]:
    shares = distribution[:, first_column : first_column + 6].T
    return np.rint(shares * SHARE_UNITS).astype(int).tolist()


def _truth_index(board_set: BoardSet, truth_fen: str) -> int | None:
    key = BoardSet(board_set.color, [truth_fen]).zobrist_keys()[0]
    found = np.flatnonzero(board_set.zobrist_keys() == key)
    return int(found[0]) if len(found) else None


def _material(fen: str, color: chess.Color) -> int:
    board = chess.Board(fen)
    return sum(len(board.pieces(p, color)) * v for p, v in PIECE_VALUES.items())


def frame_order(frames: dict[chess.Color, list[Frame]]) -> Iterator[Frame]:
    """The frames in the order the turns were played."""
    for white, black in zip(frames[chess.WHITE], frames[chess.BLACK] + [None], strict=False):
        yield white
        if black is not None:
            yield black
