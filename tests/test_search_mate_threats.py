"""The tie-break's look for mate threats (``mate_threats``), against a python-chess oracle and on a
set the bot held in a game it lost to TroutBot."""

import random
from collections import Counter
from pathlib import Path

import chess
import pytest
from reconchess.utilities import add_pawn_queen_promotion, move_actions, revise_move

from fogsearch.bot import FogsearchBot, FogsearchBotConfig, SmallSets, TieBreak
from fogsearch.bot.requests import LOST
from fogsearch.rbc import BoardSet
from fogsearch.search import MATE, mean_reply_values

MATED = MATE // 2
DATA = Path(__file__).parent / "data"


def _king_attacked(board: chess.Board, color: chess.Color) -> bool:
    king = board.king(color)
    return king is None or board.is_attacked_by(not color, king)


def _after(board: chess.Board, move: chess.Move | None) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move or chess.Move.null())
    return child


def _has_escape(board: chess.Board, us: chess.Color) -> bool:
    for move in board.pseudo_legal_moves:
        child = _after(board, move)
        if child.king(not us) is None or not _king_attacked(child, us):
            return True
    return False


def oracle_outcome(board: chess.Board, request: chess.Move | None) -> str:
    """``"wins"``, ``"taken"`` (a reply takes our king), ``"mated"`` (a reply leaves it attacked
    and no move of ours saves it) or ``"plays on"``, written with python-chess alone. Boards
    without castling rights only: python-chess and RBC disagree on castling through check."""
    us = board.turn
    taken = None
    if request is not None:
        # reconchess's referee promotes a pawn request to the last rank to a queen.
        taken = revise_move(board, add_pawn_queen_promotion(board, request))
    if taken is not None and board.piece_type_at(taken.to_square) == chess.KING:
        return "wins"
    child = _after(board, taken)
    if _king_attacked(child, us):
        return "taken"
    for reply in child.pseudo_legal_moves:
        answer = _after(child, reply)
        if _king_attacked(answer, us) and not _has_escape(answer, us):
            return "mated"
    return "plays on"


def _classify(value: float) -> str:
    if value == MATE:
        return "wins"
    if value == -MATE:
        return "taken"
    if value == -MATED:
        return "mated"
    assert -MATED < value < MATED
    return "plays on"


def random_rbc_positions(count: int, seed: int) -> list[chess.Board]:
    """Boards from random RBC games (moves into check allowed), both kings on, no castling."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = chess.Board()
        for _ in range(rng.randrange(6, 60)):
            moves = list(board.pseudo_legal_moves)
            board.push(rng.choice(moves))
            if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                break
        else:
            board.castling_rights = 0
            board.clear_stack()
            positions.append(board)
    return positions


def test_mate_threats_agree_with_a_python_chess_oracle():
    seen = Counter()
    for board in random_rbc_positions(150, seed=6):
        requests = [*move_actions(board), None]
        plain = mean_reply_values([board.fen()], requests)
        threats = mean_reply_values([board.fen()], requests, mate_threats=True)
        for request in requests:
            key = request.uci() if request else "0000"
            expected = oracle_outcome(board, request)
            assert _classify(threats[key]) == expected, (board.fen(), key)
            if expected != "mated":
                assert threats[key] == plain[key]
            seen[expected] += 1
    # The positions must exercise the new outcome often, not only the old ones.
    assert seen["mated"] >= 20 and seen["taken"] >= 20 and seen["wins"] >= 5


def test_mate_threats_must_be_a_bool():
    with pytest.raises(TypeError, match="mate_threats"):
        mean_reply_values([chess.STARTING_FEN], mate_threats=1)
    with pytest.raises(ValueError, match="mate_threats"):
        FogsearchBotConfig(tie_break=TieBreak(mate_threats="yes"))


def _choose(fens: list[str], mate_threats: bool) -> tuple[chess.Move | None, FogsearchBot]:
    config = FogsearchBotConfig(
        judge="set",
        tie_break=TieBreak(mate_threats=mate_threats),
        small_sets=SmallSets(small_set_depth=0),
    )
    bot = FogsearchBot(config)
    bot.handle_game_start(chess.WHITE, chess.Board(), "TroutBot")
    bot.tracker.board_set = BoardSet(chess.WHITE, fens=fens)
    return bot._search_move(budget=20.0), bot


def test_the_bot_keeps_its_king_out_of_a_mate_one_reply_does_not_show():
    # White's set at turn 13 of a game lost to TroutBot: every request loses our king on some
    # board, so the tie-break alone chose the pawn capture e2f3 (nothing on f3 of the true board:
    # a pass there), after which TroutBot mated on the true board.
    fens = (DATA / "lost_set_trout_turn13.fens").read_text().split("\n")[:-1]
    boards = [chess.Board(fen) for fen in fens]
    plain, bot = _choose(fens, mate_threats=False)
    assert bot.last_search.value <= LOST
    assert plain == chess.Move.from_uci("e2f3")
    careful, _ = _choose(fens, mate_threats=True)
    assert careful != plain

    def mated_boards(request):
        return sum(oracle_outcome(board, request) == "mated" for board in boards)

    assert mated_boards(plain) > 0
    assert mated_boards(careful) < mated_boards(plain)
