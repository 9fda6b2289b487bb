"""``trout-set``: TroutBot's play (Stockfish's move, TroutBot's senses) on a board that could be
the true one.

reconchess's TroutBot keeps one board: it writes sense results onto it but never moves the
opponent's pieces, so its board drifts from any possible position; once a sense of the square our
king left removes our king from it, Stockfish dies on that board and TroutBot passes every turn
(in 162 of 400 games against fogsearch). This player keeps fogsearch's exact board set instead
(:class:`fogsearch.rbc.BoardSet`) and asks Stockfish about a board drawn from it, so every board
the engine sees is one the observations allow, and the engine has no reason to die.

It senses as TroutBot does: where its piece was just captured; else where the move it is about to
make would capture (on the drawn board); else on a random square without its own piece. It moves
as TroutBot does: it captures the enemy king when the drawn board lets it, else it plays
Stockfish's move (``move_seconds`` a move, and at most ``move_nodes`` nodes when set; a node
limit makes the moves independent of the machine's load, so a seeded game replays exactly).

Load it with reconchess's own tools: ``rc-bot-match fogsearch.opponents.trout_set
reconchess.bots.random_bot``; in a tournament it is the player kind ``trout-set``
(``trout-set:move_seconds=2`` for a stronger engine budget).
"""

from __future__ import annotations

import logging
import math
import random
from dataclasses import dataclass

import chess
import chess.engine
import numpy as np
from reconchess import Color, GameHistory, Player, Square, WinReason

from fogsearch import observations
from fogsearch.bot.config import MAX_TRACKED_BOARDS
from fogsearch.bot.tracker import Tracker
from fogsearch.opponents.stockfish import require_stockfish
from fogsearch.rbc import BoardSet

log = logging.getLogger(__name__)

MAX_MOVE_SECONDS = 600.0
MAX_MOVE_NODES = 10**10


@dataclass
class TroutSetConfig:
    """Settings of :class:`TroutSetBot`."""

    move_seconds: float = 0.5
    """Stockfish's time for each move it is asked for (TroutBot's is 0.5 s). Asked twice on most
    turns (once to choose the sense, once for the move), as TroutBot asks; never more than a
    thirtieth of the clock left, so it does not lose on time."""
    move_nodes: int = 0
    """Also stop Stockfish after this many nodes (0: no node limit). With a node limit that
    binds before ``move_seconds``, Stockfish's move no longer depends on how fast the machine
    runs, and a seeded game replays move for move."""
    seed: int | None = None
    """Seeds the board draws and the random senses; ``None``: drawn at game start from Python's
    ``random``, which the tournament seeds per game, so games differ but each replays."""
    trout_sense_max_boards: int = 1_000
    """TroutBot's senses are kept while the set holds at most this many boards; above, the sense
    is the one that leaves the fewest boards expected. TroutBot's senses (mostly random) hardly
    shrink a set: against RandomBot one grew past 700,000 boards within 23 turns, where the exact
    set no longer fits, and a sampled one soon lost the true board."""
    max_tracked_boards: int = 1_000_000
    """Memory bound of the exact set (about 0.4 GiB at an expansion's peak, at 420 bytes a board).
    An opponent move that would grow the set past it is applied to a seeded sample instead
    (counted in ``approximations``). With the set-shrinking sense above
    ``trout_sense_max_boards`` the set stayed under 25,000 boards in test games against
    RandomBot and AttackerBot."""

    def __post_init__(self) -> None:
        s = self.move_seconds
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s):
            raise ValueError(f"move_seconds must be a number of seconds, got {s!r}")
        if not 0.001 <= s <= MAX_MOVE_SECONDS:
            raise ValueError(
                f"move_seconds must be in 0.001..{MAX_MOVE_SECONDS:g} (Stockfish's time per "
                f"move; ten minutes is more than a game's clock), got {s!r}"
            )
        _check_count(
            self,
            "move_nodes",
            0,
            MAX_MOVE_NODES,
            "0: no limit; at about a million nodes a second, more would be hours a move",
        )
        if self.seed is not None and (
            isinstance(self.seed, bool)
            or not isinstance(self.seed, int)
            or not 0 <= self.seed < 2**64
        ):
            raise ValueError(f"seed must be none or an int in [0, 2**64), got {self.seed!r}")
        _check_count(
            self,
            "max_tracked_boards",
            1_000,
            MAX_TRACKED_BOARDS,
            "more would exceed any machine's memory during an expansion",
        )
        _check_count(
            self,
            "trout_sense_max_boards",
            0,
            self.max_tracked_boards,
            "beyond the tracked bound it would never apply",
        )


def _check_count(config: TroutSetConfig, name: str, least: int, most: int, why: str) -> None:
    value = getattr(config, name)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ValueError(f"{name} must be an int in {least}..{most:,} ({why}), got {value!r}")


class TroutSetBot(Player):
    """TroutBot's senses and Stockfish's moves, on boards drawn from an exact board set."""

    def __init__(self, config: TroutSetConfig | None = None):
        self.config = config or TroutSetConfig()
        self.engine: chess.engine.SimpleEngine | None = None
        self.color: Color = chess.WHITE
        self.rng = random.Random(self.config.seed)
        self.tracker: Tracker | None = None
        self.captured_at: Square | None = None
        self.engine_deaths = 0
        """Times Stockfish died or refused a board (then restarted): 0 unless something is wrong."""

    @property
    def fallbacks(self) -> int:
        """Turns played with a seeded random request because Stockfish died on the drawn board:
        the tournament stores and flags them as fallback turns (they should never happen)."""
        return self.engine_deaths

    @property
    def board_set(self) -> BoardSet:
        """Every board the observations allow (exact up to ``max_tracked_boards``)."""
        return self.tracker.board_set

    @property
    def approximations(self) -> int:
        """Opponent moves applied to a sample of the set because the exact set would not fit."""
        return self.tracker.approximations if self.tracker else 0

    @property
    def recoveries(self) -> int:
        """Observations no board fitted (possible only after an approximation): the set was then
        rebuilt from the observations."""
        return self.tracker.recoveries if self.tracker else 0

    # -- reconchess callbacks ------------------------------------------------------------------
    def handle_game_start(self, color: Color, board: chess.Board, opponent_name: str):
        self.color = color
        seed = self.config.seed if self.config.seed is not None else random.getrandbits(64)
        self.rng = random.Random(seed)
        # The bot's own tracking: exact, with a seeded sample past the bound, and a rebuild from
        # the log should a sample have lost the true board.
        self.tracker = Tracker(color, self.config.max_tracked_boards, self.rng)
        self.captured_at = None
        if self.engine is None:
            self.engine = self._open_engine()

    def handle_opponent_move_result(self, captured_my_piece: bool, capture_square: Square | None):
        self.captured_at = capture_square if captured_my_piece else None
        self.tracker.observe(observations.OpponentMoveResult(captured_my_piece, capture_square))

    def choose_sense(self, sense_actions, move_actions, seconds_left: float) -> Square | None:
        if len(self.board_set) > self.config.trout_sense_max_boards:
            expected = self.board_set.sense_stats()
            shrinking = [sq for sq in sense_actions if sq in expected]
            if shrinking:
                return min(shrinking, key=lambda sq: (expected[sq], sq))
        if self.captured_at is not None and self.captured_at in sense_actions:
            return self.captured_at
        board = self.draw_board()
        move = self._move_on(board, move_actions, seconds_left)
        if move is not None and board.piece_at(move.to_square) is not None:
            return move.to_square  # see whether the capture is there to make
        own = board.occupied_co[self.color]
        candidates = [sq for sq in sense_actions if not own & chess.BB_SQUARES[sq]]
        return self.rng.choice(candidates or list(sense_actions)) if sense_actions else None

    def handle_sense_result(self, sense_result):
        self.tracker.observe(observations.sense_result(sense_result))

    def choose_move(self, move_actions, seconds_left: float) -> chess.Move | None:
        return self._move_on(self.draw_board(), move_actions, seconds_left)

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self.tracker.observe(
            observations.MoveResult(
                requested_move, taken_move, captured_opponent_piece, capture_square
            )
        )

    def handle_game_end(
        self, winner_color: Color | None, win_reason: WinReason | None, game_history: GameHistory
    ):
        self.close()

    def close(self) -> None:
        """Quits Stockfish (the game is over); safe to call again."""
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError):
                pass  # already gone

    # -- moves ---------------------------------------------------------------------------------
    def draw_board(self) -> chess.Board:
        """A board of the set, drawn uniformly with this game's seed, ours to move. The draw is
        by rank of position key, so it does not depend on the order the set keeps its boards."""
        keys = self.board_set.zobrist_keys()
        index = int(np.argsort(keys, kind="stable")[self.rng.randrange(len(keys))])
        (fen,) = self.board_set.subset([index]).fens()
        board = chess.Board(fen)
        board.turn = self.color
        return board

    def _move_on(self, board: chess.Board, move_actions, seconds_left: float) -> chess.Move | None:
        """TroutBot's move on ``board``: capture the enemy king if it stands attacked, else
        Stockfish's move; a seeded random request where Stockfish has none (every move leaves
        our king attacked, which RBC does not forbid) or failed."""
        king = board.king(not self.color)
        if king is not None:
            attackers = board.attackers(self.color, king)
            if attackers:
                return chess.Move(min(attackers), king)
        seconds = min(self.config.move_seconds, max(0.001, seconds_left / 30))
        limit = chess.engine.Limit(time=seconds, nodes=self.config.move_nodes or None)
        try:
            move = self._engine().play(board, limit).move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
            # Never expected (the board is a possible one): count it, restart, and play on.
            log.exception("Stockfish failed on %s; restarting it", board.fen())
            self.engine_deaths += 1
            self.close()
            move = None
        if move is not None and move in move_actions:
            return move
        return self.rng.choice(list(move_actions)) if move_actions else None

    def _engine(self) -> chess.engine.SimpleEngine:
        if self.engine is None:
            self.engine = self._open_engine()
        return self.engine

    @staticmethod
    def _open_engine() -> chess.engine.SimpleEngine:
        # Its own process group, as TroutBot's: a Ctrl-C meant for the tournament reaches the
        # game, which quits the engine, instead of killing the engine under a running game.
        return chess.engine.SimpleEngine.popen_uci(require_stockfish("trout-set"), setpgrp=True)


def get_player():
    """Tells reconchess's ``load_player`` which class in this module is the bot."""
    return TroutSetBot
