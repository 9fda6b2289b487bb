"""bench/hanging_share.py: when a moved piece hangs, checked on positions built for each case,
and the shares and replies of two losing moves of the odds match's game 12."""

import subprocess
import sys
from itertools import takewhile
from pathlib import Path

import chess
import hanging_share as bench
import pytest
from loss_replay import player_games, read_only

BENCH = Path(__file__).parent
ODDS = BENCH / "data" / "strangefish2_odds.sqlite"


@pytest.mark.parametrize(
    ("fen", "move", "hanging"),
    [
        # A knight onto a square a pawn attacks: a cheaper attacker, defended or not.
        ("4k3/8/2p5/8/8/2N5/8/3QK3 w - - 0 1", "c3d5", True),
        # Onto a square only a rook attacks, defended by our pawn: it does not hang.
        ("3rk3/8/8/8/4P3/2N5/8/4K3 w - - 0 1", "c3d5", False),
        # The same square undefended: it hangs to the rook.
        ("3rk3/8/8/8/8/2N5/8/4K3 w - - 0 1", "c3d5", True),
        # A square no opponent piece attacks.
        ("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", "c3d5", False),
        # Our king onto a square a knight attacks hangs though our queen defends it; a step
        # beside it does not.
        ("4k3/8/8/8/5n2/8/3Q4/4K3 w - - 0 1", "e1e2", True),
        ("4k3/8/8/8/5n2/8/3Q4/4K3 w - - 0 1", "e1f1", False),
        # A blocked pawn push is taken as a pass: nothing moves, nothing hangs.
        ("4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e3e4", False),
        # A slide stopped by an opponent piece captures it and stands there: the rook on d4
        # (not d8) is attacked by the pawn on e5.
        ("4k3/8/8/4p3/3n4/8/8/3RK3 w - - 0 1", "d1d8", True),
        # A promotion counts the new queen: a rook attacks it and nothing defends it.
        ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", True),
    ],
)
def test_a_moved_piece_hangs_when_attacked_cheaper_or_undefended(fen, move, hanging):
    assert bench.hangs(fen, chess.Move.from_uci(move)) is hanging


def test_the_stride_reads_every_board_or_an_even_spread():
    assert bench.stride(5, 10).tolist() == [0, 1, 2, 3, 4]
    spread = bench.stride(1_000, 10)
    assert len(spread) == 10 and spread[0] == 0 and spread[-1] == 999


def test_a_capture_meant_as_a_trade_hangs_everywhere_and_a_king_on_part_of_a_small_set():
    # Odds game 12 (the bot Black). Turn 12: c5d3 on 3,799 boards, a capture on most of them,
    # the knight attacked by a cheaper piece on every one; on the true board nothing stood on
    # d3 and the queen took it. Turn 20: the king stepped to h7 on 5 boards and was taken there.
    games = player_games(read_only(str(ODDS)), "fogsearch")
    color, history = next((c, h) for i, c, _, h in games if i + 1 == 12)
    replay = bench.moves("odds", 12, history, color, most=2_000)
    rows = {m.turn: m for m in takewhile(lambda m: m.turn <= 20, replay)}
    knight, king = rows[12], rows[20]
    assert (knight.move, knight.boards, knight.reply) == ("c5d3", 3799, "lost the moved piece")
    assert knight.whole == knight.likeliest == pytest.approx(1.0)
    assert (king.move, king.boards, king.reply) == ("g8h7", 5, "lost the moved piece")
    assert 0 < king.whole < 1 and king.likeliest == pytest.approx(king.whole)


def test_the_table_splits_the_moves_by_reply_and_the_script_starts():
    rows = [
        bench.Move("db", 1, 2, "c3d5", 300, 0.30, 0.0, "lost the moved piece"),
        bench.Move("db", 1, 4, "e2e4", 300, 0.0, 0.0, "lost nothing"),
        bench.Move("db", 1, 6, "d2d4", 300, 0.06, 0.06, "lost nothing"),
    ]
    lines = bench.table(rows)
    assert lines[2] == "| lost the moved piece | 1 | 0.300 | 0.000 | 1.00 | 1.00 | 1.00 | 1 of 1 |"
    assert lines[3] == "| lost nothing | 2 | 0.030 | 0.030 | 0.50 | 0.00 | 0.00 | 0 of 1 |"
    done = subprocess.run(
        [sys.executable, "hanging_share.py", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BENCH,
    )
    assert done.returncode == 0 and "usage:" in done.stdout
