"""Board sets taken from recorded reconchess games, shared by the RBC benchmarks.

The games are recorded once (``python bench/rbc_data.py --record``) as reconchess GameHistory JSON
in ``bench/data/``; the sets are rebuilt from them by replaying the observations, so every
benchmark times fogsearch and the python-chess reference on exactly the same boards.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import chess
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.observations import MoveResult, Observation
from fogsearch.rbc import BoardSet
from fogsearch.tracking import observations, play_baseline_game

DATA = Path(__file__).parent / "data"
# (white, black, seed, random sense rate, full turns): greedy-sensing baseline games whose sets
# reach the sizes seen in real play (measured on recorded games: median 56, 90th percentile
# 3.2k after the opponent's move).
RECORDED = [
    ("random", "attacker", 3, 0.25, 12),
    ("attacker", "random", 7, 0.25, 12),
    ("random", "random", 11, 0.3, 12),
]


@dataclass
class Case:
    """A set just before an observation, and the observation."""

    game: str
    color: chess.Color
    observation: Observation
    fens: list[str]


# Games 1-30 of a 100-game run of the default bot (named fog_base) against TroutBot at the default
# clock (`fogsearch tournament fogsearch@fog_base trout --games 100 --seed 11`, bench/RESULTS.md),
# one GameHistory JSON per line; three games of 193-542 turns are left out to keep replays short.
TROUT_GAMES = DATA / "fogsearch_trout_games.jsonl.gz"
FOGSEARCH_NAME = "fog_base"


def game_files() -> list[Path]:
    return [DATA / f"rbc_{w}_{b}_{seed}.json" for w, b, seed, _, _ in RECORDED]


def record() -> None:
    DATA.mkdir(exist_ok=True)
    for (white, black, seed, rate, turns), path in zip(RECORDED, game_files(), strict=True):
        history = play_baseline_game(white, black, seed, max_turns=turns, random_sense_rate=rate)
        history.save(str(path))
        print(f"recorded {path.name}: {history.num_turns()} turns")


def cases(min_boards: int = 1, max_boards: int = 20_000) -> list[Case]:
    """Every (set, observation) pair of the recorded games, both colours, with the set size in range."""
    out = []
    for path in game_files():
        history = GameHistory.from_file(str(path))
        for color in (chess.WHITE, chess.BLACK):
            board_set = BoardSet(color)
            for obs in observations(history, color):
                if min_boards <= len(board_set) <= max_boards:
                    out.append(Case(path.stem, color, obs.observation, board_set.fens()))
                obs.apply(board_set)
    return out


def trout_games() -> list[GameHistory]:
    with gzip.open(TROUT_GAMES, "rt") as lines:
        return [json.loads(line, cls=GameHistoryDecoder) for line in lines]


def trout_cases(min_boards: int = 1, max_boards: int = 20_000) -> list[Case]:
    """The sets the fogsearch bot held just before its moves against TroutBot, in range. Only the
    bot's side: it senses to shrink its set, while TroutBot's observations would grow sets of
    ours to millions of boards."""
    out = []
    for index, history in enumerate(trout_games()):
        white = history.get_white_player_name() == FOGSEARCH_NAME
        color = chess.WHITE if white else chess.BLACK
        board_set = BoardSet(color)
        for obs in observations(history, color):
            before_move = isinstance(obs.observation, MoveResult)
            if before_move and min_boards <= len(board_set) <= max_boards:
                out.append(Case(f"trout{index:02d}", color, obs.observation, board_set.fens()))
            obs.apply(board_set)
    return out


def trout_turns(games: int, turns: int, max_boards: int) -> dict[str, list[list[str]]]:
    """Per recorded TroutBot game (the first ``games`` that have such a run), the sets the bot
    held before ``turns`` consecutive moves of its own, each of 1 to ``max_boards`` boards: the
    first such run of turns in the game, keyed ``troutNN``. Games are replayed only as far as
    needed."""
    runs: dict[str, list[list[str]]] = {}
    for index, history in enumerate(trout_games()):
        white = history.get_white_player_name() == FOGSEARCH_NAME
        color = chess.WHITE if white else chess.BLACK
        board_set = BoardSet(color)
        run: list[list[str]] = []
        for obs in observations(history, color):
            if isinstance(obs.observation, MoveResult):
                run = [*run, board_set.fens()] if len(board_set) <= max_boards else []
                if len(run) == turns:
                    runs[f"trout{index:02d}"] = run
                    break
            obs.apply(board_set)
        if len(runs) == games:
            break
    return runs


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--record", action="store_true", help="record the games again")
    if parser.parse_args().record:
        record()
    else:
        found = cases()
        print(f"{len(found)} cases; largest set {max(len(c.fens) for c in found)}", file=sys.stderr)
