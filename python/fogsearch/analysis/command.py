"""``fogsearch losses``: the loss analysis (:mod:`fogsearch.analysis.losses`) of a stored game."""

from __future__ import annotations

import argparse
import json

import chess
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.analysis.losses import (
    DEFAULT_MAX_BOARDS,
    DEFAULT_MODEL,
    DEFAULT_SHARE_BOARDS,
    as_json,
    losses,
    table,
)
from fogsearch.arguments import UsageError, bounded_int, existing_file
from fogsearch.bot.turnlog import read_turn_log
from fogsearch.rbc import opponent_model_settings

MOST_BOARDS = 50_000_000
"""Far past any set this machine's memory holds."""
BOT_NAMES = ("fogsearch",)
"""Player names that mark the bot's side of a stored game when ``--color`` is not given."""


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "losses",
        help="the turns of a stored game where the bot lost material, with what it believed",
    )
    p.add_argument("game", help="a reconchess GameHistory JSON file, or with --db a game's id")
    p.add_argument("--log", default=None, help="the bot's turn log for that game (its log lines)")
    p.add_argument(
        "--db",
        default=None,
        help="read the game (and the bot's turn log stored with it) from this tournament database",
    )
    p.add_argument(
        "--color",
        choices=["white", "black"],
        default=None,
        help="the bot's colour (default: the side whose player name starts with 'fogsearch')",
    )
    p.add_argument(
        "--max-boards",
        type=bounded_int(1, MOST_BOARDS, "the replayed set's bound"),
        default=DEFAULT_MAX_BOARDS,
        help=f"stop the replay when the set would grow past this ({DEFAULT_MAX_BOARDS})",
    )
    p.add_argument(
        "--share-boards",
        type=bounded_int(1, MOST_BOARDS, "boards counted per share"),
        default=DEFAULT_SHARE_BOARDS,
        help=f"count the shares on at most this many boards, evenly spaced ({DEFAULT_SHARE_BOARDS})",
    )
    p.add_argument(
        "--opponent-model",
        type=opponent_model,
        default=DEFAULT_MODEL,
        help="the bot's opponent model as TEMPERATURE_CP,UNIFORM_SHARE, or none "
        "(default " + ",".join(f"{x:g}" for x in DEFAULT_MODEL or ()) + ", the bot's)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(handler=run)


def opponent_model(text: str) -> tuple[float, float] | None:
    """An argparse type: ``none`` or ``TEMPERATURE_CP,UNIFORM_SHARE`` within the core's
    bounds."""
    if text.strip().lower() == "none":
        return None
    try:
        temperature, share = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not TEMPERATURE_CP,UNIFORM_SHARE (for example 200,0.1) or none"
        ) from None
    try:
        return opponent_model_settings(temperature, share)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None


def _color(history: GameHistory, asked: str | None, logs: dict | None = None) -> chess.Color:
    """The bot's side: as asked, else the one side that kept a turn log, else by name."""
    if asked is not None:
        return asked == "white"
    if logs is not None and len(logs) == 1:
        return next(iter(logs))
    white, black = history.get_white_player_name(), history.get_black_player_name()
    sides = [
        color
        for color, name in ((chess.WHITE, white), (chess.BLACK, black))
        if str(name).lower().startswith(BOT_NAMES)
    ]
    if len(sides) != 1:
        raise UsageError(f"cannot tell the bot's side of {white} v {black}: give --color")
    return sides[0]


def _stored_game(db: str, game: str) -> tuple[GameHistory, dict[bool, list[dict]]]:
    """Game ``game`` (its id) of the tournament database ``db``: its history and stored logs."""
    from fogsearch.tournament import ResultStore

    if not game.isdigit():
        raise UsageError(f"with --db, name the game by its id (a number), not {game!r}")
    with ResultStore(str(existing_file(db, "results database"))) as store:
        try:
            text, logs = store.history_json(int(game)), store.turn_logs(int(game))
        except KeyError:
            raise UsageError(f"{db} holds no game with id {game}") from None
    return json.loads(text, cls=GameHistoryDecoder), logs


def _read_game(
    args: argparse.Namespace,
) -> tuple[str, GameHistory, chess.Color, dict[int, dict] | None]:
    """The game's name, its history, the bot's side and its turn log by turn number (or None)."""
    logs = None
    if args.db is not None:
        history, logs = _stored_game(args.db, args.game)
        name = f"game {args.game}"
    else:
        path = existing_file(args.game, "game file")
        try:
            history = GameHistory.from_file(str(path))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"{path} is not a reconchess game history: {exc}") from None
        name = path.name
    if not isinstance(history, GameHistory) or history.is_empty():
        raise UsageError(f"{name} is not a reconchess game history (or holds no turn)")
    # A stored game's side that kept a turn log is the bot's, whatever the players were called.
    color = _color(history, args.color, logs)
    if args.log is not None:
        turn_log = read_turn_log(existing_file(args.log, "turn log").read_text())
    else:
        rows = (logs or {}).get(color)
        turn_log = {row["turn"]: row for row in rows} if rows else None
    return name, history, color, turn_log


def run(args: argparse.Namespace) -> int:
    name, history, color, turn_log = _read_game(args)
    rows = losses(
        history,
        color,
        turn_log,
        max_boards=args.max_boards,
        share_boards=args.share_boards,
        opponent_model=args.opponent_model,
    )
    if args.json:
        print(json.dumps(as_json(rows), indent=1))
    else:
        print(f"{name}: the bot as {chess.COLOR_NAMES[color]}, {len(rows)} losses")
        print(table(rows))
    return 0
