"""Would a risk term counted over the whole set have told the losing moves from the others?

``sample_refutation.py`` found that the search's sample (the 256 likeliest boards) hides part of
a losing move's refutation on the larger sets. A risk term that needs no sample would count, over
every board, the share on which the piece a request moves stands hanging. This measures, for
every move of the named player (not only the losing ones), that share of the move it played: by
weight, the boards on which the moved piece, after the move as reconchess takes it there, is
attacked by the opponent and either undefended or attacked by a cheaper piece (our king:
attacked at all). It is counted over the whole set (an even stride of ``--stride`` boards on a
larger one) and over the 256 likeliest, and the moves are split by what the move and the
opponent's reply did to our material on the true board, counted from before the move (an
exchange we began is no loss): lost the moved piece (the reply took on its square), lost other
material, or lost nothing. A term worth building flags the first kind far more often than the
last, and on the larger sets more often over the whole set than over the likeliest, which the
search already sees.

    cd bench; python hanging_share.py data/strangefish2_odds.sqlite data/strangefish2_v2.sqlite \
        --player fogsearch
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
from dataclasses import dataclass

import chess
import numpy as np
from loss_replay import player_games, read_only
from reconchess.history import Turn
from sample_refutation import SAMPLE

from fogsearch.analysis.losses import DEFAULT_MAX_BOARDS, DEFAULT_MODEL, material
from fogsearch.bot.requests import MATERIAL_CP
from fogsearch.bot.tracker import likeliest
from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError, revise_move
from fogsearch.tracking import observations

VALUE = {**MATERIAL_CP, chess.KING: 100_000}
"""A king outvalues every attacker, so it hangs wherever it is attacked."""
THRESHOLDS = (0.05, 0.10, 0.25)
"""The hanging shares at which the table counts a move flagged."""
REPLIES = ("lost the moved piece", "lost other material", "lost nothing")


@dataclass
class Move:
    database: str
    game: int
    turn: int
    move: str
    boards: int
    whole: float
    """The moved piece's hanging share over the whole set (its stride), by weight."""
    likeliest: float
    """The same over the ``SAMPLE`` likeliest boards, their weights renormalised."""
    reply: str
    """One of ``REPLIES``."""


def hangs(fen: str, move: chess.Move) -> bool:
    """Whether the piece ``move`` moves on the board ``fen`` (ours to move), once the move is
    made as reconchess revises it, is attacked by the opponent and undefended or attacked by a
    cheaper piece. A request taken as a pass moves nothing and hangs nothing."""
    taken = revise_move(fen, move)
    if taken is None:
        return False
    board = chess.Board(fen)
    us = board.turn
    kind = taken.promotion or board.piece_type_at(taken.from_square)
    board.push(taken)
    attackers = board.attackers(not us, taken.to_square)
    if not attackers:
        return False
    cheapest = min(VALUE[board.piece_type_at(square)] for square in attackers)
    return cheapest < VALUE[kind] or not board.attackers(us, taken.to_square)


def stride(boards: int, most: int) -> np.ndarray:
    """All of ``boards`` indices, or an even stride of ``most`` of them."""
    if boards <= most:
        return np.arange(boards)
    return np.unique(np.linspace(0, boards - 1, most).round().astype(int))


def hanging_shares(board_set: BoardSet, move: chess.Move, most: int) -> tuple[float, float]:
    """``move``'s hanging share over ``board_set`` (an even stride of ``most`` boards, by
    weight) and over its ``SAMPLE`` likeliest boards."""
    weights = board_set.weights()
    whole = stride(len(weights), most)
    top = likeliest(weights, SAMPLE, np.arange(len(weights), dtype=float))
    needed = np.union1d(whole, top)
    hanging = np.zeros(len(weights), dtype=bool)
    hanging[needed] = [hangs(fen, move) for fen in board_set.subset(needed.tolist()).fens()]
    return (
        float(weights[whole][hanging[whole]].sum() / weights[whole].sum()),
        float(weights[top][hanging[top]].sum() / weights[top].sum()),
    )


def reply_kind(history, color: chess.Color, seen) -> str:
    """What our move (``seen``, its result) and the opponent's reply did to our true material,
    counted from before our move so that an exchange we began is no loss: one of ``REPLIES``."""
    reply = Turn(not color, seen.turn_number + (0 if color == chess.WHITE else 1))
    if not history.has_move(reply) or history.taken_move(reply) is None:
        return REPLIES[2]
    before = history.truth_board_before_move(Turn(color, seen.turn_number))
    if material(history.truth_board_after_move(reply), color) >= material(before, color):
        return REPLIES[2]
    ours = seen.observation.taken
    took_it = ours is not None and history.taken_move(reply).to_square == ours.to_square
    return REPLIES[0] if took_it else REPLIES[1]


def moves(database: str, game: int, history, color: chess.Color, most: int):
    """A :class:`Move` for every request of ``color`` that was not a pass, until the set grows
    past the tracker's bound."""
    board_set = BoardSet(color, max_boards=DEFAULT_MAX_BOARDS)
    board_set.set_opponent_model(*DEFAULT_MODEL)
    for seen in observations(history, color):
        observed = seen.observation
        if isinstance(observed, MoveResult) and observed.requested is not None:
            whole, top = hanging_shares(board_set, observed.requested, most)
            kind = reply_kind(history, color, seen)
            yield Move(
                database,
                game,
                seen.turn_number + 1,
                observed.requested.uci(),
                len(board_set),
                whole,
                top,
                kind,
            )
        try:
            seen.apply(board_set)
        except BoardSetTooLargeError:
            return


def table(rows: list[Move]) -> list[str]:
    """Per kind of reply: the count, the mean hanging shares, the share of moves flagged at each
    of ``THRESHOLDS`` over the whole set, and how many of those the likeliest showed at half the
    whole's share or less."""
    head = " | ".join(f"whole >= {t:.0%}" for t in THRESHOLDS)
    lines = [
        f"| reply | moves | mean whole | mean likeliest | {head} | likeliest at half or less |",
        "|---|---:|---:|---:|" + "---:|" * len(THRESHOLDS) + "---:|",
    ]
    for kind in REPLIES:
        chosen = [r for r in rows if r.reply == kind]
        if not chosen:
            continue
        flagged = [sum(r.whole >= t for r in chosen) / len(chosen) for t in THRESHOLDS]
        hanging = [r for r in chosen if r.whole >= THRESHOLDS[0]]
        hid = sum(r.likeliest <= r.whole / 2 for r in hanging)
        lines.append(
            f"| {kind} | {len(chosen)} | {statistics.mean(r.whole for r in chosen):.3f} | "
            f"{statistics.mean(r.likeliest for r in chosen):.3f} | "
            + " | ".join(f"{share:.2f}" for share in flagged)
            + f" | {hid} of {len(hanging)} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+", help="tournament SQLite files")
    parser.add_argument("--player", required=True, help="the player's name in the databases")
    parser.add_argument(
        "--stride", type=int, default=2_000, help="most boards read per share (python-chess)"
    )
    args = parser.parse_args()
    if not 1 <= args.stride <= 1_000_000:
        parser.error("--stride must be between 1 and 1000000")
    rows: list[Move] = []
    print("| database | game | turn | move | boards | hanging: whole | likeliest | reply |")
    print("|---|---|---|---|---|---|---|---|")
    for path in args.databases:
        db: sqlite3.Connection = read_only(path)
        for index, color, _, history in player_games(db, args.player):
            for row in moves(path, index + 1, history, color, args.stride):
                rows.append(row)
                if row.reply != REPLIES[2]:
                    print(
                        f"| {path} | {row.game} | {row.turn} | {row.move} | {row.boards} | "
                        f"{row.whole:.3f} | {row.likeliest:.3f} | {row.reply} |",
                        flush=True,
                    )
    print("\nAll moves:")
    print("\n".join(table(rows)))
    print(f"\nMoves from sets over {SAMPLE} boards:")
    print("\n".join(table([r for r in rows if r.boards > SAMPLE])))
    print(
        "\nThe moves hanging on 5 % or more of a set over 256 boards whose likeliest showed half:"
    )
    for r in rows:
        if r.boards > SAMPLE and r.whole >= THRESHOLDS[0] and r.likeliest <= r.whole / 2:
            print(
                f"  {r.database} game {r.game} turn {r.turn} {r.move}: {r.boards} boards, whole {r.whole:.3f}, "
                f"likeliest {r.likeliest:.3f}, reply {r.reply}"
            )


if __name__ == "__main__":
    main()
