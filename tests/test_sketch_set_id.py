"""set_id specification: an order-independent 64-bit id of a collection of keys."""

import chess
import chess.polyglot
import numpy as np
import pytest

from fogsearch.sketch import mix64, set_id


def board_keys(fens):
    return [chess.polyglot.zobrist_hash(chess.Board(fen)) for fen in fens]


FENS = [
    chess.STARTING_FEN,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
]


def test_equal_sets_of_boards_get_equal_ids_whatever_the_order():
    keys = board_keys(FENS)
    rotated = np.array(keys[2:] + keys[:2], dtype=np.uint64)
    assert set_id(keys) == set_id(keys[::-1]) == set_id(rotated)


def test_different_sets_get_different_ids():
    keys = board_keys(FENS)
    ids = {set_id(keys[:n]) for n in range(len(keys) + 1)}
    ids |= {set_id(keys[1:]), set_id(keys[:1] + keys[2:])}
    assert len(ids) == len(FENS) + 3


def test_xor_related_zobrist_keys_do_not_collide():
    # Zobrist keys are XOR-linear: for keys a, b, c, d with a^b == c^d a linear id would collide.
    a, b, c = board_keys(FENS[:3])
    d = a ^ b ^ c
    assert set_id([a, b]) != set_id([c, d])
    assert mix64(a ^ b) != mix64(a) ^ mix64(b)


def test_ids_are_multiset_ids_and_accept_every_key_form():
    assert set_id([5, 5]) != set_id([5])
    assert set_id([]) != set_id([0])
    assert set_id(7) == set_id([7]) == set_id(np.array([7], dtype=np.int64))
    ids = {set_id(np.arange(n, dtype=np.uint64)) for n in range(2000)}
    assert len(ids) == 2000


def test_bad_keys_are_refused():
    with pytest.raises(TypeError, match="dtype float64"):
        set_id(np.array([1.0]))
    with pytest.raises(ValueError, match="outside"):
        set_id([-1])
