"""One game: reconchess's ``LocalGame`` referees it, with a clock per side, its players in
processes of their own (:mod:`fogsearch.tournament.isolation`, the default) or in this one.

A game is played with reconchess's own ``LocalGame`` and ``play_turn``, so the rules and the clock
are the referee's. The loop is ours only so that a failure can be pinned on the player whose turn
it was: a player that raises (or whose process dies) loses by ``CRASH``, one killed for overrunning
its clock by more than the grace loses by ``TIMEOUT``, and the tournament goes on.
"""

from __future__ import annotations

import json
import logging
import random
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass

import chess
import numpy as np
from reconchess import GameHistory, LocalGame, Player, play_turn
from reconchess.history import GameHistoryEncoder

from fogsearch.tournament.isolation import (
    STARTUP_SECONDS,
    PlayerFailed,
    PlayerProcess,
    RemotePlayer,
)
from fogsearch.tournament.openings import BookMove, book_line
from fogsearch.tournament.schedule import GameTask

CRASH = "CRASH"
TIMEOUT = "TIMEOUT"

log = logging.getLogger(__name__)


@dataclass
class GameRecord:
    """The outcome of one game, as stored."""

    task_index: int
    white: str
    black: str
    seed: int
    winner: str  # "white", "black" or "draw"
    reason: str  # a reconchess WinReason name, CRASH, or "NONE" for a draw without reason
    crashed: str | None  # the colour whose code raised, if any
    error: str | None
    duration_s: float
    white_seconds_left: float
    black_seconds_left: float
    turns: int
    history_json: str
    white_fallbacks: int = 0
    black_fallbacks: int = 0
    """Turns a side decided without its own decision-making (see :func:`fallbacks_of`)."""
    white_clock_used_s: float | None = None
    black_clock_used_s: float | None = None
    """Seconds of its clock each side spent over the game (see :func:`clock_used`)."""
    white_clock_s: float | None = None
    black_clock_s: float | None = None
    white_increment_s: float | None = None
    black_increment_s: float | None = None
    """The clock each side started with and its increment (a player may have its own)."""
    white_turn_log: list[dict] | None = None
    black_turn_log: list[dict] | None = None
    """The fogsearch bot's per-turn log (value, depth, the requests it weighed, ...) of a side
    that keeps one (``turn_log``), for the game's replay page; None for other players."""

    def to_dict(self) -> dict:
        return asdict(self)


TurnListener = Callable[[chess.Color, Player, LocalGame], None]
"""Called after each turn with the colour that played it, its player and the game."""


class ClockedGame(LocalGame):
    """``LocalGame`` with a clock and an increment per side (time odds); everything else,
    the rules and how the clock runs, is reconchess's."""

    def __init__(self, seconds: dict[bool, float], increments: dict[bool, float]):
        super().__init__(seconds_per_player=max(seconds.values()), seconds_increment=0)
        self.seconds_left_by_color = dict(seconds)
        self.increments = dict(increments)

    def end_turn(self):
        mover = self.turn
        super().end_turn()
        self.seconds_left_by_color[mover] += self.increments[mover]


def play_game(
    task: GameTask,
    on_turn: TurnListener | None = None,
    cores: tuple[list[int], list[int]] | None = None,
) -> GameRecord:
    """Plays ``task`` to the end and returns its record; the referee runs in this process,
    each player in a process of its own unless ``task.isolated`` is false (then here), pinned to
    ``cores`` (white's, black's) when given. Never raises for a bot's fault: a crash or a kill
    for overrunning is recorded as a loss of that side. ``on_turn`` (``fogsearch play``'s log)
    is called after each turn."""
    random.seed(task.seed)
    np.random.seed(task.seed % 2**32)
    clocks = {
        color: spec.clock(task.seconds_per_player, task.seconds_increment)
        for color, spec in ((chess.WHITE, task.white), (chess.BLACK, task.black))
    }
    game = ClockedGame(
        {c: s for c, (s, _) in clocks.items()}, {c: i for c, (_, i) in clocks.items()}
    )
    started = time.perf_counter()
    players, failure = _start_players(task, game, cores)
    if failure is None:
        failure = _play_to_end(game, players, task, on_turn)
    duration = time.perf_counter() - started
    # A game that never started (a bot could not be built) has no history of its own.
    history = game.get_game_history() or GameHistory()
    winner, reason = _result(game, failure)
    for player in players.values():
        if isinstance(player, RemotePlayer):
            player.process.ask_to_close()  # both exit at once
    for player in players.values():
        _close(player)
    white_fallbacks, black_fallbacks = (
        fallbacks_of(players.get(color)) for color in (chess.WHITE, chess.BLACK)
    )
    white_log, black_log = (turn_log_of(players.get(c)) for c in (chess.WHITE, chess.BLACK))
    white_used, black_used = (
        clock_used(*clocks[color], history.num_turns(color), game.seconds_left_by_color[color])
        for color in (chess.WHITE, chess.BLACK)
    )
    crashed = failure[0] if failure is not None and failure[1] == "crash" else None
    error = None if failure is None else failure[2]
    if failure is not None and failure[1] == "timeout":
        error = f"{failure[0]} {error}"
    return GameRecord(
        task_index=task.index,
        white=task.white.name,
        black=task.black.name,
        seed=task.seed,
        winner=winner,
        reason=reason,
        crashed=crashed,
        error=error,
        duration_s=duration,
        white_seconds_left=float(game.seconds_left_by_color[chess.WHITE]),
        black_seconds_left=float(game.seconds_left_by_color[chess.BLACK]),
        turns=history.num_turns(),
        history_json=json.dumps(history, cls=GameHistoryEncoder),
        white_fallbacks=white_fallbacks,
        black_fallbacks=black_fallbacks,
        white_clock_used_s=white_used,
        black_clock_used_s=black_used,
        white_clock_s=clocks[chess.WHITE][0],
        black_clock_s=clocks[chess.BLACK][0],
        white_increment_s=clocks[chess.WHITE][1],
        black_increment_s=clocks[chess.BLACK][1],
        white_turn_log=white_log,
        black_turn_log=black_log,
    )


def _start_players(task: GameTask, game, cores) -> tuple[dict, tuple[str, str, str] | None]:
    """Both players, by colour, and the failure (colour, kind, detail) that kept one from being
    built. Isolated players' processes start and build at once (a process is registered before
    it is built, so that it is closed whatever happens); others are built here."""
    players: dict = {}
    sides = ((chess.WHITE, task.white), (chess.BLACK, task.black))
    try:
        if not task.isolated:
            for color, spec in sides:
                players[color] = spec.build(task.seed)
            return players, None
        for color, spec in sides:
            process = PlayerProcess(spec.python, None if cores is None else cores[not color])
            players[color] = RemotePlayer(process, game, task.grace_s, task.ponder)
            process.send(spec.host_request(task.seed))
        for color, _ in sides:
            players[color].process.answer(STARTUP_SECONDS, "build")
    except PlayerFailed as exc:
        return players, (chess.COLOR_NAMES[color], exc.kind, exc.detail)
    except Exception:  # noqa: BLE001 - a bot that cannot be built (bad settings) loses
        return players, (chess.COLOR_NAMES[color], "crash", traceback.format_exc())
    return players, None


def clock_used(seconds: float, increment: float, turns: int, seconds_left: float) -> float:
    """Seconds a side spent of its clock: what it started with (``seconds``), plus the
    ``increment`` the referee added after each of its ``turns``, less what it has left
    (reconchess charges a turn's sense, move and the opponent's move result to the side whose
    turn it is)."""
    return float(seconds + increment * turns - seconds_left)


def turn_log_of(player) -> list[dict] | None:
    """The player's per-turn log where it keeps a non-empty one (the fogsearch bot does, in
    this process or through its host), else None."""
    log = getattr(player, "turn_log", None)
    return list(log) if isinstance(log, list) and log else None


def fallbacks_of(player) -> int:
    """The player's ``fallbacks`` count (turns it played without its search, e.g. a fogsearch bot
    whose search raised), or 0 for players that keep none. A bot that survives every failure by
    playing a fallback finishes its games, so without this count its random play would be stored
    as the results of its settings."""
    count = getattr(player, "fallbacks", 0)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def _play_to_end(
    game: LocalGame, players: dict, task: GameTask, on_turn: TurnListener | None
) -> tuple[str, str, str] | None:
    """Plays the game; the failure that ended it, as (colour, "crash" or "timeout", detail),
    or None."""
    game.store_players(task.white.name, task.black.name)
    side = chess.WHITE
    try:
        players[chess.WHITE].handle_game_start(chess.WHITE, game.board.copy(), task.black.name)
        side = chess.BLACK
        players[chess.BLACK].handle_game_start(chess.BLACK, game.board.copy(), task.white.name)
        game.start()
        book, ply = book_line(task.seed, task.book_plies, task.book), 0
        while not game.is_over():
            side = game.turn
            player = players[side] if ply >= len(book) else BookMove(players[side], book[ply])
            play_turn(game, player, end_turn_last=True)
            ply += 1
            if on_turn is not None:
                on_turn(side, players[side], game)
    except PlayerFailed as exc:
        game.end()
        return chess.COLOR_NAMES[side], exc.kind, exc.detail
    except Exception:  # noqa: BLE001 - recorded against the side whose turn raised
        game.end()
        return chess.COLOR_NAMES[side], "crash", traceback.format_exc()
    game.end()
    winner_color, win_reason, history = (
        game.get_winner_color(),
        game.get_win_reason(),
        game.get_game_history(),
    )
    for color, player in players.items():
        try:
            player.handle_game_end(winner_color, win_reason, history)
        except PlayerFailed as exc:
            return chess.COLOR_NAMES[color], exc.kind, exc.detail
        except Exception:  # noqa: BLE001
            return chess.COLOR_NAMES[color], "crash", traceback.format_exc()
    return None


def _result(game: LocalGame, failure: tuple[str, str, str] | None) -> tuple[str, str]:
    if failure is not None:
        loser, kind, _ = failure
        return ("black" if loser == "white" else "white"), (CRASH if kind == "crash" else TIMEOUT)
    winner = game.get_winner_color()
    reason = game.get_win_reason()
    return (
        "draw" if winner is None else chess.COLOR_NAMES[winner],
        reason.name if reason is not None else "NONE",
    )


def _close(player) -> None:
    if isinstance(player, RemotePlayer):
        player.close()
        return
    # TroutBot keeps a Stockfish process; reconchess only quits it in handle_game_end.
    engine = getattr(player, "engine", None)
    if engine is not None:
        try:
            engine.quit()
        except Exception:  # noqa: BLE001 - already gone
            pass
