"""bench/make_book.py draws a book the tournament reads: distinct, balanced, the same for a seed."""

import chess
import pytest
from script_runs import run_script
from test_search_searcher import HAVE_STOCKFISH

from fogsearch.tournament.openings import load_book

pytestmark = pytest.mark.skipif(not HAVE_STOCKFISH, reason="needs Stockfish (scripts/install.sh)")


def drawn(path, seed: int) -> tuple[str, ...]:
    args = ["--lines", "6", "--plies", "4", "--depth", "4", "--seed", str(seed)]
    out = run_script("make_book.py", *args, "--out", str(path), timeout=300)
    assert f"6 lines in {path}" in out
    return load_book(path)


def test_the_book_is_distinct_lines_the_tournament_reads_and_a_seed_redraws_it(tmp_path):
    book = drawn(tmp_path / "a.txt", seed=3)
    assert len(book) == 6 and all(len(line.split()) == 4 for line in book)
    positions = set()
    for line in book:
        board = chess.Board()
        for move in line.split():
            board.push_uci(move)
        positions.add(board.epd())
    assert len(positions) == 6
    assert drawn(tmp_path / "b.txt", seed=3) == book
    assert (tmp_path / "a.txt").read_text().startswith("# 6 lines of 4 half-moves")
