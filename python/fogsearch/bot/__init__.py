"""fogsearch's reconchess bot: exact board-set tracking, set-shrinking senses, and moves from the
information-set search under the official clock.

Load it with reconchess's own tools::

    rc-bot-match fogsearch.bot reconchess.bots.random_bot
    rc-connect fogsearch.bot ...

Modules: :mod:`~fogsearch.bot.config` (the settings), :mod:`~fogsearch.bot.player` (the
callbacks), :mod:`~fogsearch.bot.tracker` (the board set and its observation log),
:mod:`~fogsearch.bot.requests` (request choice), :mod:`~fogsearch.bot.clock` (time per turn).
"""

from fogsearch.bot.config import (
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
from fogsearch.bot.player import FogsearchBot
from fogsearch.bot.turnlog import format_turn

__all__ = [
    "ClockPlan",
    "FogsearchBot",
    "FogsearchBotConfig",
    "OpeningLine",
    "OpponentModel",
    "ProgressRule",
    "SenseRule",
    "SetLimits",
    "SmallSets",
    "TieBreak",
    "format_turn",
]


def get_player():
    """Tells reconchess's ``load_player`` which class in this module is the bot."""
    return FogsearchBot
