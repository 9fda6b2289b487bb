"""Gongzhu: Winning Points over Mr. Greed (ScrofaZero §5.2): two copies of a player against two Mr.
Greeds on duplicate deals (each deal played twice, the teams swapping seats); WPG is the player's
mean return, its team's points minus the Greeds' per game, with a 95% interval over deals. Mr.
Greed against itself scores 0 by construction, as in the paper's Table 2.

    python bench/ttcg_gongzhu_wpg.py --deals 1024 --search-deals 1024 --workers 2

Rule-based players get ``--deals`` deals (the paper's 1,024 x 2); each searching player
``--search-deals`` (a search takes about a second a game). Prints a markdown table for
bench/RESULTS.md, and also the rule-based players' head-to-head table (the paper's Table 2).
Each row is also written to ``--json`` as it finishes (with every deal's result), and the WPG of
every player with its interval is drawn to ``--plot`` (``python bench/ttcg_gongzhu_wpg.py
--replot`` redraws it from the JSON without playing). Every player meets the same deals, so each
sampler is also compared with US deal by deal (the paper's Table 3 question, SS+IEC above SS
above US), with the paired difference's 95% interval.

A sampler is a ``search`` spec's sampler and its settings: ``ss,strata=equal`` is SS with the
paper's p(S_j) = 1/t.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from fogsearch.ttcg.match import run_match
from fogsearch.ttcg.match.report import interval

JSON = Path(__file__).parent / "data" / "ttcg_gongzhu_wpg.json"
PLOT = Path(__file__).parent / "plots" / "ttcg_gongzhu_wpg.png"

RULE_BASED = ["random", "if", "greed@greed-copy"]
SAMPLERS = ["us", "ss", "ss,strata=equal", "us+iec", "ss+iec", "gibbs", "pairs"]


def row(name: str, summary, seconds: float) -> dict:
    low, high = summary.ci95[0]
    return {
        "player": name,
        "wpg": summary.mean_return[0],
        "ci95": [low, high],
        "deals": summary.deals,
        "seconds": seconds,
        # Points are whole or half (a deal's two games averaged): kept short in the JSON.
        "per_deal": [
            int(v) if float(v).is_integer() else v for v in (r[0] for r in summary.per_deal)
        ],
    }


def paired(rows: list[dict], baseline: str = "search, us") -> list[str]:
    """Each searching player's WPG minus ``baseline``'s on the same deals, as table rows."""
    base = next((r for r in rows if r["player"] == baseline), None)
    if base is None:
        return []
    lines = []
    for r in rows:
        if r is base or not r["player"].startswith("search") or len(r["per_deal"]) < 2:
            continue
        n = min(len(r["per_deal"]), len(base["per_deal"]))
        pairs = zip(r["per_deal"][:n], base["per_deal"][:n], strict=True)
        mean, low, high = interval([a - b for a, b in pairs])
        lines.append(f"| {r['player']} - US | {mean:+.1f} | [{low:+.1f}, {high:+.1f}] | {n} x 2 |")
    return lines


def markdown(r: dict) -> str:
    low, high = r["ci95"]
    return (
        f"| {r['player']} | {r['wpg']:+.1f} | [{low:+.1f}, {high:+.1f}] | {r['deals']} x 2 | "
        f"{r['seconds']:.0f} |"
    )


def plot(rows: list[dict], path: Path) -> None:
    """WPG with its 95% interval, one bar a player, Mr. Greed's 0 marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 0.45 * len(rows) + 1.2))
    names = [r["player"] for r in rows]
    wpg = [r["wpg"] for r in rows]
    errors = [[r["wpg"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["wpg"] for r in rows]]
    colors = ["tab:blue" if n.startswith("search") else "tab:gray" for n in names]
    ax.barh(names, wpg, xerr=errors, color=colors, capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("WPG: points a game over two Mr. Greeds (95% interval)")
    deals = sorted({r["deals"] for r in rows})
    ax.set_title(
        f"Gongzhu, two copies against two Mr. Greeds, {'/'.join(map(str, deals))} x 2 deals"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--search-deals", type=int, default=1024)
    parser.add_argument("--samples", type=int, default=9, help="deals sampled per move (9: §5.3)")
    parser.add_argument("--iterations", type=int, default=300, help="MCTS iterations per deal")
    parser.add_argument("--samplers", nargs="*", default=SAMPLERS, help="e.g. us ss,strata=equal")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--skip-rule-based", action="store_true")
    parser.add_argument("--json", type=Path, default=JSON, help="rows written as they finish")
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument("--replot", action="store_true", help="draw --plot from --json and stop")
    args = parser.parse_args()
    if args.replot:
        plot(json.loads(args.json.read_text())["rows"], args.plot)
        return

    rows: list[dict] = []

    def done(r: dict) -> None:
        rows.append(r)
        print(markdown(r), flush=True)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        # One row a line, each deal's result within it.
        body = ",\n".join(json.dumps(r) for r in rows)
        args.json.write_text(f'{{"seed": {args.seed}, "rows": [\n{body}\n]}}\n')

    print("| player (two copies) | WPG | 95% interval | deals | seconds |")
    print("|---|---|---|---|---|")
    if not args.skip_rule_based:
        for spec in RULE_BASED:
            t = time.perf_counter()
            s = run_match("gongzhu", [spec, "greed"], args.deals, args.seed, workers=args.workers)
            done(row(spec.split("@")[0], s, time.perf_counter() - t))
    for sampler in args.samplers:
        spec = f"search:sampler={sampler},deals={args.samples},iterations={args.iterations}"
        t = time.perf_counter()
        s = run_match(
            "gongzhu", [spec, "greed"], args.search_deals, args.seed, workers=args.workers
        )
        done(row(f"search, {sampler}", s, time.perf_counter() - t))
    if rows:
        plot(rows, args.plot)
    differences = paired(rows)
    if differences:
        print("\nEach sampler against US on the same deals (paired):\n")
        print("| searching player | WPG difference | 95% interval | deals |")
        print("|---|---|---|---|")
        print("\n".join(differences), flush=True)
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
