"""Opponents to measure bots against: players that are sound where reconchess's baselines are
not (:mod:`fogsearch.opponents.trout_set`), and where to find the Stockfish they use
(:mod:`fogsearch.opponents.stockfish`)."""
