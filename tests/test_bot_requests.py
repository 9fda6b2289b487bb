"""Request choice (``fogsearch.bot.requests``), pure functions of the search's values and the set:
which requests tie with the best, the best mean among them, no takebacks while another request
ties, the requests an opening line may play, and the clock-resetting requests near reconchess's
100-half-move draw."""

import chess
import pytest

from fogsearch.bot.requests import (
    LOST,
    best_mean,
    choose_request,
    material_lead,
    opening_candidates,
    own_pawns,
    progress_requests,
    request,
    safe_requests,
    tied_requests,
    uci,
    undoes,
)
from fogsearch.rbc import BoardSet
from fogsearch.search import KING_LOST_IN_SEARCH, MATE


def _key(move: chess.Move | None) -> str:
    return "0000" if move is None else move.uci()


def _no_means(requests):
    return dict.fromkeys((_key(m) for m in requests), 0.0)


def _means(table):
    return lambda requests: {_key(m): table[_key(m)] for m in requests}


def _moves(*ucis: str) -> list[chess.Move]:
    return [chess.Move.from_uci(u) for u in ucis]


def test_a_pass_is_written_0000_both_ways():
    assert uci(None) == "0000" and request("0000") is None
    assert request(uci(chess.Move.from_uci("e7e8q"))) == chess.Move.from_uci("e7e8q")


def test_a_takeback_is_the_same_piece_straight_back():
    previous = chess.Move.from_uci("e3f4")
    assert undoes(chess.Move.from_uci("f4e3"), previous)
    assert not undoes(chess.Move.from_uci("f4g3"), previous)
    assert not undoes(None, previous) and not undoes(chess.Move.from_uci("f4e3"), None)


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


def test_a_lone_best_request_is_played_without_asking_for_means():
    def no_call(requests):
        raise AssertionError(f"means asked for {requests}")

    assert choose_request({"e2e4": 300, "d2d4": 100}, None, 50, no_call) == chess.Move.from_uci(
        "e2e4"
    )


def test_the_best_mean_goes_to_the_first_listed_on_equal_means():
    candidates = [None, *_moves("a2a3", "h2h3")]
    assert best_mean(candidates, _no_means) is None
    assert best_mean(candidates, _means({"0000": 1.0, "a2a3": 2.0, "h2h3": 2.0})) == candidates[1]


def test_an_opening_request_may_stand_below_a_tie_but_never_where_every_request_loses():
    # The values the depth-3 search gave after 1. Nf3, sensed: 1... Nf6 is 127 cp below the best.
    values = {"c7c6": -321, "e7e6": -322, "g8f6": -449, "a7a6": -700}
    nf6 = chess.Move.from_uci("g8f6")
    assert nf6 not in tied_requests(values, 50)
    assert opening_candidates(values, 200) == _moves(*values)[:3]
    assert opening_candidates({"g8f6": LOST, "e7e6": LOST - 5}, 200) == []


def test_an_opening_request_far_below_the_best_worst_value_is_not_safe():
    # Turn 2 of the games against StrangeFish2 (1. e4 Nf6 2. e5 on one board of 16): 2... e6
    # is fifth by the weighted mean, 30 cp below f6e4, but loses the knight on that board.
    values = {"f6e4": 44, "e7e5": -6, "f6g8": -10, "e7e6": -14, "d7d5": -18}
    worst = {"f6e4": -209, "e7e5": -188, "f6g8": -37, "e7e6": -188, "d7d5": -188}
    e6 = chess.Move.from_uci("e7e6")
    assert e6 in opening_candidates(values, 200)
    assert e6 not in opening_candidates(values, 200, worst, 100)
    assert e6 in opening_candidates(values, 200, worst, 151)
    assert safe_requests(values, worst, 100) == _moves("f6g8")
    assert safe_requests(values, worst, 160) == _moves(*values)[1:]
    assert safe_requests(values, None, 0) == _moves(*values)
    assert safe_requests(values, worst, None) == _moves(*values)


QUIET = "r1bqkb1r/1pp2ppp/2nppn2/p7/8/8/PPPPPPPP/RNBQKBNR b KQkq - {clock} 30"


def test_progress_requests_are_pawn_pushes_and_certain_captures_within_the_margin():
    boards = BoardSet(chess.BLACK, fens=[QUIET.format(clock=60)])
    values = {"a5a4": -250, "b7b5": -20, "d6e5": 0, "c6b4": 10, "h7h6": -400, "0000": -30}
    got = progress_requests(boards, values, 300)
    assert got == _moves("a5a4", "b7b5")
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


def test_our_pawns_are_read_from_the_set():
    # Our pieces stand alike on every board of a set, so any board tells where they are.
    theirs_moved = QUIET.replace("8/8/PPPP", "8/4P3/PPPP").replace("PPPPPPPP", "PPPP1PPP")
    boards = BoardSet(chess.BLACK, fens=[QUIET.format(clock=0), theirs_moved.format(clock=0)])
    expected = chess.Board(QUIET.format(clock=0)).pieces(chess.PAWN, chess.BLACK)
    assert own_pawns(boards) == frozenset(expected) and len(expected) == 8


@pytest.mark.parametrize(
    ("fen", "lead"),
    [
        (chess.STARTING_FEN, 0),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 500),
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", -500),  # the side to move's point of view
        ("3qk3/pp6/8/8/8/8/8/RN2K3 w - - 0 1", 500 + 300 - 900 - 200),
    ],
)
def test_material_lead_is_ours_minus_theirs_for_the_side_to_move(fen, lead):
    assert material_lead(chess.Board(fen)) == lead


def test_the_lost_king_threshold_is_the_cores():
    # One value, read from the core; the same as the -MATE + 1000 the bot played with before.
    from fogsearch.bot import requests

    assert requests.LOST == -KING_LOST_IN_SEARCH == -MATE + 1000
