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
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from rbc_data import trout_cases  # noqa: E402

from fogsearch.bot import LOST  # noqa: E402
from fogsearch.search import SearchConfig, search  # noqa: E402

BANDS = ((2, 8), (9, 32), (33, 64), (65, 128), (129, 256), (257, 512), (513, 20_000))


def band_of(boards: int) -> tuple[int, int]:
    return next(band for band in BANDS if band[0] <= boards <= band[1])


@dataclass(frozen=True)
class Outcome:
    """Depth 2 against depth 3 on one set."""

    completed: bool
    """Depth 3 finished within the time limit."""
    lost_only_deeper: bool
    """Depth 3 finds every request losing our king on some board; depth 2 does not."""
    best_changed: bool
    seconds: float


def measure(fens: list[str], seconds: float) -> Outcome:
    """Searches ``fens`` to depth 2, and to depth 3 within ``seconds``, as the bot does."""
    shallow = search(fens, 2, config=SearchConfig(mode="exact", sense_mode="min_size"))
    deep_config = SearchConfig(mode="exact", sense_mode="min_size", time_limit=seconds)
    started = time.monotonic()
    deep = search(fens, 3, config=deep_config)
    elapsed = time.monotonic() - started
    completed = deep.depth == 3
    return Outcome(
        completed=completed,
        lost_only_deeper=completed and deep.value <= LOST < shallow.value,
        best_changed=completed and deep.best_move != shallow.best_move,
        seconds=elapsed,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-boards", type=int, default=2)
    parser.add_argument("--max-boards", type=int, default=512)
    parser.add_argument("--seconds", type=float, default=8.0, help="depth-3 time limit")
    parser.add_argument("--every", type=int, default=1, help="use every n-th recorded game")
    parser.add_argument("--sample", type=int, default=256, help="largest set searched")
    args = parser.parse_args()

    rng = random.Random(0)
    bands: dict[tuple[int, int], list[Outcome]] = {}
    cases = [
        case
        for case in trout_cases(args.min_boards, args.max_boards)
        if int(case.game.removeprefix("trout")) % args.every == 0
    ]
    for case in cases:
        fens = case.fens if len(case.fens) <= args.sample else rng.sample(case.fens, args.sample)
        bands.setdefault(band_of(len(case.fens)), []).append(measure(fens, args.seconds))

    print(f"{len(cases)} sets, depth 3 within {args.seconds:g} s\n")
    print(
        "| boards | sets | depth 3 completed | depth 3 all lost, depth 2 not "
        "| best request changed | mean depth-3 seconds |"
    )
    print("|---|---|---|---|---|---|")
    for band in sorted(bands):
        outcomes = bands[band]
        print(
            f"| {band[0]}-{band[1]} | {len(outcomes)} "
            f"| {sum(o.completed for o in outcomes)} "
            f"| {sum(o.lost_only_deeper for o in outcomes)} "
            f"| {sum(o.best_changed for o in outcomes)} "
            f"| {sum(o.seconds for o in outcomes) / len(outcomes):.1f} |"
        )


if __name__ == "__main__":
    main()
