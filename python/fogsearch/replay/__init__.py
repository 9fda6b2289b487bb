"""The replay page: one self-contained HTML file per game that shows, turn by turn, the true
board, each side's sense and move, and each side's exact belief (its board set's per-square
piece shares).

- :mod:`.reading`: a reconchess ``GameHistory`` from a file or JSON text, checked move by move;
- :mod:`.turn_log`: the fogsearch bot's per-turn log (the ``play`` table or the bot's log lines);
- :mod:`.frames`: both sides replayed through board sets, and per turn what the page draws;
- :mod:`.page`: the HTML page (and a tournament's index page), written atomically.
"""

from fogsearch.replay.frames import Frame, game_frames
from fogsearch.replay.page import build_page, write_index, write_page
from fogsearch.replay.reading import ReplayError, history_from_json, read_history

__all__ = [
    "Frame",
    "ReplayError",
    "build_page",
    "game_frames",
    "history_from_json",
    "read_history",
    "write_index",
    "write_page",
]
