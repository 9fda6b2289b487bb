"""``fogsearch bench``: runs the benchmark and speed-up scripts of a source checkout's ``bench/``.

The scripts are named ``bench/<area>_<what>.py`` (areas: rbc, sketch, search, ttcg, jps); each
prints its table, writes its plots under ``bench/plots/`` and says what to paste into
``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from fogsearch.arguments import UsageError

AREAS = ("rbc", "sketch", "search", "ttcg", "jps")


def bench_dir() -> Path:
    """The checkout's ``bench/`` folder (the package is installed editable from ``python/``)."""
    candidate = Path(__file__).resolve().parents[2] / "bench"
    if not candidate.is_dir():
        raise FileNotFoundError(
            f"no bench/ folder next to the package ({candidate}); "
            "run `fogsearch bench` from an editable install of a source checkout"
        )
    return candidate


def scripts(areas: list[str]) -> list[Path]:
    folder = bench_dir()
    return [p for area in areas for p in sorted(folder.glob(f"{area}_*.py"))]


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("bench", help="run the benchmark and speed-up scripts in bench/")
    p.add_argument(
        "areas", nargs="*", metavar="AREA", help=f"areas to run: {', '.join(AREAS)} (default: all)"
    )
    p.add_argument("--list", action="store_true", help="list the scripts instead of running them")
    # Arguments for the scripts come after `--` (split off by fogsearch.cli.main): an argparse
    # REMAINDER here swallowed `--list` after an area, and `bench ttcg --list` ran every script.
    p.set_defaults(handler=run, accepts_passthrough=True)


def run(args: argparse.Namespace) -> int:
    unknown = sorted(set(args.areas) - set(AREAS))
    if unknown:
        raise UsageError(f"unknown bench areas {unknown}; choose from {', '.join(AREAS)}")
    try:
        chosen = scripts(args.areas or list(AREAS))
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    if not chosen:
        print(f"no bench scripts found for {args.areas}", file=sys.stderr)
        return 1
    if args.list:
        print("\n".join(str(p) for p in chosen))
        return 0
    extra = list(args.passthrough)
    failures = 0
    for script in chosen:
        print(f"== {script.name}", flush=True)
        failures += subprocess.call([sys.executable, str(script), *extra], cwd=script.parent) != 0
    return 1 if failures else 0
