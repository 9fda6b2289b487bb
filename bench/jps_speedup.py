"""JPS against brute-force search, per iteration (paper 002, §6: ~4x on Simple Bidding N = 8,
~13x on N = 16 at depth 3, ~3x on Comm L = 4, up to 30x on Mini-Bridge N = 4).

One iteration searches the same chains both ways from the same policy (CFR1k's last iterate,
seed 0): JPS evaluates the policy once and values every chain by Theorem 1; brute force sets
each chain's policy and evaluates the whole game again. For depth-limited games every starting
depth is one iteration. Reported per iteration: CPU and wall seconds of each, the chains (links)
examined, and the states each touched (JPS: states traced or whose terms it summed, plus one
sweep of the game; brute force: a sweep of the game per chain), so that the ratios can be read
independently of the machine's load.

    python bench/jps_speedup.py
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from fogsearch.jps import brute_force_step, cfr, jps_step, load_game, start_infosets

#: (game, depth D, starting depths (None: the first information sets), the paper's ratio).
CASES = [
    ("comm:l=4", None, [None], "~3x"),
    ("simple_bidding:n=8", None, [None], "~4x (1 s vs 4 s)"),
    ("simple_bidding:n=16", 3, [1, 2, 3, 4], "~13x (20 s vs 260 s)"),
    ("mini_bridge:n=3", None, [None], "-"),
    ("mini_bridge:n=4", 3, [1, 2, 3, 4, 5, 6, 7, 8], "up to 30x"),
]

DEFAULT_OUT = Path(__file__).resolve().parent / "out" / "jps_speedup.json"


def timed(fn, *args, at_least: float = 0.0):
    """``fn(*args)``, and its CPU and wall seconds per call, repeated until ``at_least`` CPU
    seconds have passed (short calls are below the clock's resolution otherwise)."""
    cpu, wall = time.process_time(), time.perf_counter()
    calls = 0
    while True:
        out = fn(*args)
        calls += 1
        if time.process_time() - cpu >= at_least:
            break
    return out, (time.process_time() - cpu) / calls, (time.perf_counter() - wall) / calls


def measure(name: str, depth: int | None, starts: list[int | None]) -> list[dict]:
    game = load_game(name)
    policy = cfr(game, 1000, seed=0).current
    rows = []
    for at in starts:
        infosets = start_infosets(game, at)
        fast, fast_cpu, fast_wall = timed(jps_step, game, policy, infosets, depth, at_least=0.5)
        slow, slow_cpu, slow_wall = timed(brute_force_step, game, policy, infosets, depth)
        assert abs(fast.gain - slow.gain) < 1e-9, (name, at, fast.gain, slow.gain)
        jps_states = fast.stats["states"] + game.num_states  # plus its one evaluation
        rows.append(
            {
                "game": name,
                "depth": depth,
                "start_depth": at,
                "chains": fast.stats["links"],
                "gain": fast.gain,
                "jps_cpu": fast_cpu,
                "jps_wall": fast_wall,
                "brute_cpu": slow_cpu,
                "brute_wall": slow_wall,
                "jps_states": jps_states,
                "brute_states": slow.stats["states"],
                "cpu_ratio": slow_cpu / max(fast_cpu, 1e-9),
                "states_ratio": slow.stats["states"] / jps_states,
            }
        )
        r = rows[-1]
        print(
            f"{name} start {at}: {r['chains']:.0f} chains, JPS {fast_cpu:.4f} s cpu, brute "
            f"{slow_cpu:.3f} s cpu ({r['cpu_ratio']:.0f}x; states {r['states_ratio']:.0f}x)",
            flush=True,
        )
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| game | D | start depth | chains | JPS s (cpu) | brute force s (cpu) | time ratio | "
        "states JPS | states brute force | states ratio | paper |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    paper = {c[0]: c[3] for c in CASES}
    for r in rows:
        depth = "full" if r["depth"] is None else r["depth"]
        start = "first" if r["start_depth"] is None else r["start_depth"]
        lines.append(
            f"| {r['game']} | {depth} | {start} | {r['chains']:.0f} | {r['jps_cpu']:.4f} | "
            f"{r['brute_cpu']:.2f} | {r['cpu_ratio']:.0f}x | {r['jps_states']:.3g} | "
            f"{r['brute_states']:.3g} | {r['states_ratio']:.0f}x | {paper[r['game']]} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=[c[0] for c in CASES])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    rows = []
    for name, depth, starts, _ in CASES:
        if name in args.games:
            rows += measure(name, depth, starts)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1))
    print(table(rows))


if __name__ == "__main__":
    main()
