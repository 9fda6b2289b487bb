"""Drives every public native function and method with extreme values, one argument at a time
with the others valid, and reports any outcome other than a return or an ``Exception``: a Rust
panic surfaces as ``PanicException``, a ``BaseException`` that ``except Exception`` misses, and an
allocation failure aborts the process. Run as a script (``python tests/extreme_inputs.py``) so that
an abort or a hang is caught by the parent; ``faulthandler`` names the call that hung.
"""

from __future__ import annotations

import faulthandler
import inspect
import math
import sys

import chess
import numpy as np

from fogsearch import _core
from fogsearch.search import SearchConfig

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


# A valid instance of each native class, whose methods are then driven.
INSTANCES = {
    "BoardSet": native_board_set,
    "CountSketch": lambda: _core.sketch.CountSketch(64, 3, 0),
    "TopK": lambda: _core.sketch.TopK(4, 64, 3, 0),
    "MinHash": lambda: _core.sketch.MinHash(16, 0),
    "Game": lambda: _core.jps.Game("mini_hanabi"),
    "Searcher": lambda: _core.search.Searcher(VALID["config"]),
}

MODULES = [_core.rbc, _core.search, _core.sketch, _core.jps]
SKIP = {"__reduce__"}


def valid(label: str, name: str):
    """A valid argument ``name`` of the call ``label``: an instance's own class for ``other``
    (merges, comparisons) and its own encoding for ``data``."""
    owner = label.split(".")[3] if label.count(".") >= 3 else ""
    if name == "other":
        return INSTANCES[owner]()
    if name == "data":
        return INSTANCES[owner]().to_bytes()
    return VALID[name]


def parameters(func) -> list[str]:
    signature = inspect.signature(func)
    return [p for p in signature.parameters if p not in ("self", "cls", "slf")]


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


def main() -> int:
    faulthandler.enable()
    failures = []
    count = 0
    for label, func, names in calls():
        unknown = [n for n in names if n not in VALID and n not in ("other", "data")]
        for name in unknown:
            failures.append(f"{label}: no valid value known for parameter {name!r}")
        if unknown:
            continue
        for at in range(len(names)):
            for extreme in EXTREMES:
                args = [valid(label, n) for n in names]
                args[at] = extreme
                count += 1
                # A call that hangs is named by the traceback dumped after 20 s.
                faulthandler.dump_traceback_later(20, exit=True)
                try:
                    func(*args)
                except Exception:  # noqa: BLE001 - every Exception is a proper answer
                    pass
                except BaseException as exc:  # noqa: BLE001 - what this file looks for
                    failures.append(f"{label} with {names[at]}={extreme!r:.40}: {exc!r:.200}")
                finally:
                    faulthandler.cancel_dump_traceback_later()
    for line in failures:
        print(line)
    print(f"{count} calls, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
