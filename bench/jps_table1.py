"""Table 1 of paper 002: CFR1k and CFR1k+JPS on the eleven tabular games, over many seeds.

For each seed: the paper's CFR (1,000 iterations, simultaneous updates from a random start),
its purified last iterate (the "CFR1k" row), then full-state JPS at the paper's depth twice from
the same CFR run: from the raw last iterate (what the paper's code does; the "CFR1k+JPS" row) and
from the purified policy. Each game's results are written to ``--out`` (JSON, one object per game,
merged with what is there, so an interrupted run resumes) and printed as a markdown table.

    python bench/jps_table1.py                               # all games, 1,000 seeds each
    python bench/jps_table1.py --games comm:l=7 --seeds 200  # one game, fewer seeds
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from fogsearch.arguments import cores
from fogsearch.jps import load_game, run_seeds_many

#: Table 1 of the paper: game -> (CFR1k, CFR1k+JPS, best known).
PAPER = {
    "comm:l=3": (0.89, 1.00, 1.00),
    "comm:l=5": (0.85, 1.00, 1.00),
    "comm:l=6": (0.85, 1.00, 1.00),
    "comm:l=7": (0.85, 1.00, 1.00),
    "mini_hanabi": (9.11, 9.50, 10.0),
    "simple_bidding:n=4": (2.18, 2.20, 2.25),
    "simple_bidding:n=8": (4.96, 5.00, 5.06),
    "simple_bidding:n=16": (10.47, 10.56, 10.75),
    "mini_bridge:n=3": (1.01, 1.07, 1.13),
    "mini_bridge:n=4": (1.62, 1.71, 1.84),
    "mini_bridge:n=5": (2.60, 2.74, 2.89),
}

DEFAULT_OUT = Path(__file__).resolve().parent / "out" / "jps_table1.json"


def measure(name: str, seeds: int, threads: int) -> dict:
    game = load_game(name)
    settings = [{"purify_start": False}, {"purify_start": True}]
    wall = time.time()
    cpu = time.process_time()
    raw, pure = run_seeds_many(game, "cfr1k", seeds, settings, threads=threads, progress=True)
    cpu = time.process_time() - cpu
    wall = time.time() - wall
    best_known = PAPER[name][2]

    def reached(values: np.ndarray) -> int:
        # Table 1 prints two decimals: a seed "reaches" the best known value when it is within
        # half a unit of the last one (Mini-Bridge N = 3 pays multiples of 1/16: its 1.125 is
        # printed 1.12 and 1.13 in the paper).
        return int((values >= best_known - 0.005).sum())

    def row(r) -> dict:
        iterations = float(r.iterations.sum())
        return {
            "mean": r.mean,
            "std": float(r.values.std()),
            "best": r.best,
            "seeds_at_best_known": reached(r.values),
            "iterations_per_seed": iterations / seeds,
            "seconds_per_iteration": r.seconds_per_iteration,
            "links_per_iteration": float(r.links.sum()) / max(iterations, 1.0),
            "states_visited_per_iteration": float(r.states_visited.sum()) / max(iterations, 1.0),
        }

    return {
        "game": name,
        "seeds": seeds,
        "threads": threads,
        "states": game.num_states,
        "infosets": game.num_infosets,
        "depth": game.paper_depth,
        "cfr1k": {
            "mean": raw.init_mean,
            "std": float(raw.init_values.std()),
            "best": raw.init_best,
            "seeds_at_best_known": reached(raw.init_values),
            "seconds_per_seed": float(raw.init_seconds.mean()),
        },
        "jps_raw_start": row(raw),
        "jps_purified_start": row(pure),
        "per_seed": {
            "cfr1k": raw.init_values.tolist(),
            "jps_raw_start": raw.values.tolist(),
            "jps_purified_start": pure.values.tolist(),
        },
        "wall_seconds": wall,
        "cpu_seconds": cpu,
    }


def table(results: dict) -> str:
    lines = [
        "| game | seeds | #States | #Infosets | D | CFR1k (paper) | CFR1k+JPS (paper) | "
        "CFR1k(pure)+JPS | best over seeds (best known) | seeds at best known |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in PAPER:
        r = results.get(name)
        if r is None:
            continue
        cfr1k, jps, best_known = PAPER[name]
        raw, pure = r["jps_raw_start"], r["jps_purified_start"]
        best = max(raw["best"], pure["best"])
        depth = "full" if r["depth"] is None else r["depth"]
        lines.append(
            f"| {name} | {r['seeds']} | {r['states']} | {r['infosets']} | {depth} | "
            f"{r['cfr1k']['mean']:.3f} ({cfr1k:.2f}) | {raw['mean']:.3f} ({jps:.2f}) | "
            f"{pure['mean']:.3f} | {best:.3f} ({best_known:.2f}) | "
            f"{raw['seeds_at_best_known']} / {pure['seeds_at_best_known']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(PAPER), help="default: all eleven")
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=cores())
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--print-only", action="store_true", help="print the saved table")
    args = parser.parse_args()
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    if not args.print_only:
        for name in args.games:
            if name not in PAPER:
                parser.error(f"unknown game {name}; choose from {', '.join(PAPER)}")
            results[name] = measure(name, args.seeds, args.threads)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1))
            r = results[name]
            print(
                f"{name}: cfr1k {r['cfr1k']['mean']:.4f}, jps {r['jps_raw_start']['mean']:.4f} "
                f"(purified start {r['jps_purified_start']['mean']:.4f}), "
                f"{r['wall_seconds']:.0f} s wall, {r['cpu_seconds']:.0f} s cpu",
                flush=True,
            )
    print(table(results))


if __name__ == "__main__":
    main()
