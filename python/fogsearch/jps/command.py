"""``fogsearch jps``: CFR (or a random start) and Joint Policy Search over many seeds.

    fogsearch jps --game simple_bidding:n=8 --init cfr1k --seeds 1000 [--samples K] [--json]

prints the mean and best reward over seeds, the game's states and information sets (Table 1's
counts) and JPS's time per iteration; ``--json`` prints exactly
``{"mean", "best", "states", "infosets", "seconds_per_iteration"}``.
"""

from __future__ import annotations

import argparse
import json
import sys

from fogsearch._core.jps import MAX_SEEDS, JpsError
from fogsearch.arguments import UsageError, bounded_int, cores
from fogsearch.jps.game import load_game
from fogsearch.jps.seeds import run_seeds
from fogsearch.limits import MAX_THREADS

SEEDS = bounded_int(1, MAX_SEEDS, "each seed runs CFR and JPS once")
THREADS = bounded_int(1, MAX_THREADS, "more threads than cores only add switching")
SAMPLES = bounded_int(1, 10_000, "the paper samples at most 30; more is all states anyway")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "jps",
        help="Joint Policy Search (paper 002) over many seeds",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--game",
        required=True,
        help="comm:l=L (1-7), mini_hanabi, simple_bidding:n=N (2-64) or mini_bridge:n=N (1-6)",
    )
    p.add_argument(
        "--init",
        required=True,
        choices=["cfr1k", "random", "uniform"],
        help="start from the paper's CFR after 1,000 iterations, or from a random policy "
        "('uniform' is the old name of 'random')",
    )
    p.add_argument("--seeds", type=SEEDS, required=True, help="number of seeds (1-1000000)")
    p.add_argument(
        "--samples",
        type=SAMPLES,
        default=None,
        metavar="K",
        help="sample-based JPS with K states per information set (default: all states)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--threads",
        type=THREADS,
        default=None,
        help="worker threads (default: the cores this process may use; 1-256)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """A bad game or setting is a :class:`UsageError` (one line, exit 2); Ctrl-C stops the
    native run at once (``fogsearch: interrupted``, exit 130)."""
    try:
        game = load_game(args.game)
        if args.init == "uniform":
            print("fogsearch jps: --init uniform is now called --init random", file=sys.stderr)
        result = run_seeds(
            game,
            "random" if args.init == "uniform" else args.init,
            args.seeds,
            samples=args.samples,
            threads=args.threads if args.threads is not None else min(cores(), MAX_THREADS),
            progress=not args.no_progress and not args.json and sys.stderr.isatty(),
        )
    except JpsError as e:
        raise UsageError(str(e)) from None
    summary = result.summary()
    if args.json:
        print(json.dumps(summary))
        return 0
    depth = "full depth" if result.depth is None else f"depth {result.depth}"
    mode = "all states" if args.samples is None else f"{args.samples} samples per information set"
    print(f"{result.game}: {args.init} + JPS ({depth}, {mode}) over {args.seeds} seeds")
    print(f"  mean reward  {summary['mean']:.4f}   ({args.init} alone: {result.init_mean:.4f})")
    print(f"  best reward  {summary['best']:.4f}   ({args.init} alone: {result.init_best:.4f})")
    print(f"  states       {summary['states']}")
    print(f"  infosets     {summary['infosets']}")
    print(
        f"  time per JPS iteration  {summary['seconds_per_iteration']:.6f} s "
        f"({result.iterations.sum():.0f} iterations)"
    )
    return 0
