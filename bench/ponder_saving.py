"""How much of the bot's turn pondering saves, on a recorded game.

Replays one side of a stored reconchess game through the bot twice, with ``ponder`` off and on
(every other setting its default unless ``--bot`` says otherwise): at each turn the bot gets the
game's opponent move result, chooses its sense (answered from the true board), and is given the
game's own move result; its move search is skipped, since pondering does not change it (the move
gets whatever time the turn's start saved). Between turns the pondering bot gets
``while_we_wait`` calls until its work is done or ``--ponder-seconds`` have passed, as the
opponent's think time would allow. Prints per turn the seconds from the opponent's result to the
sense decision, without and with pondering, what was reused, and the slices' longest call; then
the totals. The clock each turn's budget is planned from is the bot's logged clock
(``--log``), else ``--clock``.

    python bench/ponder_saving.py GAME.json --log GAME-fog.txt [--color white] [--bot threads=1]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

import chess
from reconchess import GameHistory

from fogsearch.bot import FogsearchBot
from fogsearch.bot.turnlog import read_turn_log
from fogsearch.tournament.players import PlayerSpec


def sense_result(board: chess.Board, square):
    if square is None:
        return []
    rank, file = chess.square_rank(square), chess.square_file(square)
    return [
        (chess.square(f, r), board.piece_at(chess.square(f, r)))
        for r in range(max(0, rank - 1), min(8, rank + 2))
        for f in range(max(0, file - 1), min(8, file + 2))
    ]


def run(config, history, color, clocks, ponder_seconds, turns):
    bot = FogsearchBot(config)
    bot.handle_game_start(color, chess.Board(), "opponent")
    rows = []
    for turn in list(history.turns(color))[:turns]:
        capture = history.capture_square(turn.previous) if history.has_move(turn.previous) else None
        if turn.turn_number == 0 and color == chess.WHITE:
            capture = None
        clock = clocks.get(turn.turn_number + 1, 300.0)
        started = time.perf_counter()
        bot.handle_opponent_move_result(capture is not None, capture)
        sensed = bot.choose_sense(list(chess.SQUARES), [], clock)
        opening = time.perf_counter() - started
        bot.handle_sense_result(sense_result(history.truth_board_before_move(turn), sensed))
        requested, taken, square = history.move_result(turn)
        bot.handle_move_result(requested, taken, square is not None, square)
        slices, longest, slowest, pondered = 0, 0.0, "-", time.perf_counter()
        while bot.ponder.busy and time.perf_counter() - pondered < ponder_seconds:
            one = time.perf_counter()
            bot.while_we_wait()
            if time.perf_counter() - one > longest:
                longest, slowest = time.perf_counter() - one, bot.ponder.last_slice[0]
            slices += 1
        rows.append(
            dict(
                turn=turn.turn_number + 1,
                boards=bot.turn_log[-1]["after_opponent"],
                opening=opening,
                sense=bot.turn_log[-1].get("sense"),
                reused=bot.turn_log[-1]["pondered"],
                slices=slices,
                longest=longest,
                slowest=slowest,
                ponder=time.perf_counter() - pondered,
                finished=not bot.ponder.busy,
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--log", default=None)
    parser.add_argument("--color", choices=["white", "black"], default=None)
    parser.add_argument("--bot", default="threads=1", help="bot settings, as in fogsearch:...")
    parser.add_argument("--ponder-seconds", type=float, default=10.0)
    parser.add_argument("--turns", type=int, default=1000)
    args = parser.parse_args()
    history = GameHistory.from_file(args.game)
    color = (
        args.color == "white"
        if args.color
        else history.get_white_player_name().lower().startswith("fogsearch")
    )
    clocks = {}
    if args.log:
        with open(args.log) as log:
            clocks = {t: f["seconds_left"] for t, f in read_turn_log(log.read()).items()}
    base = PlayerSpec.parse(f"fogsearch:{args.bot}").fogsearch_config()
    off = dataclasses.replace(base, ponder=False)
    on = dataclasses.replace(base, ponder=True)
    off = run(off, history, color, clocks, 0.0, args.turns)
    on = run(on, history, color, clocks, args.ponder_seconds, args.turns)
    print(
        "| turn | boards without | with | sense without | with | to sense, s without | with "
        "| reused | slices | longest slice s | what | ponder s |"
    )
    print("|---" * 12 + "|")
    for a, b in zip(off, on, strict=True):
        print(
            f"| {a['turn']} | {a['boards']} | {b['boards']} | {a['sense']} | {b['sense']} | "
            f"{a['opening']:.3f} | "
            f"{b['opening']:.3f} | {'+'.join(b['reused']) or '-'} | {b['slices']} | "
            f"{b['longest']:.3f} | {b['slowest']} | "
            f"{b['ponder']:.2f}{'' if b['finished'] else ' (cut)'} |"
        )
    saved = [a["opening"] - b["opening"] for a, b in zip(off, on, strict=True)]
    print(
        f"\nturns {len(off)}: to the sense decision {sum(a['opening'] for a in off):.1f} s without "
        f"pondering, {sum(b['opening'] for b in on):.1f} s with; saved {sum(saved):.1f} s "
        f"(median {statistics.median(saved):.2f} s a turn); same sense on "
        f"{sum(a['sense'] == b['sense'] for a, b in zip(off, on, strict=True))} of {len(off)} turns; longest "
        f"while_we_wait call {max(b['longest'] for b in on):.3f} s"
    )


if __name__ == "__main__":
    main()
