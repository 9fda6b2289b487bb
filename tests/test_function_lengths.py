"""The core's functions stay short (issue 48): none over 100 lines outside its tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "function_lengths.py"


def lengths(limit: int) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(ROOT / "rust" / "fogsearch-core" / "src"), str(limit)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_core_function_is_over_100_lines():
    run = lengths(100)
    assert run.returncode == 0, f"functions over 100 lines:\n{run.stdout}"


def test_the_count_sees_the_core_functions():
    # With a low limit the longest production functions are listed (the count is not blind).
    run = lengths(40)
    rows = run.stdout.splitlines()
    assert run.returncode == 1 and rows
    assert all(".rs:" in row for row in rows)
    assert not any("tests.rs" in row or "test_walk.rs" in row for row in rows)
