"""The opening book (``--book-plies N``): games between deterministic bots start from a line the
game's seed picks, so that a match is not a few games replayed."""

import json
from pathlib import Path

import chess
import pytest
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.arguments import UsageError
from fogsearch.cli import main
from fogsearch.tournament import ResultStore, openings
from fogsearch.tournament.openings import BOOK, BUILT_IN_PLIES, MAX_BOOK_PLIES, book_line, load_book
from fogsearch.tournament.players import PlayerSpec
from fogsearch.tournament.referee import play_game
from fogsearch.tournament.resume import _identity
from fogsearch.tournament.schedule import GameTask, MatchOptions
from fogsearch.tournament.sequential import _key


def test_every_line_is_legal_from_the_start_and_distinct():
    assert len(set(BOOK)) == len(BOOK) >= 30
    for line in BOOK:
        board = chess.Board()
        moves = line.split()
        assert len(moves) == BUILT_IN_PLIES
        for text in moves:
            move = chess.Move.from_uci(text)
            assert board.is_legal(move), line
            board.push(move)


def test_the_seed_picks_the_line_and_plies_cut_it():
    assert book_line(7, 0) == []
    assert book_line(7, 3) == book_line(7, 4)[:3]
    assert book_line(7, 4) == book_line(7, 4)
    picked = {tuple(book_line(seed, BUILT_IN_PLIES)) for seed in range(300)}
    assert len(picked) > len(BOOK) * 3 // 4  # seeds spread over the book


def _taken_moves(record) -> list[chess.Move | None]:
    history = json.loads(record.history_json, cls=GameHistoryDecoder)
    assert isinstance(history, GameHistory)
    moves = []
    for turn in history.turns():
        moves.append(history.taken_move(turn))
    return moves


@pytest.mark.parametrize("seed", [3, 11])
def test_a_game_from_the_book_plays_its_line_for_both_sides(seed):
    task = GameTask(
        0, PlayerSpec("random"), PlayerSpec("random"), seed=seed, seconds_per_player=60,
        isolated=False, book_plies=4,
    )  # fmt: skip
    record = play_game(task)
    assert record.crashed is None and record.error is None
    # RandomBot requests a random move: the first four are the book's, the game goes on after.
    assert _taken_moves(record)[:4] == book_line(seed, 4)
    assert record.turns > 4


def test_without_the_book_the_bots_choose_from_the_start():
    seed = 3
    task = GameTask(
        0, PlayerSpec("random"), PlayerSpec("random"), seed=seed, seconds_per_player=60,
        isolated=False,
    )  # fmt: skip
    assert _taken_moves(play_game(task))[:4] != book_line(seed, 4)


@pytest.mark.parametrize("plies", [-1, MAX_BOOK_PLIES + 1, True, 2.0])
def test_book_plies_are_bounded(plies):
    with pytest.raises(UsageError, match="book plies"):
        MatchOptions(book_plies=plies).check()
    with pytest.raises(ValueError, match="book plies"):
        book_line(0, plies)


def test_the_cli_refuses_a_longer_book_in_one_line(capsys):
    code = main(["tournament", "random", "attacker", "--book-plies", str(MAX_BOOK_PLIES + 1)])
    err = capsys.readouterr().err
    assert code == 2 and "--book-plies" in err and len(err.strip().splitlines()) == 1


def test_a_test_from_the_book_is_another_test_and_older_runs_had_none():
    config = {
        "players": [{"name": "a"}, {"name": "b"}], "seed": 0, "seconds_per_player": 60.0,
        "seconds_increment": 1.0, "options": {"cores_per_player": 1, "ponder": True},
    }  # fmt: skip
    with_none = {**config, "options": {**config["options"], "book_plies": 0}}
    with_book = {**config, "options": {**config["options"], "book_plies": 4}}
    assert _key(config) == _key(with_none) != _key(with_book)
    assert _identity(config) == _identity(with_none) != _identity(with_book)


def test_an_sprt_from_the_book_stores_its_lines(tmp_path, capsys):
    db = tmp_path / "sprt.sqlite"
    code = main([
        "tournament", "random", "attacker", "--sprt", "elo0=0,elo1=50", "--max-pairs", "2",
        "--seconds", "60", "--workers", "1", "--in-process", "--book-plies", "2",
        "--db", str(db), "--no-progress",
    ])  # fmt: skip
    assert code == 0
    with ResultStore(db) as store:
        games = store.games(1)
        assert store.tournament(1)["config"]["options"]["book_plies"] == 2
        histories = [store.history_json(game["id"]) for game in games]
    assert len(games) == 4
    for game, text in zip(games, histories, strict=True):
        history = json.loads(text, cls=GameHistoryDecoder)
        first = [history.taken_move(turn) for turn in list(history.turns())[:2]]
        assert first == book_line(game["seed"], 2)


def _book_file(tmp_path, text: str):
    path = tmp_path / "book.txt"
    path.write_text(text)
    return path


def test_a_book_file_is_read_line_by_line_without_comments(tmp_path):
    path = _book_file(tmp_path, "# two lines\ne2e4  e7e5 # the open game\n\n d2d4 d7d5\n")
    assert load_book(path) == ("e2e4 e7e5", "d2d4 d7d5")
    assert load_book(Path(__file__).parents[1] / "bench" / "books" / "e4.txt") == ("e2e4",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e2e4\ne2e5\n", "line 2: e2e5 is not legal after the start"),
        ("e2e4 e7e5 e4e5\n", "line 1: e4e5 is not legal after e2e4 e7e5"),
        ("e2e4 Nf6\n", "line 1: 'Nf6' is not a UCI move"),
        ("# nothing\n\n", "has no lines"),
    ],
)
def test_a_wrong_book_file_names_its_line(tmp_path, text, message):
    with pytest.raises(UsageError, match=message):
        load_book(_book_file(tmp_path, text))


def test_a_book_file_is_bounded_and_must_be_readable(tmp_path, monkeypatch):
    with pytest.raises(UsageError, match="cannot read the book"):
        load_book(tmp_path / "missing.txt")
    with pytest.raises(UsageError, match="cannot read the book"):
        load_book(tmp_path)
    monkeypatch.setattr(openings, "MAX_BOOK_LINES", 2)
    with pytest.raises(UsageError, match="more than 2 lines"):
        load_book(_book_file(tmp_path, "e2e4\nd2d4\nc2c4\n"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (MatchOptions(book=("e2e4",), book_plies=0), "needs --book-plies"),
        (MatchOptions(book=("e2e4",), book_plies=2), r"book plies \(2\) exceed the 1 half-moves"),
        (MatchOptions(book_plies=5), "the built-in book's lines"),
        (MatchOptions(book=(), book_plies=1), "1..10,000 lines"),
        (MatchOptions(book=["e2e4"], book_plies=1), "a tuple of lines"),  # type: ignore[arg-type]
        (MatchOptions(book=("e2e5",), book_plies=1), "line 1: e2e5 is not legal"),
    ],
)
def test_a_book_given_to_the_library_is_checked(options, message):
    with pytest.raises(UsageError, match=message):
        options.check()


def test_a_game_from_a_book_of_ones_own_plays_its_line():
    line = ("e2e4 g8f6 e4e5",)
    task = GameTask(
        0, PlayerSpec("random"), PlayerSpec("random"), seed=5, seconds_per_player=60,
        isolated=False, book_plies=3, book=line,
    )  # fmt: skip
    record = play_game(task)
    assert record.crashed is None and record.error is None
    assert _taken_moves(record)[:3] == [chess.Move.from_uci(m) for m in line[0].split()]
    assert book_line(5, 3, line) == _taken_moves(record)[:3]


@pytest.mark.parametrize(
    ("text", "plies", "message"),
    [("e2e4\n", "0", "needs --book-plies"), ("e2e4\n", "2", "exceed"), ("e2e5\n", "1", "legal")],
)
def test_the_cli_refuses_a_wrong_book_in_one_line(tmp_path, capsys, text, plies, message):
    path = _book_file(tmp_path, text)
    code = main(["tournament", "random", "attacker", "--book", str(path), "--book-plies", plies])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_test_from_another_book_is_another_test():
    config = {
        "players": [{"name": "a"}, {"name": "b"}], "seed": 0, "seconds_per_player": 60.0,
        "seconds_increment": 1.0, "options": {"book_plies": 1},
    }  # fmt: skip
    stored = {**config, "options": {"book_plies": 1, "book": ["e2e4"]}}  # as read from JSON
    given = {**config, "options": {"book_plies": 1, "book": ("e2e4",)}}
    other = {**config, "options": {"book_plies": 1, "book": ("d2d4",)}}
    assert _key(stored) == _key(given) != _key(other)
    assert _key(config) != _key(given)  # the built-in book is not this one
    assert _identity(stored) == _identity(given) != _identity(other) != _identity(config)


def test_an_sprt_from_a_book_file_stores_it_and_plays_it(tmp_path, capsys):
    db = tmp_path / "sprt.sqlite"
    path = _book_file(tmp_path, "e2e4 c7c5\n")
    code = main([
        "tournament", "random", "attacker", "--sprt", "elo0=0,elo1=50", "--max-pairs", "1",
        "--seconds", "60", "--workers", "1", "--in-process", "--book-plies", "2",
        "--book", str(path), "--db", str(db), "--no-progress",
    ])  # fmt: skip
    assert code == 0
    with ResultStore(db) as store:
        games = store.games(1)
        assert store.tournament(1)["config"]["options"]["book"] == ["e2e4 c7c5"]
        histories = [store.history_json(game["id"]) for game in games]
    assert len(games) == 2
    for text in histories:
        history = json.loads(text, cls=GameHistoryDecoder)
        first = [history.taken_move(turn) for turn in list(history.turns())[:2]]
        assert first == [chess.Move.from_uci("e2e4"), chess.Move.from_uci("c7c5")]
