"""Table 2 and Figure 2 of paper 002: sample-based JPS from CFR1k, by samples per information set.

For each seed: the paper's CFR (1,000 iterations), then, from its raw last iterate, full-state JPS
("All states", the paper's depth) and sample-based JPS with k = 1, 2, 5, 8, 15, 20, 25, 30 states
drawn with replacement per starting information set, 100 iterations each, reporting the best
iterate (as §6 does). All settings share each seed's CFR run. Results go to ``--out`` (JSON,
merged per game) and a markdown table; ``--plot`` draws Figure 2 (the mean improvement over
CFR1k against k, Simple Bidding N = 16) into ``bench/plots/jps_figure2.png``.

    python bench/jps_table2.py --games mini_hanabi --seeds 1000
    python bench/jps_table2.py --games simple_bidding:n=16 --seeds 100 --plot
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from fogsearch.arguments import cores
from fogsearch.jps import load_game, run_seeds_many

SAMPLES = [1, 2, 5, 8, 15, 20, 25, 30]

#: Table 2 of the paper (CFR1k rows): game -> (all states, then k = 1 ... 30).
PAPER = {
    "mini_hanabi": [9.50, 10.00, 9.99, 9.95, 9.75, 9.51, 9.51, 9.51, 9.51],
    "simple_bidding:n=16": [10.56, 10.47, 10.47, 10.49, 10.52, 10.58, 10.60, 10.61, 10.61],
}

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "out" / "jps_table2.json"
PLOT = HERE / "plots" / "jps_figure2.png"


def measure(name: str, seeds: int, threads: int, iterations: int) -> dict:
    game = load_game(name)
    settings = [{}] + [{"samples": k, "iterations": iterations} for k in SAMPLES]
    wall = time.time()
    results = run_seeds_many(game, "cfr1k", seeds, settings, threads=threads, progress=True)
    wall = time.time() - wall
    columns = []
    for k, r in zip([None, *SAMPLES], results, strict=True):
        iterations_done = float(r.iterations.sum())
        columns.append(
            {
                "samples": k,
                "mean": r.mean,
                "std": float(r.values.std()),
                "best": r.best,
                "seconds_per_iteration": r.seconds_per_iteration,
                "states_visited_per_iteration": float(r.states_visited.sum()) / iterations_done,
                "links_per_iteration": float(r.links.sum()) / iterations_done,
            }
        )
    return {
        "game": name,
        "seeds": seeds,
        "threads": threads,
        "iterations": iterations,
        "depth": game.paper_depth,
        "cfr1k_mean": results[0].init_mean,
        "cfr1k_raw_start_mean": float(results[0].start_values.mean()),
        "columns": columns,
        "wall_seconds": wall,
    }


def table(results: dict) -> str:
    head = "| game | seeds | CFR1k | All states | " + " | ".join(f"k={k}" for k in SAMPLES)
    lines = [head + " |", "|---" * (4 + len(SAMPLES)) + "|"]
    for name, paper in PAPER.items():
        r = results.get(name)
        if r is None:
            continue
        cells = [f"{c['mean']:.2f} ({p:.2f})" for c, p in zip(r["columns"], paper, strict=True)]
        lines.append(
            f"| {name} | {r['seeds']} | {r['cfr1k_mean']:.2f} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines)


def plot(results: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = results["simple_bidding:n=16"]
    sampled = r["columns"][1:]
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    means = np.array([c["mean"] for c in sampled])
    errors = np.array([c["std"] for c in sampled]) / np.sqrt(r["seeds"])
    ax.errorbar(SAMPLES, means, yerr=errors, marker="o", label="CFR1k + sample-based JPS")
    ax.plot(SAMPLES, PAPER["simple_bidding:n=16"][1:], "s:", color="gray", label="paper (Table 2)")
    ax.axhline(r["cfr1k_mean"], linestyle="--", color="black", label="CFR1k (purified)")
    ax.axhline(r["columns"][0]["mean"], linestyle="-.", color="tab:green", label="full-state JPS")
    ax.set_xlabel("samples per information set")
    ax.set_ylabel("expected reward")
    ax.set_title(f"Simple Bidding N=16, {r['seeds']} seeds, best of {r['iterations']} iterations")
    ax.legend(fontsize=8)
    fig.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=120)
    print(f"wrote {PLOT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(PAPER))
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--threads", type=int, default=cores())
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--plot", action="store_true", help="draw Figure 2 from the saved results")
    parser.add_argument("--print-only", action="store_true")
    args = parser.parse_args()
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    if not args.print_only:
        for name in args.games:
            if name not in PAPER:
                parser.error(f"unknown game {name}; choose from {', '.join(PAPER)}")
            results[name] = measure(name, args.seeds, args.threads, args.iterations)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1))
    print(table(results))
    if args.plot and "simple_bidding:n=16" in results:
        plot(results)


if __name__ == "__main__":
    main()
