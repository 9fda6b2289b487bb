"""fogsearch losses: the turns a stored game lost material, and the set's belief then."""

import json
from pathlib import Path

import chess
import pytest
import reconchess
from reconchess import LocalGame, play_turn

from fogsearch.analysis.losses import losses, material, table
from fogsearch.bot.turnlog import format_turn, parse_turn, read_turn_log, top_requests
from fogsearch.cli import main
from fogsearch.rbc import BoardSet

GAMES = Path(__file__).parent / "data" / "games"


class Scripted(reconchess.Player):
    """Plays its requests in order and never senses."""

    def __init__(self, requests):
        self.requests = [chess.Move.from_uci(r) for r in requests]

    def handle_game_start(self, color, board, opponent_name):
        pass

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        pass

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return None

    def handle_sense_result(self, sense_result):
        pass

    def choose_move(self, move_actions, seconds_left):
        return self.requests.pop(0) if self.requests else None

    def handle_move_result(self, requested, taken, captured, square):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass


def scripted_game(white, black):
    game = LocalGame(seconds_per_player=900, full_turn_limit=len(white))
    game.store_players("fogsearch-test", "scripted")
    players = {chess.WHITE: Scripted(white), chess.BLACK: Scripted(black)}
    game.start()
    while not game.is_over():
        play_turn(game, players[game.turn], end_turn_last=True)
    game.end()
    return game.get_game_history()


def test_a_pawn_lost_to_a_reply_on_one_board_in_twenty_one():
    # White never senses: after 1. e4 ?? 2. a3 its set holds black's 20 first moves and the pass.
    # Only d7d5 lets d5xe4 take the pawn; d5, f5 and Nf6 attack e4 (3 boards of 21).
    history = scripted_game(["e2e4", "a2a3", "h2h3"], ["d7d5", "d5e4", "h7h6"])
    rows = losses(history, chess.WHITE, opponent_model=None)
    assert len(rows) == 1
    row = rows[0]
    assert (row.turn, row.requested, row.taken, row.reply, row.lost) == (
        2,
        "a2a3",
        "a2a3",
        "d5e4",
        "P e4",
    )
    assert (row.material_before, row.material_after_move, row.material_after_reply) == (0, 0, -100)
    assert row.material_after_next == -100  # 3. h3 took nothing back
    assert row.lost_cp == 100
    assert row.belief.boards == 21 and row.belief.counted == 21
    assert row.belief.reply_share == pytest.approx(1 / 21)
    assert row.belief.attacked_share == pytest.approx(3 / 21)
    assert row.belief.reply_weight is None


def test_the_weighted_share_is_the_model_weight_of_the_boards_with_the_reply():
    history = scripted_game(["e2e4", "a2a3", "h2h3"], ["d7d5", "d5e4", "h7h6"])
    (row,) = losses(history, chess.WHITE, opponent_model=(200.0, 0.1))
    # The set after 2. a3, rebuilt by hand from the moves White saw.
    board_set = BoardSet(chess.WHITE)
    board_set.set_opponent_model(200.0, 0.1)
    board_set.handle_opponent_move_result(False, None)
    board_set.handle_move_result(*[chess.Move.from_uci("e2e4")] * 2, False, None)
    board_set.handle_opponent_move_result(False, None)
    board_set.handle_move_result(*[chess.Move.from_uci("a2a3")] * 2, False, None)
    weights = board_set.weights()
    d5 = [i for i, b in enumerate(board_set.to_boards()) if b.piece_at(chess.D5)]
    assert row.belief.reply_weight == pytest.approx(weights[d5].sum())
    # A pawn that captures is likelier under the model than one move of twenty-one.
    assert row.belief.reply_weight > 1 / 21


def test_no_loss_no_row_and_a_stopped_replay_shows_no_belief():
    quiet = scripted_game(["e2e4", "d2d4"], ["e7e5", "d7d6"])
    assert losses(quiet, chess.WHITE) == []
    history = scripted_game(["e2e4", "a2a3", "h2h3"], ["d7d5", "d5e4", "h7h6"])
    (row,) = losses(history, chess.WHITE, max_boards=5)
    assert row.belief is None and "> max" in table([row])


def test_the_material_counts_a_lost_king():
    board = chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")
    assert material(board, chess.WHITE) == 100_000
    assert material(chess.Board(), chess.BLACK) == 0


def test_a_turn_log_line_reads_back():
    turn = {
        "turn": 7,
        "after_opponent": 2495,
        "sense": "f7",
        "sense_by": "decision",
        "after_sense": 540,
        "requested": "f2f4",
        "taken": None,
        "after_move": 522,
        "value": -47,
        "plies": 3,
        "search_seconds": 16.62,
        "seconds_left": 267.4,
        "budget": 16.62,
        "turn_seconds": 17.54,
        "top": top_requests({"f2f4": -47, "a2a3": -60, "e1f2": -300}, 2),
    }
    fields = parse_turn("fogsearch.bot: " + format_turn(turn))
    assert fields["top"] == [("f2f4", -47), ("a2a3", -60)]
    assert {k: fields[k] for k in ("turn", "sense", "requested", "taken", "value", "plies")} == {
        "turn": 7,
        "sense": "f7",
        "requested": "f2f4",
        "taken": None,
        "value": -47,
        "plies": 3,
    }
    assert parse_turn("an unrelated line") is None


STORED = GAMES / "sf2-game-0004.json"


def test_a_stored_game_against_strangefish2(capsys):
    log = STORED.with_name("sf2-game-0004-fog.txt")
    history = reconchess.GameHistory.from_file(str(STORED))
    rows = losses(history, chess.WHITE, read_turn_log(log.read_text()), share_boards=2000)
    assert rows, "game 4 was lost by king capture"
    assert rows[-1].lost.startswith("K") and rows[-1].material_after_reply < -50_000
    for row in rows:
        # The reply happened on the true board, which is in the replayed set: it was possible on
        # at least one board whenever the shares were counted on every board.
        if row.belief is not None and row.belief.counted == row.belief.boards:
            assert (
                row.belief.reply_share > 0
                and row.belief.attacked_share >= row.belief.reply_share - 1e-9
            )
        assert row.log["turn"] == row.turn and row.log["taken"] == row.taken
    assert main(["losses", str(STORED), "--log", str(log), "--json", "--share-boards", "2000"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["turn"] for r in printed] == [r.turn for r in rows]


def test_bad_input_is_a_usage_error(tmp_path, capsys):
    assert main(["losses", str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["losses", str(bad), "--color", "white"]) == 2
    assert "error" in capsys.readouterr().err
    game = str(GAMES / "sf2-game-0004.json")
    assert main(["losses", game, "--opponent-model", "hot"]) == 2
    assert main(["losses", game, "--opponent-model", "0,0.1"]) == 2
    assert main(["losses", game, "--opponent-model", "200,0.1,0.5"]) == 2
    assert main(["losses", game, "--opponent-model", "200,1.5"]) == 2
    assert "uniform_share must be" in capsys.readouterr().err
    capsys.readouterr()


def test_without_a_model_the_weighted_share_is_left_out(capsys):
    game = str(GAMES / "sf2-game-0004.json")
    args = ["losses", game, "--json", "--opponent-model", "none", "--share-boards", "500"]
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["belief"]["reply_weight"] is None for r in rows if r["belief"])


def test_a_game_read_from_a_tournament_database_with_its_stored_log(tmp_path, capsys):
    """``losses --db DB ID`` reads the game and the bot's turn log stored with it, and finds the
    bot's side by that log: the same rows as from the files."""
    from fogsearch.tournament import GameRecord, ResultStore
    from fogsearch.tournament.players import PlayerSpec

    log = STORED.with_name("sf2-game-0004-fog.txt")
    rows = read_turn_log(log.read_text())
    record = GameRecord(
        task_index=0,
        white="e0",
        black="strangefish2",
        seed=0,
        winner="black",
        reason="KING_CAPTURE",
        crashed=None,
        error=None,
        duration_s=1.0,
        white_seconds_left=1.0,
        black_seconds_left=1.0,
        turns=1,
        # Names the side cannot be told by, as a labelled player's are (`fogsearch:...@e0`).
        history_json=STORED.read_text().replace('"fogsearch"', '"e0"'),
        white_turn_log=[rows[turn] for turn in sorted(rows)],
    )
    db = tmp_path / "t.sqlite"
    with ResultStore(db) as store:
        ids = store.register_players([PlayerSpec("white-bot"), PlayerSpec("black-bot")])
        tid = store.start_tournament("pairs", {}, {})
        store.add_game(tid, record, ids["white-bot"], ids["black-bot"])
        (game,) = store.games(tid)
    args = ["--json", "--share-boards", "2000"]
    assert main(["losses", str(STORED), "--log", str(log), "--color", "white", *args]) == 0
    from_files = json.loads(capsys.readouterr().out)
    assert main(["losses", str(game["id"]), "--db", str(db), *args]) == 0
    assert json.loads(capsys.readouterr().out) == from_files
    assert main(["losses", "99", "--db", str(db)]) == 2
    assert "no game with id 99" in capsys.readouterr().err
