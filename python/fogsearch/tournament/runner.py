"""Playing games: one game in this process, many in worker processes, or many on a Ray cluster.

A game is played with reconchess's own ``LocalGame`` and ``play_turn``, so the rules and the clock
are the referee's. The loop is ours only so that an exception can be pinned on the player whose turn
raised it: that player loses by ``CRASH`` and the tournament goes on. With several workers each game
has a process of its own, so a process the operating system kills (out of memory, a segfault) loses
only its own game: it is logged and not stored, and the tournament goes on. The Ray backend does
the same with a game whose worker Ray gives up on. A tournament that is stopped (Ctrl-C, SIGTERM, or
a consumer that stops reading) terminates the games still running: their results could no longer
be stored, and a game left running would hold its core, and its engine, long after.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from multiprocessing import get_context

import chess
import numpy as np
from reconchess import GameHistory, LocalGame, Player, play_turn
from reconchess.history import GameHistoryEncoder

from fogsearch.tournament.schedule import GameTask

CRASH = "CRASH"

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

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LostGame:
    """A game whose process died before it could report (killed by the kernel, e.g. out of
    memory): stored apart from the played games, so a bot that dies is still seen in the results."""

    task_index: int
    white: str
    black: str
    seed: int
    why: str


TurnListener = Callable[[chess.Color, Player, LocalGame], None]
"""Called after each turn with the colour that played it, its player and the game."""


def play_game(task: GameTask, on_turn: TurnListener | None = None) -> GameRecord:
    """Plays ``task`` to the end in this process and returns its record. Never raises for a bot's
    fault: a crash is recorded as a loss of the side that crashed. ``on_turn`` (``fogsearch
    play``'s log) is called after each turn."""
    random.seed(task.seed)
    np.random.seed(task.seed % 2**32)
    game = LocalGame(
        seconds_per_player=task.seconds_per_player, seconds_increment=task.seconds_increment
    )
    players = {}
    crashed, error = None, None
    started = time.perf_counter()
    for color, spec in ((chess.WHITE, task.white), (chess.BLACK, task.black)):
        try:
            players[color] = spec.build(task.seed)
        except Exception:  # noqa: BLE001 - a bot that cannot be built (bad settings) loses
            crashed, error = chess.COLOR_NAMES[color], traceback.format_exc()
            break
    if crashed is None:
        crashed, error = _play_to_end(game, players, task, on_turn)
    duration = time.perf_counter() - started
    # A game that never started (a bot could not be built) has no history of its own.
    history = game.get_game_history() or GameHistory()
    winner, reason = _result(game, crashed)
    for player in players.values():
        _close(player)
    white_fallbacks, black_fallbacks = (
        fallbacks_of(players.get(color)) for color in (chess.WHITE, chess.BLACK)
    )
    white_used, black_used = (
        clock_used(task, history.num_turns(color), game.seconds_left_by_color[color])
        for color in (chess.WHITE, chess.BLACK)
    )
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
    )


def clock_used(task: GameTask, turns: int, seconds_left: float) -> float:
    """Seconds a side spent of its clock: what it started with, plus the increment the referee
    added after each of its ``turns``, less what it has left (reconchess charges a turn's
    sense, move and the opponent's move result to the side whose turn it is)."""
    return float(task.seconds_per_player + task.seconds_increment * turns - seconds_left)


def fallbacks_of(player) -> int:
    """The player's ``fallbacks`` count (turns it played without its search, e.g. a fogsearch bot
    whose search raised), or 0 for players that keep none. A bot that survives every failure by
    playing a fallback finishes its games, so without this count its random play would be stored
    as the results of its settings."""
    count = getattr(player, "fallbacks", 0)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def _play_to_end(
    game: LocalGame, players: dict, task: GameTask, on_turn: TurnListener | None
) -> tuple[str | None, str | None]:
    game.store_players(task.white.name, task.black.name)
    side = chess.WHITE
    try:
        players[chess.WHITE].handle_game_start(chess.WHITE, game.board.copy(), task.black.name)
        side = chess.BLACK
        players[chess.BLACK].handle_game_start(chess.BLACK, game.board.copy(), task.white.name)
        game.start()
        while not game.is_over():
            side = game.turn
            play_turn(game, players[side], end_turn_last=True)
            if on_turn is not None:
                on_turn(side, players[side], game)
    except Exception:  # noqa: BLE001 - recorded against the side whose turn raised
        game.end()
        return chess.COLOR_NAMES[side], traceback.format_exc()
    game.end()
    winner_color, win_reason, history = (
        game.get_winner_color(),
        game.get_win_reason(),
        game.get_game_history(),
    )
    for color, player in players.items():
        try:
            player.handle_game_end(winner_color, win_reason, history)
        except Exception:  # noqa: BLE001
            return chess.COLOR_NAMES[color], traceback.format_exc()
    return None, None


def _result(game: LocalGame, crashed: str | None) -> tuple[str, str]:
    if crashed is not None:
        return ("black" if crashed == "white" else "white"), CRASH
    winner = game.get_winner_color()
    reason = game.get_win_reason()
    return (
        "draw" if winner is None else chess.COLOR_NAMES[winner],
        reason.name if reason is not None else "NONE",
    )


def _close(player) -> None:
    # TroutBot keeps a Stockfish process; reconchess only quits it in handle_game_end.
    engine = getattr(player, "engine", None)
    if engine is not None:
        try:
            engine.quit()
        except Exception:  # noqa: BLE001 - already gone
            pass


def run_local(tasks: list[GameTask], workers: int) -> Iterator[GameRecord | LostGame]:
    """Plays ``tasks``, ``workers`` at a time, each in a process of its own (spawned, so no forked
    Rust thread pools), yielding records as games finish; a game whose process dies is logged and
    yielded as a :class:`LostGame`. ``workers=1`` plays in this process. Closing the iterator
    early (or an exception in the consumer) terminates the game processes still running."""
    if workers <= 1:
        for task in tasks:
            yield play_game(task)
        return
    processes = GameProcesses()
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(play_in_own_process, task, processes) for task in tasks]
        for future in as_completed(futures):
            record = future.result()
            if record is not None:
                yield record
    finally:
        # Stopped before the end: start no further game and stop the running ones, whose records
        # nobody would read (without this a Ctrl-C waited for every running game to finish).
        pool.shutdown(wait=False, cancel_futures=True)
        processes.stop_all()
        pool.shutdown(wait=True)


class GameProcesses:
    """The game processes running now, so that a stopped tournament can terminate them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set = set()
        self.stopped = False

    def start(self, process) -> bool:
        """Starts ``process`` unless the tournament has been stopped; whether it started."""
        with self._lock:
            if self.stopped:
                return False
            process.start()
            self._running.add(process)
            return True

    def finished(self, process) -> None:
        with self._lock:
            self._running.discard(process)

    def stop_all(self, grace_s: float = 5.0) -> None:
        """Terminates every running game (SIGTERM, then SIGKILL after ``grace_s``)."""
        with self._lock:
            self.stopped = True
            running = list(self._running)
        for process in running:
            process.terminate()
        deadline = time.monotonic() + grace_s
        for process in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()


def play_in_own_process(
    task: GameTask, processes: GameProcesses | None = None
) -> GameRecord | LostGame | None:
    """:func:`play_game` in a fresh spawned process; a :class:`LostGame` (and a warning) if that
    process dies before it sends its record back; ``None`` if ``processes`` was stopped."""
    processes = processes or GameProcesses()
    context = get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_play_and_send, args=(task, sender), daemon=True)
    if not processes.start(process):
        receiver.close()
        sender.close()
        return None
    sender.close()  # only the child writes: its exit then ends our recv with EOFError
    try:
        record = receiver.recv()
    except EOFError:
        record = None
    finally:
        receiver.close()
        process.join()
        processes.finished(process)
    if record is None and not processes.stopped:
        return _lost(
            task,
            f"its process died with exit code {process.exitcode} (negative: killed by that "
            "signal, e.g. -9 when out of memory)",
        )
    return record


def _lost(task: GameTask, why: str) -> LostGame:
    log.warning(
        "game %d (%s vs %s, seed %d) was lost: %s; stored as lost, without a result",
        task.index,
        task.white.name,
        task.black.name,
        task.seed,
        why,
    )
    return LostGame(task.index, task.white.name, task.black.name, task.seed, why)


def _play_and_send(task: GameTask, sender) -> None:
    sender.send(play_game(task))
    sender.close()


def run_ray(tasks: list[GameTask], address: str | None = None) -> Iterator[GameRecord | LostGame]:
    """Plays ``tasks`` as Ray tasks (``pip install fogsearch[ray]``), yielding records as games
    finish."""
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the Ray backend needs ray: pip install 'fogsearch[ray]'") from exc
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remote_play = ray.remote(play_game)
    task_of = {remote_play.remote(task): task for task in tasks}
    pending = list(task_of)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayError as exc:
                # A worker that died (out of memory, killed) after Ray's retries: as run_local
                # does, that game is lost and the tournament goes on.
                yield _lost(task_of[done[0]], f"{type(exc).__name__}: {exc}".splitlines()[0])
    finally:
        for ref in pending:  # stopped early: the cluster should not play games nobody stores
            ray.cancel(ref, force=True)


BACKENDS: dict[str, Callable[..., Iterable[GameRecord | LostGame]]] = {
    "local": run_local,
    "ray": run_ray,
}
