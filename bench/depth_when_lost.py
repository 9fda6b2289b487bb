"""How often a deeper search finds every request lost where a shallower one does not.

The bot's search values a request by the worst case over the set's boards, which grows more
pessimistic with depth: the opponent's unseen pieces may stand anywhere the observations allow.
On the sets the bot held against TroutBot (``bench/data``, its moves only), this searches each set
to depth 2 and, within ``--seconds``, to depth 3 (exact mode, min_size senses, a seeded sample of
at most 256 boards, as the bot does), and prints per band of set sizes how many depth-3 searches
completed, how many found every request losing our king where depth 2 did not (the bot then
decides by depth 2: ``FogsearchBotConfig.shallower_when_lost``), and how often the best request
changed.

    python bench/depth_when_lost.py --min-boards 2 --max-boards 512 --seconds 8 --every 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from rbc_data import trout_cases  # noqa: E402

from fogsearch.bot import LOST  # noqa: E402
from fogsearch.search import SearchConfig, search  # noqa: E402

BANDS = ((2, 8), (9, 32), (33, 64), (65, 128), (129, 256), (257, 512), (513, 20_000))


def band_of(boards: int) -> tuple[int, int]:
    return next(band for band in BANDS if band[0] <= boards <= band[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-boards", type=int, default=2)
    parser.add_argument("--max-boards", type=int, default=512)
    parser.add_argument("--seconds", type=float, default=8.0, help="depth-3 time limit")
    parser.add_argument("--every", type=int, default=1, help="use every n-th recorded game")
    parser.add_argument("--sample", type=int, default=256, help="largest set searched")
    args = parser.parse_args()

    rng = random.Random(0)
    rows: dict[tuple[int, int], list[int]] = {}
    cases = [
        case
        for case in trout_cases(args.min_boards, args.max_boards)
        if int(case.game.removeprefix("trout")) % args.every == 0
    ]
    for case in cases:
        fens = case.fens if len(case.fens) <= args.sample else rng.sample(case.fens, args.sample)
        config = SearchConfig(mode="exact", sense_mode="min_size")
        shallow = search(fens, 2, config=config)
        started = time.monotonic()
        deep = search(
            fens,
            3,
            config=SearchConfig(mode="exact", sense_mode="min_size", time_limit=args.seconds),
        )
        seconds = time.monotonic() - started
        row = rows.setdefault(band_of(len(case.fens)), [0, 0, 0, 0, 0])
        completed = deep.depth == 3
        row[0] += 1
        row[1] += completed
        row[2] += completed and deep.value <= LOST < shallow.value
        row[3] += completed and deep.best_move != shallow.best_move
        row[4] += round(seconds * 1000)

    print(f"{len(cases)} sets, depth 3 within {args.seconds:g} s\n")
    print(
        "| boards | sets | depth 3 completed | depth 3 all lost, depth 2 not "
        "| best request changed | mean depth-3 seconds |"
    )
    print("|---|---|---|---|---|---|")
    for band in sorted(rows):
        sets, completed, lost, changed, millis = rows[band]
        print(
            f"| {band[0]}-{band[1]} | {sets} | {completed} | {lost} | {changed} "
            f"| {millis / 1000 / sets:.1f} |"
        )


if __name__ == "__main__":
    main()
