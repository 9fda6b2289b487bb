"""Player settings from the command line, checked and converted against a config dataclass by
introspection: flat names for nested configs' fields, values converted to each field's type, and
one-line errors that list what is allowed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from fogsearch.arguments import UsageError
from fogsearch.search import SearchConfig
from fogsearch.settings import config_from_settings, describe_settings
from fogsearch.tournament import PlayerSpec


@dataclass
class BotConfig:
    """The shape the bot's config is moving to: its search settings in a nested SearchConfig,
    whose default is not SearchConfig's own."""

    depth: int = 2
    seed: int = 0
    check_weight: float = 1.0
    mate_threats: bool = True
    opening: str = "g8f6 e7e6"
    budget: float | None = None
    search: SearchConfig = field(default_factory=lambda: SearchConfig(mode="exact", k=32))

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be an integer >= 1, got {self.depth}")


def build(**settings: Any) -> BotConfig:
    return config_from_settings(BotConfig, settings, "bot")


def test_nested_fields_take_their_own_flat_names_and_keep_the_outer_default():
    config = build(depth="3", mode="sketch", threshold="0.9")
    assert config.depth == 3
    assert config.search.mode == "sketch" and config.search.threshold == 0.9
    assert config.search.k == 32  # the outer default's value, not SearchConfig's 64
    assert build().search == SearchConfig(mode="exact", k=32)


def test_an_outer_name_wins_and_the_nested_one_is_reached_dotted():
    config = build(seed=5, **{"search.seed": 9})
    assert config.seed == 5 and config.search.seed == 9
    with pytest.raises(UsageError, match="given twice"):
        build(mode="none", **{"search.mode": "exact"})


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"depth": 4}, {"depth": 4}),  # as JSON read it
        ({"check_weight": "2"}, {"check_weight": 2.0}),
        ({"check_weight": 3}, {"check_weight": 3.0}),
        ({"mate_threats": "false"}, {"mate_threats": False}),
        ({"mate_threats": "yes"}, {"mate_threats": True}),
        ({"opening": ""}, {"opening": ""}),
        ({"budget": "none"}, {"budget": None}),
        ({"budget": "1.5"}, {"budget": 1.5}),
        ({"time_limit": 2}, {}),
    ],
)
def test_values_are_converted_to_the_fields_type(settings, expected):
    config = build(**settings)
    for name, value in expected.items():
        assert getattr(config, name) == value and type(getattr(config, name)) is type(value)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"depth": "abc"}, "bot setting depth=abc: abc is not an int (depth is int)"),
        ({"depth": 2.5}, "depth=2.5: 2.5 is not an int"),
        ({"depth": True}, "True is not an int"),
        ({"mate_threats": "maybe"}, "maybe is not a bool (true or false)"),
        ({"budget": "soon"}, "budget is float or none"),
        ({"k": "many"}, "bot setting k=many: many is not an int"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_with_its_type(settings, message):
    with pytest.raises(UsageError) as exc:
        build(**settings)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_an_unknown_setting_lists_every_setting_with_its_type():
    with pytest.raises(UsageError) as exc:
        build(bogus=1)
    text = str(exc.value)
    assert text.startswith("bot has no setting 'bogus'; its settings are depth (int), seed (int)")
    assert "budget (float or none)" in text and "mode (str)" in text and "k (int)" in text
    assert "search.seed (int)" in text  # hidden by the outer seed: listed by its dotted name
    assert "\n" not in text


def test_values_the_config_refuses_report_its_own_message():
    with pytest.raises(UsageError, match="refused: depth must be an integer >= 1, got 0"):
        build(depth=0)
    with pytest.raises(UsageError, match="refused: invalid search config: k must be between 1"):
        build(k=0)


def test_a_config_whose_nested_type_is_not_resolvable_is_nested_by_its_default():
    @dataclass
    class Unresolved:
        depth: int = 1
        search: NotImportedHere = field(default_factory=SearchConfig)  # noqa: F821

    config = config_from_settings(Unresolved, {"k": 8, "depth": 2}, "bot")
    assert config.search.k == 8 and config.depth == 2
    assert describe_settings(Unresolved).startswith("depth (int), mode (str), threshold (float)")


def test_the_fogsearch_bots_settings_are_read_by_its_own_config():
    """The bot's config says which of its fields are settings (nested ones by their own names)."""
    config = PlayerSpec.parse("fogsearch:depth=3,mode=sketch,plan_turns=30").fogsearch_config()
    assert config.depth == 3 and config.search.mode == "sketch" and config.clock.plan_turns == 30
    with pytest.raises(UsageError, match="fogsearch setting depth=abc: abc is not an int"):
        PlayerSpec.parse("fogsearch:depth=abc").check()
    with pytest.raises(UsageError, match="fogsearch has no setting 'bogus'; its settings are "):
        PlayerSpec.parse("fogsearch:bogus=1").check()
    with pytest.raises(UsageError, match="tie_margin_cp must be a non-negative integer"):
        PlayerSpec.parse("fogsearch:tie_margin_cp=-1").check()
