"""Hearts, added as one core module and one registry entry: its rules against OpenSpiel's
``hearts`` (legal actions at every state, the player to act, the returns) on seeded random
games; the samplers drawing deals consistent with what the seat saw; and
``fogsearch cards match --game hearts``."""

import json
import random

import pyspiel
import pytest

from fogsearch._core import ttcg as native
from fogsearch.cli import main as cli_main

# Every parameter OpenSpiel's hearts takes but can_lead_hearts_instead_of_qs (not supported).
FLIPPED = {
    "pass_cards": False,
    "no_pts_on_first_trick": False,
    "can_lead_any_club": True,
    "jd_bonus": True,
    "avoid_all_tricks_bonus": True,
    "must_break_hearts": False,
    "qs_breaks_hearts": False,
}


def pyspiel_games(params: dict, games: int, seed: int):
    """Random games of pyspiel's hearts: (history, legal actions at each state and at the end,
    the player to act at each, the returns)."""
    rng = random.Random(seed)
    game = pyspiel.load_game("hearts", params)
    for _ in range(games):
        state = game.new_initial_state()
        legal, players = [], []
        while not state.is_terminal():
            actions = state.legal_actions()
            legal.append(actions)
            players.append(state.current_player())
            state.apply_action(actions[rng.randrange(len(actions))])
        legal.append(state.legal_actions())
        players.append(state.current_player())
        yield state.history(), legal, players, state.returns()


def check_against_pyspiel(params: dict, games: int, seed: int) -> None:
    """Replays pyspiel's random games in the core: the same legal actions and player to act at
    every state, the same returns."""
    played = list(pyspiel_games(params, games, seed))
    traces = native.trace_game("hearts", params, [h for h, *_ in played])
    for (history, legal, players, returns), (ours, our_players, our_returns) in zip(
        played, traces, strict=True
    ):
        assert ours == legal, history
        assert our_players == players, history
        assert our_returns == returns, history


def test_hearts_matches_pyspiel_on_ten_thousand_random_games():
    # About 10 s on a loaded 2-core machine: under the suite's 20 s bound for a default test.
    check_against_pyspiel({}, 10_000, seed=3)
    check_against_pyspiel(FLIPPED, 500, seed=4)


def test_hearts_parameters_are_checked_by_the_core():
    assert native.game_info("hearts")["params"]["pass_cards"] is True
    with pytest.raises(ValueError, match="unknown hearts parameter"):
        native.CardState("hearts", {"colour": True})
    with pytest.raises(ValueError, match="must be a bool"):
        native.CardState("hearts", {"jd_bonus": 1})
    with pytest.raises(ValueError, match="not supported"):
        native.CardState("hearts", {"can_lead_hearts_instead_of_qs": True})


def midgame(seed: int, plays: int):
    """A Hearts state ``plays`` cards into play (passes included), from a seeded random game."""
    rng = random.Random(seed)
    state = native.CardState("hearts")
    while len(state.history()) < 1 + 52 + 12 + plays or state.current_player() < 0:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def replays(deal_owner: list[int], public: list[int]) -> bool:
    """Whether play at a table dealt as ``deal_owner`` (each card's seat at the first play) can
    make the public plays: replayed with no passing (the hands are the ones play started with)."""
    hands = [[c for c, o in enumerate(deal_owner) if o == s] for s in range(4)]
    state = native.CardState("hearts", {"pass_cards": False})
    state.apply_action(0)
    for i in range(13):
        for s in range(4):
            state.apply_action(hands[s][i])
    for a in public:
        if a not in state.legal_actions():
            return False
        state.apply_action(a)
    return True


@pytest.mark.parametrize("sampler", ["us", "ss", "gibbs"])
def test_hearts_samples_are_consistent_with_the_observed_play(sampler):
    for seed in range(3):
        state = midgame(seed, plays=22)
        history = state.history()
        public = history[1 + 52 + (12 if history[0] else 0) :]
        seat = state.current_player()
        deals, log_weights = native.sample_deals(state, sampler, n=24, seed=seed)
        # SS returns at least one deal per stratum, so possibly more than asked.
        assert deals.shape[0] >= 24 and deals.shape[1] == 52
        own = set(state.legal_actions())
        for deal, w in zip(deals, log_weights, strict=True):
            owners = [int(o) for o in deal]
            assert all(owners[c] == seat for c in own)
            assert [owners.count(s) for s in range(4)] == [13] * 4
            if w > float("-inf"):
                assert replays(owners, public)


def test_a_seeded_hearts_match_plays_every_rotation_and_repeats(capsys):
    args = ["cards", "match", "--game", "hearts", "--deals", "1", "--seed", "5", "--json",
            "--players", "random", "search:deals=2,iterations=30@s", "random@b", "random@c"]  # fmt: skip
    assert cli_main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == ["random", "s", "b", "c"] and out["deals"] == 1
    # Every game's returns sum to 78 (26 points shared) or 26 (a moon shot), and every player
    # sat in every seat of the one deal, so the means sum to between 26 and 78.
    assert 26 <= sum(out["mean_return"]) <= 78
    assert cli_main(args) == 0
    assert json.loads(capsys.readouterr().out) == out


def test_hearts_match_refuses_players_that_do_not_know_it(capsys):
    base = ["cards", "match", "--game", "hearts", "--deals", "1"]
    assert cli_main(base + ["--players", "random", "greed", "random@b", "random@c"]) == 2
    assert "Gongzhu only" in capsys.readouterr().err
    assert cli_main(base + ["--players", "random", "random@b"]) == 2
    assert "hearts takes 4 players" in capsys.readouterr().err
