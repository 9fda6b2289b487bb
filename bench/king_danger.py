"""How exposed a bot's king stood on the true board before its moves, in the games it lost and won.

For every decided game the named player played in the tournament databases, reads the true board
before each of its moves from the stored ``GameHistory`` and scores both kings with the
``king_safety`` leaf's measure (``fogsearch._core.search.king_danger_fen``: enemy pieces aimed at the
king's square and its neighbours, scaled by how many take part, and missing shield pawns). Prints
the mean and median of our king's danger and the mean of theirs, some moves before each game's
end, for lost and won games apart: a danger that rises only in lost games, moves before the end,
is one a leaf term can see coming.

    python bench/king_danger.py trout16.sqlite trout17.sqlite --player fog_mt
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics

from loss_replay import player_games

from fogsearch._core.search import king_danger_fen

MOVES_BEFORE_END = (1, 2, 4, 6, 8, 12)


def dangers_before_moves(history, color) -> list[tuple[int, int]]:
    """``(ours, theirs)`` before each of ``color``'s moves."""
    out = []
    for turn in history.turns(color):
        board = history.truth_board_before_move(turn)
        white, black = king_danger_fen(board.fen())
        out.append((white, black) if color else (black, white))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--player", required=True, help="the player's label in the databases")
    args = parser.parse_args()
    games: dict[str, list[list[tuple[int, int]]]] = {"lost": [], "won": []}
    for path in args.databases:
        db = sqlite3.connect(path)
        for _, color, winner, history in player_games(db, args.player):
            if winner == "draw":
                continue
            won = (winner == "white") == color
            games["won" if won else "lost"].append(dangers_before_moves(history, color))
    print("| games | moves before the end | our danger, mean | median | their danger, mean |")
    print("|---|---|---|---|---|")
    for outcome, trails in games.items():
        for back in MOVES_BEFORE_END:
            rows = [trail[-back] for trail in trails if len(trail) >= back]
            if not rows:
                continue
            ours = [r[0] for r in rows]
            theirs = [r[1] for r in rows]
            print(
                f"| {outcome} ({len(rows)}) | {back} | {statistics.mean(ours):.0f} | "
                f"{statistics.median(ours):.0f} | {statistics.mean(theirs):.0f} |"
            )
        every = [d[0] for trail in trails for d in trail]
        if every:
            print(
                f"| {outcome} | every move | {statistics.mean(every):.0f} | "
                f"{statistics.median(every):.0f} | "
                f"{statistics.mean(d[1] for trail in trails for d in trail):.0f} |"
            )


if __name__ == "__main__":
    main()
