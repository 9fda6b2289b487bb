"""``fogsearch tournament --resume``: a long match runs across sessions, each game stored as it
ends; a resumed run plays only the games no earlier run stored and its standings count them all."""

import re

from fogsearch.cli import main
from fogsearch.tournament import ResultStore
from fogsearch.tournament import store as store_module

ARGS = ["tournament", "random", "attacker", "--games", "4", "--seconds", "60", "--workers", "1"]


def _run(db, capsys, *extra) -> tuple[int, str]:
    code = main([*ARGS, "--db", str(db), "--no-progress", *extra])
    return code, capsys.readouterr().out


def test_a_stopped_match_resumes_where_it_stopped(tmp_path, capsys, monkeypatch):
    db = tmp_path / "match.sqlite"
    add_game = store_module.ResultStore.add_game
    stored = []

    def stop_after_two(self, *args):
        add_game(self, *args)
        stored.append(args[1].task_index)
        if len(stored) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(store_module.ResultStore, "add_game", stop_after_two)
    code, _ = _run(db, capsys)
    assert code == 130 and stored == [0, 1]
    monkeypatch.setattr(store_module.ResultStore, "add_game", add_game)

    code, out = _run(db, capsys, "--resume")
    assert code == 0
    assert "tournament 2 in" in out and ": 2 of 2 games" in out
    assert "resumes tournaments 1: the standings count their games too, 4 in all" in out
    with ResultStore(db) as store:
        assert sorted(g["task_index"] for g in store.games(2)) == [2, 3]  # only the missing
        assert store.tournament(2)["config"]["resumes"] == [1]
    assert re.search(r"random\s.*\b4\b", out)  # four games in the standings

    code, out = _run(db, capsys, "--resume")  # nothing left: no game is played
    assert code == 0 and ": 0 of 0 games" in out and "4 in all" in out


def test_another_tournament_is_not_resumed(tmp_path, capsys):
    db = tmp_path / "match.sqlite"
    assert _run(db, capsys, "--games", "1")[0] == 0
    code, out = _run(db, capsys, "--games", "1", "--seed", "5", "--resume")
    assert code == 0 and ": 1 of 1 games" in out  # another seed: another tournament
    with ResultStore(db) as store:
        assert store.tournament(2)["config"]["resumes"] == []


def test_a_two_player_match_is_lengthened_by_resuming_with_more_games(tmp_path, capsys):
    db = tmp_path / "match.sqlite"
    assert _run(db, capsys, "--games", "2")[0] == 0
    code, out = _run(db, capsys, "--games", "3", "--resume")
    assert code == 0 and ": 1 of 1 games" in out and "3 in all" in out
    with ResultStore(db) as store:
        assert [g["task_index"] for g in store.games(2)] == [2]  # only the new game
        first, added = store.games(1)[0], store.games(2)[0]
        # Game 3 has the first game's colours, as the third game of a 3-game match would.
        assert (added["white"], added["black"]) == (first["white"], first["black"])
        assert added["seed"] == first["seed"] + 2

    code, out = _run(db, capsys, "--games", "1", "--resume")  # shortened: one game counted
    assert code == 0 and ": 0 of 0 games" in out and "1 in all" in out


def test_a_round_robin_keeps_its_length_in_its_identity(tmp_path, capsys):
    db = tmp_path / "match.sqlite"
    three = ["tournament", "random", "attacker", "random@random2", "--seconds", "60"]
    base = [*three, "--workers", "1", "--db", str(db), "--no-progress"]
    assert main([*base, "--games", "1"]) == 0
    assert main([*base, "--games", "2", "--resume"]) == 0
    with ResultStore(db) as store:
        assert store.tournament(2)["config"]["resumes"] == []  # the numbering differs


def test_a_stopped_resumed_run_counts_its_own_games_in_the_stop_line(tmp_path, capsys, monkeypatch):
    db = tmp_path / "match.sqlite"
    assert _run(db, capsys, "--games", "2")[0] == 0
    add_game = store_module.ResultStore.add_game

    def stop_after_one(self, *args):
        add_game(self, *args)
        raise KeyboardInterrupt

    monkeypatch.setattr(store_module.ResultStore, "add_game", stop_after_one)
    code, out = _run(db, capsys, "--games", "4", "--resume")
    assert code == 130
    assert "after 1 of 2 games" in out and "3 in all" in out
