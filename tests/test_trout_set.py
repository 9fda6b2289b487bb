"""``trout-set``: TroutBot's play on boards drawn from an exact board set. It must request only
what the referee offers, keep the true board in its set through whole games, never lose its
engine, replay a seeded game exactly, and quit Stockfish when the game ends."""

import random

import chess
import chess.engine
import pytest
from reconchess import LocalGame, play_turn
from reconchess.bots.attacker_bot import AttackerBot
from reconchess.bots.random_bot import RandomBot

from fogsearch.cli import main as cli_main
from fogsearch.opponents.stockfish import find_stockfish
from fogsearch.opponents.trout_set import TroutSetBot, TroutSetConfig
from fogsearch.rbc import BoardSet
from fogsearch.tournament import GameTask, PlayerSpec, ResultStore, play_game
from fogsearch.tournament.runner import fallbacks_of

pytestmark = pytest.mark.skipif(
    find_stockfish() is None, reason="needs Stockfish (scripts/install.sh installs Debian's)"
)

# A node limit far below what the time allows: the engine's moves then do not depend on the
# machine's load, so a seeded game replays move for move (and the games are quick).
REPLAYABLE = TroutSetConfig(move_seconds=30.0, move_nodes=2_000, seed=7)


class CheckedTroutSet(TroutSetBot):
    """TroutSetBot that records whether each of its choices was one the referee offered."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        self.offered_senses, self.offered_moves, self.requests = [], [], []

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        square = super().choose_sense(list(sense_actions), list(move_actions), seconds_left)
        self.offered_senses.append(square is None or square in sense_actions)
        return square

    def choose_move(self, move_actions, seconds_left):
        move = super().choose_move(list(move_actions), seconds_left)
        self.offered_moves.append(move is None or move in move_actions)
        self.requests.append(move)
        return move


def play_checked(opponent_cls, color: chess.Color, seed: int, config=REPLAYABLE):
    """Plays a whole game; after each of trout-set's turns, whether the true board (after its
    move) is in its set. Returns (player, game, truth_in_set per turn)."""
    random.seed(seed)  # the reconchess baselines draw from Python's random
    bot = CheckedTroutSet(config)
    players = {color: bot, not color: opponent_cls()}
    game = LocalGame(seconds_per_player=900)
    for side, player in players.items():
        player.handle_game_start(side, game.board.copy(), "opponent")
    game.start()
    truth_in_set = []
    while not game.is_over():
        side = game.turn
        play_turn(game, players[side], end_turn_last=True)
        if side == color:
            truth_in_set.append(game.board in bot.board_set)
    game.end()
    for player in players.values():
        player.handle_game_end(game.get_winner_color(), game.get_win_reason(), None)
    return bot, game, truth_in_set


@pytest.mark.parametrize(
    ("opponent_cls", "color", "seed"),
    [
        (RandomBot, chess.WHITE, 1),
        (RandomBot, chess.BLACK, 6),
        (AttackerBot, chess.WHITE, 9),
        (AttackerBot, chess.BLACK, 6),
        (AttackerBot, chess.WHITE, 1),  # AttackerBot's rush takes trout-set's king here
    ],
)
def test_whole_games_keep_the_true_board_with_legal_requests_and_a_live_engine(
    opponent_cls, color, seed, monkeypatch
):
    engines = []
    original = TroutSetBot._open_engine

    def recorded():
        engines.append(original())
        return engines[-1]

    monkeypatch.setattr(TroutSetBot, "_open_engine", staticmethod(recorded))
    bot, game, truth_in_set = play_checked(opponent_cls, color, seed)
    assert game.is_over() and len(truth_in_set) >= 3
    assert all(truth_in_set), f"true board missing on turns {truth_in_set}"
    assert all(bot.offered_senses) and all(bot.offered_moves)
    assert any(m is not None for m in bot.requests)
    assert bot.engine_deaths == 0 and bot.approximations == 0 and bot.recoveries == 0
    # One engine for the whole game, and it was quit at the end.
    assert len(engines) == 1 and bot.engine is None
    assert engines[0].protocol.returncode.done()


def test_a_seeded_game_replays_move_for_move():
    first = play_checked(RandomBot, chess.WHITE, 5)[0].requests
    again = play_checked(RandomBot, chess.WHITE, 5)[0].requests
    other_seed = TroutSetConfig(move_seconds=30.0, move_nodes=2_000, seed=8)
    other = play_checked(RandomBot, chess.WHITE, 5, other_seed)[0].requests
    assert first == again
    assert other != first  # its own seed draws other boards and other senses


def _on_one_board(fen: str) -> tuple[TroutSetBot, list[chess.Move]]:
    """A trout-set player whose set holds only ``fen``, and the requests offered there."""
    bot = TroutSetBot(REPLAYABLE)
    bot.handle_game_start(chess.WHITE, chess.Board(), "opponent")
    bot.tracker.board_set = BoardSet(chess.WHITE, fens=[fen])
    return bot, list(chess.Board(fen).pseudo_legal_moves)


def test_it_takes_a_king_the_drawn_board_shows():
    bot, offered = _on_one_board("k7/8/8/8/8/8/8/R3K3 w - - 0 1")
    try:
        assert bot.choose_move(offered, 100.0) == chess.Move.from_uci("a1a8")
    finally:
        bot.close()
    assert bot.engine is None


def test_mated_on_the_drawn_board_it_still_requests_a_move():
    # Stockfish answers "bestmove (none)" where chess has no legal move; RBC goes on, and so does
    # trout-set, with a seeded request from those offered.
    bot, offered = _on_one_board("8/8/8/8/8/5k2/6q1/7K w - - 0 1")
    try:
        move = bot.choose_move(offered, 100.0)
    finally:
        bot.close()
    assert move in offered and bot.engine_deaths == 0


def test_an_engine_death_is_a_counted_fallback_turn_that_the_tournament_stores(monkeypatch):
    bot, offered = _on_one_board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")

    class DeadEngine:
        def play(self, board, limit):
            raise chess.engine.EngineTerminatedError("engine process died unexpectedly")

        def quit(self):
            pass

    monkeypatch.setattr(bot, "_engine", lambda: DeadEngine())
    try:
        move = bot.choose_move(offered, 100.0)
    finally:
        bot.close()
    assert move in offered
    assert bot.engine_deaths == 1 and fallbacks_of(bot) == 1


def test_settings_are_checked_by_the_config():
    with pytest.raises(ValueError, match="move_seconds"):
        TroutSetConfig(move_seconds=0)
    with pytest.raises(ValueError, match="move_nodes"):
        TroutSetConfig(move_nodes=-1)
    with pytest.raises(ValueError, match="max_tracked_boards"):
        TroutSetConfig(max_tracked_boards=10)


def test_trout_set_is_a_tournament_kind_with_an_engine_budget_setting(tmp_path):
    spec = PlayerSpec.parse("trout-set:move_seconds=0.05,move_nodes=2000")
    spec.check()
    record = play_game(GameTask(0, spec, PlayerSpec("random"), seed=3, seconds_per_player=60))
    assert record.crashed is None and record.winner == "white"
    db = tmp_path / "ts.sqlite"
    code = cli_main(
        [
            "tournament",
            "trout-set:move_seconds=0.05,move_nodes=2000@ts",
            "attacker",
            "--games",
            "2",
            "--seconds",
            "60",
            "--workers",
            "1",
            "--db",
            str(db),
            "--no-progress",
        ]
    )
    assert code == 0
    with ResultStore(db) as store:
        tid = store.latest_tournament_id()
        info = store.tournament(tid)
        games = store.games(tid)
    assert info["versions"]["stockfish"].startswith("Stockfish")  # the engine is pinned
    assert len(games) == 2 and all(g["crashed"] is None for g in games)


def test_reconchess_loads_it_by_module_path():
    """As ``rc-bot-match fogsearch.opponents.trout_set ...`` does; it builds with no arguments."""
    import reconchess

    name, player_cls = reconchess.load_player("fogsearch.opponents.trout_set")
    assert (name, player_cls) == ("TroutSetBot", TroutSetBot)
    player = player_cls()
    assert player.config == TroutSetConfig() and player.engine is None  # no engine until a game
