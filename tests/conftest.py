"""Shared test settings: property tests are derandomised (every run draws the same examples, so a
CI failure reproduces on any machine) and keep no example database between runs."""

from hypothesis import settings

settings.register_profile("fogsearch", derandomize=True, database=None, deadline=None)
settings.load_profile("fogsearch")
