"""CPU time the bot spends per turn outside its search: every callback timed with the process's
CPU clock, minus the CPU time inside ``search()`` itself, over seeded games against reconchess's
baselines (CPU time, so that a loaded machine changes the figures less than wall time would).
Depth 2 everywhere (``small_set_depth=0``), so that the games do not depend on the clock; the
information-set search alone with set-size senses (``judge="set"``, ``sense="size"``, where the
installation has them), the bot this was written to compare.

    python bench/bot_overhead.py [GAMES]
"""

from __future__ import annotations

import json
import random
import sys
import time

import chess
import numpy as np
from reconchess import LocalGame, load_player, play_turn

import fogsearch.bot as bot_package
import fogsearch.rbc
from fogsearch.bot import FogsearchBot
from fogsearch.bot.config import flat_settings, from_settings

CALLBACKS = [
    "handle_game_start",
    "handle_opponent_move_result",
    "choose_sense",
    "handle_sense_result",
    "choose_move",
    "handle_move_result",
]
OPPONENTS = ["reconchess.bots.random_bot", "reconchess.bots.attacker_bot"]


def timed(spent: dict[str, float], name: str, original):
    def wrapper(*args, **kwargs):
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - started

    return wrapper


def timed_bot_class(spent: dict[str, float]) -> type[FogsearchBot]:
    """The bot with every callback and its search timed."""

    class Timed(FogsearchBot):
        pass

    for name in CALLBACKS:
        setattr(Timed, name, timed(spent, name, getattr(FogsearchBot, name)))
    # The search, wherever the bot finds it: its own Searcher since f98a09d, the module's
    # search() before, fogsearch.rbc's before 434e75a.
    player = getattr(bot_package, "player", None)
    if hasattr(FogsearchBot, "_set_search"):
        Timed._set_search = timed(spent, "search", FogsearchBot._set_search)
    elif player is not None and hasattr(player, "search"):
        player.search = timed(spent, "search", player.search)
    else:
        fogsearch.rbc.search = timed(spent, "search", fogsearch.rbc.search)
    return Timed


def play(bot: FogsearchBot, seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    other = load_player(OPPONENTS[seed % 2])[1]()
    bot_white = seed % 4 < 2
    players = {chess.WHITE: bot, chess.BLACK: other}
    if not bot_white:
        players = {chess.WHITE: other, chess.BLACK: bot}
    game = LocalGame(seconds_per_player=900, full_turn_limit=60)
    game.store_players("white", "black")
    for color, player in players.items():
        player.handle_game_start(color, game.board.copy(), "opponent")
    game.start()
    while not game.is_over():
        play_turn(game, players[game.turn], end_turn_last=True)
    game.end()


SET_JUDGEMENT = {
    name: value
    for name, value in (("judge", "set"), ("sense", "size"), ("opponent_temperature_cp", 0))
    if name in flat_settings()
}
"""As flat setting names, which stay the same wherever the config nests them."""


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 4
    spent: dict[str, float] = {}
    bot_class = timed_bot_class(spent)
    turns = 0
    for seed in range(games):
        bot = bot_class(from_settings({"small_set_depth": 0, **SET_JUDGEMENT}))
        play(bot, seed)
        turns += len(bot.turn_log)
    search = spent.pop("search")
    total = sum(spent.values())
    report = {
        "games": games,
        "turns": turns,
        "callbacks_cpu_s": total,
        "search_cpu_s": search,
        "outside_search_cpu_ms_per_turn": 1000 * (total - search) / turns,
        "by_callback_cpu_ms_per_turn": {k: 1000 * v / turns for k, v in spent.items()},
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
