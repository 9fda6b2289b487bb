"""Every test under bench/ is a benchmark script's smoke run: marked ``bench_smoke`` and left out
of the default run (``testpaths`` is tests/ only); ``scripts/test.sh`` runs them as their own step
(``python3 -m pytest bench``)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.bench_smoke)
