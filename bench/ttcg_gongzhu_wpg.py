"""Gongzhu: Winning Points over Mr. Greed (ScrofaZero §5.2): two copies of a player against two Mr.
Greeds on duplicate deals (each deal played twice, the teams swapping seats); WPG is the player's
mean return, its team's points minus the Greeds' per game, with a 95% interval over deals. Mr.
Greed against itself scores 0 by construction, as in the paper's Table 2.

    .venv/bin/python bench/ttcg_gongzhu_wpg.py --deals 1024 --search-deals 256 --workers 2

Rule-based players get ``--deals`` deals (the paper's 1,024 x 2); each searching player
``--search-deals`` (a search takes about a second a game). Prints a markdown table for
bench/RESULTS.md, and also the rule-based players' head-to-head table (the paper's Table 2).
"""

from __future__ import annotations

import argparse
import time

from fogsearch.ttcg.match import run_match

RULE_BASED = ["random", "if", "greed@greed-copy"]
SAMPLERS = ["us", "ss", "us+iec", "ss+iec", "gibbs", "pairs"]


def row(name: str, summary, seconds: float) -> str:
    mean = summary.mean_return[0]
    low, high = summary.ci95[0]
    return (
        f"| {name} | {mean:+.1f} | [{low:+.1f}, {high:+.1f}] | {summary.deals} x 2 | "
        f"{seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--search-deals", type=int, default=256)
    parser.add_argument("--samples", type=int, default=9, help="deals sampled per move (9: §5.3)")
    parser.add_argument("--iterations", type=int, default=300, help="MCTS iterations per deal")
    parser.add_argument("--samplers", default=",".join(SAMPLERS))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--skip-rule-based", action="store_true")
    args = parser.parse_args()

    print("| player (two copies) | WPG | 95% interval | deals | seconds |")
    print("|---|---|---|---|---|")
    if not args.skip_rule_based:
        for spec in RULE_BASED:
            t = time.perf_counter()
            s = run_match("gongzhu", [spec, "greed"], args.deals, args.seed, workers=args.workers)
            print(row(spec.split("@")[0], s, time.perf_counter() - t), flush=True)
    for sampler in filter(None, args.samplers.split(",")):
        spec = f"search:sampler={sampler},deals={args.samples},iterations={args.iterations}"
        t = time.perf_counter()
        s = run_match(
            "gongzhu", [spec, "greed"], args.search_deals, args.seed, workers=args.workers
        )
        print(row(f"search, {sampler}", s, time.perf_counter() - t), flush=True)
    if not args.skip_rule_based:
        print("\nHead to head (row player's mean return against the column player):\n")
        names = ["random", "if", "greed"]
        print("| | " + " | ".join(names) + " |")
        print("|---" * (len(names) + 1) + "|")
        for a in names:
            cells = []
            for b in names:
                if a == b:
                    cells.append("0")
                    continue
                s = run_match("gongzhu", [a, b], args.deals, args.seed, workers=args.workers)
                cells.append(f"{s.mean_return[0]:+.0f}")
            print(f"| {a} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
