"""``fogsearch connect``: a bot's client for an RBC server, the official one or ``fogsearch serve``.

Like reconchess's ``rc-connect``, it polls the server for invitations, accepts each in a process
of its own (up to ``max_concurrent`` at once) and plays it with reconchess's ``play_turn``; unlike
it, while the other side moves it calls the bot's ``while_we_wait()`` in a loop (as StrangeFish's
own server client does), from the game's start to its end, whenever it is not the bot's turn.
The server is asked for the game's status every ``POLL_SECONDS`` between calls (reconchess's
``RemoteGame`` asks every 0.5 s, which costs a turn up to that much of its clock).

A bot error resigns the game (``error_resign``), as ``rc-connect`` does, and is printed with
its traceback; the client goes on to its next invitation.
"""

from __future__ import annotations

import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.process import BaseProcess

import chess
import reconchess
from reconchess import GameHistory, WinReason, play_turn

from fogsearch.server.transport import BoundedRemoteGame, Lobby
from fogsearch.tournament.players import PlayerSpec

POLL_SECONDS = 0.1
"""Seconds between two asks of the game's status while the other side moves."""
IDLE_CALL_SECONDS = 0.001
"""A ``while_we_wait()`` call that returns in under this had nothing to do: the loop then waits
for the next poll instead of calling it again at once (which would spin a core)."""


def wait_for_turn(game: BoundedRemoteGame, player: reconchess.Player, ponder: bool) -> bool:
    """Waits while the other side moves, pondering; True when the game is over, False when it
    is the player's turn."""
    while_we_wait = getattr(player, "while_we_wait", None) if ponder else None
    if not callable(while_we_wait):
        while_we_wait = None
    while True:
        status = game.status()
        if status["is_over"]:
            return True
        if status["is_my_turn"]:
            return False
        next_poll = time.monotonic() + POLL_SECONDS
        while while_we_wait is not None and time.monotonic() < next_poll:
            started = time.monotonic()
            while_we_wait()
            if time.monotonic() - started < IDLE_CALL_SECONDS:
                break
        time.sleep(max(0.0, next_poll - time.monotonic()))


@dataclass(frozen=True)
class Outcome:
    color: bool
    winner_color: bool | None
    win_reason: WinReason | None
    history: GameHistory

    def describe(self) -> str:
        """``white: won by KING_CAPTURE`` (the player's colour, then its result)."""
        verdict = (
            "draw"
            if self.winner_color is None
            else ("won" if self.winner_color == self.color else "lost")
        )
        reason = self.win_reason.name if self.win_reason is not None else None
        return f"{chess.COLOR_NAMES[self.color]}: {verdict} by {reason}"


def play_game(
    server_url: str,
    game_id: int,
    auth: tuple[str, str],
    player: reconchess.Player,
    *,
    ponder: bool = True,
) -> Outcome:
    """Plays one game to its end, as reconchess's ``play_remote_game`` does but pondering."""
    game = BoundedRemoteGame(server_url, game_id, auth)
    color = game.get_player_color()
    player.handle_game_start(color, game.get_starting_board(), game.get_opponent_name())
    game.start()
    while not wait_for_turn(game, player, ponder):
        play_turn(game, player, end_turn_last=False)
    outcome = Outcome(
        color, game.get_winner_color(), game.get_win_reason(), game.get_game_history()
    )
    player.handle_game_end(outcome.winner_color, outcome.win_reason, outcome.history)
    return outcome


def play_invitation(
    server_url: str,
    auth: tuple[str, str],
    invitation_id: int,
    spec: PlayerSpec,
    seed: int,
    ponder: bool,
) -> None:
    """A game process: accepts the invitation, plays it, finishes the invitation. Exits 1 if the
    bot failed (the game then was resigned)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the listener; games finish
    lobby = Lobby(server_url, auth)
    game_id = lobby.accept(invitation_id)
    failed = False
    try:
        player = spec.build(game_seed=seed + game_id)
        outcome = play_game(server_url, game_id, auth, player, ponder=ponder)
        _say(f"game {game_id}: {outcome.describe()}")
    except Exception:  # noqa: BLE001 - the bot's or the game's failure: resign, as rc-connect does
        failed = True
        _say(f"game {game_id}: failed; resigning:\n{traceback.format_exc().rstrip()}")
        lobby.error_resign(game_id)
    finally:
        lobby.finish(invitation_id)
    sys.exit(1 if failed else 0)


def listen(
    lobby: Lobby,
    spec: PlayerSpec,
    *,
    games: int,
    max_concurrent: int,
    ponder: bool,
    seed: int,
    poll_seconds: float,
    say: Callable[[str], None],
) -> int:
    """Accepts and plays invitations until ``games`` games were played (0: until interrupted);
    returns how many of them failed."""
    context = get_context("spawn")  # a fresh interpreter: no forked locks or engine threads
    running: dict[int, BaseProcess] = {}
    started = finished = failed = 0
    lobby.set_max_games(max_concurrent)
    try:
        while games == 0 or finished < games:
            for invitation, process in list(running.items()):
                if not process.is_alive():
                    process.join()
                    del running[invitation]
                    finished += 1
                    failed += process.exitcode != 0
            if games and finished >= games:
                break
            for invitation in lobby.invitations():
                if invitation in running or (games and started >= games):
                    continue
                if len(running) >= max_concurrent:
                    break
                say(f"invitation {invitation}: accepting")
                process = context.Process(
                    target=play_invitation,
                    args=(lobby.server_url, lobby.auth, invitation, spec, seed, ponder),
                    name=f"rbc-invitation-{invitation}",
                )
                process.start()
                running[invitation] = process
                started += 1
            time.sleep(poll_seconds)
    except KeyboardInterrupt:
        say(f"interrupted: waiting for {len(running)} game(s) to finish (Ctrl-C again: stop them)")
        try:
            for process in running.values():
                process.join()
        except KeyboardInterrupt:
            for process in running.values():
                process.terminate()
        raise
    return failed


def _say(text: str) -> None:
    print(text, flush=True)
