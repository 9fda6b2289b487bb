"""Oh Hell: the searching player (its Oh Hell default: one information-set tree over 256 uniform
consistent deals) against OpenSpiel's ISMCTS (which resamples with OpenSpiel's own resampler) and
against uniform random, at equal time per move.

Three players, OpenSpiel's default oh_hell (52 cards, 1-17 tricks at random), every deal played
three times with the players rotated through the seats. Prints each player's mean return (points
per game) with a 95% interval over deals, and the paired difference search - ISMCTS per deal.

    python bench/ttcg_ohhell_match.py --deals 300 --seed 2027 --move-seconds 0.05 --workers 2

``--plot PATH`` draws each player's mean return, and the searching player's paired margin over
each opponent by the deal's number of tricks (the undealt pile shrinks as tricks grow).

``--opponents`` replaces the other two seats' specs, e.g. ``"openspiel-ismcts:resampler=fogsearch"
random`` for OpenSpiel's ISMCTS handed a consistently re-dealt state each move (its own resampler
keeps the true undealt pile), or ``openspiel-ismcts "openspiel-ismcts:resampler=fogsearch@fair"``
for both forms of the bot at one table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fogsearch.ttcg.match import deal_actions, run_match
from fogsearch.ttcg.match.report import interval
from fogsearch.ttcg.match.runner import deal_seed

TRICK_BUCKETS = [(1, 4), (5, 8), (9, 12), (13, 17)]


def tricks_of_deals(deals: int, seed: int, params: dict) -> list[int]:
    """Each deal's number of tricks (its first chance action), as the match dealt them."""
    return [deal_actions("oh_hell", params, deal_seed(seed, d))[0] for d in range(deals)]


def plot(summary, tricks: list[int], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    names = summary.players
    means = summary.mean_return
    errors = [[m - lo for m, (lo, _) in zip(means, summary.ci95, strict=True)],
              [hi - m for m, (_, hi) in zip(means, summary.ci95, strict=True)]]  # fmt: skip
    left.barh(names, means, xerr=errors, capsize=3, color=["tab:blue", "tab:orange", "tab:gray"])
    left.invert_yaxis()
    left.set_xlabel("mean return per game (points, 95% interval)")
    labels = [f"{lo}-{hi}" for lo, hi in TRICK_BUCKETS]
    for other, offset in ((1, -0.15), (2, 0.15)):
        points = []
        for lo, hi in TRICK_BUCKETS:
            diff = [row[0] - row[other] for row, t in zip(summary.per_deal, tricks, strict=True)
                    if lo <= t <= hi]  # fmt: skip
            points.append(interval(diff) if diff else (float("nan"),) * 3)
        x = [i + offset for i in range(len(TRICK_BUCKETS))]
        mid = [m for m, _, _ in points]
        err = [[m - lo for m, lo, _ in points], [hi - m for m, _, hi in points]]
        right.errorbar(x, mid, yerr=err, fmt="o", capsize=3, label=f"search - {names[other]}")
    right.axhline(0, color="black", linewidth=0.8)
    right.set_xticks(range(len(TRICK_BUCKETS)), labels)
    right.set_xlabel("tricks in the deal")
    right.set_ylabel("paired margin (points a game)")
    right.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


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
    parser.add_argument("--plot", type=Path, help="draw the returns and margins by trick count")
    args = parser.parse_args()
    params = {k: int(v) for k, v in (p.split("=") for p in args.param)}
    players = [
        f"search:sampler={args.sampler},iterations=1000000,threads=1@search ({args.sampler})",
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
    if args.plot:
        tricks = tricks_of_deals(args.deals, args.seed, params)
        title = (f"Oh Hell, {s.deals} deals x 3 rotations, {args.move_seconds} s a move, "
                 f"sampler {args.sampler}, seed {args.seed}")  # fmt: skip
        plot(s, tricks, args.plot, title)


if __name__ == "__main__":
    main()
