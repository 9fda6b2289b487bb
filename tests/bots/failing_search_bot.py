"""A fogsearch bot whose search always raises: it must survive on fallback moves, and the
tournament must store how many turns it played that way."""

from fogsearch.bot import FogsearchBot, FogsearchBotConfig, SenseRule


class FailingSearchBot(FogsearchBot):
    def __init__(self):
        # Senses by set size: a turn then takes no time, whatever the clock plan allows.
        super().__init__(FogsearchBotConfig(sensing=SenseRule(sense="size")))

    def _search_move(self, budget):
        raise RuntimeError("deliberate search failure")


def get_player():
    """FogsearchBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return FailingSearchBot
