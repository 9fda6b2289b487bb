"""The fogsearch bot: complete games against every baseline as both colours with short clocks,
exact tracking during those games, recovery from an injected inconsistent observation, and loading
through reconchess's own tools."""

import math
import subprocess
import sys
import time

import chess
import pytest
import reconchess

from fogsearch._core import evaluate_fen
from fogsearch.bot import (
    LOST,
    FogsearchBot,
    FogsearchBotConfig,
    check_weighted_means,
    choose_request,
    format_turn,
    opening_candidates,
    pass_share,
    progress_requests,
    quiet_halfmoves,
    tied_requests,
)
from fogsearch.rbc import BoardSet, move_actions
from fogsearch.search import (
    MATE,
    SearchConfig,
    SearchError,
    mean_reply_values,
    search,
    sense_values,
)
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
        self.clocks: list[tuple[int, int]] = []  # (quiet_bound, the true half-move clock)

    def _observe(self, method, *args):
        super()._observe(method, *args)
        truth = self.game.board.copy()
        if method == "handle_move_result":
            return  # the referee pushes the move after this callback returns
        if truth.turn == self.color and truth.fen() not in self.board_set:
            self.misses += 1
        if method == "handle_sense_result":
            self.clocks.append((self.quiet_bound, truth.halfmove_clock))


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
        assert bot.approximations == 0  # far below the tracking bound: exact all game
        assert bot.turn_log, "the bot logged no turns"
        # Unseen pawn moves of the opponent reset the true clock; nothing else can make it lower.
        assert all(bound >= clock for bound, clock in bot.clocks), bot.clocks


@pytest.mark.parametrize("colour", [chess.WHITE, chess.BLACK])
def test_the_bot_beats_an_opponent_that_never_moves_and_knows_the_clock(colour):
    """As Black at depth 1 the bot used to shuffle into reconchess's 100-half-move draw here
    (level material, pawns blocked); progress_force_halfmoves makes it push on at the 91st."""
    bot = _play_tracked(colour, PassingBot, seed=4)
    assert bot.game.get_winner_color() == colour
    assert bot.game.get_win_reason() == reconchess.WinReason.KING_CAPTURE
    assert bot.misses == 0
    assert len(bot.clocks) > 3
    assert [bound for bound, _ in bot.clocks] == [clock for _, clock in bot.clocks]
    assert any(clock > 0 for _, clock in bot.clocks)  # the clock ran and was followed


def _rook_and_knight_set():
    """Black's 12 boards: a white rook on e1 (check) or d1 (not), a knight on one of six squares
    around c5. Knowing the knight shrinks the set most; knowing the rook settles the check."""
    fens = []
    for rook in ("e1", "d1"):
        for knight in ("b4", "b5", "b6", "c4", "c5", "c6"):
            board = chess.Board("4k3/8/8/8/8/8/8/K7 b - - 0 1")
            board.set_piece_at(chess.parse_square(rook), chess.Piece(chess.ROOK, chess.WHITE))
            board.set_piece_at(chess.parse_square(knight), chess.Piece(chess.KNIGHT, chess.WHITE))
            fens.append(board.fen())
    return BoardSet(chess.BLACK, fens=fens)


@pytest.mark.parametrize(("weight", "max_boards"), [(0.0, 5000), (10.0, 5000), (10.0, 11)])
def test_the_sense_settles_whether_our_king_is_in_check_when_weighted(weight, max_boards):
    bot = FogsearchBot(
        FogsearchBotConfig(check_sense_weight=weight, check_sense_max_boards=max_boards)
    )
    bot.handle_game_start(chess.BLACK, chess.Board(), "test")
    bot.board_set = _rook_and_knight_set()
    assert bot.board_set.boards_in_check() == 6
    square = bot.choose_sense(list(range(64)), [], 900.0)
    size, doubt = bot.board_set.sense_check_stats()[square]
    if weight and len(bot.board_set) <= max_boards:
        # The rook's square: six boards left, and whether we are in check is known.
        assert (size, doubt) == (6.0, 0.0) and bot._turn["check_doubt"] == 0.0
    else:
        # By size alone: the knight's square, two boards left, one in check and one not.
        assert (size, doubt) == (2.0, 0.5) and "check_doubt" not in bot._turn
    truth = bot.board_set.to_boards()[0]
    seen = [sq for sq in chess.SQUARES if chess.square_distance(sq, square) <= 1]
    bot.handle_sense_result([(sq, truth.piece_at(sq)) for sq in seen])
    assert len(bot.board_set) == size


def test_the_turn_log_shows_the_depth_the_search_completed_and_its_time():
    bot = FogsearchBot(FogsearchBotConfig(depth=2, small_set_depth=0))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.handle_sense_result([])
    move = bot.choose_move(list(chess.Board().pseudo_legal_moves), 900.0)
    bot.handle_move_result(move, move, False, None)
    turn = bot.turn_log[-1]
    assert turn["depth"] == 2 and 0 < turn["search_seconds"] < turn["budget"]
    assert f"depth 2 in {turn['search_seconds']:5.2f}s" in format_turn(turn)


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


class LargestSetBot(TrackingCheckBot):
    """Records the largest set the bot held after any observation."""

    largest = 0

    def _observe(self, method, *args):
        super()._observe(method, *args)
        self.largest = max(self.largest, len(self.board_set))


def test_a_set_past_the_tracking_bound_is_sampled_and_the_game_goes_on():
    import random

    from reconchess.bots.random_bot import RandomBot

    random.seed(5)
    game = reconchess.LocalGame(seconds_per_player=120)
    bot = LargestSetBot(game, FogsearchBotConfig(**FAST, seed=5, max_tracked_boards=300))
    reconchess.play_local_game(bot, RandomBot(), game=game)
    assert game.is_over() and game.get_win_reason() is not None
    assert bot.approximations >= 1  # RandomBot's unseen moves outgrow 300 boards quickly
    assert bot.largest <= 300
    assert bot.fallbacks == 0


def test_the_tracking_bound_must_hold_a_board_and_its_replies():
    with pytest.raises(ValueError, match="max_tracked_boards must be an integer >= 256"):
        FogsearchBotConfig(max_tracked_boards=100)


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


def _no_means(requests):
    return dict.fromkeys(("0000" if m is None else m.uci() for m in requests), 0.0)


def test_a_move_back_is_avoided_only_when_an_alternative_ties():
    back, previous = chess.Move.from_uci("f4e3"), chess.Move.from_uci("e3f4")
    values = {"f4e3": 981, "f5g7": 964, "a2a3": 700, "0000": 600}
    # Within the margin: the best other request is played.
    assert choose_request(values, previous, 50, _no_means) == chess.Move.from_uci("f5g7")
    # Outside it (or with no margin), the search's choice stands.
    assert choose_request(values, previous, 10, _no_means) == back
    assert choose_request(values, previous, 0, _no_means) == back
    # With nothing to take back, equal means leave the search's order.
    assert choose_request(values, None, 50, _no_means) == back
    # A pass can be the alternative.
    assert choose_request({"f4e3": 10, "0000": 5}, previous, 50, _no_means) is None


def _means(table):
    return lambda requests: {("0000" if m is None else m.uci()): table[_key(m)] for m in requests}


def _key(move):
    return "0000" if move is None else move.uci()


def test_ties_go_to_the_best_mean_and_a_lost_set_ties_every_request():
    values = {"e3e2": 120, "e7d6": 100, "a7a6": 40, "0000": 110}
    means = _means({"e3e2": -5.0, "e7d6": 30.0, "a7a6": 500.0, "0000": 0.0})
    # a7a6 is outside the margin, so the best mean among the rest wins.
    assert choose_request(values, None, 50, means) == chess.Move.from_uci("e7d6")
    # When even the best request loses our king on some board, every request ties.
    lost = {uci: -MATE + 4 for uci in values} | {"e3e2": -MATE + 6}
    assert choose_request(lost, None, 50, means) == chess.Move.from_uci("a7a6")
    # A forced win is never traded for a better mean.
    won = {"e3e2": MATE - 1, "e7d6": MATE - 3, "a7a6": 0, "0000": 0}
    assert tied_requests(won, 50) == [chess.Move.from_uci("e3e2")]


QUIET = "r1bqkb1r/1pp2ppp/2nppn2/p7/8/8/PPPPPPPP/RNBQKBNR b KQkq - {clock} 30"


def test_quiet_halfmoves_is_the_most_any_board_has_gone_without_progress():
    boards = BoardSet(
        chess.BLACK,
        fens=[QUIET.format(clock=57), QUIET.replace("8/8/PPPP", "8/4P3/PPPP").format(clock=3)],
    )
    assert quiet_halfmoves(boards) == 57


def test_progress_requests_are_pawn_pushes_and_certain_captures_within_the_margin():
    boards = BoardSet(chess.BLACK, fens=[QUIET.format(clock=60)])
    values = {"a5a4": -250, "b7b5": -20, "d6e5": 0, "c6b4": 10, "h7h6": -400, "0000": -30}
    got = progress_requests(boards, values, 300)
    assert got == [chess.Move.from_uci(u) for u in ["a5a4", "b7b5"]]
    lost = dict.fromkeys(values, -MATE + 2)
    assert len(progress_requests(boards, lost, 300)) == 3
    # A capture counts only where the target is the opponent's on every board.
    fen = "4k3/p7/3n4/8/4P3/8/8/4K3 b - - 60 40"
    elsewhere = fen.replace("4P3/8", "8/4P3")
    capture = {"d6e4": 0}
    assert progress_requests(BoardSet(chess.BLACK, fens=[fen]), capture, 300)
    assert not progress_requests(BoardSet(chess.BLACK, fens=[fen, elsewhere]), capture, 300)


def test_a_push_blocked_on_some_board_is_no_progress():
    """reconchess turns a blocked push into a pass, which leaves the clock running."""
    open_file = "6k1/8/8/8/3p4/8/8/4K3 b - - 60 40"
    blocked = open_file.replace("3p4/8/8", "3p4/3P4/8")
    push = {"d4d3": 0}
    assert progress_requests(BoardSet(chess.BLACK, fens=[open_file]), push, 0)
    assert not progress_requests(BoardSet(chess.BLACK, fens=[open_file, blocked]), push, 0)


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


def _black_move_on_one_board(fen: str) -> tuple[chess.Board, chess.Move]:
    """The depth-1 bot's request as Black when its set is the one board ``fen``."""
    bot = FogsearchBot(FogsearchBotConfig(depth=1))
    bot.handle_game_start(chess.BLACK, chess.Board(), "passive")
    bot.board_set = BoardSet(chess.BLACK, fens=[fen])
    board = chess.Board(fen)
    move = bot.choose_move(list(board.pseudo_legal_moves), 900.0)
    assert move is not None
    return board, move


@pytest.mark.parametrize("clock, progress", [(0, False), (60, True)])
def test_a_long_quiet_stretch_makes_the_bot_reset_the_clock(clock, progress):
    """Against a passive opponent the worst-case search repeats speculative captures; near
    reconchess's 100-half-move draw the bot plays a request that resets the clock instead.
    Here the best request brings the knight in from the corner; a pawn push is within the
    margin."""
    board, move = _black_move_on_one_board(f"4k3/p7/8/8/8/8/8/n3K3 b - - {clock} 40")
    resets = board.piece_type_at(move.from_square) == chess.PAWN or board.is_capture(move)
    assert resets == progress, move


def _worst_reply_value(fen: str) -> float:
    """python-chess as the move oracle: the lowest evaluation (ours) over every reply and a pass."""
    board = chess.Board(fen)
    children = []
    for reply in [chess.Move.null(), *board.pseudo_legal_moves]:
        child = board.copy(stack=False)
        child.push(reply)
        children.append(evaluate_fen(child.fen()))
    return float(min(children))


def test_mean_reply_values_prefer_keeping_the_king_on_more_boards():
    # After a pass the rook takes our king on two of three boards; Kf2 is safe on all of them.
    fens = [
        "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        "7k/8/8/8/8/8/8/r3K3 w - - 0 1",
        "7k/8/8/8/8/8/8/4K3 w - - 0 1",
    ]
    means = mean_reply_values(fens)
    passed = "7k/8/8/8/8/8/8/4K3 b - - 1 1"
    assert means["0000"] == pytest.approx((-2 * MATE + _worst_reply_value(passed)) / 3)
    assert means["e1f2"] > -MATE / 3
    assert mean_reply_values(fens, [None]) == {"0000": means["0000"]}
    with pytest.raises(SearchError, match="empty"):
        mean_reply_values([])
    with pytest.raises(TypeError):
        mean_reply_values(fens, ["e1f2"])
    with pytest.raises(SearchError, match="e1e3 is not a move action"):
        mean_reply_values(fens, [chess.Move.from_uci("e1e3")])


def test_the_exchange_leaf_reaches_the_tie_break_and_the_sense_values():
    # Black's queen can take our knight on d4, which the e3 pawn guards.
    fens = ["3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1", "3qk3/8/8/8/3N4/4P3/8/5K2 w - - 0 1"]
    static = mean_reply_values(fens)
    exchange = mean_reply_values(fens, leaf="exchange")
    assert all(exchange[r] >= static[r] for r in static)
    assert exchange["0000"] - static["0000"] >= 300  # Qxd4 exd4 no longer wins the knight
    unsensed, _ = sense_values(fens, leaf="exchange")
    assert unsensed == pytest.approx(max(exchange.values()))
    with pytest.raises(ValueError, match="leaf"):
        mean_reply_values(fens, leaf="qsearch")
    with pytest.raises(ValueError, match="leaf"):
        sense_values(fens, leaf="qsearch")


def test_the_king_safety_leaf_reaches_the_tie_break_as_in_the_search():
    # One board each: the mean over the set is that board's one-reply value, which the depth-1
    # search (checked against a brute force in test_search_bruteforce.py) also computes.
    for fen in [
        "r4rk1/ppp2p1p/6p1/8/6Q1/8/PPP1qPPP/R4RK1 w - - 0 1",
        "r4rk1/ppp2ppp/8/8/6Q1/5q2/PPP2P1P/R4RK1 w - - 0 1",
    ]:
        means = mean_reply_values([fen], leaf="king_safety")
        config = SearchConfig(sense_mode="min_size", leaf="king_safety")
        values = search([fen], 1, config).move_values
        assert means.keys() == values.keys()
        for request, value in values.items():
            if abs(value) > MATE - 100:  # the search moves king captures by their ply
                assert means[request] == math.copysign(MATE, value)
            else:
                assert means[request] == value
        assert means != mean_reply_values([fen])


def test_on_small_sets_the_bot_plays_the_best_mean_per_board_value():
    from fogsearch.search import board_values

    # Rd8 mates on both boards two plies on; the set search at depth 1 cannot see the mate.
    fens = ["6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/3R3K w - - 0 1"]
    values = board_values(fens, plies=2)
    means = {uci: sum(row) / len(row) for uci, row in values.items()}
    assert max(means, key=means.__getitem__) == "d1d8"
    bot = FogsearchBot(FogsearchBotConfig(depth=1, board_search_boards=2, board_search_plies=2))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.board_set = BoardSet(chess.WHITE, fens=fens)
    assert bot._search_move(budget=10.0) == chess.Move.from_uci("d1d8")
    assert bot._turn["board_search"] == MATE - 3
    # Above the size bound the set search decides alone.
    bot.config.board_search_boards = 1
    bot._turn.clear()
    bot._search_move(budget=10.0)
    assert "board_search" not in bot._turn


# White to move. Black's queen and rook threaten a back-rank attack that no move stops two moves
# on, while nothing is lost after one reply (perfect information: a one-board set).
BACK_RANK_LOST_AT_DEPTH_2 = "6k1/5ppp/3r4/6qR/8/8/5PPP/7K w - - 0 1"


def _bot_on(fens: list[str], **config) -> FogsearchBot:
    bot = FogsearchBot(FogsearchBotConfig(**config))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.board_set = BoardSet(chess.WHITE, fens=fens)
    return bot


def _black_bot(line: str, fens: list[str] | None = None) -> FogsearchBot:
    bot = FogsearchBot(FogsearchBotConfig(opening_as_black=line, **FAST))
    bot.handle_game_start(chess.BLACK, chess.Board(), "test")
    bot.handle_opponent_move_result(False, None)  # White's unseen first move or pass
    if fens is not None:
        bot.board_set = BoardSet(chess.BLACK, fens=fens)
    return bot


def test_an_opening_line_is_played_as_black_while_near_the_best_and_taken():
    bot = _black_bot("g8f6 e7e6 f8e7")
    assert len(bot.board_set) == 21  # 20 first moves and a pass
    move = bot.choose_move(move_actions(bot.board_set.fens()[0]), 900.0)
    assert move == chess.Move.from_uci("g8f6") and bot._turn["opening"]
    bot.handle_move_result(move, move, False, None)
    assert bot._opening == [chess.Move.from_uci(m) for m in ("e7e6", "f8e7")]

    # A request that is not taken as requested (here: blocked) ends the line.
    e6 = chess.Move.from_uci("e7e6")
    bot.handle_move_result(e6, None, False, None)
    assert bot._opening == []

    as_white = FogsearchBot(FogsearchBotConfig(opening_as_black="g8f6", **FAST))
    as_white.handle_game_start(chess.WHITE, chess.Board(), "test")
    assert as_white._opening == []


def test_white_plays_its_own_line_and_not_blacks():
    config = FogsearchBotConfig(opening_as_white="g1f3 e2e3", opening_as_black="g8f6", **FAST)
    bot = FogsearchBot(config)
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.handle_opponent_move_result(False, None)  # White's first turn starts with this callback
    move = bot.choose_move(move_actions(chess.STARTING_FEN), 900.0)
    assert move == chess.Move.from_uci("g1f3") and bot._turn["opening"]
    bot.handle_move_result(move, move, False, None)
    assert bot._opening == [chess.Move.from_uci("e2e3")]


def test_an_opening_request_may_stand_below_a_tie_but_never_where_every_request_loses():
    # The values the depth-3 search gave after 1. Nf3, sensed: 1... Nf6 is 127 cp below the best.
    values = {"c7c6": -321, "e7e6": -322, "g8f6": -449, "a7a6": -700}
    nf6 = chess.Move.from_uci("g8f6")
    assert nf6 not in tied_requests(values, 50)
    assert opening_candidates(values, 200) == [chess.Move.from_uci(m) for m in values][:3]
    assert opening_candidates({"g8f6": LOST, "e7e6": LOST - 5}, 200) == []


def test_an_opening_request_far_below_the_best_is_left_for_the_search():
    queen_en_prise = "rnbqkbnr/pppp1ppp/4p3/3Q4/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 2"
    bot = _black_bot("a7a6 b7b6", fens=[queen_en_prise])
    move = bot.choose_move(move_actions(queen_en_prise), 900.0)
    assert move == chess.Move.from_uci("e6d5")
    assert bot._opening == [] and "opening" not in bot._turn


def test_a_search_that_finds_every_request_lost_gives_way_to_a_shallower_one():
    fens = [BACK_RANK_LOST_AT_DEPTH_2]
    deep = search(fens, 2, config=SearchConfig(mode="exact", sense_mode="min_size"))
    assert max(deep.move_values.values()) <= LOST  # every request loses two moves on
    shallow = search(fens, 1, config=SearchConfig(mode="exact", sense_mode="min_size"))
    assert shallow.value > LOST

    bot = _bot_on(fens, depth=2, small_set_depth=0, shallower_when_lost=True)
    move = bot.choose_move(move_actions(fens[0]), 900.0)
    assert bot.last_search.depth == 1 and bot._turn["lost_at_depth"] == 2
    assert bot.last_search.move_values == shallow.move_values
    assert move in tied_requests(shallow.move_values, bot.config.tie_margin_cp)

    # A spent budget still gets the shallower searches, even with no least turn time.
    bot = _bot_on(fens, depth=2, min_turn_seconds=0.0, shallower_when_lost=True)
    spent = bot._shallower_unless_lost(bot.board_set, deep, deadline=time.monotonic() - 1.0)
    assert spent.depth == 1 and spent.move_values == shallow.move_values

    # Without it (the default) the depth-2 values decide, and every request ties with the best.
    bot = _bot_on(fens, depth=2, small_set_depth=0)
    bot.choose_move(move_actions(fens[0]), 900.0)
    assert bot.last_search.depth == 2 and "lost_at_depth" not in bot._turn


def test_when_every_depth_finds_every_request_lost_the_deepest_search_stands():
    fens = _check_or_knight_set()  # every request loses the king on some board at once
    bot = _bot_on(fens, depth=2, small_set_depth=0, shallower_when_lost=True)
    bot.choose_move(move_actions(fens[0]), 900.0)
    assert bot.last_search.depth == 2 and "lost_at_depth" not in bot._turn
    assert bot.last_search.value <= LOST


def test_shallower_when_lost_must_be_a_bool():
    with pytest.raises(ValueError, match="shallower_when_lost"):
        FogsearchBotConfig(shallower_when_lost=1)


@pytest.mark.parametrize("extra_boards, depth", [(0, 3), (2, 1)])
def test_small_sets_are_searched_deeper_within_their_own_time_limit(extra_boards, depth):
    """One board (the start) is searched 3 deep; the same board in a 3-board set is above
    ``small_set_boards`` and keeps ``depth``."""
    fens = [chess.STARTING_FEN]
    for move in ("e2e4", "d2d4")[:extra_boards]:
        board = chess.Board()
        board.push_uci(move)
        board.push(chess.Move.null())
        fens.append(board.fen())
    bot = FogsearchBot(
        FogsearchBotConfig(depth=1, small_set_depth=3, small_set_boards=2, small_set_seconds=30.0)
    )
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.board_set = BoardSet(chess.WHITE, fens=fens)
    assert bot._depth_and_budget(len(fens), 100.0) == (depth, 30.0 if depth == 3 else 100.0)
    bot.choose_move(list(chess.Board().pseudo_legal_moves), 900.0)
    assert bot.last_search.depth == depth and bot.fallbacks == 0


def test_pass_share_counts_the_boards_where_a_request_does_nothing():
    knight_on_d5 = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1"
    empty_d5 = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"
    blocked_e5 = "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1"
    fens = [knight_on_d5, empty_d5, blocked_e5, empty_d5]
    assert pass_share(fens, chess.Move.from_uci("e4d5")) == 0.75
    assert pass_share(fens, chess.Move.from_uci("e4e5")) == 0.25
    assert pass_share(fens, chess.Move.from_uci("e1d2")) == 0.0
    assert pass_share(fens, None) == 1.0


# A set the bot held as Black against TroutBot (gauntlet game 205, turn 21): White's bishop is on one
# of six squares, and only on h6 can g7xh6 take it.
BISHOP_SOMEWHERE = [
    "r6r/5kpp/2p5/pp2Bp1P/3P4/8/PPP1NPP1/2K4R b - - 3 22",
    "r6r/5kpp/2p5/pp3pBP/3P4/8/PPP1NPP1/2K4R b - - 3 22",
    "r6r/5kpp/2pB4/pp3p1P/3P4/8/PPP1NPP1/2K4R b - - 3 22",
    "r6r/5kpp/2p4B/pp3p1P/3P4/8/PPP1NPP1/2K4R b - - 3 22",
    "r6r/2B2kpp/2p5/pp3p1P/3P4/8/PPP1NPP1/2K4R b - - 3 22",
    "rB5r/5kpp/2p5/pp3p1P/3P4/8/PPP1NPP1/2K4R b - - 3 22",
]


def _move_with_tempo(tempo_cp: int) -> chess.Move | None:
    # Depth 2: at depth 3 (the default on sets this small) only three requests tie and g7xh6 is
    # not among them, so the charge would have nothing to decide.
    bot = FogsearchBot(FogsearchBotConfig(tempo_cp=tempo_cp, small_set_depth=0))
    bot.handle_game_start(chess.BLACK, chess.Board(), "test")
    bot.board_set = BoardSet(chess.BLACK, fens=BISHOP_SOMEWHERE)
    return bot.choose_move(move_actions(BISHOP_SOMEWHERE[0]), 900.0)


def test_a_tempo_charge_turns_a_speculative_capture_into_a_real_move():
    # Without the charge the tie goes to g7xh6, a pass on five boards of six.
    assert _move_with_tempo(0) == chess.Move.from_uci("g7h6")
    charged = _move_with_tempo(50)
    assert charged != chess.Move.from_uci("g7h6")
    assert pass_share(BISHOP_SOMEWHERE, charged) == 0.0


def _check_or_knight_set() -> list[str]:
    """White to move, every request losing the king on some board. On two boards Black's queen on
    h4 checks our king through g3 and f2, and only a king step answers it; on four she stands on h5
    with a knight on g3, which between them cover d1, e2 and f1, so there the king step loses and
    anything else is safe. Black's a-pawn varies, which matters to nothing but the counts."""

    def boards(placement: str, pawns: tuple[chess.Square, ...]) -> list[str]:
        fens = []
        for pawn in pawns:
            board = chess.Board(placement + " w - - 0 1")
            board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.BLACK))
            fens.append(board.fen())
        return fens

    checks = boards("4k3/8/8/8/7q/8/PPPP3P/4K3", (chess.A7, chess.A6))
    knights = boards("4k3/8/8/7q/8/6n1/PPPP3P/4K3", (chess.A7, chess.A6, chess.A5, chess.B6))
    return checks + knights


def _king_steps(move: chess.Move | None) -> bool:
    return move is not None and move.from_square == chess.E1


def test_weighting_the_boards_in_check_turns_the_tie_break_to_answering_the_check():
    fens = _check_or_knight_set()
    assert sum(chess.Board(fen).is_check() for fen in fens) == 2
    # Uniformly the two boards in check weigh less than the four where the king step loses.
    assert not _king_steps(_move_with_check_weight(fens, 1.0))
    assert _king_steps(_move_with_check_weight(fens, 4.0))


def test_check_weighted_means_weigh_each_board_in_check_as_that_many_boards():
    fens = _check_or_knight_set()
    requests = [chess.Move.from_uci(uci) for uci in ("e1d1", "h2g3", "a2a3")]
    uniform = mean_reply_values(fens, requests)
    assert check_weighted_means(fens, requests, 1.0, "static") == uniform
    # Weight 3 counts the two boards in check as six: the same mean as the set with them tripled.
    tripled = fens[:2] * 3 + fens[2:]
    assert check_weighted_means(fens, requests, 3.0, "static") == pytest.approx(
        mean_reply_values(tripled, requests)
    )
    # With no board in check, or every board, there is nothing to weigh against.
    for same_kind in (fens[:2], fens[2:]):
        assert check_weighted_means(same_kind, requests, 3.0, "static") == mean_reply_values(
            same_kind, requests
        )


def _move_with_check_weight(fens: list[str], weight: float) -> chess.Move | None:
    bot = FogsearchBot(FogsearchBotConfig(check_weight=weight))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.board_set = BoardSet(chess.WHITE, fens=fens)
    move = bot.choose_move(move_actions(fens[0]), 900.0)
    assert max(bot.last_search.move_values.values()) <= -MATE + 1000  # every request loses
    return move


@pytest.mark.parametrize(
    "name",
    [
        "tie_margin_cp",
        "progress_halfmoves",
        "progress_margin_cp",
        "progress_force_halfmoves",
        "tempo_cp",
    ],
)
def test_negative_margins_are_refused(name):
    with pytest.raises(ValueError, match=name):
        FogsearchBotConfig(**{name: -1})


def _threat_set() -> list[str]:
    """White to move. On half the boards Black's queen on h4 checks our king through g3 and f2; on
    the other half she stands on h5 and a knight on g3 hangs to hxg3 but covers e2 and f1, so the
    king step that answers the check loses there. Black's a- and b-pawns vary on every board,
    which matters to nothing but the number of boards."""
    fens = []
    for threat in ("4k3/8/8/8/7q/8/PPPP2PP/4K3", "4k3/8/8/7q/8/6n1/PPPP2PP/4K3"):
        for a_pawn in (chess.A7, chess.A6):
            for b_pawn in (chess.B7, chess.B6):
                board = chess.Board(threat + " w - - 0 1")
                board.set_piece_at(a_pawn, chess.Piece(chess.PAWN, chess.BLACK))
                board.set_piece_at(b_pawn, chess.Piece(chess.PAWN, chess.BLACK))
                fens.append(board.fen())
    return fens


def _window(board: chess.Board, square: chess.Square) -> tuple:
    rank, file = chess.square_rank(square), chess.square_file(square)
    return tuple(
        board.piece_at(chess.square(f, r))
        for r in range(rank - 1, rank + 2)
        for f in range(file - 1, file + 2)
    )


def test_sense_values_are_the_best_mean_per_cell_of_each_sense():
    fens = _threat_set()
    unsensed, values = sense_values(fens)
    assert unsensed == pytest.approx(max(mean_reply_values(fens).values()))
    assert sorted(values) == [chess.square(f, r) for r in range(1, 7) for f in range(1, 7)]
    requests = [
        None if uci == "0000" else chess.Move.from_uci(uci) for uci in mean_reply_values(fens)
    ]
    for square, value in values.items():
        cells: dict[tuple, list[str]] = {}
        for fen in fens:
            cells.setdefault(_window(chess.Board(fen), square), []).append(fen)
        expected = sum(
            len(cell) * max(mean_reply_values(cell, requests).values()) for cell in cells.values()
        ) / len(fens)
        assert value == pytest.approx(expected), chess.square_name(square)
        assert value >= unsensed - 1e-9
    with pytest.raises(SearchError, match="at least one request"):
        sense_values(fens, [])


def _sense_of(sense_mode: str, fens: list[str]) -> chess.Square:
    bot = FogsearchBot(FogsearchBotConfig(sense_mode=sense_mode))
    bot.handle_game_start(chess.WHITE, chess.Board(), "test")
    bot.board_set = BoardSet(chess.WHITE, fens=fens)
    return bot.choose_sense(list(chess.SQUARES), [], 900.0)


def test_the_bot_senses_where_a_threat_to_its_king_is_told_apart():
    fens = _threat_set()
    threatened = {fen for fen in fens if "7q/8/PP" in fen}
    # By set size alone the pawns' corner splits the set four ways and wins.
    by_size = _sense_of("min_size", fens)
    assert chess.square_file(by_size) <= 2  # a window reaching the a- or b-file
    # By value the bot senses where the check is told apart from the hanging knight.
    by_value = _sense_of("value", fens)
    sides = {}
    for fen in fens:
        sides.setdefault(_window(chess.Board(fen), by_value), set()).add(fen in threatened)
    assert all(len(side) == 1 for side in sides.values()), chess.square_name(by_value)


def test_sensing_by_value_falls_back_to_set_size_when_nothing_is_at_stake():
    # Only the pawns differ: no sense changes the best request.
    fens = [fen for fen in _threat_set() if "7q/8/PP" in fen]
    assert _sense_of("value", fens) == _sense_of("min_size", fens)


@pytest.mark.parametrize(
    ("field", "value"), [("sense_mode", "search"), ("sense_value_min_cp", -1.0)]
)
def test_bad_sense_settings_are_refused(field, value):
    with pytest.raises(ValueError, match=field):
        FogsearchBotConfig(**{field: value})


@pytest.mark.parametrize(
    ("settings", "error", "match"),
    [
        ({"depth": 0}, ValueError, "depth"),
        ({"max_search_boards": 0}, ValueError, "max_search_boards"),
        ({"turns_to_plan": 0}, ValueError, "turns_to_plan"),
        ({"min_turn_seconds": -1.0}, ValueError, "min_turn_seconds"),
        ({"max_turn_seconds": float("nan")}, ValueError, "max_turn_seconds"),
        ({"min_turn_seconds": 5.0, "max_turn_seconds": 1.0}, ValueError, "exceeds"),
        ({"search_mode": "fast"}, ValueError, "mode"),
        ({"leaf": "qsearch"}, ValueError, "leaf"),
        ({"board_search_boards": -1}, ValueError, "board_search_boards"),
        ({"board_search_plies": 9}, ValueError, "board_search_plies"),
        ({"small_set_depth": -1}, ValueError, "small_set_depth"),
        ({"small_set_boards": 0}, ValueError, "small_set_boards"),
        ({"small_set_seconds": float("inf")}, ValueError, "small_set_seconds"),
        ({"check_weight": -1.0}, ValueError, "check_weight"),
        ({"threads": 0}, ValueError, "threads"),
        ({"opening_as_black": "g8f6 Nf6"}, ValueError, "'Nf6' is not a UCI move"),
        ({"opening_as_black": ["g8f6"]}, ValueError, "opening_as_black"),
        ({"opening_as_white": "g1f3 e2e9"}, ValueError, "opening_as_white: 'e2e9'"),
        ({"search_options": {"k": 0}}, ValueError, "k must be"),
        ({"search_options": {"bogus": 1}}, TypeError, "bogus"),
    ],
)
def test_bad_search_settings_are_refused_when_the_bot_is_configured(settings, error, match):
    # Refused up front: a search that failed every turn would leave a bot playing random moves.
    with pytest.raises(error, match=match):
        FogsearchBotConfig(**settings)
