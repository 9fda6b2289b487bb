"""Where users already are: `play --html`, `track --html` and `tournament --html DIR` write
replay pages."""

import re
from pathlib import Path

from fogsearch.cli import main

GAME = Path(__file__).parent / "data" / "sf2-game-0001.json"


def test_track_writes_the_page(tmp_path, capsys):
    out = tmp_path / "track.html"
    assert main(["track", str(GAME), "--html", str(out)]) == 0
    assert "replay page" in capsys.readouterr().out
    assert '"white":"StrangeFish2"' in out.read_text()


def test_play_writes_the_page_with_the_bots_log(tmp_path):
    out = tmp_path / "play.html"
    args = ["play", "--opponent", "attacker", "--seconds", "10", "--increment", "0"]
    assert main([*args, "--seed", "1", "--html", str(out)]) == 0
    text = out.read_text()
    assert '"hasModel":true' in text  # the bot's side is weighted by its opponent model
    assert re.search(r'"log":\{"value":-?\d+', text)
    assert re.search(r'"weighed":\{"[a-h][1-8][a-h][1-8]q?":-?\d+', text)  # its best requests


def test_play_refuses_an_unwritable_page_before_the_game(tmp_path, capsys):
    out = tmp_path / "missing" / "play.html"
    assert main(["play", "--opponent", "attacker", "--html", str(out)]) == 2
    assert "--html" in capsys.readouterr().err


def test_tournament_writes_a_page_per_game_and_an_index(tmp_path):
    folder = tmp_path / "pages"
    db = tmp_path / "t.sqlite"
    args = ["tournament", "random", "attacker", "--games", "2", "--workers", "1"]
    args += ["--seconds", "10", "--increment", "0", "--no-progress", "--db", str(db)]
    assert main([*args, "--html", str(folder)]) == 0
    index = (folder / "index.html").read_text()
    links = re.findall(r'href="(game-\d+\.html)"', index)
    assert len(links) == 2
    for name in links:
        assert "game-data" in (folder / name).read_text()
    assert "Elo" in index


def test_tournament_pages_show_the_fogsearch_bots_stored_log(tmp_path):
    """The referee keeps the bot's per-turn log (sent from its own process), the database stores
    it with the game, and the game's page shows the bot's values and weighted beliefs."""
    from fogsearch.tournament import ResultStore

    folder, db = tmp_path / "pages", tmp_path / "t.sqlite"
    args = ["tournament", "fogsearch", "attacker", "--games", "1", "--workers", "1", "--seed", "3"]
    args += ["--seconds", "10", "--increment", "0", "--no-progress", "--db", str(db)]
    assert main([*args, "--html", str(folder)]) == 0
    with ResultStore(db) as store:
        (game,) = store.games(store.latest_tournament_id())
        logs = store.turn_logs(game["id"])
    fogsearch_is_white = game["white"] == "fogsearch"
    assert list(logs) == [fogsearch_is_white]  # the attacker keeps no log
    assert all("value" in row and "plies" in row for row in logs[fogsearch_is_white])
    text = (folder / f"game-{game['id']}.html").read_text()
    assert '"hasModel":true' in text
    assert re.search(r'"log":\{"value":-?\d+', text)
