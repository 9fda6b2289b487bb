"""``fogsearch cards games`` prints the core registry's entries and the card search's defaults,
which the README points to instead of restating them."""

from __future__ import annotations

import json

from fogsearch._core import ttcg as native
from fogsearch.cli import main as cli_main
from fogsearch.ttcg.search_config import CardSearchConfig


def test_games_json_is_the_registry_with_every_search_default(capsys):
    assert cli_main(["cards", "games", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [e["name"] for e in entries] == list(native.GAMES)
    for entry in entries:
        info = native.game_info(entry["name"])
        assert {k: v for k, v in entry.items() if k != "search"} == {
            k: v for k, v in info.items() if k != "search"
        }
        defaults = CardSearchConfig.defaults(entry["name"]).settings()
        assert entry["search"] == defaults
        # game_info's own search settings are among them, with the same values.
        assert info["search"].items() <= entry["search"].items()


def test_games_text_names_each_game_and_its_defaults(capsys):
    assert cli_main(["cards", "games"]) == 0
    out = capsys.readouterr().out
    for game in native.GAMES:
        search = native.card_search_defaults(game, None)
        line = next(line for line in out.splitlines() if line.startswith(f"{game}:"))
        block = out[out.index(line) :].split("\n", 3)
        assert f"deals={search['deals']}" in block[2]
        assert f"exploration={search['exploration']}" in block[2]
