"""``fogsearch replay GAME.json -o game.html [--log TURNLOG]``, and the page writers that
``play --html``, ``tournament --html`` and ``track --html`` call."""

from __future__ import annotations

import time
from pathlib import Path

import chess
from reconchess import GameHistory

from fogsearch.arguments import UsageError, existing_file, writable_path
from fogsearch.replay.page import build_page, write_page
from fogsearch.replay.reading import ReplayError, history_from_json, read_history
from fogsearch.replay.turn_log import read_turn_log
from fogsearch.tracking import TRACK_MAX_BOARDS, add_max_boards, run_track


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "replay",
        help="write a game's replay page: true board, senses, moves and each side's exact belief",
    )
    p.add_argument("history", help="reconchess GameHistory JSON")
    p.add_argument("-o", "--output", required=True, help="the HTML page to write")
    p.add_argument(
        "--log",
        default=None,
        help="the fogsearch bot's turn log for this game (`fogsearch play` output or the bot's "
        "log lines): its value and depth per turn, and beliefs weighted by its opponent model",
    )
    add_max_boards(
        p, "stop tracking a side whose set would grow past this many boards (the page says so)"
    )
    p.set_defaults(handler=run)
    track = subparsers.choices.get("track")
    if track is not None:  # `fogsearch track GAME.json --html FILE`
        track.add_argument("--html", default=None, help="also write the game's replay page here")
        track.set_defaults(handler=run_track_with_page)


def run(args) -> int:
    path = existing_file(args.history, "game history")
    out = writable_path(args.output, "-o")
    log = existing_file(args.log, "--log") if args.log else None
    started = time.perf_counter()
    try:
        history = read_history(path)
        logs = read_turn_log(log, history) if log else None
        page = write_page(out, build_page(history, logs, max_boards=args.max_boards))
    except ReplayError as exc:
        raise UsageError(str(exc)) from None
    print(
        f"wrote {page} ({page.stat().st_size / 1e6:.2f} MB) in {time.perf_counter() - started:.1f}s"
    )
    return 0


def run_track_with_page(args) -> int:
    """``fogsearch track``, then the page where ``--html`` asks for one."""
    if args.html:
        writable_path(args.html, "--html")
    code = run_track(args)
    if args.html:
        try:
            history = read_history(args.history)
        except ReplayError as exc:
            raise UsageError(str(exc)) from None
        print(f"replay page: {save_replay(history, args.html, max_boards=args.max_boards)}")
    return code


def save_replay(
    history: GameHistory | str,
    out: str | Path,
    logs: dict[chess.Color, list[dict]] | None = None,
    max_boards: int = TRACK_MAX_BOARDS,
) -> Path:
    """The page of ``history`` (a GameHistory or its JSON) written to ``out``; a history that
    cannot be replayed is a :class:`UsageError` naming the turn."""
    try:
        if isinstance(history, str):
            history = history_from_json(history, "the game's history")
        return write_page(out, build_page(history, logs, max_boards=max_boards))
    except ReplayError as exc:
        raise UsageError(str(exc)) from None
