"""Writes an opening book for sequential tests (`fogsearch tournament --book FILE`): many
balanced lines instead of the built-in 36.

With 36 lines and two deterministic bots, an SPRT replays games: 17 of 152 games of the
threat weight's test repeated an earlier one move for move, so its games were less independent
than the test assumes. Engine testers play from books of thousands of positions; this draws one.
Each line is a random walk from the start: at every half-move Stockfish scores each legal move
(fixed depth, one thread, so the same seed gives the same book), and the walk picks uniformly
among the moves within ``--window`` centipawns of the best; a line is kept when its end is
within ``--balance`` of level and no line kept before has the same position.

    python bench/make_book.py --lines 1000 --plies 6 --depth 6 --window 30 --seed 0 --out bench/books/balanced6.txt
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import chess
import chess.engine

from fogsearch.opponents.stockfish import require_stockfish, stockfish_version
from fogsearch.tournament.openings import MAX_BOOK_LINES, MAX_BOOK_PLIES, load_book

MATE_CP = 100_000


def scored_moves(engine: chess.engine.SimpleEngine, board: chess.Board, depth: int):
    """(move, centipawns for the side to move) of every legal move, from one multi-PV search."""
    infos = engine.analyse(
        board, chess.engine.Limit(depth=depth), multipv=board.legal_moves.count()
    )
    return [
        (info["pv"][0], info["score"].pov(board.turn).score(mate_score=MATE_CP))
        for info in infos
        if info.get("pv")
    ]


def draw_line(engine, rng: random.Random, plies: int, depth: int, window: int):
    """A random walk of ``plies`` half-moves among near-best moves; the board at its end."""
    board = chess.Board()
    for _ in range(plies):
        moves = scored_moves(engine, board, depth)
        best = max(score for _, score in moves)
        near = sorted(move.uci() for move, score in moves if score >= best - window)
        board.push(chess.Move.from_uci(rng.choice(near)))
    return board


def level(engine, board: chess.Board, depth: int) -> int:
    """White's centipawns at the line's end."""
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    return info["score"].white().score(mate_score=MATE_CP)


def make_book(args, engine, progress=None) -> list[str]:
    rng = random.Random(args.seed)
    lines, seen = [], set()
    tries = 0
    while len(lines) < args.lines:
        tries += 1
        if tries > 20 * args.lines:
            sys.exit(f"only {len(lines)} distinct balanced lines in {tries - 1} tries")
        board = draw_line(engine, rng, args.plies, args.depth, args.window)
        position = board.epd()
        if position in seen or abs(level(engine, board, args.depth)) > args.balance:
            continue
        seen.add(position)
        lines.append(" ".join(move.uci() for move in board.move_stack))
        if progress:
            progress.update(1)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--plies", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=8, help="Stockfish's depth a position")
    parser.add_argument("--window", type=int, default=40, help="cp below the best a move may be")
    parser.add_argument("--balance", type=int, default=60, help="largest |cp| at the line's end")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if not 1 <= args.lines <= MAX_BOOK_LINES:
        parser.error(f"--lines must be in 1..{MAX_BOOK_LINES}")
    if not 1 <= args.plies <= MAX_BOOK_PLIES:
        parser.error(f"--plies must be in 1..{MAX_BOOK_PLIES}")
    if not 1 <= args.depth <= 30 or args.window < 0 or args.balance < 0:
        parser.error("--depth must be in 1..30, --window and --balance at least 0")

    from tqdm import tqdm

    engine = chess.engine.SimpleEngine.popen_uci(require_stockfish("make_book.py"))
    try:
        engine.configure({"Threads": 1, "Hash": 16})
        with tqdm(total=args.lines, desc="lines", disable=not sys.stderr.isatty()) as bar:
            lines = make_book(args, engine, bar)
    finally:
        engine.quit()
    header = (
        f"# {args.lines} lines of {args.plies} half-moves: python bench/make_book.py --lines "
        f"{args.lines} --plies {args.plies} --seed {args.seed} --depth {args.depth} --window "
        f"{args.window} --balance {args.balance} ({stockfish_version()})\n"
    )
    args.out.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    load_book(args.out)  # the tournament's own reader accepts it
    print(f"{len(lines)} lines in {args.out}")


if __name__ == "__main__":
    main()
