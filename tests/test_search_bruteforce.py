"""The baseline search equals a brute-force minimax over information sets written independently
here: plain recursion (no pruning, no caches, no partition merging) over the same tree, with the
rules taken from reconchess.utilities and python-chess.

The tree (issue 4): our move (max over the union of move actions plus pass) -> its resolution (min
over (taken move, capture square) groups) -> every opponent reply incl. pass (min over our capture
observation) -> our sense (max over the 36 non-edge squares, min over what the 3x3 window shows)
-> our next move. Capturing the king scores MATE - ply; losing ours -MATE + ply. Leaves score the
minimum static evaluation (material + piece-square tables from fogsearch, summed here); with the
"exchange" leaf each board also gains what recapturing on the square of the opponent's capture wins
(an exchange played out here with python-chess's attackers, least valuable piece first); with the
"king_safety" leaf each board after its last reply gains the king safety of the board before that
reply (zone attacks and pawn shield, recomputed here with python-chess's attack sets).
"""

from __future__ import annotations

import chess
import pytest
from reconchess.utilities import (
    capture_square_of_move,
    is_psuedo_legal_castle,
    move_actions,
    revise_move,
)
from test_search_mate_threats import random_rbc_positions

from fogsearch import _core
from fogsearch.search import MATE, SearchConfig, search

PIECE_VALUES, PIECE_SQUARE_TABLES = _core.search.piece_square_tables()
SENSE_SQUARES = [chess.square(f, r) for r in range(1, 7) for f in range(1, 7)]


def evaluate(board: chess.Board, us: chess.Color) -> int:
    total = 0
    for square, piece in board.piece_map().items():
        own_square = square if piece.color == chess.WHITE else square ^ 56
        score = (
            PIECE_VALUES[piece.piece_type - 1]
            + PIECE_SQUARE_TABLES[piece.piece_type - 1][own_square]
        )
        total += score if piece.color == us else -score
    return total


EXCHANGE_VALUES = {**{t: PIECE_VALUES[t - 1] for t in range(1, 6)}, chess.KING: 20_000}


def exchange_gain(board: chess.Board, square: chess.Square, on_square: int) -> int:
    """What the side to move wins by capturing the piece worth ``on_square`` on ``square`` and
    recapturing in turn, each side with its least valuable attacker (lowest square among equals)
    or stopping. Promotions are not counted; taking a king ends the exchange."""
    attackers = board.attackers(board.turn, square)
    if not attackers:
        return 0
    attacker = min(attackers, key=lambda s: (EXCHANGE_VALUES[board.piece_type_at(s)], s))
    value = EXCHANGE_VALUES[board.piece_type_at(attacker)]
    if on_square == EXCHANGE_VALUES[chess.KING]:
        return on_square
    child = board.copy(stack=False)
    child.set_piece_at(square, child.remove_piece_at(attacker))
    child.turn = not child.turn
    return max(0, on_square - exchange_gain(child, square, value))


# The king-safety spec, as documented in rust/fogsearch-core/src/search/king_safety.rs.
ZONE_WEIGHTS = {chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 5}
ATTACKER_SCALE = [0, 2, 5, 8, 10]
SHIELD_NEAR, SHIELD_FAR, SHIELD_MISSING = 0, 8, 20


def king_danger(board: chess.Board, color: chess.Color) -> int:
    king = board.king(color)
    if king is None:
        return 0
    return zone_danger(board, color, king) + shield_danger(board, color, king)


def zone_danger(board: chess.Board, color: chess.Color, king: chess.Square) -> int:
    zone = chess.SquareSet(chess.BB_KING_ATTACKS[king]) | chess.SquareSet.from_square(king)
    units = attackers = 0
    for square, piece in board.piece_map().items():
        if piece.color != color and piece.piece_type in ZONE_WEIGHTS:
            hits = len(board.attacks(square) & zone)
            if hits:
                units += ZONE_WEIGHTS[piece.piece_type] * hits
                attackers += 1
    return units * ATTACKER_SCALE[min(attackers, 4)]


def shield_danger(board: chess.Board, color: chess.Color, king: chess.Square) -> int:
    forward = 1 if color == chess.WHITE else -1
    rank, file = chess.square_rank(king), chess.square_file(king)
    home = 0 if color == chess.WHITE else 7
    if (rank - home) * forward > 1 or not board.pieces(chess.QUEEN, not color):
        return 0

    def own_pawn(f: int, r: int) -> bool:
        return 0 <= r < 8 and board.piece_at(chess.square(f, r)) == chess.Piece(chess.PAWN, color)

    danger = 0
    for f in range(max(file - 1, 0), min(file + 1, 7) + 1):
        if own_pawn(f, rank + forward):
            danger += SHIELD_NEAR
        elif own_pawn(f, rank + 2 * forward):
            danger += SHIELD_FAR
        else:
            danger += SHIELD_MISSING
    return danger


def king_safety(board: chess.Board, us: chess.Color) -> int:
    return king_danger(board, not us) - king_danger(board, us)


def leaf_value(board: chess.Board, us: chess.Color, leaf: str, captured) -> int:
    value = evaluate(board, us)
    if leaf == "exchange" and captured is not None:
        piece = board.piece_at(captured)
        if piece is not None and piece.color != us:
            value += exchange_gain(board, captured, EXCHANGE_VALUES[piece.piece_type])
    return value


def position_key(board: chess.Board) -> tuple:
    ep = board.ep_square if any(True for _ in board.generate_pseudo_legal_ep()) else None
    return (board.board_fen(), board.turn, board.castling_rights, ep)


def as_set(boards: list[chess.Board]) -> list[chess.Board]:
    unique = {}
    for board in boards:
        unique.setdefault(position_key(board), board)
    return list(unique.values())


def opponent_moves(board: chess.Board) -> list[chess.Move | None]:
    moves: list[chess.Move | None] = [None]
    moves += [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    king = board.king(board.turn)
    if king is not None:
        for to in (king + 2, king - 2):
            if 0 <= to < 64:
                castle = chess.Move(king, to)
                if is_psuedo_legal_castle(board, castle):
                    moves.append(castle)
    return moves


def pushed(board: chess.Board, move: chess.Move | None) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move if move is not None else chess.Move.null())
    return child


class BruteForce:
    def __init__(self, us: chess.Color, sense_mode: str, leaf: str = "static"):
        self.us = us
        self.sense_mode = sense_mode
        self.leaf = leaf
        # Memoised by the exact set: a pure function of (set, depth, ply), so this only saves
        # recomputing cells that recur across sense squares.
        self.memo: dict = {}

    def our_move(self, boards, depth, ply):
        key = (frozenset(position_key(b) for b in boards), depth, ply)
        if key not in self.memo:
            self.memo[key] = self.our_move_uncached(boards, depth, ply)
        return self.memo[key]

    def our_move_uncached(self, boards, depth, ply):
        if depth == 0:
            return min(evaluate(b, self.us) for b in boards)
        return max(self.request(boards, r, depth, ply) for r in self.requests(boards))

    @staticmethod
    def requests(boards):
        union = []
        for board in boards:
            for move in move_actions(board):
                if move not in union:
                    union.append(move)
        return union + [None]

    def request(self, boards, request, depth, ply):
        groups: dict = {}
        for board in boards:
            taken = revise_move(board, request) if request in move_actions(board) else None
            captured = capture_square_of_move(board, taken)
            group = groups.setdefault((taken, captured), [])
            if captured is not None and captured == board.king(not self.us):
                continue  # won on this board
            group.append(pushed(board, taken))
        return min(
            self.reply(as_set(group), depth, ply + 1) if group else MATE - (ply + 1)
            for group in groups.values()
        )

    def reply(self, boards, depth, ply):
        groups: dict = {}
        for board in boards:
            before = king_safety(board, self.us) if self.leaf == "king_safety" else 0
            for move in opponent_moves(board):
                captured = capture_square_of_move(board, move)
                if captured is not None and captured == board.king(self.us):
                    return -MATE + ply + 1
                groups.setdefault(captured, []).append((pushed(board, move), before))
        if depth == 1:
            # The leaves, without a sense (identity, not pruning: max over senses of min over cells
            # of the cells' minimum is the minimum over all boards, whatever the sense). Each
            # board after the reply scores with the king safety of its board before the reply,
            # not merged into sets, where one child may come from boards of different safety.
            return min(
                leaf_value(child, self.us, self.leaf, captured) + before
                for captured, g in groups.items()
                for child, before in g
            )
        return min(
            self.sense(as_set([child for child, _ in g]), depth - 1, ply + 1, captured)
            for captured, g in groups.items()
        )

    def sense(self, boards, depth, ply, captured=None):
        values = []
        for square in self.sense_squares(boards):
            cells: dict = {}
            for board in boards:
                seen = tuple(board.piece_at(s) for s in window(square))
                cells.setdefault(seen, []).append(board)
            values.append(min(self.our_move(cell, depth, ply) for cell in cells.values()))
        return max(values)

    def sense_squares(self, boards):
        if self.sense_mode == "search":
            return SENSE_SQUARES

        def expected_size(square):
            counts: dict = {}
            for board in boards:
                seen = tuple(board.piece_at(s) for s in window(square))
                counts[seen] = counts.get(seen, 0) + 1
            return sum(n * n for n in counts.values())

        return [min(SENSE_SQUARES, key=expected_size)]  # first of the smallest, in square order

    def root(self, boards, depth):
        return {
            ("0000" if r is None else r.uci()): self.request(boards, r, depth, 0)
            for r in self.requests(boards)
        }


def window(square):
    f, r = chess.square_file(square), chess.square_rank(square)
    return [chess.square(f + df, r + dr) for dr in (-1, 0, 1) for df in (-1, 0, 1)]


SETS_DEPTH_1 = {
    "start": [chess.STARTING_FEN],
    "italian_two_guesses": [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 4 3",
    ],
    "black_after_e4_unknown_reply_count": [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
    ],
    "en_passant_and_promotion": [
        "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/1P6/8/4P3/8/8/8/4K3 w - - 0 2",
    ],
    "castling_through_check": [
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ],
    "king_capture_both_ways": [
        "4r2k/8/8/8/8/8/8/4K2R w - - 0 1",
        "7k/8/8/8/8/8/8/r3K2R w - - 0 1",
    ],
    # Castled kings, one shield broken, queens and rooks aimed at both: the king_safety leaf
    # moves every value here.
    "castled_kings_under_fire": [
        "r4rk1/ppp2p1p/6p1/8/6Q1/8/PPP1qPPP/R4RK1 w - - 0 1",
        "r4rk1/ppp2ppp/8/8/6Q1/5q2/PPP2P1P/R4RK1 w - - 0 1",
    ],
    # Black's queen, or the first of two doubled rooks (an x-ray), can take our knight on d4,
    # which the e3 pawn guards.
    "guarded_knight": [
        "3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1",
        "3rk3/3r4/8/8/3N4/4P3/8/4K3 w - - 0 1",
    ],
}

SETS_DEPTH_2 = {
    "pawns_and_kings": [
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
        "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    ],
    "rook_hunt": [
        "7k/8/8/8/8/8/8/R3K3 w - - 0 1",
        "6k1/8/8/8/8/8/8/R3K3 w - - 0 1",
    ],
    "knight_fork_guess": [
        "4k3/8/8/8/8/8/4N3/4K3 b - - 0 1",
        "3k4/8/8/8/8/8/4N3/4K3 b - - 0 1",
    ],
}


def search_values(fens, depth, **config):
    return search(fens, depth, SearchConfig(**config)).move_values


@pytest.mark.parametrize("name", sorted(SETS_DEPTH_1))
@pytest.mark.parametrize("sense_mode", ["search", "min_size"])
@pytest.mark.parametrize("leaf", ["static", "exchange", "king_safety"])
def test_baseline_equals_brute_force_at_depth_1(name, sense_mode, leaf):
    boards = [chess.Board(f) for f in SETS_DEPTH_1[name]]
    expected = BruteForce(boards[0].turn, sense_mode, leaf).root(as_set(boards), 1)
    assert search_values(SETS_DEPTH_1[name], 1, sense_mode=sense_mode, leaf=leaf) == expected


# The full sense search is the slow case for the brute force; two sets keep the suite fast.
@pytest.mark.parametrize(
    "name, sense_mode",
    [(name, "min_size") for name in sorted(SETS_DEPTH_2)]
    + [("pawns_and_kings", "search"), ("rook_hunt", "search")],
)
def test_baseline_equals_brute_force_at_depth_2(name, sense_mode):
    boards = [chess.Board(f) for f in SETS_DEPTH_2[name]]
    expected = BruteForce(boards[0].turn, sense_mode).root(as_set(boards), 2)
    assert search_values(SETS_DEPTH_2[name], 2, sense_mode=sense_mode) == expected
    if sense_mode == "search":
        # The pruned sense search ("finest") reaches the brute force's every-sense max too.
        assert search_values(SETS_DEPTH_2[name], 2, sense_mode="finest") == expected


@pytest.mark.parametrize("name", sorted(SETS_DEPTH_2))
@pytest.mark.parametrize("leaf", ["exchange", "king_safety"])
def test_other_leaves_equal_brute_force_at_depth_2(name, leaf):
    boards = [chess.Board(f) for f in SETS_DEPTH_2[name]]
    expected = BruteForce(boards[0].turn, "min_size", leaf).root(as_set(boards), 2)
    got = search_values(SETS_DEPTH_2[name], 2, sense_mode="min_size", leaf=leaf)
    assert got == expected


def test_the_king_safety_leaf_prefers_the_sheltered_king():
    fens = SETS_DEPTH_1["castled_kings_under_fire"]
    static = search_values(fens, 1, sense_mode="min_size")
    safety = search_values(fens, 1, sense_mode="min_size", leaf="king_safety")
    assert static.keys() == safety.keys()
    changed = [r for r in static if safety[r] != static[r]]
    assert len(changed) > len(static) // 2
    shift = {r: safety[r] - static[r] for r in static}
    # Pushing a pawn of our king's shield costs more than passing; taking the queen that stands
    # next to our king on one board gains.
    assert shift["h2h4"] < shift["h2h3"] < shift["0000"] < 0
    assert shift["g4e2"] > 0
    assert max(safety, key=safety.get) in ("g4e2", "g4d1")


def test_the_exchange_leaf_changes_values_where_a_guarded_piece_is_taken():
    fens = SETS_DEPTH_1["guarded_knight"]
    static = search_values(fens, 1, sense_mode="min_size")
    exchange = search_values(fens, 1, sense_mode="min_size", leaf="exchange")
    assert all(exchange[r] >= static[r] for r in static)
    assert exchange["0000"] - static["0000"] >= 300  # Qxd4 / Rxd4 no longer wins the knight


def test_the_brute_force_sees_king_captures():
    # Rook e1 takes the king on e8 at once; our first move is ply 1.
    values = BruteForce(chess.WHITE, "search").root(
        [chess.Board("4k3/8/8/8/8/8/8/3KR3 w - - 0 1")], 1
    )
    assert values["e1e8"] == MATE - 1


def test_king_danger_agrees_with_the_oracle_on_random_positions():
    boards = random_rbc_positions(400, seed=3)
    zone = shield = 0
    for board in boards:
        expected = (king_danger(board, chess.WHITE), king_danger(board, chess.BLACK))
        assert _core.search.king_danger_fen(board.fen()) == expected, board.fen()
        kings = [(c, board.king(c)) for c in chess.COLORS if board.king(c) is not None]
        zone += any(zone_danger(board, c, k) for c, k in kings)
        shield += any(shield_danger(board, c, k) for c, k in kings)
    assert zone > 100 and shield > 100
    with pytest.raises(ValueError):
        _core.search.king_danger_fen("not a fen")
