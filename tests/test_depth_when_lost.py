"""bench/depth_when_lost.py: depth 3 against depth 2 on sets the bot held against TroutBot."""

import importlib.util
import sys
from pathlib import Path

import chess

ROOT = Path(__file__).parents[1]
spec = importlib.util.spec_from_file_location(
    "depth_when_lost", ROOT / "bench" / "depth_when_lost.py"
)
depth_when_lost = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = depth_when_lost  # its dataclass looks its module up by name
spec.loader.exec_module(depth_when_lost)


def test_a_recorded_set_where_only_depth_3_finds_every_request_lost():
    sets = [c.fens for c in depth_when_lost.trout_cases(4, 4) if c.game == "trout01"]
    outcomes = [depth_when_lost.measure(fens, seconds=60.0) for fens in sets]
    assert all(o.completed for o in outcomes)
    assert any(o.lost_only_deeper for o in outcomes)


def test_the_start_is_lost_at_no_depth():
    outcome = depth_when_lost.measure([chess.STARTING_FEN], seconds=60.0)
    assert outcome.completed and not outcome.lost_only_deeper


def test_a_search_out_of_time_counts_as_not_completed_and_not_lost():
    sets = [c.fens for c in depth_when_lost.trout_cases(4, 4) if c.game == "trout01"]
    outcome = depth_when_lost.measure(sets[0], seconds=1e-6)
    assert not outcome.completed and not outcome.lost_only_deeper and not outcome.best_changed


def test_sizes_fall_in_exactly_one_band():
    for boards in (2, 8, 9, 32, 33, 512, 513, 20_000):
        low, high = depth_when_lost.band_of(boards)
        assert low <= boards <= high
