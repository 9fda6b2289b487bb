"""Where the bot lost material in a stored game, and what it believed when it did.

For every turn of ours after which the opponent's reply lowered our material on the true board
(a capture of one of our pieces, the king included), the row gives the true material before our
move, after it and after the reply; the reply; and what we believed after our move: the board set
replayed exactly from our observations (:class:`fogsearch.rbc.BoardSet`, with the bot's opponent
model for its weights), the share of its boards (and of its weight) on which the reply that took
our piece was a pseudo-legal move, and the share on which the lost piece's square was attacked.
With the bot's turn log, the row adds what the bot weighed that turn: its value, search depth and
time, and the best requests with their values where the log lists them.

A set that would grow past ``max_boards`` stops the replay: its later turns show no belief (the
bot itself then tracked a sample). Shares over a set larger than ``share_boards`` are counted on
an even stride of that many of its boards.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import chess
import numpy as np
from reconchess import GameHistory
from reconchess.history import Turn

from fogsearch.bot.config import OpponentModel
from fogsearch.bot.requests import MATERIAL_CP
from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.tracking import observations

KING_CP = 100_000
"""A lost king weighs more than any material: the game is over."""
DEFAULT_MAX_BOARDS = 4_000_000
"""The bot's own ``max_tracked_boards``: past it the bot's set was a sample too."""
DEFAULT_SHARE_BOARDS = 20_000
"""Boards read (through python-chess) per share: tens of thousands take a few seconds."""
DEFAULT_MODEL = OpponentModel().model
"""The bot's default opponent model, as :meth:`fogsearch.rbc.BoardSet.set_opponent_model`
takes it."""


def material(board: chess.Board, color: chess.Color) -> int:
    """``color``'s material minus the other side's, in centipawns; a missing king counts
    ``KING_CP``."""
    values = {**MATERIAL_CP, chess.KING: KING_CP}
    return sum(
        value * (len(board.pieces(kind, color)) - len(board.pieces(kind, not color)))
        for kind, value in values.items()
    )


@dataclass
class Belief:
    """What the set after our move said about the reply that took our piece."""

    boards: int
    reply_share: float
    """Share of the boards on which the reply was a pseudo-legal move."""
    reply_weight: float | None
    """The same, weighted by the opponent model (None without one)."""
    attacked_share: float
    """Share of the boards on which the opponent attacked the lost piece's square."""
    counted: int
    """Boards the shares were counted on (all of them, or an even stride)."""


@dataclass
class Loss:
    turn: int
    """Our turn, counted from 1 as the bot's log counts it."""
    requested: str | None
    taken: str | None
    material_before: int
    """Our true material before our move, then after it, then after the opponent's reply."""
    material_after_move: int
    material_after_reply: int
    material_after_next: int | None
    """Our true material after our next move (a recapture shows here); None when the game ended."""
    reply: str
    lost: str
    """The piece the reply took, and where (``"R d2"``)."""
    belief: Belief | None
    """None where the replay stopped (the set too large)."""
    log: dict = field(default_factory=dict)
    """The bot's turn log line for this turn (value, depth, top requests), if given."""

    @property
    def lost_cp(self) -> int:
        return self.material_after_move - self.material_after_reply


def _opponent_turn_after(turn: Turn) -> Turn:
    return Turn(not turn.color, turn.turn_number + (0 if turn.color == chess.WHITE else 1))


def _after_next_move(history: GameHistory, color: chess.Color, reply_turn: Turn) -> int | None:
    following = reply_turn.next
    if not history.has_move(following):
        return None
    return material(history.truth_board_after_move(following), color)


def counted_boards(board_set: BoardSet, most: int) -> BoardSet:
    """``board_set``, or at most ``most`` of its boards spread evenly over it when larger: the
    boards a share is counted on (reading tens of thousands through python-chess takes
    seconds)."""
    if len(board_set) <= most:
        return board_set
    return board_set.subset(np.linspace(0, len(board_set) - 1, most).round().astype(int).tolist())


def belief_about(board_set: BoardSet, reply: chess.Move, share_boards: int) -> Belief:
    """The shares of ``board_set`` (opponent to move) on which ``reply`` was possible and on
    which its target square was attacked."""
    counted = counted_boards(board_set, share_boards)
    boards = counted.to_boards()
    weights = counted.weights() if counted.opponent_model is not None else None
    possible = np.array([board.is_pseudo_legal(reply) for board in boards])
    attacked = np.array([board.is_attacked_by(board.turn, reply.to_square) for board in boards])
    # An e.p. capture takes a pawn beside the target square; the mover attacks it either way.
    return Belief(
        boards=len(board_set),
        reply_share=float(possible.mean()),
        reply_weight=float(weights[possible].sum()) if weights is not None else None,
        attacked_share=float(attacked.mean()),
        counted=len(boards),
    )


def losses(
    history: GameHistory,
    color: chess.Color,
    turn_log: dict[int, dict] | None = None,
    *,
    max_boards: int = DEFAULT_MAX_BOARDS,
    share_boards: int = DEFAULT_SHARE_BOARDS,
    opponent_model: tuple[float, float] | None = DEFAULT_MODEL,
) -> list[Loss]:
    """The turns of ``color`` in ``history`` after which the opponent's reply lowered its true
    material (:class:`Loss`, in turn order). ``turn_log``: :func:`fogsearch.bot.turnlog.
    read_turn_log` of the bot's log, by turn."""
    board_set: BoardSet | None = BoardSet(color, max_boards=max_boards)
    if opponent_model is not None:
        board_set.set_opponent_model(*opponent_model)
    found = []
    for seen in observations(history, color):
        if board_set is not None:
            try:
                seen.apply(board_set)
            except BoardSetTooLargeError:
                board_set = None
        if not isinstance(seen.observation, MoveResult):
            continue
        ours = Turn(color, seen.turn_number)
        reply_turn = _opponent_turn_after(ours)
        if not history.has_move(reply_turn) or history.taken_move(reply_turn) is None:
            continue
        after_move = chess.Board(seen.truth_fen)
        after_reply = history.truth_board_after_move(reply_turn)
        if material(after_reply, color) >= material(after_move, color):
            continue
        reply = history.taken_move(reply_turn)
        square = history.capture_square(reply_turn)
        piece = after_move.piece_at(square) if square is not None else None
        move = seen.observation
        found.append(
            Loss(
                turn=seen.turn_number + 1,
                requested=move.requested.uci() if move.requested else None,
                taken=move.taken.uci() if move.taken else None,
                material_before=material(history.truth_board_before_move(ours), color),
                material_after_move=material(after_move, color),
                material_after_reply=material(after_reply, color),
                material_after_next=_after_next_move(history, color, reply_turn),
                reply=reply.uci(),
                lost=f"{piece.symbol().upper() if piece else '?'} {chess.square_name(square)}"
                if square is not None
                else "?",
                belief=belief_about(board_set, reply, share_boards) if board_set else None,
                log=(turn_log or {}).get(seen.turn_number + 1, {}),
            )
        )
    return found


def as_json(rows: list[Loss]) -> list[dict]:
    return [dict(dataclasses.asdict(row), lost_cp=row.lost_cp) for row in rows]


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f} %"


def table(rows: list[Loss]) -> str:
    """A Markdown table, one row per loss."""
    head = (
        "| turn | our move | material before / after / after reply / after next | reply | lost "
        "| boards "
        "| reply possible | weighted | lost square attacked | value | depth/plies | search s "
        "| best requests |"
    )
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    for row in rows:
        belief, log = row.belief, row.log
        taken = row.taken or "pass"
        move = row.requested if row.requested == row.taken else f"{row.requested} → {taken}"
        top = ", ".join(f"{r} {v}" for r, v in log.get("top") or [])
        depth = log.get("depth") or log.get("plies")
        lines.append(
            f"| {row.turn} | {move or 'pass'} | {row.material_before:+d} / "
            f"{row.material_after_move:+d} / {row.material_after_reply:+d} / "
            f"{'-' if row.material_after_next is None else f'{row.material_after_next:+d}'} | "
            f"{row.reply} | "
            f"{row.lost} | {belief.boards if belief else '> max'} | "
            f"{_percent(belief.reply_share if belief else None)} | "
            f"{_percent(belief.reply_weight if belief else None)} | "
            f"{_percent(belief.attacked_share if belief else None)} | "
            f"{log.get('value', '-')} | {depth if depth is not None else '-'} | "
            f"{_seconds(log.get('search_seconds'))} | {top or '-'} |"
        )
    return "\n".join(lines)


def _seconds(value) -> str:
    """A logged time as the table shows it: two decimals (the log keeps the full float)."""
    return (
        f"{value:.2f}" if isinstance(value, int | float) else "-" if value is None else str(value)
    )
