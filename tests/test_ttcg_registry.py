"""The core's registry of trick-taking games: every layer reads a game's entry (seats, teams,
parameters, the card search's settings) instead of testing its name."""

import random
import re

import pytest

from fogsearch._core import ttcg as native
from fogsearch.ttcg.match.report import partners
from fogsearch.ttcg.match.runner import GAMES, rotations, seat_pattern


def test_the_registry_lists_its_games_with_their_seats_teams_and_search_settings():
    assert {"gongzhu", "oh_hell"} <= set(native.GAMES) and GAMES == native.GAMES
    g = native.game_info("gongzhu")
    assert (g["seats"], g["teams"], g["team_of"]) == (4, 2, [0, 1, 0, 1])
    assert g["search"] == {
        "deals": 16,
        "iterations": 400,
        "exploration": 200.0,
        "shared_tree": False,
    }
    o = native.game_info("oh_hell", {"players": 5})
    assert (o["seats"], o["teams"]) == (5, 5) and o["params"]["players"] == 3
    assert o["search"]["shared_tree"] and o["search"]["deals"] == 256
    assert partners("gongzhu") == ((0, 2), (1, 3)) and partners("oh_hell") == ()
    assert seat_pattern(g, 2) == [0, 1, 0, 1] and rotations(g, 2) == 2
    assert seat_pattern(o, 5) == [0, 1, 2, 3, 4] and rotations(o, 5) == 5
    with pytest.raises(ValueError, match="game must be one of"):
        native.game_info("bridge")


@pytest.mark.parametrize(("game", "params"), [("gongzhu", {}), ("oh_hell", {"players": 4})])
def test_a_card_state_plays_as_the_games_own_state(game, params):
    rng = random.Random(7)
    for _ in range(20):
        ours = native.CardState(game, params)
        theirs = native.GongzhuState() if game == "gongzhu" else native.OhHellState(params)
        while not theirs.is_terminal():
            assert ours.legal_actions() == theirs.legal_actions()
            assert ours.current_player() == theirs.current_player()
            a = rng.choice(theirs.legal_actions())
            ours.apply_action(a)
            theirs.apply_action(a)
        assert ours.is_terminal() and ours.returns() == theirs.returns()
        assert ours.history() == theirs.history()


def test_the_card_search_config_mirrors_the_core_and_reads_its_defaults_from_it():
    from dataclasses import fields

    from fogsearch.ttcg.search_config import CardSearchConfig

    assert tuple(f.name for f in fields(CardSearchConfig)) == native.CARD_SEARCH_SETTINGS
    g = CardSearchConfig.defaults("gongzhu")
    assert (g.deals, g.exploration, g.shared_tree, g.sampler) == (16, 200.0, False, "us")
    assert (g.key_cards, g.strata, g.chains, g.burn_in, g.thin, g.seconds) == (
        2,
        "exact",
        4,
        20,
        10,
        None,
    )
    o = CardSearchConfig.defaults("oh_hell")
    assert (o.deals, o.exploration, o.shared_tree) == (256, 7.0, True)
    assert CardSearchConfig(deals=4).settings() == {"deals": 4}
    assert CardSearchConfig(deals=4, iterations=2).player("oh_hell").kind == "search"
    # Python converts types only; the core checks ranges and names what is wrong.
    with pytest.raises(ValueError, match="deals must be an int"):
        CardSearchConfig(deals=2.5).player("gongzhu")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown search setting"):
        native.Player.search("gongzhu", None, colour=1)


@pytest.mark.parametrize(
    "setting, value, message",
    [
        ("deals", -1, "deals must not be negative, got -1"),
        ("deals", 2**40, "deals must be 1 to 4096 per move, got 1099511627776"),
        ("threads", 10**6, "threads must be between 1 and 256"),
        ("iterations", 2**63, "does not fit in 64 bits"),
    ],
)
def test_a_search_setting_out_of_range_is_refused_naming_the_value_given(setting, value, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        native.Player.search("hearts", None, **{setting: value})
