"""The bot's pondering (fogsearch.bot.ponder): reused on our turn, dropped when it no longer
applies, and never a different decision under a fixed budget and seed."""

from pathlib import Path

import chess
import pytest
from reconchess import GameHistory

from fogsearch.bot import FogsearchBot, FogsearchBotConfig, SenseRule, SetLimits
from fogsearch.bot.ponder import Ponder
from fogsearch.observations import OpponentMoveResult
from fogsearch.rbc import move_actions
from fogsearch.search import SearchConfig, board_table
from fogsearch.tournament.players import PlayerSpec

GAME = Path(__file__).parent / "data" / "games" / "sf2-game-0004.json"
TURNS = 17
"""Game 4's first 17 White turns: StrangeFish2 takes our knight after turn 14."""


def fixed_config(ponder: bool) -> FogsearchBotConfig:
    # Budgets far above what these searches need: every table completes, so the decisions do
    # not depend on the time each turn took.
    return FogsearchBotConfig(
        search=SearchConfig(mode="exact", sense_mode="min_size", threads=1, seed=7),
        board_plies=2,
        sensing=SenseRule(sense_plies=1),
        set_limits=SetLimits(max_search_boards=24),
        ponder=ponder,
    )


def sense_result(board: chess.Board, square):
    if square is None:
        return []
    rank, file = chess.square_rank(square), chess.square_file(square)
    return [
        (chess.square(f, r), board.piece_at(chess.square(f, r)))
        for r in range(rank - 1, rank + 2)
        for f in range(file - 1, file + 2)
        if 0 <= r < 8 and 0 <= f < 8
    ]


def replay(bot: FogsearchBot, history: GameHistory, turns: int, ponder_slices: list[int]):
    """The bot as White through the game's first ``turns`` turns: its own sense (answered from the
    true board) and its own move choice, then the game's recorded move result. Between turns,
    ``while_we_wait`` is called until the pondering has no work left (none when it is off)."""
    decisions = []
    bot.handle_game_start(chess.WHITE, chess.Board(), "StrangeFish2")
    for turn in list(history.turns(chess.WHITE))[:turns]:
        previous = turn.previous
        capture = history.capture_square(previous) if turn.turn_number > 0 else None
        bot.handle_opponent_move_result(capture is not None, capture)
        truth = history.truth_board_before_move(turn)
        squares = list(chess.SQUARES)
        sensed = bot.choose_sense(squares, [], 900.0)
        bot.handle_sense_result(sense_result(truth, sensed))
        requested = bot.choose_move(move_actions(truth), 900.0)
        bot.handle_move_result(*history.move_result(turn)[:2], *_capture(history, turn))
        decisions.append((sensed, requested, bot.turn_log[-1]["top"]))
        slices = 0
        while bot.ponder.busy and slices < 1000:
            bot.while_we_wait()
            slices += 1
        ponder_slices.append(slices)
    return decisions


def _capture(history, turn):
    square = history.move_result(turn)[2]
    return square is not None, square


def test_pondering_decides_as_without_it_and_is_reused():
    history = GameHistory.from_file(str(GAME))
    without = FogsearchBot(fixed_config(ponder=False))
    with_ponder = FogsearchBot(fixed_config(ponder=True))
    idle, slices = [], []
    expected = replay(without, history, TURNS, idle)
    got = replay(with_ponder, history, TURNS, slices)
    assert got == expected
    assert idle == [0] * TURNS
    assert all(n > 2 for n in slices[:-1])
    reused = [t["pondered"] for t in with_ponder.turn_log]
    assert [t.get("pondered", []) for t in without.turn_log] == [[]] * TURNS
    # The set, its sense statistics and the sense's table were reused on every turn after the
    # first, also after the knight was taken (turn 15) and the pawn (turn 17): the work pondered
    # for those capture squares.
    assert reused == [[]] + [["set", "stats", "table"]] * (TURNS - 1)
    assert [t["after_move"] for t in with_ponder.turn_log] == [
        t["after_move"] for t in without.turn_log
    ]


def test_the_pondered_table_is_the_whole_tables_and_stale_work_is_dropped():
    history = GameHistory.from_file(str(GAME))
    bot = FogsearchBot(fixed_config(ponder=True))
    replay(bot, history, 6, [])
    ponder = bot.ponder
    # Still pondered after the sixth turn: the table the sense will be given is one call's table.
    keys, plies, table = ponder._tables[None]
    quiet = ponder._sets[None]
    boards, _ = bot.tracker.weighted_sample(24)  # draws as the sense would; the set is unchanged
    whole = board_table(_same(quiet, keys), None, plies, least_plies=None, threads=1)
    assert whole.requests == table.requests
    assert (whole.values == table.values).all() and (whole.plies == table.plies).all()
    # A result that was not pondered (a capture on an empty square of ours): normal tracking.
    stamp = len(bot.tracker.log)
    ponder.observe(bot.tracker, _obs(True, chess.H5))
    assert len(bot.tracker.log) == stamp + 1 and ponder.reused == []
    assert ponder.sense_table(boards, plies) is None and not ponder.busy


def _same(board_set, keys):
    order = {int(k): i for i, k in enumerate(board_set.zobrist_keys())}
    return board_set.subset([order[int(k)] for k in keys])


def _obs(captured, square):
    return OpponentMoveResult(captured, square)


def test_a_ponder_made_for_another_set_is_not_used():
    history = GameHistory.from_file(str(GAME))
    bot = FogsearchBot(fixed_config(ponder=True))
    replay(bot, history, 3, [])
    # The set changes after the pondering was planned (a recovery, a replayed observation):
    bot.tracker.log.append(bot.tracker.log[-1])
    before = len(bot.board_set)
    bot.ponder.observe(bot.tracker, _obs(False, None))
    assert bot.ponder.reused == [] and len(bot.board_set) != before


def test_pondering_is_off_by_default_and_idle_without_a_plan():
    assert FogsearchBotConfig().ponder is False
    assert PlayerSpec.parse("fogsearch:ponder=true").fogsearch_config().ponder is True
    with pytest.raises(ValueError, match="ponder must be a bool"):
        FogsearchBotConfig(ponder="yes")
    ponder = Ponder()
    assert not ponder.busy and ponder.step() is False
