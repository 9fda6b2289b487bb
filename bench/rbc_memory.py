"""Memory per tracked board: a set grown by opponent moves it never sees (White passes, Black's
moves unseen), one expansion measured per child process.

For each expansion it prints the set size, the resident memory once the new set is built
(beyond the memory of an empty interpreter with fogsearch loaded), and the peak during the
expansion, both per board of the new set. The bot's ``max_tracked_boards`` bound is documented
from these figures.

    python bench/rbc_memory.py [--threads 1 2] [--expansions 6]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = """
import json, resource, sys
import chess
from fogsearch.rbc import BoardSet

def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

threads, expansions = int(sys.argv[1]), int(sys.argv[2])
base = rss_bytes()
boards = BoardSet(chess.WHITE, threads=threads)
boards.handle_opponent_move_result(False, None)
for _ in range(expansions - 1):
    boards.handle_move_result(None, None, False, None)
    boards.handle_opponent_move_result(False, None)
boards.handle_move_result(None, None, False, None)
parents = len(boards)
before = rss_bytes()
boards.handle_opponent_move_result(False, None)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
after = rss_bytes()
print(json.dumps({"parents": parents, "boards": len(boards), "base": base, "before": before,
                  "peak": peak, "after": after}))
"""


def measure(threads: int, expansions: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(threads), str(expansions)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--expansions", type=int, default=6)
    args = parser.parse_args(argv)
    print("| threads | parents | boards | resident / board | peak / board | peak |")
    print("|---|---|---|---|---|---|")
    for threads in args.threads:
        for expansions in range(4, args.expansions + 1):
            m = measure(threads, expansions)
            resident = (m["after"] - m["base"]) / m["boards"]
            peak = (m["peak"] - m["base"]) / m["boards"]
            print(
                f"| {threads} | {m['parents']:,} | {m['boards']:,} | {resident:.0f} B "
                f"| {peak:.0f} B | {(m['peak'] - m['base']) / 2**20:.0f} MiB |",
                flush=True,
            )


if __name__ == "__main__":
    main()
