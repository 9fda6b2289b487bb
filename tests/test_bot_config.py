"""The bot's settings (``fogsearch.bot.config``): one frozen config holding the search, clock and
progress sub-configs, every setting checked when it is built, and the flat setting names a player
spec uses (``fogsearch:depth=3,mode=exact,plan_turns=30``) mapped onto the nesting."""

import dataclasses
import math

import pytest

from fogsearch.bot import (
    ClockPlan,
    FogsearchBotConfig,
    OpeningLine,
    OpponentModel,
    ProgressRule,
    SenseRule,
    SetLimits,
    SmallSets,
    TieBreak,
)
from fogsearch.bot.config import (
    MAX_TRACKED_BOARDS,
    flat_settings,
    from_settings,
    opening_moves,
)
from fogsearch.search import MAX_DEPTH, SearchConfig


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: FogsearchBotConfig(depth=0), "depth"),
        (
            lambda: FogsearchBotConfig(depth=MAX_DEPTH + 1),
            f"depth must be an integer in 1..{MAX_DEPTH}",
        ),
        (lambda: FogsearchBotConfig(depth=2.0), "depth"),
        (lambda: FogsearchBotConfig(depth=True), "depth"),
        (
            lambda: FogsearchBotConfig(set_limits=SetLimits(max_search_boards=0)),
            "max_search_boards",
        ),
        (lambda: FogsearchBotConfig(small_sets=SmallSets(small_set_depth=-1)), "small_set_depth"),
        (
            lambda: FogsearchBotConfig(small_sets=SmallSets(small_set_depth=MAX_DEPTH + 1)),
            "small_set_depth",
        ),
        (lambda: FogsearchBotConfig(small_sets=SmallSets(small_set_boards=0)), "small_set_boards"),
        (
            lambda: FogsearchBotConfig(small_sets=SmallSets(small_set_seconds=float("inf"))),
            "small_set_seconds",
        ),
        (
            lambda: FogsearchBotConfig(opening=OpeningLine(opening_as_black="g8f6 Nf6")),
            "'Nf6' is not a UCI move",
        ),
        (
            lambda: FogsearchBotConfig(opening=OpeningLine(opening_as_black=["g8f6"])),
            "opening_as_black",
        ),
        (lambda: FogsearchBotConfig(tie_break=TieBreak(mate_threats="yes")), "mate_threats"),
        (lambda: FogsearchBotConfig(judge="stockfish"), "judge must be one of"),
        (lambda: FogsearchBotConfig(sensing=SenseRule(sense="random")), "sense must be one of"),
        (lambda: FogsearchBotConfig(mean_weight=1.5), "mean_weight"),
        (lambda: FogsearchBotConfig(mean_weight=float("nan")), "mean_weight"),
        (
            lambda: FogsearchBotConfig(
                judge="engine", search=SearchConfig(uci_engine="no-such-engine-fogsearch")
            ),
            'judge "engine": the uci leaf needs a UCI chess engine',
        ),
        (lambda: FogsearchBotConfig(king_loss_cp=999), "king_loss_cp"),
        (lambda: FogsearchBotConfig(king_loss_cp=float("inf")), "king_loss_cp"),
        (lambda: FogsearchBotConfig(board_plies=0), "board_plies"),
        (lambda: FogsearchBotConfig(board_plies=99), "board_plies"),
        (lambda: FogsearchBotConfig(sensing=SenseRule(sense_plies=-1)), "sense_plies"),
        (
            lambda: FogsearchBotConfig(opponent=OpponentModel(opponent_temperature_cp=0.5)),
            "opponent_temperature_cp",
        ),
        (
            lambda: FogsearchBotConfig(opponent=OpponentModel(opponent_uniform_share=-0.1)),
            "opponent_uniform_share",
        ),
        (lambda: OpponentModel(opponent_uniform_share="high"), "opponent_uniform_share must be a"),
        (  # checked without a model too: a setting is never silently dropped
            lambda: OpponentModel(opponent_temperature_cp=0, opponent_uniform_share=2.0),
            "opponent_uniform_share must be",
        ),
        (lambda: ClockPlan(plan_turns=0), "plan_turns"),
        (lambda: ClockPlan(min_turns_left=0), "min_turns_left"),
        (lambda: ClockPlan(hard_turn_factor=0.5), "hard_turn_factor"),
        (lambda: ClockPlan(sense_share=1.0), "sense_share"),
        (lambda: ClockPlan(min_turn_seconds=-1.0), "min_turn_seconds"),
        (lambda: ClockPlan(max_turn_seconds=float("nan")), "max_turn_seconds"),
        (lambda: ClockPlan(reserve_seconds=math.inf), "reserve_seconds"),
        (lambda: ClockPlan(min_turn_seconds=5.0, max_turn_seconds=1.0), "exceeds"),
        (lambda: SearchConfig(mode="fast"), "mode"),
        (lambda: SearchConfig(leaf="qsearch"), "leaf"),
        (lambda: SearchConfig(threads=0), "threads"),
        (lambda: SearchConfig(k=0), "k must be"),
    ],
)
def test_bad_settings_are_refused_when_the_bot_is_configured(build, match):
    # Refused up front: a search that failed every turn would leave a bot playing random moves.
    with pytest.raises(ValueError, match=match):
        build()


@pytest.mark.parametrize(
    "build",
    [
        lambda v: FogsearchBotConfig(tie_break=TieBreak(tie_margin_cp=v)),
        lambda v: FogsearchBotConfig(opening=OpeningLine(opening_margin_cp=v)),
        lambda v: FogsearchBotConfig(opening=OpeningLine(opening_safety_cp=v)),
        lambda v: ProgressRule(progress_halfmoves=v),
        lambda v: ProgressRule(progress_margin_cp=v),
        lambda v: ProgressRule(progress_force_halfmoves=v),
    ],
)
def test_negative_margins_are_refused_and_zero_is_allowed(build):
    # A negative margin would leave no request tied with the best one.
    build(0)
    with pytest.raises(ValueError, match="non-negative"):
        build(-1)


def test_the_search_depth_is_bounded_by_the_deepest_search():
    assert (
        FogsearchBotConfig(depth=MAX_DEPTH, small_sets=SmallSets(small_set_depth=MAX_DEPTH)).depth
        == MAX_DEPTH
    )


def test_the_tracking_bound_must_hold_a_board_and_its_replies_and_fit_in_memory():
    with pytest.raises(ValueError, match="max_tracked_boards must be an integer in 256\\.\\."):
        FogsearchBotConfig(set_limits=SetLimits(max_tracked_boards=100))
    with pytest.raises(ValueError, match="max_tracked_boards"):
        FogsearchBotConfig(set_limits=SetLimits(max_tracked_boards=MAX_TRACKED_BOARDS + 1))
    assert (
        FogsearchBotConfig(
            set_limits=SetLimits(max_tracked_boards=256)
        ).set_limits.max_tracked_boards
        == 256
    )
    assert (
        FogsearchBotConfig(
            set_limits=SetLimits(max_tracked_boards=MAX_TRACKED_BOARDS)
        ).set_limits.max_tracked_boards
        > 256
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("search", {"mode": "exact"}),
        ("clock", {"plan_turns": 10}),
        ("progress", 40),
        ("sensing", "size"),
        ("opponent", (200.0, 0.1)),
        ("small_sets", {"small_set_depth": 3}),
        ("set_limits", 256),
        ("tie_break", 50),
        ("opening", "g8f6"),
    ],
)
def test_the_sub_configs_must_be_their_own_types(name, value):
    with pytest.raises(ValueError, match=f"{name} must be a"):
        FogsearchBotConfig(**{name: value})


def test_the_config_is_frozen():
    config = FogsearchBotConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.depth = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.clock.plan_turns = 3


def test_the_bot_searches_exact_tables_with_the_cheap_sense_by_default():
    # Not SearchConfig's own defaults (the paper's full sense search): the bot's, on purpose.
    search = FogsearchBotConfig().search
    assert (search.mode, search.sense_mode, search.time_limit) == ("exact", "min_size", None)


def test_opening_moves_reads_a_uci_line():
    assert [m.uci() for m in opening_moves(" g8f6  e7e6 ")] == ["g8f6", "e7e6"]
    assert opening_moves("") == []
    with pytest.raises(ValueError, match="my line: 'e2e9'"):
        opening_moves("g1f3 e2e9", "my line")


# -- flat settings ---------------------------------------------------------------------------


def test_every_setting_has_one_flat_name_and_time_limit_is_not_one():
    flat = flat_settings()
    # The clock plan sets the search's time limit every turn; a setting for it would be ignored.
    assert "time_limit" not in flat
    expected = {
        f.name: (path, f.name)
        for path, cls in (
            ((), FogsearchBotConfig),
            (("search",), SearchConfig),
            (("clock",), ClockPlan),
            (("progress",), ProgressRule),
            (("sensing",), SenseRule),
            (("opponent",), OpponentModel),
            (("small_sets",), SmallSets),
            (("set_limits",), SetLimits),
            (("tie_break",), TieBreak),
            (("opening",), OpeningLine),
        )
        for f in dataclasses.fields(cls)
        if f.name
        not in (
            "search",
            "clock",
            "progress",
            "sensing",
            "opponent",
            "small_sets",
            "set_limits",
            "tie_break",
            "opening",
            "time_limit",
        )
    }
    # Equal counts: no two settings share a name across the nesting (one would hide the other).
    leaves = sum(
        len(dataclasses.fields(cls))
        for cls in (
            FogsearchBotConfig,
            SearchConfig,
            ClockPlan,
            ProgressRule,
            SenseRule,
            OpponentModel,
            SmallSets,
            SetLimits,
            TieBreak,
            OpeningLine,
        )
    )
    # 9 nested configs (search, clock, progress and the six groups) and time_limit are no settings.
    assert len(flat) == len(expected) == leaves - 9 - 1
    assert {name: path for name, (path, _) in flat.items()} == {
        name: (*prefix, leaf) for name, (prefix, leaf) in expected.items()
    }
    assert flat["mode"] == (("search", "mode"), str)
    assert flat["plan_turns"] == (("clock", "plan_turns"), int)
    assert flat["reserve_seconds"] == (("clock", "reserve_seconds"), float)
    assert flat["progress_halfmoves"] == (("progress", "progress_halfmoves"), int)
    assert flat["depth"] == (("depth",), int)


def test_no_settings_give_the_default_config():
    assert from_settings({}) == FogsearchBotConfig()


def test_nested_names_land_in_their_sub_config_and_the_rest_keeps_its_defaults():
    config = from_settings(
        {
            "depth": 3,
            "mode": "sketch",
            "seed": 7,
            "plan_turns": 30,
            "reserve_seconds": 3,
            "progress_halfmoves": 50,
        }
    )
    default = FogsearchBotConfig()
    assert config == dataclasses.replace(
        default,
        depth=3,
        search=dataclasses.replace(default.search, mode="sketch", seed=7),
        clock=dataclasses.replace(default.clock, plan_turns=30, reserve_seconds=3.0),
        progress=dataclasses.replace(default.progress, progress_halfmoves=50),
    )
    # An int for a float setting is converted (lossless), so the config compares and prints alike.
    assert type(config.clock.reserve_seconds) is float


def test_every_setting_of_a_config_round_trips_through_its_flat_name():
    config = FogsearchBotConfig(
        search=SearchConfig(mode="exact+sketch", sense_mode="search", leaf="exchange", k=32),
        depth=1,
        clock=ClockPlan(max_turn_seconds=0.5, reserve_seconds=2.0),
        progress=ProgressRule(progress_force_halfmoves=0),
        tie_break=TieBreak(mate_threats=False),
        opening=OpeningLine(opening_as_black=""),
    )
    settings = {}
    for name, (path, _) in flat_settings().items():
        value = config
        for part in path:
            value = getattr(value, part)
        settings[name] = value
    assert from_settings(settings) == config


@pytest.mark.parametrize(
    "name",
    ["bogus", "time_limit", "search_mode", "safety_seconds", "turns_to_plan", "search_options"],
)
def test_an_unknown_setting_is_refused_with_the_valid_ones_listed(name):
    # The old flat names (search_mode, safety_seconds, turns_to_plan, search_options) are gone.
    with pytest.raises(ValueError, match=f"fogsearch has no setting '{name}'") as error:
        from_settings({name: 1})
    message = str(error.value)
    for valid in ("depth (int)", "mode (str)", "plan_turns (int)", "reserve_seconds (float)"):
        assert valid in message


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"depth": "abc"}, "depth=abc: abc is not an int"),
        ({"depth": 2.5}, "is not an int"),
        ({"depth": True}, "is not an int"),
        ({"mate_threats": "maybe"}, "is not a bool"),
        ({"max_turn_seconds": "fast"}, "is not a number"),
        ({"max_turn_seconds": False}, "is not a number"),
        ({"opening_as_black": 5}, "opening_as_black: '5' is not a UCI move"),
        ({"mode": "fast"}, "mode"),  # the right type, refused by SearchConfig's own check
        ({"tie_margin_cp": -1}, "tie_margin_cp"),
    ],
)
def test_a_setting_of_the_wrong_type_or_out_of_bounds_is_refused(settings, match):
    # Values typed on a command line arrive as text and are converted ({"depth": "2"} is 2).
    with pytest.raises(ValueError, match=match):
        from_settings(settings)
