"""The demo game: a seeded local reconchess game between two baseline bots."""

from __future__ import annotations

import random

import chess
import reconchess
from reconchess import GameHistory, LocalGame, play_turn

from fogsearch.tracking.baseline_player import BASELINE_BOTS, GreedySensing


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
