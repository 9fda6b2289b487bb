"""The bench scripts that have no end-to-end run of their own (their full runs take minutes to
hours; their figures are in RESULTS.md) at least start: their imports resolve and their
arguments parse (``--help``), so a renamed or moved API shows here rather than at the next
measurement."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent

WITH_ARGUMENTS = [
    "jps_speedup",
    "jps_table1",
    "jps_table2",
    "rbc_memory",
    "rbc_speed",
    "search_fingerprint",
    "sketch_accuracy",
    "sketch_throughput",
    "ttcg_enumeration",
    "ttcg_gongzhu_wpg",
    "ttcg_mixing",
    "ttcg_ohhell_ismcts_resamplers",
    "ttcg_ohhell_match",
    "ttcg_resample",
    "ttcg_scaling_control",
    "ttcg_throughput",
    "ttcg_value_estimation",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, cwd=BENCH
    )


@pytest.mark.parametrize("script", WITH_ARGUMENTS)
def test_the_script_parses_its_arguments(script):
    done = run(f"{script}.py", "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout


def test_bot_overhead_imports():
    # It takes a bare game count, no --help; importing it resolves every name it uses at the top.
    done = run("-c", "import bot_overhead")
    assert done.returncode == 0, done.stderr[-2000:]


def test_every_script_is_started_somewhere():
    """A new bench script gets a smoke run: here or in one of bench/'s other test files."""
    tests = "".join(p.read_text() for p in BENCH.glob("test_*.py"))
    tests += "".join(p.read_text() for p in (BENCH.parent / "tests").glob("test_*.py"))
    scripts = {p.stem for p in BENCH.glob("*.py") if not p.stem.startswith(("test_", "conftest"))}
    helpers = {"rbc_data"}  # the cases other scripts read, not a script
    missing = sorted(s for s in scripts - helpers if s not in tests)
    assert missing == []
