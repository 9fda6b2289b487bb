"""Search results on recorded sets as JSON lines: the before/after evidence that a refactor kept
the search's behaviour. Run it on two installations and compare the files with ``--compare``.

For 64 recorded sets (sets the bot held against TroutBot, and sets of greedy-sensing baseline
games), it writes the best move, the value and every root request's value of three depth-2
searches (exact/min_size, none/search, sketch/min_size), and the tie-break's mean reply values
with mate threats.

    python bench/search_fingerprint.py before.jsonl      # on the old installation
    python bench/search_fingerprint.py after.jsonl       # on the new one
    python bench/search_fingerprint.py --compare before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from rbc_data import cases, trout_cases

from fogsearch.search import SearchConfig, mean_reply_values, search

CONFIGS = (("exact", "min_size"), ("none", "search"), ("sketch", "min_size"))


def fingerprint(out_path: str) -> None:
    picked = trout_cases(1, 256)[::7][:60] + cases(1, 300)[::25][:20]
    with open(out_path, "w") as out:
        for index, case in enumerate(picked):
            record: dict = {"i": index, "game": case.game, "n": len(case.fens)}
            for mode, sense in CONFIGS:
                try:
                    r = search(case.fens, 2, SearchConfig(mode=mode, sense_mode=sense))
                    best = r.best_move.uci() if r.best_move else None
                    record[f"{mode}/{sense}"] = [best, r.value, sorted(r.move_values.items())]
                except Exception as exc:  # noqa: BLE001 - a refused set is part of the behaviour
                    record[f"{mode}/{sense}"] = type(exc).__name__
            try:
                means = mean_reply_values(case.fens, mate_threats=True)
                record["means"] = sorted(means.items())
            except Exception as exc:  # noqa: BLE001
                record["means"] = type(exc).__name__
            out.write(json.dumps(record) + "\n")
            print(index, len(case.fens), file=sys.stderr)


def compare(before_path: str, after_path: str) -> int:
    with open(before_path) as b, open(after_path) as a:
        before = [json.loads(line) for line in b]
        after = [json.loads(line) for line in a]
    differing = [x["i"] for x, y in zip(before, after, strict=True) if x != y]
    print(f"{len(before)} sets, {len(differing)} differ: {differing}")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.paths)
    fingerprint(args.paths[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
