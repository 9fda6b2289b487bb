"""bench/tracking_clock.py: the clock read from the turn log, and the replay of the time-loss
game's last turns before its sets grew to millions, where the clock allows every expansion whole."""

import subprocess
import sys
from pathlib import Path

import chess
import tracking_clock as bench

from fogsearch.bot import ClockPlan

BENCH = Path(__file__).parent
DRAW = BENCH / "data" / "sprt_draw.sqlite"


def test_the_clock_is_the_previous_turns_less_its_search_plus_the_increment():
    log = {4: {"seconds_left": 30.0, "search_seconds": 2.5}}
    assert bench.clock_before(log, 5, 1.0) == 28.5
    assert bench.clock_before(log, 4, 1.0) is None  # no turn before it in the log


def test_where_the_clock_allows_it_the_bounded_tracker_expands_the_whole_set():
    history, logs = bench.stored_game(str(DRAW), 151)
    log, increment = logs[chess.BLACK]
    assert increment == 1.0
    rows = bench.replay(history, chess.BLACK, log, increment, range(50, 55), ClockPlan(), 0)
    assert [r.turn for r in rows] == [50, 51, 52, 53, 54]
    # Sets of up to 37,326 boards at 32-34 s: every expansion fits, so both trackers agree.
    assert all(r.free_boards == r.bounded_boards for r in rows)
    assert [r.free_boards for r in rows] == [707, 3_899, 49_077, 496_966, 688_583]
    assert all(r.clock is not None and 30 < r.clock < 35 for r in rows)


def test_the_script_prints_the_table():
    result = subprocess.run(
        [
            sys.executable,
            "tracking_clock.py",
            str(DRAW),
            "--game",
            "151",
            "--from-turn",
            "50",
            "--to-turn",
            "51",
        ],
        cwd=BENCH,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "game 151, black, one thread" in result.stdout
    assert "| 51 | 33.5 | 99 | 3,899 |" in result.stdout
