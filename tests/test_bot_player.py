"""The reconchess player (``fogsearch.bot.player.FogsearchBot``): complete games against every
baseline as both colours with short clocks, the turn it plays from a given set (sense, search
depth, opening line, progress near the 100-half-move draw, fallbacks), its turn log, and loading
through reconchess's own tools."""

import dataclasses
import subprocess
import sys
import time
from pathlib import Path

import chess
import numpy as np
import pytest
import reconchess
from test_bot_tracker import FAST, play_tracked

from fogsearch.bot import (
    ClockPlan,
    FogsearchBot,
    FogsearchBotConfig,
    OpeningLine,
    SenseRule,
    SmallSets,
    format_turn,
)
from fogsearch.bot.clock import turn_budget
from fogsearch.bot.config import from_settings
from fogsearch.bot.tracker import LEAST_CLOCK_PARENTS
from fogsearch.observations import MoveResult, OpponentMoveResult
from fogsearch.rbc import BoardSet, move_actions
from fogsearch.search import MATE
from fogsearch.tournament import GameTask, PlayerSpec, play_game
from fogsearch.tournament.players import find_stockfish

FAST_SETTINGS = {
    "depth": 1,
    "small_set_depth": 0,
    "board_plies": 1,
    "sense_plies": 0,
    "max_search_boards": 64,
    "min_turn_seconds": 0.05,
    "max_turn_seconds": 0.1,
    "reserve_seconds": 2.0,
}
""":data:`test_bot_tracker.FAST` as a player spec writes it."""
BOT = PlayerSpec("fogsearch", FAST_SETTINGS)


def bot_on(color: chess.Color, fens: list[str], config: FogsearchBotConfig | None = None):
    """A bot of ``color`` whose set is ``fens``, at the start of a turn."""
    bot = FogsearchBot(config)
    bot.handle_game_start(color, chess.Board(), "test")
    bot.tracker.board_set = BoardSet(color, fens=fens)
    return bot


def test_a_player_spec_builds_the_bot_from_flat_settings():
    bot = BOT.build()
    assert isinstance(bot, FogsearchBot) and bot.config == FAST


# -- whole games -----------------------------------------------------------------------------


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
    bot_fallbacks = record.white_fallbacks if bot_colour == "white" else record.black_fallbacks
    assert bot_fallbacks == 0


@pytest.mark.slow
@pytest.mark.skipif(find_stockfish() is None, reason="Stockfish not installed (scripts/install.sh)")
def test_bot_completes_a_game_against_troutbot():
    record = play_game(GameTask(0, BOT, PlayerSpec("trout"), seed=2, seconds_per_player=120))
    assert record.crashed is None, record.error
    assert record.reason != "TIMEOUT" or record.winner == "white"


class PassingBot(reconchess.Player):
    """An opponent that never moves, like TroutBot once its Stockfish has died."""

    def handle_game_start(self, color, board, opponent_name):
        pass

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        pass

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return sense_actions[0]

    def handle_sense_result(self, sense_result):
        pass

    def choose_move(self, move_actions, seconds_left):
        return None

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass


@pytest.mark.parametrize("colour", [chess.WHITE, chess.BLACK])
def test_the_bot_beats_an_opponent_that_never_moves_and_knows_the_clock(colour):
    """As Black at depth 1 the bot used to shuffle into reconchess's 100-half-move draw here
    (level material, pawns blocked); progress_force_halfmoves makes it push on at the 91st."""
    bot = play_tracked(colour, PassingBot, seed=4)
    assert bot.game.get_winner_color() == colour
    assert bot.game.get_win_reason() == reconchess.WinReason.KING_CAPTURE
    assert bot.tracker.misses == 0
    assert len(bot.clocks) > 3
    # The opponent never moves, so nothing unseen resets the clock: the bound is the clock.
    assert [bound for bound, _ in bot.clocks] == [clock for _, clock in bot.clocks]
    assert any(clock > 0 for _, clock in bot.clocks)  # the clock ran and was followed


# -- one turn --------------------------------------------------------------------------------


def _rook_and_knight_set() -> list[str]:
    """Black's 12 boards: a white rook on e1 or d1, a knight on one of six squares around c5.
    Sensing the knight leaves two boards; sensing the rook leaves six."""
    fens = []
    for rook in ("e1", "d1"):
        for knight in ("b4", "b5", "b6", "c4", "c5", "c6"):
            board = chess.Board("4k3/8/8/8/8/8/8/K7 b - - 0 1")
            board.set_piece_at(chess.parse_square(rook), chess.Piece(chess.ROOK, chess.WHITE))
            board.set_piece_at(chess.parse_square(knight), chess.Piece(chess.KNIGHT, chess.WHITE))
            fens.append(board.fen())
    return fens


def test_the_size_sense_goes_where_the_fewest_boards_are_expected_to_remain():
    bot = bot_on(
        chess.BLACK, _rook_and_knight_set(), FogsearchBotConfig(sensing=SenseRule(sense="size"))
    )
    expected = bot.board_set.sense_stats()
    square = bot.choose_sense(list(chess.SQUARES), [], 900.0)
    assert expected[square] == min(expected.values()) == 2.0
    assert bot._turn["sense"] == chess.square_name(square)
    truth = bot.board_set.to_boards()[0]
    seen = [sq for sq in chess.SQUARES if chess.square_distance(sq, square) <= 1]
    bot.handle_sense_result([(sq, truth.piece_at(sq)) for sq in seen])
    assert len(bot.board_set) == 2 and truth in bot.board_set
    # Only the senses offered count; an edge square only when nothing else is offered.
    worst = max(expected, key=lambda sq: (expected[sq], -sq))
    assert bot.choose_sense([chess.A1, worst], [], 900.0) == worst
    assert bot.choose_sense([chess.H8, chess.A8], [], 900.0) == chess.A8
    assert bot.choose_sense([], [], 900.0) is None


def _rook_and_knight_on_rank_one() -> list[str]:
    """Black's 12 boards: a white rook on a4 or g4, each a free capture for Black's queen on d7
    (the request that takes it on one board only moves the queen on the other), and a white
    knight on one of six squares of the first rank, which no request of Black's reaches and no
    sense window shows together with a rook."""
    fens = []
    for rook in ("a4", "g4"):
        for knight in ("a1", "b1", "c1", "e1", "f1", "g1"):
            board = chess.Board("4k3/3q4/8/8/8/8/8/7K b - - 0 1")
            board.set_piece_at(chess.parse_square(rook), chess.Piece(chess.ROOK, chess.WHITE))
            board.set_piece_at(chess.parse_square(knight), chess.Piece(chess.KNIGHT, chess.WHITE))
            fens.append(board.fen())
    return fens


def test_the_decision_sense_finds_the_rook_the_move_depends_on():
    """Sensing the knight's rank leaves 4 boards in expectation, sensing a rook's square 6; but only
    where the rook stands decides the move (take it with Qxa4 or Qxg4)."""
    fens = _rook_and_knight_on_rank_one()
    by_size = bot_on(chess.BLACK, fens, FogsearchBotConfig(sensing=SenseRule(sense="size")))
    expected = by_size.board_set.sense_stats()
    size_square = by_size.choose_sense(list(chess.SQUARES), [], 900.0)
    assert expected[size_square] == min(expected.values()) == 4.0
    by_decision = bot_on(chess.BLACK, fens, FogsearchBotConfig(sensing=SenseRule(sense="decision")))
    square = by_decision.choose_sense(list(chess.SQUARES), [], 900.0)
    seen = {sq for sq in chess.SQUARES if chess.square_distance(sq, square) <= 1}
    assert seen & {chess.A4, chess.G4}, chess.square_name(square)
    assert by_decision._turn["sense_by"] == "decision" and by_decision._turn["sense_gain"] > 100
    truth = chess.Board(fens[0])  # the rook on a4
    by_decision.handle_sense_result([(sq, truth.piece_at(sq)) for sq in seen])
    move = by_decision.choose_move(move_actions(truth), 900.0)
    assert move == chess.Move.from_uci("d7a4")


def test_without_time_for_it_the_sense_falls_back_to_the_set_size():
    bot = bot_on(
        chess.BLACK,
        _rook_and_knight_on_rank_one(),
        FogsearchBotConfig(sensing=SenseRule(sense="decision")),
    )
    square = bot.choose_sense(list(chess.SQUARES), [], 15.1)  # 0.1 s usable: 25 ms to sense
    assert bot._turn["sense_by"] == "size"
    assert bot.board_set.sense_stats()[square] == 4.0


def test_the_turn_log_shows_the_depth_the_search_completed_and_its_time():
    config = FogsearchBotConfig(judge="set", depth=2, small_sets=SmallSets(small_set_depth=0))
    bot = FogsearchBot(config)
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.handle_opponent_move_result(False, None)  # White's first turn starts with this callback
    bot.handle_sense_result([])
    move = bot.choose_move(list(chess.Board().pseudo_legal_moves), 900.0)
    bot.handle_move_result(move, move, False, None)
    turn = bot.turn_log[-1]
    assert turn["depth"] == 2 and turn["search_seconds"] > 0
    move_share = 1 - config.clock.sense_share
    assert turn["budget"] == pytest.approx(move_share * turn_budget(config.clock, 900.0), rel=1e-3)
    assert (turn["after_opponent"], turn["after_sense"], turn["after_move"]) == (1, 1, 1)
    assert f"depth 2 plies - in {turn['search_seconds']:5.2f}s" in format_turn(turn)


def _turn_after_a_slow_update(monkeypatch, plan: ClockPlan, update_seconds: float) -> dict:
    """The turn log of a bot's first turn at 55 s on the clock, its opponent's move result
    taking ``update_seconds``."""
    bot = FogsearchBot(dataclasses.replace(FAST, clock=plan))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    observe = bot.tracker.observe

    def slow_observe(observation, seconds=None):
        time.sleep(update_seconds)
        observe(observation, seconds)

    monkeypatch.setattr(bot.tracker, "observe", slow_observe)
    bot.handle_opponent_move_result(False, None)
    bot.choose_sense(list(chess.SQUARES), [], 55.0 - update_seconds)
    monkeypatch.setattr(bot.tracker, "observe", observe)
    bot.handle_sense_result([])
    move = bot.choose_move(list(chess.Board().pseudo_legal_moves), 55.0 - update_seconds)
    bot.handle_move_result(move, move, False, None)
    return bot.turn_log[-1]


def test_time_spent_updating_the_set_comes_off_the_turn_budget(monkeypatch):
    """The opponent's move result takes 0.5 s of a turn planned at 1 s (55 s on the clock, 15 s
    reserve, 40 turns, no increment): the sense and the move share what is left, and the turn's
    own time is logged (the move's floor, which would lift its budget to its planned share here,
    is off)."""
    plan = ClockPlan(increment_seconds=0.0, hard_turn_factor=1.0, min_move_seconds=0.0)
    turn = _turn_after_a_slow_update(monkeypatch, plan, 0.5)
    assert turn_budget(plan, 55.0) == pytest.approx(1.0)
    assert 0.3 < turn["budget"] <= 0.5  # not the 0.75 s of a move share that ignores the set
    assert 0.5 <= turn["turn_seconds"] < 1.2


def test_a_move_left_nothing_by_the_set_updates_still_gets_its_floor(monkeypatch):
    """The opponent's move result takes 1.2 s of a turn planned at 1 s: without the floor the
    move would get nothing; with it, ``min_move_seconds`` (less than the move's planned 0.75 s,
    and the clock beyond the reserve holds it)."""
    plan = ClockPlan(increment_seconds=0.0, hard_turn_factor=1.0, min_move_seconds=0.4)
    turn = _turn_after_a_slow_update(monkeypatch, plan, 1.2)
    assert turn_budget(plan, 55.0) == pytest.approx(1.0)
    assert turn["budget"] == pytest.approx(0.4)


def test_every_core_by_default_reaches_the_set_the_sense_and_the_board_judgement(monkeypatch):
    """With three cores the default bot expands its set, judges its boards and picks its sense
    on three threads, and searches sets on three."""
    import fogsearch.bot.config as config_module
    import fogsearch.bot.player as player_module
    import fogsearch.bot.sensing as sensing_module

    monkeypatch.setattr(config_module, "cores", lambda: 3)
    config = FogsearchBotConfig(sensing=SenseRule(sense="decision", sense_plies=1), board_plies=1)
    assert config.search.threads == 3
    seen: dict[str, list[int]] = {"board_table": [], "sense_table": []}

    def spy(name, real):
        def wrapped(*args, **kwargs):
            seen[name].append(kwargs["threads"])
            return real(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(player_module, "board_table", spy("board_table", player_module.board_table))
    monkeypatch.setattr(
        sensing_module, "board_table", spy("sense_table", sensing_module.board_table)
    )
    bot = FogsearchBot(config)
    bot.handle_game_start(chess.BLACK, chess.Board(), "test")
    assert bot.tracker.threads == 3
    white = chess.Board()
    white.push_uci("e2e4")
    bot.handle_opponent_move_result(False, None)
    square = bot.choose_sense(list(chess.SQUARES), [], 900.0)
    window = [
        s
        for s in chess.SQUARES
        if abs(chess.square_file(s) - chess.square_file(square)) <= 1
        and abs(chess.square_rank(s) - chess.square_rank(square)) <= 1
    ]
    bot.handle_sense_result([(s, white.piece_at(s)) for s in window])
    move = bot.choose_move(move_actions(white), 900.0)
    assert move is None or isinstance(move, chess.Move)
    assert seen["board_table"] and set(seen["board_table"]) == {3}
    assert seen["sense_table"] and set(seen["sense_table"]) == {3}


@pytest.mark.parametrize("clock", [900.0, 0.05])
def test_the_set_grows_only_as_far_as_the_clock_allows_its_expansion(clock):
    """White passes while Black moves unseen, to about 3,000 boards, then plays one turn with
    ``clock`` seconds on its clock and passes: Black's next move expands the whole set when the
    clock allows it, and a seeded sample of the least size when the clock is nearly spent (the
    clock as the bot's last turn ended is what it knows when the result comes)."""
    bot = FogsearchBot(FAST)
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    pass_ = MoveResult(None, None, False, None)
    unseen = OpponentMoveResult(False, None)
    for observation in [unseen, *[pass_, unseen] * 3]:
        bot.tracker.observe(observation)
    parents = len(bot.board_set)
    assert parents > LEAST_CLOCK_PARENTS
    bot.choose_sense(list(chess.SQUARES), [], clock)
    bot.handle_sense_result([])
    bot.choose_move(move_actions(bot.board_set.fen(0)), clock)
    bot.handle_move_result(None, None, False, None)  # whatever it chose, the request was a pass
    exact = bot.board_set.copy()
    bot.handle_opponent_move_result(False, None)
    unseen.apply(exact)
    if clock > 100:
        assert bot.approximations == 0 and bot.board_set == exact
    else:
        assert bot.approximations == 1
        assert LEAST_CLOCK_PARENTS <= len(bot.board_set) < len(exact)


def test_the_plan_counts_on_the_increment_the_clock_shows_not_the_default():
    """The referee adds 1 s a turn where the plan assumes 5 s: from the second turn on, the bot
    measures it from the clocks it is told and budgets with it."""
    plan = ClockPlan(hard_turn_factor=1.0)
    bot = FogsearchBot(dataclasses.replace(FAST, clock=plan))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    board, clock = chess.Board(), 60.0
    for _ in range(3):
        turn_started = time.monotonic()
        bot.handle_opponent_move_result(False, None)
        bot.choose_sense(list(chess.SQUARES), [], clock - (time.monotonic() - turn_started))
        bot.handle_sense_result([])
        move = bot.choose_move(move_actions(board), clock - (time.monotonic() - turn_started))
        bot.handle_move_result(move, move, False, None)
        clock += 1.0 - (time.monotonic() - turn_started)
        board.push(move or chess.Move.null())
        board.push(chess.Move.null())  # the opponent passes
    assert bot.measured_increment == pytest.approx(1.0, abs=0.05)
    assert bot.turn_log[0]["budget"] > 0.75 * turn_budget(plan, 60.0) - 0.05  # 5 s assumed
    one_second = dataclasses.replace(plan, increment_seconds=1.0)
    assert bot.turn_log[2]["budget"] == pytest.approx(
        0.75 * turn_budget(one_second, bot.turn_log[2]["seconds_left"], turn=2), abs=0.05
    )


def test_the_board_judgement_deepens_within_the_move_budget():
    bot = FogsearchBot(FogsearchBotConfig(small_sets=SmallSets(small_set_depth=0)))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.handle_opponent_move_result(False, None)
    bot.choose_sense(list(chess.SQUARES), [], 40.0)
    bot.handle_sense_result([])
    move = bot.choose_move(list(chess.Board().pseudo_legal_moves), 40.0)
    bot.handle_move_result(move, move, False, None)
    turn = bot.turn_log[-1]
    assert turn["plies"] >= 1 and turn["search_seconds"] <= turn["budget"] + 0.5
    assert bot.fallbacks == 0


@pytest.mark.skipif(find_stockfish() is None, reason="Stockfish not installed (scripts/install.sh)")
def test_the_engine_judgement_scores_every_board_with_the_engine_and_answers_the_check():
    checked = "r1bqkbnr/pppppppp/8/8/4P3/2Nn1N2/PPPP1PPP/R1BQKB1R w KQkq - 5 4"
    quiet = "r1bqkbnr/pppppppp/8/8/1n2P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 5 4"
    config = from_settings({"judge": "engine", "uci_depth": 4, "sense": "size"})
    bot = bot_on(chess.WHITE, [checked, quiet], config)
    bot.choose_sense(list(chess.SQUARES), [], 900.0)
    move = bot.choose_move(move_actions(chess.Board(checked)), 900.0)
    assert bot._turn["judged"] == 2 and bot.fallbacks == 0
    after = chess.Board(checked)
    after.push(reconchess.utilities.revise_move(after, move) or chess.Move.null())
    # It takes the knight (a bishop's move through d3 stops there) or moves the king.
    assert not after.was_into_check(), move
    # Boards the deadline cuts stay in the table, in the set's order, with the rules' verdicts.
    fens = [quiet, checked] if bot.board_set.fen(0) == quiet else [checked, quiet]
    table = bot._engine_table(bot.board_set, np.array([0.9, 0.1]), 1e-6)
    row = [m.uci() if m else "0000" for m in table.requests].index("d2d4")
    assert table.values.shape[1] == 2 and bot._turn["judged"] < 2
    assert table.values[row, fens.index(checked)] == -(MATE - 2)


def recorded_searches(monkeypatch, bot) -> list[tuple[int, float]]:
    """The (depth, time limit) of every information-set search ``bot`` runs from now on."""
    searches = []
    search = bot.searcher.search

    def recorded(boards, depth, time_limit):
        searches.append((depth, time_limit))
        return search(boards, depth, time_limit=time_limit)

    monkeypatch.setattr(bot.searcher, "search", recorded)
    return searches


@pytest.mark.parametrize(("extra_boards", "depth"), [(0, 3), (2, 1)])
def test_small_sets_are_searched_deeper_within_their_own_time_limit(
    monkeypatch, extra_boards, depth
):
    """One board (the start) is searched 3 deep within ``small_set_seconds``; the same board in a
    3-board set is above ``small_set_boards`` and keeps ``depth`` and the turn's budget."""
    fens = [chess.STARTING_FEN]
    for move in ("e2e4", "d2d4")[:extra_boards]:
        board = chess.Board()
        board.push_uci(move)
        board.push(chess.Move.null())
        fens.append(board.fen())
    config = FogsearchBotConfig(
        judge="set",
        depth=1,
        small_sets=SmallSets(small_set_depth=3, small_set_boards=2, small_set_seconds=10.0),
    )
    bot = bot_on(chess.WHITE, fens, config)
    searches = recorded_searches(monkeypatch, bot)
    bot.choose_move(list(chess.Board().pseudo_legal_moves), 900.0)
    budget = (1 - config.clock.sense_share) * turn_budget(config.clock, 900.0)
    assert budget > 10.0
    assert searches == [(depth, 10.0 if depth == 3 else budget)]
    assert bot.last_search.depth == depth and bot.fallbacks == 0


@pytest.mark.parametrize(("mean_weight", "searched"), [(1.0, False), (0.5, True)])
def test_the_board_judgement_searches_the_set_only_when_the_minimum_has_weight(
    monkeypatch, mean_weight, searched
):
    """On a small set the information-set search supplies the minimum; with the whole weight on
    the mean (the default) nothing would use it, so it does not run."""
    config = FogsearchBotConfig(
        mean_weight=mean_weight, small_sets=SmallSets(small_set_seconds=1.0)
    )
    bot = bot_on(chess.WHITE, [chess.STARTING_FEN], config)
    searches = recorded_searches(monkeypatch, bot)
    move = bot.choose_move(list(chess.Board().pseudo_legal_moves), 900.0)
    assert move is None or move in chess.Board().pseudo_legal_moves
    assert bool(searches) == searched and bot.fallbacks == 0


def test_the_quiet_count_is_the_most_any_board_of_the_set_has_gone_without_progress():
    quiet = "r1bqkb1r/1pp2ppp/2nppn2/p7/8/8/PPPPPPPP/RNBQKBNR b KQkq - {clock} 30"
    pushed = quiet.replace("8/8/PPPP", "8/4P3/PPPP")
    boards = BoardSet(chess.BLACK, fens=[pushed.format(clock=3), quiet.format(clock=57)])
    assert boards.max_halfmove_clock() == 57


def _black_move_on_one_board(fen: str) -> tuple[chess.Board, chess.Move]:
    """The depth-1 bot's request as Black when its set is the one board ``fen``."""
    bot = bot_on(chess.BLACK, [fen], FogsearchBotConfig(depth=1))
    board = chess.Board(fen)
    move = bot.choose_move(list(board.pseudo_legal_moves), 900.0)
    assert move is not None and bot.fallbacks == 0
    return board, move


# Black's only pawn shields the queen from the bishop: any push loses her at once, so no push is
# within a margin of the best request.
SHIELD = "3q3k/2p5/8/B7/8/8/{white} b - - {clock} 80"


@pytest.mark.parametrize(
    "clock, white, pushed",
    [
        (60, "8/7K", False),  # quiet, but the pushes are far below the best request
        (92, "8/7K", True),  # the draw is near and Black is ahead: a push, whatever it costs
        (92, "PP6/R6K", True),  # level material is not behind
        (92, "8/RN5K", False),  # near the draw but behind in material: the draw is welcome
    ],
)
def test_near_the_move_limit_a_bot_not_behind_resets_the_clock_at_any_cost(clock, white, pushed):
    board, move = _black_move_on_one_board(SHIELD.format(white=white, clock=clock))
    assert (board.piece_type_at(move.from_square) == chess.PAWN) == pushed, move


@pytest.mark.parametrize("clock, progress", [(0, False), (60, True)])
def test_a_long_quiet_stretch_makes_the_bot_reset_the_clock(clock, progress):
    """Against a passive opponent the worst-case search repeats speculative captures; near
    reconchess's 100-half-move draw the bot plays a request that resets the clock instead.
    Here the best request brings the knight in from the corner; a pawn push is within the
    margin."""
    board, move = _black_move_on_one_board(f"4k3/p7/8/8/8/8/8/n3K3 b - - {clock} 40")
    resets = board.piece_type_at(move.from_square) == chess.PAWN or board.is_capture(move)
    assert resets == progress, move


def _black_bot(line: str, fens: list[str] | None = None) -> FogsearchBot:
    bot = FogsearchBot(
        dataclasses.replace(FAST, opening=dataclasses.replace(FAST.opening, opening_as_black=line))
    )
    bot.handle_game_start(chess.BLACK, chess.Board(), "test")
    bot.handle_opponent_move_result(False, None)  # White's unseen first move or pass
    if fens is not None:
        bot.tracker.board_set = BoardSet(chess.BLACK, fens=fens)
    return bot


def test_an_opening_line_is_played_as_black_while_near_the_best_and_taken():
    bot = _black_bot("g8f6 e7e6 f8e7")
    assert len(bot.board_set) == 21  # 20 first moves and a pass
    move = bot.choose_move(move_actions(bot.board_set.fen(0)), 900.0)
    assert move == chess.Move.from_uci("g8f6") and bot._turn["opening"]
    bot.handle_move_result(move, move, False, None)
    assert bot._opening == [chess.Move.from_uci(m) for m in ("e7e6", "f8e7")]

    # A request that is not taken as requested (here: blocked) ends the line.
    e6 = chess.Move.from_uci("e7e6")
    bot.handle_move_result(e6, None, False, None)
    assert bot._opening == []

    # The line is Black's: White has none.
    as_white = FogsearchBot(dataclasses.replace(FAST, opening=OpeningLine(opening_as_black="g8f6")))
    as_white.handle_game_start(chess.WHITE, chess.Board(), "test")
    assert as_white._opening == []


def test_an_opening_request_far_below_the_best_is_left_for_the_search():
    queen_en_prise = "rnbqkbnr/pppp1ppp/4p3/3Q4/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 2"
    bot = _black_bot("a7a6 b7b6", fens=[queen_en_prise])
    move = bot.choose_move(move_actions(queen_en_prise), 900.0)
    assert move == chess.Move.from_uci("e6d5")
    assert bot._opening == [] and bot._turn["opening"] is False


AFTER_NF6 = "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
"""1. e4 Nf6 with White's second move still to come: the boards below each play one."""
SECOND_MOVES = ("e4e5", "g1f3", "d2d3", "h2h3", "a2a3", "g2g3", "b2b3", "c2c3")


def _after_second_moves(*moves: str) -> list[str]:
    fens = []
    for uci_text in moves:
        board = chess.Board(AFTER_NF6)
        board.turn = chess.WHITE
        board.push_uci(uci_text)
        fens.append(board.fen())
    return fens


@pytest.mark.parametrize(
    "safety_cp, e5_among_them, line_played",
    [
        (100, False, True),
        (100, True, False),
        (None, True, True),  # no safety: the weighted mean is within the margin
    ],
)
def test_an_opening_request_that_loses_a_piece_on_one_board_is_not_played(
    safety_cp, e5_among_them, line_played
):
    """As against StrangeFish2: after 1. e4 Nf6 2. e5 on one board of eight, 2... e6 loses the
    knight there, and costs a weighted mean within the line's margin; the line's worst value
    keeps it from being played, and the request played instead is one that loses no piece."""
    moves = SECOND_MOVES if e5_among_them else SECOND_MOVES[1:]
    bot = _black_bot("e7e6 f8e7", fens=_after_second_moves(*moves))
    bot.config = dataclasses.replace(
        bot.config, opening=dataclasses.replace(bot.config.opening, opening_safety_cp=safety_cp)
    )
    move = bot.choose_move(move_actions(bot.board_set.fen(0)), 900.0)
    assert (move == chess.Move.from_uci("e7e6")) == line_played, move
    assert bot._turn["opening"] is line_played
    if not line_played:
        for fen in bot.board_set.fens():
            board = chess.Board(fen)
            board.push(move)
            assert not any(
                _attacked_by_a_pawn(board, sq) for sq in board.pieces(chess.KNIGHT, chess.BLACK)
            ), (fen, move)


def _attacked_by_a_pawn(board: chess.Board, square: chess.Square) -> bool:
    return any(board.piece_type_at(a) == chess.PAWN for a in board.attackers(chess.WHITE, square))


def _fallback_of(search_move) -> tuple[chess.Move | None, FogsearchBot]:
    bot = bot_on(chess.WHITE, [chess.STARTING_FEN], FAST)
    bot._search_move = search_move
    return bot.choose_move(move_actions(chess.STARTING_FEN), 900.0), bot


def _failing(budget):
    raise RuntimeError("deliberate search failure")


@pytest.mark.parametrize(
    "search_move",
    [_failing, lambda budget: chess.Move.from_uci("e2e5")],
    ids=["search raises", "no move action"],
)
def test_a_turn_the_search_cannot_decide_is_played_with_a_counted_seeded_fallback(search_move):
    move, bot = _fallback_of(search_move)
    assert move in move_actions(chess.STARTING_FEN)
    assert bot.fallbacks == 1
    # The fallback draws from the bot's seeded generator: a seeded game replays alike.
    assert _fallback_of(search_move)[0] == move


# -- reconchess's tools ----------------------------------------------------------------------


def test_reconchess_loads_the_bot_module():
    name, cls = reconchess.load_player("fogsearch.bot")
    assert cls is FogsearchBot


def test_rc_bot_match_plays_the_bot(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reconchess.scripts.rc_bot_match",
            str(Path(__file__).parent / "bots" / "quick_fogsearch_bot.py"),
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
