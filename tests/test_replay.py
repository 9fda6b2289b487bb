"""fogsearch replay: the page's data against tracking, the turn log reader, and bad input (one
line naming the turn, exit 2, no page left)."""

import json
from pathlib import Path

import chess
import pytest

from fogsearch.cli import main
from fogsearch.play import COLUMNS, TurnLog
from fogsearch.replay import game_frames, read_history
from fogsearch.replay.turn_log import _TABLE_KEYS, parse_turn_log, read_turn_log
from fogsearch.tracking import replay

DATA = Path(__file__).parent / "data"
GAME = DATA / "sf2-game-0001.json"
LOG = DATA / "sf2-game-0001-fog.txt"
VALUE_1 = 5  # the value on the log's first line


def test_the_page_is_written_self_contained(tmp_path, capsys):
    out = tmp_path / "game.html"
    assert main(["replay", str(GAME), "-o", str(out), "--log", str(LOG)]) == 0
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and '"hasModel":true' in text
    for remote in ('src="http', "src='http", "<link", "@import", "url(http"):
        assert remote not in text
    assert "wrote" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["game.html"]


def test_frames_agree_with_track_and_the_history():
    history = read_history(GAME)
    frames = game_frames(history)
    for color in (chess.WHITE, chess.BLACK):
        rows = replay(history, color)
        assert [f.before_sense for f in frames[color]] == [r.after_opponent_move for r in rows]
        assert [f.after_sense for f in frames[color]] == [r.after_sense for r in rows]
        moved = [f for f in frames[color] if f.taken or f.requested]
        assert [f.after_move for f in moved] == [r.after_move for r in rows[: len(moved)]]
        for f in frames[color]:
            turn = [t for t in history.turns(color)][f.turn - 1]
            assert f.sense == (history.sense(turn) if history.has_sense(turn) else None)
            assert f.truth == history.truth_fen_before_move(turn)
            if f.lost_material:
                assert f.opponent_capture is not None
            assert f.truth_share == pytest.approx(1 / f.after_sense)
    # Black lost material on the true board where White captured: the marks include them.
    assert any(f.lost_material and f.marked for f in frames[chess.BLACK])


def test_the_bots_log_lines_and_the_play_table_read_the_same():
    history = read_history(GAME)
    logs = read_turn_log(LOG, history)
    assert list(logs) == [chess.BLACK]  # fogsearch played Black in this game
    entries = logs[chess.BLACK]
    assert len(entries) == 34 and entries[0]["taken"] == "g8f6" and entries[0]["value"] == VALUE_1
    assert len(_TABLE_KEYS) == len(COLUMNS)
    table = "\n".join(TurnLog.row(e["turn"], chess.BLACK, e) for e in entries)
    again = parse_turn_log(table)[chess.BLACK]
    for a, b in zip(entries, again, strict=True):
        for key in ("turn", "after_sense", "requested", "taken", "value", "depth", "plies"):
            assert a[key] == b[key], key


def run_bad(tmp_path, capsys, history_text: str, *extra: str) -> str:
    game = tmp_path / "in.json"
    game.write_text(history_text)
    out = tmp_path / "out" / "game.html"
    out.parent.mkdir()
    assert main(["replay", str(game), "-o", str(out), *extra]) == 2
    assert list(out.parent.iterdir()) == []  # no page, no temporary file
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    return err


def tampered(change) -> str:
    raw = json.loads(GAME.read_text())
    change(raw)
    return json.dumps(raw)


def test_not_a_game_is_refused(tmp_path, capsys):
    assert "not a reconchess GameHistory" in run_bad(tmp_path, capsys, '{"scores": [1, 2]}')


def test_a_truncated_file_is_refused(tmp_path, capsys):
    text = GAME.read_text()
    assert "not valid JSON" in run_bad(tmp_path, capsys, text[: len(text) // 2])


def test_a_move_the_board_does_not_allow_names_its_turn(tmp_path, capsys):
    def change(raw):  # White's 5th move replaced by one that its board does not make
        raw["taken_moves"]["true"][4] = {"type": "Move", "value": "a2a4"}

    err = run_bad(tmp_path, capsys, tampered(change))
    assert "turn 5 (white)" in err and "d1a4" in err


def test_a_sense_that_contradicts_the_moves_names_its_turn(tmp_path, capsys):
    def change(raw):  # Black's 3rd sense shows a white queen on a square it never saw
        result = raw["sense_results"]["false"][2]
        result[0][1] = {"type": "Piece", "value": "Q"}

    err = run_bad(tmp_path, capsys, tampered(change))
    assert "turn 3 (black)" in err


def test_a_log_of_another_game_is_refused(tmp_path, capsys):
    log = tmp_path / "other.txt"
    text = GAME.read_text()
    lines = LOG.read_text().splitlines()
    log.write_text("\n".join(line.replace("(took ", "(took a1a2 ") for line in lines))
    err = run_bad(tmp_path, capsys, text, "--log", str(log))
    assert "not either side's moves" in err


def test_a_side_whose_set_passes_max_boards_stops_being_tracked_there():
    history = read_history(GAME)
    frames = game_frames(history, max_boards=100)[chess.BLACK]
    stop = next(i for i, f in enumerate(frames) if f.stopped)
    assert "max_boards = 100" in frames[stop].stopped
    assert all(f.belief is not None and f.after_sense <= 100 for f in frames[:stop])
    assert all(f.belief is None and f.after_sense is None for f in frames[stop + 1 :])
    assert frames[-1].taken is not None  # the moves are still shown


def test_player_names_cannot_end_the_pages_script(tmp_path):
    name = "</script><script>alert(1)</script>"
    game = tmp_path / "in.json"
    game.write_text(tampered(lambda raw: raw.update(white_name=name)))
    out = tmp_path / "game.html"
    assert main(["replay", str(game), "-o", str(out)]) == 0
    text = out.read_text()
    assert "<script>alert" not in text and "&lt;/script&gt;" in text  # escaped in data and title
