"""Hosts one reconchess player in a process of its own, for a referee in another process.

Run by path, under any interpreter that has ``reconchess`` and ``chess`` (it imports nothing of
fogsearch, so a bot that needs another Python or other package pins runs as it is)::

    /path/to/python player_host.py

The protocol is one JSON object a line. The referee writes a request on the host's stdin, the host
answers on its stdout with ``{"ok": value}`` or ``{"error": traceback}`` (the player raised), and
with what the referee keeps of the player (``fallbacks``, new ``turn_log`` rows) when the player
has them. Moves are UCI strings, squares ints, boards FEN, colours booleans, pieces symbols.
Anything the player prints goes to stderr, so that it cannot corrupt the protocol.

``{"op": "ponder"}`` is answered at once; the host then calls the player's ``while_we_wait()`` in
a loop until the next request arrives. A call already running is finished first: its overrun is
the ponderer's, timed on its clock by the referee, as on the RBC server.
"""

import ctypes
import importlib
import json
import os
import random
import select
import signal
import sys
import traceback

import chess
import reconchess
from reconchess import WinReason
from reconchess.history import GameHistoryDecoder


class Channel:
    """Line-delimited JSON over raw file descriptors (no buffered reader, so ``select`` says
    truly whether a request is waiting)."""

    def __init__(self, read_fd, write_file):
        self.read_fd, self.out, self.buffer = read_fd, write_file, b""

    def waiting(self):
        if b"\n" in self.buffer:
            return True
        return bool(select.select([self.read_fd], [], [], 0)[0])

    def receive(self):
        while b"\n" not in self.buffer:
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                return None  # the referee is gone
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def send(self, message):
        try:
            self.out.write(json.dumps(message, default=_plain) + "\n")
            self.out.flush()
        except BrokenPipeError:
            os._exit(0)  # the referee is gone (its game was stopped): nobody to answer


def _plain(value):
    """JSON for what a player's turn log may hold beyond JSON's types: numpy scalars as
    numbers, anything else (moves, squares' names) as its text."""
    item = getattr(value, "item", None)
    if callable(item):
        try:
            return item()
        except (TypeError, ValueError):
            pass
    return str(value)


def build(request):
    """The player: from a factory (``module:function`` called with ``args``; the referee's own
    interpreter uses this for its named kinds) or a bot module/file as reconchess loads it."""
    random.seed(request.get("seed", 0))
    try:
        import numpy

        numpy.random.seed(request.get("seed", 0) % 2**32)
    except ImportError:
        pass
    if request.get("factory"):
        module, _, name = request["factory"].partition(":")
        return getattr(importlib.import_module(module), name)(**request.get("args", {}))
    _, player_cls = reconchess.load_player(request["source"])
    return player_cls(**request.get("settings", {}))


def _move(text):
    return None if text is None else chess.Move.from_uci(text)


def _square(value):
    return None if value is None else int(value)


def call(player, request):
    """Runs one Player callback; returns its JSON-ready result."""
    op = request["op"]
    if op == "game_start":
        player.handle_game_start(
            request["color"], chess.Board(request["fen"]), request["opponent_name"]
        )
    elif op == "opponent_move_result":
        player.handle_opponent_move_result(request["captured"], _square(request["square"]))
    elif op == "choose_sense":
        moves = [_move(m) for m in request["move_actions"]]
        return player.choose_sense(request["sense_actions"], moves, request["seconds_left"])
    elif op == "sense_result":
        result = [
            (sq, None if symbol is None else chess.Piece.from_symbol(symbol))
            for sq, symbol in request["result"]
        ]
        player.handle_sense_result(result)
    elif op == "choose_move":
        moves = [_move(m) for m in request["move_actions"]]
        chosen = player.choose_move(moves, request["seconds_left"])
        return None if chosen is None else chosen.uci()
    elif op == "move_result":
        player.handle_move_result(
            _move(request["requested"]),
            _move(request["taken"]),
            request["captured"],
            _square(request["square"]),
        )
    elif op == "game_end":
        reason = request["reason"]
        history = json.loads(request["history"], cls=GameHistoryDecoder)
        player.handle_game_end(
            request["winner"], None if reason is None else WinReason[reason], history
        )
    else:
        raise ValueError(f"unknown request {op!r}")
    return None


class Reporter:
    """What the referee keeps of the player between calls: its fallback count and turn log."""

    def __init__(self):
        self.logged = 0

    def extras(self, player):
        extras = {}
        fallbacks = getattr(player, "fallbacks", None)
        if isinstance(fallbacks, int):
            extras["fallbacks"] = fallbacks
        turn_log = getattr(player, "turn_log", None)
        if isinstance(turn_log, list) and len(turn_log) > self.logged:
            extras["turn_log"] = turn_log[self.logged :]
            self.logged = len(turn_log)
        return extras


def ponder(player, channel):
    """``while_we_wait`` in a loop until the next request arrives."""
    wait = getattr(player, "while_we_wait", None)
    if not callable(wait):
        return
    while not channel.waiting():
        wait()


REFEREE_PID = "FOGSEARCH_REFEREE_PID"
"""The environment variable by which the referee tells its host its process id."""


def _die_with_parent():
    """Linux: the kernel kills this host when its referee dies (a game process terminated by a
    stopped tournament), even in the middle of a long call that never reads its stdin. A referee
    that died before this was set (while the host still imported) has left the host orphaned:
    then it exits at once rather than build a player nobody will ask anything."""
    try:
        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    referee = os.environ.get(REFEREE_PID)
    if referee and referee.isdigit() and os.getppid() != int(referee):
        os._exit(0)


def _import_path():
    """Run by path, Python puts this file's folder first on the import path, where fogsearch's
    own modules (``players``, ``report``, ...) would shadow a bot's; the working folder
    stands there instead, so that a bot module there loads as with ``python -m``."""
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        sys.path[0] = os.getcwd()


def main():
    _die_with_parent()
    _import_path()
    # The protocol keeps the real stdout; everything printed goes to stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    channel, reporter, player = Channel(0, out), Reporter(), None
    while True:
        request = channel.receive()
        if request is None or request["op"] == "close":
            return
        if request["op"] == "ponder":
            channel.send({"ok": None})
            if player is not None:
                try:
                    ponder(player, channel)
                except Exception:  # noqa: BLE001 - reported with the next request's answer
                    channel.receive()
                    channel.send({"error": traceback.format_exc()})
            continue
        try:
            if request["op"] == "build":
                player = build(request)
                result = None
            else:
                result = call(player, request)
        except Exception:  # noqa: BLE001 - every failure of the player goes to the referee
            channel.send({"error": traceback.format_exc()})
            continue
        channel.send({"ok": result, **reporter.extras(player)})


if __name__ == "__main__":
    main()
