"""The Searcher (tables kept from one search to the next), the paper's bound rule, parallel
search and the engine leaf, through the Python API."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

import chess
import pytest
from rbc_data import trout_turns

from fogsearch.search import SearchConfig, Searcher, SearchError, mean_reply_values, search

PAWNS = [
    "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
    "4k3/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
    "3k4/8/8/8/3p4/8/3PP3/4K3 w - - 0 1",
]
HAVE_STOCKFISH = any(
    os.access(Path(d) / "stockfish", os.X_OK)
    for d in [*os.environ.get("PATH", "").split(os.pathsep), "/usr/games"]
)


def consecutive_sets(count: int) -> list[list[str]]:
    """The sets the bot held before ``count`` consecutive moves of a recorded TroutBot game, in
    turn order, up to 40 boards each."""
    return next(iter(trout_turns(1, count, 40).values()))


def test_a_searcher_gives_the_values_of_fresh_searches_and_keeps_its_tables():
    config = SearchConfig(mode="exact", sense_mode="min_size")
    searcher = Searcher(config)
    sets = consecutive_sets(6)
    assert len(sets) == 6
    for round_ in range(2):
        for fens in sets:
            kept = searcher.search(fens, 2)
            fresh = search(fens, 2, config)
            assert kept.move_values == fresh.move_values
            assert kept.best_move == fresh.best_move and kept.depth == fresh.depth == 2
            if round_ == 1:
                # Met before: the kept tables answer for it.
                assert kept.stats.nodes < fresh.stats.nodes
    sizes = searcher.table_sizes()
    assert sizes["sets"] > 0 and sizes["replies"] > 0 and sizes["sketch_entries"] == 0
    searcher.clear()
    assert searcher.table_sizes() == {"sets": 0, "replies": 0, "sketch_entries": 0}
    assert "Searcher(" in repr(searcher)


def test_a_searchers_time_limit_is_per_search():
    searcher = Searcher(SearchConfig(mode="exact", time_limit=60.0))
    quick = searcher.search([chess.STARTING_FEN], 6, time_limit=0.2)
    assert 1 <= quick.depth < 6
    exact = searcher.search(PAWNS[:1], 1, time_limit=None)
    assert exact.depth == 1
    with pytest.raises(ValueError, match="time_limit"):
        searcher.search(PAWNS[:1], 1, time_limit=-1.0)
    with pytest.raises(ValueError, match="time_limit"):
        searcher.search(PAWNS[:1], 1, time_limit=True)
    with pytest.raises(ValueError, match="depth"):
        searcher.search(PAWNS[:1], 0)


def test_a_searcher_is_not_picklable_and_checks_its_config():
    with pytest.raises(TypeError):
        pickle.dumps(Searcher())
    with pytest.raises(TypeError, match="SearchConfig"):
        Searcher(config={"mode": "exact"})  # type: ignore[arg-type]


def test_the_timeline_is_the_papers_anytime_view():
    result = search(PAWNS, 2, SearchConfig(mode="exact", sense_mode="min_size"))
    assert [c.request for c in result.timeline] == list(result.move_values)
    assert all(c.depth == 2 and c.nodes > 0 for c in result.timeline)
    assert [c.value for c in result.timeline] == list(result.move_values.values())
    seconds = [c.seconds for c in result.timeline]
    assert seconds == sorted(seconds)


def test_a_root_margin_keeps_the_best_and_the_values_within_it_on_recorded_sets():
    proven_below = 0
    for fens in consecutive_sets(4):
        full = search(fens, 2, SearchConfig(mode="exact", sense_mode="min_size"))
        assert full.below_margin == frozenset()
        for margin in (0, 40):
            config = SearchConfig(mode="exact", sense_mode="min_size", root_margin=margin)
            result = search(fens, 2, config)
            assert (result.best_move, result.value) == (full.best_move, full.value)
            cap = full.value - margin - 1
            for request, value in full.move_values.items():
                if value > cap:
                    assert result.move_values[request] == value
                    assert request not in result.below_margin
                else:
                    assert result.move_values[request] == cap
                    assert request in result.below_margin
            bounded = {c.request for c in result.timeline if not c.exact}
            assert bounded <= result.below_margin
            threaded = search(fens, 2, SearchConfig(**{**vars(config), "threads": 2}))
            assert threaded.move_values == result.move_values
            assert threaded.below_margin == result.below_margin
            proven_below += len(result.below_margin)
    assert proven_below > 0


@pytest.mark.parametrize("margin", [-1, 100_001, True, 2.5, "0"])
def test_a_root_margin_out_of_its_bounds_is_refused_by_name(margin):
    with pytest.raises(SearchError, match="root_margin"):
        SearchConfig(root_margin=margin)


@pytest.mark.parametrize("threads", [2, 3])
def test_parallel_values_equal_serial_values_on_recorded_sets(threads):
    for fens in consecutive_sets(4):
        for mode in ("none", "exact"):
            config = SearchConfig(mode=mode, sense_mode="min_size")
            one = search(fens, 2, config)
            many = search(fens, 2, SearchConfig(mode=mode, sense_mode="min_size", threads=threads))
            assert one.move_values == many.move_values


def test_the_point_rule_runs_and_reports_its_bounds():
    base = search(PAWNS, 2, SearchConfig(mode="none"))
    point = search(PAWNS, 2, SearchConfig(mode="sketch", bound_rule="point", threshold=0.8))
    assert point.move_values.keys() == base.move_values.keys()
    assert point.stats.bounds_used + point.stats.table_hits > 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"bound_rule": "exact"}, "bound_rule"),
        ({"table_entries": 0}, "table_entries must be between 1 and 134217728"),
        ({"reply_entries": 2**40}, "reply_entries"),
        ({"uci_depth": 0}, "uci_depth"),
        ({"uci_depth": 41}, "uci_depth"),
        ({"uci_nodes": -1}, "uci_nodes"),
        ({"uci_nodes": 10**9}, "uci_nodes"),
        ({"leaf": "uci", "uci_engine": "no-such-engine-fogsearch"}, "no-such-engine-fogsearch"),
        ({"uci_engine": 7}, "uci_engine"),
    ],
)
def test_new_settings_are_checked_where_they_enter(kwargs, message):
    with pytest.raises(SearchError, match=message):
        SearchConfig(**kwargs)


@pytest.mark.skipif(not HAVE_STOCKFISH, reason="needs Stockfish (scripts/install.sh)")
def test_the_uci_leaf_takes_a_hanging_queen_and_leaves_no_engine_behind():
    hanging = ["4k3/8/8/8/3q4/5N2/PP6/4K3 w - - 0 1", "3k4/8/8/8/3q4/5N2/PP6/4K3 w - - 0 1"]
    config = SearchConfig(leaf="uci", uci_depth=4, threads=2)
    result = search(hanging, 1, config)
    assert result.best_move == chess.Move.from_uci("f3d4")
    assert result.value > 300
    assert engine_children() == []
    searcher = Searcher(config)
    first = searcher.search(hanging, 1)
    assert len(engine_children()) >= 1  # kept for the next search
    # Scores are cached by position: the engine is not asked again. (An engine's scores depend on
    # what its hash table holds, so a fresh search may differ from this one by a few centipawns.)
    again = searcher.search(hanging, 1)
    assert again.stats.leaf_evaluations == 0 and again.move_values == first.move_values
    del searcher
    assert engine_children() == []
    with pytest.raises(SearchError, match="uci"):
        mean_reply_values(hanging, leaf="uci")


def engine_children() -> list[int]:
    """Process ids of this process's engine children. Only engines count: a test that ran
    before (a tournament with workers) leaves multiprocessing's resource tracker as a child."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, fields = text.split("(", 1)[1].rsplit(")", 1)[0], text.rsplit(")", 1)[1].split()
        if int(fields[1]) == os.getpid() and "stockfish" in name.lower():
            found.append(int(stat.parent.name))
    return found


def test_a_searcher_in_use_by_another_thread_raises_concurrent_use_error():
    import threading

    from fogsearch import ConcurrentUseError

    searcher = Searcher(SearchConfig(mode="exact", sense_mode="min_size"))
    started = threading.Event()

    def long_search():
        started.set()
        searcher.search([chess.STARTING_FEN], 8, time_limit=2.0)

    worker = threading.Thread(target=long_search)
    worker.start()
    started.wait()
    seen = False
    while worker.is_alive() and not seen:
        try:
            searcher.clear()
        except ConcurrentUseError:
            seen = True
        time.sleep(0.01)
    worker.join()
    assert seen
