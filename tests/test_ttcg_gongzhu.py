"""Gongzhu's rules (ScrofaZero paper §2, Table 1): a hand-made game for the all-hearts and
transformer rules, random-play invariants over 100,000 games, an independent reading of the rules
in Python checked against the core on random games, and the pyspiel game."""

import random

import pyspiel
import pytest

import fogsearch.ttcg.gongzhu_pyspiel  # noqa: F401 - registers pyspiel.load_game("gongzhu")
from fogsearch import FogsearchError
from fogsearch._core import ttcg as native
from fogsearch.ttcg.gongzhu import PIG, SHEEP, TRANSFORMER, card_name, deal, new_state

HEART_POINTS = {12: -50, 11: -40, 10: -30, 9: -20, **{r: -10 for r in range(3, 9)}}


def reference_points(taken: set[int]) -> int:
    """Table 1 read independently of the core: hearts by rank (all thirteen count +200), the pig
    -100, the sheep +100, the transformer doubling, or +50 with no other scoring card."""
    hearts = {c for c in taken if c % 4 == 3}
    total = 200 if len(hearts) == 13 else sum(HEART_POINTS.get(c // 4, 0) for c in hearts)
    total += -100 * (PIG in taken) + 100 * (SHEEP in taken)
    if TRANSFORMER in taken:
        others = hearts | ({PIG, SHEEP} & taken)
        return 50 if not others else 2 * total
    return total


def reference_replay(actions: list[int]) -> list[set[int]]:
    """Who takes which cards, replayed from the plays with follow suit and highest-of-led-suit."""
    hands = [set(actions[s:52:4]) for s in range(4)]
    taken: list[set[int]] = [set(), set(), set(), set()]
    leader, plays = 0, actions[52:]
    for t in range(0, len(plays), 4):
        trick = plays[t : t + 4]
        for i, card in enumerate(trick):
            seat = (leader + i) % 4
            led = trick[0] % 4
            assert card in hands[seat]
            assert card % 4 == led or i == 0 or not any(c % 4 == led for c in hands[seat])
            hands[seat].remove(card)
        best = max((i for i in range(4) if trick[i] % 4 == trick[0] % 4), key=lambda i: trick[i])
        leader = (leader + best) % 4
        taken[leader] |= set(trick)
    return taken


def test_a_hand_made_game_where_one_player_takes_all_hearts_and_the_transformer():
    """Seat 0 holds every heart: leading them, it takes all 13 tricks. All hearts count +200, the
    pig -100, the sheep +100, and the transformer doubles the lot: 400 against 0."""
    hearts = [r * 4 + 3 for r in range(13)]
    rest = [c for c in range(52) if c % 4 != 3]
    hands = [hearts, rest[0:13], rest[13:26], rest[26:39]]
    state = new_state(native.GongzhuState.deal_actions(hands))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1] if state.current_player() == 0 else
                           state.legal_actions()[0])  # fmt: skip
    assert state.points() == [400.0, 0.0, 0.0, 0.0]
    assert state.returns() == [400.0, -400.0, 400.0, -400.0]
    assert reference_points(set(range(52))) == 400


@pytest.mark.parametrize(
    ("taken", "points"),
    [
        ({TRANSFORMER, 0}, 50),  # the transformer alone (a club two is not a scoring card)
        ({TRANSFORMER, 3}, 0),  # a zero-point heart is one: doubling nothing
        ({TRANSFORMER, PIG}, -200),
        ({TRANSFORMER, SHEEP, 51}, 100),
        ({PIG, SHEEP, 51, 47}, -90),
        ({43, 39, 35, 31, 27, 23, 19, 15}, -110),  # HQ -30, HJ -20, H10 down to H5 -10 each
    ],
)
def test_each_scoring_rule_in_the_reference_reading(taken, points):
    """The test's own reading of Table 1 on hand-made piles (the core's are unit tests of
    ``points_of``); the two readings are compared on random games below."""
    assert reference_points(taken) == points


def test_10000_random_games_keep_every_invariant():
    """10,000 games reach every scoring rule hundreds of times (about 1,200 lone transformers, 3,000
    pigs with the sheep): enough for a broken invariant to show."""
    report = native.gongzhu_random_play_check(10_000, seed=2026)
    assert report["games"] == 10_000
    assert report["violation_count"] == 0, report["violations"]
    # The rarer rules are exercised by random play (all hearts to one player rarely is: it has
    # its hand-made game above).
    assert report["transformer_alone"] > 100
    assert report["transformer_doubling"] > 1_000
    assert report["pig_and_sheep_together"] > 1_000


def test_the_core_agrees_with_the_reference_reading_on_random_games():
    rng = random.Random(7)
    for g in range(2_000):
        state = new_state(deal(g))
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        taken = reference_replay(state.history())
        assert [set(t) for t in state.taken()] == taken
        points = [reference_points(t) for t in taken]
        assert state.points() == points
        team = [points[0] + points[2], points[1] + points[3]]
        assert state.returns() == [team[s % 2] - team[1 - s % 2] for s in range(4)]


def test_illegal_plays_and_bad_deals_are_refused_and_leave_the_state_unchanged():
    state = new_state(deal(3))
    history = state.history()
    lead = state.legal_actions()[0]
    state.apply_action(lead)
    follower_hand = state.hands()[1]
    off_suit = [c for c in follower_hand if c % 4 != lead % 4]
    if len(off_suit) < len(follower_hand):  # seat 1 can follow: an off-suit card is illegal
        with pytest.raises(FogsearchError, match="not legal"):
            state.apply_action(off_suit[0])
    assert state.history() == [*history, lead]
    with pytest.raises(FogsearchError):
        native.GongzhuState.deal_actions([[0] * 13] * 4)
    with pytest.raises(FogsearchError, match="not a card left to deal"):
        native.GongzhuState.from_actions([0, 0])
    assert card_name(PIG) == "QS" and card_name(SHEEP) == "JD" and card_name(TRANSFORMER) == "TC"


def test_gongzhu_is_a_pyspiel_game_openspiel_algorithms_run_on():
    game = pyspiel.load_game("gongzhu")
    assert game.num_players() == 4 and game.num_distinct_actions() == 52
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    from open_spiel.python.algorithms import mcts

    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    bot = mcts.MCTSBot(game, 200.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=None)
    assert bot.step(state) in state.legal_actions()
    # Information states: each seat's dealt hand, so they differ between seats and stay fixed
    # while a seat's own cards leave its hand.
    infos = {state.information_state_string(p) for p in range(4)}
    assert len(infos) == 4
    tensor = state.information_state_tensor(0)
    assert sum(tensor[:52]) == 13
