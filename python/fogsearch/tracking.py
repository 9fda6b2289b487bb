"""Board-set tracking of whole games: replaying a reconchess ``GameHistory`` through board sets,
and the demo, a live game between two reconchess baseline bots with both sides tracked."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass

import chess
import reconchess
from reconchess import GameHistory, LocalGame, play_turn

from fogsearch.arguments import (
    SEED,
    UsageError,
    bounded_int,
    existing_file,
    probability,
    writable_path,
)
from fogsearch.observations import MoveResult, Observation, OpponentMoveResult, sense_result
from fogsearch.rbc import BoardSet, BoardSetTooLargeError

TRACK_MAX_BOARDS = 1_000_000
"""Replays stop tracking a side whose set would grow past this: a player that senses at random
(AttackerBot, RandomBot) never shrinks its set, which then grows by every opponent move until
memory runs out (replaying a 31-turn game of the fogsearch bot against AttackerBot passed
24 GiB)."""


@dataclass
class Seen:
    """One observation of a player in a recorded game, with the true board (FEN) at that moment."""

    color: chess.Color
    turn_number: int
    observation: Observation
    truth_fen: str

    def apply(self, board_set: BoardSet) -> None:
        self.observation.apply(board_set)


def observations(history: GameHistory, color: chess.Color) -> Iterator[Seen]:
    """The callbacks the player of ``color`` received in ``history``, in order. After the
    opponent-move and sense callbacks ``truth_fen`` is the board the player faced; after its
    move it is the board its move produced."""
    previous = None
    for turn in history.turns():
        if turn.color != color:
            previous = turn
            continue
        capture = (
            history.capture_square(previous)
            if previous is not None and history.has_move(previous)
            else None
        )
        before = history.truth_fen_before_move(turn)
        yield Seen(
            color, turn.turn_number, OpponentMoveResult(capture is not None, capture), before
        )
        if history.has_sense(turn):
            yield Seen(color, turn.turn_number, sense_result(history.sense_result(turn)), before)
        if history.has_move(turn):
            requested, taken, capture_here = history.move_result(turn)
            after = history.truth_fen_after_move(turn)
            move = MoveResult(requested, taken, capture_here is not None, capture_here)
            yield Seen(color, turn.turn_number, move, after)


@dataclass
class TurnSizes:
    color: chess.Color
    turn_number: int
    after_opponent_move: int = 0
    after_sense: int = 0
    after_move: int = 0
    truth_in_set: bool = True
    stopped: str | None = None
    """Why tracking of this side stopped at this turn (its set grew past the limit), if it did."""


def replay(
    history: GameHistory, color: chess.Color, max_boards: int = TRACK_MAX_BOARDS
) -> list[TurnSizes]:
    """Replays the player of ``color`` through a board set; per turn, the set sizes after each
    observation and whether the true board was always in the set. If the set would grow past
    ``max_boards`` the last row says so in ``stopped`` and the replay of this side ends there."""
    board_set = BoardSet(color, max_boards=max_boards)
    rows: dict[int, TurnSizes] = {}
    for obs in observations(history, color):
        row = rows.setdefault(obs.turn_number, TurnSizes(color, obs.turn_number))
        try:
            obs.apply(board_set)
        except BoardSetTooLargeError as exc:
            row.stopped = str(exc)
            break
        field = {
            OpponentMoveResult: "after_opponent_move",
            MoveResult: "after_move",
        }.get(type(obs.observation), "after_sense")
        setattr(row, field, len(board_set))
        row.truth_in_set &= obs.truth_fen in board_set
    return list(rows.values())


BASELINE_BOTS = {
    "random": "reconchess.bots.random_bot",
    "attacker": "reconchess.bots.attacker_bot",
    "trout": "reconchess.bots.trout_bot",
}


class GreedySensing(reconchess.Player):
    """A baseline bot whose senses are chosen to shrink its own board set (with an optional share
    of random senses), and whose moves stay the bot's own. Baseline bots sense at random, which
    lets exact sets grow without bound; this keeps tracked games tractable."""

    def __init__(self, inner: reconchess.Player, random_sense_rate: float, rng: random.Random):
        self.inner = inner
        self.random_sense_rate = random_sense_rate
        self.rng = rng
        self.board_set: BoardSet | None = None

    def handle_game_start(self, color, board, opponent_name):
        self.board_set = BoardSet(color)
        self.inner.handle_game_start(color, board, opponent_name)

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        self.board_set.handle_opponent_move_result(captured_my_piece, capture_square)
        self.inner.handle_opponent_move_result(captured_my_piece, capture_square)

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        if self.rng.random() < self.random_sense_rate:
            return self.rng.choice(sense_actions)
        stats = self.board_set.sense_stats()
        return min(stats, key=lambda sq: (stats[sq], sq))

    def handle_sense_result(self, sense_result):
        self.board_set.handle_sense_result(sense_result)
        self.inner.handle_sense_result(sense_result)

    def choose_move(self, move_actions, seconds_left):
        return self.inner.choose_move(move_actions, seconds_left)

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self.board_set.handle_move_result(
            requested_move, taken_move, captured_opponent_piece, capture_square
        )
        self.inner.handle_move_result(
            requested_move, taken_move, captured_opponent_piece, capture_square
        )

    def handle_game_end(self, winner_color, win_reason, game_history):
        self.inner.handle_game_end(winner_color, win_reason, game_history)


def play_baseline_game(
    white: str,
    black: str,
    seed: int,
    max_turns: int | None,
    sensing: str = "greedy",
    random_sense_rate: float = 0.0,
) -> GameHistory:
    """A local reconchess game between two baseline bots (names from ``BASELINE_BOTS`` or module
    paths), seeded, stopped after ``max_turns`` full turns. ``sensing="greedy"`` replaces the
    bots' random senses by set-shrinking ones (``random_sense_rate`` of them stay random);
    ``sensing="bot"`` keeps the bots' own."""
    if sensing not in ("greedy", "bot"):
        raise ValueError(f"sensing must be 'greedy' or 'bot', got {sensing!r}")
    random.seed(seed)
    rng = random.Random(seed)
    players = {}
    for color, name in ((chess.WHITE, white), (chess.BLACK, black)):
        if name == "trout":
            from fogsearch.tournament.players import ensure_stockfish_env

            ensure_stockfish_env()
        _, cls = reconchess.load_player(BASELINE_BOTS.get(name, name))
        player = cls()
        if sensing == "greedy":
            player = GreedySensing(player, random_sense_rate, rng)
        players[color] = player
    game = LocalGame(seconds_per_player=900, full_turn_limit=max_turns)
    game.store_players(white, black)
    players[chess.WHITE].handle_game_start(chess.WHITE, game.board.copy(), black)
    players[chess.BLACK].handle_game_start(chess.BLACK, game.board.copy(), white)
    game.start()
    while not game.is_over():
        play_turn(game, players[game.turn], end_turn_last=True)
    game.end()
    for player in players.values():
        player.handle_game_end(
            game.get_winner_color(), game.get_win_reason(), game.get_game_history()
        )
        inner = getattr(player, "inner", player)
        if getattr(inner, "engine", None) is not None:
            inner.engine.quit()
    return game.get_game_history()


def format_rows(rows: list[TurnSizes]) -> str:
    lines = [
        f"{'turn':>4} {'side':<5} {'after opp. move':>15} {'after sense':>11} {'after move':>10}  truth in set"
    ]
    for r in rows:
        lines.append(
            f"{r.turn_number:>4} {chess.COLOR_NAMES[r.color]:<5} {r.after_opponent_move:>15} "
            f"{r.after_sense:>11} {r.after_move:>10}  {'yes' if r.truth_in_set else 'NO'}"
            + (f"  (tracking stopped: {r.stopped})" if r.stopped else "")
        )
    return "\n".join(lines)


def interleave(history: GameHistory, max_boards: int = TRACK_MAX_BOARDS) -> list[TurnSizes]:
    """Both players' rows, in the order the turns were played."""
    white = replay(history, chess.WHITE, max_boards)
    black = replay(history, chess.BLACK, max_boards)
    rows = [*white, *black]
    return sorted(rows, key=lambda r: (r.turn_number, r.color == chess.BLACK))


MAX_TURNS_WHY = "the 100-half-move rule ends every game within about 6,300 turns"
BYTES_PER_BOARD = 420
"""Memory of a tracked board at an expansion's peak (bench/rbc_memory.py): bounds --max-boards."""


def add_parsers(subparsers) -> None:
    demo = subparsers.add_parser(
        "demo",
        help="a local game between two baseline bots, both sides tracked by fogsearch board sets",
    )
    demo.add_argument("--white", default="random", help="random, attacker, trout or a bot module")
    demo.add_argument("--black", default="attacker")
    demo.add_argument("--seed", type=SEED, default=0)
    demo.add_argument(
        "--max-turns",
        type=bounded_int(1, 10_000, MAX_TURNS_WHY),
        default=40,
        help="full turns before a draw",
    )
    demo.add_argument(
        "--sensing",
        choices=["greedy", "bot"],
        default="greedy",
        help="greedy: senses that shrink each side's set (default); bot: the bots' own random senses",
    )
    demo.add_argument(
        "--random-sense-rate",
        type=probability,
        default=0.25,
        help="share of greedy senses replaced by random ones (0..1)",
    )
    demo.add_argument("--save", default=None, help="save the reconchess GameHistory JSON here")
    demo.set_defaults(handler=run_demo)

    track = subparsers.add_parser(
        "track", help="replay a saved reconchess GameHistory through board sets"
    )
    track.add_argument("history", help="GameHistory JSON (as saved by reconchess)")
    most_boards = _boards_in_memory()
    for p in (demo, track):
        p.add_argument(
            "--max-boards",
            type=bounded_int(
                1,
                most_boards,
                f"a positive number of boards, at most what this machine's memory holds at "
                f"{BYTES_PER_BOARD} bytes a board",
                what="a whole number of boards",
            ),
            default=min(TRACK_MAX_BOARDS, most_boards),
            help="stop tracking a side whose set would grow past this many boards",
        )
    track.set_defaults(handler=run_track)


def _boards_in_memory() -> int:
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: 16 GiB assumed
        memory = 16 * 2**30
    return max(1, memory // BYTES_PER_BOARD)


def _check_demo_player(name: str, side: str) -> None:
    """The demo plays reconchess bots without settings: a baseline name or a bot module/file."""
    from fogsearch.tournament.players import PlayerSpec

    if name not in BASELINE_BOTS and (
        ":" in name or "@" in name or name in ("fogsearch", "trout-set")
    ):
        raise UsageError(
            f"--{side} {name}: the demo plays {', '.join(BASELINE_BOTS)} or a reconchess bot "
            "module or .py file, without settings"
        )
    PlayerSpec(name).check()


def _report(history: GameHistory, max_boards: int) -> int:
    rows = interleave(history, max_boards)
    print(format_rows(rows))
    winner = history.get_winner_color()
    print(
        f"result: {'draw' if winner is None else chess.COLOR_NAMES[winner]} "
        f"({history.get_win_reason().name if history.get_win_reason() else 'no reason'}), "
        f"{history.num_turns()} turns"
    )
    missing = [r for r in rows if not r.truth_in_set]
    if missing:
        print(f"ERROR: the true board was missing from the set on {len(missing)} turns")
        return 1
    stopped = [r for r in rows if r.stopped]
    for r in stopped:
        print(
            f"{chess.COLOR_NAMES[r.color]}: tracking stopped at turn {r.turn_number}, its set "
            f"would pass {max_boards} boards (--max-boards)"
        )
    tracked = "while tracked" if stopped else "at every step"
    print(f"the true board was in both sides' sets {tracked}")
    return 0


def run_demo(args) -> int:
    _check_demo_player(args.white, "white")
    _check_demo_player(args.black, "black")
    if args.save:
        writable_path(args.save, "--save")
    print(
        f"{args.white} (white) vs {args.black} (black), seed {args.seed}, "
        f"{args.sensing} sensing; set sizes per turn:"
    )
    history = play_baseline_game(
        args.white, args.black, args.seed, args.max_turns, args.sensing, args.random_sense_rate
    )
    if args.save:
        history.save(args.save)
    return _report(history, args.max_boards)


def run_track(args) -> int:
    path = existing_file(args.history, "game history")
    try:
        history = GameHistory.from_file(str(path))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSON, or not a history's
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"{path} is not a reconchess GameHistory JSON file ({first})") from None
    if not isinstance(history, GameHistory):
        raise UsageError(
            f"{path} is not a reconchess GameHistory JSON file (it holds a "
            f"{type(history).__name__}); save one with `fogsearch play --save` or GameHistory.save"
        )
    return _report(history, args.max_boards)
