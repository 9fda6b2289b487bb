"""Analyses of stored games: why the bot lost what it lost (:mod:`fogsearch.analysis.losses`)."""
