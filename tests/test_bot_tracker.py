"""The bot's knowledge of the board (``fogsearch.bot.tracker.Tracker``): exact tracking with a log
of typed observations, recovery from an observation no board fits, a seeded sample when an
expansion would pass the bound, and seeded samples for the search; then whole games in which the
true board is checked against the set after every observation."""

import dataclasses
import random

import chess
import numpy as np
import pytest
import reconchess
from reconchess.bots.attacker_bot import AttackerBot
from reconchess.bots.random_bot import RandomBot

from fogsearch.bot import (
    ClockPlan,
    FogsearchBot,
    FogsearchBotConfig,
    SenseRule,
    SetLimits,
    SmallSets,
)
from fogsearch.bot import tracker as tracker_module
from fogsearch.bot.tracker import (
    LEAST_CLOCK_PARENTS,
    SECONDS_PER_PARENT,
    Tracker,
    likeliest,
)
from fogsearch.observations import MoveResult, OpponentMoveResult, sense_result
from fogsearch.rbc import BoardSet

FAST = FogsearchBotConfig(
    depth=1,
    small_sets=SmallSets(small_set_depth=0),
    board_plies=1,
    sensing=SenseRule(sense_plies=0),
    set_limits=SetLimits(max_search_boards=64),
    clock=ClockPlan(min_turn_seconds=0.05, max_turn_seconds=0.1, reserve_seconds=2.0),
)
"""Short turns for whole games: one ply per board on at most 64 boards, senses valued on the
boards as they stand, no set search; at most a tenth of a second a turn. Every depth is fixed,
so a seeded game plays the same whatever the machine's speed."""

PASS = MoveResult(None, None, False, None)
UNSEEN = OpponentMoveResult(False, None)


def seeded(config: FogsearchBotConfig, seed: int) -> FogsearchBotConfig:
    return dataclasses.replace(config, search=dataclasses.replace(config.search, seed=seed))


def test_observations_update_the_set_as_the_board_set_would_and_are_logged():
    tracker = Tracker(chess.BLACK, 10_000, random.Random(0))
    exact = BoardSet(chess.BLACK)
    e4 = chess.Board()
    e4.push_uci("e2e4")
    seen = sense_result([(sq, e4.piece_at(sq)) for sq in (chess.E3, chess.E4, chess.E5)])
    for observation in (UNSEEN, seen):
        tracker.observe(observation)
        observation.apply(exact)
        assert tracker.board_set == exact
    assert len(tracker.board_set) == 1 and e4 in tracker.board_set
    assert tracker.log == [UNSEEN, seen]
    assert (tracker.recoveries, tracker.approximations) == (0, 0)


def test_an_observation_no_board_fits_is_skipped_by_rebuilding_from_the_rest_of_the_log():
    tracker = Tracker(chess.BLACK, 10_000, random.Random(0))
    tracker.observe(UNSEEN)
    # An enemy queen on e4 after White's first move: on no board.
    lie = sense_result([(chess.E4, chess.Piece(chess.QUEEN, chess.WHITE))])
    tracker.observe(lie)
    assert tracker.recoveries == 1
    assert tracker.log == [UNSEEN, lie]  # kept: a rebuild replays it and skips it again
    expected = BoardSet(chess.BLACK)
    UNSEEN.apply(expected)
    assert tracker.board_set == expected and len(expected) == 21


def test_rebuild_never_returns_an_empty_set():
    tracker = Tracker(chess.WHITE, 10_000, random.Random(0))
    tracker.observe(UNSEEN)  # White's first turn starts with this callback too
    # A move result no board fits (the e2 pawn cannot have captured on e4): our own move is
    # certain, so it is made wherever possible rather than emptying the set.
    e4 = chess.Move.from_uci("e2e4")
    tracker.observe(MoveResult(e4, e4, True, chess.E4))
    assert tracker.recoveries == 1
    after = chess.Board()
    after.push(e4)
    assert tracker.board_set == BoardSet(chess.WHITE, fens=[after.fen()])


def _tracker_after_passes(max_boards: int, seed: int) -> tuple[Tracker, BoardSet]:
    """White passing while Black moves unseen, three times: 1, 21, 280 and then about 3,000
    boards, tracked under ``max_boards`` and exactly."""
    tracker = Tracker(chess.WHITE, max_boards, random.Random(seed))
    exact = BoardSet(chess.WHITE)
    for observation in [UNSEEN, *[PASS, UNSEEN] * 3]:
        tracker.observe(observation)
        observation.apply(exact)
    return tracker, exact


def test_an_expansion_past_the_bound_is_applied_to_a_seeded_sample_of_the_set():
    tracker, exact = _tracker_after_passes(300, seed=3)
    assert len(exact) > 300
    assert tracker.approximations == 1 and tracker.recoveries == 0
    assert 0 < len(tracker.board_set) <= 300
    assert tracker.board_set.max_boards == 300  # the sample stays bounded for later moves
    # Every board of the sample is one the exact set holds.
    assert all(fen in exact for fen in tracker.board_set.fens())
    again, _ = _tracker_after_passes(300, seed=3)
    assert again.board_set == tracker.board_set


def _positions(board_set: BoardSet) -> set[int]:
    """The set's positions (a board reached by two histories is one position)."""
    return set(board_set.zobrist_keys().tolist())


def test_an_expansion_longer_than_the_clock_allows_is_applied_to_a_sample_that_fits():
    tracker, exact = _tracker_after_passes(10_000_000, seed=1)
    tracker.observe(PASS)
    PASS.apply(exact)
    parents = len(exact)
    keep = LEAST_CLOCK_PARENTS + 500
    assert parents > keep
    tracker.seconds_per_parent = 1e-5
    seconds = 1e-5 * (keep + 0.5)  # the time of expanding ``keep`` boards
    rng_copy = random.Random()
    rng_copy.setstate(tracker.rng.getstate())
    tracker.observe(UNSEEN, seconds)
    assert tracker.approximations == 1 and tracker.recoveries == 0
    # The very sample the seeded generator draws, expanded exactly.
    expected = exact.subset(sorted(rng_copy.sample(range(parents), keep)))
    UNSEEN.apply(expected)
    assert tracker.board_set == expected
    UNSEEN.apply(exact)
    assert _positions(tracker.board_set) < _positions(exact)


def test_a_spent_clock_still_expands_the_least_sample_and_no_bound_keeps_tracking_exact():
    spent, exact = _tracker_after_passes(10_000_000, seed=2)
    free, _ = _tracker_after_passes(10_000_000, seed=2)
    for tracker in (spent, free):
        tracker.observe(PASS)
    PASS.apply(exact)
    spent.observe(UNSEEN, 0.0)
    free.observe(UNSEEN, None)
    free_bounded, _ = _tracker_after_passes(10_000_000, seed=2)
    free_bounded.observe(PASS)
    free_bounded.observe(UNSEEN, 60.0)  # fits easily: exact
    UNSEEN.apply(exact)
    assert free.board_set == free_bounded.board_set == exact
    assert (free.approximations, free_bounded.approximations) == (0, 0)
    assert spent.approximations == 1
    assert _positions(spent.board_set) < _positions(exact)
    # LEAST_CLOCK_PARENTS boards expanded: each makes at least one board (the pass), and
    # passing White's boards differ only by Black's moves, so children stay distinct per parent
    # at least as often as the parents do.
    assert LEAST_CLOCK_PARENTS <= len(spent.board_set) < len(exact)


def test_after_an_expansion_refused_past_the_bound_the_sample_gets_what_is_left_of_the_clock(
    monkeypatch,
):
    """The set fits the clock's share at the rate assumed, but its expansion passes
    ``max_boards`` and is refused: the sample expanded instead is cut to what the share has
    left (here nothing: the least sample), not the bound's usual ``max_boards // 32``."""
    monkeypatch.setattr(tracker_module, "LEAST_CLOCK_PARENTS", 100)
    sizes = {}
    for seconds in (None, 0.001):
        tracker, _ = _tracker_after_passes(20_000, seed=4)
        tracker.observe(PASS)
        parents = len(tracker.board_set)
        assert parents * 9 > 20_000  # the expansion (to 29,114) passes the bound
        tracker.seconds_per_parent = 1e-7  # 0.001 s would fit 10,000 boards: no sample first
        tracker.observe(UNSEEN, seconds)
        assert tracker.approximations == 1 and tracker.recoveries == 0
        sizes[seconds] = len(tracker.board_set)
    assert sizes[0.001] < sizes[None] / 3  # 100 boards expanded instead of 625


class CountedExpansion(OpponentMoveResult):
    """An opponent move result that records the size of every set it is applied to."""

    def apply(self, board_set):
        self.sizes.append(len(board_set))
        super().apply(board_set)


def test_an_expansion_expected_past_the_bound_is_not_tried_on_the_whole_set():
    """After 3,074 boards made 29,114 (growth 9.5), 29,114 boards would make about 276,000, past
    the bound of 200,000: the whole set is never expanded, only the sample."""
    tracker, _ = _tracker_after_passes(200_000, seed=5)
    tracker.observe(PASS)
    tracker.observe(UNSEEN)  # 3,074 boards expanded exactly: the growth is measured
    assert tracker.growth is not None and 9 < tracker.growth < 10
    tracker.observe(PASS)
    parents = len(tracker.board_set)
    assert parents * tracker.growth > 200_000
    counted = CountedExpansion(False, None)
    object.__setattr__(counted, "sizes", [])
    tracker.observe(counted)
    assert tracker.approximations == 1 and tracker.recoveries == 0
    assert counted.sizes == [200_000 // 32]  # the sample alone
    assert 0 < len(tracker.board_set) <= 200_000


def test_the_rate_of_expansion_is_measured_over_the_game():
    tracker, _ = _tracker_after_passes(10_000_000, seed=0)
    assert tracker.seconds_per_parent == SECONDS_PER_PARENT  # no expansion of 1,000 boards yet
    tracker.seconds_per_parent = 1.0  # absurdly slow: the measurement must pull it down
    tracker.observe(PASS)
    tracker.observe(UNSEEN, 1e6)
    assert 0.0 < tracker.seconds_per_parent < 0.6  # half the latest measurement, half the old


def test_the_search_sample_is_the_seeded_choice_of_boards_in_the_order_drawn():
    tracker, exact = _tracker_after_passes(10_000, seed=0)
    boards = len(tracker.board_set)
    assert tracker.approximations == 0 and boards == len(exact) > 64
    tracker.rng = random.Random(9)
    sample = tracker.sample(64)
    picked = random.Random(9).sample(range(boards), 64)
    assert sample.fens() == [tracker.board_set.fen(i) for i in picked]
    # The next sample draws on: another choice, from the same seeded stream.
    rng = random.Random(9)
    rng.sample(range(boards), 64)
    assert tracker.sample(64).fens() == [
        tracker.board_set.fen(i) for i in rng.sample(range(boards), 64)
    ]


def test_a_set_no_larger_than_the_sample_is_searched_whole_and_draws_nothing():
    tracker, _ = _tracker_after_passes(10_000, seed=0)
    state = tracker.rng.getstate()
    assert tracker.sample(len(tracker.board_set)) is tracker.board_set
    assert tracker.rng.getstate() == state  # a seeded game's later samples do not shift


def test_with_an_opponent_model_the_search_sample_is_the_likeliest_boards():
    tracker = Tracker(chess.WHITE, 10_000, random.Random(0), opponent_model=(100.0, 0.1))
    for observation in [UNSEEN, *[PASS, UNSEEN] * 3]:
        tracker.observe(observation)
    weights = tracker.board_set.weights()
    assert len(weights) > 64 and weights.sum() == pytest.approx(1.0)
    assert weights.max() > 10 * weights.min()  # pieces walked into pawns' attacks
    sample, kept = tracker.weighted_sample(64)
    assert len(sample) == len(kept) == 64 and kept.sum() == pytest.approx(1.0)
    by_fen = dict(zip(tracker.board_set.fens(), weights, strict=True))
    chosen = [by_fen[fen] for fen in sample.fens()]
    assert min(chosen) >= np.sort(weights)[-64]  # none left out is likelier than one kept
    assert np.allclose(kept, np.array(chosen) / sum(chosen))
    # A rebuilt set keeps the model.
    assert tracker.rebuild().opponent_model == (100.0, 0.1)


@pytest.mark.parametrize("seed", range(20))
def test_the_likeliest_boards_are_those_a_full_sort_picks(seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(1, 400))
    weights = rng.integers(1, 6, count) / 10.0  # many ties
    tie_break = rng.random(count)
    for size in (1, count // 3, count - 1, count, count + 5):
        if size < 1:
            continue
        expected = np.lexsort((tie_break, -weights))[:size]
        assert likeliest(weights, size, tie_break).tolist() == expected.tolist()


def test_without_an_opponent_model_the_weighted_sample_is_the_uniform_one():
    tracker, _ = _tracker_after_passes(10_000, seed=0)
    tracker.rng = random.Random(9)
    sample, kept = tracker.weighted_sample(64)
    tracker.rng = random.Random(9)
    assert sample.fens() == tracker.sample(64).fens()
    assert np.allclose(kept, 1 / 64)


# -- whole games -----------------------------------------------------------------------------


class TruthCheckingTracker(Tracker):
    """A tracker that checks after every observation that the true board is in its set."""

    def __init__(self, game: reconchess.LocalGame, *args):
        super().__init__(*args)
        self.game = game
        self.misses = 0
        self.largest = 0

    def observe(self, observation, seconds=None):
        super().observe(observation, seconds)
        self.largest = max(self.largest, len(self.board_set))
        if isinstance(observation, MoveResult):
            return  # the referee pushes our move after this callback returns
        if self.game.board.fen() not in self.board_set:
            self.misses += 1


class TrackingCheckBot(FogsearchBot):
    """The bot with a :class:`TruthCheckingTracker`, recording after each sense its bound on the
    half-move clock with the true clock."""

    def __init__(self, game: reconchess.LocalGame, config: FogsearchBotConfig):
        super().__init__(config)
        self.game = game
        self.clocks: list[tuple[int, int]] = []  # (quiet_bound, the true half-move clock)

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        self.tracker = TruthCheckingTracker(
            self.game, color, self.config.set_limits.max_tracked_boards, self.rng
        )

    def handle_sense_result(self, sense_result_pairs):
        super().handle_sense_result(sense_result_pairs)
        self.clocks.append((self.quiet_bound, self.game.board.halfmove_clock))


def play_tracked(bot_colour, opponent_cls, seed, config=FAST, inject=None) -> TrackingCheckBot:
    """A local game of the seeded bot (``config``) against ``opponent_cls``; ``inject(bot)`` may
    tamper with the bot before it starts."""
    random.seed(seed)  # reconchess's baseline bots draw from the global generator
    game = reconchess.LocalGame(seconds_per_player=120)
    bot = TrackingCheckBot(game, seeded(config, seed))
    players = {bot_colour: bot, not bot_colour: opponent_cls()}
    if inject is not None:
        inject(bot)
    reconchess.play_local_game(players[chess.WHITE], players[chess.BLACK], game=game)
    return bot


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tracking_stays_exact_within_games(seed):
    for colour in (chess.WHITE, chess.BLACK):
        bot = play_tracked(colour, RandomBot, seed)
        assert bot.tracker.misses == 0
        assert bot.recoveries == 0
        assert bot.approximations == 0  # far below the tracking bound: exact all game
        assert bot.turn_log, "the bot logged no turns"
        # Unseen pawn moves of the opponent reset the true clock; nothing else can make it lower.
        assert all(bound >= clock for bound, clock in bot.clocks), bot.clocks


def test_injected_inconsistent_observation_is_recovered_from():
    def inject(bot):
        original = bot.handle_sense_result
        calls = {"n": 0}

        def lying_sense(pairs):
            calls["n"] += 1
            if calls["n"] == 3 and pairs:
                square, _ = pairs[0]
                # Claim an enemy queen that cannot be there on any tracked board.
                fake = chess.Piece(chess.QUEEN, not bot.color)
                pairs = [(square, fake)] + list(pairs[1:])
            return original(pairs)

        bot.handle_sense_result = lying_sense

    bot = play_tracked(chess.WHITE, AttackerBot, seed=4, inject=inject)
    assert bot.recoveries >= 1
    assert len(bot.board_set) >= 1
    assert bot.fallbacks == 0


def test_a_set_past_the_tracking_bound_is_sampled_and_the_game_goes_on():
    config = dataclasses.replace(
        FAST, set_limits=dataclasses.replace(FAST.set_limits, max_tracked_boards=300)
    )
    bot = play_tracked(chess.WHITE, RandomBot, seed=5, config=config)
    assert bot.game.is_over() and bot.game.get_win_reason() is not None
    assert bot.approximations >= 1  # RandomBot's unseen moves outgrow 300 boards quickly
    assert bot.tracker.largest <= 300
    assert bot.fallbacks == 0
