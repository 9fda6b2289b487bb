"""Players in processes of their own, as on the RBC server: the referee (reconchess's
``LocalGame``, its rules and clock) stays in the game's process and talks to each player's process
through :mod:`fogsearch.tournament.player_host`, one request per ``Player`` callback.

The referee times each call on the clock of the side whose turn it is, as ``LocalGame`` does (wall
time between turns), so a player's clock runs while its process thinks. A call that runs past the
mover's clock by more than a grace is not waited for: the player's process (and every process it
started) is killed and the game is that side's loss on time. A player that raises, or whose process
dies, is that side's crash, with the traceback (or exit code) recorded.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
from reconchess import LocalGame, Player
from reconchess.history import GameHistoryEncoder

HOST = Path(__file__).with_name("player_host.py")
STARTUP_SECONDS = 120.0
"""Seconds a player may take to start and to take in the game start (loading an engine or a
network), before the clock starts; reconchess's server allows a bot its own startup too."""
CLOSE_SECONDS = 5.0
SAME_INTERPRETER_FACTORY = "fogsearch.tournament.players:build_spec"


class PlayerFailed(Exception):
    """A player's call failed: ``kind`` is ``"crash"`` (it raised, or its process died) or
    ``"timeout"`` (it overran its clock by more than the grace and was killed)."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind, self.detail = kind, detail


class PlayerProcess:
    """One player's host process and its request/answer channel."""

    def __init__(self, python: str | None = None, cores: list[int] | None = None):
        env = dict(os.environ, FOGSEARCH_REFEREE_PID=str(os.getpid()))
        if python is None:
            # The host of our own interpreter imports fogsearch from where this copy lives.
            package_root = str(Path(__file__).resolve().parents[2])
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            [python or sys.executable, str(HOST)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own process group: killed with the engines it starts
        )
        _LIVE.add(self)
        if cores:
            # Children (engines) inherit the affinity; the host starts none before "build".
            os.sched_setaffinity(self.proc.pid, cores)
        self.buffer = b""
        self.extras: dict = {}

    def send(self, message: dict) -> None:
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None

    def request(self, message: dict, timeout: float):
        """Sends ``message`` and returns the answer's value; raises :class:`PlayerFailed`."""
        self.send(message)
        return self.answer(timeout, message["op"])

    def answer(self, timeout: float, op: str):
        """The answer to the request ``op`` sent last; raises :class:`PlayerFailed`."""
        answer = self._answer(timeout, op)
        if "error" in answer:
            raise PlayerFailed("crash", answer["error"])
        self.extras = {k: v for k, v in answer.items() if k != "ok"}
        return answer["ok"]

    def _answer(self, timeout: float, op: str) -> dict:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.kill()
                raise PlayerFailed(
                    "timeout",
                    f"its {op} call ran {timeout:.1f} s, past its clock and the grace; "
                    "its process was killed",
                )
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._died()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def _died(self) -> PlayerFailed:
        code = self.proc.wait()
        return PlayerFailed(
            "crash",
            f"its process died with exit code {code} (negative: killed by that signal)",
        )

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        _LIVE.discard(self)

    def ask_to_close(self) -> None:
        """Asks the host to exit (both players' hosts exit at once; :meth:`close` waits)."""
        if self.proc.poll() is None:
            try:
                self.send({"op": "close"})
            except PlayerFailed:
                pass

    def close(self) -> None:
        self.ask_to_close()
        try:
            self.proc.wait(CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        self.kill()  # the engines it started, too
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


_LIVE: set[PlayerProcess] = set()
"""This process's player hosts not yet killed, for :func:`kill_every_player`."""


def kill_every_player() -> None:
    """Kills every player host of this process, and the engines each started (its process
    group): for a game process that is being terminated, whose hosts would otherwise outlive it."""
    for process in list(_LIVE):
        process.kill()


class RemotePlayer(Player):
    """The referee's side of a player in another process: each callback is one request, timed
    against the mover's clock in ``game`` plus ``grace_s``."""

    def __init__(
        self,
        process: PlayerProcess,
        game: LocalGame,
        grace_s: float,
        ponder: bool,
    ):
        self.process, self.game, self.grace_s, self.ponder = process, game, grace_s, ponder
        self.fallbacks = 0
        self.turn_log: list[dict] = []

    def _call(self, op: str, timeout: float | None = None, **args):
        if timeout is None:
            timeout = max(0.0, self.game.get_seconds_left()) + self.grace_s
        result = self.process.request({"op": op, **args}, timeout)
        extras = self.process.extras
        if isinstance(extras.get("fallbacks"), int):
            self.fallbacks = extras["fallbacks"]
        self.turn_log.extend(extras.get("turn_log", []))
        return result

    def _start_pondering(self) -> None:
        if self.ponder:
            self.process.request({"op": "ponder"}, STARTUP_SECONDS)

    def handle_game_start(self, color, board, opponent_name):
        self._call(
            "game_start",
            STARTUP_SECONDS,
            color=color,
            fen=board.fen(),
            opponent_name=opponent_name,
        )
        if color == chess.BLACK:
            self._start_pondering()

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        self._call("opponent_move_result", captured=captured_my_piece, square=capture_square)

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return self._call(
            "choose_sense",
            sense_actions=list(sense_actions),
            move_actions=[m.uci() for m in move_actions],
            seconds_left=seconds_left,
        )

    def handle_sense_result(self, sense_result):
        result = [[sq, None if p is None else p.symbol()] for sq, p in sense_result]
        self._call("sense_result", result=result)

    def choose_move(self, move_actions, seconds_left):
        chosen = self._call(
            "choose_move",
            move_actions=[m.uci() for m in move_actions],
            seconds_left=seconds_left,
        )
        return None if chosen is None else chess.Move.from_uci(chosen)

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self._call(
            "move_result",
            requested=None if requested_move is None else requested_move.uci(),
            taken=None if taken_move is None else taken_move.uci(),
            captured=captured_opponent_piece,
            square=capture_square,
        )
        self._start_pondering()

    def handle_game_end(self, winner_color, win_reason, game_history):
        # After the game, not on a clock; a while_we_wait still running finishes first.
        self._call(
            "game_end",
            STARTUP_SECONDS + self.grace_s,
            winner=winner_color,
            reason=None if win_reason is None else win_reason.name,
            history=json.dumps(game_history, cls=GameHistoryEncoder),
        )

    def close(self) -> None:
        self.process.close()
