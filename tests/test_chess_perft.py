"""RBC pseudo-legal perft against an independent python-chess reference perft."""

import chess
import pytest
from rbc_reference import reference_perft

from fogsearch.rbc import perft

# (name, FEN, depth, known value or None)
POSITIONS = [
    ("start", chess.STARTING_FEN, 3, 8_902),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 2, None),
    ("promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -", 2, None),
    ("en_passant", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 3, None),
    ("castling_rbc", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3, None),
    ("castling_through_check", "r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1", 3, None),
    ("underpromotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 3, None),
    ("king_captures", "8/8/8/3k4/3K4/8/8/8 w - - 0 1", 3, None),
    ("missing_king", "8/8/8/8/8/8/8/4K3 w - - 0 1", 3, 0),
]


@pytest.mark.parametrize("name,fen,depth,known", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft_matches_python_chess_reference(name, fen, depth, known):
    expected = reference_perft(chess.Board(fen), depth)
    assert perft(fen, depth) == expected
    if known is not None:
        assert expected == known


@pytest.mark.parametrize(
    "fen,depth,nodes",
    [
        (chess.STARTING_FEN, 4, 197_742),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 3, 98_903),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -", 3, 71_811),
    ],
    ids=["start-4", "kiwipete-3", "promotions-3"],
)
def test_notes_perft_values(fen, depth, nodes):
    assert perft(fen, depth) == nodes


def test_deeper_kiwipete_against_reference():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
    assert perft(fen, 3) == reference_perft(chess.Board(fen), 3)


def test_a_bad_perft_depth_is_a_value_error_naming_it():
    # Python checks the type; the core refuses a depth above its limit, and says which.
    from fogsearch.rbc import MAX_PERFT_DEPTH

    with pytest.raises(ValueError, match=f"perft depth must be at most {MAX_PERFT_DEPTH}"):
        perft(chess.STARTING_FEN, MAX_PERFT_DEPTH + 1)
    for depth in (-1, 2.0, True):
        with pytest.raises(ValueError, match="depth must be a non-negative integer"):
            perft(chess.STARTING_FEN, depth)
