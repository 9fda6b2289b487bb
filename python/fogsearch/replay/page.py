"""The replay page (one self-contained HTML file: data, script and style inline) and a
tournament's index page; both written to a temporary file and renamed, so that a failed build
leaves no partial page."""

from __future__ import annotations

import html
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import chess
from reconchess import GameHistory

from fogsearch.replay.assets import CSS, JS
from fogsearch.replay.frames import SHARE_UNITS, Frame, game_frames

PIECE_BUTTONS = ("all", "pawn", "knight", "bishop", "rook", "queen", "king")

BODY = """<h1 id="title"></h1>
<div id="controls">
  <button id="prev" title="left arrow">&#9664;</button>
  <input id="slider" type="range" min="0" value="0" aria-label="turn">
  <button id="next" title="right arrow">&#9654;</button>
  <span id="turn-label"></span>
  <span>side: <button data-side-button="0">White</button><button data-side-button="1">Black</button></span>
  <span>opponent piece: {pieces}</span>
  <button id="model" title="weight boards by the bot's opponent model">model weights</button>
</div>
<div id="boards">
  <div class="panel"><h2>true board, sense (blue), requested (grey) and taken (green) move</h2>
    <svg id="truth" width="352" height="352" viewBox="0 0 352 352"></svg></div>
  <div class="panel"><h2>belief: where the side's board set puts the opponent's pieces (%)</h2>
    <svg id="belief" width="352" height="352" viewBox="0 0 352 352"></svg></div>
  <div class="panel" id="info"></div>
</div>
<svg id="chart" width="640" height="170" viewBox="0 0 640 170"></svg>
<div class="legend">keys: left/right a turn, Home/End the first/last turn. Red square on the true
board: where the opponent just captured; orange: where the move captured. Belief: the side's set
after its sense, every board equally likely unless "model weights" is on.</div>
<div id="moves"></div>
"""


def build_page(
    history: GameHistory,
    logs: dict[chess.Color, list[dict]] | None = None,
    max_boards: int | None = None,
    frames: dict[chess.Color, list[Frame]] | None = None,
) -> str:
    """The page of ``history`` (the bot's log entries by colour in ``logs``)."""
    if frames is None:
        kwargs = {} if max_boards is None else {"max_boards": max_boards}
        frames = game_frames(history, logs, **kwargs)
    data = page_data(history, frames)
    # No "<" in the script element: "</script" would end it early, "<!--" changes its parsing.
    blob = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    pieces = "".join(
        f'<button data-piece="{i}">{name}</button>' for i, name in enumerate(PIECE_BUTTONS)
    )
    title = html.escape(f"{history.get_white_player_name()} vs {history.get_black_player_name()}")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}: fogsearch replay</title><style>{CSS}</style></head><body>"
        f"{BODY.format(pieces=pieces)}"
        f'<script id="game-data" type="application/json">{blob}</script>'
        f"<script>{JS}</script></body></html>\n"
    )


def page_data(history: GameHistory, frames: dict[chess.Color, list[Frame]]) -> dict:
    winner = history.get_winner_color()
    reason = history.get_win_reason()
    result = "draw" if winner is None else f"{chess.COLOR_NAMES[winner]} won"
    if reason is not None:
        result += f" ({reason.name.lower().replace('_', ' ')})"
    sides = [[_frame_data(f) for f in frames[c]] for c in (chess.WHITE, chess.BLACK)]
    return {
        "white": history.get_white_player_name() or "White",
        "black": history.get_black_player_name() or "Black",
        "result": result,
        "units": SHARE_UNITS,
        "hasModel": any(f.model_belief is not None for fs in frames.values() for f in fs),
        "sides": sides,
    }


def _frame_data(f: Frame) -> dict:
    log = None
    if f.log:
        keep = (
            "value",
            "depth",
            "plies",
            "sense_by",
            "weighed",
            "tied",
            "search_seconds",
            "budget",
        )
        log = {k: f.log[k] for k in keep if f.log.get(k) is not None}
        if f.log.get("top"):  # the bot's best requests with their values (bot.turnlog)
            log["weighed"] = {str(request): value for request, value in f.log["top"]}
    return {
        "t": f.turn,
        "side": 0 if f.color == chess.WHITE else 1,
        "truth": f.truth.split(" ")[0],
        "oc": f.opponent_capture,
        "s": f.sense,
        "sr": f.sense_result,
        "rq": f.requested,
        "tk": f.taken,
        "c": f.capture,
        "n": [f.before_sense, f.after_sense, f.after_move],
        "ts": f.truth_share,
        "mts": f.model_truth_share,
        "b": f.belief,
        "mb": f.model_belief,
        "lost": f.lost_material,
        "mark": f.marked,
        "log": log,
        "stop": f.stopped,
    }


def write_page(path: str | Path, text: str) -> Path:
    """Writes ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            fp.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_index(
    folder: str | Path,
    title: str,
    standings: str,
    games: Iterable[tuple[str, str]],
    plot: str | None,
) -> Path:
    """``folder/index.html``: the standings (preformatted text), the plot image if any (a file in
    ``folder``), and a link per game (``(label, file name)``)."""
    links = "\n".join(
        f'<li><a href="{html.escape(name)}">{html.escape(label)}</a></li>' for label, name in games
    )
    image = f'<p><img src="{html.escape(plot)}" alt="standings plot"></p>' if plot else ""
    text = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><pre>{html.escape(standings)}</pre>{image}"
        f"<h2>games</h2><ol>{links}</ol></body></html>\n"
    )
    return write_page(Path(folder) / "index.html", text)
