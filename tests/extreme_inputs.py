"""Drives every public native function and method with extreme values, one argument at a time
with the others valid, and reports any outcome other than a return or an ``Exception``: a Rust
panic surfaces as ``PanicException``, a ``BaseException`` that ``except Exception`` misses, and an
allocation failure aborts the process. A call still running after 5 s gets a Ctrl-C (SIGINT) and must
stop with ``KeyboardInterrupt`` (long but bounded runs are allowed; ones that ignore Ctrl-C are
not). Run as a script (``python tests/extreme_inputs.py``) so that an abort or a hang is caught by
the parent; the call that hung is named.
"""

from __future__ import annotations

import faulthandler
import inspect
import math
import os
import signal
import sys
import threading
import time

import chess
import numpy as np

from fogsearch import _core
from fogsearch.search import SearchConfig
from fogsearch.ttcg import OhHellGame
from fogsearch.ttcg.observation import observe

START = chess.STARTING_FEN
EXTREMES = [
    0,
    -1,
    2**31,
    2**63 - 1,
    2**64,
    -(2**63),
    10**30,
    0.0,
    -1.0,
    1e300,
    math.nan,
    math.inf,
    -math.inf,
    True,
    "",
    "x" * 10_000,
    None,
    [],
    [2**64],
    b"",
    object(),
]

# A valid value per parameter name, so that each call differs from a valid one in one argument.
VALID = {
    "fen": START,
    "uci": "e2e4",
    "depth": 1,
    "boards": [START],
    "config": SearchConfig(mode="exact", sense_mode="min_size"),
    "requests": None,
    "leaf": "static",
    "mate_threats": False,
    "plies": 1,
    "model": (100.0, 0.1, 0.0),
    "settings": (100.0, 0.1, 0.0),
    "least_plies": 0,
    "engine": "stockfish",
    "nodes": 0,
    "most_plies": 1,
    "time_limit": 1.0,
    "white": True,
    "fens": None,
    "threads": 1,
    "max_boards": None,
    "captured_my_piece": False,
    "capture_square": None,
    "result": [],
    "requested": None,
    "taken": None,
    "captured_opponent_piece": False,
    "index": 0,
    "indices": [0],
    # sketches
    "width": 64,
    "seed": 0,
    "k": 4,
    "kind": "bottom_k",
    "keys": np.arange(10, dtype=np.uint64),
    "weights": None,
    "key": 5,
    "jaccard": 0.5,
    "size_a": 10.0,
    "size_b": 10.0,
    "size_self": 10.0,
    "size_other": 10.0,
    # jps (Mini-Hanabi: 24 action probabilities)
    "name": "mini_hanabi",
    "game": _core.jps.Game("mini_hanabi"),
    "probs": np.full(24, 1 / 3),
    "policy": np.full(24, 1 / 3),
    "old": np.full(24, 1 / 3),
    "new": np.full(24, 1 / 3),
    "iterations": 3,
    "plus": False,
    "alternating": False,
    "start": "uniform",
    "exploration": 0.0,
    "samples": None,
    "starts": [0],
    "init": "cfr",
    "cfr_iterations": 3,
    "searches": [(False, None, None, 2)],
    "first_seed": 0,
    "count": 1,
    "player": 0,
    "action": 0,
}


def native_board_set() -> _core.rbc.BoardSet:
    return _core.rbc.BoardSet(False, None, 1, None)


# ---- ttcg: a small Oh Hell deal with two bids and a card played, a Gongzhu deal one card in ----
OHHELL = {"players": 3, "num_suits": 2, "num_cards_per_suit": 4, "num_tricks_fixed": 2}


def _advanced(state, actions: int):
    """``state`` past its chance nodes and with at least ``actions`` actions in its history."""
    while state.is_chance_node() or len(state.history()) < actions:
        state.apply_action(state.legal_actions()[0])
    return state


OH_STATE = _advanced(_core.ttcg.OhHellState(OHHELL), 14)
GONGZHU = _advanced(_core.ttcg.GongzhuState(), 53)
OH_RANGE = _core.ttcg.ObservedRange(OHHELL, OH_STATE.history(), 0)
OH_DEALS = OH_RANGE.uniform(2, 0)
OH_CONSTRAINTS = observe(OhHellGame(**OHHELL), OH_STATE.history(), 0).constraints

# The card games' parameters share names with other areas' (``params``, ``actions``,
# ``policy``, ``game``): their valid values are looked up here first, by module.
TTCG_VALID = {
    "constraints": OH_CONSTRAINTS,
    "params": OHHELL,
    "actions": OH_STATE.history(),
    "histories": [OH_STATE.history()],
    "observer": 0,
    "policy": None,
    "limit": 1000,
    "assignments": OH_DEALS,
    "assignment": list(OH_DEALS[0]),
    "seed": 0,
    "threads": 1,
    "player": 0,
    "action": OH_STATE.legal_actions()[0],
    "state": GONGZHU,
    "players": [_core.ttcg.Player.random()] * 4,
    "games": 1,
    "episodes": 10,
    "epsilon": 0.1,
    "alpha": 0.05,
    "bias": 0.5,
    "beta": 1.0,
    "hands": GONGZHU.dealt_hands(),
    "sampler": "us",
    "n": 2,
    "iec_beta": 0.015,
    "model_beta": None,
    "key_cards": 2,
    "strata": "exact",
    "chains": 1,
    "num_chains": 1,
    "draws": 1,
    "burn_in": 1,
    "thin": 1,
    "starts": None,
    "kernel": "ringswap",
    "game": "oh_hell",
    "deals": 2,
    "iterations": 8,
    "seconds": None,
    "exploration": None,
    "shared_tree": None,
}
# Calls whose arguments are Gongzhu's rather than Oh Hell's.
LABEL_VALID = {
    "fogsearch._core.ttcg.GongzhuState.from_actions": {"actions": GONGZHU.history()},
    "fogsearch._core.ttcg.GongzhuState.apply_action": {"action": GONGZHU.legal_actions()[0]},
    "fogsearch._core.ttcg.observe_gongzhu": {"actions": GONGZHU.history()},
    "fogsearch._core.ttcg.Player.search": {"game": "gongzhu", "params": None},
    # One request row over the one board of VALID["boards"].
    "fogsearch._core.search.decision_sense_values": {
        "utilities": np.zeros((1, 1)),
        "weights": np.ones(1),
        "mean_weight": 0.5,
    },
}

# A valid instance of each native class, whose methods are then driven.
INSTANCES = {
    "BoardSet": native_board_set,
    "CountSketch": lambda: _core.sketch.CountSketch(64, 3, 0),
    "TopK": lambda: _core.sketch.TopK(4, 64, 3, 0),
    "MinHash": lambda: _core.sketch.MinHash(16, 0),
    "Game": lambda: _core.jps.Game("mini_hanabi"),
    "Searcher": lambda: _core.search.Searcher(VALID["config"]),
    # scripts/install.sh installs Debian's Stockfish, which every run of the suite has.
    "EngineJudge": lambda: _core.search.EngineJudge("stockfish", 1, 0),
    "TabularPolicy": lambda: _core.ttcg.TabularPolicy.q_learning(OHHELL, 10),
    "BuiltinPolicy": _core.ttcg.BuiltinPolicy.uniform,
    "GongzhuModel": lambda: _core.ttcg.GongzhuModel.greed(1.0),
    "OhHellState": lambda: _advanced(_core.ttcg.OhHellState(OHHELL), 14),
    "GongzhuState": lambda: _advanced(_core.ttcg.GongzhuState(), 53),
    "CardState": lambda: _advanced(_core.ttcg.CardState("hearts"), 60),
    "Resampler": lambda: _core.ttcg.Resampler(OHHELL, OH_STATE.history(), 0),
    "ObservedRange": lambda: _core.ttcg.ObservedRange(OHHELL, OH_STATE.history(), 0),
    "Player": _core.ttcg.Player.random,
}

MODULES = [_core.rbc, _core.search, _core.sketch, _core.jps, _core.ttcg]
SKIP = {"__reduce__"}


def valid(label: str, name: str):
    """A valid argument ``name`` of the call ``label``: an instance's own class for ``other``
    (merges, comparisons) and its own encoding for ``data``."""
    owner = label.split(".")[3] if label.count(".") >= 3 else ""
    if name == "other":
        return INSTANCES[owner]()
    if name == "data":
        return INSTANCES[owner]().to_bytes()
    if name in LABEL_VALID.get(label, {}):
        return LABEL_VALID[label][name]
    if label.startswith("fogsearch._core.ttcg.") and name in TTCG_VALID:
        return TTCG_VALID[name]
    return VALID[name]


def parameters(func) -> list[str]:
    """The named parameters; ``**settings`` (the card search's and the samplers') is left out:
    its values are checked by the core's config, whose bounds tests/test_ttcg_registry.py and
    tests/test_ttcg_hearts.py probe."""
    signature = inspect.signature(func)
    return [
        name
        for name, p in signature.parameters.items()
        if name not in ("self", "cls", "slf") and p.kind is not inspect.Parameter.VAR_KEYWORD
    ]


def calls():
    """``(label, function, argument names)`` for every public native callable."""
    for module in MODULES:
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue
            if isinstance(obj, type):
                yield f"{module.__name__}.{name}", obj, parameters(obj)
                instance = INSTANCES[name]()
                for method_name, method in inspect.getmembers(obj):
                    if method_name.startswith("_") or method_name in SKIP:
                        continue
                    if callable(method):
                        bound = getattr(instance, method_name)
                        yield f"{module.__name__}.{name}.{method_name}", bound, parameters(bound)
            elif callable(obj):
                yield f"{module.__name__}.{name}", obj, parameters(obj)


class Watchdog:
    """Sends the process SIGINT (a user's Ctrl-C) when a call has run ``patience`` seconds, and
    names the call and exits if it is still running ``grace`` seconds later. A call may be long
    within its documented bounds (a Gibbs run of 2^31 transitions takes minutes), but every long
    call must stop on Ctrl-C; one that does not is a hang."""

    def __init__(self, call: str, patience: float = 5.0, grace: float = 15.0):
        self.call = call
        self.interrupted = False
        self._started = time.monotonic()
        self._interrupted_at: float | None = None
        self._timers = [
            threading.Timer(patience, self._interrupt),
            threading.Timer(patience + grace, self._hung),
        ]
        for timer in self._timers:
            timer.start()

    def _interrupt(self) -> None:
        self.interrupted = True
        self._interrupted_at = time.monotonic() - self._started
        os.kill(os.getpid(), signal.SIGINT)

    def _hung(self) -> None:
        # What a reader needs to find why: when the Ctrl-C went out, what Python's SIGINT
        # handler and this thread's blocked signals were, and where every thread stood.
        sent = "never" if self._interrupted_at is None else f"at {self._interrupted_at:.1f} s"
        print(
            f"{self.call}: still running after Ctrl-C (sent {sent}, now at "
            f"{time.monotonic() - self._started:.1f} s; SIGINT handler "
            f"{signal.getsignal(signal.SIGINT)!r}, blocked here {signal.pthread_sigmask(signal.SIG_BLOCK, [])})",
            flush=True,
        )
        faulthandler.dump_traceback(file=sys.stdout, all_threads=True)
        sys.stdout.flush()
        os._exit(3)

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()


def main() -> int:
    # A run started in the background (`command &` in a script) inherits SIGINT ignored, and
    # Python then leaves it ignored: the watchdog's Ctrl-C must reach Python's handler, as a
    # user's does at a terminal. (Runs launched so failed here with "SIGINT handler SIG_IGN".)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    faulthandler.enable()
    failures = []
    long_calls = []  # stopped by the watchdog's Ctrl-C after running 5 s
    count = 0
    for label, func, names in calls():
        known = set(VALID) | set(TTCG_VALID) | set(LABEL_VALID.get(label, {})) | {"other", "data"}
        unknown = [n for n in names if n not in known]
        for name in unknown:
            failures.append(f"{label}: no valid value known for parameter {name!r}")
        if unknown:
            continue
        for at in range(len(names)):
            for extreme in EXTREMES:
                args = [valid(label, n) for n in names]
                args[at] = extreme
                count += 1
                # Native calls release the GIL, so the watchdog's thread runs during them;
                # faulthandler's traceback is the fallback for a call that holds the GIL.
                call = f"{label} with {names[at]}={extreme!r:.40}"
                watchdog = Watchdog(call)
                faulthandler.dump_traceback_later(30, exit=True)
                try:
                    func(*args)
                except Exception:  # noqa: BLE001 - every Exception is a proper answer
                    pass
                except KeyboardInterrupt:
                    if not watchdog.interrupted:
                        failures.append(f"{call}: KeyboardInterrupt without a Ctrl-C")
                    long_calls.append(call)
                except BaseException as exc:  # noqa: BLE001 - what this file looks for
                    failures.append(f"{call}: {exc!r:.200}")
                finally:
                    watchdog.cancel()
                    faulthandler.cancel_dump_traceback_later()
    for line in long_calls:
        print(f"long, stopped by Ctrl-C: {line}")
    for line in failures:
        print(line)
    print(f"{count} calls, {len(long_calls)} stopped by Ctrl-C, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
