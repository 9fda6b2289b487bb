"""Oh Hell: the searching player (its Oh Hell default: one information-set tree over 256 uniform
consistent deals) against OpenSpiel's ISMCTS (which resamples with OpenSpiel's own resampler) and
against uniform random, at equal time per move.

Three players, OpenSpiel's default oh_hell (52 cards, 1-17 tricks at random), every deal played
three times with the players rotated through the seats. Prints each player's mean return (points
per game) with a 95% interval over deals, and the paired difference search - ISMCTS per deal.

    python bench/ttcg_ohhell_match.py --deals 300 --seed 2027 --move-seconds 0.05 --workers 2

``--opponents`` replaces the other two seats' specs, e.g. ``"openspiel-ismcts:resampler=fogsearch"
random`` for OpenSpiel's ISMCTS handed a consistently re-dealt state each move (its own resampler
keeps the true undealt pile), or ``openspiel-ismcts "openspiel-ismcts:resampler=fogsearch@fair"``
for both forms of the bot at one table.
"""

from __future__ import annotations

import argparse
import time

from fogsearch.ttcg.match import run_match
from fogsearch.ttcg.match.report import interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--move-seconds", type=float, default=0.05)
    parser.add_argument("--sampler", default="us")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--param", action="append", default=[], help="oh_hell KEY=VALUE")
    parser.add_argument(
        "--opponents",
        nargs=2,
        default=["openspiel-ismcts", "random"],
        metavar="SPEC",
        help="the other two seats (player specs of `fogsearch cards match`)",
    )
    args = parser.parse_args()
    params = {k: int(v) for k, v in (p.split("=") for p in args.param)}
    players = [
        f"search:sampler={args.sampler},iterations=1000000,threads=1",
        *args.opponents,
    ]
    t = time.perf_counter()
    s = run_match(
        "oh_hell",
        players,
        args.deals,
        args.seed,
        params=params,
        move_seconds=args.move_seconds,
        workers=args.workers,
    )
    print(f"{s.deals} deals x 3 rotations, {args.move_seconds} s a move, "
          f"{time.perf_counter() - t:.0f} s\n")  # fmt: skip
    print("| player | mean return | 95% interval |")
    print("|---|---|---|")
    for name, mean, (low, high) in zip(s.players, s.mean_return, s.ci95, strict=True):
        print(f"| {name} | {mean:.2f} | [{low:.2f}, {high:.2f}] |")
    for other in (1, 2):
        diff = [row[0] - row[other] for row in s.per_deal]
        mean, low, high = interval(diff)
        print(f"| search - {s.players[other]} (paired by deal) | {mean:+.2f} | "
              f"[{low:+.2f}, {high:+.2f}] |")  # fmt: skip


if __name__ == "__main__":
    main()
