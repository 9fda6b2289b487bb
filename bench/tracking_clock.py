"""What tracking a stored game's set costs each turn, with and without the clock's bound on it.

Replays one side's observations of a stored game through two of the bot's trackers on one thread,
as in the SPRT's one-core games: one bounded only by ``max_tracked_boards`` (a set expected past
it, at the last growth measured, is sampled without trying the whole), one that also gives each
opponent move's expansion the clock's share (``ClockPlan.tracking_share`` of the clock), the
clock read from the bot's turn log: its clock when its previous move was chosen, less that
move's search, plus the game's increment. Prints per turn the set before the expansion and each tracker's set after it
with the seconds the expansion took, then the totals.

    cd bench; python tracking_clock.py data/sprt_draw.sqlite --game 151 --from-turn 53
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass

import chess
from loss_replay import read_only
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.analysis.losses import DEFAULT_MAX_BOARDS, DEFAULT_MODEL
from fogsearch.bot import ClockPlan
from fogsearch.bot.clock import tracking_budget
from fogsearch.bot.tracker import Tracker
from fogsearch.observations import OpponentMoveResult
from fogsearch.tracking import observations


@dataclass
class Turn:
    turn: int
    clock: float | None
    parents: int
    free_boards: int
    free_seconds: float
    bounded_boards: int
    bounded_seconds: float


def stored_game(path: str, game: int) -> tuple[GameHistory, dict[chess.Color, tuple]]:
    """The game's history, and per side its turn log (turn number to entry) and increment."""
    with read_only(path) as connection:
        row = connection.execute(
            "SELECT history_json, white_turn_log_json, black_turn_log_json, white_increment_s,"
            " black_increment_s FROM games WHERE id = ?",
            (game,),
        ).fetchone()
    if row is None:
        raise SystemExit(f"{path} holds no game {game}")
    history = json.loads(row[0], cls=GameHistoryDecoder)
    logs = {}
    for color, text, increment in ((chess.WHITE, row[1], row[3]), (chess.BLACK, row[2], row[4])):
        entries = json.loads(text) if text else []
        logs[color] = ({entry["turn"]: entry for entry in entries}, increment or 0.0)
    return history, logs


def clock_before(log: dict[int, dict], turn: int, increment: float) -> float | None:
    """Our clock as turn ``turn``'s opponent move result came, from the log's previous turn."""
    previous = log.get(turn - 1)
    if previous is None or previous.get("seconds_left") is None:
        return None
    return previous["seconds_left"] - (previous.get("search_seconds") or 0.0) + increment


def replay(
    history: GameHistory,
    color: chess.Color,
    log: dict[int, dict],
    increment: float,
    turns: range,
    plan: ClockPlan,
    seed: int,
) -> list[Turn]:
    """The rows of the turns in ``turns``; the replay stops after the last."""
    free = Tracker(color, DEFAULT_MAX_BOARDS, random.Random(seed), 1, DEFAULT_MODEL)
    bounded = Tracker(color, DEFAULT_MAX_BOARDS, random.Random(seed), 1, DEFAULT_MODEL)
    rows = []
    for seen in observations(history, color):
        turn = seen.turn_number + 1  # the bot's log counts its turns from 1
        observation = seen.observation
        if turn >= turns.stop:
            break
        if turn < turns.start or not isinstance(observation, OpponentMoveResult):
            free.observe(observation)
            bounded.observe(observation)
            continue
        clock = clock_before(log, turn, increment)
        parents = len(bounded.board_set)
        began = time.perf_counter()
        free.observe(observation)
        free_seconds = time.perf_counter() - began
        seconds = tracking_budget(plan, clock) if clock is not None else None
        began = time.perf_counter()
        bounded.observe(observation, seconds)
        bounded_seconds = time.perf_counter() - began
        rows.append(
            Turn(
                turn,
                clock,
                parents,
                len(free.board_set),
                free_seconds,
                len(bounded.board_set),
                bounded_seconds,
            )
        )
    return rows


def table(rows: list[Turn]) -> str:
    lines = [
        "| turn | clock (s) | boards before | unbounded: after | s | clock-bounded: after | s |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        clock = f"{r.clock:.1f}" if r.clock is not None else "-"
        lines.append(
            f"| {r.turn} | {clock} | {r.parents:,} | {r.free_boards:,} | {r.free_seconds:.2f} |"
            f" {r.bounded_boards:,} | {r.bounded_seconds:.2f} |"
        )
    free = sum(r.free_seconds for r in rows)
    bounded = sum(r.bounded_seconds for r in rows)
    lines.append(f"| all | | | | {free:.2f} | | {bounded:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--game", type=int, required=True, help="the game's id")
    parser.add_argument("--side", choices=("white", "black"), help="default: the side that lost")
    parser.add_argument("--from-turn", type=int, default=1, help="first turn shown (default 1)")
    parser.add_argument("--to-turn", type=int, help="last turn shown (default: the game's last)")
    parser.add_argument("--seed", type=int, default=0, help="the trackers' samples (default 0)")
    args = parser.parse_args(argv)
    history, logs = stored_game(args.database, args.game)
    if args.side is None:
        winner = history.get_winner_color()
        color = chess.WHITE if winner is None else not winner
    else:
        color = args.side == "white"
    log, increment = logs[color]
    last = args.to_turn if args.to_turn is not None else 10_000
    turns = range(args.from_turn, last + 1)
    rows = replay(history, color, log, increment, turns, ClockPlan(), args.seed)
    print(f"{args.database} game {args.game}, {chess.COLOR_NAMES[color]}, one thread")
    print(table(rows))


if __name__ == "__main__":
    main()
