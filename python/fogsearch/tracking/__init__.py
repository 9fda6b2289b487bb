"""Board-set tracking of whole games: replaying a reconchess ``GameHistory`` through board sets
(:mod:`.replay`), the baseline player (:mod:`.baseline_player`) and the demo game between two
such bots (:mod:`.demo_game`), the report of a tracked game (:mod:`.report`), and the
``demo`` and ``track`` commands (:mod:`.command`)."""

from fogsearch.tracking.baseline_player import BASELINE_BOTS, GreedySensing
from fogsearch.tracking.command import (
    BYTES_PER_BOARD,
    MAX_TURNS_WHY,
    add_max_boards,
    add_parsers,
    boards_in_memory,
    run_demo,
    run_track,
)
from fogsearch.tracking.demo_game import play_baseline_game
from fogsearch.tracking.replay import (
    TRACK_MAX_BOARDS,
    Seen,
    TurnSizes,
    interleave,
    observations,
    replay,
)
from fogsearch.tracking.report import format_rows, print_report

__all__ = [
    "BASELINE_BOTS",
    "BYTES_PER_BOARD",
    "MAX_TURNS_WHY",
    "TRACK_MAX_BOARDS",
    "GreedySensing",
    "Seen",
    "TurnSizes",
    "add_max_boards",
    "add_parsers",
    "boards_in_memory",
    "format_rows",
    "interleave",
    "observations",
    "play_baseline_game",
    "print_report",
    "replay",
    "run_demo",
    "run_track",
]
