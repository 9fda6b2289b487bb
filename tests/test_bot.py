"""The fogsearch bot: complete games against every baseline as both colours with short clocks,
exact tracking during those games, recovery from an injected inconsistent observation, and loading
through reconchess's own tools."""

import subprocess
import sys

import chess
import pytest
import reconchess

from fogsearch.bot import FogsearchBot, FogsearchBotConfig, choose_request
from fogsearch.tournament import GameTask, PlayerSpec, play_game
from fogsearch.tournament.players import find_stockfish

FAST = {"depth": 1, "max_search_boards": 64, "max_turn_seconds": 0.5, "safety_seconds": 2.0}
BOT = PlayerSpec("fogsearch", FAST)


class TrackingCheckBot(FogsearchBot):
    """The bot, checking after every observation that the true board is in its set."""

    def __init__(self, game: reconchess.LocalGame, config: FogsearchBotConfig):
        super().__init__(config)
        self.game = game
        self.misses = 0

    def _observe(self, method, *args):
        super()._observe(method, *args)
        truth = self.game.board.copy()
        if method == "handle_move_result":
            return  # the referee pushes the move after this callback returns
        if truth.turn == self.color and truth.fen() not in self.board_set:
            self.misses += 1


@pytest.mark.parametrize("opponent", ["random", "attacker"])
@pytest.mark.parametrize("bot_colour", ["white", "black"])
def test_bot_completes_games_against_baselines(opponent, bot_colour):
    white, black = (
        (BOT, PlayerSpec(opponent)) if bot_colour == "white" else (PlayerSpec(opponent), BOT)
    )
    record = play_game(GameTask(0, white, black, seed=11, seconds_per_player=120))
    assert record.crashed is None, record.error
    assert record.reason != "TIMEOUT" or record.winner == bot_colour
    assert record.winner in ("white", "black", "draw")


@pytest.mark.skipif(find_stockfish() is None, reason="Stockfish not installed (scripts/install.sh)")
def test_bot_completes_a_game_against_troutbot():
    record = play_game(GameTask(0, BOT, PlayerSpec("trout"), seed=2, seconds_per_player=120))
    assert record.crashed is None, record.error
    assert record.reason != "TIMEOUT" or record.winner == "white"


def _play_tracked(bot_colour, opponent_cls, seed, inject=None):
    import random

    random.seed(seed)
    game = reconchess.LocalGame(seconds_per_player=120)
    bot = TrackingCheckBot(game, FogsearchBotConfig(**FAST, seed=seed))
    players = {bot_colour: bot, not bot_colour: opponent_cls()}
    if inject is not None:
        inject(bot)
    reconchess.play_local_game(players[chess.WHITE], players[chess.BLACK], game=game)
    return bot


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tracking_stays_exact_within_games(seed):
    from reconchess.bots.random_bot import RandomBot

    for colour in (chess.WHITE, chess.BLACK):
        bot = _play_tracked(colour, RandomBot, seed)
        assert bot.misses == 0
        assert bot.recoveries == 0
        assert bot.turn_log, "the bot logged no turns"


def test_injected_inconsistent_observation_is_recovered_from():
    from reconchess.bots.attacker_bot import AttackerBot

    def inject(bot):
        original = bot.handle_sense_result
        calls = {"n": 0}

        def lying_sense(sense_result):
            calls["n"] += 1
            if calls["n"] == 3 and sense_result:
                square, _ = sense_result[0]
                # Claim an enemy queen that cannot be there on any tracked board.
                fake = chess.Piece(chess.QUEEN, not bot.color)
                sense_result = [(square, fake)] + list(sense_result[1:])
            return original(sense_result)

        bot.handle_sense_result = lying_sense

    bot = _play_tracked(chess.WHITE, AttackerBot, seed=4, inject=inject)
    assert bot.recoveries >= 1
    assert len(bot.board_set) >= 1


def test_rebuild_never_returns_an_empty_set():
    bot = FogsearchBot(FogsearchBotConfig(**FAST))
    bot.handle_game_start(chess.WHITE, chess.Board(), "nobody")
    bot.handle_opponent_move_result(False, None)
    # A move result no board fits: the e2 pawn cannot have captured on e4.
    bot.handle_move_result(chess.Move.from_uci("e2e4"), chess.Move.from_uci("e2e4"), True, chess.E4)
    assert bot.recoveries == 1
    assert len(bot.board_set) >= 1


def test_turn_budget_never_exceeds_the_usable_clock():
    bot = FogsearchBot(FogsearchBotConfig(safety_seconds=10, min_turn_seconds=0.5))
    assert bot.turn_budget(5.0) == 0.0
    assert bot.turn_budget(10.5) <= 0.5
    assert 0.5 <= bot.turn_budget(900.0) <= bot.config.max_turn_seconds


def test_reconchess_loads_the_bot_module():
    name, cls = reconchess.load_player("fogsearch.bot")
    assert cls is FogsearchBot


def test_rc_bot_match_plays_the_bot(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reconchess.scripts.rc_bot_match",
            "fogsearch.bot",
            "reconchess.bots.random_bot",
            "--seconds_per_player",
            "60",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "Game Over!" in out.stdout and "ERROR" not in out.stdout


def test_a_move_back_is_avoided_only_when_an_alternative_is_close():
    back, previous = chess.Move.from_uci("f4e3"), chess.Move.from_uci("e3f4")
    values = {"f4e3": 981, "f5g7": 964, "a2a3": 700, "0000": 600}
    # Within the margin: the best other request is played.
    assert choose_request(back, values, previous, 50) == chess.Move.from_uci("f5g7")
    # Outside it (or with no margin), the search's choice stands.
    assert choose_request(back, values, previous, 10) == back
    assert choose_request(back, values, previous, 0) == back
    # A best move that does not undo the previous one is never replaced.
    forward = chess.Move.from_uci("f5g7")
    assert choose_request(forward, values, previous, 50) == forward
    assert choose_request(back, values, None, 50) == back
    # A pass can be the alternative.
    assert choose_request(back, {"f4e3": 10, "0000": 5}, previous, 50) is None
