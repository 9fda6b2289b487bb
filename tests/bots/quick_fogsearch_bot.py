"""The fogsearch bot with short turns, for reconchess's own scripts (which give every bot the
clock's 5 s increment, which the default clock plan would spend)."""

from fogsearch.bot import ClockPlan, FogsearchBot, FogsearchBotConfig


class QuickFogsearchBot(FogsearchBot):
    def __init__(self):
        super().__init__(
            FogsearchBotConfig(clock=ClockPlan(min_turn_seconds=0.05, max_turn_seconds=0.2))
        )


def get_player():
    """FogsearchBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return QuickFogsearchBot
