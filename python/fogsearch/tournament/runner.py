"""Playing games: one game in this process, many in worker processes, or many on a Ray cluster.

Each game is refereed by :func:`~fogsearch.tournament.referee.play_game`, its players in
processes of their own (a player that crashes, dies or overruns loses that game). With several
workers each game's referee has a process of its own too, so a game process the operating system
kills (out of memory, a segfault) loses only its own game: it is logged and not stored, and the
tournament goes on. The Ray backend does the same with a game whose worker Ray gives up on. A
tournament that is stopped (Ctrl-C, SIGTERM, or a consumer that stops reading) terminates the
games still running: their results could no longer be stored, and a game left running would hold
its core, and its engine, long after. With cores per player (or per game), each worker's games
use their own block of cores (:func:`core_blocks`).
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context

from fogsearch.arguments import UsageError
from fogsearch.tournament.isolation import kill_every_player
from fogsearch.tournament.referee import (
    CRASH,
    TIMEOUT,
    GameRecord,
    clock_used,
    fallbacks_of,
    play_game,
)
from fogsearch.tournament.schedule import GameTask

__all__ = [
    "BACKENDS",
    "CRASH",
    "TIMEOUT",
    "GameRecord",
    "LostGame",
    "clock_used",
    "core_blocks",
    "fallbacks_of",
    "play_game",
    "run_local",
    "run_ray",
]

log = logging.getLogger(__name__)


@dataclass
class LostGame:
    """A game whose process died before it could report (killed by the kernel, e.g. out of
    memory): stored apart from the played games, so a bot that dies is still seen in the results."""

    task_index: int
    white: str
    black: str
    seed: int
    why: str


def run_local(tasks: list[GameTask], workers: int) -> Iterator[GameRecord | LostGame]:
    """Plays ``tasks``, ``workers`` at a time, each in a process of its own (spawned, so no forked
    Rust thread pools), yielding records as games finish; a game whose process dies is logged and
    yielded as a :class:`LostGame`. ``workers=1`` plays in this process. Closing the iterator
    early (or an exception in the consumer) terminates the game processes still running."""
    per_player = max((task.cores_per_player for task in tasks), default=0)
    per_game = max((task.cores_per_game for task in tasks), default=0)
    blocks = core_blocks(per_player, workers, per_game)
    if workers <= 1:
        for task in tasks:
            yield play_game(task, cores=blocks[0])
        return
    processes = GameProcesses()
    free: queue.Queue = queue.Queue()
    for block in blocks:
        free.put(block)
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(_play_on_free_cores, task, processes, free) for task in tasks]
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


def core_blocks(
    per_player: int, workers: int, per_game: int = 0
) -> list[tuple[list[int], list[int]] | None]:
    """Each worker's cores for its game's white and black players, from this process's cores
    (its affinity), no core shared between games: ``per_player`` cores for each player, or with
    ``per_game`` one block of that many that both players share; ``[None] * workers`` when not
    pinned. :class:`~fogsearch.arguments.UsageError` when the affinity has too few cores."""
    if per_player <= 0 and per_game <= 0:
        return [None] * workers
    mine = sorted(os.sched_getaffinity(0))
    per_worker = per_game if per_game > 0 else 2 * per_player
    needed = per_worker * workers
    if len(mine) < needed:
        option, each = (
            (f"--cores-per-game {per_game}", "")
            if per_game > 0
            else (f"--cores-per-player {per_player}", " (two players a game)")
        )
        raise UsageError(
            f"{option} with {workers} games at once needs {needed} cores{each}, but this "
            f"process may use {len(mine)} ({mine}): lower --workers or the cores"
        )
    blocks = []
    for w in range(workers):
        game = mine[per_worker * w : per_worker * (w + 1)]
        blocks.append((game, game) if per_game > 0 else (game[:per_player], game[per_player:]))
    return blocks


def _play_on_free_cores(task: GameTask, processes: GameProcesses, free: queue.Queue):
    """A game on the cores of a worker that is free now (as many blocks as workers)."""
    block = free.get()
    try:
        return play_in_own_process(task, processes, block)
    finally:
        free.put(block)


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
    task: GameTask, processes: GameProcesses | None = None, cores=None
) -> GameRecord | LostGame | None:
    """:func:`play_game` in a fresh spawned process; a :class:`LostGame` (and a warning) if that
    process dies before it sends its record back; ``None`` if ``processes`` was stopped."""
    processes = processes or GameProcesses()
    context = get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_play_and_send, args=(task, sender, cores), daemon=True)
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


def _play_and_send(task: GameTask, sender, cores) -> None:
    signal.signal(signal.SIGTERM, _kill_players_and_exit)
    sender.send(play_game(task, cores=cores))
    sender.close()


def _kill_players_and_exit(signum, frame) -> None:
    """A game process terminated by a stopped tournament takes its players' processes, and
    their engines, with it (the kernel's parent-death signal reaches the hosts only)."""
    kill_every_player()
    os._exit(128 + signum)


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
