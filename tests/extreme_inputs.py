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
    "data": None,  # filled below with a real encoding
}


def native_board_set() -> _core.rbc.BoardSet:
    return _core.rbc.BoardSet(False, None, 1, None)


VALID["data"] = native_board_set().to_bytes()

MODULES = [_core.rbc, _core.search]
SKIP = {"__reduce__"}


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
                instance = {
                    "BoardSet": native_board_set,
                    "Searcher": lambda: _core.search.Searcher(VALID["config"]),
                }.get(name, obj)()
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
        for name in names:
            if name not in VALID:
                failures.append(f"{label}: no valid value known for parameter {name!r}")
        if any(name not in VALID for name in names):
            continue
        for at in range(len(names)):
            for extreme in EXTREMES:
                args = [VALID[n] for n in names]
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
