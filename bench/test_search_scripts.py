"""The search's bench scripts run end to end on tiny inputs (their figures are in RESULTS.md)."""

import pytest
from script_runs import run_script
from test_search_searcher import HAVE_STOCKFISH


def run(script: str, *args: str) -> str:
    return run_script(script, *args, timeout=300)


def test_search_speedup_prints_the_papers_columns_and_the_anytime_view(tmp_path):
    timings = tmp_path / "timings.jsonl"
    args = ["--depths", "2", "--sets", "0", "--sense-mode", "min_size"]
    args += ["--modes", "--grid", "sketch:bound_rule=point", "threshold=0.9,1.0"]
    args += ["--timings", str(timings), "--jobs", "2", "--plot", str(tmp_path / "p.png")]
    out = run("search_speedup.py", *args)
    assert "| 2 | start | sketch:bound_rule=point,threshold=0.9 |" in out
    assert "paper's criterion" in out and "anytime view" in out
    # A re-run takes every search from the timings file.
    again = run("search_speedup.py", *args)
    assert "3 of 3 searches taken" in again


def test_search_speedup_compares_kept_tables_with_fresh_searches(tmp_path):
    out = run(
        "search_speedup.py",
        "--depths",
        "1",
        "--kept",
        "2",
        "--games",
        "1",
        "--max-boards",
        "8",
        "--sense-mode",
        "min_size",
        "--modes",
        "exact",
        "--plot",
        str(tmp_path / "p.png"),
    )
    assert "kept tables" in out and "| 1 | all 1 | exact |" in out


def test_search_threads_and_search_deep_run():
    out = run(
        "search_threads.py",
        "--workloads",
        "start-d3-min",
        "--modes",
        "exact",
        "--repeats",
        "1",
        "--no-expansion",
    )
    assert "| start-d3-min | exact | 2 |" in out
    out = run("search_deep.py", "--depth", "3", "--sense-mode", "min_size", "--seconds", "60")
    assert "depth 3 completed" in out


def test_shared_cores_times_one_search_alone_and_two_at_once():
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two cores")
    out = run("shared_cores.py", "--workload", "start-d3-min", "--repeats", "1")
    assert "one search alone on core" in out and "two at once / alone (medians)" in out


@pytest.mark.skipif(not HAVE_STOCKFISH, reason="needs Stockfish (scripts/install.sh)")
def test_search_uci_leaf_runs():
    out = run(
        "search_uci_leaf.py",
        "--depths",
        "1",
        "--nodes",
        "100",
        "--sets",
        "1",
        "--compare-depths",
        "1",
    )
    assert "ms per leaf" in out


@pytest.mark.skipif(not HAVE_STOCKFISH, reason="needs Stockfish (scripts/install.sh)")
def test_engine_judge_bench_runs():
    args = "--sets 1 --boards 16 --depths 1 --plies 1 --threads 1".split()
    out = run("engine_judge.py", *args)
    assert "| engine, depth 1 | 1 |" in out and "| alpha-beta, 1 plies | 1 |" in out
